#include "tournament/standings.hpp"

#include <algorithm>

namespace cod::tournaments {

namespace {

struct tally {
  int match_points = 0, matches = 0;
  int wins = 0, losses = 0, draws = 0, byes = 0;
  int game_points = 0, games = 0;
  std::vector<player_id> opponents;  // byes excluded
};

double floored(int points, int possible) {
  if (possible == 0) return tiebreak_floor;  // nothing played yet: the floor, not 0/0
  return std::max(tiebreak_floor, static_cast<double>(points) / possible);
}

// -1: x before y, 1: after, 0: equal within epsilon.
int compare_desc(double x, double y) {
  if (x > y + tiebreak_epsilon) return -1;
  if (y > x + tiebreak_epsilon) return 1;
  return 0;
}

void add_side(tally& t, int won, int lost, int drawn, player_id opponent) {
  t.matches += 1;
  t.games += won + lost + drawn;
  t.game_points += 3 * won + drawn;
  if (won > lost) {
    t.wins += 1;
    t.match_points += 3;
  } else if (won < lost) {
    t.losses += 1;
  } else {
    t.draws += 1;
    t.match_points += 1;
  }
  if (opponent == no_player) {
    t.byes += 1;
  } else {
    t.opponents.push_back(opponent);
  }
}

}  // namespace

std::vector<standing> compute_standings(const std::vector<match_record>& matches,
                                        const std::vector<int>& seed_order,
                                        const std::vector<bool>& dropped) {
  const std::size_t n = seed_order.size();
  std::vector<tally> t(n);
  for (const match_record& m : matches) {
    add_side(t[static_cast<std::size_t>(m.a)], m.a_wins, m.b_wins, m.draws, m.b);
    if (m.b != no_player) add_side(t[static_cast<std::size_t>(m.b)], m.b_wins, m.a_wins, m.draws, m.a);
  }
  std::vector<standing> out(n);
  for (std::size_t i = 0; i < n; ++i) {
    standing& s = out[i];
    s.player = static_cast<player_id>(i);
    s.match_points = t[i].match_points;
    s.wins = t[i].wins;
    s.losses = t[i].losses;
    s.draws = t[i].draws;
    s.byes = t[i].byes;
    s.game_points = t[i].game_points;
    s.games = t[i].games;
    s.mwp = floored(t[i].match_points, 3 * t[i].matches);
    s.gwp = floored(t[i].game_points, 3 * t[i].games);
    s.dropped = i < dropped.size() && dropped[i];
  }
  for (std::size_t i = 0; i < n; ++i) {
    const auto& opp = t[i].opponents;
    if (opp.empty()) continue;  // only byes: 0 (no opponent to measure)
    double mw = 0, gw = 0;
    for (player_id o : opp) {
      mw += out[static_cast<std::size_t>(o)].mwp;
      gw += out[static_cast<std::size_t>(o)].gwp;
    }
    out[i].omwp = mw / static_cast<double>(opp.size());
    out[i].ogwp = gw / static_cast<double>(opp.size());
  }
  std::sort(out.begin(), out.end(), [&](const standing& x, const standing& y) {
    if (x.match_points != y.match_points) return x.match_points > y.match_points;
    for (int c : {compare_desc(x.omwp, y.omwp), compare_desc(x.gwp, y.gwp), compare_desc(x.ogwp, y.ogwp)})
      if (c != 0) return c < 0;
    return seed_order[static_cast<std::size_t>(x.player)] < seed_order[static_cast<std::size_t>(y.player)];
  });
  for (std::size_t i = 0; i < n; ++i) out[i].rank = static_cast<int>(i) + 1;
  return out;
}

}  // namespace cod::tournaments
