// The guided first game: in the first solo game started with "Play against
// the AI now" (no `cod.coached` in localStorage), a small panel above the
// hand says the next step, from the game's own state (the seat's legal
// actions, the card chosen): choose a highlighted card, choose a line or a
// target, end the summoning phase. "Hide the tips" or the game's end sets
// the flag: it is shown once. Loaded on first use (not in the first visit).
//
// The guided game is a chosen deal (guided.js: a deck and a seed, quick
// play) that a newcomer who does what the coach says wins. On the player's
// turn the coach names one move (advice.js) and marks it (`.coach-next` on
// the card, the line button, the target): the three ideas that win, said
// when they matter — destroy with incantations (they come back: no health),
// block the line the AI holds, and play only what is free or needed.
import { h } from "./dom.js";
import { advise } from "./advice.js";
import { GUIDED_GAME } from "./guided.js";

export const COACHED_KEY = "cod.coached";

const STEPS = {
  card: "Your turn. Choose a highlighted card (“✓ can be played”): pointing at it first shows what it costs. " +
    "A card right of your Stronghold costs 1 health too.",
  line: "Choose a line for it: one of the line buttons above your hand, or the highlighted line on the board. " +
    "Your creatures attack along their line.",
  target: "Choose the creature it targets: the ones marked “◎ target”. Escape or Cancel changes your mind.",
  host: "Choose a line, or one of your creatures marked “◎ host” to put it on top (Symbiote).",
  end: "End the summoning phase when you are done (the button under your hand): your creatures then attack, " +
    "and the AI plays.",
  wait: "The AI is playing its turn: “What happened” tells each of its moves.",
  over: "The game is over. Play again, or read How to play (top right) for the whole rules.",
};

// The first words of the guided game: what the two healths are.
const INTRO = "The AI's health is its deck (24 cards, R12): each damage to its Stronghold turns one over, " +
  "and each card it plays leaves it too. Empty it (its discard pile then comes back once, on its Fort) and you win. " +
  "Your health is the cards right of your Stronghold. ";

// A card's id by its uid: in the hand or on the board.
function cardIdOf(v, uid) {
  const inHand = v.hand.find((c) => c.uid === uid);
  if (inHand) return inHand.card_id;
  for (const line of v.lines)
    for (const side of line.sides)
      for (const c of side.creatures) if (c.uid === uid) return c.card_id;
  return null;
}

// The advised move in words (advice.js's ideas), with the card's and the
// target's names.
function adviceText(a, name) {
  switch (a.idea) {
    case "kill":
      return `Destroy the AI's ${name(a.target)} with ${name(a.card)}: an incantation comes back to the right of ` +
        "your hand, so it costs no health, and you can use it every turn. Choose it (marked ➜), then its target.";
    case "block":
      return `Block your ${a.line} line with ${name(a.card)}: the AI's creatures there attack your ` +
        "Stronghold (your health) when none of yours stands in their way" +
        (a.more ? ", and yours there would not hold them. " : ". ") +
        (a.free ? "It is left of your Stronghold: it costs no health. " : "It costs 1 health (it is right of your Stronghold), less than their attack. ") +
        "Choose it (marked ➜), then that line.";
    case "free":
      return `${name(a.card)} is left of your Stronghold: it costs no health. Play it on your ${a.line} line (marked ➜).`;
    case "end":
      return "Nothing more is worth it now: a card right of your Stronghold costs 1 health, and each creature of yours " +
        "gives the AI 1 more mana. End the summoning phase (marked ➜): your creatures attack, then the AI plays.";
    default:
      return "";
  }
}

export function coachWanted() {
  try {
    return !window.localStorage.getItem(COACHED_KEY);
  } catch {
    return false;
  }
}

function done() {
  try {
    window.localStorage.setItem(COACHED_KEY, "1");
  } catch {
    // private mode: shown again next time, nothing worse
  }
}

export class Coach {
  constructor() {
    this.text = h("span#coach-text");
    this.panel = h("section#coach", { "aria-label": "Tips for your first game" },
      h("strong", {}, "First game: "), this.text, " ",
      h("button#coach-hide.small", { type: "button", onclick: () => this.dismiss() }, "Hide the tips"));
    // Said to screen readers when the step changes (a polite live region).
    this.text.setAttribute("role", "status");
    this.dismissed = false;
    this.step = null;
    this.advice = null;
    this.deal = GUIDED_GAME; // the deal app.js asks for (options.seed, the deck)
    this.intro = true; // the healths explained once, with the first advice
  }

  // The step for the game screen `g` as it is drawn now.
  stepOf(g) {
    const v = g.view;
    if (!v) return null;
    if (v.phase === "game_over") return "over";
    if (!g.turnIsMine()) return "wait";
    if (!g.legal) return this.step; // an act on its way: the step it was sent in
    const sel = g.selected;
    const opts = sel !== null ? g._options(sel) : null;
    if (opts && opts.targets) return "target";
    if (opts && opts.hosts) return "host";
    if (opts) return "line";
    const a = this.adviceFor(g);
    if (a && a.idea !== "end") return "card";
    return "end";
  }

  // The move advised for this frame (advice.js), kept per frame.
  adviceFor(g) {
    const key = g.view ? `${g.view.turn}:${g.seq ?? ""}:${g.legal ? g.legal.plays.length : "-"}` : null;
    if (this.adviceKey !== key) {
      this.adviceKey = key;
      this.advice = g.legal ? advise(g.view, g.legal, (id) => g.cat.card(id)) : null;
    }
    return this.advice;
  }

  // The words for `step`, the advised move named where it applies.
  textOf(step, g) {
    const a = this.advice;
    const name = (uid) => g.cat.name(cardIdOf(g.view, uid));
    if ((step === "card" || step === "end") && a) {
      const text = adviceText(a, name);
      if (this.intro) {
        this.intro = false;
        return INTRO + text;
      }
      return text;
    }
    if (a && g.selected === a.card) {
      if (step === "line") return `Now your ${a.line} line: the button marked ➜ above your hand, or that line on the board.`;
      if (step === "target") return `Now the AI's ${name(a.target)}, marked ➜ (and “◎ target”).`;
    }
    if (step === "over" && g.view.winners.includes(g.view.viewer))
      return "You won: its deck is empty. Play again (the next games are shuffled as they come), or read How to play (top right).";
    return STEPS[step];
  }

  // Marks the advised card, line button or target with `.coach-next`.
  mark(g, step) {
    for (const el of document.querySelectorAll(".coach-next")) el.classList.remove("coach-next");
    const a = this.advice;
    if (!a || !g.isMyTurn()) return;
    let sel = null;
    if (step === "end") sel = "#end-turn";
    else if (step === "card") sel = `#hand [data-uid="${a.card}"]`;
    else if (g.selected === a.card && step === "line") sel = `#prompt [data-play-line="${a.line}"]`;
    else if (g.selected === a.card && step === "target") sel = `#board [data-uid="${a.target}"]`;
    const el = sel && document.querySelector(sel);
    if (el) el.classList.add("coach-next");
  }

  update(g) {
    if (this.dismissed) return;
    const step = this.stepOf(g);
    if (!this.panel.isConnected && g.promptEl) g.promptEl.before(this.panel);
    this.panel.hidden = step === null;
    const a = this.advice;
    const idea = (step === "card" || step === "end") && a ? a.idea : "";
    // New words for a new step, or a new move advised in the same step.
    const said = a ? `${step}|${idea}|${a.card}|${a.line}|${a.target}|${g.selected === a.card}` : step;
    if (step && said !== this.said) {
      this.said = said;
      this.step = step;
      this.text.textContent = this.textOf(step, g);
      this.panel.dataset.step = step;
      this.panel.dataset.idea = idea;
    }
    this.mark(g, step);
    if (step === "over") done();
  }

  dismiss() {
    this.dismissed = true;
    for (const el of document.querySelectorAll(".coach-next")) el.classList.remove("coach-next");
    done();
    this.panel.remove();
  }
}
