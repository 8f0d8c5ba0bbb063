// match::check_invariants: what must hold between any two actions (every
// card in exactly one place: a hand, a line, under a Chain, removed, or, R13,
// a Champion beside the play area).
#include <array>

#include "cod/engine/match.hpp"
#include "internal.hpp"

namespace cod {

std::string match::check_invariants() const {
  const game_state& s = state_;
  std::array<int, max_uids> seen{};
  auto see = [&](card_uid u) -> bool {
    if (u >= s.uid_count) return false;
    ++seen[u];
    return true;
  };
  for (int seat = 0; seat < s.seat_count; ++seat) {
    const hand_state& h = s.seats[seat].hand;
    if (s.ai(static_cast<seat_t>(seat))) {
      // R12.1: an AI holds no hand; its cards are in its piles. R12.6: an
      // empty deck on the Fort ends the game; on the Bastion it is rebuilt (R12.5).
      const std::string who = "AI seat " + std::to_string(seat) + ": ";
      const ai_pile& p = s.pile(static_cast<seat_t>(seat));
      if (h.count != 0 || h.stronghold_pos != 0) return who + "holds a hand";
      if (s.current_phase != phase::game_over && p.deck_count == 0) return who + "empty deck and the game goes on";
      for (int i = 0; i < p.deck_count; ++i)
        if (!see(p.deck[i])) return who + "unknown card in the deck";
      for (int i = 0; i < p.discard_count; ++i)
        if (!see(p.discard[i])) return who + "unknown card in the discard pile";
      if (s.seats[seat].champion != no_uid) return who + "has a Champion";
      continue;
    }
    if (h.count > max_hand) return "seat " + std::to_string(seat) + ": hand over capacity";
    if (h.stronghold_pos > h.count) return "seat " + std::to_string(seat) + ": Stronghold past the hand";
    if (s.current_phase != phase::game_over && h.stronghold_pos == h.count)
      return "seat " + std::to_string(seat) + ": Stronghold rightmost and the game goes on (R4.5/R4.6)";
    for (int i = 0; i < h.count; ++i)
      if (!see(h.cards[i])) return "seat " + std::to_string(seat) + ": unknown card in hand";
    if (s.seats[seat].mana < 0) return "seat " + std::to_string(seat) + ": negative mana";
  }
  int in_play = 0;  // cards on the lines, to match game_state::in_play
  for (int l = 0; l < s.line_count; ++l)
    for (int d = 0; d < 2; ++d) {
      const line_side& ls = s.lines[l].sides[d];
      if (ls.count > max_side) return "line over capacity";
      for (int i = 0; i < max_side; ++i) {
        const creature& cr = ls.slots[i];
        if (i >= ls.count) {
          if (!(cr == creature{}) || ls.abilities[i] != 0 || ((ls.ready >> i) & 1))
            return "a stale slot past the end of a line";
          continue;
        }
        if (!see(cr.uid)) return "unknown creature on a line";
        if (cat_->stats(s.uid_card[cr.uid]).type != card_type::creature) return "an incantation on a line";
        if (cr.top != no_uid && !see(cr.top)) return "unknown Symbiote";
        for (card_uid held : cr.chained)
          if (held != no_uid && !see(held)) return "unknown chained card";
        if (s.current_phase != phase::game_over && cr.damage >= detail::hp_of(s, cr))
          return "a creature past its health is still in play (R4.1)";
        if (ls.abilities[i] != detail::abilities_in_slot(s, ls, i))
          return "a creature's abilities differ from its cards and neighbours' (a stale cache)";
        if (((ls.ready >> i) & 1) != detail::ready_to_attack(ls, i))
          return "a creature's readiness to attack differs from its flags (a stale cache)";
        const int at = 1 + l * 32 + d * 16 + i;
        if (s.in_play[cr.uid] != at || (cr.top != no_uid && s.in_play[cr.top] != at))
          return "a creature's place differs from in_play's (a stale cache)";
        in_play += 1 + (cr.top != no_uid);
      }
    }
  int marked = 0;
  for (std::uint8_t at : s.in_play) marked += at != 0;
  if (marked != in_play) return "a card out of play still has a place in in_play (a stale cache)";
  for (int i = 0; i < s.removed_count; ++i)
    if (!see(s.removed[i])) return "unknown removed card";
  // An incantation in flight is out of every hand (E1); between actions there
  // is none unless the game ended during its resolution (E20).
  // Between actions the active seat is a human's (R12: AI turns run inside apply()).
  if (s.current_phase != phase::game_over && s.ai(s.active_seat)) return "an AI seat is active between actions";
  for (card_uid u : s.nested_in_flight)
    if (u != no_uid) {
      if (s.current_phase != phase::game_over) return "a nested card in flight between actions";
      if (!see(u)) return "unknown nested card in flight";
    }
  if (s.in_flight != no_uid) {
    if (s.current_phase != phase::game_over) return "an incantation in flight between actions";
    if (!see(s.in_flight)) return "unknown incantation in flight";
  }
  // R13: a Champion is in exactly one place: beside the play area (ready or
  // exhausted), or on one of its seat's lines (in play); never in a hand,
  // removed, under a Chain or in flight.
  for (int seat = 0; seat < s.seat_count; ++seat) {
    const seat_state& st = s.seats[seat];
    const std::string who = "seat " + std::to_string(seat) + ": ";
    if ((st.champion == no_uid) != (st.champion_state == champion_status::none))
      return who + "a Champion without a state, or a state without a Champion";
    if (st.champion == no_uid) continue;
    if (st.champion >= s.uid_count) return who + "unknown Champion";
    if (cat_->stats(s.uid_card[st.champion]).type != card_type::creature) return who + "a Champion that is not a creature";
    const detail::place p = detail::find_creature(s, st.champion);
    if (st.champion_state == champion_status::in_play) {
      if (!p.valid()) return who + "the Champion is in play but on no line";
      if (s.lines[p.line].sides[p.side].seat != seat) return who + "the Champion is on another seat's side";
    } else {
      if (p.valid()) return who + "the Champion is on a line but not in play";
      ++seen[st.champion];  // its place beside the play area
    }
  }
  for (int u = 0; u < max_uids; ++u)
    if (!(s.uid_stats[u] == (u < s.uid_count ? cat_->stats(s.uid_card[u]) : card_stats{})))
      return "card uid " + std::to_string(u) + "'s numbers differ from its catalogue card's (a stale cache)";
  for (int u = 0; u < s.uid_count; ++u)
    if (seen[u] != 1)
      return "card uid " + std::to_string(u) + (seen[u] ? " is in two places" : " is nowhere");
  return {};
}

}  // namespace cod
