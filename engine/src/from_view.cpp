// match::from_view: a world a seat's view could be (R16.2), for players that
// search. Everything public comes from the view as it is; only the hands the
// viewer cannot see are the caller's choice.
#include "cod/engine/match.hpp"

#include "internal.hpp"

namespace cod {

namespace {

// R3.1: turns a seat has started, from the turn order (seat order from the
// first seat) and the first player's turn count: a seat at or before the
// active one in this round has started `round` turns, a later one one fewer.
int turns_taken_of(const seat_view& v, int seat) {
  const int n = static_cast<int>(v.seats.size());
  const int order = (seat - v.first_seat + n) % n;
  const int active = (v.active_seat - v.first_seat + n) % n;
  return order <= active ? v.round : v.round - 1;
}

}  // namespace

rule_error match::from_view(const catalogue& cat, const seat_view& v,
                            const std::array<std::vector<card_ref>, max_seats>& hands, std::uint64_t seed,
                            match& out) {
  if (v.mode != game_mode::duel && v.mode != game_mode::ffa && v.mode != game_mode::two_vs_two)
    return rule_error::bad_setup;
  if (static_cast<int>(v.seats.size()) != seats_of(v.mode) || v.current_phase != phase::summoning)
    return rule_error::bad_setup;
  if (v.stall_exhaustion_turn < 0 || v.stall_exhaustion_turn > max_stall_exhaustion_turn)
    return rule_error::bad_setup;
  match m;
  m.cat_ = &cat;
  game_state& s = m.state_;
  detail::lay_out(s, v.mode);
  if (static_cast<int>(v.lines.size()) != s.line_count) return rule_error::bad_setup;
  s.exhaustion_rule = v.exhaustion_rule;
  s.stall_exhaustion_turn = static_cast<std::uint16_t>(v.stall_exhaustion_turn);
  s.share_team_hands = v.share_team_hands;
  s.random = rng(seed);
  s.first_seat = v.first_seat;
  s.active_seat = v.active_seat;
  s.turn = static_cast<std::uint16_t>(v.turn);
  s.round = static_cast<std::uint16_t>(v.round);
  if (v.first_seat < 0 || v.first_seat >= s.seat_count || v.active_seat < 0 || v.active_seat >= s.seat_count ||
      v.round < 1 || v.turn < v.round)
    return rule_error::bad_setup;

  // Every card keeps its uid; each uid is given once.
  std::array<bool, max_uids> used{};
  int uid_count = 0;
  bool clash = false;
  // R13.1: a Champion has its uid in its seat's record, and may stand in
  // play as well, alone or on a host (R7 Symbiote): it is placed once.
  std::array<card_uid, max_seats> champions{no_uid, no_uid, no_uid, no_uid};
  for (std::size_t seat = 0; seat < v.seats.size() && seat < max_seats; ++seat)
    champions[seat] = v.seats[seat].champion.uid;
  auto is_champion = [&](card_uid u) {
    return u != no_uid && (u == champions[0] || u == champions[1] || u == champions[2] || u == champions[3]);
  };
  auto place = [&](const card_ref& r) {
    if (is_champion(r.uid) && used[r.uid]) return r.uid;
    if (r.uid == no_uid || r.uid >= max_uids || used[r.uid] || r.card >= cat.size()) {
      clash = true;
      return no_uid;
    }
    used[r.uid] = true;
    s.uid_card[r.uid] = r.card;
    s.uid_stats[r.uid] = cat.stats(r.card);
    s.uid_origin[r.uid] = no_seat;  // not in any view; only digests read it
    if (r.uid + 1 > uid_count) uid_count = r.uid + 1;
    return r.uid;
  };

  for (int seat = 0; seat < s.seat_count; ++seat) {
    const seat_public& p = v.seats[seat];
    seat_state& st = s.seats[seat];
    const auto& hand = hands[seat];
    if (p.ai || static_cast<int>(hand.size()) != p.hand_size || p.hand_size > max_hand ||
        p.stronghold_pos < 0 || p.stronghold_pos >= p.hand_size || p.upper_line != st.lines[0].line ||
        p.lower_line != st.lines[1].line)
      return rule_error::bad_setup;
    for (const card_ref& r : hand) st.hand.cards[st.hand.count++] = place(r);
    st.hand.stronghold_pos = static_cast<std::uint8_t>(p.stronghold_pos);
    st.hand.side = p.side;
    st.mana = static_cast<std::int16_t>(p.mana);
    st.turns_taken = static_cast<std::uint16_t>(turns_taken_of(v, seat));
    if (p.champion.uid != no_uid) {
      st.champion = place({p.champion.uid, p.champion.card});
      st.champion_state = p.champion.state;
    }
  }
  for (int l = 0; l < s.line_count; ++l)
    for (int d = 0; d < 2; ++d) {
      const side_view& sv = v.lines[l].sides[d];
      line_side& ls = s.lines[l].sides[d];
      if (sv.seat != ls.seat || sv.creatures.size() > max_side) return rule_error::bad_setup;
      for (const creature_view& cv : sv.creatures) {
        creature& cr = ls.slots[ls.count++];
        cr.uid = place({cv.uid, cv.card});
        if (cv.top.uid != no_uid) cr.top = place(cv.top);
        if (cv.chained.size() > 2 || cv.chained_from.size() != cv.chained.size()) return rule_error::bad_setup;
        for (std::size_t k = 0; k < cv.chained.size(); ++k) {
          cr.chained[k] = place(cv.chained[k]);
          cr.chained_from[k] = cv.chained_from[k];
        }
        if (cv.damage < 0 || cv.damage > 255 || cv.bonus_av < -128 || cv.bonus_av > 127)
          return rule_error::bad_setup;
        cr.damage = static_cast<std::uint8_t>(cv.damage);
        cr.bonus_av = static_cast<std::int8_t>(cv.bonus_av);
        cr.entered_this_turn = cv.entered_this_turn;
        cr.attacked = cv.attacked;
        cr.protection_used = cv.protection_used;
        if (cv.sharpening_spent && cr.uid != no_uid)
          s.sharpening_used[cr.uid / 64] |= std::uint64_t{1} << (cr.uid % 64);
      }
    }
  for (const card_ref& r : v.removed) s.removed[s.removed_count++] = place(r);
  if (clash) return rule_error::bad_setup;
  for (int u = 0; u < uid_count; ++u)
    if (!used[u]) return rule_error::bad_setup;
  s.uid_count = static_cast<std::uint8_t>(uid_count);
  for (int u = 0; u < uid_count; ++u) s.present |= cat.stats(s.uid_card[u]).abilities | cat.stats(s.uid_card[u]).auras;
  detail::refresh_all_abilities(s);
  out = m;
  return rule_error::ok;
}

}  // namespace cod
