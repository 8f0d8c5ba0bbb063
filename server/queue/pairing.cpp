// What duels and tables share (docs/queue.md, "Who may meet"): the pair
// rules, the rating list, the picking order.
#include "queue/pairing.hpp"

#include <algorithm>
#include <numeric>

namespace cod::queue::detail {

namespace {

bool met_last(const ticket& a, const ticket& b) {
  for (const member& m : b.members)
    if (std::find(a.last_opponents.begin(), a.last_opponents.end(), m.account) != a.last_opponents.end()) return true;
  return false;
}

}  // namespace

bool rematch_blocked(const candidate& a, const candidate& b, const pairing_rules& r) {
  if (a.waited_ms >= r.rematch_after_ms && b.waited_ms >= r.rematch_after_ms) return false;
  return met_last(*a.t, *b.t) || met_last(*b.t, *a.t);
}

bool same_address(const candidate& a, const candidate& b) {
  return !a.t->address.empty() && a.t->address == b.t->address;
}

rating_list::rating_list(const std::vector<candidate>& c)
    : by_rating(c.size()), rank(c.size()), prev(c.size()), next(c.size()) {
  const std::size_t n = c.size();
  std::iota(by_rating.begin(), by_rating.end(), 0);
  std::sort(by_rating.begin(), by_rating.end(), [&](std::size_t a, std::size_t b) {
    if (c[a].rating != c[b].rating) return c[a].rating < c[b].rating;
    return c[a].t->id < c[b].t->id;
  });
  for (std::size_t k = 0; k < n; ++k) {
    rank[by_rating[k]] = k;
    prev[k] = k == 0 ? npos : k - 1;
    next[k] = k + 1 == n ? npos : k + 1;
  }
}

void rating_list::unlink(std::size_t i) {
  const std::size_t k = rank[i];
  if (prev[k] != npos) next[prev[k]] = next[k];
  if (next[k] != npos) prev[next[k]] = prev[k];
}

std::vector<std::size_t> oldest_first(const std::vector<candidate>& c) {
  std::vector<std::size_t> order(c.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    if (c[a].t->enqueued_ms != c[b].t->enqueued_ms) return c[a].t->enqueued_ms < c[b].t->enqueued_ms;
    return c[a].t->id < c[b].t->id;
  });
  return order;
}

double widest_window(const std::vector<candidate>& c) {
  double widest = 0;
  for (const candidate& x : c) widest = std::max(widest, x.window);
  return widest;
}

}  // namespace cod::queue::detail
