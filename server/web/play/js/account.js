// Accounts and Play on the lobby: the account panel (sign up, sign in, play
// as a guest, claim a guest, sign out; docs/accounts.md) and the Play panel
// (the matchmaking queue: mode, rated or casual, deck, a wait timer, cancel;
// docs/protocol.md "The queue"). The session token is kept in localStorage;
// app.js says hello with it (protocol.js) and sends queue and unqueue.
import { h, clear } from "./dom.js";
import { ACCOUNT_WORDS as W, QUEUE_WORDS as Q, accountErrorWords, clockWords } from "./words.js";

// A refusal of the account API: HTTP status, the error code, the server's
// sentence, retry_after (429).
export class ApiError extends Error {
  constructor(status, body) {
    super((body && body.message) || `HTTP ${status}`);
    this.name = "ApiError";
    this.status = status;
    this.code = (body && body.error) || (status === 0 ? "network" : `http_${status}`);
    this.retry_after = body && body.retry_after;
  }
}

// One request of the players' API: resolves with the JSON body of a 2xx,
// rejects with an ApiError (status 0: the server could not be reached).
export async function api(method, path, { body, token } = {}) {
  const headers = {};
  if (token) headers.Authorization = `Bearer ${token}`;
  if (method !== "GET") headers["Content-Type"] = "application/json";
  let r;
  try {
    r = await fetch(path, { method, headers, body: method === "GET" ? undefined : JSON.stringify(body || {}) });
  } catch {
    throw new ApiError(0, null);
  }
  let json = null;
  try {
    json = await r.json();
  } catch {
    json = null;
  }
  if (!r.ok) throw new ApiError(r.status, json);
  return json;
}

// The session this browser holds: {token, name, guest}. The token is never shown.
const ACCOUNT_KEY = "cod.account";

export const accountStore = {
  get() {
    try {
      const s = JSON.parse(window.localStorage.getItem(ACCOUNT_KEY) || "null");
      return s && typeof s.token === "string" && /^[0-9a-f]{32}$/.test(s.token) ? s : null;
    } catch {
      return null;
    }
  },
  set(s) {
    window.localStorage.setItem(ACCOUNT_KEY, JSON.stringify({ token: s.token, name: s.name, guest: !!s.guest }));
  },
  clear() {
    window.localStorage.removeItem(ACCOUNT_KEY);
  },
};

// actions: {signIn(name, password), signUp(name, password), guest(), claim(name, password), signOut()};
// each resolves, or rejects with an ApiError the panel shows in words.
export class AccountPanel {
  constructor(actions) {
    this.actions = actions;
    this.account = null;
    this.el = h("section.panel#account-panel", { "aria-labelledby": "account-title" });
    this.error = h("p#account-error.refusal", { role: "alert" });
    this.info = h("p#account-info.note", { role: "status" });
    this.render();
  }

  setAccount(account) {
    this.account = account;
    this.render();
  }

  // Shows `text` as the panel's error (empty: none).
  setError(text) {
    this.error.textContent = text || "";
  }

  setInfo(text) {
    this.info.textContent = text || "";
  }

  async _run(fn) {
    if (this.busy) return;
    this.busy = true;
    this.setError("");
    this.setInfo("");
    for (const b of this.el.querySelectorAll("button")) b.disabled = true;
    this.el.setAttribute("aria-busy", "true");
    try {
      await fn();
    } catch (e) {
      this.setError(accountErrorWords(e));
    } finally {
      this.busy = false;
      this.el.removeAttribute("aria-busy");
      for (const b of this.el.querySelectorAll("button")) b.disabled = false;
    }
  }

  // The typed name and password, or null (with the error said).
  _credentials(nameInput, passInput) {
    const name = nameInput.value.trim();
    const password = passInput.value;
    if (!name || !password) {
      this.setError(W.missing);
      (name ? passInput : nameInput).focus();
      return null;
    }
    return { name, password };
  }

  render() {
    const focused = document.activeElement && this.el.contains(document.activeElement) ? document.activeElement.id : null;
    clear(this.el);
    this.el.append(h("h2#account-title", {}, W.title));
    const a = this.account;
    if (!a) {
      const name = h("input#account-name", { type: "text", autocomplete: "username", maxlength: 32, spellcheck: "false" });
      const pass = h("input#account-password", { type: "password", autocomplete: "current-password", maxlength: 128 });
      const submit = (how) => {
        const c = this._credentials(name, pass);
        if (c) this._run(() => this.actions[how](c.name, c.password));
      };
      this.el.append(
        h("p.note", {}, W.signedOutHelp),
        h("form#signin-form.account-form", { onsubmit: (e) => { e.preventDefault(); submit("signIn"); } },
          h("label", {}, `${W.name} `, name),
          h("label", {}, `${W.password} `, pass),
          h("div.buttons", {},
            h("button#sign-in", { type: "submit" }, W.signIn),
            h("button#sign-up", { type: "button", onclick: () => submit("signUp") }, W.signUp),
            h("button#account-guest", { type: "button", onclick: () => this._run(() => this.actions.guest()) }, W.guest))));
    } else {
      this.el.append(h("p#account-status", {}, `${W.signedInAs} `, h("strong#account-shown", {}, a.name),
        a.guest ? " (guest)" : ""));
      if (a.guest) {
        const name = h("input#claim-name", { type: "text", autocomplete: "username", maxlength: 32, spellcheck: "false" });
        const pass = h("input#claim-password", { type: "password", autocomplete: "new-password", maxlength: 128 });
        this.el.append(h("form#claim-form.account-form", {
          onsubmit: (e) => {
            e.preventDefault();
            const c = this._credentials(name, pass);
            if (c) this._run(() => this.actions.claim(c.name, c.password));
          },
        },
        h("p.note", {}, W.guestNote(a.name)),
        h("label", {}, `${W.name} `, name),
        h("label", {}, `${W.password} `, pass),
        h("div.buttons", {}, h("button#claim", { type: "submit" }, W.claim))));
      }
      this.el.append(h("div.buttons", {},
        h("a#my-profile.button-link", { href: `#/players/${encodeURIComponent(a.name)}` }, W.profile),
        h("button#sign-out", { type: "button", onclick: () => this._run(() => this.actions.signOut()) }, W.signOut)));
    }
    this.el.append(this.error, this.info);
    if (focused) {
      const el = this.el.querySelector(`#${focused}`);
      if (el) el.focus();
    }
  }
}

// actions: {find({mode, rated, deck, partner}), cancel()}. find resolves once
// queued (or rejects; app.js says why); the panel then shows the wait.
export class PlayPanel {
  constructor(catalogue, actions) {
    this.cat = catalogue;
    this.actions = actions;
    this.account = null;
    this.search = null; // {mode, since}
    this.timer = null;
    this._build();
    this.render();
  }

  _build() {
    this.modeInputs = Object.entries(Q.modes).map(([id, label], i) =>
      h("label.check", {}, h("input", { type: "radio", name: "queue-mode", value: id, id: `queue-mode-${id}`, checked: i === 0 }), ` ${label}`));
    this.rated = h("input#queue-rated", { type: "checkbox", checked: true });
    this.deck = h("select#queue-deck", {},
      [1, 2, 3, 4].map((n) => h("option", { value: String(n) }, `Preconstructed deck ${n}: ${this.cat.deckCards(n).map((id) => this.cat.name(id)).join(", ")}`)));
    // 2v2: a friend to play with, as teammates (queue.partner).
    this.partner = h("input#queue-partner", { type: "text", maxlength: 32, autocomplete: "off" });
    // In a div: the panel's labels are styled display: block, which a
    // label's own `hidden` would lose to.
    this.partnerLabel = h("div#queue-partner-row", { hidden: true }, h("label", {}, `${Q.partner} `, this.partner));
    for (const l of this.modeInputs) l.querySelector("input").addEventListener("change", () => this.render());
    this.help = h("p.note#queue-help");
    this.findBtn = h("button#find-game.primary", { type: "button", onclick: () => this._find() });
    this.cancelBtn = h("button#cancel-search", { type: "button", onclick: () => this._cancel() }, Q.cancel);
    this.timerEl = h("span#search-timer", { data: { seconds: 0 } }, "0:00");
    this.searchText = h("span#search-text");
    this.countEl = h("span#search-count.note");
    this.searchingEl = h("div#searching", { hidden: true },
      h("p#search-status", { role: "status" }, this.searchText, " ", this.timerEl, " ", this.countEl),
      this.cancelBtn);
    this.statusEl = h("p#queue-note.note", { role: "status" });
    this.form = h("div#queue-form", {},
      h("fieldset#queue-modes.inline", {}, h("legend", {}, Q.mode), this.modeInputs),
      h("label.check", {}, this.rated, ` ${Q.rated}`),
      h("label", {}, `${Q.deck} `, this.deck),
      this.partnerLabel,
      this.findBtn);
    this.el = h("section.panel#play-panel", { "aria-labelledby": "play-title" },
      h("h2#play-title", {}, Q.title, " ", h("a#ladder-link.small", { href: "#/ladder/duel" }, Q.ladder)),
      this.help,
      this.form,
      this.searchingEl,
      this.statusEl,
      h("p.note#queue-alone", {}, Q.alone));
  }

  setAccount(account) {
    this.account = account;
    this.render();
  }

  mode() {
    const checked = this.modeInputs.map((l) => l.querySelector("input")).find((i) => i.checked);
    return checked ? checked.value : "duel";
  }

  render() {
    this.help.textContent = this.account ? Q.help : Q.helpSignedOut;
    this.findBtn.textContent = this.account ? Q.find : Q.findAsGuest;
    this.form.hidden = !!this.search;
    this.searchingEl.hidden = !this.search;
    this.partnerLabel.hidden = this.mode() !== "2v2";
  }

  async _find() {
    if (this.findBtn.disabled) return;
    this.findBtn.disabled = true;
    this.setNote("");
    try {
      const partner = this.mode() === "2v2" ? this.partner.value.trim() : "";
      await this.actions.find({ mode: this.mode(), rated: this.rated.checked, deck: Number(this.deck.value), partner });
    } finally {
      this.findBtn.disabled = false;
    }
  }

  async _cancel() {
    if (this.cancelBtn.disabled) return;
    this.cancelBtn.disabled = true;
    try {
      await this.actions.cancel();
    } finally {
      this.cancelBtn.disabled = false;
    }
  }

  setNote(text) {
    this.statusEl.textContent = text || "";
  }

  // Queued: the wait counts up from now.
  searching({ mode, searching }) {
    this.search = { mode, since: Date.now() };
    this.searchText.textContent = Q.searching(mode);
    this.countEl.textContent = searching > 1 ? Q.players(searching) : "";
    this._tick();
    window.clearInterval(this.timer);
    this.timer = window.setInterval(() => this._tick(), 500);
    this.render();
    this.cancelBtn.focus();
  }

  _tick() {
    if (!this.search) return;
    const s = Math.floor((Date.now() - this.search.since) / 1000);
    this.timerEl.dataset.seconds = String(s);
    this.timerEl.textContent = clockWords(s);
  }

  // The search is over (cancelled, matched, stopped): `reason` says why, in
  // the note (none for a match).
  stopped(reason = null) {
    this.search = null;
    window.clearInterval(this.timer);
    this.timer = null;
    this.render();
    if (reason && Q.stopped[reason]) this.setNote(Q.stopped[reason]);
    if (reason === "unqueued") this.findBtn.focus();
  }
}
