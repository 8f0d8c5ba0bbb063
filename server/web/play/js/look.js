// Card faces drawn by this client (issue 30, item 3), loaded by game.js with
// the first game screen (not part of the first visit). After each redraw
// `decorate` draws, on every card of the hand and creature of the board, a
// frame coloured by its type and pack, a mana gem under the cost, AV and HP
// badges and an icon on each ability label: SVG symbols of /play/cards.svg
// (one small sprite, fetched by the browser with the first card drawn). The
// drawings are decoration (aria-hidden): the card's words stay as they were,
// for the eye, screen readers and the tests that read them.
//
// A card zooms on hover (a mouse) or a long press (a finger): a large copy
// with every ability's text, beside the card, never under the pointer.
import { h } from "./dom.js";
import { abilityLabel, AURA_TEXT, AV_X_TEXT } from "./catalogue.js";

const SPRITE = "/play/cards.svg";
const NS = "http://www.w3.org/2000/svg";
const HOVER_MS = 250; // a pointer passing over the hand does not flash zooms
const PRESS_MS = 450; // a long press, not a tap (a tap chooses the card)
const CARDS = "#hand .card[data-card-id], #board .creature[data-card-id]";

// <svg class=cls><use href="cards.svg#id"/></svg>, hidden from screen readers.
export function icon(id, cls) {
  const svg = document.createElementNS(NS, "svg");
  svg.setAttribute("class", cls);
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  const use = document.createElementNS(NS, "use");
  use.setAttribute("href", `${SPRITE}#${id}`);
  svg.append(use);
  return svg;
}

// An ability label's key ("rage", "rage+aura", "av-x") -> its icon's id.
const iconId = (key) => `a-${String(key).replace("+aura", "")}`;

export class Look {
  constructor(game) {
    this.game = game;
    this.zoomEl = h("div#card-zoom", { "aria-hidden": "true", hidden: true });
    document.body.append(this.zoomEl);
    this.timer = null;
    this.pressed = false;
    const root = game.root;
    const cardOf = (e) => e.target instanceof Element && e.target.closest(CARDS);
    root.addEventListener("pointerover", (e) => {
      const el = cardOf(e);
      if (!el || e.pointerType !== "mouse" || el === this.shown) return;
      this._later(() => this.zoom(el), HOVER_MS);
    });
    root.addEventListener("pointerout", (e) => {
      const el = cardOf(e);
      if (el && e.pointerType === "mouse" && !el.contains(e.relatedTarget)) this.unzoom();
    });
    // A finger: a long press zooms until it lifts, and that press chooses nothing.
    root.addEventListener("pointerdown", (e) => {
      const el = cardOf(e);
      if (!el || e.pointerType === "mouse") return;
      this.touching = true;
      this._later(() => { this.pressed = true; this.zoom(el); }, PRESS_MS);
    });
    // The click that may follow the press is swallowed (capture, below);
    // the browser sends it a moment after the finger lifts, or not at all.
    const lift = () => {
      this.touching = false;
      window.clearTimeout(this.timer);
      if (!this.pressed) return;
      this.unzoom();
      window.setTimeout(() => { this.pressed = false; }, 500);
    };
    root.addEventListener("pointerup", lift);
    root.addEventListener("pointercancel", lift);
    root.addEventListener("click", (e) => {
      if (this.pressed) { e.preventDefault(); e.stopPropagation(); }
    }, true);
    // A finger held on a card opens no context menu over the zoom (a mouse's right click still does).
    root.addEventListener("contextmenu", (e) => { if (cardOf(e) && (this.touching || this.pressed)) e.preventDefault(); });
    // The dock folds (a phone: look.css shows the button there), giving
    // the board its room; the buttons and a choice's prompt stay.
    this.dock = root.querySelector(".dock");
    this.foldBtn = h("button#dock-fold", { type: "button", "aria-expanded": "true", "aria-controls": "hand", onclick: () => this.fold() }, "Hide the hand");
    const controls = root.querySelector(".dock .controls");
    if (controls) controls.append(this.foldBtn);
  }

  fold(folded = !this.dock.dataset.folded) {
    if (folded) this.dock.dataset.folded = "true";
    else delete this.dock.dataset.folded;
    this.foldBtn.setAttribute("aria-expanded", String(!folded));
    this.foldBtn.textContent = folded ? "Show the hand" : "Hide the hand";
  }

  destroy() {
    window.clearTimeout(this.timer);
    this.zoomEl.remove();
  }

  _later(fn, ms) {
    window.clearTimeout(this.timer);
    this.timer = window.setTimeout(fn, ms);
  }

  // ---- the faces ----

  decorate() {
    for (const el of this.game.root.querySelectorAll(CARDS)) this.draw(el);
    // The redraw replaced the card the zoom was for.
    if (this.shown && !this.shown.isConnected) this.unzoom();
  }

  // Draws one card or creature (once: a redraw makes new elements).
  draw(el) {
    if (el.dataset.drawn) return;
    const def = this.game.cat.card(el.dataset.cardId);
    if (!def) return;
    el.dataset.drawn = "1";
    el.classList.add("drawn");
    el.dataset.type = def.type;
    el.dataset.pack = def.pack || "";
    el.prepend(icon("frame", "art"), icon(`t-${def.type}`, "emblem"));
    const cost = el.querySelector(".cost");
    if (cost) cost.prepend(icon("gem", "gem"));
    // A hand card's "AV 3 · HP 4" as two badges (the same words).
    const stats = el.querySelector(".cstats");
    const m = stats && /^AV (\S+) · HP (\S+)$/.exec(stats.textContent);
    if (m) {
      stats.replaceChildren(badge("av", `AV ${m[1]}`), h("span.sep", {}, " · "), badge("hp", `HP ${m[2]}`));
    }
    // A creature's AV and HP spans become badges; the dot between them hides.
    for (const kind of ["av", "hp"]) {
      const s = el.querySelector(`.stats > .${kind}`);
      if (s) { s.classList.add("badge"); s.prepend(icon(`b-${kind}`, "bicon")); }
    }
    const row = el.querySelector(".stats");
    if (row) for (const n of [...row.childNodes]) if (n.nodeType === 3 && n.textContent.trim() === "·") n.replaceWith(h("span.sep", {}, n.textContent));
    const face = el.parentElement && el.parentElement.classList.contains("card-face") ? el.parentElement : null;
    if (face) for (const b of face.querySelectorAll(":scope > .ability-row > button.ability")) b.prepend(icon(iconId(b.dataset.abilityKey), "aicon"));
  }

  // ---- the zoom ----

  zoom(el) {
    if (!el.isConnected) return;
    const cat = this.game.cat;
    const id = el.dataset.cardId;
    const def = cat.card(id);
    if (!def) return;
    this.shown = el;
    const creature = el.classList.contains("creature");
    // In play: the creature's AV and HP now; in the hand: as printed.
    const avText = creature ? el.querySelector(".stats > .av")?.textContent : def.av === null ? "AV X" : `AV ${def.av}`;
    const hpText = creature ? el.querySelector(".stats > .hp")?.textContent : `HP ${def.hp}`;
    const pack = (cat.packs.find((p) => p.id === def.pack) || {});
    const abilities = (creature ? (this._inPlay(Number(el.dataset.uid))?.abilities || []).map((a) => ({ ability: a, aura: false })) : def.abilities);
    const items = abilities.map((a) => h("li", {}, icon(iconId(a.ability), "aicon"),
      h("strong", {}, abilityLabel(a.ability) + (a.aura ? " (aura)" : "")), ": ",
      (a.aura ? AURA_TEXT + " " : "") + cat.abilityText(a.ability)));
    if (def.type === "creature" && def.av === null) items.unshift(h("li", {}, icon("a-av-x", "aicon"), h("strong", {}, "AV X"), ": ", AV_X_TEXT));
    const z = this.zoomEl;
    z.className = "drawn";
    z.replaceChildren(icon("frame", "art"), icon(`t-${def.type}`, "emblem"),
      h("span.cost", {}, icon("gem", "gem"), String(def.mana ?? "?")),
      h("div.cname", {}, cat.name(id)),
      h("div.ztype", {}, `${def.type === "incantation" ? "Incantation" : "Creature"}${pack.name_en || pack.name_fr ? ` · ${pack.name_en || pack.name_fr}` : ""}`),
      def.type === "incantation"
        ? h("div.cstats", {}, def.av !== null ? `${def.av} damage` : "")
        : h("div.cstats", {}, badge("av", avText || ""), " ", badge("hp", hpText || "")),
      items.length ? h("ul.zabilities", {}, items) : null);
    z.dataset.type = def.type;
    z.dataset.pack = def.pack || "";
    z.dataset.cardId = id;
    z.hidden = false;
    // Beside the card: above it if there is room, else below, else at the side.
    const r = el.getBoundingClientRect();
    const zw = z.offsetWidth, zh = z.offsetHeight;
    let top = r.top - zh - 8;
    if (top < 4) top = r.bottom + zh + 8 <= window.innerHeight ? r.bottom + 8 : Math.max(4, Math.min(r.top, window.innerHeight - zh - 4));
    let left = r.left + r.width / 2 - zw / 2;
    if (top === Math.max(4, Math.min(r.top, window.innerHeight - zh - 4)) && top < r.bottom && top + zh > r.top)
      left = r.right + 8 + zw <= window.innerWidth ? r.right + 8 : r.left - zw - 8;
    z.style.left = `${Math.max(4, Math.min(left, window.innerWidth - zw - 4))}px`;
    z.style.top = `${top}px`;
  }

  unzoom() {
    window.clearTimeout(this.timer);
    this.shown = null;
    this.zoomEl.hidden = true;
  }

  _inPlay(uid) {
    const v = this.game.view;
    for (const line of v ? v.lines : []) for (const side of line.sides) for (const c of side.creatures) if (c.uid === uid) return c;
    return null;
  }
}

function badge(kind, text) {
  return h(`span.badge.${kind}`, {}, icon(`b-${kind}`, "bicon"), text);
}
