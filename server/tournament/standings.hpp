// Standings and tiebreakers (docs/tournaments.md, "Standings"): a pure
// function of the finished Swiss matches.
#pragma once

#include <vector>

#include "tournament/types.hpp"

namespace cod::tournaments {

// One finished Swiss match as scoring sees it. A bye has b == no_player and
// a_wins = the games of a bye (1 in best-of-1, 2 in best-of-3).
struct match_record {
  player_id a = no_player;
  player_id b = no_player;
  int a_wins = 0;
  int b_wins = 0;
  int draws = 0;  // drawn games
};

struct standing {
  int rank = 0;  // 1-based
  player_id player = no_player;
  int match_points = 0;  // 3 per match win (byes included), 1 per drawn match
  int wins = 0, losses = 0, draws = 0, byes = 0;  // byes are also counted in wins
  int game_points = 0;   // 3 per game won, 1 per drawn game
  int games = 0;         // games played (a bye's games included)
  double mwp = 0, omwp = 0, gwp = 0, ogwp = 0;  // fractions in [0, 1]
  bool dropped = false;
  bool operator==(const standing&) const = default;
};

inline constexpr double tiebreak_floor = 1.0 / 3.0;
// Percentages closer than this are equal (they are exact fractions computed
// in floating point; the next tiebreaker decides).
inline constexpr double tiebreak_epsilon = 1e-9;

// Every player, best first: match points, then OMW%, GW%, OGW%, then the
// seed order. `seed_order` and `dropped` are indexed by player id.
std::vector<standing> compute_standings(const std::vector<match_record>& matches,
                                        const std::vector<int>& seed_order,
                                        const std::vector<bool>& dropped);

}  // namespace cod::tournaments
