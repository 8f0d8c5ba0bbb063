// A tournament as a value (docs/tournaments.md): Swiss rounds, then an
// optional single-elimination top cut. No I/O and no clock: the server
// creates the matches this asks for, reports their results, passes the time
// of organiser acts, and stores the value (persist/match_store.hpp,
// save_tournament).
//
// Every act returns a status; on error the tournament is left unchanged.
//
// Flow, as the server drives it:
//   tournament t; std::vector<std::string> tokens;
//   status s = tournament::create(cfg, names, random, t, tokens);  // tokens to the players, once
//   t.start_next_round("server", now);                               // round 1
//   for (auto& g : t.games_to_start()) t.attach_match(g.table, create_match(g));
//   t.report_game(match_id, winner);                                 // when a match ends
//   if (t.round_finished()) t.start_next_round("server", now);       // until tournament_finished
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tournament/standings.hpp"
#include "tournament/tokens.hpp"
#include "tournament/types.hpp"

namespace cod::tournaments {

enum class stage : std::uint8_t { not_started, swiss, top_cut, finished };
std::string_view stage_name(stage s);  // "not_started" | "swiss" | "top_cut" | "finished"

// A pairing's games as the match result sees them.
struct match_score {
  int a_wins = 0, b_wins = 0, draws = 0;  // decided games (a bye: a_wins = the bye's games)
  bool finished = false;
  player_id winner = no_player;  // finished and no_player: a drawn match (Swiss only)
};

// A game that needs a match: the server creates one and calls attach_match.
struct game_slot {
  int round = 0;
  int table = 0;
  int game_number = 0;  // 1-based within the pairing
  player_id a = no_player;  // seat 0
  player_id b = no_player;  // seat 1
  bool operator==(const game_slot&) const = default;
};

class tournament {
 public:
  tournament() = default;  // empty: use create() or from_parts()

  // Validates and creates. `names` in the order that becomes the player ids.
  // The join tokens come back in `tokens` (same order): the only time they
  // exist in clear; with `event_id` (the tournament's id) each names it
  // ("ID.HEX", make_token). On error `out` and `tokens` are untouched.
  static status create(const config& c, const std::vector<std::string>& names, const random_source& random,
                       tournament& out, std::vector<std::string>& tokens, std::string_view event_id = {});
  // Advice on a valid configuration (printed to the organiser, not errors):
  // e.g. too few Swiss rounds to leave at most one undefeated player.
  static std::vector<std::string> warnings(const config& c, int player_count);
  // As stored (the store rebuilds it from its rows). No validation beyond what load checks.
  static tournament from_parts(config c, std::vector<player> players, std::vector<round> rounds,
                               std::vector<log_entry> log);

  // ---- rounds
  // Pairs the next Swiss round, or the next top-cut round after the last
  // Swiss one. Errors: round_not_finished, tournament_finished, not_enough_players.
  status start_next_round(std::string_view actor, std::int64_t at_ms);
  stage current_stage() const;
  const round* current_round() const;  // nullptr before round 1
  bool round_finished() const;         // the current round (false before round 1)

  // ---- games
  std::vector<game_slot> games_to_start() const;  // the current round's games without a match
  // The next game of `table` (current round) is played as `match_id`.
  status attach_match(int table, std::string_view match_id);
  // A match of the current round ended: winner is a player of the pairing, or
  // no_player for a drawn game.
  status report_game(std::string_view match_id, player_id winner);
  match_score score(const pairing& p, round_kind kind) const;

  // ---- organiser acts (logged)
  // The player is not paired again. An unfinished match of the current round
  // is conceded: its running game (match id in `voided`) and the games still
  // needed go to the opponent as game losses.
  status drop_player(std::string_view actor, std::int64_t at_ms, player_id p, std::string_view reason,
                     std::vector<std::string>* voided = nullptr);
  // The player loses the game being played in the current round (its match id
  // in `voided`: the server ends that match), or the next one if none is.
  status give_game_loss(std::string_view actor, std::int64_t at_ms, player_id p, std::string_view reason,
                        std::string* voided = nullptr);
  // Pairs the current Swiss round again (a new seeded attempt, dropped players
  // out), only while none of its games is decided. Running matches are
  // abandoned (ids in `abandoned`).
  status repair_round(std::string_view actor, std::int64_t at_ms, std::string_view reason,
                      std::vector<std::string>* abandoned = nullptr);

  // ---- results
  // From the finished Swiss matches; the top cut does not change them.
  std::vector<standing> standings() const;
  // The winner of the final (top cut), or first in the standings (no cut);
  // nullopt until finished.
  std::optional<player_id> champion() const;

  std::optional<player_id> find_player(std::string_view name) const;  // case-insensitive (ASCII)
  std::optional<player_id> find_player_by_token(std::string_view token) const;

  const config& settings() const { return config_; }
  const std::vector<player>& players() const { return players_; }
  const std::vector<round>& rounds() const { return rounds_; }
  const std::vector<log_entry>& log() const { return log_; }

  bool operator==(const tournament&) const = default;

 private:
  std::optional<round_kind> next_round_kind() const;
  status pair_swiss_round(int number, int attempt, round& out) const;
  round pair_cut_round(int number) const;
  bool played_before(player_id x, player_id y, int before_round) const;
  pairing* current_pairing_of(player_id p);
  void concede(pairing& p, player_id loser, std::vector<std::string>* voided);
  void append_log(std::string_view actor, std::int64_t at_ms, act what, player_id p, std::string_view note);
  std::vector<match_record> swiss_records() const;

  config config_;
  std::vector<player> players_;
  std::vector<round> rounds_;
  std::vector<log_entry> log_;
};

// The seeded generator's seed for pairing `round` (attempt 0, 1... after
// re-pairs); documented so anyone can re-derive the pairings.
std::uint64_t pairing_seed(std::uint64_t tournament_seed, int round, int attempt);

}  // namespace cod::tournaments
