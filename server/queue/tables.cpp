// Four-player tables (docs/queue.md, "Tables"). As for duels, the tickets
// are a linked list by rating and the longest-waiting ticket picks first:
// it looks at its `reach` nearest waiting neighbours on each side and takes
// the best table among those that contain it. A table is acceptable when
// its spread (highest minus lowest ticket rating) is within the widest
// window at it; the best has the fewest same-address pairs, then the
// smallest spread, then (2v2) the most even teams. Among tickets sorted by
// rating the tightest table is a run of neighbours, so a small reach finds it;
// the rest of the reach is room to step over a last opponent or an address.
#include <algorithm>
#include <cmath>

#include "queue/pairing.hpp"

namespace cod::queue::detail {

namespace {

constexpr std::size_t reach = 5;  // neighbours looked at on each side

struct score {
  int address_pairs = 0;
  double spread = 0;
  double imbalance = 0;
  bool operator<(const score& o) const {
    if (address_pairs != o.address_pairs) return address_pairs < o.address_pairs;
    if (spread != o.spread) return spread < o.spread;
    return imbalance < o.imbalance;
  }
};

}  // namespace

double best_split(const std::vector<const ticket*>& tickets, std::vector<int>& team) {
  const std::size_t n = tickets.size();
  double best = -1;
  std::vector<int> side(n);
  // Every assignment of whole tickets to two teams, the first ticket on team 0.
  for (unsigned mask = 0; mask < (1u << n); mask += 2) {
    int players[2] = {0, 0};
    double sum[2] = {0, 0};
    for (std::size_t i = 0; i < n; ++i) {
      side[i] = (mask >> i) & 1u;
      for (const member& m : tickets[i]->members) {
        ++players[side[i]];
        sum[side[i]] += m.rating;
      }
    }
    if (players[0] != players[1]) continue;
    const double imbalance = std::abs(sum[0] - sum[1]);
    if (best < 0 || imbalance < best) {
      best = imbalance;
      team = side;
    }
  }
  return best < 0 ? 0 : best;
}

std::vector<std::vector<std::size_t>> form_tables(const std::vector<candidate>& c, const pairing_rules& r, int seats,
                                                  bool two_teams) {
  const std::size_t n = c.size();
  constexpr std::size_t npos = rating_list::npos;
  rating_list list(c);
  const std::vector<std::size_t> order = oldest_first(c);
  const double widest = widest_window(c);

  std::vector<bool> taken(n, false);
  std::vector<std::vector<std::size_t>> tables;
  std::vector<std::size_t> near, pick, best;
  std::vector<const ticket*> table_tickets;
  std::vector<int> team;
  for (const std::size_t i : order) {
    if (taken[i]) continue;
    // The neighbourhood, in rating order: up to `reach` each side, within the widest window.
    near.clear();
    for (std::size_t k = list.left_of(i), m = 0; k != npos && m < reach; k = list.prev[k], ++m) {
      if (c[i].rating - c[list.at(k)].rating > widest) break;
      near.push_back(list.at(k));
    }
    std::reverse(near.begin(), near.end());
    const std::size_t self = near.size();
    near.push_back(i);
    for (std::size_t k = list.right_of(i), m = 0; k != npos && m < reach; k = list.next[k], ++m) {
      if (c[list.at(k)].rating - c[i].rating > widest) break;
      near.push_back(list.at(k));
    }

    // Every group of the neighbourhood holding i whose players fill the table.
    bool found = false;
    score best_score;
    pick.assign(1, i);
    auto consider = [&] {
      double lo = c[pick[0]].rating, hi = lo, window = 0;
      for (const std::size_t x : pick) {
        lo = std::min(lo, c[x].rating);
        hi = std::max(hi, c[x].rating);
        window = std::max(window, c[x].window);
      }
      score s;
      s.spread = hi - lo;
      if (s.spread > window) return;
      for (std::size_t a = 0; a < pick.size(); ++a)
        for (std::size_t b = a + 1; b < pick.size(); ++b) {
          if (rematch_blocked(c[pick[a]], c[pick[b]], r)) return;
          s.address_pairs += same_address(c[pick[a]], c[pick[b]]) ? 1 : 0;
        }
      if (found && !(s < best_score)) return;  // cheap tests first; the split only for contenders
      if (two_teams) {
        table_tickets.clear();
        for (const std::size_t x : pick) table_tickets.push_back(c[x].t);
        s.imbalance = best_split(table_tickets, team);
        if (found && !(s < best_score)) return;
      }
      found = true;
      best_score = s;
      best = pick;
    };
    auto choose = [&](auto&& self_ref, std::size_t from, int players_left) -> void {
      if (players_left == 0) return consider();
      for (std::size_t k = from; k < near.size(); ++k) {
        if (k == self || c[near[k]].players > players_left) continue;
        pick.push_back(near[k]);
        self_ref(self_ref, k + 1, players_left - c[near[k]].players);
        pick.pop_back();
      }
    };
    choose(choose, 0, seats - c[i].players);
    if (!found) continue;
    for (const std::size_t x : best) {
      taken[x] = true;
      list.unlink(x);
    }
    // Oldest ticket first (i, the picker, is the oldest: it picks first).
    std::sort(best.begin() + 1, best.end(), [&](std::size_t a, std::size_t b) {
      if (c[a].t->enqueued_ms != c[b].t->enqueued_ms) return c[a].t->enqueued_ms < c[b].t->enqueued_ms;
      return c[a].t->id < c[b].t->id;
    });
    tables.push_back(best);
  }
  return tables;
}

}  // namespace cod::queue::detail
