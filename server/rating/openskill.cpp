#include "rating/openskill.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>

namespace cod::ratings {

std::vector<std::vector<skill>> rate_plackett_luce(const std::vector<std::vector<skill>>& teams,
                                                   const std::vector<int>& ranks, const openskill_params& p) {
  const std::size_t n = teams.size();
  if (n < 2 || ranks.size() != n) return teams;
  // A team is the sum of its players (mu and sigma^2).
  std::vector<double> mu(n, 0), sigma_sq(n, 0);
  for (std::size_t i = 0; i < n; ++i)
    for (const skill& s : teams[i]) {
      mu[i] += s.mu;
      sigma_sq[i] += s.sigma * s.sigma;
    }
  double c_sq = 0;
  for (std::size_t i = 0; i < n; ++i) c_sq += sigma_sq[i] + p.beta * p.beta;
  const double c = std::sqrt(c_sq);
  std::vector<double> strength(n), sum_q(n, 0), tied(n, 0);
  for (std::size_t i = 0; i < n; ++i) strength[i] = std::exp(mu[i] / c);
  // sum_q[q]: the strengths of the teams placed at q or after it; tied[q]:
  // how many teams share q's place.
  for (std::size_t q = 0; q < n; ++q)
    for (std::size_t i = 0; i < n; ++i) {
      if (ranks[i] >= ranks[q]) sum_q[q] += strength[i];
      if (ranks[i] == ranks[q]) tied[q] += 1;
    }

  std::vector<std::vector<skill>> out = teams;
  for (std::size_t i = 0; i < n; ++i) {
    double omega = 0, delta = 0;
    for (std::size_t q = 0; q < n; ++q) {
      if (ranks[q] > ranks[i]) continue;  // only the places at or before i's
      const double share = strength[i] / sum_q[q];
      omega += ((q == i ? 1 : 0) - share) / tied[q];
      delta += share * (1 - share) / tied[q];
    }
    const double gamma = std::sqrt(sigma_sq[i]) / c;
    const double team_omega = omega * sigma_sq[i] / c;
    const double team_delta = delta * sigma_sq[i] / c_sq * gamma;
    for (skill& s : out[i]) {
      const double part = s.sigma * s.sigma / sigma_sq[i];
      s.mu += part * team_omega;
      s.sigma *= std::sqrt(std::max(1 - part * team_delta, p.kappa));
    }
  }
  return out;
}

}  // namespace cod::ratings
