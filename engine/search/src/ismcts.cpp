#include "ismcts.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace cod::search::detail {

namespace {

// An action as the tree knows it. The searching seat's own moves are named
// by uid (its hand is the same in every world); another seat's by the card
// it plays, since the uid behind a hidden card differs from world to world.
struct move_key {
  action_type type = action_type::end_turn;
  seat_t seat = no_seat;
  std::uint16_t card = 0;  // uid (own move) or card id (another seat's)
  std::int8_t line = -1;
  card_uid target = no_uid;
  card_uid host = no_uid;
  bool operator==(const move_key&) const = default;
};

move_key key_of(const match& m, const action& a, seat_t me) {
  move_key k{a.type, a.seat, 0, a.line, a.target, a.host};
  if (a.card != no_uid) k.card = a.seat == me ? a.card : static_cast<std::uint16_t>(m.card_of(a.card) | 0x8000);
  return k;
}

struct node {
  move_key key;
  action first;          // the action as first expanded (the root's children: the move to play)
  seat_t mover = no_seat;  // the seat that played `key` (whose reward this node keeps)
  int first_child = -1;
  int next_sibling = -1;
  int visits = 0;
  int available = 0;     // iterations in which its action was legal here
  int seen_in = -1;      // the last iteration that counted it available (two legal actions may share a key)
  double reward = 0;
};

// Each seat's result in [0, 1]: a win 1, a loss 0 (2v2: the team's, R11.6);
// a cut playout by the heuristic.
void score(const match& m, double* out) {
  const int n = m.seat_count();
  if (m.over()) {
    for (int s = 0; s < n; ++s) out[s] = (m.winners() >> s) & 1 ? 1.0 : 0.0;
    return;
  }
  const seat_view v = m.view(referee);
  for (int s = 0; s < n; ++s) out[s] = 0.5 + 0.5 * evaluate(m.cards(), v, s);
}

}  // namespace

int random_playout(match& m, rng& r, int cap) {
  action legal[match::max_legal_actions];
  int played = 0;
  while (!m.over() && played < cap) {
    const int n = m.legal_actions(legal, match::max_legal_actions);
    if (n == 0) break;
    m.apply_legal(legal[r.below(static_cast<std::uint64_t>(n))]);  // from legal_actions just above
    ++played;
  }
  return played;
}

search_result run_ismcts(const world_source& next_world, seat_t me, const settings& s, rng& r,
                         const stop_check& stop) {
  std::vector<node> tree(1);
  // One node an iteration at most; a time-budgeted search may stop long
  // before a generous iteration cap, so the reserve is bounded.
  tree.reserve(static_cast<std::size_t>(std::min(s.iterations, 1 << 14)) + 1);
  const double c = s.exploration_permille / 1000.0;
  std::vector<event> events;
  events.reserve(256);
  action legal[match::max_legal_actions];
  int child_of[match::max_legal_actions];
  int untried[match::max_legal_actions];
  std::vector<int> path;
  match world;
  search_result result;
  for (int it = 0; it < s.iterations; ++it) {
    if (it > 0 && stop && stop()) break;
    if (!next_world(r, world)) break;
    path.assign(1, 0);
    int cur = 0;
    // Selection and expansion: down the tree while every legal action here
    // has a child; then one new child.
    while (!world.over()) {
      const int n = world.legal_actions(legal, match::max_legal_actions);
      if (n == 0) break;
      int n_untried = 0;
      for (int i = 0; i < n; ++i) {
        const move_key k = key_of(world, legal[i], me);
        child_of[i] = -1;
        for (int ch = tree[cur].first_child; ch >= 0; ch = tree[ch].next_sibling)
          if (tree[ch].key == k) {
            child_of[i] = ch;
            break;
          }
        if (child_of[i] < 0) {
          untried[n_untried++] = i;
        } else if (tree[child_of[i]].seen_in != it) {
          tree[child_of[i]].seen_in = it;
          ++tree[child_of[i]].available;
        }
      }
      int pick;
      if (n_untried > 0) {
        pick = untried[r.below(static_cast<std::uint64_t>(n_untried))];
        node fresh;
        fresh.key = key_of(world, legal[pick], me);
        fresh.first = legal[pick];
        fresh.mover = world.active_seat();
        fresh.available = 1;
        fresh.seen_in = it;
        fresh.next_sibling = tree[cur].first_child;
        tree.push_back(fresh);
        const int id = static_cast<int>(tree.size()) - 1;
        tree[cur].first_child = id;
        cur = id;
      } else {
        pick = 0;
        double best = -1e300;
        for (int i = 0; i < n; ++i) {
          const node& ch = tree[child_of[i]];
          const double ucb =
              ch.reward / ch.visits + c * std::sqrt(std::log(static_cast<double>(ch.available)) / ch.visits);
          if (ucb > best) {
            best = ucb;
            pick = i;
          }
        }
        cur = child_of[pick];
      }
      path.push_back(cur);
      events.clear();
      if (world.apply(legal[pick], events) != rule_error::ok) break;
      if (n_untried > 0) break;
    }
    // Simulation, then every node on the path keeps its mover's result.
    random_playout(world, r, s.playout_cap);
    double rewards[max_seats] = {};
    score(world, rewards);
    for (int id : path) {
      ++tree[id].visits;
      if (tree[id].mover >= 0) tree[id].reward += rewards[tree[id].mover];
    }
    ++result.iterations;
  }
  // The most visited move (ties: the first expanded, a fixed order).
  int best = -1;
  for (int ch = tree[0].first_child; ch >= 0; ch = tree[ch].next_sibling)
    if (best < 0 || tree[ch].visits > tree[best].visits ||
        (tree[ch].visits == tree[best].visits && ch < best))
      best = ch;
  if (best >= 0) result.chosen = tree[best].first;
  return result;
}

}  // namespace cod::search::detail
