// OpenSkill's Plackett-Luce model (Weng and Lin, "A Bayesian Approximation
// Method for Online Ranking", JMLR 12, 2011, Algorithm 4; the openskill
// libraries' defaults) for four-player games: a free-for-all ranks four
// one-player teams, 2v2 ranks two teams of two (docs/ratings.md). Pure: the
// standard library only.
#pragma once

#include <vector>

namespace cod::ratings {

struct skill {
  double mu = 25;
  double sigma = 25.0 / 3;
  bool operator==(const skill&) const = default;
};

struct openskill_params {
  double beta = 25.0 / 6;  // the performance spread (sigma / 2 by default)
  double kappa = 0.0001;   // sigma never shrinks below sqrt(kappa) of itself in one game
};

// The teams' players after one game. ranks[i] is team i's place, 1 the
// best; equal ranks are a tie. ranks.size() == teams.size(); fewer than two
// teams changes nothing.
std::vector<std::vector<skill>> rate_plackett_luce(const std::vector<std::vector<skill>>& teams,
                                                   const std::vector<int>& ranks, const openskill_params& p = {});

// The conservative estimate shown and ranked: mu - z * sigma.
inline double ordinal(const skill& s, double z = 3) { return s.mu - z * s.sigma; }

}  // namespace cod::ratings
