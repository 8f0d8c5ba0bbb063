// A card's abilities as small buttons (a disclosure each): a click, a tap,
// Enter or Space opens the ability's text under the label; the same again,
// Escape or a click elsewhere closes it. One explanation is open at a time,
// in #ability-tip (a polite live region: screen readers read it as it
// opens; the button says aria-expanded and is described by it).
//
// The buttons never sit inside the card's own button (no nested controls):
// `cardFace` puts them in a strip under the card, so that clicking a label
// explains and never chooses or plays the card, and a click on the card
// (anywhere) is never taken by a label.
import { h } from "./dom.js";
import { abilityLabel, AV_X_TEXT, AURA_TEXT } from "./catalogue.js";

let open = null; // {key, button}
let tipEl = null;

function tip() {
  if (!tipEl) {
    tipEl = h("div#ability-tip", { "aria-live": "polite", hidden: true });
    document.body.append(tipEl);
    // A click elsewhere or Escape anywhere closes it.
    document.addEventListener("click", (e) => { if (open && !tipEl.contains(e.target)) closeAbilityTip(); });
    document.addEventListener("keydown", (e) => { if (e.key === "Escape" && open) closeAbilityTip(); });
    window.addEventListener("resize", () => closeAbilityTip());
  }
  return tipEl;
}

// [{ability, aura}] or ["ability", ...] (a creature in play: the abilities
// it has now) -> {label, text, key}
function items(cat, abilities, avX) {
  const out = abilities.map((a) => {
    const ability = typeof a === "string" ? a : a.ability;
    const aura = typeof a === "string" ? false : !!a.aura;
    const label = abilityLabel(ability) + (aura ? " (aura)" : "");
    return { label, key: `${ability}${aura ? "+aura" : ""}`, text: (aura ? AURA_TEXT + " " : "") + cat.abilityText(ability) };
  });
  if (avX) out.unshift({ label: "AV X?", key: "av-x", text: AV_X_TEXT, aria: "AV X: what X is" });
  return out;
}

// The labels as buttons. `owner`: what the card is on the page ("hand:12",
// "draft:brute"), so that a redraw finds the open one again. `tabs`: Tab
// stops: "each" label, a "row"'s first, "none" (the game screen's arrows
// reach them: turn.js).
export function abilityButtons(cat, abilities, { owner, avX = false, tabs = "each" } = {}) {
  const list = items(cat, abilities, avX);
  if (!list.length) return null;
  return h("div.ability-row", {}, list.map((it, i) => {
    const key = `${owner}|${it.key}`;
    const tabindex = tabs === "each" || (tabs === "row" && i === 0) ? undefined : "-1";
    const b = h("button.ability", {
      type: "button", "aria-expanded": "false", "aria-controls": "ability-tip", "aria-label": it.aria, tabindex,
      data: { tipKey: key, abilityKey: it.key },
      onclick: (e) => {
        // Never the card's or the creature's click (choose, play, target).
        e.stopPropagation();
        if (open && open.key === key) closeAbilityTip();
        else openAbilityTip(b, key, it);
      },
      onkeydown: (e) => {
        if (e.key === "Escape" && open && open.key === key) {
          e.stopPropagation(); // closes the explanation, not the card's choice
          closeAbilityTip();
        } else if (e.key === "Enter" || e.key === " ") e.stopPropagation();
      },
    }, it.label);
    return b;
  }));
}

// A card or creature with its ability buttons under it.
export function cardFace(face, buttons, extraClass = "") {
  if (!buttons) return face;
  return h("div.card-face" + extraClass, {}, face, buttons);
}

function openAbilityTip(button, key, it) {
  closeAbilityTip();
  const el = tip();
  el.replaceChildren(h("strong", {}, it.label.replace(/\?$/, "")), ": ", it.text);
  open = { key, button };
  button.setAttribute("aria-expanded", "true");
  button.setAttribute("aria-describedby", "ability-tip");
  el.hidden = false;
  el.dataset.key = key;
  place(button);
}

function place(button) {
  const el = tip();
  const r = button.getBoundingClientRect();
  const width = Math.min(el.offsetWidth || 320, window.innerWidth - 16);
  const left = Math.max(8, Math.min(r.left, window.innerWidth - width - 8));
  el.style.left = `${left + window.scrollX}px`;
  el.style.top = `${r.bottom + window.scrollY + 4}px`;
}

export function closeAbilityTip() {
  if (!open) return;
  const b = open.button;
  b.setAttribute("aria-expanded", "false");
  b.removeAttribute("aria-describedby");
  open = null;
  tipEl.hidden = true;
  delete tipEl.dataset.key;
}

// After a redraw: the open explanation follows its label's new button, or
// closes when the label is gone.
export function refreshAbilityTip() {
  if (!open || open.button.isConnected) return;
  const again = document.querySelector(`button.ability[data-tip-key="${CSS.escape(open.key)}"]`);
  if (!again) {
    closeAbilityTip();
    return;
  }
  open.button = again;
  again.setAttribute("aria-expanded", "true");
  again.setAttribute("aria-describedby", "ability-tip");
  place(again);
}

// A long card name is set smaller rather than broken inside a word: its
// longest word decides (PRESTIDIGITATOR, 15 letters, fits a card at "long").
export function nameSize(name) {
  const longest = Math.max(0, ...String(name || "").split(/\s+/).map((w) => w.length));
  return longest >= 13 ? ".long" : longest >= 10 ? ".longish" : "";
}
