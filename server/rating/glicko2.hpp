// Glicko-2 for duels (Glickman, "Example of the Glicko-2 system", 2013;
// docs/ratings.md). Pure: the standard library, no clock (the caller says
// how long a player was idle). The server rates one game as one rating
// period for each player, as lichess does, after growing the rating
// deviation for the time since the player's last rated game.
#pragma once

#include <span>

namespace cod::ratings {

struct glicko2_rating {
  double rating = 1500;     // r, on the Glicko scale
  double deviation = 500;   // RD
  double volatility = 0.09; // sigma
  bool operator==(const glicko2_rating&) const = default;
};

struct glicko2_params {
  double tau = 0.75;               // how fast volatility may change (Glickman: 0.3 to 1.2)
  double min_deviation = 45;       // RD is kept in [min, max] after every update
  double max_deviation = 500;
  double provisional_deviation = 110;  // RD at or above this: provisional (off the ladder's ranking)
  double periods_per_day = 0.21436;    // idle growth: rating periods a day without games (lichess's)
  double epsilon = 0.000001;       // the volatility iteration's tolerance (Glickman's)
};

// One game of a rating period, from the rated player's side.
struct glicko2_game {
  glicko2_rating opponent;
  double score = 0;  // 1 win, 0.5 draw, 0 loss
};

// The rating after one rating period of `games` (none: only the deviation
// grows, steps 6 and 8 of the paper). The deviation is not clamped here
// (the paper's example is reproduced to its printed digits); rate_game is
// what the server calls.
glicko2_rating rate_period(const glicko2_rating& player, std::span<const glicko2_game> games, double tau,
                           double epsilon = 0.000001);

// The deviation after `idle_days` without a rated game: sqrt(phi^2 +
// sigma^2 * days * periods_per_day), at most max_deviation.
glicko2_rating after_idle(const glicko2_rating& player, double idle_days, const glicko2_params& p);

// One rated game as one rating period, the deviation then kept in
// [min_deviation, max_deviation].
glicko2_rating rate_game(const glicko2_rating& player, const glicko2_game& game, const glicko2_params& p);

inline bool provisional(const glicko2_rating& r, const glicko2_params& p) {
  return r.deviation >= p.provisional_deviation;
}

}  // namespace cod::ratings
