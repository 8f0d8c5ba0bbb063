// The guided first game's advice: one move, chosen by a simple rule a
// newcomer can follow, from the seat's view and its legal actions
// (docs/protocol.md, "Legal actions"). Pure (no DOM): coach.js shows it, and
// tests/browser/newcomer.mjs plays whole games by it to measure its win rate.
//
// The three ideas it teaches, in this order (docs/rules.md):
//   kill:  an incantation comes back to the right of your hand (R3.2.4), so
//          it costs no health: use it to destroy an AI creature (R4.1);
//   block: an AI creature attacks your creature closest to the Bridge on its
//          line, and your Stronghold when there is none (R3.3.2): keep a
//          creature on each line the AI holds;
//   free:  a card left of your Stronghold costs no health (R3.2.6): play
//          those; a card right of it costs 1 health, so only to block.
// Nothing else is played: every creature of yours gives the AI 1 more mana
// (R12.2), so a creature that neither blocks nor is free is a cost.

// The abilities that stop an incantation's damage (R7): Indestructible
// always, Protection once a turn.
// Below this health a second blocker on a line is not worth a health.
const REINFORCE_HEALTH = 4;

function shielded(c) {
  return c.abilities.includes("indestructible") || (c.abilities.includes("protection") && !c.protection_used);
}

function lineOf(view, abs) {
  return view.lines[abs] || { sides: [] };
}

// The creatures of `seat` on the absolute line `abs`, from the Bridge out.
function creaturesOn(view, abs, seat) {
  const side = lineOf(view, abs).sides.find((s) => s.seat === seat);
  return side ? side.creatures : [];
}

function enemySeat(view) {
  return view.seats.findIndex((s, i) => i !== view.viewer && s.ai);
}

// {action, idea, card, line?, target?} or {action: end_turn, idea: "end"}.
// `cardOf(card_id)`: the catalogue entry ({type, mana, av, hp, abilities}).
export function advise(view, legal, cardOf) {
  if (!view || !legal || view.phase === "game_over") return null;
  const me = view.viewer;
  const seat = view.seats[me];
  const enemy = enemySeat(view);
  const health = seat.health;
  const byUid = new Map(view.hand.map((c) => [c.uid, c]));
  const def = (uid) => cardOf((byUid.get(uid) || {}).card_id) || {};
  const plays = legal.plays.filter((p) => byUid.has(p.card));
  const free = (p) => p.after && p.after.health >= health;
  const myLines = [["upper", seat.upper_line], ["lower", seat.lower_line]];

  // kill: the incantation that destroys the strongest AI creature.
  let best = null;
  for (const p of plays) {
    const d = def(p.card);
    if (d.type !== "incantation" || !p.targets || !free(p)) continue;
    for (const [, abs] of myLines) {
      for (const c of creaturesOn(view, abs, enemy)) {
        if (!p.targets.includes(c.uid) || shielded(c)) continue;
        if ((d.av || 0) < c.hp - c.damage) continue;
        if (!best || c.av > best.score) best = { score: c.av, p, target: c.uid };
      }
    }
  }
  if (best) return { idea: "kill", card: best.p.card, target: best.target,
    action: { type: "play", card: best.p.card, target: best.target } };

  // block: a line the AI holds and you do not; the free creature, else the
  // one with the most health, there.
  for (const [name, abs] of myLines) {
    if (!creaturesOn(view, abs, enemy).length || creaturesOn(view, abs, me).length) continue;
    const options = plays.filter((p) => p.lines && p.lines.includes(name));
    if (!options.length) continue;
    options.sort((a, b) => (free(b) - free(a)) || ((def(b.card).hp || 0) - (def(a.card).hp || 0)));
    const p = options[0];
    if (!free(p) && health <= 1) continue; // the last health is worth more than a block
    return { idea: "block", card: p.card, line: name, free: free(p), action: { type: "play", card: p.card, line: name } };
  }

  // block (a wall too thin): the AI's creatures there hit harder than yours
  // can take; add one while it costs no health or health is plenty.
  for (const [name, abs] of myLines) {
    const theirs = creaturesOn(view, abs, enemy);
    const mine = creaturesOn(view, abs, me);
    const hit = theirs.reduce((n, c) => n + c.av, 0);
    const wall = mine.reduce((n, c) => n + c.hp, 0);
    if (!theirs.length || hit < wall) continue;
    const options = plays.filter((p) => p.lines && p.lines.includes(name) && (free(p) || health >= REINFORCE_HEALTH));
    if (!options.length) continue;
    options.sort((a, b) => (free(b) - free(a)) || ((def(b.card).hp || 0) - (def(a.card).hp || 0)));
    const p = options[0];
    return { idea: "block", card: p.card, line: name, free: free(p), more: true, action: { type: "play", card: p.card, line: name } };
  }

  // free: a creature left of the Stronghold, on the line with fewer of yours.
  for (const p of plays) {
    if (!p.lines || !free(p)) continue;
    const counts = myLines.filter(([n]) => p.lines.includes(n))
      .map(([n, abs]) => [n, creaturesOn(view, abs, me).length]);
    counts.sort((a, b) => a[1] - b[1]);
    const line = counts[0][0];
    return { idea: "free", card: p.card, line, free: true, action: { type: "play", card: p.card, line } };
  }

  if (legal.end_turn) return { idea: "end", action: { type: "end_turn" } };
  return null;
}

// The naive newcomer, for comparison: the first playable card on its first
// option, then end the turn.
export function naive(view, legal) {
  if (!view || !legal || view.phase === "game_over") return null;
  const p = legal.plays[0];
  if (p) {
    if (p.lines) return { idea: "naive", action: { type: "play", card: p.card, line: p.lines[0] } };
    if (p.targets) return { idea: "naive", action: { type: "play", card: p.card, target: p.targets[0] } };
    if (p.hosts) return { idea: "naive", action: { type: "play", card: p.card, line: p.hosts[0].line, host: p.hosts[0].host } };
  }
  if (legal.end_turn) return { idea: "end", action: { type: "end_turn" } };
  return null;
}
