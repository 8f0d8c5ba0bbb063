// Display names (join's "name", a tournament's players and its own name):
// one check for every place a name comes in, so that the wire and the
// organiser API refuse the same names for the same reasons.
//
// Refused: text that is not UTF-8, control characters (C0, DEL and C1,
// U+0080-U+009F), bidirectional controls (U+061C, U+200E, U+200F,
// U+202A-U+202E, U+2066-U+2069: they reorder the text around a name, e.g.
// a lobby line or a standings table, and let one name pass for another),
// more than `max_chars` characters (code points), and names with nothing
// visible (only spaces, zero-width characters such as U+200B-U+200D, U+2060,
// U+FEFF, combining marks or variation selectors). Zero-width joiners inside
// a visible name stay allowed (emoji sequences, Persian, Indic scripts).
//
// Standard library only (library cod_names): the tournament library uses it
// without the JSON codec.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace cod::protocol {

// Why `name` is refused, as the end of a sentence whose subject the caller
// gives ("\"name\" " + it): "contains a bidirectional control character
// (U+202E)", "is empty", ...; nullopt when the name is fine.
std::optional<std::string> name_problem(std::string_view name, std::size_t max_chars);

}  // namespace cod::protocol
