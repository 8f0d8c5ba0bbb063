// The card catalogue the server plays with, served at /play/catalogue.json
// (config/cards/catalogue.json, or the server's `catalogue` setting).

const PACK_EN = { sournoiserie: "Sneakiness", belligerance: "Belligerence", enlisement: "Bogging Down", dissension: "Dissension" };

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
    return text.replace(/\*owner\*/g, "this card").replace(/^this card/, "This card").replace(/\bThe this card\b/g, "This card").replace(/\bthe this card\b/g, "this card");
  }

  // PACK_EN: packs with no known English name (cards-research.md), in English.
  packName(id) {
    const p = this.packs.find((x) => x.id === id);
    return (p && (p.name_en || PACK_EN[id] || p.name_fr)) || id;
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
  // The print says the excess goes on every kill; the rules (R7, R17.9): the
  // first kill of each turn only, and to the destroyed creature's owner.
  sharpening: "Each turn, the first time *owner* deals enough Damage to destroy a Creature, the excess Damage goes to " +
    "the destroyed Creature's owner's Stronghold, in a single instance even if one attack destroyed several " +
    "(Splash, Perforation). A Creature with Protection gives no excess: its Damage is reduced to 0.",
  // R17.3: X counts the target's remaining health, not its printed HP.
  vulnerability: "AV X: *owner* deals X Damage, where X = the target's remaining health − 1 (printed HP − Damage taken − 1), " +
    "so the target is left at 1. With Splash or Perforation X is counted for each target; Sprint and Aquatic bonuses " +
    "add to X against Creatures. Against a Stronghold: it moves to the second-rightmost position of its hand, " +
    "without turning over.",
  indestructible: "*owner* takes no Damage and no effect from Incantations or from Backfire (it can still be targeted).",
  lucidity: "If *owner* is the leftmost Creature or Incantation in its owner's hand, it costs 2 less Mana.",
  blackmail: "As long as *owner* is in play, its owner cannot play the rightmost of their playable cards " +
    "(never fewer than 1 playable card).",
  // No English print (the French one, or none): the rules' text (R7).
  backfire: "When *owner* enters play, it deals Damage to the enemy Creature closest to the Bridge on its line, " +
    "equal to the number of cards left of the Stronghold in its owner's hand.",
  counterorder: "When *owner* is played, its owner moves the leftmost Creature or Incantation of their hand to the " +
    "rightmost position.",
  immolation: "While *owner* is in play, whenever anyone plays a card on its line (Incantations included), that " +
    "player's Stronghold takes 1 Damage.",
  reinforcement: "When *owner* returns to its owner's hand, play at once for free, on the line it was on, the leftmost " +
    "Creature of that hand that costs 4 or less and does not have Reinforcement.",
  chain: "When *owner* is played, take the leftmost Creature or Incantation of the enemy's hand (four players: the " +
    "player across the line), reveal it and keep it face down under *owner*. When *owner* takes at least 1 Damage, " +
    "that card returns to the rightmost position of the hand it came from.",
  cursed: "When *owner* returns to its owner's hand, it goes to the leftmost position instead of the rightmost.",
};

// A creature whose attack value is X (null in the catalogue): what X is
// (Vulnerability, R7 and R17.3), said on its card face.
export const AV_X_TEXT = "AV X = the target's remaining health − 1: this creature leaves what it attacks at 1 health " +
  "(Vulnerability, R17.3). Against a Stronghold it moves it to the second-rightmost position of its hand.";

// An Aura (R7): the ability is given to the neighbours, not to the card.
export const AURA_TEXT = "Aura: adjacent creatures on the same side of the same line (positions ±1) have this ability; " +
  "this card does not. Lost as soon as this card moves or leaves play.";

// "price_of_blood" -> "Price of Blood"
export function abilityLabel(ability) {
  const small = new Set(["of", "the"]);
  return ability
    .split("_")
    .map((w, i) => (i > 0 && small.has(w) ? w : w.charAt(0).toUpperCase() + w.slice(1)))
    .join(" ");
}
