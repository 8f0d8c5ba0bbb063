// The arena's statistics (server/tools/arena/stats.hpp) against values worked
// out by hand (and checked with an independent Newton solver in Python).
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <cmath>

#include "arena/stats.hpp"

namespace cod::arena {

TEST_CASE("Wilson's 95% interval") {
  // 50 of 100: centre 1/2, half-width z/(1 + z^2/n) sqrt(1/4n + z^2/4n^2).
  const interval half = wilson(50, 100);
  CHECK(half.low == doctest::Approx(0.4038315).epsilon(1e-6));
  CHECK(half.high == doctest::Approx(0.5961685).epsilon(1e-6));
  // 0 of 10: the lower end is 0, the upper z^2/(n + z^2).
  const interval none = wilson(0, 10);
  CHECK(none.low == doctest::Approx(0.0));
  CHECK(none.high == doctest::Approx(z95 * z95 / (10 + z95 * z95)).epsilon(1e-9));
  CHECK(none.high == doctest::Approx(0.2775328).epsilon(1e-6));
  // 10 of 10, the mirror image: the upper end exactly 1 (an infinite Elo bound).
  CHECK(wilson(10, 10).high == 1.0);
  CHECK(wilson(10, 10).low == doctest::Approx(1 - 0.2775328).epsilon(1e-6));
  CHECK(wilson(0, 10).low == 0.0);
  // 8 of 10: not symmetric about 0.8.
  const interval most = wilson(8, 10);
  CHECK(most.low == doctest::Approx(0.4901625).epsilon(1e-6));
  CHECK(most.high == doctest::Approx(0.9433178).epsilon(1e-6));
  // A fractional count (draws as halves): 215 of 400.
  const interval drawn = wilson(215, 400);
  CHECK(drawn.low == doctest::Approx(0.4885138).epsilon(1e-6));
  CHECK(drawn.high == doctest::Approx(0.5857727).epsilon(1e-6));
  // No games: everything is possible.
  CHECK(wilson(0, 0).low == 0.0);
  CHECK(wilson(0, 0).high == 1.0);
}

TEST_CASE("Elo from a score: duel, and against several opponents (Luce)") {
  CHECK(elo_from_score(0.5) == doctest::Approx(0.0));
  CHECK(elo_from_score(0.75) == doctest::Approx(400 * std::log10(3.0)));  // 190.85
  CHECK(elo_from_score(0.75) == doctest::Approx(190.8485).epsilon(1e-6));
  CHECK(elo_from_score(0.55) == doctest::Approx(34.86007).epsilon(1e-6));
  CHECK(elo_from_score(0.25) == doctest::Approx(-190.8485).epsilon(1e-6));
  CHECK(std::isinf(elo_from_score(1.0)));
  CHECK(elo_from_score(0.0) < 0);
  // Free-for-all (4 sides): chance, 1/4, is 0; winning half the games means
  // g / (g + 3h) = 1/2, g = 3h: 400 log10 3.
  CHECK(elo_from_score(0.25, 4) == doctest::Approx(0.0));
  CHECK(elo_from_score(0.5, 4) == doctest::Approx(190.8485).epsilon(1e-6));
  for (double e : {-300.0, -35.0, 0.0, 12.5, 400.0})
    for (int sides : {2, 4}) CHECK(elo_from_score(score_from_elo(e, sides), sides) == doctest::Approx(e));
  CHECK(score_from_elo(0, 4) == doctest::Approx(0.25));
}

TEST_CASE("the SPRT's log-likelihood ratio") {
  // Wins and losses only: the closest distributions with mean s are the
  // Bernoulli(s) themselves, so LLR = W ln(s1/s0) + L ln((1-s1)/(1-s0)):
  // 60 ln 1.1 + 40 ln 0.9.
  const std::vector<outcome> binary{{0.0, 40}, {1.0, 60}};
  CHECK(llr(binary, 0.5, 0.55) == doctest::Approx(60 * std::log(1.1) + 40 * std::log(0.9)));
  CHECK(llr(binary, 0.5, 0.55) == doctest::Approx(1.5041902).epsilon(1e-6));
  // Pentanomial pairs 10, 50, 100, 60, 20 (mean 0.53125): 1.2675056 (a
  // Newton solve of the same maximum-likelihood problem), close to the normal
  // approximation N (s1-s0)(2 mean - s0 - s1) / (2 var) = 1.2729.
  const double pairs[5] = {10, 50, 100, 60, 20};
  CHECK(llr(pentanomial(pairs), 0.5, 0.55) == doctest::Approx(1.2675056).epsilon(1e-6));
  // The mirror image favours H0.
  const double mirrored[5] = {20, 60, 100, 50, 10};
  CHECK(llr(pentanomial(mirrored), 0.5, 0.55) == doctest::Approx(-11.0147412).epsilon(1e-6));
  // The closest distribution has the asked mean and sums to 1.
  const auto p = closest_with_mean(pentanomial(pairs), 0.55);
  double sum = 0, mean = 0;
  for (std::size_t i = 0; i < p.size(); ++i) {
    sum += p[i];
    mean += p[i] * pentanomial(pairs)[i].value;
  }
  CHECK(sum == doctest::Approx(1.0));
  CHECK(mean == doctest::Approx(0.55));
  // One-sided early results stay finite once regularised.
  const double all_won[5] = {0, 0, 0, 0, 3};
  CHECK(std::isfinite(llr(pentanomial(all_won), 0.5, 0.55)));
  CHECK(llr(pentanomial(all_won), 0.5, 0.55) > 0);
  const auto wins_only = regularize({{1.0, 5}});
  CHECK(wins_only.size() == 2);
  CHECK(std::isfinite(llr(wins_only, 0.5, 0.55)));
}

TEST_CASE("Wald's bounds for alpha = beta = 0.05") {
  CHECK(lower_bound(0.05, 0.05) == doctest::Approx(-2.9444390).epsilon(1e-6));
  CHECK(upper_bound(0.05, 0.05) == doctest::Approx(2.9444390).epsilon(1e-6));
  CHECK(sprt_verdict(3.0, 0.05, 0.05) == verdict::h1);
  CHECK(sprt_verdict(-3.0, 0.05, 0.05) == verdict::h0);
  CHECK(sprt_verdict(1.27, 0.05, 0.05) == verdict::undecided);
}

}  // namespace cod::arena
