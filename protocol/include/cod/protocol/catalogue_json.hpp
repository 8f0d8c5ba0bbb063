// Loads card catalogues from JSON into cod::catalogue (the engine never reads
// files, catalogue.hpp).
//
// Accepted documents:
//   - the shipped catalogue: an object with "cards" (an array of cards in the
//     card_json.hpp format); its other keys are documentation and are ignored,
//     except "preconstructed_decks" ({"1": [ids...], ..., "4": [...]}), which
//     must agree with the cards' "deck" fields;
//   - a bare array of cards, for custom card files that hold just a few.
// Loading a second document into the same catalogue adds its cards, so custom
// cards sit beside the shipped ones (an id already present is an error).
//
// All or nothing: on error `into` is left as it was. Never throws.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "cod/engine/catalogue.hpp"

namespace cod::protocol {

// Errors name the card by id ("#N", its 0-based index in "cards", when it has
// no usable id) and the field. Document-level errors have card "" and field
// "json" (malformed JSON) or "cards" (wrong shape).
std::optional<catalogue_error> load_catalogue_json(std::string_view text, catalogue& into);

// As load_catalogue_json; a file that cannot be read gives card "", field "file".
std::optional<catalogue_error> load_catalogue_file(const std::string& path, catalogue& into);

}  // namespace cod::protocol
