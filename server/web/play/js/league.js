// The league screen (R15; docs/protocol.md "league_join", "league_act",
// "league_mutations", "league"): a mutation league player's own view,
// redrawn from every `league` message. By stage: the draft (the packet to
// keep one card of), the deck chosen from the 16 drafted cards, the
// mutation phase (a list of mutations with the points left and the card as
// it will be), the duel of the round; always the standings and the
// schedule. The server judges every rule: the mutations offered are the
// ones it lists (view.you.legal_mutations for the deck as it stands, a
// league_mutations reply after each mutation added to the list), never the
// screen's own reading of R15.4–R15.5; what it works out itself (costs, the
// card after) is only shown.
import { h, clear } from "./dom.js";
import { abilityLabel } from "./catalogue.js";
import { LEAGUE_WORDS as W, leagueRefusalWords, errorWords, pointsWords } from "./words.js";

const ELEMENTS = ["mana", "av", "hp", "ability"];

// m:ss, h:mm:ss, or days and hours (a phase clock may be a week).
function fmtLeft(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  const pad = (n) => String(n).padStart(2, "0");
  if (s >= 86400) return `${Math.floor(s / 86400)} d ${Math.floor((s % 86400) / 3600)} h`;
  if (s >= 3600) return `${Math.floor(s / 3600)}:${pad(Math.floor((s % 3600) / 60))}:${pad(s % 60)}`;
  return `${Math.floor(s / 60)}:${pad(s % 60)}`;
}

// ---- the cards as a list leaves them (the preview; mirrors engine/src/mutation.cpp's apply) ----

// A card as the screen works with it: {id, name, type, mana, av (null: X), hp, abilities: [{ability, aura}]}.
function modelOf(def, id) {
  if (!def) return { id, name: id, type: "creature", mana: null, av: null, hp: null, abilities: [] };
  return {
    id: def.id, name: def.name || def.name_fr || def.id, type: def.type, mana: def.mana, av: def.av ?? null, hp: def.hp ?? null,
    abilities: (def.abilities || []).map((a) => ({ ability: a.ability, aura: !!a.aura })),
  };
}

function flags(u = {}) {
  return { mana: !!u.mana, av: !!u.av, hp: !!u.hp, abilities: new Set(u.abilities || []), auras: new Set(u.auras || []) };
}

function copyFlags(f) {
  return { mana: f.mana, av: f.av, hp: f.hp, abilities: new Set(f.abilities), auras: new Set(f.auras) };
}

const ownOf = (c) => c.abilities.filter((a) => !a.aura).map((a) => a.ability);
const aurasOf = (c) => c.abilities.filter((a) => a.aura).map((a) => a.ability);
const abilityKey = (ability, aura) => `${ability}|${aura ? 1 : 0}`;

// The player's deck and lab as the view says, to apply a list to.
function deckState(view, cat) {
  const you = view.you || {};
  return {
    deck: (you.deck || []).map((d) => ({ card: modelOf(d.card, d.card.id), mutated: flags(d.mutated), changed: flags() })),
    lab: (you.lab || []).map((l) => ({ id: l.card, card: modelOf(cat.printed(l.card), l.card), used: flags(l.used) })),
  };
}

function copyState(s) {
  return {
    deck: s.deck.map((d) => ({ card: { ...d.card, abilities: d.card.abilities.map((a) => ({ ...a })) }, mutated: copyFlags(d.mutated), changed: copyFlags(d.changed) })),
    lab: s.lab.map((l) => ({ id: l.id, card: l.card, used: copyFlags(l.used) })),
  };
}

// R15.6: what a mutation costs, from the league's table (shown; the
// server's list already keeps to the points left).
export function mutationCost(costs, m) {
  if (m.element !== "ability") return costs[m.element] ?? 0;
  let p = (costs.abilities || {})[m.ability] ?? 0;
  for (const c of m.covers || []) p += (costs.cover || {})[c] ?? 0;
  return p;
}

// Applies a mutation to the preview's state; `changed` marks what this list changed.
function apply(s, m) {
  const t = s.deck.find((d) => d.card.id === m.target);
  const src = s.lab.find((l) => l.id === m.source);
  if (!t || !src) return;
  if (m.element !== "ability") {
    t.card[m.element] = src.card[m.element];
    t.mutated[m.element] = src.used[m.element] = t.changed[m.element] = true;
    return;
  }
  const wasX = t.card.av === null;
  const covered = new Set(m.covers || []);
  t.card.abilities = t.card.abilities.filter((a) => !(a.aura === !!m.covers_aura && covered.has(a.ability)));
  t.card.abilities.push({ ability: m.ability, aura: !!m.aura });
  for (const f of [t.mutated, t.changed, src.used]) (m.aura ? f.auras : f.abilities).add(m.ability);
  // E72: Vulnerability makes the attack value X; covering it behind a
  // printed X leaves the printed number, none: 0.
  const isX = ownOf(t.card).includes("vulnerability") || (wasX && aurasOf(t.card).includes("vulnerability"));
  if (isX) t.card.av = null;
  else if (wasX) t.card.av = 0;
}

// The deck and lab after a list, in order (E75): what the preview draws.
function after(base, list) {
  const s = copyState(base);
  for (const m of list) apply(s, m);
  return s;
}

// ---- what the server allows (R15.4, R15.5: its list, not ours) ----

// A mutation as a key, the same for the server's entry and the form's: the
// defaults made explicit, what it covers in any order.
export function mutationKey(m) {
  const head = `${m.target}|${m.source}|${m.element}`;
  if (m.element !== "ability") return head;
  return `${head}|${abilityKey(m.ability, m.aura)}|${[...(m.covers || [])].sort().join(",")}|${m.covers_aura ? 1 : 0}`;
}

const listKey = (list) => list.map(mutationKey).join(";");

// A menu: the mutations the server lists as allowed next, by key.
function menuOf(list, left) {
  return { list, keys: new Set(list.map(mutationKey)), left };
}

// ---- the screen ----

export class LeagueScreen {
  // actions: {act(op) -> Promise (rejects with the refusal), mutations(list) -> Promise (the
  // league_mutations reply; rejects with the refusal), playDuel() -> Promise, leave()}
  constructor(root, catalogue, actions) {
    this.root = root;
    this.cat = catalogue;
    this.actions = actions;
    this.view = null;
    this.league = null;
    this.views = 0;
    this.phaseKey = "";
    this.sending = false;
    this._resetPhase();
    this._build();
    this.timer = window.setInterval(() => this._renderDeadline(), 1000);
  }

  destroy() {
    window.clearInterval(this.timer);
  }

  // What belongs to one stage and round: the choices being made.
  _resetPhase() {
    this.draftChoice = null;
    this.deckChoice = [];
    this.pending = [];
    this.refusal = null; // {text, index}
    this.form = { target: "", source: "", element: "mana", pick: "", covers: new Set() };
    // The server's menus after a non-empty list (league_mutations), by the
    // list's key: {list, keys, left} or {refused: error}. The deck changes
    // only by this player's own act, which ends the phase: a menu holds
    // for the whole phase.
    this.menus = new Map();
    this.asking = null; // the key of the list being asked about
    this.menuFailed = null; // the key of a list whose asking failed (not a refusal)
  }

  _build() {
    this.title = h("h2#league-title");
    this.infoEl = h("div#league-info");
    this.statusEl = h("div#league-status", { role: "status", "aria-live": "polite" });
    // The step clock (E81): each pick, the deck choice, each mutation phase.
    this.deadlineEl = h("div#league-deadline.note");

    // Drafting.
    this.packetEl = h("div#league-packet.draft-cards", { role: "group", "aria-label": W.packet });
    this.keepBtn = h("button#league-keep", { onclick: () => this._keep(), disabled: true }, W.keep(""));
    this.draftChoiceEl = h("span#league-draft-choice.note");
    this.draftNote = h("div#league-draft-note.refusal", { role: "alert" });
    this.takenEl = h("div#league-taken");
    this.othersEl = h("ul#league-others");
    this.draftPanel = h("section#league-draft.panel", { hidden: true },
      h("h3", {}, W.packet), this.packetEl,
      h("div.controls", {}, this.keepBtn, this.draftChoiceEl), this.draftNote,
      h("h3", {}, W.yourCards), this.takenEl,
      h("h3", {}, W.others), this.othersEl);

    // Building.
    this.draftedEl = h("div#league-drafted.draft-cards", { role: "group", "aria-label": W.drafted });
    this.deckCountEl = h("span#league-deck-count.note");
    this.chooseBtn = h("button#league-choose-deck", { onclick: () => this.sendDeck([...this.deckChoice]), disabled: true }, W.chooseDeck);
    this.deckNote = h("div#league-deck-note.refusal", { role: "alert" });
    this.labPreviewEl = h("div#league-lab-preview");
    this.buildPanel = h("section#league-build.panel", { hidden: true },
      h("h3", {}, W.pickDeck), this.draftedEl,
      h("div.controls", {}, this.chooseBtn, this.deckCountEl), this.deckNote,
      this.labPreviewEl);

    // Mutating: the form, the list, the preview.
    this.targetSel = h("select#mut-target", { onchange: () => this._formChanged("target") });
    this.sourceSel = h("select#mut-source", { onchange: () => this._formChanged("source") });
    this.elementSel = h("select#mut-element", { onchange: () => this._formChanged("element") });
    this.abilitySel = h("select#mut-ability", { onchange: () => this._formChanged("pick") });
    this.abilityRow = h("label#mut-ability-row", {}, W.ability, this.abilitySel);
    this.coversEl = h("fieldset#mut-covers", {}, h("legend", {}, W.coversLegend(false)));
    this.costEl = h("div#mut-cost.note");
    this.checkEl = h("div#mut-check.warn");
    this.addBtn = h("button#mut-add", { type: "button", onclick: () => this._add() }, W.add);
    this.previewEl = h("div#mut-preview", { "aria-live": "polite" });
    this.listEl = h("ol#mut-list");
    this.pointsEl = h("div#mut-points", { "aria-live": "polite" });
    this.sendBtn = h("button#mut-send", { onclick: () => this._sendMutations() }, W.send(0, 0));
    this.passBtn = h("button#mut-pass", { onclick: () => this._pass() }, W.pass);
    this.refusalEl = h("div#mut-refusal.refusal", { role: "alert" });
    this.mutForm = h("form#mutation-form", { onsubmit: (e) => { e.preventDefault(); this._add(); } },
      h("label", {}, W.target, this.targetSel),
      h("label", {}, W.source, this.sourceSel),
      h("label", {}, W.element, this.elementSel),
      this.abilityRow, this.coversEl, this.costEl, this.checkEl,
      h("div.controls", {}, this.addBtn));
    this.mutPanel = h("section#league-mutate.panel", { hidden: true },
      h("h3", {}, W.mutate),
      h("div.mutation-area", {},
        h("div.mutation-form-area", {}, this.mutForm),
        h("div.mutation-preview-area", {}, h("h4", {}, W.preview), this.previewEl)),
      h("h4", {}, W.list), this.listEl, this.pointsEl,
      h("div.controls", {}, this.sendBtn, this.passBtn), this.refusalEl);

    // Playing.
    this.duelEl = h("div#league-duel");
    this.playBtn = h("button#league-play-duel", { onclick: () => this._playDuel() }, W.playDuel);
    this.duelNote = h("div#league-duel-note.refusal", { role: "alert" });
    this.duelPanel = h("section#league-duel-panel.panel", { hidden: true },
      h("h3", {}, W.yourDuel), this.duelEl, h("div.controls", {}, this.playBtn), this.duelNote);

    // The deck and lab, once chosen; the mutations so far.
    this.deckEl = h("div#league-deck.draft-cards");
    this.labEl = h("div#league-lab.draft-cards");
    this.historyEl = h("ul#league-mutations");
    this.cardsPanel = h("section#league-cards.panel", { hidden: true },
      h("h3", {}, W.deck), this.deckEl,
      h("h3", {}, W.lab), this.labEl,
      h("h3", {}, W.history), this.historyEl);

    this.standingsEl = h("tbody#league-standings");
    this.scheduleEl = h("tbody#league-schedule");
    this.leaveBtn = h("button#league-leave", { onclick: () => this.actions.leave() }, W.leave);
    this.root.append(
      h("div.game-head", {}, this.title, this.infoEl),
      this.statusEl, this.deadlineEl,
      this.draftPanel, this.buildPanel, this.mutPanel, this.duelPanel, this.cardsPanel,
      h("section.panel#league-tables", {},
        h("h3", {}, W.standings),
        h("table.rooms", {}, h("thead", {}, h("tr", {}, W.standingsHead.map((t) => h("th", {}, t)))), this.standingsEl),
        h("h3", {}, W.schedule),
        h("table.rooms", {}, h("thead", {}, h("tr", {}, W.scheduleHead.map((t) => h("th", {}, t)))), this.scheduleEl)),
      h("div.controls", {}, this.leaveBtn));
  }

  // ---- the view ----

  // A `league` message: the reply to league_join or league_act, or a push.
  setView(msg) {
    this.view = msg.view;
    this.league = msg.league;
    this.views++;
    const v = this.view;
    const key = `${v.stage}:${v.round}`;
    if (key !== this.phaseKey) {
      this.phaseKey = key;
      this._resetPhase();
    }
    this.base = v.you && v.you.deck ? deckState(v, this.cat) : null;
    this.menuFailed = null; // a new view (a reconnection's too): ask again
    this.render();
  }

  get seat() {
    return this.view && this.view.you ? this.view.you.seat : null;
  }

  me() {
    return this.view.players.find((p) => p.seat === this.seat) || {};
  }

  nameOf(seat) {
    const p = this.view.players.find((x) => x.seat === seat);
    return p ? p.name : W.seat(seat);
  }

  render() {
    const v = this.view;
    if (!v) return;
    const focus = this._focusKey();
    this.root.dataset.stage = v.stage;
    this.root.dataset.round = String(v.round);
    this.root.dataset.views = String(this.views);
    this.title.textContent = W.title(v.name);
    this.infoEl.textContent = W.info(v);
    this.draftPanel.hidden = v.stage !== "drafting";
    this.buildPanel.hidden = v.stage !== "building";
    this.mutPanel.hidden = v.stage !== "mutating";
    this.duelPanel.hidden = v.stage !== "playing";
    this.cardsPanel.hidden = !(v.you && v.you.deck);
    if (v.stage === "drafting") this._renderDraft();
    else if (v.stage === "building") this._renderBuild();
    else if (v.stage === "mutating") this._renderMutate();
    else if (v.stage === "playing") this._renderDuel();
    else this._status(W.finished(this.me().place), "over");
    if (v.you && v.you.deck) this._renderCards();
    this._renderTables();
    this._renderDeadline();
    this._restoreFocus(focus);
  }

  // What has the keyboard focus, said so that it can be found again after a
  // redraw (a push rebuilds the cards); kept while a button is disabled
  // during a request (the focus falls to the page then).
  _focusKey() {
    const el = document.activeElement;
    if (!el || el === document.body) {
      // Lost by a redraw or a disabled button, not moved away by the person.
      const last = this.lastFocusEl;
      return last && (!last.isConnected || last.disabled) ? this.lastFocus : null;
    }
    if (!this.root.contains(el)) return null;
    this.lastFocusEl = el;
    let key = null;
    if (el.dataset.cardId && el.parentElement && el.parentElement.id) key = `#${el.parentElement.id} [data-card-id="${el.dataset.cardId}"]`;
    else if (el.dataset.cover) key = `#mut-covers input[data-cover="${el.dataset.cover}"]`;
    else if (el.id) key = `#${el.id}`;
    this.lastFocus = key;
    return key;
  }

  _restoreFocus(key) {
    if (!key || (document.activeElement && document.activeElement !== document.body)) return;
    let el = this.root.querySelector(key);
    // After a pick (the card kept is gone, the keep button disabled): the
    // next packet's first card, once it is there.
    if ((!el || el.disabled || el.hidden) && (key.startsWith("#league-packet") || key === "#league-keep")) {
      el = this.packetEl.querySelector(".league-card:not([disabled])");
    }
    if (el && !el.disabled && !el.closest("[hidden]")) el.focus();
  }

  _status(text, kind = "") {
    // Only a change is announced (aria-live): a push that changes nothing
    // for this player says nothing.
    if (this.statusEl.textContent !== text) this.statusEl.textContent = text;
    this.statusEl.className = kind;
  }

  // A card as a button's or a chip's content; `marks`: elements to mark
  // (`changed`: mutated, `used`: a lab element spent).
  _face(c, { marks = null, kind = "changed" } = {}) {
    const m = (key) => (marks && marks[key] ? `.${kind}` : "");
    const abilityMarked = (a) => marks && (a.aura ? marks.auras : marks.abilities).has(a.ability);
    const stats = W.stats(c) ||
      [h("span" + m("av"), {}, `AV ${c.av ?? "X"}`), " · ", h("span" + m("hp"), {}, `HP ${c.hp ?? "?"}`)];
    return [
      h("span.cost" + m("mana"), { title: W.manaTitle }, c.mana ?? "?"),
      h("span.cname", {}, c.name),
      h("span.cstats", {}, stats),
      c.abilities.length ? h("span.abilities", {}, c.abilities.map((a) =>
        h("span.ability" + (abilityMarked(a) ? `.${kind}` : ""), { title: this.cat.abilityText(a.ability) },
          W.aura(abilityLabel(a.ability), a.aura)))) : null,
    ];
  }

  _cardButton(id, { selected = false, enabled = false, onclick = null, pressed = null } = {}) {
    const c = modelOf(this.cat.printed(id), id);
    const classes = ["card", "draft-card", "league-card"];
    if (enabled) classes.push("playable", "affordable");
    if (selected) classes.push("selected");
    return h("button", {
      class: classes.join(" "), type: "button", data: { cardId: id, type: c.type }, disabled: !enabled || this.sending,
      "aria-pressed": pressed === null ? undefined : String(pressed), onclick,
    }, this._face(c));
  }

  // A card's abilities as people read them ("Rage", "Sprint (Aura)").
  _abilities(c) {
    return c.abilities.map((a) => W.aura(abilityLabel(a.ability), a.aura));
  }

  _chip(id) {
    return h("span.card.small", { data: { cardId: id } }, this.cat.name(id));
  }

  // ---- drafting (R15.1, E77) ----

  _renderDraft() {
    const v = this.view;
    const d = v.draft;
    const you = v.you;
    const mine = d.waiting.includes(this.seat);
    if (!you.packet.includes(this.draftChoice)) this.draftChoice = null;
    const others = d.waiting.filter((s) => s !== this.seat).map((s) => this.nameOf(s));
    this._status(mine ? W.draftMine(d.pick) : W.draftWaiting(others), mine ? "mine" : "");
    clear(this.packetEl);
    for (const id of you.packet) {
      this.packetEl.append(this._cardButton(id, {
        enabled: mine, selected: this.draftChoice === id, pressed: mine ? this.draftChoice === id : null,
        onclick: () => { this.draftChoice = id; this.draftNote.textContent = ""; this.render(); },
      }));
    }
    this.keepBtn.hidden = !mine;
    this.keepBtn.disabled = !this.draftChoice || this.sending;
    this.keepBtn.textContent = W.keep(this.draftChoice && this.cat.name(this.draftChoice));
    this.draftChoiceEl.textContent = mine ? W.draftChosen(this.draftChoice && this.cat.name(this.draftChoice)) : "";
    clear(this.takenEl).append(W.taken(you.taken.length), ...you.taken.map((id) => this._chip(id)));
    clear(this.othersEl);
    for (const p of v.players) {
      if (p.seat === this.seat) continue;
      const n = d.taken_counts[p.seat];
      this.othersEl.append(h("li", { data: { seat: p.seat } }, W.otherKept(p.name, n, d.waiting.includes(p.seat))));
    }
  }

  async _keep() {
    if (!this.draftChoice || this.sending) return;
    await this._send({ type: "pick", card: this.draftChoice }, this.draftNote);
  }

  // ---- building (R15.2, E71) ----

  _renderBuild() {
    const v = this.view;
    const done = this.me().has_deck;
    const waiting = v.players.filter((p) => !p.has_deck && p.seat !== this.seat).map((p) => p.name);
    this._status(done ? W.buildingDone(waiting) : W.building, done ? "" : "mine");
    this.deckChoice = this.deckChoice.filter((id) => v.you.drafted.includes(id));
    clear(this.draftedEl);
    for (const id of v.you.drafted) {
      const on = this.deckChoice.includes(id);
      this.draftedEl.append(this._cardButton(id, {
        enabled: !done, selected: on, pressed: on, onclick: () => this._toggleDeck(id),
      }));
    }
    this.chooseBtn.hidden = done;
    this.chooseBtn.disabled = this.deckChoice.length !== 8 || this.sending;
    this.deckCountEl.textContent = done ? "" : W.deckCount(this.deckChoice.length);
    clear(this.labPreviewEl);
    if (!done && this.deckChoice.length) {
      const lab = v.you.drafted.filter((id) => !this.deckChoice.includes(id));
      this.labPreviewEl.append(h("span.note", {}, W.labWouldBe(lab.length)), ...lab.map((id) => this._chip(id)));
    }
  }

  _toggleDeck(id) {
    const i = this.deckChoice.indexOf(id);
    if (i >= 0) this.deckChoice.splice(i, 1);
    else if (this.deckChoice.length >= 8) {
      // The 9th card is not taken: a deck is exactly 8 (R15.2).
      this.deckNote.textContent = W.deckFull;
      return;
    } else this.deckChoice.push(id);
    this.deckNote.textContent = "";
    this.render();
  }

  // Sends a deck choice as it is (the button sends only 8; the server
  // judges any other).
  async sendDeck(cards) {
    if (this.sending) return;
    await this._send({ type: "choose_deck", cards }, this.deckNote);
  }

  // ---- mutating (R15.4–R15.6, E70–E76) ----

  _renderMutate() {
    const v = this.view;
    const done = this.me().phase_done;
    const waiting = v.players.filter((p) => !p.phase_done && p.seat !== this.seat).map((p) => p.name);
    this._status(done ? W.mutatingDone(waiting) : W.mutating(v.points), done ? "" : "mine");
    for (const el of [this.mutForm, this.listEl, this.pointsEl, this.sendBtn, this.passBtn, this.previewEl.parentElement]) el.hidden = done;
    if (done) this.refusalEl.textContent = "";
    if (!done && this.base) {
      this._askMenu();
      this._fillForm();
      this._formChanged(null);
    }
  }

  _renderDeadline() {
    const v = this.view;
    if (!v) return;
    const text = v.phase_deadline_ms ? W.deadline(v.stage, fmtLeft(v.phase_deadline_ms - Date.now()))
      : v.stage === "mutating" ? W.noDeadline : "";
    this.deadlineEl.textContent = text;
    this.deadlineEl.hidden = !text;
  }

  // What the server allows after the list: the view's own list for an
  // empty one (the deck as it stands, the phase's points), else its reply
  // to league_mutations for this list; null while it is asked.
  _menu() {
    if (!this.pending.length) return menuOf((this.view.you && this.view.you.legal_mutations) || [], this.view.points);
    return this.menus.get(listKey(this.pending)) || null;
  }

  // R15.4, E75: a mutation added to the list is judged against the deck as
  // the earlier ones leave it, within the points they leave; only the
  // server knows what that allows (a covered ability may be pasted back,
  // an element is used): it is asked once per list. The reply redraws.
  _askMenu() {
    const key = listKey(this.pending);
    if (!this.pending.length || this._menu() || this.asking || this.menuFailed === key) return;
    const phase = this.phaseKey;
    this.asking = key;
    this.mutForm.dataset.menu = "asking";
    this.actions.mutations(this.pending.map((m) => ({ ...m }))).then(
      (r) => { if (this.phaseKey === phase) this.menus.set(key, menuOf(r.legal_mutations || [], r.points_left)); },
      (e) => {
        if (this.phaseKey !== phase) return;
        // A refusal of the league (a list that cannot be sent: a mutation
        // that needed one taken out since) holds for the phase; anything
        // else (a lost connection) is asked again with the next view or list.
        if (e && e.code === "league_refused") {
          this.menus.set(key, { refused: e });
        } else {
          this.menuFailed = key;
          this.refusal = { text: errorWords(e), index: null };
        }
      },
    ).finally(() => {
      if (this.asking === key) this.asking = null;
      if (this.phaseKey === phase && this.view.stage === "mutating") this.render();
    });
  }

  // The list's state against the server's menu: a refusal of it (the
  // mutation at fault marked), or none.
  _menuRefusal() {
    const menu = this.pending.length ? this.menus.get(listKey(this.pending)) : null;
    if (!menu || !menu.refused) return null;
    const e = menu.refused;
    const r = e.refusal || {};
    return {
      text: leagueRefusalWords(e, (i) => this.pending[i] ? this.describe(this.pending[i]) : "", true),
      index: Number.isInteger(r.index) ? r.index : null,
    };
  }

  // The deck and lab after the list (and `extra`, the form's mutation, if any).
  _after(extra = null) {
    return after(this.base, extra ? [...this.pending, extra] : this.pending);
  }

  // Options of a <select>, keeping the chosen value while it is there (an
  // option the menu does not offer is disabled: it cannot be chosen, and
  // one chosen before stays shown, not added); else the first enabled.
  _options(sel, options, value) {
    clear(sel);
    for (const o of options) sel.append(h("option", { value: o.value, disabled: o.disabled }, o.label));
    const first = options.find((o) => !o.disabled);
    sel.value = options.some((o) => o.value === value) ? value : first ? first.value : "";
    return sel.value;
  }

  // The menu's entries that agree with the form so far (`upTo`: the form's
  // fields to hold them to, in the form's order).
  _offered(menu, upTo) {
    const f = this.form;
    const [ability, aura] = (f.pick || "|").split("|");
    const tests = {
      target: (m) => m.target === f.target,
      source: (m) => m.source === f.source,
      element: (m) => m.element === f.element,
      pick: (m) => m.ability === ability && !!m.aura === (aura === "1"),
    };
    return ((menu && menu.list) || []).filter((m) => upTo.every((k) => !f[k] || tests[k](m)));
  }

  _fillForm() {
    const costs = this.view.costs;
    const s = this._after();
    const menu = this._menu();
    // The creatures as they are now (the preview shows them after the list).
    const option = (c) => W.cardOption(c, this._abilities(c));
    const offered = (field, upTo, value) => this._offered(menu, upTo).some((m) => m[field] === value);
    const targets = this.base.deck.filter((d) => d.card.type === "creature")
      .map((d) => ({ value: d.card.id, label: option(d.card), disabled: !offered("target", [], d.card.id) }));
    this.form.target = this._options(this.targetSel, [{ value: "", label: W.chooseTarget }, ...targets], this.form.target);
    const sources = s.lab.map((l) => ({ value: l.id, label: option(l.card), disabled: !offered("source", ["target"], l.id) }));
    this.form.source = this._options(this.sourceSel, [{ value: "", label: W.chooseSource }, ...sources], this.form.source);
    const src = s.lab.find((l) => l.id === this.form.source);
    const elements = ELEMENTS.map((e) => {
      const value = src && e !== "ability" ? src.card[e] : null;
      const none = src && ((e === "hp" && src.card.type !== "creature") || (e === "av" && src.card.av === null) || (e === "ability" && !src.card.abilities.length));
      const used = src && e !== "ability" && src.used[e];
      return {
        value: e, label: W.elementOption(e, value, e === "ability" ? null : costs[e], none, used),
        disabled: !offered("element", ["target", "source"], e),
      };
    });
    this.form.element = this._options(this.elementSel, elements, this.form.element);
  }

  // The form's inputs changed: the dependent choices, the cost, what the
  // server's menu says of it, the preview.
  _formChanged(what) {
    if (what === "target") this.form.target = this.targetSel.value;
    if (what === "source") this.form.source = this.sourceSel.value;
    if (what === "element") this.form.element = this.elementSel.value;
    if (what === "pick") this.form.pick = this.abilitySel.value;
    if (what === "target") this.form.covers = new Set();
    if (what === "source" || what === "target") this._fillForm();
    const costs = this.view.costs;
    const menu = this._menu();
    const s = this._after();
    const src = s.lab.find((l) => l.id === this.form.source);
    const tgt = s.deck.find((d) => d.card.id === this.form.target);
    const isAbility = this.form.element === "ability";
    this.abilityRow.hidden = !isAbility;
    this.coversEl.hidden = !isAbility;
    if (isAbility) {
      const abilities = this._offered(menu, ["target", "source", "element"]);
      const picks = (src ? src.card.abilities : []).map((a) => ({
        value: abilityKey(a.ability, a.aura),
        label: W.abilityOption(W.aura(abilityLabel(a.ability), a.aura), costs.abilities[a.ability] ?? 0,
          (a.aura ? src.used.auras : src.used.abilities).has(a.ability)),
        disabled: !abilities.some((m) => m.ability === a.ability && !!m.aura === a.aura),
      }));
      this.form.pick = this._options(this.abilitySel, picks.length ? picks : [{ value: "", label: W.noAbility }], this.form.pick);
      // What the new ability goes over: the target's abilities as the list
      // leaves them; only those some listed mutation covers can be ticked.
      const offered = tgt ? tgt.card.abilities : [];
      const covering = this._offered(menu, ["target", "source", "element", "pick"]);
      const coverable = (a) => covering.some((m) => !!m.covers_aura === a.aura && (m.covers || []).includes(a.ability));
      for (const k of [...this.form.covers]) if (!offered.some((a) => abilityKey(a.ability, a.aura) === k)) this.form.covers.delete(k);
      // Redrawn on every change: the focus goes back to the same box.
      const focused = this.coversEl.contains(document.activeElement) ? document.activeElement.dataset.cover : null;
      clear(this.coversEl).append(h("legend", {}, W.coversLegend(this.form.pick.endsWith("|1"))));
      if (!offered.length) this.coversEl.append(h("span.note", {}, tgt ? W.noCover : W.targetFirst));
      for (const a of offered) {
        const k = abilityKey(a.ability, a.aura);
        const extra = (costs.cover || {})[a.ability];
        this.coversEl.append(h("label.check", {},
          h("input", { type: "checkbox", value: k, data: { cover: k }, checked: this.form.covers.has(k),
            disabled: !this.form.covers.has(k) && !coverable(a),
            onchange: (e) => { if (e.target.checked) this.form.covers.add(k); else this.form.covers.delete(k); this._formChanged(null); } }),
          W.coverOption(W.aura(abilityLabel(a.ability), a.aura), extra)));
      }
      const again = focused && this.coversEl.querySelector(`input[data-cover="${focused}"]`);
      if (again) again.focus();
    }
    const m = this._formMutation();
    const listed = !!(m && menu && menu.keys && menu.keys.has(mutationKey(m)));
    const spent = this.pending.reduce((p, x) => p + mutationCost(costs, x), 0);
    this.mutForm.dataset.menu = menu ? (menu.refused ? "refused" : "ready") : "asking";
    if (m) {
      const c = mutationCost(costs, m);
      this.costEl.textContent = W.cost(c, this.view.points - spent - c);
    } else {
      this.costEl.textContent = "";
    }
    this.checkEl.textContent = this._notOffered(m, menu, listed);
    this.checkEl.dataset.listed = String(listed);
    this.addBtn.disabled = !listed || this.sending;
    this._renderPreview(m);
    this._renderList();
  }

  // Why the form's mutation cannot be added, in words ("" when it can, or
  // while it is incomplete): the server's menu is all there is to go by.
  _notOffered(m, menu, listed) {
    if (listed || !this.form.target || !this.form.source) return "";
    if (!menu) return W.asking;
    if (menu.refused) return "";
    if (this.form.element === "ability" && this.form.pick) {
      // The coverings the menu offers for this ability, to choose from.
      const ways = this._offered(menu, ["target", "source", "element", "pick"]).map((x) =>
        (x.covers || []).map((c) => W.aura(abilityLabel(c), !!x.covers_aura)).join(" and "));
      if (ways.length) return W.chooseCovers(ways);
    }
    return m ? W.notOffered : "";
  }

  // The mutation the form describes, in the wire's form; null while incomplete.
  _formMutation() {
    const f = this.form;
    if (!f.target || !f.source || !f.element) return null;
    const m = { target: f.target, source: f.source, element: f.element };
    if (f.element !== "ability") return m;
    if (!f.pick) return null;
    const [ability, aura] = f.pick.split("|");
    const covers = [...f.covers].map((k) => k.split("|"));
    m.ability = ability;
    m.aura = aura === "1";
    m.covers = covers.map(([a]) => a);
    m.covers_aura = covers.some(([, x]) => x === "1");
    return m;
  }

  describe(m) {
    const tgt = this.base && this.base.deck.find((d) => d.card.id === m.target);
    const auraOfTarget = (a) => m.covers_aura && tgt && tgt.card.abilities.some((x) => x.aura && x.ability === a);
    return W.mutation({
      element: m.element, aura: m.aura, source: m.source, target: m.target,
      abilityLabel: m.ability ? abilityLabel(m.ability) : "",
      covers: (m.covers || []).map((a) => ({ label: W.aura(abilityLabel(a), auraOfTarget(a)) })),
    }, (id) => this.cat.name(id));
  }

  // The target as it is now and as it will be after the list and the
  // form's mutation, the changed elements marked and told.
  _renderPreview(m) {
    clear(this.previewEl);
    const id = this.form.target;
    const before = this.base.deck.find((d) => d.card.id === id);
    if (!before) {
      this.previewEl.append(h("span.note", {}, W.pickTarget));
      return;
    }
    const afterIt = this._after(m).deck.find((d) => d.card.id === id);
    const b = before.card;
    const a = afterIt.card;
    const abil = (c) => this._abilities(c).join(", ") || W.noAbilities;
    const changes = [];
    const N = W.changeNames;
    if (a.mana !== b.mana || afterIt.changed.mana) changes.push(W.changed(N.mana, b.mana, a.mana));
    if (a.av !== b.av || afterIt.changed.av) changes.push(W.changed(N.av, b.av ?? "X", a.av ?? "X"));
    if (a.hp !== b.hp || afterIt.changed.hp) changes.push(W.changed(N.hp, b.hp, a.hp));
    if (abil(a) !== abil(b)) changes.push(W.changed(N.abilities, abil(b), abil(a)));
    this.previewEl.dataset.card = id;
    this.previewEl.append(
      h("div.preview-cards", {},
        h("div", {}, h("div.note", {}, W.now), h("div.card.preview-card#mut-before", {}, this._face(b, { marks: before.mutated, kind: "mutated" }))),
        h("div", {}, h("div.note", {}, W.afterList), h("div.card.preview-card#mut-after", { data: { mana: a.mana, av: a.av ?? "X", hp: a.hp } },
          this._face(a, { marks: afterIt.changed, kind: "changed" })))),
      h("ul#mut-changes", {}, changes.length ? changes.map((t) => h("li", {}, t)) : h("li.note", {}, W.noChange)));
  }

  _renderList() {
    const v = this.view;
    const menu = this._menu();
    // A refusal of the list by the server, or of its sending.
    const refusal = this._menuRefusal() || this.refusal;
    clear(this.listEl);
    const spent = this.pending.reduce((p, m) => p + mutationCost(v.costs, m), 0);
    this.pending.forEach((m, i) => {
      const refused = refusal && refusal.index === i;
      this.listEl.append(h("li" + (refused ? ".refused" : ""), { data: { index: i } },
        `${this.describe(m)} — ${pointsWords(mutationCost(v.costs, m))}`,
        " ",
        h("button.small.mut-remove", { type: "button", "aria-label": W.removeLabel(i + 1), onclick: () => this._remove(i) }, W.remove)));
    });
    if (!this.pending.length) this.listEl.append(h("li.note", {}, W.noMutation));
    const left = v.points - spent;
    this.pointsEl.textContent = W.pointsLeft(left, v.points);
    this.pointsEl.className = left < 0 ? "bad" : "";
    this.pointsEl.dataset.left = String(left);
    this.sendBtn.textContent = W.send(this.pending.length, spent);
    // Only a list the server has seen through (its menu came back) is sent.
    this.sendBtn.disabled = !this.pending.length || !menu || !!menu.refused || this.sending;
    this.passBtn.disabled = this.sending;
    this.refusalEl.textContent = refusal ? refusal.text : "";
  }

  _add() {
    const m = this._formMutation();
    const menu = this._menu();
    // Only what the server lists now (the button is disabled otherwise).
    if (!m || !menu || !menu.keys || !menu.keys.has(mutationKey(m))) return;
    // The server's own entry: its words for the same mutation.
    this.pending.push(menu.list.find((x) => mutationKey(x) === mutationKey(m)));
    this.refusal = null;
    // The next mutation starts from another lab card (the same target is
    // likely: several elements may go onto one creature).
    this.form.source = "";
    this.form.pick = "";
    this.form.covers = new Set();
    this._askMenu();
    this._fillForm();
    this._formChanged(null);
  }

  _remove(i) {
    this.pending.splice(i, 1);
    this.refusal = null;
    this._askMenu();
    this._fillForm();
    this._formChanged(null);
  }

  async _sendMutations() {
    const menu = this._menu();
    if (!this.pending.length || this.sending || !menu || menu.refused) return;
    const list = this.pending.map((m) => ({ ...m }));
    const ok = await this._send({ type: "mutate", mutations: list }, null, (e) => {
      const r = e.refusal || {};
      this.refusal = { text: leagueRefusalWords(e, (i) => list[i] ? this.describe(list[i]) : ""), index: Number.isInteger(r.index) ? r.index : null };
    });
    if (ok) this.pending = [];
  }

  async _pass() {
    if (this.sending) return;
    if (this.pending.length && !window.confirm(W.passConfirm(this.pending.length))) return;
    if (await this._send({ type: "pass" }, null, (e) => { this.refusal = { text: leagueRefusalWords(e), index: null }; })) this.pending = [];
  }

  // One league_act; true when accepted. Its reply redraws the screen (the
  // app passes it to setView); a refusal is told next to what was sent.
  async _send(op, noteEl, onRefused = null) {
    this.sending = true;
    this.render();
    let ok = false;
    try {
      await this.actions.act(op);
      this.refusal = null;
      ok = true;
    } catch (e) {
      if (onRefused) onRefused(e);
      else if (noteEl) noteEl.textContent = leagueRefusalWords(e);
    } finally {
      this.sending = false;
      this.render();
    }
    return ok;
  }

  // ---- playing (R15.3) ----

  _renderDuel() {
    const v = this.view;
    const d = v.you && v.you.duel;
    this._status(d ? W.duel(d, v.round) : W.duelOver(v.round), d ? "mine" : "");
    this.duelEl.textContent = d ? W.duel(d, v.round) : W.duelOver(v.round);
    this.duelEl.dataset.opponent = d ? d.opponent : "";
    this.playBtn.hidden = !d;
    this.playBtn.disabled = this.sending;
  }

  async _playDuel() {
    if (this.sending) return;
    this.duelNote.textContent = "";
    this.sending = true;
    this.render();
    try {
      await this.actions.playDuel();
    } catch (e) {
      this.duelNote.textContent = errorWords(e);
    } finally {
      this.sending = false;
      this.render();
    }
  }

  // ---- always ----

  _renderCards() {
    const you = this.view.you;
    clear(this.deckEl);
    for (const d of you.deck) {
      const c = modelOf(d.card, d.card.id);
      this.deckEl.append(h("div.card.league-deck-card", { data: { cardId: c.id } }, this._face(c, { marks: flags(d.mutated), kind: "mutated" })));
    }
    clear(this.labEl);
    for (const l of you.lab) {
      const c = modelOf(this.cat.printed(l.card), l.card);
      this.labEl.append(h("div.card.league-lab-card", { data: { cardId: l.card } }, this._face(c, { marks: flags(l.used), kind: "used" })));
    }
    clear(this.historyEl);
    for (const r of you.mutations || []) this.historyEl.append(h("li", {}, W.pastMutation(r, this.describe(r.mutation))));
    if (!(you.mutations || []).length) this.historyEl.append(h("li.note", {}, W.noneYet));
  }

  _renderTables() {
    const v = this.view;
    const names = [];
    for (const p of v.players) names[p.seat] = p.name;
    clear(this.standingsEl);
    for (const p of v.players) {
      const now = W.doing(v.stage, p, !!v.draft && v.draft.waiting.includes(p.seat));
      this.standingsEl.append(h("tr" + (p.seat === this.seat ? ".mine" : ""), { data: { seat: p.seat } },
        h("td", {}, String(p.place)), h("td", {}, p.seat === this.seat ? W.you(p.name) : p.name),
        h("td", {}, String(p.played)), h("td", {}, String(p.won)), h("td", {}, now)));
    }
    clear(this.scheduleEl);
    for (const r of v.schedule) {
      const current = r.round === v.round && (v.stage === "playing" || v.stage === "mutating");
      this.scheduleEl.append(h("tr" + (current ? ".current" : ""), { data: { round: r.round }, "aria-current": current ? "true" : undefined },
        h("td", {}, String(r.round)),
        r.tables.map((t) => h("td" + (t.seats.includes(this.seat) ? ".mine" : ""), { data: { table: t.table, decided: t.decided } }, W.tableCell(names, t)))));
    }
  }
}
