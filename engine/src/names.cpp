// The stable names of enums: ability ids match the catalogue, error and event
// names are part of the wire protocol.
#include <array>

#include "cod/engine/action.hpp"
#include "cod/engine/error.hpp"
#include "cod/engine/event.hpp"
#include "cod/engine/state.hpp"
#include "cod/engine/types.hpp"
#include "name_tables.hpp"

namespace cod {
namespace {

constexpr std::array<std::string_view, ability_count> ability_names = {
    "aerial",     "aquatic",        "backfire",   "berserk",      "blackmail",     "catalyst",
    "chain",      "counterorder",   "cursed",     "defender",     "immolation",    "indestructible",
    "instinct",   "lucidity",       "mercenary",  "perforation",  "price_of_blood", "protection",
    "rage",       "regeneration",   "reinforcement", "sharpening", "splash",       "sprint",
    "symbiote",   "vanish",         "vulnerability",
};

using detail::error_text;

constexpr error_text error_texts[] = {
    {"ok", "ok"},
    {"game_over", "the match is over"},
    {"not_your_turn", "it is not this seat's turn"},
    {"unknown_seat", "there is no such seat in this match"},
    {"card_not_in_hand", "that card is not in this seat's hand"},
    {"card_not_playable",
     "only the 4 leftmost cards of the hand, Stronghold not counted, can be played (R3.2.1); each Blackmail "
     "creature of the seat in play blocks the rightmost of those, leaving at least one (R7 Blackmail, R17.10)"},
    {"insufficient_mana", "not enough mana to play that card (R3.2.2)"},
    {"bad_line", "a creature is played on one of the seat's own lines; an incantation takes a target, not a line"},
    {"bad_target", "an incantation must target a creature in play (R3.2.4)"},
    {"leaves_only_stronghold", "that play would leave the Stronghold as the only card in hand (R3.2.5)"},
    {"line_full", "that side of the line already holds 16 creatures, its capacity (RULING E2)"},
    {"bad_action", "the action is malformed"},
    {"bad_deck_size", "a deck is exactly 8 cards (R1.2)"},
    {"duplicate_card", "a deck may not hold the same card twice (R1.2)"},
    {"unknown_card", "no such card in the catalogue"},
    {"not_a_deck_card", "a deck holds only creatures and incantations (R1.2)"},
    {"unsupported_card", "that card has an ability this engine version does not implement yet"},
    {"bad_setup", "the position is not well formed"},
    {"bad_host", "a Symbiote goes on one of the seat's own creatures in play that has no Symbiote (R7)"},
    {"bad_champion", "a Champion is a creature card that is not in its seat's deck (R13.1)"},
    {"champion_exhausted", "an exhausted Champion cannot be summoned until a card of its mana cost is played (R13.3)"},
    {"bad_difficulty", "the AI settings are out of range or do not spend exactly the chosen level's points (R12.8)"},
    {"champion_not_allowed", "no Champion in solo quick play, and never for an AI seat (R13.1)"},
};

constexpr std::string_view event_names[] = {
    "match_started",    "turn_started",       "card_removed",      "mana_gained",
    "card_played",      "creature_entered",   "creature_moved",    "attack",
    "damage_dealt",     "damage_prevented",   "creature_destroyed", "card_returned",
    "stronghold_damaged", "stronghold_moved", "stronghold_flipped", "turn_ended",
    "conceded",         "game_over",          "creature_stacked",  "creature_vanished",
    "card_chained",     "hand_reordered",     "ability_triggered", "champion_exhausted",
    "champion_readied", "ai_revealed",        "card_milled",       "card_discarded",
    "card_to_deck",     "deck_reshuffled",
};

}  // namespace

std::string_view ability_name(ability a) {
  const auto i = static_cast<std::size_t>(a);
  return i < ability_names.size() ? ability_names[i] : std::string_view{"?"};
}

std::optional<ability> ability_from_name(std::string_view name) {
  for (std::size_t i = 0; i < ability_names.size(); ++i)
    if (ability_names[i] == name) return static_cast<ability>(i);
  return std::nullopt;
}

std::string_view card_type_name(card_type t) {
  return t == card_type::creature ? "creature" : "incantation";
}

std::string_view stronghold_side_name(stronghold_side s) {
  return s == stronghold_side::bastion ? "bastion" : "fort";
}

std::string_view game_mode_name(game_mode m) {
  switch (m) {
    case game_mode::duel: return "duel";
    case game_mode::ffa: return "ffa";
    case game_mode::two_vs_two: return "2v2";
    case game_mode::solo: return "solo";
    case game_mode::coop: return "coop";
  }
  return "?";
}

std::optional<game_mode> game_mode_from_name(std::string_view name) {
  for (game_mode m : {game_mode::duel, game_mode::ffa, game_mode::two_vs_two, game_mode::solo, game_mode::coop})
    if (game_mode_name(m) == name) return m;
  return std::nullopt;
}

std::string_view champion_status_name(champion_status c) {
  switch (c) {
    case champion_status::none: return "none";
    case champion_status::ready: return "ready";
    case champion_status::in_play: return "in_play";
    case champion_status::exhausted: return "exhausted";
  }
  return "?";
}

std::string_view action_type_name(action_type t) {
  switch (t) {
    case action_type::play: return "play";
    case action_type::end_turn: return "end_turn";
    case action_type::concede: return "concede";
  }
  return "?";
}

std::string_view error_name(rule_error e) { return detail::error_name_in(error_texts, e); }
std::string_view error_message(rule_error e) { return detail::error_message_in(error_texts, e); }
std::string_view event_type_name(event_type t) { return detail::name_in(event_names, t); }

static_assert(std::size(error_texts) == static_cast<std::size_t>(rule_error::champion_not_allowed) + 1);
static_assert(std::size(event_names) == static_cast<std::size_t>(event_type::deck_reshuffled) + 1);

}  // namespace cod
