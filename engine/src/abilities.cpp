// What a creature is where it stands: its cards (R7 Symbiote), its abilities
// with Auras (R7 Aura, R6.2), its attack value; and the seat-wide abilities
// that change what may be played (R7 Blackmail, Lucidity, Catalyst).
#include "internal.hpp"

namespace cod::detail {

void refresh_all_abilities(const catalogue& cat, game_state& s) {
  for (int l = 0; l < s.line_count; ++l)
    for (int d = 0; d < 2; ++d) refresh_abilities(cat, s, l, d);
}

int enter_line(ctx& c, seat_t seat, int line, int side, card_uid u) {
  line_side& ls = c.side_at(line, side);
  const int pos = ls.count;
  ls.slots[pos] = creature{};
  ls.slots[pos].uid = u;
  ls.slots[pos].entered_this_turn = true;
  ++ls.count;
  refresh_after_entry(c.cat, c.s, line, side);
  c.emit({.type = event_type::creature_entered, .seat = seat, .uid = u,
          .line = static_cast<std::int8_t>(line), .side = static_cast<std::int8_t>(side),
          .to = static_cast<std::int16_t>(pos)});
  return pos;
}

}  // namespace cod::detail
