// A match's own cards (R15: the mutation league's mutated cards;
// match_record::cards_json, docs/persistence.md "A match's own cards"):
// definitions that replace the catalogue's cards of the same id, or join the
// catalogue when it no longer has them, for one match only. Card ids stay
// those of the catalogue, so decks, logs and views read the same.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "cod/engine/catalogue.hpp"
#include "common/status.hpp"

namespace cod::server {

// The catalogue a match with these definitions plays with. `cards_json` is
// a JSON array of cards in the catalogue's format (protocol/card_json.hpp);
// invalid, with a sentence naming the card and field, when one cannot be
// read or breaks the catalogue's checks.
result<std::shared_ptr<const catalogue>> match_catalogue(const catalogue& base, std::string_view cards_json);

// The text stored for a match's own cards ("" for none).
std::string match_cards_json(const std::vector<card_def>& defs);

}  // namespace cod::server
