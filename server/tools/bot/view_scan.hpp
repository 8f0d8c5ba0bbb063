// A turn_view (bot/moves.hpp) read straight from an `update` message's text,
// for cod-load: the load driver shares its machine with the server it
// measures, and building a JSON DOM of every update on its own turn was most
// of its CPU per action. One pass over the text with a small cursor that
// builds nothing: the fields candidate_moves needs are kept, everything else
// (events, stats, the clock...) is skipped.
//
// It is a fast path, not a parser to trust blindly: on anything it does not
// expect (a shape other than docs/protocol.md's, a number that is not a small
// integer, an escaped string where it compares or looks up text, a missing or
// repeated key, nesting deeper than 64, trailing bytes) it returns false and
// the caller parses the text with nlohmann instead, which then behaves as it
// always did. It checks the structure of what it skips (brackets, strings,
// literals, numbers' characters) but not UTF-8 inside skipped strings.
#pragma once

#include <string_view>

#include "bot/moves.hpp"
#include "cod/engine/catalogue.hpp"

namespace cod::bot {

// Fills `out` from the text of an `update` (or `state`) message: its "view"
// member, as turn_view_from_json(json::parse(text)["view"]) would. `out`'s
// vectors keep their capacity, so a caller that reuses one turn_view does
// not allocate once warm. False (and `out` unspecified) when the text is not
// what it expects.
bool scan_update_view(std::string_view text, const catalogue& cat, turn_view& out);

}  // namespace cod::bot
