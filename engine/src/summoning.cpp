// Phase 2, summoning: R3.2 (what may be played) and R5.2 (how a play
// resolves, step by step).
#include "internal.hpp"

#include "cod/engine/action.hpp"

namespace cod::detail {

namespace {

// R5.2 for a creature: steps 1 (pay), 3 (leaves the hand, enters its line,
// R17.11), then the R4.5/R4.6 check of the hand change.
void play_creature(ctx& c, const action& a, int index) {
  game_state& s = c.s;
  seat_state& me = s.seats[a.seat];
  const card_uid u = a.card;
  me.mana = static_cast<std::int16_t>(me.mana - c.stats(u).mana);
  const seat_lines where = me.lines[a.line];
  take_from_hand(s, a.seat, index);
  c.emit({.type = event_type::card_played, .seat = a.seat, .uid = u,
          .line = static_cast<std::int8_t>(where.line), .from = static_cast<std::int16_t>(index)});
  enter_line(c, a.seat, where.line, where.side, u);
  check_stronghold(c, a.seat);  // R4.7
}

// R5.2 for an incantation: 1 pay, 3 leave the hand, 4 targets (Splash,
// Perforation), 8 compute damage, 9 deal damage (Protection,
// Indestructible), 11 destroyed creatures return, 12 close gaps, 16 the
// incantation returns to the rightmost position (R3.2.4).
void play_incantation(ctx& c, const action& a, int index) {
  game_state& s = c.s;
  seat_state& me = s.seats[a.seat];
  const card_uid u = a.card;
  const card_stats& st = c.stats(u);
  me.mana = static_cast<std::int16_t>(me.mana - st.mana);
  const place primary = find_creature(s, a.target);
  take_from_hand(s, a.seat, index);
  c.emit({.type = event_type::card_played, .seat = a.seat, .uid = u, .target = a.target,
          .line = static_cast<std::int8_t>(primary.line),
          .from = static_cast<std::int16_t>(index)});
  // RULING E1 (docs/rulings.md): the incantation in flight still counts as in
  // hand for R4.5/R4.6; the hand is checked once it is back (R17.13).
  const hit_list hits = targets_around(c, primary, st.abilities);
  deal_damage(c, u, hits, st.av, /*from_incantation=*/true);
  if (c.over()) return;
  return_to_hand(c, a.seat, u);
  check_stronghold(c, a.seat);
}

}  // namespace

void resolve_play(ctx& c, const action& a) {
  const int index = hand_index(c.s, a.seat, a.card);
  if (c.stats(a.card).type == card_type::creature)
    play_creature(c, a, index);
  else
    play_incantation(c, a, index);
}

}  // namespace cod::detail
