// The card catalogue the server plays with, served at /play/catalogue.json
// (config/cards/catalogue.json, or the server's `catalogue` setting).

export class Catalogue {
  constructor(json) {
    this.cards = new Map();
    for (const c of json.cards || []) this.cards.set(c.id, c);
    this.abilities = new Map();
    for (const a of json.abilities || []) this.abilities.set(a.id, a);
    this.decks = json.preconstructed_decks || {};
    this.packs = json.packs || [];
  }

  static async load(url = "/play/catalogue.json") {
    const res = await fetch(url);
    if (!res.ok) throw new Error(`cannot load the card catalogue (${res.status})`);
    return new Catalogue(await res.json());
  }

  // R15: a match played with its own cards (state.cards, the mutation
  // league's mutated cards) shows their values, not the catalogue's. Every
  // state sets them; a state without them clears them.
  setMatchCards(list) {
    this.own = new Map();
    for (const c of list || []) this.own.set(c.id, c);
  }

  card(id) {
    return (id && ((this.own && this.own.get(id)) || this.cards.get(id))) || null;
  }

  // The printed card, whatever the last match played with (a league's lab
  // and packets are printed cards, R15.4).
  printed(id) {
    return (id && this.cards.get(id)) || null;
  }

  name(id) {
    if (id === null || id === undefined) return "a hidden card";
    const c = this.card(id);
    return (c && (c.name || c.name_fr)) || id;
  }

  cost(id) {
    const c = this.card(id);
    return c ? c.mana : null;
  }

  isIncantation(id) {
    const c = this.card(id);
    return !!c && c.type === "incantation";
  }

  hasAbility(id, ability) {
    const c = this.card(id);
    return !!c && c.abilities.some((a) => a.ability === ability);
  }

  // The ability's text for a player: the printed English text as the rules
  // the server enforces read it (RULING_TEXTS where the print says less or
  // else), its *owner* markup said in words.
  abilityText(ability) {
    const a = this.abilities.get(ability);
    const text = RULING_TEXTS[ability] || (a && (a.text_en || a.text_fr)) || "";
    return text.replace(/\*owner\*/g, "this card").replace(/\bThe this card\b/g, "This card").replace(/\bthe this card\b/g, "this card");
  }

  packName(id) {
    const p = this.packs.find((x) => x.id === id);
    return (p && (p.name_en || p.name_fr)) || id;
  }

  packSize(id) {
    let n = 0;
    for (const c of this.cards.values()) if (c.pack === id) n++;
    return n;
  }

  creatures() {
    return [...this.cards.values()].filter((c) => c.type === "creature");
  }

  deckCards(n) {
    return this.decks[String(n)] || [];
  }
}

// Where the English print and docs/rules.md differ, the rules' reading (the
// server plays by it). Protection: the print says "during your turn"; the
// Korean Season 3 and French texts, and the rules, say each turn (RULING:
// every player's turn, reset at each turn's start).
const RULING_TEXTS = {
  protection: "Each turn (every player's turn), reduce the first source of Damage targeting *owner* to 0. " +
    "Sources of Damage include any Creature or Incantation dealing at least 1 Damage. Effects from that source " +
    "are still triggered (Splash, Perforation, etc.) and dealt to other Creatures as normal.",
};

// "price_of_blood" -> "Price of Blood"
export function abilityLabel(ability) {
  const small = new Set(["of", "the"]);
  return ability
    .split("_")
    .map((w, i) => (i > 0 && small.has(w) ? w : w.charAt(0).toUpperCase() + w.slice(1)))
    .join(" ");
}
