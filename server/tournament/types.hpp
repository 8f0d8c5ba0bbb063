// The tournament's values (docs/tournaments.md): configuration, players,
// rounds, pairings, games, the organiser log, and the error codes every act
// returns. Plain data; the rules live in tournament.hpp.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cod::tournaments {

// A player's index in tournament::players(), 0-based, in the order given at creation.
using player_id = int;
inline constexpr player_id no_player = -1;

// The turn clock every match of the tournament gets (protocol room_options.turn_clock).
struct clock_settings {
  std::int64_t bank_ms = 0;
  std::int64_t increment_ms = 0;
  bool operator==(const clock_settings&) const = default;
};

struct config {
  std::string name;
  std::string mode = "duel";             // the only mode a tournament runs
  std::string format = "preconstructed";  // a deck format name; the server checks it exists
  int swiss_rounds = 3;
  int best_of = 1;                        // 1 or 3
  bool exhaustion = true;                 // R9, on by default in tournaments
  std::optional<clock_settings> clock;    // none: untimed
  int top_cut = 0;                        // 0, 2, 4 or 8
  std::uint64_t seed = 0;                 // every pairing and tie order derives from it
  bool operator==(const config&) const = default;
};

// Validation limits (the clock's mirror protocol/room_config.hpp's room options).
inline constexpr std::size_t max_tournament_name_chars = 64;
inline constexpr std::size_t max_player_name_chars = 32;
inline constexpr int max_players = 512;
inline constexpr std::int64_t min_bank_ms = 1000;
inline constexpr std::int64_t max_bank_ms = 86'400'000;
inline constexpr std::int64_t max_increment_ms = 3'600'000;
inline constexpr std::size_t token_chars = 32;  // lowercase hex, 128 bits

struct player {
  std::string name;
  std::string token_hash;  // SHA-256 hex of the join token; the token itself is never kept
  int seed_order = 0;      // 0..n-1 from the tournament seed: the last tiebreaker
  int dropped_in_round = -1;  // -1: active; otherwise the round number current when dropped (0: before round 1)
  bool dropped() const { return dropped_in_round >= 0; }
  bool operator==(const player&) const = default;
};

struct game {
  std::string match_id;      // the server's match; empty for a game the organiser decided (game loss)
  bool decided = false;      // false: the match is being played
  player_id winner = no_player;  // decided and no_player: a drawn game
  bool penalty = false;      // decided by a game loss, not by play
  bool operator==(const game&) const = default;
};

struct pairing {
  int table = 0;                // 1-based; in the top cut, the bracket position
  player_id a = no_player;      // the higher-ranked player
  player_id b = no_player;      // no_player: a bye for a
  std::vector<game> games;
  bool is_bye() const { return b == no_player; }
  bool operator==(const pairing&) const = default;
};

enum class round_kind : std::uint8_t { swiss, top_cut };

struct round {
  int number = 0;            // 1-based over the whole tournament (Swiss rounds first)
  round_kind kind = round_kind::swiss;
  int attempt = 0;           // how many times it was re-paired
  std::vector<pairing> pairings;
  bool operator==(const round&) const = default;
};

enum class act : std::uint8_t { start_round, drop, game_loss, repair };
std::string_view act_name(act a);  // "start_round" | "drop" | "game_loss" | "repair"
std::optional<act> act_from_name(std::string_view s);

// One line of the organiser log, in order. `at_ms` is the caller's clock.
struct log_entry {
  int seq = 0;                 // 1, 2, 3...
  std::int64_t at_ms = 0;
  std::string actor;           // who did it (an organiser's name, or "server")
  act what = act::start_round;
  int round = 0;               // the round it applied to
  player_id player = no_player;  // drop, game_loss
  std::string note;            // the reason given
  bool operator==(const log_entry&) const = default;
};

enum class errc : std::uint8_t {
  ok,
  invalid_config,         // detail says which field
  invalid_players,        // too few/many, empty, too long or duplicate names
  unknown_player,
  player_dropped,         // the player has already dropped
  not_started,            // no round yet
  round_not_finished,     // a pairing of the current round has no result yet
  tournament_finished,    // no further round
  not_enough_players,     // fewer than two active players to pair
  unknown_table,
  match_already_running,  // attach_match: the table's current game already has a match
  match_id_in_use,        // attach_match: the id belongs to another game
  invalid_match_id,       // attach_match: an empty id
  pairing_finished,       // the pairing already has its result
  bye,                    // a bye has no games
  unknown_match,          // report_game: no game of the current round has this match
  game_already_decided,   // report_game: the game was decided (a game loss) or reported
  not_in_match,           // report_game: the winner is not one of the pairing's players
  not_in_round,           // give_game_loss: the player has no pairing in the current round
  round_has_results,      // repair_round: a game of the round is decided
  not_swiss,              // repair_round: top-cut rounds are not re-paired
};
std::string_view errc_name(errc e);  // "unknown_player", ...

// What every act returns. On error the tournament is unchanged.
struct status {
  errc code = errc::ok;
  std::string detail;  // a sentence for people; empty when ok
  bool ok() const { return code == errc::ok; }
  explicit operator bool() const { return ok(); }
};

}  // namespace cod::tournaments
