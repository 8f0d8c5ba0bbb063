// Emotes instead of free chat (docs/protocol.md "emote"): a player says one
// of four fixed things to the table; everyone in the room sees it for a
// few seconds and in the log. "Mute emotes" hides everyone's (remembered in
// localStorage). The server rate-limits them: its refusal is shown in words.
// Loaded with the game screen, not on the first visit.
import { h } from "./dom.js";

export const EMOTE_WORDS = { well_played: "Well played", good_game: "Good game", thinking: "Thinking…", oops: "Oops" };
const MUTE_KEY = "cod.emotes.muted";
const SHOWN_MS = 4000;

function storedMute() {
  try { return window.localStorage.getItem(MUTE_KEY) === "1"; } catch { return false; }
}

export class Emotes {
  // send(id): a promise (the request); rejected with the server's error.
  // Without it (a spectator) the emotes are shown, none said.
  constructor(game, send) {
    this.game = game;
    this.send = send;
    this.muted = storedMute();
    this.toast = h("div#emote-toast", { role: "status", "aria-live": "polite", hidden: true });
    this.hideTimer = null;
    this.menu = h("div#emote-menu", { role: "group", "aria-label": "Emotes", hidden: true },
      ...Object.entries(EMOTE_WORDS).map(([id, words]) =>
        h("button.small", { type: "button", data: { emote: id }, onclick: () => this._say(id) }, words)),
      h("label.mute", {}, this.muteBox = h("input#emote-mute", {
        type: "checkbox", checked: this.muted, onchange: () => this._setMute(this.muteBox.checked),
      }), " Mute emotes"));
    this.button = h("button#emote-open", {
      type: "button", "aria-expanded": "false", "aria-controls": "emote-menu", onclick: () => this._toggle(),
    }, "Emote");
    this.el = h("div#emotes", {}, this.button, this.menu);
    const controls = game.root.querySelector(".controls");
    if (controls && send) controls.append(this.el);
    game.root.querySelector(".game-head").after(this.toast);
  }

  _toggle(open = this.menu.hidden) {
    this.menu.hidden = !open;
    this.button.setAttribute("aria-expanded", String(open));
  }

  _setMute(muted) {
    this.muted = muted;
    try { window.localStorage.setItem(MUTE_KEY, muted ? "1" : "0"); } catch { /* this page only */ }
    if (muted) this.toast.hidden = true;
  }

  async _say(id) {
    this._toggle(false);
    try {
      const reply = await this.send(id);
      if (reply) this.show(reply);
    } catch (e) {
      this._flash(e && e.code === "rate_limited" ? "Easy: one emote a second." : `Not sent: ${(e && e.message) || "refused"}.`);
    }
  }

  // {seat, name, emote}: shown for a few seconds and logged, unless muted.
  show(msg) {
    const words = EMOTE_WORDS[msg.emote];
    if (!words || this.muted) return;
    const who = this.game.seatName(msg.seat, false);
    this._flash(`${who}: ${words}`);
    this.game.log(`${who}: “${words}”`, "emote");
  }

  _flash(text) {
    this.toast.textContent = text;
    this.toast.hidden = false;
    window.clearTimeout(this.hideTimer);
    this.hideTimer = window.setTimeout(() => { this.toast.hidden = true; }, SHOWN_MS);
  }
}
