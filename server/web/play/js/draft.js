// The draft screen (docs/protocol.md "Formats and drafts", rules R14.2, R14.3,
// R14.7): the revealed cards on offer, every seat's picks, lists and bans,
// whose turn it is and what to pick, and the clicks that make a draft_pick:
// choose the cards of the step, then confirm. Drawn from each `draft` message
// (the public draft state); the game screen takes over when the match starts.
import { h, clear } from "./dom.js";
import { abilityButtons, cardFace, refreshAbilityTip, nameSize } from "./abilities.js";
import { CARD_MARKS } from "./words.js";

const MAX_LOG = 200;

function plural(n, word) {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

export class DraftScreen {
  // actions: {pick(fields) -> Promise (rejects on refusal), leave()}
  constructor(root, catalogue, actions) {
    this.root = root;
    this.cat = catalogue;
    this.actions = actions;
    this.draft = null;
    this.seq = 0;
    this.seat = null; // this browser's seat, null for a spectator
    this.names = [];
    this.connected = [];
    this.selected = [];
    this.legalPicks = [];
    this.sending = false;
    this._build();
  }

  _build() {
    this.title = h("h2#draft-title", {}, "Draft");
    this.infoEl = h("div#draft-info");
    this.statusEl = h("div#draft-status");
    this.offerTitle = h("h3#draft-offer-title", {}, "Revealed cards");
    this.offerEl = h("div#draft-offer.draft-cards");
    this.confirmBtn = h("button#draft-confirm", { onclick: () => this._confirm(), disabled: true }, "Confirm");
    this.clearBtn = h("button#draft-clear.small", { onclick: () => { this.selected = []; this.render(); } }, "Clear the choice");
    this.choiceEl = h("span#draft-choice.note");
    this.seatsEl = h("div#draft-seats");
    this.deckEl = h("div#draft-deck", { hidden: true });
    // Scrolls: focusable, so the keyboard scrolls it too (WCAG 2.1.1).
    this.logEl = h("ol#draft-log", { tabindex: "0", "aria-label": "The draft so far" });
    this.leaveBtn = h("button#draft-leave", { onclick: () => this.actions.leave() }, "Back to the lobby");
    this.root.append(
      h("div.game-head", {}, this.title, this.infoEl),
      this.statusEl,
      h("div.game-body", {},
        h("div.game-main", {},
          this.offerTitle,
          this.offerEl,
          h("div.controls", {}, this.confirmBtn, this.clearBtn, this.choiceEl),
          this.deckEl,
          h("h3", {}, "Every seat's picks"),
          this.seatsEl,
          h("div.controls", {}, this.leaveBtn)),
        h("aside.log-area", {}, h("h3", {}, "What happened"), this.logEl)));
  }

  setRoomInfo(names, connected) {
    if (names) this.names = names;
    if (connected) this.connected = connected;
    if (this.draft) this.render();
  }

  setSeatConnected(seat, connected) {
    this.connected[seat] = connected;
    this._log(`${this.seatName(seat)} ${connected ? "is back" : "lost the connection: the draft waits for its picks"}.`);
    this.render();
  }

  seatName(seat, markYou = true) {
    if (seat === null || seat === undefined) return "nobody";
    const s = this.draft && this.draft.seats[seat];
    const base = s && s.ai ? "AI" : this.names[seat] || `seat ${seat + 1}`;
    return markYou && seat === this.seat ? `you (${base})` : base;
  }

  // A `draft` message: the new state, its legal picks, and its events for the log.
  setDraft(msg) {
    if (msg.seq < this.seq) return; // an older message (a resume racing a push)
    const before = this.myStep();
    this.draft = msg.draft;
    // The picks the server allows this seat now (hello's legal_actions):
    // what a click may choose, not a rule of our own.
    this.legalPicks = msg.legal_picks || [];
    this.seq = msg.seq;
    this.root.dataset.seq = String(msg.seq);
    for (const ev of msg.events || []) this._log(this._narrate(ev));
    const after = this.myStep();
    // The choice survives only while the same step waits (same kind and count).
    if (!after || !before || after.pick !== before.pick || after.count !== before.count || after.target !== before.target) this.selected = [];
    this.selected = this.selected.filter((id) => this._choosable(after).includes(id));
    this.render();
  }

  // The step this seat must play now, or null.
  myStep() {
    if (!this.draft || this.seat === null || this.draft.finished) return null;
    return this.draft.waiting.find((w) => w.seat === this.seat) || null;
  }

  // The cards a click may choose for `step`: those of the server's legal
  // picks of that kind (in the order shown: the offer, or the target's
  // list). A secret list (submit) is not enumerated by the server: any
  // cards of the pool.
  _choosable(step) {
    const d = this.draft;
    if (!step || !d) return [];
    if (step.pick === "submit") return d.pool;
    const allowed = new Set(this.legalPicks.filter((p) => p.pick === step.pick).flatMap((p) => p.cards || []));
    const t = step.pick === "ban" ? d.seats[step.target] : null;
    const shown = step.pick === "ban" ? (t && t.list) || [] : d.offer;
    return shown.filter((id) => allowed.has(id));
  }

  // Whether the chosen cards are one of the server's legal picks (any order).
  _isLegalChoice(step) {
    if (step.pick === "submit") return this.selected.length === step.count;
    const chosen = [...this.selected].sort().join(",");
    return this.legalPicks.some((p) => p.pick === step.pick && [...(p.cards || [])].sort().join(",") === chosen);
  }

  _stepWords(w, mine) {
    const who = mine ? "You" : this.seatName(w.seat);
    switch (w.pick) {
      case "take": return `${who} ${mine ? "take" : "takes"} ${plural(w.count, "card")} of the revealed cards`;
      case "submit": return `${who} ${mine ? "choose" : "chooses"} a secret list of ${w.count} cards from the pool`;
      case "ban": return `${who} ${mine ? "ban" : "bans"} ${plural(w.count, "card")} of ${w.target === this.seat ? "your" : this.seatName(w.target) + "'s"} list`;
      case "choose_deck": return `${who} ${mine ? "choose" : "chooses"} a preconstructed deck`;
      default: return `${who}: ${w.pick} ${w.count}`;
    }
  }

  _cardButton(id, { choosable = false, extra = "" } = {}) {
    const def = this.cat.card(id);
    const classes = ["card", "draft-card"];
    if (extra) classes.push(extra);
    if (choosable) classes.push("playable", "affordable");
    if (this.selected.includes(id)) classes.push("selected");
    const stats = def
      ? def.type === "incantation"
        ? `Incantation${def.av !== null ? `, ${def.av} damage` : ""}`
        : `AV ${def.av ?? "X"} · HP ${def.hp}`
      : "";
    const avX = !!def && def.type === "creature" && def.av === null;
    const abilities = def ? def.abilities : [];
    const face = h("button", {
      class: classes.join(" "),
      data: { cardId: id },
      disabled: !choosable || this.sending,
      "aria-pressed": choosable ? String(this.selected.includes(id)) : undefined,
      onclick: () => this._toggle(id),
    },
      h("span.cost", { title: "mana cost" }, def ? def.mana : "?"),
      h("span.cname" + nameSize(this.cat.name(id)), {}, this.cat.name(id)),
      h("span.cstats", {}, stats),
      this.selected.includes(id) ? h("span.mark", {}, CARD_MARKS.chosen) : null);
    // The explanations stay open to every card, choosable or not.
    return cardFace(face, abilityButtons(this.cat, abilities, { owner: `draft:${id}`, avX }), ".draft-face");
  }

  _chip(id, extra = "") {
    return h("span.card.small" + extra, { data: { cardId: id } }, this.cat.name(id));
  }

  _toggle(id) {
    const step = this.myStep();
    if (!step) return;
    const i = this.selected.indexOf(id);
    if (i >= 0) this.selected.splice(i, 1);
    else if (step.count === 1) this.selected = [id];
    else if (this.selected.length < step.count) this.selected.push(id);
    this.render();
  }

  async _confirm() {
    const step = this.myStep();
    if (!step || !this._isLegalChoice(step) || this.sending) return;
    this.sending = true;
    this.render();
    try {
      // seq: the draft push the pick was chosen in (stale_action otherwise).
      await this.actions.pick({ pick: step.pick, cards: [...this.selected], seq: this.seq });
      this.selected = [];
    } catch {
      // the app shows the refusal in words; the choice stays for another try
    } finally {
      this.sending = false;
      this.render();
    }
  }

  render() {
    const d = this.draft;
    if (!d) return;
    const fmt = d.format === "instant_constructed" ? "Instant constructed" : "Draft";
    this.title.textContent = `${fmt}: room ${this.room || ""}`;
    this.root.dataset.finished = String(d.finished);
    this.infoEl.textContent = d.format === "draft"
      ? `Round ${d.round} · ${plural(d.pile_left, "card")} face down · pool of ${d.pool.length}`
      : `Pool of ${d.pool.length} cards`;

    // Whose turn, and what.
    const step = this.myStep();
    this.root.dataset.myPick = step ? step.pick : "";
    this.root.dataset.myCount = step ? String(step.count) : "0";
    if (d.finished) {
      this.statusEl.textContent = "The draft is over: the match starts.";
      this.statusEl.className = "over";
    } else {
      const parts = d.waiting.map((w) => this._stepWords(w, w.seat === this.seat));
      this.statusEl.textContent = (step ? "Your turn. " : "") + (parts.length ? parts.join("; ") + "." : "");
      this.statusEl.className = step ? "mine" : "";
    }

    // The cards to choose from: the offer, or the pool (a secret list), or
    // the target's revealed list (a ban).
    clear(this.offerEl);
    let shown = d.offer;
    let title = "Revealed cards on offer";
    if (step && step.pick === "submit") {
      shown = d.pool;
      title = `The pool: choose ${step.count} cards for your secret list`;
    } else if (step && step.pick === "ban") {
      shown = this._choosable(step);
      title = `${this.seatName(step.target)}'s list: choose ${plural(step.count, "card")} to ban`;
    } else if (d.format === "instant_constructed") {
      shown = d.pool;
      title = "The pool";
    }
    this.offerTitle.textContent = title;
    const choosable = new Set(this._choosable(step));
    for (const id of shown) this.offerEl.append(this._cardButton(id, { choosable: choosable.has(id) }));
    if (!shown.length) this.offerEl.append(h("span.note", {}, d.finished ? "Nothing left." : "No card revealed."));
    refreshAbilityTip();

    // The confirm button says what it does.
    if (step) {
      const verb = { take: "Take", submit: "Submit my secret list of", ban: "Ban" }[step.pick] || step.pick;
      this.confirmBtn.textContent = step.pick === "submit" ? `${verb} ${step.count}` : `${verb} ${plural(step.count, "card")}`;
      this.confirmBtn.disabled = this.sending || !this._isLegalChoice(step);
      this.choiceEl.textContent = `Chosen ${this.selected.length} of ${step.count}` +
        (this.selected.length ? `: ${this.selected.map((id) => this.cat.name(id)).join(", ")}` : "");
    } else {
      this.confirmBtn.textContent = "Confirm";
      this.confirmBtn.disabled = true;
      this.choiceEl.textContent = this.seat === null ? "You are watching." : d.finished ? "" : "Wait for your turn.";
    }
    this.confirmBtn.hidden = !step;
    this.clearBtn.hidden = !step;

    // Every seat: picks, list, bans.
    clear(this.seatsEl);
    for (const s of d.seats) {
      const waiting = d.waiting.filter((w) => w.seat === s.seat);
      const box = h("div.seat-box.draft-seat" + (s.seat === this.seat ? ".mine" : "") + (waiting.length ? ".active" : ""),
        { data: { seat: s.seat } },
        h("div.seat-name", {}, this.seatName(s.seat),
          this.connected[s.seat] === false && !s.ai ? h("span.away", {}, " (away)") : null),
        waiting.length ? h("div.note.draft-turn", {}, "Picking now") : null);
      if (d.format !== "instant_constructed" || s.taken.length) {
        box.append(h("div.draft-taken", {}, `Taken (${s.taken.length}): `, s.taken.map((id) => this._chip(id))));
      }
      if (d.format === "instant_constructed") {
        if (s.list) {
          box.append(h("div.draft-list", {}, `${s.revealed ? "Revealed list" : "Your secret list"} (${s.list.length}): `,
            s.list.map((id) => this._chip(id, s.banned.includes(id) ? ".banned" : ""))));
        } else {
          box.append(h("div.draft-list.note", {}, s.submitted ? "Secret list submitted." : "No list yet."));
        }
        box.append(h("div.draft-banned", {}, `Banned (${s.banned.length}): `, s.banned.map((id) => this._chip(id, ".banned"))));
      }
      if (d.finished) box.append(h("div.note", {}, `Deck: ${plural(s.deck_size, "card")}`));
      this.seatsEl.append(box);
    }

    // Your deck, once dealt.
    this.deckEl.hidden = !(d.finished && d.own_deck && d.own_deck.length);
    clear(this.deckEl);
    if (!this.deckEl.hidden) this.deckEl.append(h("h3", {}, "Your deck"), d.own_deck.map((id) => this._chip(id)));
  }

  _narrate(ev) {
    const names = (cards) => (cards || []).map((id) => this.cat.name(id)).join(", ");
    const mine = ev.seat === this.seat;
    const who = mine ? "You" : this.seatName(ev.seat);
    switch (ev.type) {
      case "started": return ev.count ? `The draft starts: ${plural(ev.count, "card")} in the pile.` : "The draft starts.";
      case "revealed": return `Revealed: ${names(ev.cards)}.`;
      case "taken": return `${who} ${mine ? "take" : "takes"} ${names(ev.cards)}${ev.automatic ? " (the last card, automatically)" : ""}.`;
      case "given_to_ai": return `The AI gets ${names(ev.cards)}.`;
      case "submitted": return `${who} ${mine ? "submit" : "submits"} a secret list.`;
      case "list_revealed": return `${mine ? "Your" : this.seatName(ev.seat) + "'s"} list is revealed.`;
      case "banned": return `${who} ${mine ? "ban" : "bans"} ${names(ev.cards)} from ${ev.target === this.seat ? "your" : this.seatName(ev.target) + "'s"} list.`;
      case "ai_decks_split": return "The AI's cards are split into its two decks.";
      case "finished": return "The draft is over: every deck is dealt.";
      default: return ev.type;
    }
  }

  _log(text) {
    this.logEl.append(h("li", {}, text));
    while (this.logEl.children.length > MAX_LOG) this.logEl.firstChild.remove();
    this.logEl.scrollTop = this.logEl.scrollHeight;
  }
}
