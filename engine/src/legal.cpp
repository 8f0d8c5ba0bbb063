// Legal-action generation: every play check() accepts, plus end_turn; and
// what a play would leave its seat (a client's preview).
#include "cod/engine/match.hpp"
#include "internal.hpp"

namespace cod {

void match::legal_actions(std::vector<action>& list) const {
  list.resize(max_legal_actions);
  list.resize(static_cast<std::size_t>(legal_actions(list.data(), max_legal_actions)));
}

int match::legal_actions(action* out, int capacity) const {
  const game_state& s = state_;
  if (s.current_phase == phase::game_over) return 0;
  const seat_t seat = s.active_seat;
  const seat_state& me = s.seats[seat];
  // At most 4 cards and the Champion x (2 lines + every creature as host or target), plus end_turn.
  int in_play = 0;
  for (int l = 0; l < s.line_count; ++l) in_play += s.lines[l].sides[0].count + s.lines[l].sides[1].count;
  if (capacity < 5 * (in_play + 2) + 1) return 0;
  int n = 0;
  // A creature (from the hand, or the Champion) on either line, or a Symbiote on a host.
  // (Always inlined: this runs for every card on every move of self-play.)
  auto creature_plays = [&](card_uid u, const card_stats& st) __attribute__((always_inline)) {
    for (int which = 0; which < 2; ++which) {
      const seat_lines& where = me.lines[which];
      const line_side& ls = s.lines[where.line].sides[where.side];
      if (ls.count < max_side) out[n++] = action::play_creature(seat, u, which);
      // R7 Symbiote: or on top of an own creature without Symbiote.
      if (!has(st.abilities, ability::symbiote)) continue;
      for (int p = 0; p < ls.count; ++p)
        if (ls.slots[p].top == no_uid && !has(detail::own_abilities(*cat_, s, ls.slots[p]), ability::symbiote))
          out[n++] = action::play_symbiote(seat, u, which, ls.slots[p].uid);
    }
  };
  const int playable = detail::playable_count(*cat_, s, seat);  // R3.2.1, R7 Blackmail
  for (int i = 0; i < playable; ++i) {
    const card_uid u = me.hand.cards[i];
    const card_stats& st = cat_->stats(s.uid_card[u]);
    // R3.2.2, R7 Lucidity, R7 Price of Blood.
    if (detail::play_cost(*cat_, s, seat, i) > me.mana && !has(st.abilities, ability::price_of_blood)) continue;
    if (st.type == card_type::creature) {
      if (me.hand.count == 1) continue;  // R3.2.5
      creature_plays(u, st);
    } else {
      if (me.hand.count == 1 && has(st.abilities, ability::mercenary)) continue;  // R3.2.5, R17.13
      // R3.2.4: any creature in play, own or enemy.
      for (int l = 0; l < s.line_count; ++l)
        for (const line_side& ls : s.lines[l].sides)
          for (int p = 0; p < ls.count; ++p) out[n++] = action::play_incantation(seat, u, ls.slots[p].uid);
    }
  }
  // R13.2: a ready Champion, always playable (RULINGs E34, E35), at its reduced cost.
  if (me.champion_state == champion_status::ready) {
    const card_stats& st = cat_->stats(s.uid_card[me.champion]);
    if (detail::champion_cost(*cat_, s, seat) <= me.mana || has(st.abilities, ability::price_of_blood))
      creature_plays(me.champion, st);
  }
  out[n++] = action::end(seat);
  return n;
}

std::optional<match::play_outcome> match::outcome(const action& a) const {
  match copy = *this;
  std::vector<event> events;
  if (copy.apply(a, events) != rule_error::ok) return std::nullopt;
  const seat_state& me = copy.state_.seats[a.seat];
  return play_outcome{me.mana, me.hand.health()};
}

}  // namespace cod
