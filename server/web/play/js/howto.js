// The how-to-play page, in plain words, each point with its rule id in
// docs/rules.md: a modal dialog from the header's button (words.js
// HOW_TO_PLAY_OPEN), on every screen. Loaded by app.js on first use, so
// that the first visit does not pay for it (as league.js).
import { h } from "./dom.js";
import { TURN_WORDS } from "./turn.js";

export const HOW_TO_PLAY = {
  title: "How to play Clash of Decks",
  close: "Close",
  rulesNote: "Rule ids (R1.5, ...) point to docs/rules.md, the rules the server plays by.",
  sections: [
    ["Your hand and your Stronghold", [
      "Your hand is a row of cards, left to right, with your Stronghold among them. The order matters: only you see it, except where your Stronghold stands (R1.4).",
      "Your health is the number of cards to the right of your Stronghold (R1.5). The game starts with the Stronghold at the left end, Bastion side up: health 8 (R2.3).",
    ]],
    ["Each turn", [
      "Mana: at the start of your turn you get as much mana as you hold cards, the Stronghold included (the first player's first turn: 6). Unspent mana is lost at the end of the turn (R3.1).",
      "Summoning: only the 4 leftmost cards of your hand, not counting the Stronghold, can be played, as mana allows (R3.2.1, R3.2.2). The fifth card becomes the fourth at once.",
      "The central rule: playing a card that stood right of your Stronghold costs you 1 health; playing one that stood left of it costs none (R3.2.6). The game shows what each play costs before you make it.",
      "A creature goes on your upper or lower line, behind your creatures already there (R3.2.3). An incantation hits one creature, then comes back to the right end of your hand (R3.2.4). A play may never leave your Stronghold alone in your hand (R3.2.5).",
    ]],
    ["The two lines and the Bridge", [
      "The board has two lines, upper and lower, each with a Bridge in the middle: your creatures on one side, your opponent's on the other (R1.3).",
      "Assault: after summoning, each of your creatures that was already in play attacks once, the upper line first, from the one furthest from the Bridge to the closest (R3.3, R3.3.1).",
      "A creature hits the enemy creature closest to the Bridge on its line; with none there, it hits the enemy Stronghold (R3.3.2). Nobody strikes back (R3.3.3); creatures that survive heal at the end of the turn (R3.4).",
    ]],
    ["Damage and how you win", [
      "A destroyed creature goes back to the right end of its owner's hand (R4.1, R4.2; Mercenary and Cursed change where): a card right of the Stronghold again, one health more.",
      "Each point of damage to a Stronghold moves it one place to the right in its owner's hand: one health less (R4.4).",
      "When a Bastion reaches the right end it turns to its Fort side and goes back to the left end: the first life is lost (R4.5).",
      "You win when the enemy Fort reaches the right end of its hand, or when the enemy Stronghold is the only card left in its hand (R4.6, R4.7).",
      "Against the AI (solo): the AI has no hand but a deck, its health; each point of damage to its Stronghold discards a card of its deck. When the deck runs out its Bastion turns to its Fort side on a new deck of its discards; you win when that deck is empty too (R12.5, R12.6).",
    ]],
    ["The keyboard", [TURN_WORDS.keys]],
  ],
};

// Opens the dialog (built once); Escape or Close shuts it and the focus goes
// back to what had it.
export function openHowToPlay() {
  let dlg = document.getElementById("howto");
  if (!dlg) {
    const W = HOW_TO_PLAY;
    dlg = h("dialog#howto", { "aria-labelledby": "howto-title" },
      // Opened at its top: the focus goes to the title, not to Close at the end.
      h("h2#howto-title", { tabindex: "-1", autofocus: true }, W.title),
      W.sections.map(([title, paras]) => h("section", {}, h("h3", {}, title), paras.map((t) => h("p", {}, t)))),
      h("p.note", {}, W.rulesNote),
      h("form", { method: "dialog" }, h("button#howto-close", {}, W.close)));
    document.body.append(dlg);
  }
  if (!dlg.open) dlg.showModal();
}
