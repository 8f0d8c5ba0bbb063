// Duel pairing (docs/queue.md, "Duels"). The tickets are laid out by rating
// in a doubly linked list of those still waiting; the longest-waiting ticket
// picks first, taking its nearest neighbour whose gap is within the wider of
// the two windows. Unlinking a paired ticket keeps every neighbour search
// short, so a wave is O(n log n) for the sort plus the skips that the rules
// force (last opponents, same address).
#include <algorithm>
#include <cmath>

#include "queue/pairing.hpp"

namespace cod::queue::detail {

namespace {

// The better of two neighbours of the same ticket: the smaller gap, then
// the longer wait, then the lower ticket id (determinism).
bool better(const candidate& a, double gap_a, const candidate& b, double gap_b) {
  if (gap_a != gap_b) return gap_a < gap_b;
  if (a.t->enqueued_ms != b.t->enqueued_ms) return a.t->enqueued_ms < b.t->enqueued_ms;
  return a.t->id < b.t->id;
}

}  // namespace

std::vector<std::vector<std::size_t>> pair_duels(const std::vector<candidate>& c, const pairing_rules& r) {
  const std::size_t n = c.size();
  constexpr std::size_t npos = rating_list::npos;
  rating_list list(c);
  const std::vector<std::size_t> order = oldest_first(c);
  // No pair's gap can pass the widest window of the pool: the searches stop there.
  const double widest = widest_window(c);

  std::vector<bool> taken(n, false);
  std::vector<std::vector<std::size_t>> pairs;
  for (const std::size_t i : order) {
    if (taken[i]) continue;
    const candidate& a = c[i];
    std::size_t best = npos, fallback = npos;
    double best_gap = 0, fallback_gap = 0;
    for (const bool left : {true, false}) {
      for (std::size_t k = left ? list.left_of(i) : list.right_of(i); k != npos;
           k = left ? list.prev[k] : list.next[k]) {
        const std::size_t j = list.at(k);
        const candidate& b = c[j];
        const double gap = std::abs(b.rating - a.rating);
        if (gap > widest) break;
        if (gap > std::max(a.window, b.window) || rematch_blocked(a, b, r)) continue;
        if (same_address(a, b)) {
          // Only if nothing else is in range: kept aside, the search goes on.
          if (fallback == npos || better(b, gap, c[fallback], fallback_gap)) fallback = j, fallback_gap = gap;
          continue;
        }
        if (best == npos || better(b, gap, c[best], best_gap)) best = j, best_gap = gap;
        break;  // the nearest on this side; farther ones have larger gaps
      }
    }
    const std::size_t j = best != npos ? best : fallback;
    if (j == npos) continue;
    taken[i] = taken[j] = true;
    list.unlink(i);
    list.unlink(j);
    pairs.push_back({i, j});
  }
  return pairs;
}

}  // namespace cod::queue::detail
