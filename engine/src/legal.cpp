// Legal-action generation: every play check() accepts, plus end_turn.
#include "cod/engine/match.hpp"
#include "internal.hpp"

namespace cod {

void match::legal_actions(std::vector<action>& list) const {
  list.clear();
  const game_state& s = state_;
  if (s.current_phase == phase::game_over) return;
  const seat_t seat = s.active_seat;
  const seat_state& me = s.seats[seat];
  // Written through a raw pointer into room sized for the worst case: this
  // runs once per move in every self-play game.
  int in_play = 0;
  for (int l = 0; l < s.line_count; ++l) in_play += s.lines[l].sides[0].count + s.lines[l].sides[1].count;
  list.resize(static_cast<std::size_t>(4 * (in_play > 2 ? in_play : 2) + 1));
  action* out = list.data();
  int n = 0;
  const int playable = me.hand.count < 4 ? me.hand.count : 4;  // R3.2.1
  for (int i = 0; i < playable; ++i) {
    const card_uid u = me.hand.cards[i];
    const card_stats& st = cat_->stats(s.uid_card[u]);
    if (st.mana > me.mana) continue;  // R3.2.2
    if (st.type == card_type::creature) {
      if (me.hand.count == 1) continue;  // R3.2.5
      for (int which = 0; which < 2; ++which) {
        const seat_lines& where = me.lines[which];
        if (s.lines[where.line].sides[where.side].count < max_side)
          out[n++] = action::play_creature(seat, u, which);
      }
    } else {
      // R3.2.4: any creature in play, own or enemy.
      for (int l = 0; l < s.line_count; ++l)
        for (const line_side& ls : s.lines[l].sides)
          for (int p = 0; p < ls.count; ++p)
            out[n++] = action::play_incantation(seat, u, ls.slots[p].uid);
    }
  }
  out[n++] = action::end(seat);
  list.resize(static_cast<std::size_t>(n));
}

}  // namespace cod
