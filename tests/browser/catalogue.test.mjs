// The web client's catalogue (server/web/play/js/catalogue.js) without a
// browser: a match's own cards (state.cards, R15) replace the catalogue's
// values for that match, and a state without them puts the catalogue back.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { Catalogue } from "../../server/web/play/js/catalogue.js";

const shipped = JSON.parse(readFileSync(new URL("../../config/cards/catalogue.json", import.meta.url)));

test("a match's own cards replace the catalogue's, until a state without them", () => {
  const cat = new Catalogue(shipped);
  const printed = cat.card("brute");
  assert.equal(printed.av, 5);
  const mutated = { ...printed, av: 9, mana: 2, abilities: [{ ability: "aerial", aura: false }] };
  cat.setMatchCards([mutated]);
  assert.equal(cat.card("brute").av, 9);
  assert.equal(cat.cost("brute"), 2);
  assert.equal(cat.hasAbility("brute", "aerial"), true);
  assert.equal(cat.card("troll").av, shipped.cards.find((c) => c.id === "troll").av);  // others unchanged
  cat.setMatchCards(undefined);
  assert.equal(cat.card("brute").av, 5);
  assert.equal(cat.cost("brute"), 4);
});
