// The guided first game: in the first solo game started with "Play against
// the AI now" (no `cod.coached` in localStorage), a small panel above the
// hand says the next step, from the game's own state (the seat's legal
// actions, the card chosen): choose a highlighted card, choose a line or a
// target, end the summoning phase. "Hide the tips" or the game's end sets
// the flag: it is shown once. Loaded on first use (not in the first visit).
import { h } from "./dom.js";

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
    if (g.legal && g.legal.plays.length) return "card";
    return "end";
  }

  update(g) {
    if (this.dismissed) return;
    const step = this.stepOf(g);
    if (!this.panel.isConnected && g.promptEl) g.promptEl.before(this.panel);
    this.panel.hidden = step === null;
    if (step && step !== this.step) {
      this.step = step;
      this.text.textContent = STEPS[step];
      this.panel.dataset.step = step;
    }
    if (step === "over") done();
  }

  dismiss() {
    this.dismissed = true;
    done();
    this.panel.remove();
  }
}
