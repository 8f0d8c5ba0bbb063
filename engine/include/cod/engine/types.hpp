// Small integer ids and enums shared by every part of the engine.
// Hot-path code works on these, never on strings.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace cod {

// A seat at the table: 0..3. Seats are the engine's players.
using seat_t = std::int8_t;
inline constexpr seat_t no_seat = -1;

// A physical card in one match ("unique id"): 0..max_uids-1. Assigned at setup
// from the deck lists in the order given (never from the shuffle), so a uid
// reveals nothing about hand order.
using card_uid = std::uint8_t;
inline constexpr card_uid no_uid = 0xFF;

// An index into the catalogue.
using card_id = std::uint16_t;
inline constexpr card_id no_card = 0xFFFF;

// Capacities. The rules bound every one of these (R1.2: 8-card decks, R11:
// four seats and four lines); the engine rejects a play that would exceed them.
inline constexpr int max_seats = 4;
inline constexpr int max_lines = 4;
inline constexpr int max_side = 16;   // creatures on one side of one line
inline constexpr int max_hand = 48;   // cards in one hand, Stronghold not counted
inline constexpr int max_uids = 128;  // physical cards in one match

// R7: the 27 special abilities (Aura is a flag on another ability, R7 "Aura X").
enum class ability : std::uint8_t {
  aerial, aquatic, backfire, berserk, blackmail, catalyst, chain, counterorder,
  cursed, defender, immolation, indestructible, instinct, lucidity, mercenary,
  perforation, price_of_blood, protection, rage, regeneration, reinforcement,
  sharpening, splash, sprint, symbiote, vanish, vulnerability,
  count
};
inline constexpr int ability_count = static_cast<int>(ability::count);

// A set of abilities as a bit mask (bit i = ability i).
using ability_set = std::uint32_t;
constexpr ability_set bit(ability a) { return ability_set{1} << static_cast<unsigned>(a); }
constexpr bool has(ability_set s, ability a) { return (s & bit(a)) != 0; }

// The catalogue's id for an ability ("price_of_blood").
std::string_view ability_name(ability a);
std::optional<ability> ability_from_name(std::string_view name);

enum class card_type : std::uint8_t { creature, incantation };
std::string_view card_type_name(card_type t);

// R1.1: the two sides of a Stronghold card.
enum class stronghold_side : std::uint8_t { bastion, fort };
std::string_view stronghold_side_name(stronghold_side s);

// R10–R12: game modes. duel: 2 seats (R10); ffa and two_vs_two: the
// four-player board (R11.5, R11.6; teams A+C and B+D); solo: 2 seats, seat 0
// the human, seat 1 the AI (R12); coop: the four-player board, humans A and C
// (0, 2) against the AIs B and D (1, 3) (R11.7).
enum class game_mode : std::uint8_t { duel, ffa, two_vs_two, solo, coop };
std::string_view game_mode_name(game_mode m);
std::optional<game_mode> game_mode_from_name(std::string_view name);
// Seats a mode is played with.
constexpr int seats_of(game_mode m) { return m == game_mode::duel || m == game_mode::solo ? 2 : 4; }
// R12, R11.7: the seats the engine plays itself (no client acts for them).
constexpr bool is_ai_seat(game_mode m, seat_t seat) {
  return (m == game_mode::solo || m == game_mode::coop) && (seat == 1 || seat == 3) && seat < seats_of(m);
}
// R12.1, R14.4, R14.5: an AI's deck pile is 24 cards.
inline constexpr int ai_deck_size = 24;

}  // namespace cod
