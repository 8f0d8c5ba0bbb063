// One card as JSON, in the shipped catalogue's format (config/cards/catalogue.json).
//
//   {"id": "brute", "name": "BRUTE", "pack": "initiation", "type": "creature",
//    "mana": 4, "av": 5, "hp": 5, "abilities": [{"ability": "rage", "aura": false}],
//    "deck": 1}
//
// Required: id, name, type ("creature" | "incantation"), mana, av (an integer, or
// null for a printed "X": Vulnerability decides the damage), hp (an integer for
// a creature, null for an incantation), abilities (an array, possibly empty, of
// {"ability": name, "aura": bool}; "aura" defaults to false).
// Optional: pack (default "custom"), deck (1..4 for a preconstructed deck, default
// 0), and the catalogue's descriptive fields name_fr, name_verified, number, note,
// which are type-checked and dropped (card_def has no place for them).
// Any other key is an error, so a typo ("abilites") fails loudly instead of
// quietly making a vanilla card.
//
// Scenario files use the same format for inline custom cards.
#pragma once

#include <cstddef>
#include <optional>

#include <nlohmann/json_fwd.hpp>

#include "cod/engine/catalogue.hpp"

namespace cod::protocol {

struct card_result {
  card_def def;                          // meaningful only when ok()
  std::optional<catalogue_error> error;  // names the card and the field
  bool ok() const { return !error.has_value(); }
};

// Parses one card object. Checks the shape and types only: pass the result to
// catalogue::add, which checks the values (ranges, X with Vulnerability, ...).
// `index` names the card in errors ("#index", 0-based) until its id is known.
// Never throws.
card_result card_from_json(const nlohmann::json& j, std::size_t index = 0);

// The inverse of card_from_json (descriptive fields aside, which card_def lacks).
nlohmann::json card_to_json(const card_def& def);

// {"cards": [every card, in catalogue order]}: loads back with load_catalogue_json.
nlohmann::json catalogue_to_json(const catalogue& cat);

}  // namespace cod::protocol
