#include "rating/glicko2.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace cod::ratings {

namespace {

constexpr double scale = 173.7178;  // Glicko to Glicko-2 (step 2)

double g(double phi) { return 1 / std::sqrt(1 + 3 * phi * phi / (std::numbers::pi * std::numbers::pi)); }

double expected(double mu, double mu_j, double phi_j) { return 1 / (1 + std::exp(-g(phi_j) * (mu - mu_j))); }

// Step 5: the new volatility, by the Illinois algorithm.
double new_volatility(double phi, double sigma, double v, double delta, double tau, double epsilon) {
  const double a = std::log(sigma * sigma);
  const auto f = [&](double x) {
    const double ex = std::exp(x);
    const double d = phi * phi + v + ex;
    return ex * (delta * delta - phi * phi - v - ex) / (2 * d * d) - (x - a) / (tau * tau);
  };
  double big_a = a;
  double big_b = 0;
  if (delta * delta > phi * phi + v) {
    big_b = std::log(delta * delta - phi * phi - v);
  } else {
    int k = 1;
    while (f(a - k * tau) < 0) ++k;
    big_b = a - k * tau;
  }
  double f_a = f(big_a), f_b = f(big_b);
  while (std::abs(big_b - big_a) > epsilon) {
    const double c = big_a + (big_a - big_b) * f_a / (f_b - f_a);
    const double f_c = f(c);
    if (f_c * f_b <= 0) {
      big_a = big_b;
      f_a = f_b;
    } else {
      f_a /= 2;
    }
    big_b = c;
    f_b = f_c;
  }
  return std::exp(big_a / 2);
}

}  // namespace

glicko2_rating rate_period(const glicko2_rating& player, std::span<const glicko2_game> games, double tau,
                           double epsilon) {
  const double mu = (player.rating - 1500) / scale;
  const double phi = player.deviation / scale;
  const double sigma = player.volatility;
  if (games.empty()) return {player.rating, scale * std::sqrt(phi * phi + sigma * sigma), sigma};

  double v_inv = 0, sum = 0;  // steps 3 and 4
  for (const glicko2_game& game : games) {
    const double mu_j = (game.opponent.rating - 1500) / scale;
    const double phi_j = game.opponent.deviation / scale;
    const double e = expected(mu, mu_j, phi_j);
    v_inv += g(phi_j) * g(phi_j) * e * (1 - e);
    sum += g(phi_j) * (game.score - e);
  }
  const double v = 1 / v_inv;
  const double delta = v * sum;
  const double sigma2 = new_volatility(phi, sigma, v, delta, tau, epsilon);
  const double phi_star = std::sqrt(phi * phi + sigma2 * sigma2);             // step 6
  const double phi2 = 1 / std::sqrt(1 / (phi_star * phi_star) + 1 / v);      // step 7
  const double mu2 = mu + phi2 * phi2 * sum;
  return {scale * mu2 + 1500, scale * phi2, sigma2};                          // step 8
}

glicko2_rating after_idle(const glicko2_rating& player, double idle_days, const glicko2_params& p) {
  if (idle_days <= 0) return player;
  const double phi = player.deviation / scale;
  const double grown = scale * std::sqrt(phi * phi + player.volatility * player.volatility * idle_days * p.periods_per_day);
  return {player.rating, std::min(grown, p.max_deviation), player.volatility};
}

glicko2_rating rate_game(const glicko2_rating& player, const glicko2_game& game, const glicko2_params& p) {
  glicko2_rating r = rate_period(player, std::span<const glicko2_game>(&game, 1), p.tau, p.epsilon);
  r.deviation = std::clamp(r.deviation, p.min_deviation, p.max_deviation);
  return r;
}

}  // namespace cod::ratings
