// The league screen (R15; docs/protocol.md "league_join", "league_act",
// "league"): a mutation league player's own view, redrawn from every
// `league` message. By stage: the draft (the packet to keep one card of),
// the deck chosen from the 16 drafted cards, the mutation phase (a list of
// mutations with the points left and the card as it will be), the duel of
// the round; always the standings and the schedule. The server judges every
// rule: what this screen works out before sending (costs, the card after,
// "the server will refuse this") is a help, never a reason not to send.
import { h, clear } from "./dom.js";
import { abilityLabel } from "./catalogue.js";
import { LEAGUE_WORDS as W, MUTATION_CHECKS, leagueRefusalWords, errorWords, pointsWords } from "./words.js";

const ELEMENTS = ["mana", "av", "hp", "ability"];
const STAT_CAP = 9; // R15.5

// m:ss, h:mm:ss, or days and hours (a phase clock may be a week).
function fmtLeft(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  const pad = (n) => String(n).padStart(2, "0");
  if (s >= 86400) return `${Math.floor(s / 86400)} d ${Math.floor((s % 86400) / 3600)} h`;
  if (s >= 3600) return `${Math.floor(s / 3600)}:${pad(Math.floor((s % 3600) / 60))}:${pad(s % 60)}`;
  return `${Math.floor(s / 60)}:${pad(s % 60)}`;
}

// ---- the mutation rules, as a help (mirrors engine/src/mutation.cpp) ----

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

export function mutationCost(costs, m) {
  if (m.element !== "ability") return costs[m.element] ?? 0;
  let p = (costs.abilities || {})[m.ability] ?? 0;
  for (const c of m.covers || []) p += (costs.cover || {})[c] ?? 0;
  return p;
}

// What the server would refuse in `m` on `s` (R15.4, R15.5, E72–E75), as
// its refusal's detail, or null.
function check(s, m) {
  const t = s.deck.find((d) => d.card.id === m.target);
  if (!t) return "not_in_deck";
  const src = s.lab.find((l) => l.id === m.source);
  if (!src) return "not_in_lab";
  if (t.card.type !== "creature") return "incantation_never_mutates";
  const from = src.card;
  switch (m.element) {
    case "mana":
      if (src.used.mana) return "element_used";
      return t.mutated.mana ? "already_mutated" : null;
    case "av":
      if (from.av === null) return "no_such_element";
      if (src.used.av) return "element_used";
      if (t.mutated.av) return "already_mutated";
      if (t.card.av === null) return "attack_value_is_x";
      if (from.av > STAT_CAP) return "above_nine";
      return from.av < t.card.av ? "value_lowered" : null;
    case "hp":
      if (from.type !== "creature") return "no_such_element";
      if (src.used.hp) return "element_used";
      if (t.mutated.hp) return "already_mutated";
      if (from.hp > STAT_CAP) return "above_nine";
      return from.hp < t.card.hp ? "value_lowered" : null;
    case "ability": {
      if (!from.abilities.some((a) => a.ability === m.ability && a.aura === !!m.aura)) return "no_such_element";
      if ((m.aura ? src.used.auras : src.used.abilities).has(m.ability)) return "element_used";
      const own = ownOf(t.card);
      const auras = aurasOf(t.card);
      if (!own.length && !auras.length) return "nothing_to_cover";
      const covers = m.covers || [];
      if (new Set(covers).size !== covers.length) return "wrong_cover";
      if (m.covers_aura ? covers.length !== 1 : covers.length !== (m.aura ? 2 : 1)) return "wrong_cover";
      if (!covers.every((c) => (m.covers_aura ? auras : own).includes(c))) return "nothing_to_cover";
      if (covers.some((c) => (m.covers_aura ? t.mutated.auras : t.mutated.abilities).has(c))) return "already_mutated";
      const ownAfter = m.covers_aura ? own : own.filter((a) => !covers.includes(a));
      const aurasAfter = m.covers_aura ? auras.filter((a) => !covers.includes(a)) : auras;
      if (m.aura) return aurasAfter.length ? "second_aura" : null;
      return ownAfter.includes(m.ability) ? "same_ability_twice" : null;
    }
    default:
      return "no_such_element";
  }
}

// Applies a mutation `check` accepted; `changed` marks what this list changed.
function apply(s, m) {
  const t = s.deck.find((d) => d.card.id === m.target);
  const src = s.lab.find((l) => l.id === m.source);
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

// A list applied in order (E75): the state after it, and for each mutation
// what the server would refuse (null: nothing) — the points included. A
// mutation the check doubts is applied all the same when it can be (a
// creature of the deck, a card of the lab): the preview shows what is
// asked for, the warning says what the server will likely say.
function simulate(base, list, costs, points) {
  const s = copyState(base);
  let spent = 0;
  const problems = list.map((m) => {
    const e = check(s, m);
    spent += mutationCost(costs, m);
    if (!["not_in_deck", "not_in_lab", "incantation_never_mutates"].includes(e)) apply(s, m);
    return e || (spent > points ? "over_budget" : null);
  });
  return { state: s, problems, spent };
}

// ---- the screen ----

export class LeagueScreen {
  // actions: {act(op) -> Promise (rejects with the refusal), playDuel() -> Promise, leave()}
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

  // The state after the list (and `extra`, the form's mutation, if any).
  _after(extra = null) {
    const list = extra ? [...this.pending, extra] : this.pending;
    return simulate(this.base, list, this.view.costs, this.view.points);
  }

  // Options of a <select>, keeping the chosen value while it is offered.
  _options(sel, options, value) {
    clear(sel);
    for (const o of options) sel.append(h("option", { value: o.value, disabled: o.disabled }, o.label));
    sel.value = options.some((o) => o.value === value) ? value : options.length ? options[0].value : "";
    return sel.value;
  }

  _fillForm() {
    const costs = this.view.costs;
    const s = this._after().state;
    // The creatures as they are now (the preview shows them after the list).
    const option = (c) => W.cardOption(c, this._abilities(c));
    const targets = this.base.deck.filter((d) => d.card.type === "creature").map((d) => ({ value: d.card.id, label: option(d.card) }));
    this.form.target = this._options(this.targetSel, [{ value: "", label: W.chooseTarget }, ...targets], this.form.target);
    const sources = s.lab.map((l) => ({ value: l.id, label: option(l.card) }));
    this.form.source = this._options(this.sourceSel, [{ value: "", label: W.chooseSource }, ...sources], this.form.source);
    const src = s.lab.find((l) => l.id === this.form.source);
    const elements = ELEMENTS.map((e) => {
      const value = src && e !== "ability" ? src.card[e] : null;
      const none = src && ((e === "hp" && src.card.type !== "creature") || (e === "av" && src.card.av === null) || (e === "ability" && !src.card.abilities.length));
      const used = src && e !== "ability" && src.used[e];
      return { value: e, label: W.elementOption(e, value, e === "ability" ? null : costs[e], none, used) };
    });
    this.form.element = this._options(this.elementSel, elements, this.form.element);
  }

  // The form's inputs changed: the dependent choices, the cost, the check,
  // the preview.
  _formChanged(what) {
    if (what === "target") this.form.target = this.targetSel.value;
    if (what === "source") this.form.source = this.sourceSel.value;
    if (what === "element") this.form.element = this.elementSel.value;
    if (what === "pick") this.form.pick = this.abilitySel.value;
    if (what === "target") this.form.covers = new Set();
    if (what === "source" || what === "target") this._fillForm();
    const costs = this.view.costs;
    const s = this._after().state;
    const src = s.lab.find((l) => l.id === this.form.source);
    const tgt = s.deck.find((d) => d.card.id === this.form.target);
    const isAbility = this.form.element === "ability";
    this.abilityRow.hidden = !isAbility;
    this.coversEl.hidden = !isAbility;
    if (isAbility) {
      const picks = (src ? src.card.abilities : []).map((a) => ({
        value: abilityKey(a.ability, a.aura),
        label: W.abilityOption(W.aura(abilityLabel(a.ability), a.aura), costs.abilities[a.ability] ?? 0,
          (a.aura ? src.used.auras : src.used.abilities).has(a.ability)),
      }));
      this.form.pick = this._options(this.abilitySel, picks.length ? picks : [{ value: "", label: W.noAbility }], this.form.pick);
      // What the new ability goes over: the target's abilities as the list leaves them.
      const offered = tgt ? tgt.card.abilities : [];
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
            onchange: (e) => { if (e.target.checked) this.form.covers.add(k); else this.form.covers.delete(k); this._formChanged(null); } }),
          W.coverOption(W.aura(abilityLabel(a.ability), a.aura), extra)));
      }
      const again = focused && this.coversEl.querySelector(`input[data-cover="${focused}"]`);
      if (again) again.focus();
    }
    const m = this._formMutation();
    const spent = this.pending.reduce((p, x) => p + mutationCost(costs, x), 0);
    if (m) {
      const c = mutationCost(costs, m);
      this.costEl.textContent = W.cost(c, this.view.points - spent - c);
      const r = this._after(m);
      const problem = r.problems[r.problems.length - 1];
      this.checkEl.textContent = problem ? W.willRefuse(MUTATION_CHECKS[problem] || problem) : "";
      this.checkEl.dataset.problem = problem || "";
    } else {
      this.costEl.textContent = "";
      this.checkEl.textContent = "";
      this.checkEl.dataset.problem = "";
    }
    this.addBtn.disabled = !m;
    this._renderPreview(m);
    this._renderList();
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
    const after = this._after(m).state.deck.find((d) => d.card.id === id);
    const b = before.card;
    const a = after.card;
    const abil = (c) => this._abilities(c).join(", ") || W.noAbilities;
    const changes = [];
    const N = W.changeNames;
    if (a.mana !== b.mana || after.changed.mana) changes.push(W.changed(N.mana, b.mana, a.mana));
    if (a.av !== b.av || after.changed.av) changes.push(W.changed(N.av, b.av ?? "X", a.av ?? "X"));
    if (a.hp !== b.hp || after.changed.hp) changes.push(W.changed(N.hp, b.hp, a.hp));
    if (abil(a) !== abil(b)) changes.push(W.changed(N.abilities, abil(b), abil(a)));
    this.previewEl.dataset.card = id;
    this.previewEl.append(
      h("div.preview-cards", {},
        h("div", {}, h("div.note", {}, W.now), h("div.card.preview-card#mut-before", {}, this._face(b, { marks: before.mutated, kind: "mutated" }))),
        h("div", {}, h("div.note", {}, W.afterList), h("div.card.preview-card#mut-after", { data: { mana: a.mana, av: a.av ?? "X", hp: a.hp } },
          this._face(a, { marks: after.changed, kind: "changed" })))),
      h("ul#mut-changes", {}, changes.length ? changes.map((t) => h("li", {}, t)) : h("li.note", {}, W.noChange)));
  }

  _renderList() {
    const v = this.view;
    clear(this.listEl);
    const { problems, spent } = simulate(this.base, this.pending, v.costs, v.points);
    this.pending.forEach((m, i) => {
      const refused = this.refusal && this.refusal.index === i;
      this.listEl.append(h("li" + (refused ? ".refused" : ""), { data: { index: i } },
        `${this.describe(m)} — ${pointsWords(mutationCost(v.costs, m))}`,
        problems[i] ? h("span.warn", {}, ` ${W.willRefuse(MUTATION_CHECKS[problems[i]] || problems[i])}`) : null,
        " ",
        h("button.small.mut-remove", { type: "button", "aria-label": W.removeLabel(i + 1), onclick: () => this._remove(i) }, W.remove)));
    });
    if (!this.pending.length) this.listEl.append(h("li.note", {}, W.noMutation));
    const left = v.points - spent;
    this.pointsEl.textContent = W.pointsLeft(left, v.points);
    this.pointsEl.className = left < 0 ? "bad" : "";
    this.pointsEl.dataset.left = String(left);
    this.sendBtn.textContent = W.send(this.pending.length, spent);
    this.sendBtn.disabled = !this.pending.length || this.sending;
    this.passBtn.disabled = this.sending;
    this.refusalEl.textContent = this.refusal ? this.refusal.text : "";
  }

  _add() {
    const m = this._formMutation();
    if (!m) return;
    this.pending.push(m);
    this.refusal = null;
    // The next mutation starts from another lab card (the same target is
    // likely: several elements may go onto one creature).
    this.form.source = "";
    this.form.pick = "";
    this.form.covers = new Set();
    this._fillForm();
    this._formChanged(null);
  }

  _remove(i) {
    this.pending.splice(i, 1);
    this.refusal = null;
    this._fillForm();
    this._formChanged(null);
  }

  async _sendMutations() {
    if (!this.pending.length || this.sending) return;
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
