// The turn's controls on the game screen (issue 30, items 1 and 7): what
// keeps a click meant for one turn from acting on the next, and the keys.
//
// Against the AI the reply to end_turn holds the AI's whole turn: a second
// click 0.3 to 2 s after the first would end the player's next turn, which
// they never saw. So:
// - a click or a key that skips motion (motion.js) does nothing else;
// - a new turn of the viewer is shown by a "Your turn" banner, and its
//   controls wake only when the banner goes: after BANNER_MS, and never
//   sooner than QUIET_MS after the viewer ended their last turn (with motion
//   off the AI's turn lands at once). A click or a key while the banner
//   shows only puts it away (the controls wake; nothing else happens),
//   except on what acts on no turn (ASIDE: the Motion toggle, the log...);
// - an act names the seq of the frame that was on screen when the click or
//   key began (pressSeq), so that the server's stale-action guard refuses
//   what was decided on an old picture (docs/protocol.md "Stale actions").
//
// Keys (the how-to and docs/web-client.md list them): E ends the summoning
// phase; 1 to 9 choose the first, second, ... card a click can play now
// (highlighted, in hand order; the Champion last); Escape cancels.
import { h } from "./dom.js";

// The banner's words and the keys, as the how-to lists them (howto.js).
export const TURN_WORDS = {
  banner: "Your turn",
  keys: "Keys on the game screen: E ends the summoning phase; 1 to 9 choose the first, second, ... card you can play now " +
    "(the highlighted ones, left to right), then Enter or Space on the line or target the focus goes to; Escape changes your mind. " +
    "Tab goes from card to card; ArrowDown on a card goes to its ability labels (ArrowLeft and ArrowRight along them, ArrowUp back). " +
    "After a play the focus goes to the next card you can play.",
};

const BANNER_MS = 1000;
const QUIET_MS = 2500;
// Keys that act on nothing by themselves: they pass the banner.
const PASSING = new Set(["Tab", "Shift", "Control", "Alt", "Meta", "CapsLock"]);
// What acts on no turn (the Motion toggle, the log, leaving, conceding, the
// result): pressed, it does what it says, banner or not.
const ASIDE = ".game-head, .log-area, #log-toggle, #leave-room, #concede, #result, #match-over";

export class TurnControls {
  constructor(game) {
    this.game = game;
    this.asleep = false; // the controls of a new turn, until its banner goes
    this.timer = null;
    this.pressSeq = null; // the seq on screen when the current click or key began
    this.swallowClick = false;
    this.byKey = false; // whether the last press was a key (not a pointer)
    this.lastEndTurn = -Infinity; // performance.now() of the viewer's last end_turn
    this.refocus = null; // after a play: {index, seq} (its card's place, the frame it was sent from)
    this.banner = h("div#turn-banner", { hidden: true, "aria-hidden": "true" }, TURN_WORDS.banner);
    game.root.append(this.banner);
    // Captured on the document: before the game screen's own handlers and
    // motion.js's skip (on the screen), so that the press that skips motion
    // is known here and its click dropped.
    const onScreen = (f) => (e) => { if (this.game.root.contains(e.target)) f(e); };
    this.onPointerDown = onScreen((e) => this._press(e));
    this.onClick = onScreen((e) => this._click(e));
    this.onKeyDown = (e) => this._key(e);
    this.onArrows = (e) => this._arrows(e);
    // A gesture ends after its click (dispatched with the pointerup or the keyup).
    this.onRelease = () => window.setTimeout(() => { this.pressSeq = null; this.swallowClick = false; }, 0);
    document.addEventListener("pointerdown", this.onPointerDown, true);
    document.addEventListener("click", this.onClick, true);
    game.root.addEventListener("keydown", this.onArrows);
    document.addEventListener("keydown", this.onKeyDown, true);
    document.addEventListener("pointerup", this.onRelease, true);
    document.addEventListener("keyup", this.onRelease, true);
  }

  destroy() {
    window.clearTimeout(this.timer);
    document.removeEventListener("pointerdown", this.onPointerDown, true);
    document.removeEventListener("click", this.onClick, true);
    this.game.root.removeEventListener("keydown", this.onArrows);
    document.removeEventListener("keydown", this.onKeyDown, true);
    document.removeEventListener("pointerup", this.onRelease, true);
    document.removeEventListener("keyup", this.onRelease, true);
  }

  // The seq an act chosen now names: the frame on screen when the click or
  // key that chose it began, else the one on screen now.
  actSeq() {
    return this.pressSeq !== null ? this.pressSeq : this.game.seq;
  }

  // A play sent from frame `seq`, its card at `index` in the hand (-1: the Champion).
  played(index, seq) {
    this.refocus = { index: index < 0 ? Infinity : index, seq };
  }

  endTurnSent() {
    this.lastEndTurn = performance.now();
  }

  // game.render, after an update is drawn: a new turn of the viewer puts
  // its controls to sleep behind the banner.
  newTurnShown() {
    const wait = Math.max(BANNER_MS, this.lastEndTurn + QUIET_MS - performance.now());
    this.asleep = true;
    this.banner.hidden = false;
    this.game.root.dataset.banner = "your-turn";
    window.clearTimeout(this.timer);
    this.timer = window.setTimeout(() => this.wake(), wait);
  }

  // A full state: no banner (its render follows).
  reset() {
    window.clearTimeout(this.timer);
    this.timer = null;
    this.asleep = false;
    this.banner.hidden = true;
    delete this.game.root.dataset.banner;
  }

  // The banner goes and the controls wake (its time is up, or a click or a
  // key put it away, or a full state replaced the screen).
  wake() {
    window.clearTimeout(this.timer);
    this.timer = null;
    if (!this.asleep) return;
    this.asleep = false;
    this.banner.hidden = true;
    delete this.game.root.dataset.banner;
    if (!this.game.destroyed) this.game.render();
  }

  // game.render: after a play, once its update is drawn, the focus (lost with the option
  // that was clicked) goes to the next card a click can play, else to End
  // the summoning phase; not when it went somewhere else meanwhile.
  focusAfterPlay() {
    const g = this.game;
    const r = this.refocus;
    // Once a frame after the play's is drawn (not the offers put back while
    // its reply came before its update).
    if (r === null || g.seq <= r.seq || !g.legal || this.asleep) return;
    this.refocus = null;
    const el = document.activeElement;
    if (el && el !== document.body && el.isConnected) return;
    const cards = [...g.handEl.querySelectorAll(".card.affordable[data-uid]")];
    const next = cards.find((c) => Number(c.dataset.index) >= r.index) || cards[0];
    // Scrolled to (only as far as needed) after a key: a pointer's player
    // keeps the hand strip where they left it.
    const to = next || (g.endTurnBtn.disabled ? null : g.endTurnBtn);
    if (!to) return;
    to.focus({ preventScroll: true });
    if (this.byKey) to.scrollIntoView({ block: "nearest", inline: "nearest" });
  }

  // Tab goes from card to card (issue 30, item 7): a hand card's ability
  // labels are no Tab stops (ArrowDown on the card goes to them), a
  // creature's are one (abilities.js `tabs`); the arrows go along a row,
  // ArrowUp back to the card.
  _arrows(e) {
    const t = e.target;
    if (e.altKey || e.ctrlKey || e.metaKey || !t.matches) return;
    let to = null;
    if (t.matches("#hand .card") && e.key === "ArrowDown") {
      const row = t.nextElementSibling;
      to = row && row.matches(".ability-row") ? row.firstElementChild : null;
    } else if (t.matches("button.ability") && !t.closest("#ability-tip")) {
      const row = [...t.parentElement.children];
      const i = row.indexOf(t);
      if (e.key === "ArrowRight" || e.key === "ArrowDown") to = row[i + 1];
      else if (e.key === "ArrowLeft") to = row[i - 1];
      else if (e.key === "ArrowUp") to = t.parentElement.previousElementSibling;
      if (to && to.tabIndex < 0 && !to.matches("button")) to = null;
    }
    if (!to) return;
    e.preventDefault();
    to.focus();
  }

  // A press while motion shows an update skips it (motion.js: the rest at
  // once) and does nothing else: its click is dropped. A press while the
  // banner shows puts it away, and nothing else either.
  _press(e) {
    this.byKey = false;
    this.swallowClick = false;
    if (e.target.closest(ASIDE)) return;
    const motion = this.game.motion;
    if (motion && motion.busy()) {
      motion.finish();
      this.swallowClick = true;
      return;
    }
    if (this.asleep) {
      this.wake();
      this.swallowClick = true;
      return;
    }
    this.swallowClick = false;
    this.pressSeq = this.game.seq;
  }

  _click(e) {
    // A click with no press before it (the keyboard's Enter or Space on a
    // button) while the banner shows puts it away too.
    if (!this.swallowClick && (!this.asleep || e.target.closest(ASIDE))) return;
    if (!this.swallowClick) this.wake();
    this.swallowClick = false;
    e.preventDefault();
    e.stopPropagation();
  }

  _key(e) {
    if (!this._mine(e)) return;
    if (!PASSING.has(e.key) || e.key === "Tab") this.byKey = true;
    if (this.asleep && !PASSING.has(e.key) && !(e.target.closest && e.target.closest(ASIDE))) {
      this.wake();
      e.preventDefault();
      e.stopPropagation();
      return;
    }
    if (!e.repeat) this.pressSeq = this.game.seq;
    // A key while motion shows an update skips it and does nothing else.
    const motion = this.game.motion;
    if (motion && motion.busy()) {
      motion.finish();
      e.preventDefault();
      e.stopPropagation();
      return;
    }
    if (e.ctrlKey || e.altKey || e.metaKey || this._typing(e.target)) return;
    if (e.key === "e" || e.key === "E") {
      if (this.game.endTurnBtn.disabled || this.game.endTurnBtn.hidden) return;
      e.preventDefault();
      this.game._endTurn();
    } else if (/^[1-9]$/.test(e.key)) {
      const cards = [...this.game.root.querySelectorAll("#hand .card.affordable[data-uid]")];
      const card = cards[Number(e.key) - 1];
      if (!card) return;
      e.preventDefault();
      this.game._select(Number(card.dataset.uid));
    }
  }

  // A key for the game screen: shown, no dialog (How to play) open over it.
  _mine(e) {
    const root = this.game.root;
    if (this.game.destroyed || root.hidden || document.body.dataset.screen !== "game") return false;
    if (document.querySelector("dialog[open]")) return false;
    return !e.target || e.target === document.body || root.contains(e.target);
  }

  _typing(el) {
    return !!el && (el.isContentEditable || /^(INPUT|SELECT|TEXTAREA)$/.test(el.tagName));
  }
}
