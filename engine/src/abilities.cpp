// What a creature is where it stands: its cards (R7 Symbiote), its abilities
// with Auras (R7 Aura, R6.2), its attack value; and the seat-wide abilities
// that change what may be played (R7 Blackmail, Lucidity, Catalyst).
#include "internal.hpp"

namespace cod::detail {

seat_t enemy_of(const game_state& s, const place& p) { return s.lines[p.line].sides[1 - p.side].seat; }

int which_line(const game_state& s, const place& p) {
  const seat_t owner = s.lines[p.line].sides[p.side].seat;
  return s.seats[owner].lines[0].line == p.line ? 0 : 1;
}

int count_with(const catalogue& cat, const game_state& s, seat_t seat, ability a) {
  if (!has(s.present, a)) return 0;
  int n = 0;
  for (const seat_lines& sl : s.seats[seat].lines) {
    const line_side& ls = s.lines[sl.line].sides[sl.side];
    for (int i = 0; i < ls.count; ++i)
      if (has(abilities_at(cat, s, {sl.line, sl.side, i}), a)) ++n;
  }
  return n;
}

int playable_count(const catalogue& cat, const game_state& s, seat_t seat) {
  const int in_hand = s.seats[seat].hand.count;
  int n = in_hand < 4 ? in_hand : 4;  // R3.2.1
  // R7 Blackmail, R17.10: each Blackmail creature blocks the rightmost playable
  // card; never fewer than 1.
  n -= count_with(cat, s, seat, ability::blackmail);
  return n < 1 ? (in_hand > 0 ? 1 : 0) : n;
}

int play_cost(const catalogue& cat, const game_state& s, seat_t seat, int i) {
  const card_stats& st = cat.stats(s.uid_card[s.seats[seat].hand.cards[i]]);
  int cost = st.mana;
  // R7 Lucidity: 2 less as the leftmost Creature/Incantation of the hand.
  if (i == 0 && has(st.abilities, ability::lucidity)) cost -= 2;
  return cost > 0 ? cost : 0;
}

int enter_line(ctx& c, seat_t seat, int line, int side, card_uid u) {
  line_side& ls = c.side_at(line, side);
  const int pos = ls.count;
  ls.slots[pos] = creature{};
  ls.slots[pos].uid = u;
  ls.slots[pos].entered_this_turn = true;
  ++ls.count;
  c.emit({.type = event_type::creature_entered, .seat = seat, .uid = u,
          .line = static_cast<std::int8_t>(line), .side = static_cast<std::int8_t>(side),
          .to = static_cast<std::int16_t>(pos)});
  return pos;
}

}  // namespace cod::detail
