// How a match starts: from decks (R2, R14) or, for tests and scenarios, from
// any mid-game position given directly.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "cod/engine/types.hpp"

namespace cod {

// R12.8: how the AI plays (solo and co-op; R11.7: both AIs alike). The
// defaults are quick play (R12.2): 6 fixed mana, +1 per human creature.
struct ai_settings {
  int fixed_mana = 6;               // 6..10: 7/8/9/10 cost 1/2/3/4 points
  bool double_variable = false;     // +2 mana per human creature instead of +1: 2 points
  bool ai_first = false;            // the AI plays first (co-op: B): 1 point
  bool resistance = false;          // each attack on the AI deck inflicts only 1: 2 points
  ability_set granted = 0;          // given to every AI creature, from ai_grantable: 1 point each
  bool operator==(const ai_settings&) const = default;
};

// R12.8: the 11 abilities custom difficulty may give every AI creature.
inline constexpr ability_set ai_grantable =
    bit(ability::sharpening) | bit(ability::aquatic) | bit(ability::berserk) | bit(ability::catalyst) |
    bit(ability::vanish) | bit(ability::instinct) | bit(ability::perforation) | bit(ability::protection) |
    bit(ability::rage) | bit(ability::splash) | bit(ability::sprint);

// R12.8: the difficulty points `ai` spends, less 2 for each human seat that
// plays with a Champion (RULING E45). Options out of range count as -1000, so
// they never match a level.
int ai_points(const ai_settings& ai, int human_champions);

// R17.25: the first player's turn at which exhaustion begins in a match
// played without R9 (the rule's 40); 0 means never. The engine accepts
// 0..max_stall_exhaustion_turn (a larger value is bad_setup).
inline constexpr int default_stall_exhaustion_turn = 40;
inline constexpr int max_stall_exhaustion_turn = 60000;

struct match_config {
  game_mode mode = game_mode::duel;
  int seat_count = 2;
  bool exhaustion_rule = false;     // R9
  // R17.25 stall guard: without R9, exhaustion (R9.2, R9.3; an AI seat as
  // R17.24) begins at the first player's turn of this number; 0 = never.
  // 0..max_stall_exhaustion_turn. With R9 on, R9.2's own turn 8 applies.
  int stall_exhaustion_turn = default_stall_exhaustion_turn;
  bool share_team_hands = false;    // R11.6 option: 2v2 teammates see each other's hand
  std::uint64_t seed = 0;           // R16.1
  seat_t first_seat = no_seat;      // no_seat: coin toss from the seed (R2.4)
  // 8 cards per seat (R1.2); an AI seat (solo, co-op): its 24-card deck pile
  // (R12.7, R14.1, R14.4, R14.5; RULING E41), shuffled at setup.
  std::array<std::vector<card_id>, max_seats> decks{};
  // R13.1 Champion module: each seat's Champion, a creature not in its deck;
  // no_card: that seat plays without one. Its uid comes after every deck card.
  std::array<card_id, max_seats> champions{no_card, no_card, no_card, no_card};
  // R12.8 (solo, co-op): 0 = quick play (ai must be the defaults and no seat
  // may have a Champion, R13.1); 1..10 = custom play at that level: ai must
  // spend exactly that many points (ai_points).
  int difficulty = 0;
  ai_settings ai;
};

// A position for scenario tests: every field of the state that matters, given
// directly. uids are assigned in this order: for each seat, its hand left to
// right (an AI seat: its deck from the top down, then its discard from the top
// down), then its upper line from the Bridge outwards, then its lower line;
// then removed cards; then each seat's Champion (R13), in seat order. The
// active seat is a human seat (an AI's turn runs inside the engine).
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
  // A human seat: its hand. An AI seat (R12.1) has none: `deck` and `discard`.
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
  // R12.1, AI seats only: the deck pile from its top down (the Stronghold,
  // `side` up, is under it) and the face-up discard pile from its top down.
  std::vector<card_id> deck;
  std::vector<card_id> discard;
};

struct position_setup {
  game_mode mode = game_mode::duel;
  bool exhaustion_rule = false;
  int stall_exhaustion_turn = default_stall_exhaustion_turn;  // R17.25, as match_config's
  bool share_team_hands = false;
  std::uint64_t seed = 0;
  seat_t first_seat = 0;
  seat_t active_seat = 0;
  int turn = 1;
  int round = 1;
  std::vector<seat_setup> seats;    // 2 for a duel and solo, 4 for ffa, 2v2 and co-op
  std::vector<card_id> removed;     // R9.3
  // R12.8 (solo, co-op): the AI's settings; not checked against a level here.
  ai_settings ai;
};

}  // namespace cod
