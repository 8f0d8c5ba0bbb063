// Legal-action generation: every play check() accepts, plus end_turn; and
// what a play would leave its seat (a client's preview).
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "cod/engine/match.hpp"
#include "internal.hpp"

namespace cod {

void match::legal_actions(std::vector<action>& list) const {
  list.resize(max_legal_actions);
  list.resize(static_cast<std::size_t>(legal_actions(list.data(), max_legal_actions)));
}

namespace {

// A play as one 8-byte word, written with one store. An action is 6 bytes,
// so a word's last 2 bytes land on the next slot of the list, which is
// always written after it: the list ends with end_turn, stored as an action.
static_assert(sizeof(action) == 6);
static_assert(std::endian::native == std::endian::little || std::endian::native == std::endian::big);
// The seat's plays with card and target 0, made once per list; a play is
// then its word with the card's (and target's) byte set.
struct action_word {
  std::uint64_t w = 0;
  explicit action_word(const action& a) { std::memcpy(&w, &a, sizeof a); }
  template <std::size_t byte>
  static std::uint64_t at(card_uid value) {
    return std::uint64_t{value} << 8 * (std::endian::native == std::endian::little ? byte : 7 - byte);
  }
  std::uint64_t of(card_uid card) const { return w | at<offsetof(action, card)>(card); }
  std::uint64_t of(card_uid card, card_uid target) const { return of(card) | at<offsetof(action, target)>(target); }
};
void put(action* at, std::uint64_t w) { std::memcpy(static_cast<void*>(at), &w, sizeof w); }

}  // namespace

int match::legal_actions(action* out, int capacity) const {
  const game_state& s = state_;
  if (s.current_phase == phase::game_over) return 0;
  const seat_t seat = s.active_seat;
  const seat_state& me = s.seats[seat];
  // At most 4 cards and the Champion x (2 lines + every creature as host or
  // target), plus end_turn: max_legal_actions holds any board's.
  if (capacity < max_legal_actions) {
    int in_play = 0;
    for (int l = 0; l < s.line_count; ++l) in_play += s.lines[l].sides[0].count + s.lines[l].sides[1].count;
    if (capacity < 5 * (in_play + 2) + 1) return 0;
  }
  int n = 0;
  // (Read before the first write: `out` may alias anything, so whatever is
  // read after a write is read again.)
  const line_side& upper = s.lines[me.lines[0].line].sides[me.lines[0].side];
  const line_side& lower = s.lines[me.lines[1].line].sides[me.lines[1].side];
  const bool upper_open = upper.count < max_side;
  const bool lower_open = lower.count < max_side;
  const int mana = me.mana;
  const bool last_card = me.hand.count == 1;
  const action_word on_upper(action::play_creature(seat, 0, 0));
  const action_word on_lower(action::play_creature(seat, 0, 1));
  const action_word on_target(action::play_incantation(seat, 0, 0));
  // A creature (from the hand, or the Champion) on either line, or a Symbiote on a host.
  auto creature_plays = [&](card_uid u, const card_stats& st) {
    for (int which = 0; which < 2; ++which) {
      const line_side& ls = which == 0 ? upper : lower;
      if (ls.count < max_side) out[n++] = action::play_creature(seat, u, which);
      // R7 Symbiote: or on top of an own creature without Symbiote.
      if (!has(st.abilities, ability::symbiote)) continue;
      for (int p = 0; p < ls.count; ++p)
        if (ls.slots[p].top == no_uid && !has(detail::own_abilities(s, ls.slots[p]), ability::symbiote))
          out[n++] = action::play_symbiote(seat, u, which, ls.slots[p].uid);
    }
  };
  // R3.2.4: an incantation targets any creature in play, own or enemy, in
  // board order. Gathered once, at the first incantation that may be played:
  // the first four slots of a side whatever its count (past it a slot is
  // blank and the next side's overwrite it), then the rest.
  card_uid targets[max_lines * 2 * max_side + 8];
  std::memset(targets, 0, 8);  // (the eight always read)
  int n_targets = -1;
  auto gather_targets = [&] {
    n_targets = 0;
    for (int l = 0; l < s.line_count; ++l)
      for (const line_side& ls : s.lines[l].sides) {
        for (int p = 0; p < 4; ++p) targets[n_targets + p] = ls.slots[p].uid;
        for (int p = 4; p < ls.count; ++p) targets[n_targets + p] = ls.slots[p].uid;
        n_targets += ls.count;
      }
  };
  const int playable = detail::playable_count(s, seat);  // R3.2.1, R7 Blackmail
  // A creature's two line plays in one go while both lines have room (always,
  // in practice); otherwise, or for a Symbiote, creature_plays.
  const bool both_open = upper_open && lower_open;
  for (int i = 0; i < playable; ++i) {
    const card_uid u = me.hand.cards[i];
    const card_stats& st = s.uid_stats[u];
    // R3.2.2, R7 Lucidity (never below 0), R7 Price of Blood.
    int cost = st.mana;
    if (i == 0 && has(st.abilities, ability::lucidity)) cost = cost > 2 ? cost - 2 : 0;
    if (cost > mana && !has(st.abilities, ability::price_of_blood)) continue;
    if (st.type == card_type::creature) {
      if (last_card) continue;  // R3.2.5
      if (!both_open || has(st.abilities, ability::symbiote)) {
        creature_plays(u, st);
        continue;
      }
      put(out + n, on_upper.of(u));
      put(out + n + 1, on_lower.of(u));
      n += 2;
    } else {
      if (last_card && has(st.abilities, ability::mercenary)) continue;  // R3.2.5, R17.13
      if (n_targets < 0) gather_targets();
      // Eight in any case when the list has room past them (kept: n_targets).
      int k = 0;
      if (capacity - n > 9)
        for (; k < 8; ++k) put(out + n + k, on_target.of(u, targets[k]));
      for (; k < n_targets; ++k) put(out + n + k, on_target.of(u, targets[k]));
      n += n_targets;
    }
  }
  // R13.2: a ready Champion, always playable (RULINGs E34, E35), at its reduced cost.
  if (me.champion_state == champion_status::ready) {
    const card_stats& st = s.uid_stats[me.champion];
    if (detail::champion_cost(s, seat) <= mana || has(st.abilities, ability::price_of_blood))
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
