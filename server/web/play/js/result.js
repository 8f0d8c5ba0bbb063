// "Why did I lose?": the result dialog's account of the match, read from the
// events the page received (updates, the first state, and after a reload
// the history reply: docs/protocol.md "history"). Pure functions of the
// events, so the same account comes back after a reload.
//
// summarize(entries, ctx) -> {cause, turning, seats}
//   entries: [{seq, events}] in seq order (the page's log, deduplicated)
//   ctx: {seatName(seat), cardName(uid, id), seats: how many}
//   cause: one sentence, who did what to whom (R4.5, R4.6, R11.4)
//   turning: one sentence, the turn it turned, or ""
//   loser: the seat whose defeat ended the match, or null
//   seats: [{seat, dealt, taken, played}] damage dealt by the seat's cards,
//     damage its Stronghold took, cards it played

import { h, clear } from "./dom.js";

// Fills the result dialog's #result-summary of GameScreen `game`.
export function renderSummary(game) {
  const el = game.resultEl.querySelector("#result-summary");
  if (!el || !game.view) return;
  const entries = [...game.evs.entries()].sort((a, b) => a[0] - b[0]).map(([seq, events]) => ({ seq, events }));
  const sum = summarize(entries, { ...game._narrateCtx(), seats: game.view.seats.length });
  clear(el).append(...summaryView(sum, game.view, (s) => game.seatName(s)));
}

// The dialog's part: the cause, the turning point, a word for a player who
// lost without falling (R11.4), and a table of what each seat did.
export function summaryView(sum, view, seatName) {
  const out = [];
  if (sum.cause) out.push(h("p#result-cause", {}, sum.cause));
  const me = view.role === "player" ? view.viewer : null;
  if (me !== null && me !== undefined && sum.loser !== null && sum.loser !== me && view.seats.length > 2 &&
      !(view.winners || []).includes(me)) {
    out.push(h("p#result-why-you", {}, "Your own Fort still stood: the game ends the moment one Fort falls, and the owner " +
      "of the card that destroyed it wins (their team in 2 vs 2; everyone else when a player's own move did it: R11.4)."));
  }
  if (sum.turning) out.push(h("p#result-turning", {}, sum.turning));
  out.push(h("table#result-table", {},
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Player"), h("th", { scope: "col" }, "Damage dealt"),
      h("th", { scope: "col" }, "Damage taken"), h("th", { scope: "col" }, "Cards played"))),
    h("tbody", {}, ...sum.seats.map((s) => h("tr", { data: { seat: s.seat } },
      h("th", { scope: "row" }, seatName(s.seat)), h("td", {}, String(s.dealt)), h("td", {}, String(s.taken)),
      h("td", {}, String(s.played)))))));
  return out;
}

// Whose card a uid is: the last event that said so.
function noteOwner(owners, ev) {
  switch (ev.type) {
    case "card_played":
    case "creature_entered":
    case "creature_stacked":
    case "ai_revealed":
    case "ability_triggered":
    case "card_returned":
      if (ev.card !== undefined && ev.card !== null && ev.seat !== undefined) owners.set(ev.card, ev.seat);
      break;
    case "creature_destroyed":
      if (ev.seat !== undefined) owners.set(ev.card, ev.seat);
      break;
    default:
  }
}

export function summarize(entries, ctx) {
  const seats = [];
  for (let s = 0; s < ctx.seats; s++) seats.push({ seat: s, dealt: 0, taken: 0, played: 0 });
  const owners = new Map();
  let turn = 0;
  let gameOver = null;
  // The loser's Stronghold's story: each damage, move, flip, in order.
  const strongholdEvents = [];
  const flips = []; // {seat, side, turn}
  const takenByTurn = new Map(); // `${seat}:${turn}` -> damage
  let conceded = null;
  for (const { events } of entries) {
    for (const ev of events) {
      noteOwner(owners, ev);
      switch (ev.type) {
        case "turn_started":
          turn = ev.turn;
          break;
        case "card_played":
          if (seats[ev.seat]) seats[ev.seat].played++;
          break;
        case "damage_dealt": {
          const by = owners.get(ev.source);
          if (seats[by]) seats[by].dealt += ev.amount;
          break;
        }
        case "stronghold_damaged": {
          const by = owners.get(ev.source);
          if (seats[by]) seats[by].dealt += ev.amount;
          if (seats[ev.seat]) seats[ev.seat].taken += ev.amount;
          const key = `${ev.seat}:${turn}`;
          takenByTurn.set(key, (takenByTurn.get(key) || 0) + ev.amount);
          strongholdEvents.push({ ev, turn, by });
          break;
        }
        case "stronghold_moved": {
          // A move right after a hit is that hit's (R4.4), not the hand's.
          const last = strongholdEvents[strongholdEvents.length - 1];
          const byHit = !!last && last.ev.type === "stronghold_damaged" && last.ev.seat === ev.seat;
          strongholdEvents.push({ ev, turn, byHit });
          break;
        }
        case "card_removed":
          strongholdEvents.push({ ev, turn });
          break;
        case "stronghold_flipped":
          flips.push({ seat: ev.seat, side: ev.side, turn });
          strongholdEvents.push({ ev, turn });
          break;
        case "conceded":
          conceded = { seat: ev.seat, turn };
          break;
        case "game_over":
          gameOver = { ...ev, turn };
          break;
        default:
      }
    }
  }
  const loser = gameOver && gameOver.reason !== "concession" ? loserOf(gameOver, strongholdEvents)
    : conceded ? conceded.seat : null;
  return {
    cause: causeOf(gameOver, conceded, strongholdEvents, owners, ctx),
    turning: turningOf(gameOver, flips, takenByTurn, ctx),
    loser,
    seats,
  };
}

// The loser: game_over's `loser`, else (several losers, a free-for-all) the
// seat the last decisive Stronghold event was about.
function loserOf(over, strongholdEvents) {
  if (over && over.loser !== null && over.loser !== undefined) return over.loser;
  for (let i = strongholdEvents.length - 1; i >= 0; i--) {
    const s = strongholdEvents[i].ev.seat;
    if (s !== undefined && !(over && (over.winners || []).includes(s))) return s;
  }
  return null;
}

function causeOf(over, conceded, strongholdEvents, owners, ctx) {
  const S = (s) => ctx.seatName(s);
  if (!over) return "";
  const when = over.turn ? ` on turn ${over.turn}` : "";
  if (over.reason === "concession" && conceded) return `${S(conceded.seat)} conceded${when}.`;
  const loser = loserOf(over, strongholdEvents);
  if (loser === null) return "";
  if (over.reason === "stronghold_alone")
    return `${S(loser)} had no card left in hand beside the Stronghold${when}: that loses at once (R4.6).`;
  if (over.reason !== "fort_destroyed") return "";
  // The last thing that moved the loser's Fort right: a hit (whose card),
  // or the loser's own hand (cards played, exhaustion: R4.5, R4.6).
  for (let i = strongholdEvents.length - 1; i >= 0; i--) {
    const { ev, by } = strongholdEvents[i];
    if (ev.seat !== loser) continue;
    if (ev.type === "stronghold_damaged") {
      const card = ctx.cardName(ev.source, ev.source_id);
      const whose = by !== undefined && by !== null ? `${S(by)}'s ${card}` : card;
      return `${whose} hit ${S(loser)}'s Fort for ${ev.amount}${when}: the Fort reached the end of the hand and ${S(loser)} lost (R4.4, R4.6).`;
    }
    if (ev.type === "card_removed")
      return `${S(loser)}'s Fort reached the end of the hand when exhaustion removed a card${when} (R9, R4.6).`;
    if (ev.type === "stronghold_moved" && ev.to > ev.from && !strongholdEvents[i].byHit)
      return `${S(loser)}'s Fort reached the end of the hand as ${S(loser)}'s own cards left it${when} (R4.5, R4.6).`;
  }
  return `${S(loser)}'s Fort reached the end of the hand${when} (R4.6).`;
}

// The turn it turned: when the loser's Bastion fell (its Stronghold turned
// to the Fort side, R4.5), else the turn its Stronghold took most damage.
function turningOf(over, flips, takenByTurn, ctx) {
  if (!over || over.reason === "concession") return "";
  const loser = over.loser !== null && over.loser !== undefined ? over.loser : null;
  const S = (s) => ctx.seatName(s);
  const fell = flips.filter((f) => f.side === "fort" && (loser === null || f.seat === loser)).pop();
  if (fell) return `The turning point: turn ${fell.turn}, when ${S(fell.seat)}'s Bastion fell and the Fort came up (R4.5).`;
  let best = null;
  for (const [key, dmg] of takenByTurn) {
    const [seat, turn] = key.split(":").map(Number);
    if (loser !== null && seat !== loser) continue;
    if (!best || dmg > best.dmg) best = { seat, turn, dmg };
  }
  return best ? `The turning point: turn ${best.turn}, when ${S(best.seat)}'s Stronghold took ${best.dmg} damage.` : "";
}
