// Hands and Strongholds: R1.5 health, R4.4 Stronghold damage, R4.5 Bastion
// destroyed, R4.6 defeat, R4.7 checks after every change.
#include <bit>

#include "internal.hpp"

namespace cod::detail {

int hand_index(const game_state& s, seat_t seat, card_uid u) {
  const hand_state& h = s.seats[seat].hand;
  // A card played is among the leftmost four (R3.2.1): those as a mask, with
  // no branch per card (which one is a coin flip in random games).
  const auto& k = h.cards;
  unsigned at = unsigned{k[0] == u} | unsigned{k[1] == u} << 1 | unsigned{k[2] == u} << 2 | unsigned{k[3] == u} << 3;
  at &= (1u << (h.count < 4 ? h.count : 4)) - 1;
  if (at != 0) return std::countr_zero(at);
  for (int i = 4; i < h.count; ++i)
    if (h.cards[i] == u) return i;
  return -1;
}

void return_to_hand(ctx& c, seat_t seat, card_uid u, bool leftmost) {
  // R12.9: a card that would go to an AI's hand goes on top of its deck.
  if (c.s.ai(seat)) return ai_to_deck(c, seat, u, 0);
  hand_state& h = c.s.seats[seat].hand;
  // The rules bound hands far below max_hand (R1.2: 8 cards a seat); this
  // guard only keeps a malformed custom setup from writing out of bounds.
  if (h.count >= max_hand) return;
  int at = h.count;
  if (leftmost) {
    // R7 Cursed: leftmost, left of the Stronghold too, so health is unchanged.
    for (int j = h.count; j > 0; --j) h.cards[j] = h.cards[j - 1];
    at = 0;
    ++h.stronghold_pos;
  }
  h.cards[at] = u;
  ++h.count;
  c.emit({.type = event_type::card_returned, .seat = seat, .uid = u, .to = static_cast<std::int16_t>(at)});
}

void end_game(ctx& c, seat_t loser, end_reason why, seat_t by) {
  game_state& s = c.s;
  s.current_phase = phase::game_over;
  s.loser = loser;
  s.reason = why;
  s.winners = 0;
  // R11.4: the owner of the enemy card that destroyed the Fort wins (2v2: its
  // team). RULING: a loss by the player's own doing (own play, Price of
  // Blood, exhaustion, Immolation on its own play) or a concession (R16.3):
  // every other player wins jointly; in 2v2 the other team.
  const bool enemy_did_it = by != no_seat && by != loser && team_of(s, by) != team_of(s, loser);
  for (int i = 0; i < s.seat_count; ++i) {
    const auto si = static_cast<seat_t>(i);
    const bool wins = enemy_did_it ? team_of(s, si) == team_of(s, by) : team_of(s, si) != team_of(s, loser);
    if (wins) s.winners |= static_cast<std::uint8_t>(1u << i);
  }
  c.emit({.type = event_type::game_over, .seat = loser, .amount = s.winners,
          .to = static_cast<std::int16_t>(why)});
}

bool settle_stronghold(ctx& c, seat_t seat, seat_t by) {
  if (c.over()) return true;
  if (c.s.ai(seat)) return ai_check_deck(c, seat, by);  // R12.5, R12.6: the AI's deck is its health
  hand_state& h = c.s.seats[seat].hand;
  // R4.6: the Stronghold alone in hand loses, whichever side is up.
  if (h.count == 0) {
    end_game(c, seat, end_reason::stronghold_alone, by);
    return true;
  }
  if (h.stronghold_pos < h.count) return false;
  if (h.side == stronghold_side::fort) {  // R4.6
    end_game(c, seat, end_reason::fort_destroyed, by);
    return true;
  }
  // R4.5: the Bastion is destroyed: Fort up, leftmost. Excess is already lost
  // because damage stops at the rightmost position (R4.4).
  h.side = stronghold_side::fort;
  const auto from = static_cast<std::int16_t>(h.stronghold_pos);
  h.stronghold_pos = 0;
  c.emit({.type = event_type::stronghold_flipped, .seat = seat, .amount = 1});
  c.emit({.type = event_type::stronghold_moved, .seat = seat, .from = from, .to = 0});
  return false;
}

void damage_stronghold(ctx& c, seat_t seat, int amount, card_uid source, seat_t by) {
  if (amount <= 0 || c.over()) return;  // R1.8
  if (c.s.ai(seat)) {
    // R12.8 resistance: each damage instance to the AI deck is only 1 (RULING E47).
    if (c.s.ai_resistance && amount > 1) amount = 1;
    c.emit({.type = event_type::stronghold_damaged, .seat = seat, .uid = source,
            .amount = static_cast<std::int16_t>(amount)});
    ai_mill(c, seat, amount, source, by);  // R12.5
    return;
  }
  hand_state& h = c.s.seats[seat].hand;
  c.emit({.type = event_type::stronghold_damaged, .seat = seat, .uid = source,
          .amount = static_cast<std::int16_t>(amount)});
  const int from = h.stronghold_pos;
  const int to = from + amount < h.count ? from + amount : h.count;  // R4.4
  h.stronghold_pos = static_cast<std::uint8_t>(to);
  if (to != from)
    c.emit({.type = event_type::stronghold_moved, .seat = seat,
            .from = static_cast<std::int16_t>(from), .to = static_cast<std::int16_t>(to)});
  check_stronghold(c, seat, by);
}

void regenerate_stronghold(ctx& c, seat_t seat, card_uid source) {
  if (c.over()) return;
  if (c.s.ai(seat)) return ai_regenerate(c, seat, source);  // R12.9 Regeneration (AI's)
  hand_state& h = c.s.seats[seat].hand;
  const int from = h.stronghold_pos;
  if (from == 0 && h.side == stronghold_side::bastion) return;  // a leftmost Bastion: nothing (R1.8)
  c.triggered(source, seat, ability::regeneration);
  if (from > 0) {
    h.stronghold_pos = static_cast<std::uint8_t>(from - 1);
  } else {
    // R7 Regeneration: a leftmost Fort flips back to a Bastion, second-rightmost
    // (RULING E1: among the cards in hand; an incantation in flight is not).
    h.side = stronghold_side::bastion;
    h.stronghold_pos = static_cast<std::uint8_t>(h.count > 0 ? h.count - 1 : 0);
    c.emit({.type = event_type::stronghold_flipped, .seat = seat, .amount = 0});
  }
  if (h.stronghold_pos != from)
    c.emit({.type = event_type::stronghold_moved, .seat = seat, .from = static_cast<std::int16_t>(from),
            .to = static_cast<std::int16_t>(h.stronghold_pos)});
}

void weaken_stronghold(ctx& c, seat_t seat, card_uid source) {
  if (c.over()) return;
  // R12.9 Vulnerability (human's): AV 0 against the AI deck: nothing (E6).
  if (c.s.ai(seat)) return;
  hand_state& h = c.s.seats[seat].hand;
  // R7 Vulnerability / R17.3: second-rightmost, side unchanged; never leftwards.
  const int to = h.count - 1;
  const int from = h.stronghold_pos;
  if (to <= from) return;
  c.emit({.type = event_type::stronghold_damaged, .seat = seat, .uid = source,
          .amount = static_cast<std::int16_t>(to - from)});
  h.stronghold_pos = static_cast<std::uint8_t>(to);
  c.emit({.type = event_type::stronghold_moved, .seat = seat, .from = static_cast<std::int16_t>(from),
          .to = static_cast<std::int16_t>(to)});
}

}  // namespace cod::detail
