// What happened, in order. apply() appends events; the engine never sends,
// logs or stores them: its callers do. Some fields are private to one seat
// (see redact() in view.hpp); every event passes through redact() before it
// reaches a player or spectator.
#pragma once

#include <cstdint>
#include <string_view>

#include "cod/engine/types.hpp"

namespace cod {

enum class event_type : std::uint8_t {
  match_started,       // seat = first seat (R2.4)
  turn_started,        // seat; amount = turn; to = round
  card_removed,        // R9.2 exhaustion: seat, uid (public once removed)
  mana_gained,         // R3.1: seat, amount (the seat's mana for this turn)
  card_played,         // seat, uid, line, target; from = hand index (private to seat);
                       // amount = mana paid (0: a free play, R7 Reinforcement)
  creature_entered,    // seat, uid, line, side, to = position on the line
  creature_moved,      // Sprint: uid, line, side, from -> to positions
  attack,              // uid attacker, line; target = creature uid, or no_uid and seat = Stronghold owner
  damage_dealt,        // uid source, target creature, amount (R4.1)
  damage_prevented,    // R7 Protection/Indestructible: uid source, target; amount = prevented
  creature_destroyed,  // uid, seat (its owner), line, side
  card_returned,       // uid, seat (whose hand), to = hand index it landed at
  stronghold_damaged,  // seat, uid source, amount
  stronghold_moved,    // seat, from -> to (index among the hand's cards)
  stronghold_flipped,  // seat; amount = new side (0 bastion, 1 fort)
  turn_ended,          // seat
  conceded,            // seat
  game_over,           // amount = winners bit mask, seat = loser, to = end_reason
  // Added with the full ability set (R7):
  creature_stacked,    // Symbiote: uid (the Symbiote) goes on target (the base creature); seat, line, side, to = position
  creature_vanished,   // Vanish: uid, line, side, from -> to (the back of its side)
  card_chained,        // Chain: uid (the Chain creature) takes target from seat's hand (public: the card is revealed)
  hand_reordered,      // Counterorder: seat's card uid moves from -> to (uid private to seat)
  ability_triggered,   // uid (the card), amount = the ability (cod::ability), seat = its owner: a
                       // trigger without an effect event of its own (Immolation, Backfire, Regeneration,
                       // Sharpening, Reinforcement, Price of Blood, Catalyst, Lucidity, Blackmail...)
  // Added with the Champion module (R13):
  champion_exhausted,  // R13.3: uid (the Champion), seat (its owner) left play: exhausted, beside the play area
  champion_readied,    // R13.3: uid (the Champion), seat (its owner) is ready again; target = the card
                       // whose play readied it, amount = that card's mana cost
  // Added with solo and co-op (R12, R11.7); every field is public (the cards are face up):
  ai_revealed,         // R12.3: seat (the AI) turns uid over from the top of its deck pile, for
                       // its line `line` (absolute); amount = cards left in the deck
  card_milled,         // R12.5, R12.9 Price of Blood, R9.2: seat's deck top uid goes face up to its
                       // discard pile; target = the source (no_uid: none); amount = cards left in the deck
  card_discarded,      // R12.3, R12.4, R12.9: uid goes to seat's (the AI's) discard pile, from play or
                       // revealed without effect; amount = the discard pile's size after
  card_to_deck,        // R12.9 (Cursed, Mercenary, Chain, Regeneration): uid goes on top of seat's
                       // deck pile; from = 0 from play, 1 from a Chain, 2 from the discard pile, 3 from
                       // an incantation's resolution; amount = the deck's size after
  deck_reshuffled,     // R12.5: seat's Bastion was revealed: Fort up, the discard pile shuffled into
                       // the new deck pile; amount = its size
};
std::string_view event_type_name(event_type t);

struct event {
  event_type type = event_type::match_started;
  seat_t seat = no_seat;
  card_uid uid = no_uid;
  card_uid target = no_uid;
  std::int8_t line = -1;
  std::int8_t side = -1;
  std::int16_t amount = 0;
  std::int16_t from = -1;
  std::int16_t to = -1;
  bool operator==(const event&) const = default;
};

}  // namespace cod
