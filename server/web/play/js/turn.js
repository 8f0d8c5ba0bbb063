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
//   shows only puts it away (the controls wake; nothing else happens);
// - an act names the seq of the frame that was on screen when the click or
//   key began (pressSeq), so that the server's stale-action guard refuses
//   what was decided on an old picture (docs/protocol.md "Stale actions").
//
// Keys (the how-to and docs/web-client.md list them): E ends the summoning
// phase; 1 to 9 choose the first, second, ... card a click can play now
// (highlighted, in hand order; the Champion last); Escape cancels.
import { h } from "./dom.js";
import { TURN_WORDS } from "./words.js";

const BANNER_MS = 1500;
const QUIET_MS = 2500;
// Keys that act on nothing by themselves: they pass the banner.
const PASSING = new Set(["Tab", "Shift", "Control", "Alt", "Meta", "CapsLock"]);

export class TurnControls {
  constructor(game) {
    this.game = game;
    this.asleep = false; // the controls of a new turn, until its banner goes
    this.timer = null;
    this.pressSeq = null; // the seq on screen when the current click or key began
    this.swallowClick = false;
    this.byKey = false; // whether the last press was a key (not a pointer)
    this.lastEndTurn = -Infinity; // performance.now() of the viewer's last end_turn
    this.banner = h("div#turn-banner", { hidden: true, "aria-hidden": "true" }, TURN_WORDS.banner);
    game.root.append(this.banner);
    // Capture, and before motion.js's own skip (added later): the press that
    // skips motion is known here, and its click dropped.
    this.onPointerDown = (e) => this._press(e);
    this.onClick = (e) => this._click(e);
    this.onKeyDown = (e) => this._key(e);
    // A gesture ends after its click (dispatched with the pointerup or the keyup).
    this.onRelease = () => window.setTimeout(() => { this.pressSeq = null; this.swallowClick = false; }, 0);
    game.root.addEventListener("pointerdown", this.onPointerDown, true);
    game.root.addEventListener("click", this.onClick, true);
    document.addEventListener("keydown", this.onKeyDown, true);
    document.addEventListener("pointerup", this.onRelease, true);
    document.addEventListener("keyup", this.onRelease, true);
  }

  destroy() {
    window.clearTimeout(this.timer);
    this.game.root.removeEventListener("pointerdown", this.onPointerDown, true);
    this.game.root.removeEventListener("click", this.onClick, true);
    document.removeEventListener("keydown", this.onKeyDown, true);
    document.removeEventListener("pointerup", this.onRelease, true);
    document.removeEventListener("keyup", this.onRelease, true);
  }

  // The seq an act chosen now names: the frame on screen when the click or
  // key that chose it began, else the one on screen now.
  actSeq() {
    return this.pressSeq !== null ? this.pressSeq : this.game.seq;
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

  // A press while motion shows an update skips it (motion.js: the rest at
  // once) and does nothing else: its click is dropped. A press while the
  // banner shows puts it away, and nothing else either.
  _press(e) {
    this.byKey = false;
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
    if (!this.swallowClick && !this.asleep) return;
    if (!this.swallowClick) this.wake();
    this.swallowClick = false;
    e.preventDefault();
    e.stopPropagation();
  }

  _key(e) {
    if (!this._mine(e)) return;
    if (!PASSING.has(e.key) || e.key === "Tab") this.byKey = true;
    if (this.asleep && !PASSING.has(e.key)) {
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
