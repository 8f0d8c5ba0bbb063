// The game state as plain values (trivially copyable, fixed capacity).
//
// Nothing here is meant to be sent to a player as it is: callers get state
// out of the engine only through project() (view.hpp), which applies R16.2.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

#include "cod/engine/catalogue.hpp"
#include "cod/engine/rng.hpp"
#include "cod/engine/types.hpp"

namespace cod {

// A creature on a line. Position on the line is its index in line_side::slots
// (0 = adjacent to the Bridge, R1.3). With Symbiote (R7) one slot holds two
// cards: `uid` (the base creature) and `top` (the Symbiote on it); their AV,
// HP and abilities add up.
struct creature {
  // What lasts a turn first: the end of each turn clears these five bytes of
  // every creature at once (R3.4).
  std::uint8_t damage = 0;          // R4.1: damage taken this turn
  std::int8_t bonus_av = 0;         // R7 Sprint: +X until the end of Phase 3
  bool entered_this_turn = false;   // R3.3: may not attack this turn (Rage aside)
  bool attacked = false;            // R17.7: has made its attack this phase
  bool protection_used = false;     // R7 Protection: spent for this turn
  card_uid uid = no_uid;
  card_uid top = no_uid;            // R7 Symbiote: the card stacked on this one
  // R7 Chain: cards held face down under this creature, and whose hand each came from.
  std::array<card_uid, 2> chained{no_uid, no_uid};
  std::array<seat_t, 2> chained_from{no_seat, no_seat};
  bool operator==(const creature&) const = default;
};

// One player's side of one line, ordered from the Bridge outwards.
struct line_side {
  seat_t seat = no_seat;  // who plays on this side
  std::uint8_t count = 0;
  // R12.8: abilities custom difficulty gives every creature on an AI's side
  // (fixed at setup; 0 elsewhere). Part of what a creature has there, like an Aura.
  ability_set granted = 0;
  std::array<creature, max_side> slots{};
  // Derived, kept by the engine after every change to the side: what each
  // creature has where it stands (R7 Aura, R6.2: its cards' own abilities,
  // `granted`, its neighbours' Auras); 0 past `count`. Every attack and play
  // asks, so it is read, not worked out from the catalogue each time.
  std::array<ability_set, max_side> abilities{};
  // Derived as well: bit i set while the creature at i may still attack this
  // phase (R3.3, R5.1 steps 1-2: it has not attacked, and it has been in play
  // since an earlier turn or has Rage). The assault's next attacker is its
  // highest bit.
  std::uint16_t ready = 0;
  // Pads a side to 256 bytes (and a line to 512): finding one is then a
  // shift, not a multiplication, and the rules find one at every step.
  std::array<std::uint8_t, 4> padding{};
  bool operator==(const line_side&) const = default;
};

// A line is shared by two seats facing each other across its Bridge (R1.3, R11.1).
struct line_state {
  std::array<line_side, 2> sides{};
  bool operator==(const line_state&) const = default;
};

// R1.4–R1.5: a hand is an ordered row of cards with the Stronghold among them.
// cards[0..count) are the cards left to right without the Stronghold;
// the Stronghold stands before cards[stronghold_pos] (stronghold_pos == count:
// it is rightmost). Health = count - stronghold_pos.
struct hand_state {
  std::uint8_t count = 0;
  std::uint8_t stronghold_pos = 0;
  stronghold_side side = stronghold_side::bastion;
  std::array<card_uid, max_hand> cards{};
  int health() const { return count - stronghold_pos; }
  bool operator==(const hand_state&) const = default;
};

// Where a seat plays: its upper and lower line, and which side of each is its own.
struct seat_lines {
  std::uint8_t line = 0;
  std::uint8_t side = 0;
  bool operator==(const seat_lines&) const = default;
};

// R13 Champion module: where a seat's Champion is. It never enters a hand.
enum class champion_status : std::uint8_t {
  none,       // the seat plays without a Champion
  ready,      // beside the play area, face up: may be summoned (R13.2)
  in_play,    // on a line (or on a host, R7 Symbiote)
  exhausted,  // destroyed (R13.3): beside the play area, cannot be summoned until readied
};

// "ready", "in_play", "exhausted" ("none" without a Champion): the wire names.
std::string_view champion_status_name(champion_status c);

struct seat_state {
  hand_state hand;
  card_uid champion = no_uid;  // R13.1: the seat's Champion, a 9th card outside the hand
  champion_status champion_state = champion_status::none;
  std::int16_t mana = 0;
  std::uint16_t turns_taken = 0;
  std::array<seat_lines, 2> lines{};  // [0] upper, [1] lower (R3.3.1)
  std::array<std::uint8_t, 2> padding{};  // to 64 bytes, as line_side's
  bool operator==(const seat_state&) const = default;
};

// R12.1: an AI has no hand: a face-down deck pile with its Stronghold at the
// bottom (its side is in seat_state::hand.side, the hand itself stays empty)
// and a face-up discard pile. Index 0 is the bottom of each pile; the top is
// the last card. Nobody sees the deck's order (R16.2).
struct ai_pile {
  std::uint8_t deck_count = 0;
  std::uint8_t discard_count = 0;
  std::array<card_uid, max_uids> deck{};
  std::array<card_uid, max_uids> discard{};
  bool operator==(const ai_pile&) const = default;
};

enum class phase : std::uint8_t { summoning, game_over };

// Why a match ended.
enum class end_reason : std::uint8_t {
  none,
  fort_destroyed,       // R4.6: a Fort reached the rightmost position
  stronghold_alone,     // R4.6: the Stronghold is the only card in hand
  concession,           // R16.3
};

struct game_state {
  // Options fixed at setup.
  game_mode mode = game_mode::duel;
  std::uint8_t seat_count = 2;
  std::uint8_t line_count = 2;
  bool exhaustion_rule = false;   // R9.1
  // R17.25 stall guard: without R9, exhaustion begins at this round (the
  // first player's turn, R9.1); 0 = never.
  std::uint16_t stall_exhaustion_turn = 0;
  bool share_team_hands = false;  // R11.6 room option

  rng random;                     // R16.1: the match's one generator

  // Static per-card facts: which catalogue card each uid is, and whose deck it came from.
  std::uint8_t uid_count = 0;
  // Every ability (own or Aura) of any card in the match: rules for absent
  // abilities are skipped without looking (derived from uid_card; a cache).
  ability_set present = 0;
  std::array<card_id, max_uids> uid_card{};
  std::array<seat_t, max_uids> uid_origin{};
  // Derived at setup: each uid's catalogue numbers (catalogue::stats of its
  // uid_card; a match's catalogue never changes), read at every step
  // without going through the catalogue.
  std::array<card_stats, max_uids> uid_stats{};
  // Derived, kept by the engine with the sides' caches: where each card in
  // play stands (a creature, or a Symbiote on one) as 1 + line * 32 + side *
  // 16 + position; 0 for a card not in play.
  std::array<std::uint8_t, max_uids> in_play{};

  std::array<seat_state, max_seats> seats{};
  std::array<line_state, max_lines> lines{};

  // R12, R11.7 (solo, co-op): the AI seats are the odd ones (is_ai_seat);
  // piles[seat / 2] is the pile of AI seat 1 or 3. Unused in other modes.
  std::array<ai_pile, 2> piles{};
  // R12.2, R12.8: the AI's Phase 1 mana and its resistance.
  std::uint8_t ai_fixed_mana = 6;
  std::uint8_t ai_mana_per_creature = 1;
  bool ai_resistance = false;
  bool ai_first = false;
  std::uint8_t difficulty = 0;  // R12.8: 0 quick play, 1..10 custom

  // R9.3: cards removed from the game, in the order they were removed.
  std::uint8_t removed_count = 0;
  std::array<card_uid, max_uids> removed{};

  // An incantation between leaving the hand and coming back (R5.2 steps
  // 3-16). Stays set if the game ends during its resolution (R17.14).
  card_uid in_flight = no_uid;
  // Solo, co-op: cards in flight while another is (an AI's Reinforcement
  // reveals a card during a human incantation's resolution, E50), innermost last.
  std::array<card_uid, 3> nested_in_flight{no_uid, no_uid, no_uid};

  // R7 Sharpening: uids whose once-a-turn excess is spent this turn.
  std::array<std::uint64_t, max_uids / 64> sharpening_used{};

  seat_t first_seat = 0;
  seat_t active_seat = 0;
  std::uint16_t turn = 0;         // every turn of every seat, from 1
  std::uint16_t round = 0;        // turns of the first player, from 1 (R9.1)
  phase current_phase = phase::summoning;

  // Result (phase::game_over): winners as a seat bit mask.
  std::uint8_t winners = 0;
  seat_t loser = no_seat;
  end_reason reason = end_reason::none;

  // R9.2: from the first player's 8th turn with R9; R17.25: without R9, from
  // the first player's stall_exhaustion_turn-th turn (0: never).
  bool exhausted() const {
    if (exhaustion_rule) return round >= 8;
    return stall_exhaustion_turn != 0 && round >= stall_exhaustion_turn;
  }
  bool ai(seat_t seat) const { return is_ai_seat(mode, seat); }
  ai_pile& pile(seat_t seat) { return piles[seat / 2]; }
  const ai_pile& pile(seat_t seat) const { return piles[seat / 2]; }
  bool operator==(const game_state&) const = default;
};

}  // namespace cod
