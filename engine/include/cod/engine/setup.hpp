// How a match starts: from decks (R2, R14) or, for tests and scenarios, from
// any mid-game position given directly.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "cod/engine/types.hpp"

namespace cod {

struct match_config {
  game_mode mode = game_mode::duel;
  int seat_count = 2;
  bool exhaustion_rule = false;     // R9
  bool share_team_hands = false;    // R11.6 option: 2v2 teammates see each other's hand
  std::uint64_t seed = 0;           // R16.1
  seat_t first_seat = no_seat;      // no_seat: coin toss from the seed (R2.4)
  std::array<std::vector<card_id>, max_seats> decks{};  // 8 cards per seat (R1.2)
  // R13.1 Champion module: each seat's Champion, a creature not in its deck;
  // no_card: that seat plays without one. Its uid comes after every deck card.
  std::array<card_id, max_seats> champions{no_card, no_card, no_card, no_card};
};

// A position for scenario tests: every field of the state that matters, given
// directly. uids are assigned in this order: for each seat, its hand left to
// right, then its upper line from the Bridge outwards, then its lower line;
// then removed cards; then each seat's Champion (R13), in seat order.
struct creature_setup {
  card_id card = no_card;
  card_id top = no_card;            // R7 Symbiote stacked on it
  std::vector<card_id> chained;     // R7 Chain: held cards (at most 2), taken from the other seat
  int damage = 0;
  int bonus_av = 0;
  bool entered_this_turn = false;
  bool attacked = false;
  bool protection_used = false;
  bool champion = false;            // R13: this (base) card is its seat's Champion, in play
};

struct seat_setup {
  std::vector<card_id> hand;        // left to right, Stronghold excluded
  int stronghold_pos = 0;           // cards to the left of the Stronghold
  stronghold_side side = stronghold_side::bastion;
  int mana = 0;
  int turns_taken = 0;
  std::array<std::vector<creature_setup>, 2> lines{};  // [0] upper, [1] lower
  // R13 Champion module: the seat's Champion (no_card: none). Beside the play
  // area, ready or exhausted; or in play when a creature of `lines` is marked
  // `champion` (its card must be this one).
  card_id champion = no_card;
  bool champion_exhausted = false;
};

struct position_setup {
  game_mode mode = game_mode::duel;
  bool exhaustion_rule = false;
  bool share_team_hands = false;
  std::uint64_t seed = 0;
  seat_t first_seat = 0;
  seat_t active_seat = 0;
  int turn = 1;
  int round = 1;
  std::vector<seat_setup> seats;    // 2 for a duel, 4 for ffa and 2v2
  std::vector<card_id> removed;     // R9.3
};

}  // namespace cod
