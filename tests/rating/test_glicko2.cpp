// Glicko-2 against Glickman's worked example ("Example of the Glicko-2
// system", Mark E. Glickman, Boston University, November 30, 2013:
// http://www.glicko.net/glicko/glicko2.pdf, steps 1 to 8), then the
// server's use: one game a period, the deviation's bounds, idle growth.
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "rating/glicko2.hpp"

using namespace cod::ratings;

namespace {

// Rounded to `digits` decimals, as the paper prints.
double round_to(double x, int digits) {
  const double f = std::pow(10.0, digits);
  return std::round(x * f) / f;
}

}  // namespace

TEST_CASE("glicko2: Glickman's example, to the printed digits") {
  const glicko2_rating player{1500, 200, 0.06};
  const std::vector<glicko2_game> games = {
      {{1400, 30, 0.06}, 1},   // a win
      {{1550, 100, 0.06}, 0},  // a loss
      {{1700, 300, 0.06}, 0},  // a loss
  };
  const glicko2_rating r = rate_period(player, games, 0.5);
  CHECK(round_to(r.rating, 2) == 1464.05);
  CHECK(round_to(r.deviation, 2) == 151.52);
  // The paper prints sigma' = 0.05999: its digits cut, not rounded (0.0599959...).
  CHECK(std::floor(r.volatility * 1e5) / 1e5 == 0.05999);
  CHECK(r.volatility == doctest::Approx(0.059996).epsilon(1e-5));
}

TEST_CASE("glicko2: a period without games only grows the deviation (step 6)") {
  const glicko2_rating player{1500, 200, 0.06};
  const glicko2_rating r = rate_period(player, {}, 0.5);
  CHECK(r.rating == 1500);
  CHECK(r.volatility == 0.06);
  const double phi = 200 / 173.7178;
  CHECK(r.deviation == doctest::Approx(173.7178 * std::sqrt(phi * phi + 0.06 * 0.06)));
}

TEST_CASE("glicko2: one rated game a period; the deviation kept in its bounds; provisional until RD < 110") {
  const glicko2_params p;  // lichess's: 1500, 500, 0.09, tau 0.75, RD in [45, 500]
  glicko2_rating a, b;
  CHECK(provisional(a, p));
  const glicko2_rating a2 = rate_game(a, {b, 1}, p);
  const glicko2_rating b2 = rate_game(b, {a, 0}, p);
  CHECK(a2.rating > 1500);
  CHECK(b2.rating < 1500);
  CHECK(a2.rating - 1500 == doctest::Approx(1500 - b2.rating));  // equal players: symmetric
  CHECK(a2.deviation < 500);
  // Many wins against an established player: RD falls to its floor, never below.
  const glicko2_rating rock{1500, 60, 0.06};
  for (int i = 0; i < 400; ++i) a = rate_game(a, {rock, i % 2 ? 1.0 : 0.0}, p);
  CHECK(a.deviation >= p.min_deviation);
  CHECK(a.deviation < 110);
  CHECK_FALSE(provisional(a, p));
  // A draw between equals moves neither rating.
  const glicko2_rating d = rate_game(rock, {rock, 0.5}, p);
  CHECK(d.rating == doctest::Approx(1500));
}

TEST_CASE("glicko2: idle time grows the deviation, at most to the maximum") {
  const glicko2_params p;
  const glicko2_rating r{1700, 60, 0.06};
  CHECK(after_idle(r, 0, p) == r);
  const glicko2_rating month = after_idle(r, 30, p);
  const double phi = 60 / 173.7178;
  CHECK(month.deviation == doctest::Approx(173.7178 * std::sqrt(phi * phi + 0.06 * 0.06 * 30 * 0.21436)));
  CHECK(month.rating == 1700);
  CHECK(after_idle(r, 30, p).deviation < after_idle(r, 365, p).deviation);
  CHECK(after_idle(r, 1e9, p).deviation == p.max_deviation);
}
