// The game screen: every line with its Bridge, the creatures on both sides,
// the seats (Stronghold side and position, health, mana, hand sizes, AI deck
// and discard piles, Champions), the player's own hand in order with the
// Stronghold in it and the 4 playable cards highlighted, the clock, the event
// log, and the clicks that make actions: a card, then a line, a target or a host.
import { h, clear } from "./dom.js";
import { narrate, reasonWords, playPreviewWords, PLAY_WORDS, CARD_MARKS } from "./words.js";
import { abilityButtons, cardFace, refreshAbilityTip, nameSize } from "./abilities.js";

const MAX_LOG = 400;
const BASE_TITLE = "Clash of Decks";

function fmtClock(ms) {
  if (ms === null || ms === undefined) return "";
  const s = Math.max(0, Math.ceil(ms / 1000));
  const m = Math.floor(s / 60);
  return `${m}:${String(s % 60).padStart(2, "0")}`;
}

// The game screen's layout (layout.css) and card faces (look.css, after it)
// come with the first game screen, not with the first visit; the screen
// stays invisible until they are there.
let layoutCss = null;
function loadLayoutCss() {
  layoutCss = layoutCss || Promise.all(["layout", "look"].map((f) => new Promise((done) => {
    document.head.append(h("link", { rel: "stylesheet", href: `/play/${f}.css`, onload: done, onerror: done }));
  })));
  return layoutCss;
}

export class GameScreen {
  // actions: {act(action), concede(), leave(), backLabel (the leave button's words), playAgain, tabTitle}
  constructor(root, catalogue, actions) {
    this.root = root;
    this.cat = catalogue;
    this.actions = actions;
    this.view = null;
    this.seq = 0;
    this.room = null;
    this.names = [];
    this.connected = [];
    this.loggedSeq = -1; // the last seq whose events the log tells
    this.historyFrom = 0;
    this.stateSeq = 0;
    this.stateMarker = null;
    this.selected = null; // uid of the card being played
    this.hovered = null; // uid of the listed card under the pointer or the focus (its preview shows)
    // The seat's legal actions from the newest state or update (hello asks
    // for them): the only source of the moves offered; null for spectators.
    this.legal = null;
    this.clock = null; // {remaining: [], running, at}
    this.over = null; // match_over message
    this.evs = new Map(); // seq -> events received (result.js)
    this._build();
    // A new turn's banner, the presses that must not act on it, the keys
    // (turn.js, loaded now, not on the first visit).
    this.turn = null;
    import("./turn.js").then((m) => { if (!this.destroyed) this.turn = new m.TurnControls(this); });
    this.root.dataset.css = "loading";
    loadLayoutCss().then(() => delete this.root.dataset.css);
    this.root.addEventListener("keydown", (e) => {
      if (e.key !== "Escape") return;
      if (this.logArea.dataset.open === "true") this._toggleLog(false);
      else this._cancelSelection();
    });
    // Motion (js/motion.js, loaded now, not on the first visit): until it
    // is there, updates land at once as they always did.
    this.motion = null;
    if (actions.motion !== false) {
      import("./motion.js").then((m) => {
        if (!this.destroyed) this.motion = new m.Motion(this);
      }).catch(() => { /* without motion */ });
    }
    // Card faces and zoom (js/look.js, loaded now too): until then, words.
    this.look = null;
    import("./look.js").then((m) => {
      if (this.destroyed) return;
      this.look = new m.Look(this);
      this.look.decorate();
    }).catch(() => { /* plain faces */ });
    this.timer = window.setInterval(() => this._renderClock(), 250);
    import("./cues.js").then((m) => { if (!this.destroyed) this.cues = new m.Cues(this); }).catch(() => {});
  }

  _build() {
    this.title = h("h2#game-title");
    this.turnInfo = h("div#turn-info");
    this.clockEl = h("div#clock");
    this.statusEl = h("div#status");
    this.seatsEl = h("div#seats");
    this.boardEl = h("div#board");
    this.promptEl = h("div#prompt");
    // What the previewed play costs (legal_actions plays[].after), told to
    // screen readers as it changes; the hint shows while nothing is previewed.
    this.previewText = h("span#play-preview", { role: "status", "aria-live": "polite" });
    this.previewHint = h("span.hint", {}, PLAY_WORDS.hint);
    this.previewEl = h("div#preview-area", {}, this.previewHint, this.previewText);
    this.handEl = h("div#hand");
    this.handTitle = h("h3", {}, "Your hand");
    this.extraEl = h("div#extra-hands");
    // The second click of a double click is dropped: against the AI the reply
    // (the AI's whole turn) can come back between the two clicks, and the
    // second would then end the next turn too.
    this.endTurnBtn = h("button#end-turn", {
      onclick: (e) => { if (e.detail <= 1) this._endTurn(); },
    }, "End the summoning phase");
    this.concedeBtn = h("button#concede.danger", { onclick: () => this._concede() }, "Concede");
    // A league duel goes back to the league screen (actions.backLabel says so).
    this.leaveBtn = h("button#leave-room", { onclick: () => this.actions.leave() }, this.actions.backLabel || "Back to the lobby");
    this.overEl = h("div#match-over", { hidden: true });
    // The end, in a dialog over the board (won, lost or watched), with what
    // to do next; closed, the strip above the board keeps the result.
    this.resultEl = h("div#result", { role: "dialog", "aria-modal": "false", "aria-labelledby": "result-title", hidden: true });
    this.resultClosed = false;
    this.seedCheckText = null;
    this.ratingText = null; // a rated game's rating change (app.js)
    // Scrolls: focusable, so the keyboard scrolls it too (WCAG 2.1.1).
    this.logEl = h("ol#log", { tabindex: "0", "aria-label": "What happened" });
    // On a phone the log is a drawer this button opens and closes (on a
    // wide screen it is always shown beside the board and the button hidden).
    this.logToggle = h("button#log-toggle", {
      "aria-expanded": "false", "aria-controls": "log-area", onclick: () => this._toggleLog(),
    }, "What happened");
    this.logArea = h("aside.log-area#log-area", { data: { open: "false" } },
      h("div.log-head", {}, h("h3", {}, "What happened"),
        h("button#log-close.small", { onclick: () => this._toggleLog(false) }, "Close")),
      this.logEl);
    // The table (seats and lines; the viewer at the bottom) scrolls in its
    // box if it must; the dock below keeps the hand and buttons in sight.
    this.root.append(
      h("div.game-head", {}, this.title, this.turnInfo, this.clockEl),
      this.statusEl,
      this.overEl,
      this.resultEl,
      h("div.game-body", {},
        h("div.game-main", {},
          h("div.table", {}, this.seatsEl, this.boardEl),
          this.extraEl,
          h("div.dock", {},
            this.promptEl,
            this.previewEl,
            h("div.hand-area", {}, this.handTitle, this.handEl),
            h("div.controls", {}, this.endTurnBtn, this.concedeBtn, this.leaveBtn, this.logToggle))),
        this.logArea));
  }

  // Opens or closes the log drawer (phones); the focus follows it.
  _toggleLog(open = this.logArea.dataset.open !== "true") {
    this.logArea.dataset.open = String(open);
    this.logToggle.setAttribute("aria-expanded", String(open));
    if (open) {
      this.logEl.scrollTop = this.logEl.scrollHeight;
      this.logArea.querySelector("#log-close").focus();
    } else if (this.logArea.contains(document.activeElement) || document.activeElement === document.body) {
      this.logToggle.focus();
    }
  }

  destroy() {
    this.destroyed = true;
    if (this.turn) this.turn.destroy();
    if (this.motion) this.motion.destroy();
    if (this.look) this.look.destroy();
    this.cues?.destroy();
    window.clearInterval(this.timer);
    if (this.actions.tabTitle !== false) document.title = BASE_TITLE;
  }

  setRoomInfo(room, names, connected) {
    this.room = room;
    if (names) this.names = names;
    if (connected) this.connected = connected;
    // While motion shows an update on the old board, its end redraws.
    if (this.view && !(this.motion && this.motion.busy())) this.render();
  }

  seatName(seat, markYou = true) {
    if (seat === null || seat === undefined) return "nobody";
    const n = this.names[seat];
    const you = markYou && this.view && this.view.viewer === seat ? " (you)" : "";
    const ai = this.view && this.view.seats[seat] && this.view.seats[seat].ai;
    return (n || (ai ? `AI ${seat + 1}` : `Seat ${seat + 1}`)) + you;
  }

  lineName(line) {
    const v = this.view;
    if (!v || line === null || line === undefined) return "a line";
    if (v.viewer !== null && v.viewer !== undefined) {
      const me = v.seats[v.viewer];
      if (me.upper_line === line) return `line ${line + 1} (your upper line)`;
      if (me.lower_line === line) return `line ${line + 1} (your lower line)`;
    }
    return `line ${line + 1}`;
  }

  // A full state (start, resume, spectate): replaces everything.
  setState(msg) {
    if (this.motion) this.motion.finish(); // the updates before it first, in order
    if (this.turn) this.turn.reset();
    this.view = msg.view;
    this.seq = msg.seq;
    this.legal = msg.legal_actions || null;
    this.selected = null;
    if (msg.clock) this._setClock(msg.clock);
    // fillHistory tells what came before this line and is not in the log
    // yet (all of it after a reload; what a cut missed after a reconnection).
    this.stateSeq = msg.seq;
    this.historyFrom = this.loggedSeq + 1;
    if (Array.isArray(msg.events)) this.historyFrom = Math.max(this.historyFrom, msg.seq + 1);
    this.loggedSeq = Math.max(this.loggedSeq, msg.seq);
    this.stateMarker = this.log(`— ${this.view.role === "spectator" ? "Watching" : "Playing"} room ${msg.room}, action ${msg.seq}; ${this.seatName(this.view.active_seat)} to play.`, "info");
    // Solo and co-op: the match's first state tells the setup (the AI's
    // opening turn with ai_first).
    if (Array.isArray(msg.events)) for (const ev of msg.events) this.log(narrate(ev, this._narrateCtx()), ev.type, msg.seq);
    if (msg.events) this.evs.set(msg.seq, msg.events);
    // R14.6, RULING E82: every deck list is public from the start.
    if (Array.isArray(msg.decks)) {
      for (const d of msg.decks) {
        this.log(`${this.seatName(d.seat)}'s list: ${d.cards.map((id) => this.cat.name(id)).join(", ")}.`, "info");
      }
    }
    this.render();
  }

  // Motion, when loaded, shows the events step by step and then calls
  // applyNow; updates keep their order behind it.
  applyUpdate(msg) {
    if (this.motion && this.motion.take(msg)) return;
    this.applyNow(msg);
  }

  _noteGap(msg) {
    if (this.view && msg.seq !== this.seq + 1) this.log(`(missed updates ${this.seq + 1}..${msg.seq - 1})`, "info");
  }

  // `told`: how many of its events the log tells already (motion.js).
  applyNow(msg, told = 0) {
    if (!told) this._noteGap(msg);
    const before = this.view;
    const wasMine = this.turnIsMine();
    this.view = msg.view;
    this.seq = msg.seq;
    this.legal = msg.legal_actions || null;
    if (msg.clock) this._setClock(msg.clock);
    // A new turn of the viewer: its controls wait for its banner (turn.js).
    if (this.turn && this.turnIsMine() && (!wasMine || (before && before.turn !== msg.view.turn))) this.turn.newTurnShown();
    // The events are told with the names of the view they happened in.
    const ctx = this._narrateCtx();
    for (const ev of msg.events.slice(told)) this.log(narrate(ev, ctx), ev.type, msg.seq);
    this.evs.set(msg.seq, msg.events);
    this.loggedSeq = Math.max(this.loggedSeq, msg.seq);
    if (before && this.selected !== null && !this._options(this.selected)) this.selected = null;
    this.render();
  }

  // The match up to the last state (a history reply: docs/protocol.md), told
  // above that state's line, so that a reload or a reconnection does not
  // lose what happened (the opponent's last moves, the AI's turn).
  fillHistory(reply) {
    const marker = this.stateMarker;
    if (!marker || !marker.isConnected) return;
    const ctx = this._narrateCtx();
    const lines = [];
    if (reply.first_seq > this.historyFrom)
      lines.push(h("li.ev-info", {}, `(actions ${this.historyFrom} to ${reply.first_seq - 1} are not shown)`));
    for (const entry of reply.entries) {
      if (entry.seq <= this.stateSeq) this.evs.set(entry.seq, entry.events);
      if (entry.seq < this.historyFrom) continue; // in the log already
      if (entry.seq > this.stateSeq) break; // told by the updates since
      for (const ev of entry.events) lines.push(h("li", { class: `ev-${ev.type}`, data: { seq: entry.seq } }, narrate(ev, ctx)));
    }
    marker.before(...lines);
    while (this.logEl.children.length > MAX_LOG) this.logEl.removeChild(this.logEl.firstChild);
    this.logEl.scrollTop = this.logEl.scrollHeight;
    this.logEl.dataset.history = String(reply.seq);
    this.cues?.update();
  }

  _narrateCtx() {
    return {
      seatName: (s) => this.seatName(s, false),
      cardName: (uid, id) => this.cat.name(id),
      lineName: (l) => this.lineName(l),
    };
  }

  clockMessage(msg) {
    const remaining = this.clock ? [...this.clock.remaining] : [];
    remaining[msg.seat] = msg.remaining_ms;
    this.clock = { remaining, running: msg.seat, at: performance.now() };
    this._renderClock();
  }

  _setClock(c) {
    this.clock = { remaining: c.remaining_ms, running: c.running_seat, at: performance.now() };
  }

  matchOver(msg) {
    if (this.motion && this.motion.defer(() => this.matchOver(msg))) return; // after the last update is shown
    this.over = msg;
    this.render();
  }

  setSeatConnected(seat, connected) {
    if (this.motion && this.motion.defer(() => this.setSeatConnected(seat, connected))) return;
    this.connected[seat] = connected;
    this.log(`${this.seatName(seat)} ${connected ? "is back" : "lost the connection"}.`, "info");
    this.render();
  }

  // `seq`: the action whose events this line tells (data-seq), if any.
  log(text, kind = "", seq = null) {
    const li = h("li", { class: kind ? `ev-${kind}` : undefined, data: seq === null ? undefined : { seq } }, text);
    this.logEl.append(li);
    while (this.logEl.children.length > MAX_LOG) this.logEl.removeChild(this.logEl.firstChild);
    this.logEl.scrollTop = this.logEl.scrollHeight;
    return li;
  }

  // The viewer's turn, its controls awake (not behind its banner: turn.js).
  isMyTurn() {
    return this.turnIsMine() && !this._asleep();
  }

  // The viewer's turn in the view drawn (the banner's time included).
  turnIsMine() {
    const v = this.view;
    return !!v && v.role === "player" && v.phase === "summoning" && v.active_seat === v.viewer;
  }

  // ---- rendering ----

  render() {
    const v = this.view;
    if (!v) return;
    const focus = this._focusKey();
    this.rendering = true;
    this.root.dataset.seq = String(this.seq);
    this.root.dataset.phase = v.phase;
    // Whether the viewer's controls are awake on their turn (not behind the banner).
    this.root.dataset.myTurn = String(this.isMyTurn());
    this.root.dataset.viewer = v.viewer === null ? "" : String(v.viewer);
    this.title.textContent = `Room ${this.room || ""} — ${v.mode}${v.exhaustion_rule ? ", exhaustion rule" : ""}${v.exhausted ? " (exhausted)" : ""}`;
    this.turnInfo.textContent = `Turn ${v.turn}, round ${v.round}`;
    if (v.phase === "game_over") {
      const winners = v.winners.map((s) => this.seatName(s, false)).join(" and ");
      const won = v.viewer !== null && v.winners.includes(v.viewer);
      const why = reasonWords(v.reason);
      this.statusEl.textContent = v.role !== "player" ? `${winners} won: ${why}.`
        : won ? `You won${v.winners.length > 1 ? ` (with ${winners})` : ""}: ${why}.` : `You lost: ${winners} won, ${why}.`;
      this.statusEl.className = "over";
    } else if (v.role === "spectator") {
      this.statusEl.textContent = `Watching: ${this.seatName(v.active_seat)} is playing.`;
      this.statusEl.className = "";
    } else if (this.turnIsMine()) {
      this.statusEl.textContent = `Your turn: ${v.seats[v.viewer].mana} mana. Click a highlighted card, then where it goes; end the summoning phase when done.`;
      this.statusEl.className = "mine";
    } else {
      this.statusEl.textContent = `Waiting for ${this.seatName(v.active_seat)} to play.`;
      this.statusEl.className = "";
    }
    // The tab says when it is your turn (another tab may be in front); not
    // on a page that only draws a board (the admin's replay).
    if (this.actions.tabTitle !== false) {
      const ended = { won: "You won", lost: "You lost", watched: "Match over" }[this._outcome()];
      document.title = v.phase === "game_over" ? `${ended} — ${BASE_TITLE}` : this.turnIsMine() ? `Your turn — ${BASE_TITLE}` : BASE_TITLE;
    }
    this._renderOver();
    this._renderSeats();
    this._renderBoard();
    this._renderHand();
    this._renderPrompt();
    this._renderPreview();
    this._renderClock();
    const player = v.role === "player" && v.phase !== "game_over";
    this.endTurnBtn.disabled = this._asleep() || !(this.legal && this.legal.end_turn);
    this.concedeBtn.hidden = !player;
    this.endTurnBtn.hidden = v.role !== "player";
    this.rendering = false;
    refreshAbilityTip();
    this._restoreFocus(focus);
    if (this.turn) this.turn.focusAfterPlay();
    if (this.actions.afterRender) this.actions.afterRender(this);
    if (this.look) this.look.decorate();
    if (this.motion) this.motion.decorate();
    this.cues?.update();
  }

  // What has the keyboard focus, told so that the same thing can be found
  // again after a redraw (which rebuilds the hand, board and prompt).
  _focusKey() {
    const el = document.activeElement;
    if (!el || !this.root.contains(el)) return null;
    if (el.dataset.tipKey !== undefined) return `button.ability[data-tip-key="${CSS.escape(el.dataset.tipKey)}"]`;
    if (el.dataset.uid !== undefined) return `${el.closest("#hand") ? "#hand" : "#board"} [data-uid="${el.dataset.uid}"]`;
    if (el.dataset.playLine !== undefined) return `button[data-play-line="${el.dataset.playLine}"]`;
    return el.id ? `#${el.id}` : null;
  }

  _asleep() {
    return !!(this.turn && this.turn.asleep);
  }

  _restoreFocus(key) {
    if (!key || this.root.contains(document.activeElement)) return;
    const el = this.root.querySelector(key);
    if (el && el.tabIndex >= 0) el.focus();
  }

  // Won, lost, or (a spectator) who won.
  _outcome() {
    const o = this.over;
    const v = this.view;
    if (!o || !v || v.role !== "player" || v.viewer === null) return "watched";
    return o.winners.includes(v.viewer) ? "won" : "lost";
  }

  _renderOver() {
    const o = this.over;
    if (!o) {
      this.overEl.hidden = true;
      this.resultEl.hidden = true;
      return;
    }
    const outcome = this._outcome();
    const winners = o.winners.map((s) => this.seatName(s, false)).join(" and ") || "nobody";
    const why = reasonWords(o.reason);
    const seed = this.seedCheckText || `Seed ${o.seed}: checking it against the commitment...`;
    const headline = outcome === "won" ? "You won!" : outcome === "lost" ? "You lost." : `${winners} won.`;
    this.overEl.hidden = false;
    this.overEl.dataset.outcome = outcome;
    clear(this.overEl).append(
      h("strong", {}, `Match over: ${winners} won (${why}).`),
      " ",
      h("span#seed-check", {}, seed));
    this.resultEl.hidden = this.resultClosed;
    this.resultEl.dataset.outcome = outcome;
    const again = this.actions.playAgain && this.actions.playAgain.available() && outcome !== "watched";
    const buttons = [
      again ? h("button#play-again", { onclick: () => this.actions.playAgain.run() }, "Play again") : null,
      h("button#result-lobby", { onclick: () => this.actions.leave() }, this.actions.backLabel || "Back to the lobby"),
      h("button#result-close", { onclick: () => this._closeResult() }, "Look at the board"),
    ].filter(Boolean);
    clear(this.resultEl).append(
      h("h2#result-title", {}, headline),
      h("p", {}, outcome === "watched" ? `${why[0].toUpperCase()}${why.slice(1)}.` : `${winners} won: ${why}.`),
      h("p", {}, `${this.view.turn ? `Turn ${this.view.turn}, round ${this.view.round}` : ""}; ${this.seq} actions.`),
      h("div#result-summary"),
      this.ratingText ? h("p#result-rating.rating", {}, this.ratingText) : "",
      h("p.seed", {}, seed),
      h("div.buttons", {}, ...buttons));
  }

  _closeResult() {
    this.resultClosed = true;
    this.resultEl.hidden = true;
    this.endTurnBtn.focus();
  }

  // A rated game's new rating and its change, on the result dialog (kept
  // for later renders, like the seed check).
  setRating(text) {
    this.ratingText = text;
    if (!this.over || !this.view) return;
    const focus = this._focusKey();
    this._renderOver();
    this._restoreFocus(focus);
  }

  // The seed check's outcome: kept, so that a later render (a seat leaving)
  // does not show "checking..." again.
  setSeedCheck(text) {
    this.seedCheckText = text;
    for (const el of this.root.querySelectorAll("#seed-check, #result .seed")) el.textContent = text;
  }

  _renderSeats() {
    const v = this.view;
    clear(this.seatsEl);
    for (const s of v.seats) {
      const mine = s.seat === v.viewer;
      const classes = ["seat-box"];
      if (mine) classes.push("mine");
      if (s.seat === v.active_seat && v.phase !== "game_over") classes.push("active");
      if (v.winners.includes(s.seat)) classes.push("winner");
      const team = v.mode === "2v2" ? (s.seat % 2 === 0 ? "team 1+3" : "team 2+4") : null;
      const rows = [
        h("div.seat-name", {}, this.seatName(s.seat), team ? h("span.team", {}, ` (${team})`) : null,
          this.connected[s.seat] === false && !s.ai ? h("span.away", {}, " — disconnected") : null),
        h("div.stronghold", { data: { side: s.side } },
          `${s.side === "fort" ? "Fort" : "Bastion"}`,
          s.ai ? "" : ` at position ${s.stronghold_pos + 1}`, `, health ${s.health}`, s.ai ? " = its deck" : ""), // R12.1
        this._healthTrack(s, mine ? this._preview() : null),
        s.ai ? null : h("div", {}, `Hand: ${s.hand_size} card${s.hand_size === 1 ? "" : "s"}`),
        h("div.mana", {}, `Mana: ${s.mana}`),
      ];
      if (s.ai) {
        const top = s.discard.length ? s.discard[s.discard.length - 1] : null;
        rows.push(h("div.ai-deck", {}, `AI deck: ${s.deck_size} card${s.deck_size === 1 ? "" : "s"}`));
        rows.push(h("div.ai-discard", { title: s.discard.map((c) => this.cat.name(c.card_id)).join(", ") },
          `Discard: ${s.discard.length}${top ? ` (top: ${this.cat.name(top.card_id)})` : ""}`));
      }
      if (s.champion) {
        rows.push(h("div.champion-info", {}, `Champion: ${this.cat.name(s.champion.card_id)} (${s.champion.state.replace("_", " ")})`));
      }
      this.seatsEl.append(h("div", { class: classes.join(" "), data: { seat: s.seat, place: this._place(s.seat) } }, rows));
    }
  }

  // Health as a track of pips, one per card right of the Stronghold (R1.5),
  // with the number; `preview` ({after}): the pips the play would cost are
  // marked "lose", those it would bring back "gain".
  _healthTrack(s, preview) {
    const after = preview ? preview.after.health : s.health;
    const pips = [];
    const n = Math.min(Math.max(s.health, after), 40);
    for (let i = 0; i < n; i++) {
      const cls = i >= s.health ? ".gain" : i >= after ? ".lose" : "";
      pips.push(h(`span.pip${cls}`));
    }
    const label = preview && after !== s.health ? PLAY_WORDS.trackWith(s.health, after) : PLAY_WORDS.track(s.health);
    return h("div.health-track", { role: "img", "aria-label": label, title: label, data: { health: s.health, side: s.side } },
      h("span.pips", {}, pips), h("span.track-num", {}, String(s.health)));
  }

  // The play previewed: the card under the pointer or the focus, else the
  // chosen one; null when it has no listed play. {uid, after, text}.
  _preview() {
    const v = this.view;
    if (!v || v.role !== "player" || v.viewer === null) return null;
    for (const uid of [this.hovered, this.selected]) {
      const opts = uid === null ? null : this._options(uid);
      if (!opts || !opts.after) continue;
      const me = v.seats[v.viewer];
      const index = v.hand.findIndex((c) => c.uid === uid);
      const cardId = this._cardIdOf(uid);
      const def = this.cat.card(cardId);
      const text = playPreviewWords({
        mana: me.mana, health: me.health, after: opts.after, side: me.side,
        where: index < 0 ? null : index >= me.stronghold_pos ? "right" : "left",
        incantation: !!def && def.type === "incantation",
        target: opts.targets && opts.targets.length ? this._targetInfo(opts.targets, opts.after) : null,
      });
      return { uid, after: opts.after, text: `${this.cat.name(cardId)}: ${text}` };
    }
    return null;
  }

  // The incantation's target `after` was counted for (after.target: the
  // first listed that is not the viewer's creature): its name, whether it
  // is the viewer's, whether another target may leave another health.
  _targetInfo(targets, after) {
    const v = this.view;
    const found = new Map(); // uid -> {name, own}
    for (const line of v.lines) for (const side of line.sides) for (const c of side.creatures) {
      for (const x of [c, c.top]) if (x) found.set(x.uid, { name: this.cat.name(x.card_id), own: side.seat === v.viewer });
    }
    const counted = after && after.target !== undefined ? after.target : targets[0];
    const first = found.get(counted) || { name: "?", own: false };
    // Another target leaves another health only when one of them is the
    // viewer's (a creature of theirs destroyed comes back to their hand).
    return { ...first, others: targets.length > 1 && targets.some((t) => t !== counted && found.get(t)?.own) };
  }

  _renderPreview() {
    const p = this._preview();
    const text = p ? p.text : "";
    // Set only when it changes: a live region says every change again.
    if (this.previewText.textContent !== text) this.previewText.textContent = text;
    this.previewText.dataset.uid = p ? String(p.uid) : "";
    this.previewHint.hidden = !!p || !(this.legal && this.legal.plays.length);
    this.previewEl.hidden = !p && this.previewHint.hidden;
  }

  // Pointer or focus on a listed card: its preview, and the seats' pips.
  _hover(uid, on) {
    if (on) this.hovered = uid;
    else if (this.hovered === uid) this.hovered = null;
    else return;
    if (this.rendering || !this.view) return;
    this._renderSeats();
    this._renderPreview();
    if (this.motion) this.motion.decorate(); // the seats' marks
  }

  // The listed options of card `uid` ({card, lines?, hosts?, targets?}), or
  // null when the list does not hold it (not the seat's turn, too dear, ...).
  _options(uid) {
    if (!this.legal || this._asleep()) return null;
    return this.legal.plays.find((p) => p.card === uid) || null;
  }

  _creature(c, seat, line) {
    const sel = this.selected;
    const opts = sel !== null ? this._options(sel) : null;
    const classes = ["creature"];
    let onclick;
    const host = opts && opts.hosts ? opts.hosts.find((x) => x.host === c.uid) : null;
    if (opts && opts.targets && opts.targets.includes(c.uid)) {
      classes.push("targetable");
      onclick = () => this._play({ type: "play", card: sel, target: c.uid });
    } else if (host) {
      classes.push("host-option");
      onclick = () => this._play({ type: "play", card: sel, line: host.line, host: c.uid });
    }
    if (c.entered_this_turn) classes.push("new");
    if (c.attacked) classes.push("attacked");
    const left = c.hp - c.damage;
    // An option is a button for the keyboard too (Tab, then Enter or Space).
    const keys = onclick ? {
      tabindex: "0", role: "button",
      onkeydown: (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); onclick(); } },
    } : {};
    // State in words too, not only by border or outline (WCAG 1.4.1).
    const marks = [onclick ? (host ? CARD_MARKS.host : CARD_MARKS.target) : null, c.entered_this_turn ? CARD_MARKS.entered : null].filter(Boolean);
    const avX = this.cat.printed(c.card_id)?.av === null;
    // What the option does, read first (its name is its text: the visible
    // text stays part of it, WCAG 2.5.3): "Cast METEORITE on PARASITE ...".
    const what = onclick ? h("span.visually-hidden", {}, `${host ? "Put" : "Cast"} ${this.cat.name(this._cardIdOf(sel))} on `) : null;
    const face = h("div", { class: classes.join(" "), data: { uid: c.uid, cardId: c.card_id, seat }, onclick, ...keys }, what,
      h("div.cname" + nameSize(this.cat.name(c.card_id)), {}, this.cat.name(c.card_id)),
      c.top ? h("div.top", { title: this.cat.name(c.top.card_id) }, `+ ${this.cat.name(c.top.card_id)}`) : null,
      h("div.stats", {},
        h("span.av", { title: "attack value" }, `AV ${c.av}`), c.bonus_av ? h("span.bonus", {}, ` (+${c.bonus_av})`) : null,
        " · ",
        h("span.hp", { title: "health" }, `HP ${left}/${c.hp}`),
        c.damage ? h("span.damage", {}, ` (${c.damage} damage)`) : null),
      c.chained.length ? h("div.chained", { title: c.chained.map((x) => this.cat.name(x.card_id)).join(", ") }, `holds ${c.chained.map((x) => this.cat.name(x.card_id)).join(", ")}`) : null,
      c.protection_used ? h("div.flag", {}, "protection used") : null,
      marks.length ? h("div.marks", {}, marks.map((m) => h("span.mark", {}, m))) : null);
    return cardFace(face, abilityButtons(this.cat, c.abilities, { owner: `creature:${c.uid}`, avX, tabs: "row" }), ".creature-face");
  }

  _relLine(line) {
    const me = this.view.seats[this.view.viewer];
    if (!me) return null;
    if (me.upper_line === line) return "upper";
    if (me.lower_line === line) return "lower";
    return null;
  }

  // Where a seat sits at the table, seen by the viewer (a spectator: by seat
  // 1): "bottom" (the viewer), "top"; with four players (R11.1: each shares
  // a line with each neighbour) the next seat "left", the one after "top",
  // the last "right".
  _place(seat) {
    const v = this.view;
    const me = v.viewer === null || v.viewer === undefined ? 0 : v.viewer;
    const n = v.seats.length;
    const d = (seat - me + n) % n;
    if (n === 4) return ["bottom", "left", "top", "right"][d];
    return d === 0 ? "bottom" : "top";
  }

  // Four players: a line's corner of the cross ("tl", "tr", "bl", "br":
  // between the two seats it joins) and its sides in the order shown, so
  // that each seat's side is toward its own place and the Bridge between.
  _crossLine(line) {
    const [a, b] = line.sides;
    const pa = this._place(a.seat);
    const pb = this._place(b.seat);
    const vert = [pa, pb].includes("top") ? "t" : "b";
    const horiz = [pa, pb].includes("left") ? "l" : "r";
    // Left column: the left seat's side on the left; right column: the right seat's on the right.
    const aLeft = horiz === "l" ? pa === "left" : pb === "right";
    return { quad: vert + horiz, sides: aLeft ? [a, b] : [b, a] };
  }

  _renderBoard() {
    const v = this.view;
    clear(this.boardEl);
    this.boardEl.dataset.lines = String(v.lines.length);
    // The play page lays a four-player board out as a cross (style.css).
    const cross = v.lines.length === 4 && v.seats.length === 4;
    this.root.dataset.layout = cross ? "cross" : "duel";
    const sel = this.selected;
    const opts = sel !== null ? this._options(sel) : null;
    const lines = (opts && opts.lines) || [];
    v.lines.forEach((line, l) => {
      let [left, right] = [line.sides[0], line.sides[1]];
      const quad = cross ? this._crossLine(line) : null;
      if (quad) [left, right] = quad.sides;
      else if (v.viewer !== null && right.seat === v.viewer) [left, right] = [right, left];
      const rel = v.role === "player" ? this._relLine(l) : null;
      const sideEl = (side, isLeft) => {
        // Position 0 first: next to the Bridge (a left side is laid out
        // right to left, style.css), so that a long line scrolls away from it.
        const creatures = side.creatures.map((c) => this._creature(c, side.seat, l));
        return h("div.side" + (isLeft ? ".left" : ".right") + (side.seat === v.viewer ? ".own" : ""), { data: { seat: side.seat } },
          h("div.side-owner", {}, side.seat === null ? "" : this.seatName(side.seat)),
          h("div.creatures", {}, creatures));
      };
      const label = `Line ${l + 1}` + (rel ? ` (your ${rel} line)` : "");
      const placing = rel && lines.includes(rel);
      const lineEl = h("div.line", {
        data: { line: l, rel: rel || "", quad: quad ? quad.quad : "" },
        class: placing ? "placeable" : undefined,
        onclick: placing ? (e) => { if (!e.target.closest(".creature.host-option")) this._play({ type: "play", card: sel, line: rel }); } : undefined,
      },
        h("div.line-label", {}, label),
        h("div.line-row", {}, sideEl(left, true), h("div.bridge", { title: "the Bridge" }, "Bridge"), sideEl(right, false)));
      this.boardEl.append(lineEl);
    });
  }

  _cardIdOf(uid) {
    const v = this.view;
    const inHand = v.hand.find((c) => c.uid === uid);
    if (inHand) return inHand.card_id;
    const me = v.viewer !== null ? v.seats[v.viewer] : null;
    if (me && me.champion && me.champion.uid === uid) return me.champion.card_id;
    return null;
  }

  _handCard(c, index, extraClass = "") {
    const v = this.view;
    const def = this.cat.card(c.card_id);
    // "playable": among the cards the playability rule allows (the view's,
    // cost aside; shown on every turn); "affordable": the server lists a
    // play of it now (legal_actions): what a click can play.
    const playable = v.phase === "summoning" && v.playable.includes(c.uid);
    const cost = def ? def.mana : null;
    const listed = this._options(c.uid) !== null;
    const classes = ["card"];
    if (extraClass) classes.push(extraClass);
    if (playable || listed) classes.push("playable");
    if (listed) classes.push("affordable");
    if (this.selected === c.uid) classes.push("selected");
    const stats = def
      ? def.type === "incantation"
        ? `Incantation${def.av !== null ? `, ${def.av} damage` : ""}`
        : `AV ${def.av ?? "X"} · HP ${def.hp}`
      : "";
    const avX = !!def && def.type === "creature" && def.av === null;
    const abilities = def ? def.abilities : [];
    // Its state in words too (not only the border): listed now, among the
    // playable but not now, chosen.
    const mark = this.selected === c.uid ? CARD_MARKS.chosen : listed ? CARD_MARKS.listed : playable ? CARD_MARKS.notNow : null;
    const face = h("button", {
      class: classes.join(" "),
      data: { uid: c.uid, cardId: c.card_id, index },
      "aria-pressed": this.selected === c.uid ? "true" : "false",
      onclick: () => this._select(c.uid),
      // A mouse pointing previews; a finger's tap does not (the preview
      // growing above the hand would move the card from under the tap
      // before its click): the tap chooses it, which previews it too.
      onpointerenter: listed ? (e) => { if (e.pointerType === "mouse") this._hover(c.uid, true); } : undefined,
      onpointerleave: listed ? (e) => { if (e.pointerType === "mouse") this._hover(c.uid, false); } : undefined,
      // The keyboard's focus previews; a tap's or a click's does not (the
      // same shift between the press and its click).
      onfocus: listed ? (e) => { if (e.target.matches(":focus-visible")) this._hover(c.uid, true); } : undefined,
      onblur: listed ? () => this._hover(c.uid, false) : undefined,
    },
      h("span.cost", { title: "mana cost" }, cost ?? "?"),
      h("span.cname" + nameSize(this.cat.name(c.card_id)), {}, this.cat.name(c.card_id)),
      h("span.cstats", {}, stats),
      mark ? h("span.mark", {}, mark) : null,
      this._healthBadge(c.uid));
    return cardFace(face, abilityButtons(this.cat, abilities, { owner: `hand:${c.uid}`, avX, tabs: "none" }), ".hand-face");
  }

  // On a listed card whose play costs health: "−1 health" (R3.2.6).
  _healthBadge(uid) {
    const opts = this._options(uid);
    const me = this.view.viewer !== null ? this.view.seats[this.view.viewer] : null;
    const d = opts && opts.after && me ? me.health - opts.after.health : 0;
    return d > 0 ? h("span.hcost", {}, PLAY_WORDS.badge(d)) : null;
  }

  _renderHand() {
    const v = this.view;
    clear(this.handEl);
    clear(this.extraEl);
    this.handTitle.textContent = v.role === "referee" ? "Every hand (referee view)" : "Your hand";
    if (v.role === "referee" && v.all_hands) {
      // The referee view (admin replays): every seat's hand, and the AI decks.
      v.all_hands.forEach((hand, seat) => {
        const s = v.seats[seat];
        const row = hand.map((c) => h("span.card.small", { data: { uid: c.uid, cardId: c.card_id } }, this.cat.name(c.card_id)));
        if (!s.ai) row.splice(s.stronghold_pos, 0, h("span.card.small.stronghold-mark", {}, s.side === "fort" ? "[Fort]" : "[Bastion]"));
        const deck = v.ai_decks && v.ai_decks[seat] && v.ai_decks[seat].length
          ? ` AI deck, top first: ${v.ai_decks[seat].map((c) => this.cat.name(c.card_id)).join(", ")}` : "";
        this.handEl.append(h("div.referee-hand", { data: { seat } }, h("strong", {}, `${this.seatName(seat)}: `), row, deck));
      });
      return;
    }
    if (v.role !== "player") {
      this.handEl.append(h("div.note", {}, "Spectators see no hand."));
      return;
    }
    const me = v.seats[v.viewer];
    const items = v.hand.map((c, i) => this._handCard(c, i));
    const stronghold = h("div.stronghold-card", { data: { side: me.side } },
      h("span.cname", {}, me.side === "fort" ? "Fort" : "Bastion"),
      h("span.cstats", {}, `health ${me.health}`));
    items.splice(me.stronghold_pos, 0, stronghold);
    this.handEl.append(...items);
    if (me.champion) {
      const ch = me.champion;
      if (ch.state === "ready") {
        this.handEl.append(h("div.champion-slot", {}, h("div.slot-label", {}, "Champion"), this._handCard({ uid: ch.uid, card_id: ch.card_id }, -1, "champion")));
      } else {
        this.handEl.append(h("div.champion-slot", {}, `Champion ${this.cat.name(ch.card_id)}: ${ch.state.replace("_", " ")}`));
      }
    }
    if (v.teammate_hand) {
      this.extraEl.append(h("h3", {}, `${this.seatName(v.teammate)}'s hand (your teammate)`),
        h("div.teammate-hand", {}, v.teammate_hand.map((c) => h("span.card.small", {}, this.cat.name(c.card_id)))));
    }
  }

  _renderPrompt() {
    const v = this.view;
    clear(this.promptEl);
    const sel = this.selected;
    if (sel === null || v.role !== "player") {
      this.promptEl.hidden = true;
      return;
    }
    this.promptEl.hidden = false;
    const name = this.cat.name(this._cardIdOf(sel));
    const cancel = h("button#cancel-play.small", { onclick: () => { this.selected = null; this.render(); } }, "Cancel");
    const opts = this._options(sel);
    if (!opts) {
      this.promptEl.append(this.turnIsMine() ? `${name} cannot be played now. ` : `${name}: it is not your turn. `, cancel);
      return;
    }
    if (opts.targets) {
      this.promptEl.append(`Choose the creature ${name} targets (highlighted). `, cancel);
      return;
    }
    const me = v.seats[v.viewer];
    const lineOf = { upper: me.upper_line, lower: me.lower_line };
    const buttons = (opts.lines || []).map((rel) =>
      h("button.play-line", { data: { playLine: rel }, onclick: () => this._play({ type: "play", card: sel, line: rel }) }, `your ${rel} line (line ${lineOf[rel] + 1})`));
    const sym = opts.hosts ? ` ${buttons.length ? "Or click" : "Click"} one of your highlighted creatures to put it on top (Symbiote).` : "";
    this.promptEl.append(buttons.length ? `Play ${name} on: ` : `${name}:`, ...buttons.flatMap((b) => [b, " "]), sym + " ", cancel);
  }

  _renderClock() {
    const c = this.clock;
    if (!c || !this.view) {
      this.clockEl.textContent = "";
      return;
    }
    const now = performance.now();
    const parts = c.remaining.map((ms, seat) => {
      const running = seat === c.running && this.view.phase !== "game_over";
      const left = running ? ms - (now - c.at) : ms;
      return `${this.names[seat] || `Seat ${seat + 1}`} ${fmtClock(left)}${running ? " (running)" : ""}`;
    });
    this.clockEl.textContent = `Clock: ${parts.join(" · ")}`;
  }

  // ---- actions ----

  // Choosing a card moves the focus to its first option (a line, a target,
  // a host), so that the keyboard goes on from there; Escape cancels.
  _select(uid) {
    if (this.selected === uid) this.selected = null;
    else this.selected = uid;
    this.render();
    if (this.selected !== null) {
      const first = this.root.querySelector("button.play-line, .creature.targetable, .creature.host-option");
      if (first) first.focus();
    }
  }

  _cancelSelection() {
    const uid = this.selected;
    if (uid === null) return;
    this.selected = null;
    this.render();
    const card = this.handEl.querySelector(`[data-uid="${uid}"]`);
    if (card) card.focus();
  }

  // Sends a listed action. Until the server answers, nothing else is
  // offered (a double click cannot send a second act; the act's seq guards
  // the rest): the next update brings the new list, a refusal the old one back.
  async _send(action) {
    const offered = this.legal;
    const seq = this.seq;
    // The frame its click or key began on (turn.js): the server refuses an old one.
    const decided = this.turn ? this.turn.actSeq() : seq;
    if (this.turn && action.type === "play") this.turn.played(this.view.hand.findIndex((c) => c.uid === action.card), seq);
    this.selected = null;
    this.hovered = null;
    this.legal = null;
    if (this.motion) this.motion.clearMarks();
    this.render();
    await this.actions.act(action, decided);
    // Refused (no update came): the offers come back.
    if (this.seq === seq && this.legal === null && !(this.motion && this.motion.hasUpdateAfter(seq))) {
      this.legal = offered;
      this.render();
    }
  }

  _play(action) {
    this._send(action);
  }

  _endTurn() {
    if (this.turn) this.turn.endTurnSent();
    this._send({ type: "end_turn" });
  }

  _concede() {
    if (window.confirm("Concede the match? You lose.")) this.actions.act({ type: "concede" });
  }
}
