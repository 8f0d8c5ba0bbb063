// What the client tells a person: errors in words, and each event of an
// update as a sentence (the event log). Pure functions of their inputs.

const ERROR_WORDS = {
  // Session errors.
  hello_required: "The client has not said hello to the server yet.",
  unsupported_version: "This server speaks another version of the protocol.",
  duplicate_hello: "The client said hello twice.",
  frame_too_large: "That message was too large for the server.",
  rate_limited: "Too many messages at once: slow down a little.",
  room_not_found: "That room does not exist (any more).",
  room_full: "That room has no free seat, or its match is over.",
  seat_taken: "That seat has just been taken by someone else.",
  no_such_seat: "That room has no such seat.",
  bad_token: "Your seat could not be taken back: the room is gone or the token is no longer valid.",
  already_in_room: "You are already in a room: leave it first.",
  not_in_room: "You are not in a room.",
  not_seated: "You have no seat in this match.",
  spectator_cannot_act: "Spectators cannot play.",
  match_not_started: "The match has not started yet: it waits for every seat.",
  bad_champion_choice: "That Champion cannot be chosen.",
  bad_deck: "That deck is refused.",
  server_busy: "The server is busy: try again in a moment.",
  shutting_down: "The server is shutting down.",
  internal_error: "The server hit an internal error; nothing changed.",
  // Mutation league (docs/protocol.md "league_act").
  not_in_league: "Open your league with your league token first.",
  league_refused: "The league refused that.",
  bot_refused: "This room takes no bot.",
  tournament_waiting: "Your duel is not open now: ask again in a moment.",
  tournament_over: "Your league (or tournament) is over: there is no duel left to play.",
  // Rule errors.
  game_over: "The match is over.",
  not_your_turn: "It is not your turn.",
  card_not_in_hand: "That card is not in your hand.",
  card_not_playable: "Only the 4 leftmost cards of your hand can be played (the Stronghold does not count), fewer while your Blackmail creatures block the rightmost ones.",
  insufficient_mana: "You do not have enough mana for that card.",
  bad_line: "That card cannot go there.",
  bad_target: "That is not a valid target: an incantation targets a creature in play.",
  bad_host: "That creature cannot carry this Symbiote.",
  champion_exhausted: "Your Champion is exhausted: a card of its mana cost must be played first.",
  leaves_only_stronghold: "That play would leave your Stronghold as your only card.",
  line_full: "That side of the line is full.",
  bad_action: "The server did not understand that action.",
  // Draft errors (docs/protocol.md "Formats and drafts").
  not_drafting: "This room is not drafting.",
  stale_action: "The game moved on before your move arrived (a double click?): nothing was done. Choose again.",
  wrong_pick: "Another kind of pick is due now.",
  wrong_count: "Choose exactly as many cards as this pick asks.",
  duplicate_card: "A card is chosen twice.",
  unknown_card: "A card is not in the catalogue.",
  card_not_on_offer: "That card is not on offer (not revealed, already taken, or not in the list being banned from).",
  card_not_in_pool: "That card is not in this draft's pool.",
  draft_over: "The draft is over.",
  ai_seat: "That seat is played by the AI: join a human seat.",
  // Protocol errors.
  bad_json: "The server could not read a message.",
  unknown_type: "The server does not know that request.",
  missing_field: "A required field is missing.",
  unknown_field: "The request has a field the server does not know.",
  bad_field_type: "A field has the wrong type.",
  bad_field_value: "A field has an impossible value.",
  // Accounts and the queue (docs/protocol.md "The queue", "Playing signed in").
  not_signed_in: "Sign in (or play as a guest) to find a game.",
  already_queued: "You are already searching for that kind of game.",
  not_queued: "You are not searching for a game.",
  bad_session: "Your sign-in has ended: sign in again.",
  account_disabled: "This account is disabled.",
  account_seated: "Your account already has a seat in that room.",
  // The client's own.
  connection_lost: "The connection to the server was lost.",
};

const DECK_REASONS = {
  wrong_format: "this room takes preconstructed decks only",
  bad_deck_size: "a deck is exactly 8 cards",
  duplicate_card: "a deck has 8 different cards",
  unknown_card: "a card is not in the catalogue",
  not_a_deck_card: "only creatures and incantations go in a deck",
  not_league_deck: "in a league duel you play your league deck",
};

const CHAMPION_REASONS = {
  champion_required: "this room plays with Champions: choose one",
  champions_off: "this room plays without Champions",
  unknown_card: "no such card",
  not_a_creature: "a Champion is a creature",
  in_deck: "a Champion must be a creature outside your deck",
};

// A league_act refused by the league's rules (docs/protocol.md "league_act"):
// what kind of refusal, in our words; the server's sentence (the rule, with
// its number) follows.
const LEAGUE_REFUSALS = {
  wrong_stage: "The league is not at that stage now.",
  already_done: "You have already done that at this stage.",
  draft_refused: "That pick is refused.",
  deck_refused: "That deck is refused.",
  mutation_refused: "Your mutations are refused; nothing was changed.",
};

// `describe(index)`: the refused mutation in words (the screen knows the
// list). `staged`: the refusal of a list not sent (league_mutations), not
// of a league_act.
export function leagueRefusalWords(err, describe = null, staged = false) {
  const r = (err && err.refusal) || {};
  if (!LEAGUE_REFUSALS[r.error]) return errorWords(err);
  let words = LEAGUE_REFUSALS[r.error];
  const which = (i) => `Mutation ${i + 1}${describe ? ` (${describe(i)})` : ""}`;
  if (r.error === "mutation_refused" && Number.isInteger(r.index) && r.index >= 0) {
    words = staged ? `${which(r.index)} would be refused${r.index > 0 ? " after the ones before it" : ""}; remove it, or change the list.`
      : `${which(r.index)} is refused; nothing was changed.`;
  } else if (r.error === "mutation_refused" && r.detail === "over_budget") {
    words = staged ? "Your list costs more than the phase's points." : "Your mutations cost more than the phase's points; nothing was changed.";
  }
  const detail = err && err.message && err.message !== err.code ? err.message : "";
  return detail ? `${words} ${detail.charAt(0).toUpperCase()}${detail.slice(1)}.` : words;
}

// One sentence (or two) for a refused request: our words for the code, then
// the server's own sentence, which is more precise.
export function errorWords(err) {
  const code = err && err.code;
  let words = ERROR_WORDS[code] || "The server refused that.";
  if (code === "bad_deck" && DECK_REASONS[err.reason]) words = `That deck is refused: ${DECK_REASONS[err.reason]}.`;
  if (code === "bad_champion_choice" && CHAMPION_REASONS[err.reason])
    words = `That Champion is refused: ${CHAMPION_REASONS[err.reason]}.`;
  const detail = err && err.message && err.message !== code ? err.message : "";
  return detail && !words.toLowerCase().includes(detail.toLowerCase()) ? `${words} (${detail})` : words;
}

const REASONS = {
  fort_destroyed: "a Fort was destroyed",
  stronghold_alone: "a Stronghold was left alone in its hand",
  concession: "a player conceded",
  none: "",
};

export function reasonWords(reason) {
  return REASONS[reason] ?? reason;
}

// ctx: {seatName(seat), cardName(uid, card_id), lineName(line)}
export function narrate(ev, ctx) {
  const S = (s) => ctx.seatName(s);
  const C = (field) => ctx.cardName(ev[field], ev[`${field}_id`]);
  const L = (l) => ctx.lineName(l);
  switch (ev.type) {
    case "match_started":
      return `The match starts: ${S(ev.first_seat)} plays first.`;
    case "turn_started":
      return `Turn ${ev.turn} (round ${ev.round}): ${S(ev.seat)}.`;
    case "mana_gained":
      return `${S(ev.seat)} has ${ev.mana} mana.`;
    case "card_played":
      if (ev.target !== undefined && ev.target !== null)
        return `${S(ev.seat)} casts ${C("card")} on ${C("target")} (${ev.mana_paid} mana).`;
      return `${S(ev.seat)} plays ${C("card")} on ${L(ev.line)} (${ev.mana_paid} mana).`;
    case "creature_entered":
      return `${C("card")} enters ${L(ev.line)}.`;
    case "creature_moved":
      // Positions count from 1, as the rulebook's (the wire's from 0).
      return `${C("card")} moves from position ${ev.from + 1} to ${ev.to + 1} on ${L(ev.line)}.`;
    case "attack":
      if (ev.stronghold_of !== undefined && ev.stronghold_of !== null)
        return `${C("attacker")} attacks ${S(ev.stronghold_of)}'s Stronghold.`;
      return `${C("attacker")} attacks ${C("target")}.`;
    case "damage_dealt":
      return `${C("source")} deals ${ev.amount} damage to ${C("target")}.`;
    case "damage_prevented":
      return `${ev.amount} damage from ${C("source")} to ${C("target")} is prevented.`;
    case "creature_destroyed":
      return `${C("card")} (${S(ev.seat)}) is destroyed.`;
    case "card_returned":
      return `${C("card")} returns to ${S(ev.seat)}'s hand.`;
    case "card_removed":
      return `${C("card")} of ${S(ev.seat)} is removed from the game (exhaustion).`;
    case "stronghold_damaged":
      return `${S(ev.seat)}'s Stronghold takes ${ev.amount} damage from ${C("source")}.`;
    case "stronghold_moved":
      return `${S(ev.seat)}'s Stronghold moves from position ${ev.from + 1} to ${ev.to + 1}.`;
    case "stronghold_flipped":
      return `${S(ev.seat)}'s Stronghold turns to its ${ev.side === "fort" ? "Fort" : "Bastion"} side.`;
    case "turn_ended":
      return `${S(ev.seat)} ends the summoning phase.`;
    case "conceded":
      return `${S(ev.seat)} concedes.`;
    case "game_over": {
      const who = (ev.winners || []).map(S).join(" and ") || "nobody";
      return `Game over: ${who} ${ev.winners && ev.winners.length > 1 ? "win" : "wins"} (${reasonWords(ev.reason)}).`;
    }
    case "creature_stacked":
      return `${C("card")} goes on top of ${C("host")} (Symbiote).`;
    case "creature_vanished":
      return `${C("card")} vanishes to the back of ${L(ev.line)}.`;
    case "card_chained":
      return `${C("chainer")} takes ${C("card")} from ${S(ev.from_seat)}'s hand (Chain).`;
    case "hand_reordered":
      return ev.card !== undefined
        ? `${C("card")} moves to the right end of ${S(ev.seat)}'s hand.`
        : `A card moves to the right end of ${S(ev.seat)}'s hand.`;
    case "ability_triggered":
      return `${C("card")}'s ${ev.ability.replace(/_/g, " ")} takes effect.`;
    case "champion_exhausted":
      return `${S(ev.seat)}'s Champion ${C("card")} is exhausted.`;
    case "champion_readied":
      return `${S(ev.seat)}'s Champion ${C("card")} is ready again (${C("by_card")} costs ${ev.mana_cost}).`;
    case "ai_revealed":
      return `${S(ev.seat)} reveals ${C("card")} for ${L(ev.line)} (${ev.deck_size} left in its deck).`;
    case "card_milled":
      return `${S(ev.seat)} discards ${C("card")} from its deck (${ev.deck_size} left).`;
    case "card_discarded":
      return `${C("card")} goes to ${S(ev.seat)}'s discard pile.`;
    case "card_to_deck":
      return `${C("card")} goes on top of ${S(ev.seat)}'s deck (${ev.deck_size} cards).`;
    case "deck_reshuffled":
      return `${S(ev.seat)} shuffles its discard pile into a new deck of ${ev.deck_size} cards.`;
    default:
      return `(${ev.type})`;
  }
}

// ---- The mutation league (R15; docs/protocol.md "league") ----

// "1 point", "2.5 points", "0 points"; a negative number says how far over.
export function pointsWords(p) {
  return `${p} point${p === 1 ? "" : "s"}`;
}

export const LEAGUE_STAGES = {
  drafting: "the draft",
  building: "choosing the deck",
  mutating: "the mutation phase",
  playing: "the duels",
  finished: "finished",
};

// The elements a lab card offers (R15.4), as the form names them.
export const ELEMENT_WORDS = { mana: "mana cost", av: "attack value (AV)", hp: "health (HP)", ability: "ability" };

// The sentences of the league screen (league.js), by stage.
export const LEAGUE_WORDS = {
  title: (name) => `League: ${name}`,
  info: (v) => `${v.round ? `Round ${v.round} of 6 · ` : ""}${LEAGUE_STAGES[v.stage] || v.stage} · packs ${v.packs.join(" and ")}` +
    `${v.exhaustion ? " · exhaustion rule" : ""}`,
  waitingFor: (names) => names.length ? ` Waiting for ${names.join(", ")}.` : "",
  draftMine: (pick) => `Pick ${pick} of 16: keep one card of your packet; the rest goes to the next player.`,
  draftWaiting: (names) => `You have kept your card.${LEAGUE_WORDS.waitingFor(names)}`,
  draftChosen: (name) => name ? `Chosen: ${name}.` : "Click the card to keep.",
  keep: (name) => name ? `Keep ${name}` : "Keep the chosen card",
  building: "Choose the 8 cards of your deck; the other 8 are your lab, whose elements your creatures can take (R15.2).",
  buildingDone: (names) => `Your deck is chosen.${LEAGUE_WORDS.waitingFor(names)}`,
  deckCount: (n) => `Chosen ${n} of 8.`,
  deckFull: "Your deck has 8 cards already: click one of them to take it out first.",
  chooseDeck: "Choose this deck",
  mutating: (points) => `Mutation phase: up to ${pointsWords(points)} to spend on your deck's creatures, or pass. Unused points are lost.`,
  mutatingDone: (names) => `You are done for this round.${LEAGUE_WORDS.waitingFor(names)}`,
  pointsLeft: (left, total) => left < 0
    ? `Points left: ${left} of ${total}: this list costs ${pointsWords(total - left)}, more than the phase's ${total}.`
    : `Points left: ${left} of ${total}.`,
  cost: (c, left) => `This mutation costs ${pointsWords(c)}; ${left < 0 ? `that is ${pointsWords(-left)} too many` : `${pointsWords(left)} would be left`}.`,
  // The form's mutation against the server's list (league.js offers only what it lists).
  asking: "Asking the server what your list allows next…",
  notOffered: "Not allowed now: the server does not list this mutation for your deck as your list leaves it (R15.4, R15.5).",
  chooseCovers: (ways) => `Choose what it goes over: ${ways.join("; or ")}.`,
  noMutation: "No mutation in the list yet.",
  send: (n, c) => n ? `Send ${n === 1 ? "this mutation" : `these ${n} mutations`} (${pointsWords(c)})` : "Send the mutations",
  pass: "Pass this round",
  passConfirm: (n) => `Pass? Your list of ${n} mutation${n === 1 ? "" : "s"} will not be sent, and this round's points are lost.`,
  // The step clock (E81): what happens to a player who has not acted in time.
  deadline: (stage, left) => ({
    drafting: `Time left for this pick: ${left}; then the first card of your packet is kept for you.`,
    building: `Time left to choose your deck: ${left}; then your first 8 drafted cards are your deck.`,
    mutating: `Time left in this phase: ${left}; whoever has not acted then passes.`,
  })[stage] || `Time left: ${left}.`,
  noDeadline: "No phase clock: the round starts when everyone has mutated or passed.",
  mutation: (m, name) => {
    const what = m.element === "ability"
      ? `${m.aura ? "the Aura " : ""}${m.abilityLabel}${m.covers.length ? ` over ${m.covers.map((c) => c.label).join(" and ")}` : ""}`
      : ELEMENT_WORDS[m.element];
    return `${what} of ${name(m.source)} onto ${name(m.target)}`;
  },
  pastMutation: (r, text) => `Round ${r.round}: ${text} (${pointsWords(r.points)})`,
  duel: (d, round) => `Round ${round}: your duel against ${d.opponent} (table ${d.table + 1}; you are seat ${d.seat + 1}).`,
  duelOver: (round) => `Round ${round}: your duel is over. The next round starts when the other duel ends.`,
  playDuel: "Play your duel",
  finished: (place) => `The league is over${place ? `: you finished ${ordinal(place)}` : ""}. Tied players share their place (R15.7).`,
  tableCell: (names, t) => `${names[t.seats[0]]} – ${names[t.seats[1]]}` +
    (t.decided ? `: ${t.winner === null ? "nobody won" : `${names[t.winner]} won`}` : ""),
  leave: "Back to the lobby",
  backToLeague: "Back to the league",
  // Headings and labels.
  packet: "Your packet",
  yourCards: "Your cards",
  others: "The others",
  drafted: "Your 16 drafted cards",
  pickDeck: "Your 16 cards: click the 8 of your deck",
  mutate: "Mutate",
  target: "Creature of your deck (target) ",
  source: "Card of your lab (source) ",
  element: "Element ",
  ability: "Ability of the lab card ",
  coversLegend: (aura) => aura
    ? "Pasted over (an Aura covers two of the creature's abilities, or its Aura)"
    : "Pasted over (one of the creature's abilities, or its Aura)",
  add: "Add to the list",
  preview: "The card as it will be",
  list: "Your list",
  yourDuel: "Your duel",
  deck: "Your deck (as mutated)",
  lab: "Your lab",
  history: "Your mutations",
  standings: "Standings",
  schedule: "Schedule",
  standingsHead: ["Place", "Player", "Played", "Won", "Now"],
  scheduleHead: ["Round", "Table 1", "Table 2"],
  // Cards and the form's choices.
  aura: (label, aura) => `${label}${aura ? " (Aura)" : ""}`,
  stats: (c) => c.type === "incantation" ? `Incantation${c.av !== null ? `, ${c.av} damage` : ""}` : null,
  chooseTarget: "(choose a creature)",
  chooseSource: "(choose a lab card)",
  noAbility: "(the lab card has no ability)",
  noCover: "This creature has no ability: it gains none (R15.5).",
  targetFirst: "Choose a creature first.",
  cardOption: (c, abilities) => `${c.name} (${c.mana} mana, ` +
    `${c.type === "creature" ? `AV ${c.av ?? "X"}, HP ${c.hp}` : `incantation${c.av !== null ? ` ${c.av}` : ""}`}` +
    `${abilities.length ? `; ${abilities.join(", ")}` : ""})`,
  elementOption: (e, value, cost, none, used) => `${ELEMENT_WORDS[e]}${value !== null && value !== undefined ? ` ${value}` : ""}` +
    ` (${cost === null ? "its ability's points" : pointsWords(cost)})${none ? " — the card has none" : used ? " — used already" : ""}`,
  abilityOption: (label, cost, used) => `${label} (${pointsWords(cost)})${used ? " — used already" : ""}`,
  coverOption: (label, extra) => ` ${label}${extra ? ` (+${pointsWords(extra)})` : ""}`,
  // The preview.
  now: "Now",
  afterList: "After your list",
  pickTarget: "Choose a creature of your deck to see it mutated.",
  noChange: "No change yet.",
  changed: (what, before, after) => `${what} ${before} → ${after}`,
  changeNames: { mana: "Mana cost", av: "AV", hp: "HP", abilities: "Abilities" },
  noAbilities: "none",
  remove: "Remove",
  removeLabel: (i) => `Remove mutation ${i}`,
  noneYet: "None yet.",
  // Draft and deck details.
  taken: (n) => `${n} of 16: `,
  otherKept: (name, n, choosing) => `${name}: ${n} card${n === 1 ? "" : "s"} kept${choosing ? " (choosing now)" : ""}`,
  labWouldBe: (n) => `Your lab would be (${n}): `,
  you: (name) => `${name} (you)`,
  seat: (seat) => `seat ${seat + 1}`,
  manaTitle: "mana cost",
  // What each player is doing, in the standings.
  doing: (stage, p, choosing) => ({
    drafting: choosing ? "choosing a card" : "has kept a card",
    building: p.has_deck ? "deck chosen" : "choosing a deck",
    mutating: p.phase_done ? "done" : "mutating",
    playing: "playing",
    finished: "",
  })[stage] ?? stage,
  // The lobby's way in.
  lobbyTitle: "Mutation league",
  lobbyHelp: "Your organiser handed you a league token: paste it here to follow your league (its draft, your deck, the mutations and your duels).",
  tokenLabel: "League token ",
  open: "Open my league",
  badToken: "A league token is the league's id, a dot and 32 hexadecimal digits (0-9, a-f), as the organiser handed it.",
};

function ordinal(n) {
  const s = n % 10 === 1 && n !== 11 ? "st" : n % 10 === 2 && n !== 12 ? "nd" : n % 10 === 3 && n !== 13 ? "rd" : "th";
  return `${n}${s}`;
}

// ---- What a play costs (legal_actions plays[].after) and how to play ----

// The preview of one play, from the seat's mana and health now and the
// server's `after` (docs/protocol.md "Legal actions"). p: {mana, health,
// after: {mana, health}, where: "right" | "left" | null (the Champion),
// incantation, side: "bastion" | "fort", target: null or {name, own, others}:
// the incantation's target `after` was counted for (after.target)}.
export function playPreviewWords(p) {
  const m = p.mana - p.after.mana;
  const d = p.health - p.after.health; // health lost (negative: gained)
  const right = p.where === "right";
  const back = p.incantation ? "the incantation comes back to the right of your hand" : null;
  const expected = (right ? 1 : 0) - (back ? 1 : 0);
  const abilities = back ? "what it does to its target, or abilities such as Price of Blood or Immolation"
    : "abilities such as Price of Blood or Immolation";
  // R4.5: a Bastion played down to the right end turns to its Fort side at the left end.
  const fell = p.side === "bastion" && right && p.health === 1 && d < 0;
  const why = right ? ["it stood right of your Stronghold"] : p.where === "left" ? ["left of your Stronghold"] : [];
  let cost = `Costs ${m} mana`;
  let gain = "";
  if (fell) {
    cost += " and your Bastion";
    gain = " (your Bastion reaches the right end and turns to its Fort side at the left of your hand, R4.5)";
  } else if (d > 0) {
    cost += ` and ${d} health`;
    if (d !== expected) why.push(right && d > 1 ? `the rest by ${abilities}` : abilities);
  } else {
    cost += ", no health";
    if (right && back && d === 0) why[0] += `, but ${back}`;
    if (d < 0) gain = ` (+${-d}: ${d === expected ? back : back ? `${back}, and a creature of yours it destroys comes back too` : "the card's abilities"})`;
  }
  const t = p.target;
  const on = t && t.others ? ` Counted for ${t.name}${t.own ? " (yours)" : ""}; one of your own creatures as the target may leave another health.` : "";
  const lose = p.side === "fort" && p.after.health <= 0 ? " You lose the match: your Fort reaches the right end of your hand (R4.6)." : "";
  return `${cost}${why.length ? ` (${why.join("; ")})` : ""}: leaves ${p.after.mana} mana, health ${p.after.health}${gain}.${on}${lose}`;
}

export const PLAY_WORDS = {
  previewTitle: "If you play it",
  hint: "Point at or choose a highlighted card to see what playing it costs.",
  track: (health) => `Health ${health}`,
  trackWith: (health, after) => `Health ${health}, ${after} after this play`,
  badge: (d) => `−${d} health`,
};

// The header's button; the how-to-play page itself (its text and dialog) is
// js/howto.js, loaded on first use (not part of the first visit).
export const HOW_TO_PLAY_OPEN = "How to play";

// A card's or creature's state in words, beside its border (WCAG 1.4.1: not
// by colour or border style alone).
export const CARD_MARKS = {
  listed: "✓ can be played",
  notNow: "not now",
  chosen: "● chosen",
  target: "◎ target",
  host: "◎ host",
  entered: "new this turn",
};

// Motion on the game screen (js/motion.js): the toggle, the tags on what
// changed since the viewer's last action, and the live region's own words
// (the rest it says are narrate's sentences).
export const MOTION_WORDS = {
  toggle: (on) => `Motion: ${on ? "on" : "off"}`,
  toggleReduced: "Motion: off (your system asks for reduced motion)",
  toggleTitle: "Animate plays, attacks and damage, and show the other seats' turns step by step",
  yourTurn: "Your turn.",
  prevented: "prevented",
  tags: { new: "new", hit: "hit", moved: "moved" },
  tagTitle: "changed since your last action",
  sound: (on) => `Sound: ${on ? "on" : "off"}`,
  soundTitle: "Short sounds for plays, attacks, damage and your turn",
};

// Accounts (docs/accounts.md) and Play (the queue, docs/protocol.md "The
// queue"): the lobby's account and Play panels, the profile and ladder pages.
const API_ERRORS = {
  name_taken: "That name is taken: choose another.",
  invalid_name: "That name cannot be used: at most 32 characters, no spaces at its ends, and not starting with “guest-”.",
  invalid_password: "A password is 8 to 128 characters long.",
  common_password: "That password is one of the most common ones: choose another.",
  invalid_credentials: "Wrong name or password.",
  not_signed_in: "You are not signed in (any more): sign in again.",
  account_disabled: "This account is disabled.",
  not_a_guest: "This account already has a name and password.",
  busy: "The server is busy: try again in a moment.",
  io_error: "The server could not read or write its accounts: try again later.",
  network: "The server could not be reached.",
};

function waitWords(seconds) {
  const s = Math.max(1, Math.round(Number(seconds) || 0));
  if (s < 90) return `${s} second${s === 1 ? "" : "s"}`;
  const m = Math.ceil(s / 60);
  return `${m} minute${m === 1 ? "" : "s"}`;
}

// A refusal of the account API ({status, code, message, retry_after}) in words.
export function accountErrorWords(err) {
  if (err && err.code === "too_many_attempts")
    return `Too many tries: wait ${waitWords(err.retry_after)} before trying again.`;
  return (err && API_ERRORS[err.code]) || `The server refused that${err && err.message ? `: ${err.message}` : "."}`;
}

export const MODE_WORDS = { duel: "Duel", ffa: "Free-for-all", "2v2": "2 vs 2" };
export const LADDER_WORDS = { duel: "Duel", ffa: "Free-for-all", "2v2": "2 vs 2" };

// m:ss
export function clockWords(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

// A rating and its change: "1662 (+162)", "1500? (+0)" while provisional.
export function ratingWords(rating, delta = null, provisional = false) {
  const r = `${Math.round(rating)}${provisional ? "?" : ""}`;
  if (delta === null || delta === undefined) return r;
  const d = Math.round(delta);
  return `${r} (${d > 0 ? "+" : d < 0 ? "−" : "±"}${Math.abs(d)})`;
}

export const ACCOUNT_WORDS = {
  title: "Your account",
  signedOutHelp: "Sign in to keep your name, your games and your rating. Or play without an account: the lobby below works as always.",
  name: "Name",
  password: "Password",
  signIn: "Sign in",
  signUp: "Sign up",
  guest: "Play as guest",
  signOut: "Sign out",
  profile: "My profile",
  signedInAs: "Signed in as",
  guestNote: (name) => `You play as a guest (${name}). Choose a name and password to keep this account, its games and its rating:`,
  claim: "Keep this account",
  claimed: (name) => `This account is now ${name}.`,
  working: "One moment...",
  missing: "Enter a name and a password.",
  sessionEnded: "Your sign-in has ended: you are signed out.",
  disabled: "This account is disabled: you are signed out.",
  signedInElsewhere: "Signed in: take your seat again by reloading.",
};

export const QUEUE_WORDS = {
  title: "Play",
  help: "Find a game against other players, matched by rating.",
  helpSignedOut: "Find a game against other players in one click: play as a guest, or sign in below to keep your name.",
  mode: "Mode",
  modes: { duel: "Duel (2 players)", ffa: "Free-for-all (4 players)", "2v2": "2 vs 2 (teams)" },
  rated: "Rated (counts for the ladder)",
  deck: "Deck",
  partner: "With a friend (their account name; they name you too)",
  find: "Find a game",
  findAsGuest: "Play as guest",
  cancel: "Cancel",
  searching: (mode) => `Searching for ${mode === "duel" ? "a duel" : mode === "ffa" ? "a free-for-all" : "a 2 vs 2"}…`,
  players: (n) => `${n} searching in this pool.`,
  stopped: {
    unqueued: "Search cancelled.",
    entered_room: "Search stopped: you entered a room.",
    shutting_down: "Search stopped: the server is shutting down. Try again in a moment.",
    connection_lost: "Search stopped: the connection was lost. Search again.",
  },
  alone: "Alone? Open this page in a second browser tab (or a private window) and find a game there too, or play against the AI below.",
  ladder: "Ladder",
};

export const PLAYERS_WORDS = {
  back: "Back to the lobby",
  ladderTitle: "Ladder",
  ladderHelp: "Players ranked by rating; a provisional rating (still uncertain) is not ranked yet.",
  profileTitle: (name) => `Player ${name}`,
  guest: "(a guest)",
  ratings: "Ratings",
  noRatings: "No rated games yet.",
  matches: "Recent matches",
  noMatches: "No matches yet.",
  history: "Rating history",
  noHistory: "No rating changes yet.",
  noPlayer: (name) => `No player named ${name} (or this server does not show players' pages yet).`,
  noLadder: "This server does not show its ladder yet.",
  empty: "Nobody is ranked on this ladder yet.",
  failed: "The page could not be loaded: try again.",
  loading: "Loading...",
  prev: "Previous page",
  next: "Next page",
  provisionalNote: "? a provisional rating: it moves fast until a few more games are played.",
  results: { win: "won", won: "won", loss: "lost", lost: "lost", draw: "draw" },
  cols: {
    rank: "Rank", name: "Player", rating: "Rating", games: "Games", record: "Won–lost", ladder: "Ladder",
    when: "When", mode: "Mode", result: "Result", change: "Change", before: "Before", after: "After",
  },
};

// The result dialog of a rated game.
export const RATING_WORDS = {
  change: (ladder, text) => `Rating ${text} on the ${LADDER_WORDS[ladder] || ladder} ladder`,
};
