// Stable error codes for rejected actions and setups. The names are part of
// the wire protocol: never renumber or rename one, only add.
#pragma once

#include <cstdint>
#include <string_view>

namespace cod {

enum class rule_error : std::uint8_t {
  ok = 0,
  game_over,               // the match has ended
  not_your_turn,           // the seat is not the active seat
  unknown_seat,            // no such seat in this match
  card_not_in_hand,        // the card is not in the acting seat's hand
  card_not_playable,       // R3.2.1: not among the 4 leftmost cards; R7 Blackmail blocks some of those
  insufficient_mana,       // R3.2.2
  bad_line,                // not one of the seat's lines, or a line given for an incantation
  bad_target,              // R3.2.4: an incantation needs a creature in play as target
  leaves_only_stronghold,  // R3.2.5 / R17.13
  line_full,               // the side of the line is at capacity (ruling, docs/rulings.md)
  bad_action,              // malformed: unknown type or fields that do not fit it
  // Setup errors.
  bad_deck_size,           // R1.2: a deck is 8 cards
  duplicate_card,          // R1.2 / R14.6: no duplicates in a deck
  unknown_card,            // not in the catalogue
  not_a_deck_card,         // only creatures and incantations go in a deck
  unsupported_card,        // an ability this engine version does not implement yet
  bad_setup,               // an impossible position in a custom setup
  bad_host,                // R7 Symbiote: the host is not the seat's own creature without Symbiote
  bad_champion,            // R13.1 (setup): a Champion is a creature that is not in its seat's deck
  champion_exhausted,      // R13.3: an exhausted Champion cannot be summoned until it is readied
  bad_difficulty,          // R12.8 (setup): options out of range, points not equal to the level, or
                           // AI options outside solo and co-op
  champion_not_allowed,    // R13.1 (setup): no Champion in solo quick play, nor for an AI seat
};

// "not_your_turn" etc.: the code as it appears on the wire.
std::string_view error_name(rule_error e);
// One sentence a person can read.
std::string_view error_message(rule_error e);

}  // namespace cod
