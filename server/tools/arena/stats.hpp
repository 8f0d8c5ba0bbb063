// The arena's statistics (docs/ai-arena.md): a score's 95% Wilson interval,
// the Elo difference a score stands for, and the sequential probability
// ratio test's log-likelihood ratio. Pure maths, unit-tested in
// tests/search/test_arena_stats.cpp.
//
// A score is a share of the win in [0, 1]: 1 a win, 0 a loss, and a draw
// (or a game cut by the cap) the even share, 1 / sides. "sides" is how many
// parties a game is won between: 2 in a duel and in 2v2 (two teams), 4 in a
// free-for-all; chance is 1 / sides.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace cod::arena {

inline constexpr double z95 = 1.959963984540054;  // the normal's two-sided 95% quantile

struct interval {
  double low = 0;
  double high = 0;
};

// Wilson's score interval for `successes` out of `n` (successes may be
// fractional: a draw adds a half). With draws the binomial variance p(1-p)/n
// is an upper bound for a {0, 1/2, 1} score's, so the interval is on the wide
// (safe) side; paired games with swapped seats are negatively correlated,
// which only widens it further.
inline interval wilson(double successes, double n, double z = z95) {
  if (n <= 0) return {0, 1};
  const double p = successes / n;
  const double z2 = z * z;
  const double centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const double half = z / (1 + z2 / n) * std::sqrt(p * (1 - p) / n + z2 / (4 * n * n));
  // At p = 0 or 1 one end is exactly 0 or 1 (rounding would leave it a hair
  // inside, an Elo bound of thousands instead of infinity).
  return {p <= 0 ? 0.0 : std::max(0.0, centre - half), p >= 1 ? 1.0 : std::min(1.0, centre + half)};
}

// The Elo difference of a score against equal opponents under the logistic
// (Bradley-Terry / Luce choice) model: a player of strength g among
// sides - 1 opponents of strength h wins with g / (g + (sides - 1) h), and
// Elo is 400 log10(g / h). A duel's is the usual 400 log10(s / (1 - s));
// chance (1 / sides) is 0 in every mode. A score of 0 or 1 gives -inf, +inf.
inline double elo_from_score(double s, int sides = 2) {
  if (s <= 0) return -std::numeric_limits<double>::infinity();
  if (s >= 1) return std::numeric_limits<double>::infinity();
  return 400.0 * std::log10((sides - 1) * s / (1 - s));
}

inline double score_from_elo(double elo, int sides = 2) {
  const double r = std::pow(10.0, elo / 400.0);
  return r / (r + (sides - 1));
}

// One outcome of the unit the SPRT counts (a pair or group of games: its
// mean score) and how often it came.
struct outcome {
  double value = 0;  // in [0, 1]
  double count = 0;
};

// The distribution closest (maximum likelihood) to the observed one whose
// mean is `s`: p_i = q_i / (1 + x (a_i - s)), x the root of
// sum q_i (a_i - s) / (1 + x (a_i - s)) = 0 (fishtest's MLE_expected; the sum
// falls with x, so bisection finds it). Needs min a < s < max a.
inline std::vector<double> closest_with_mean(const std::vector<outcome>& o, double s) {
  double total = 0, lo_a = 1e300, hi_a = -1e300;
  for (const auto& e : o) {
    total += e.count;
    lo_a = std::min(lo_a, e.value);
    hi_a = std::max(hi_a, e.value);
  }
  std::vector<double> p(o.size(), 0.0);
  if (total <= 0 || !(lo_a < s && s < hi_a)) return p;
  // 1 + x (a_i - s) > 0 for every i: x in (-1 / (max a - s), 1 / (s - min a)).
  double lo = -1 / (hi_a - s), hi = 1 / (s - lo_a);
  for (int k = 0; k < 200; ++k) {
    const double x = (lo + hi) / 2;
    double f = 0;
    for (const auto& e : o) f += e.count / total * (e.value - s) / (1 + x * (e.value - s));
    (f > 0 ? lo : hi) = x;
  }
  const double x = (lo + hi) / 2;
  for (std::size_t i = 0; i < o.size(); ++i) p[i] = o[i].count / total / (1 + x * (o[i].value - s));
  return p;
}

// The generalised SPRT's log-likelihood ratio of H1 (mean score s1) against
// H0 (mean score s0), as fishtest computes it for game pairs (Michel Van den
// Bergh, "A generalized SPRT", 2016): sum_i n_i ln(p1_i / p0_i), each p the
// observed distribution's closest one with that mean. The outcomes must span
// s0 and s1 (regularize() makes sure).
inline double llr(const std::vector<outcome>& o, double s0, double s1) {
  const auto p0 = closest_with_mean(o, s0);
  const auto p1 = closest_with_mean(o, s1);
  double sum = 0;
  for (std::size_t i = 0; i < o.size(); ++i)
    if (o[i].count > 0) sum += o[i].count * std::log(p1[i] / p0[i]);
  return sum;
}

// fishtest's regularisation: every outcome of the model (the pentanomial's
// five; here at least the extremes 0 and 1) counted at least epsilon times, so
// that an early run of one-sided results still gives a finite LLR.
inline std::vector<outcome> regularize(std::vector<outcome> o, double epsilon = 1e-3) {
  bool has0 = false, has1 = false;
  for (auto& e : o) {
    e.count = std::max(e.count, epsilon);
    has0 |= e.value == 0.0;
    has1 |= e.value == 1.0;
  }
  if (!has0) o.push_back({0.0, epsilon});
  if (!has1) o.push_back({1.0, epsilon});
  return o;
}

// The pentanomial model of a pair of games (duel: the same deal with seats
// swapped): the pair's score 0, 1/2, 1, 3/2 or 2, as a mean in [0, 1].
inline std::vector<outcome> pentanomial(const double (&pairs)[5]) {
  std::vector<outcome> o;
  for (int k = 0; k < 5; ++k) o.push_back({k / 4.0, pairs[k]});
  return regularize(o);
}

// Wald's bounds: accept H0 at or below ln(beta / (1 - alpha)), H1 at or above
// ln((1 - beta) / alpha).
enum class verdict { undecided, h0, h1 };
inline double lower_bound(double alpha, double beta) { return std::log(beta / (1 - alpha)); }
inline double upper_bound(double alpha, double beta) { return std::log((1 - beta) / alpha); }
inline verdict sprt_verdict(double llr_value, double alpha, double beta) {
  if (llr_value >= upper_bound(alpha, beta)) return verdict::h1;
  if (llr_value <= lower_bound(alpha, beta)) return verdict::h0;
  return verdict::undecided;
}

}  // namespace cod::arena
