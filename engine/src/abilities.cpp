// What a creature is where it stands: its cards (R7 Symbiote), its abilities
// with Auras (R7 Aura, R6.2), its attack value; and the seat-wide abilities
// that change what may be played (R7 Blackmail, Lucidity, Catalyst).
#include "internal.hpp"

namespace cod::detail {

void refresh_all_abilities(game_state& s) {
  for (int l = 0; l < s.line_count; ++l)
    for (int d = 0; d < 2; ++d) refresh_abilities(s, l, d);
}
}  // namespace cod::detail
