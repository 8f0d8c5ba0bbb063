#include "tournament/swiss.hpp"

#include <algorithm>
#include <cstdint>

namespace cod::tournaments {

namespace {

// Backtracking over positions in the pairing order. Positions, not ids, so
// "top-down" is index order.
class searcher {
 public:
  searcher(std::vector<std::vector<std::uint8_t>> met, std::size_t budget)
      : met_(std::move(met)), budget_(budget), used_(met_.size(), 0) {}

  // Pairs every position except `skip` with at most `allowed` rematches.
  bool run(int skip, int allowed) {
    std::fill(used_.begin(), used_.end(), 0);
    stack_.clear();
    nodes_ = 0;
    if (skip >= 0) used_[static_cast<std::size_t>(skip)] = 1;
    return step(allowed);
  }

  bool out_of_budget() const { return nodes_ > budget_; }
  const std::vector<std::pair<int, int>>& pairs() const { return stack_; }

 private:
  // A lower bound on the rematches still needed: a player whose every
  // remaining opponent is a rematch costs one, and a rematch serves two.
  int needed_rematches() const {
    const int n = static_cast<int>(used_.size());
    int stuck = 0;
    for (int u = 0; u < n; ++u) {
      if (used_[static_cast<std::size_t>(u)]) continue;
      bool free_partner = false;
      for (int v = 0; v < n && !free_partner; ++v)
        if (v != u && !used_[static_cast<std::size_t>(v)] && !met(u, v)) free_partner = true;
      if (!free_partner) ++stuck;
    }
    return (stuck + 1) / 2;
  }

  bool met(int u, int v) const { return met_[static_cast<std::size_t>(u)][static_cast<std::size_t>(v)] != 0; }

  bool step(int allowed) {
    if (++nodes_ > budget_) return false;
    const int n = static_cast<int>(used_.size());
    int i = 0;
    while (i < n && used_[static_cast<std::size_t>(i)]) ++i;
    if (i == n) return true;
    if (needed_rematches() > allowed) return false;
    used_[static_cast<std::size_t>(i)] = 1;
    for (int j = i + 1; j < n; ++j) {
      if (used_[static_cast<std::size_t>(j)]) continue;
      const int cost = met(i, j) ? 1 : 0;
      if (cost > allowed) continue;
      used_[static_cast<std::size_t>(j)] = 1;
      stack_.emplace_back(i, j);
      if (step(allowed - cost)) return true;
      if (out_of_budget()) break;
      stack_.pop_back();
      used_[static_cast<std::size_t>(j)] = 0;
    }
    used_[static_cast<std::size_t>(i)] = 0;
    return false;
  }

  std::vector<std::vector<std::uint8_t>> met_;
  std::size_t budget_;
  std::size_t nodes_ = 0;
  std::vector<std::uint8_t> used_;
  std::vector<std::pair<int, int>> stack_;
};

}  // namespace

swiss_result pair_swiss(const swiss_request& r) {
  swiss_result out;
  const int n = static_cast<int>(r.order.size());
  if (n == 0) return out;
  std::vector<std::vector<std::uint8_t>> met(static_cast<std::size_t>(n), std::vector<std::uint8_t>(static_cast<std::size_t>(n), 0));
  for (int u = 0; u < n; ++u)
    for (int v = 0; v < n; ++v)
      if (u != v && r.played && r.played(r.order[static_cast<std::size_t>(u)], r.order[static_cast<std::size_t>(v)]))
        met[static_cast<std::size_t>(u)][static_cast<std::size_t>(v)] = 1;

  // Bye candidates as positions; with an even count the only "candidate" is none.
  std::vector<int> skips;
  if (n % 2 == 1) {
    for (player_id p : r.bye_preference) {
      const auto it = std::find(r.order.begin(), r.order.end(), p);
      if (it != r.order.end()) skips.push_back(static_cast<int>(it - r.order.begin()));
    }
    if (skips.empty()) skips.push_back(n - 1);  // defensive: a preference that names nobody
  } else {
    skips.push_back(-1);
  }

  searcher s(std::move(met), r.node_budget);
  // With n/2 rematches allowed the first branch always succeeds, so the loop ends.
  for (int allowed = 0; allowed <= n / 2; ++allowed) {
    for (int skip : skips) {
      const bool found = s.run(skip, allowed);
      if (s.out_of_budget()) out.exhaustive = false;
      if (!found) continue;
      for (const auto& [i, j] : s.pairs())
        out.pairs.emplace_back(r.order[static_cast<std::size_t>(i)], r.order[static_cast<std::size_t>(j)]);
      out.bye = skip >= 0 ? r.order[static_cast<std::size_t>(skip)] : no_player;
      for (const auto& [a, b] : out.pairs)
        if (r.played && r.played(a, b)) ++out.rematches;
      return out;
    }
  }
  return out;  // unreachable for n >= 1
}

}  // namespace cod::tournaments
