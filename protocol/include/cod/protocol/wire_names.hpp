// Wire names for the engine enums that have no name function in the engine.
// Call them qualified (protocol::phase_name): if the engine grows its own
// cod::phase_name, unqualified calls would become ambiguous through ADL.
#pragma once

#include <optional>
#include <string_view>

#include "cod/engine/state.hpp"
#include "cod/engine/types.hpp"

namespace cod::protocol {

std::string_view phase_name(phase p);            // "summoning" | "game_over"
std::string_view end_reason_name(end_reason r);  // "none" | "fort_destroyed" | ...

// A seat's own lines as actions name them: 0 "upper", 1 "lower" (R3.3.1).
std::string_view seat_line_name(int line);  // "" for anything else
std::optional<int> seat_line_from_name(std::string_view name);

// Who a view is for: "player" (viewer is a seat), "spectator" or "referee".
std::string_view viewer_role_name(seat_t viewer);

}  // namespace cod::protocol
