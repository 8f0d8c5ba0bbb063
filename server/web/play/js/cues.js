// Loaded with the game screen, not on the first visit (whose bytes are
// counted): the goal of the game, always in sight in the head (R4.4–R4.6;
// against the AI R12.6); a "more cards" button when the hand is wider than
// its strip (a long hand at 1280×800 scrolls sideways, which nothing said);
// and what game.js leaves to later modules: emotes (emotes.js, as
// game.emotes) and, at the end, why the match ended (result.js).
import { h } from "./dom.js";

function goalOf(view) {
  const ai = view.seats.some((s) => s.ai);
  if (ai) {
    return ["Goal: empty the AI's deck to reveal its Fort; keep your own Fort from the right end of your hand (R12.6).",
      "Goal: empty the AI's deck; guard your Fort (R12.6)."];
  }
  return ["Goal: damage pushes a Stronghold right in its owner's hand; a Bastion at the right end turns to its Fort, " +
    "and a Fort at the right end loses the game (R4.4–R4.6).", "Goal: push a Fort to the right end of its hand (R4.6)."];
}

export class Cues {
  constructor(game) {
    this.game = game;
    this.goal = h("span#goal");
    game.root.querySelector(".game-head").append(this.goal);
    this.more = h("button#hand-more.small", { type: "button", hidden: true, onclick: () => this._scroll() });
    game.handEl.after(this.more);
    game.handEl.addEventListener("scroll", () => this.update(), { passive: true });
    this.onResize = () => this.update();
    window.addEventListener("resize", this.onResize);
    import("./emotes.js").then((m) => { if (!game.destroyed) game.emotes = new m.Emotes(game, game.actions.emote); }).catch(() => {});
    this.update();
  }

  destroy() {
    window.removeEventListener("resize", this.onResize);
  }

  _scroll() {
    const hand = this.game.handEl;
    const atEnd = hand.scrollLeft + hand.clientWidth >= hand.scrollWidth - 2;
    hand.scrollBy({ left: atEnd ? -hand.scrollWidth : hand.clientWidth * 0.8 });
  }

  // After every redraw of the game screen (and its history filled in).
  update() {
    const v = this.game.view;
    if (this.game.over && v) import("./result.js").then((m) => m.renderSummary(this.game)).catch(() => {});
    if (v) {
      const [long, short] = goalOf(v);
      if (this.goal.title !== long) {
        this.goal.title = long;
        this.goal.textContent = short;
      }
    }
    const hand = this.game.handEl;
    const over = hand.scrollWidth > hand.clientWidth + 2;
    this.more.hidden = !over;
    hand.closest(".hand-area").dataset.more = over ? "true" : "false";
    if (!over) return;
    const atEnd = hand.scrollLeft + hand.clientWidth >= hand.scrollWidth - 2;
    const hidden = this._hiddenCards(hand);
    this.more.textContent = atEnd ? "← Back to the first cards" : `${hidden} more card${hidden === 1 ? "" : "s"} →`;
    // Its words are its name (axe: label-content-name-mismatch); the title says more.
    this.more.title = atEnd ? "Scroll the hand back to its first cards" : "Your hand is wider than the screen: scroll it";
  }

  // Cards of the hand not wholly in sight to the right.
  _hiddenCards(hand) {
    const right = hand.getBoundingClientRect().right;
    let n = 0;
    for (const el of hand.querySelectorAll(":scope > [data-uid], :scope > .card")) {
      if (el.getBoundingClientRect().right > right + 1) n++;
    }
    return Math.max(n, 1);
  }
}
