#include "cod/protocol/wire_names.hpp"

#include "cod/engine/view.hpp"

namespace cod::protocol {

std::string_view phase_name(phase p) {
  switch (p) {
    case phase::summoning: return "summoning";
    case phase::game_over: return "game_over";
  }
  return "?";
}

std::string_view end_reason_name(end_reason r) {
  switch (r) {
    case end_reason::none: return "none";
    case end_reason::fort_destroyed: return "fort_destroyed";
    case end_reason::stronghold_alone: return "stronghold_alone";
    case end_reason::concession: return "concession";
  }
  return "?";
}

std::string_view seat_line_name(int line) {
  switch (line) {
    case 0: return "upper";
    case 1: return "lower";
    default: return "";
  }
}

std::optional<int> seat_line_from_name(std::string_view name) {
  if (name == "upper") return 0;
  if (name == "lower") return 1;
  return std::nullopt;
}

std::string_view viewer_role_name(seat_t viewer) {
  if (viewer == referee) return "referee";
  if (viewer >= 0) return "player";
  return "spectator";
}

}  // namespace cod::protocol
