// Swiss pairing properties, checked against brute force over random result
// histories: every active player paired once, the fewest rematches possible,
// the bye to the lowest-ranked player without one unless that forces a
// rematch, and everything reproducible from the seed.
#include <algorithm>
#include <set>

#include "helpers.hpp"
#include "tournament/swiss.hpp"

using namespace cod;
using namespace cod::tournaments;
using namespace cod::tournaments::test;

namespace {

using met_matrix = std::vector<std::vector<bool>>;

met_matrix who_met(const tournament& t) {
  const std::size_t n = t.players().size();
  met_matrix m(n, std::vector<bool>(n, false));
  for (const round& r : t.rounds())
    for (const pairing& p : r.pairings)
      if (!p.is_bye()) m[static_cast<std::size_t>(p.a)][static_cast<std::size_t>(p.b)] =
                           m[static_cast<std::size_t>(p.b)][static_cast<std::size_t>(p.a)] = true;
  return m;
}

bool met(const met_matrix& m, player_id x, player_id y) {
  return m[static_cast<std::size_t>(x)][static_cast<std::size_t>(y)];
}

// The fewest rematches over every perfect matching of `rest` (even size).
int min_rematches(const std::vector<player_id>& rest, const met_matrix& m) {
  if (rest.empty()) return 0;
  int best = 1 << 20;
  for (std::size_t j = 1; j < rest.size(); ++j) {
    std::vector<player_id> next;
    for (std::size_t k = 1; k < rest.size(); ++k)
      if (k != j) next.push_back(rest[k]);
    best = std::min(best, (met(m, rest[0], rest[j]) ? 1 : 0) + min_rematches(next, m));
  }
  return best;
}

int min_rematches_with_bye(const std::vector<player_id>& active, player_id bye, const met_matrix& m) {
  std::vector<player_id> rest;
  for (player_id p : active)
    if (p != bye) rest.push_back(p);
  return min_rematches(rest, m);
}

std::vector<player_id> active_players(const tournament& t) {
  std::vector<player_id> v;
  for (std::size_t i = 0; i < t.players().size(); ++i)
    if (!t.players()[i].dropped()) v.push_back(static_cast<player_id>(i));
  return v;
}

// A whole random tournament: random results with some drawn games, some
// drops between rounds. Checks each round's pairing against brute force.
tournament run_checked(std::uint64_t trial, int* checked_byes = nullptr) {
  rng h(trial);
  const int n = 4 + static_cast<int>(h.below(7));  // 4..10 players
  const int best_of = h.below(2) == 0 ? 1 : 3;
  // players - 1 rounds: as many as allowed, so rematches become hard to avoid.
  config c = make_config(n - 1, best_of, 0, trial * 7919 + 3);
  tournament t = make(n, c);
  for (int r = 1; r <= c.swiss_rounds; ++r) {
    if (h.below(10) == 0 && active_players(t).size() > 3) {
      const auto act = active_players(t);
      REQUIRE(t.drop_player("test", r, act[h.below(act.size())], "random drop").ok());
    }
    const std::vector<standing> before = t.standings();
    const met_matrix m = who_met(t);
    const std::vector<player_id> active = active_players(t);
    const status s = t.start_next_round("test", r);
    REQUIRE_MESSAGE(s.ok(), s.detail);
    const round& cur = t.rounds().back();
    CHECK(cur.number == r);

    // Every active player exactly once; dropped players not at all.
    std::multiset<player_id> seen;
    player_id bye = no_player;
    int rematches = 0;
    for (const pairing& p : cur.pairings) {
      seen.insert(p.a);
      if (p.is_bye()) {
        CHECK(bye == no_player);
        bye = p.a;
      } else {
        seen.insert(p.b);
        if (met(m, p.a, p.b)) ++rematches;
      }
    }
    CHECK(seen == std::multiset<player_id>(active.begin(), active.end()));
    CHECK((bye != no_player) == (active.size() % 2 == 1));

    // The fewest rematches possible, over every matching and bye.
    int best = 1 << 20;
    if (active.size() % 2 == 0) {
      best = min_rematches(active, m);
    } else {
      for (player_id p : active) best = std::min(best, min_rematches_with_bye(active, p, m));
    }
    CHECK_MESSAGE(rematches == best, "trial " << trial << " round " << r);

    if (bye != no_player) {
      // The preference, worked out independently: lowest-ranked first,
      // those who have had no bye before those who have.
      std::vector<player_id> pref;
      for (int pass = 0; pass < 2; ++pass)
        for (auto it = before.rbegin(); it != before.rend(); ++it)
          if (std::find(active.begin(), active.end(), it->player) != active.end() &&
              (it->byes == 0) == (pass == 0))
            pref.push_back(it->player);
      CHECK(min_rematches_with_bye(active, bye, m) == best);
      // Everyone preferred to the actual bye would have forced more rematches.
      for (player_id p : pref) {
        if (p == bye) break;
        CHECK_MESSAGE(min_rematches_with_bye(active, p, m) > best, "trial " << trial << " round " << r);
      }
      if (checked_byes && pref.front() == bye) ++*checked_byes;
    }
    play_round(t, random_results(h, 8));
  }
  CHECK(t.current_stage() == stage::finished);
  CHECK(t.champion().has_value());
  return t;
}

}  // namespace

TEST_CASE("swiss: random histories, checked against brute force") {
  int first_choice_byes = 0;
  for (std::uint64_t trial = 1; trial <= 400; ++trial) run_checked(trial, &first_choice_byes);
  // The property above passes vacuously if no bye is ever given.
  CHECK(first_choice_byes > 100);
}

TEST_CASE("swiss: the same seed and results give the same tournament; the seed matters") {
  for (std::uint64_t trial = 1; trial <= 20; ++trial) CHECK(run_checked(trial) == run_checked(trial));

  std::set<std::vector<std::pair<player_id, player_id>>> round_one;
  for (std::uint64_t seed = 1; seed <= 10; ++seed) {
    tournament t = make(8, make_config(3, 1, 0, seed));
    REQUIRE(t.start_next_round("test", 0).ok());
    std::vector<std::pair<player_id, player_id>> pairs;
    for (const pairing& p : t.rounds()[0].pairings) pairs.emplace_back(p.a, p.b);
    round_one.insert(pairs);
  }
  CHECK(round_one.size() >= 8);
}

TEST_CASE("swiss: round 1 is the documented shuffle of the players, paired top-down") {
  for (std::uint64_t seed : {0ULL, 42ULL, 0xFFFFFFFFFFFFFFFFULL}) {
    for (int n : {6, 7}) {
      tournament t = make(n, make_config(3, 1, 0, seed));
      REQUIRE(t.start_next_round("test", 0).ok());
      // docs/tournaments.md: rng(pairing_seed(seed, 1, 0)) shuffles [0..n-1];
      // nobody has points or opponents, so pairs are (1st, 2nd), (3rd, 4th)...
      // With an odd count the bye is the last in the seed order, and the
      // others are paired in the shuffled order without it.
      std::vector<player_id> order(static_cast<std::size_t>(n));
      for (int i = 0; i < n; ++i) order[static_cast<std::size_t>(i)] = i;
      rng g(pairing_seed(seed, 1, 0));
      g.shuffle(order.data(), n);
      player_id bye = no_player;
      if (n % 2 == 1) {
        for (std::size_t i = 0; i < t.players().size(); ++i)
          if (t.players()[i].seed_order == n - 1) bye = static_cast<player_id>(i);
        order.erase(std::find(order.begin(), order.end(), bye));
      }
      const auto& ps = t.rounds()[0].pairings;
      REQUIRE(ps.size() == static_cast<std::size_t>((n + 1) / 2));
      for (std::size_t k = 0; k < order.size() / 2; ++k) {
        CHECK(ps[k].table == static_cast<int>(k) + 1);
        CHECK(ps[k].a == order[2 * k]);
        CHECK(ps[k].b == order[2 * k + 1]);
      }
      if (bye != no_player) {
        CHECK(ps.back().is_bye());
        CHECK(ps.back().a == bye);
      }
    }
  }
}

TEST_CASE("swiss: round 2 pairs within score groups") {
  for (std::uint64_t seed = 1; seed <= 30; ++seed) {
    tournament t = make(8, make_config(3, 1, 0, seed));
    REQUIRE(t.start_next_round("test", 0).ok());
    rng h(seed);
    play_round(t, random_results(h));
    REQUIRE(t.start_next_round("test", 0).ok());
    const auto st = t.standings();
    std::vector<int> points(8);
    for (const standing& s : st) points[static_cast<std::size_t>(s.player)] = s.match_points;
    for (const pairing& p : t.rounds()[1].pairings) {
      REQUIRE(!p.is_bye());
      CHECK(points[static_cast<std::size_t>(p.a)] == points[static_cast<std::size_t>(p.b)]);
    }
  }
}

TEST_CASE("swiss: an odd score group floats its last player down, top-down") {
  // Direct use of pair_swiss: order 0..5 with 0,1,2 on 3 points, 3,4,5 on 0.
  // Nobody has met: pairs are (0,1), (2,3), (4,5).
  swiss_request r;
  r.order = {0, 1, 2, 3, 4, 5};
  r.played = [](player_id, player_id) { return false; };
  swiss_result res = pair_swiss(r);
  using pp = std::pair<player_id, player_id>;
  CHECK(res.pairs == std::vector<pp>{{0, 1}, {2, 3}, {4, 5}});
  CHECK(res.rematches == 0);
  // 0 has met 1: 0 takes the next one it has not met, 2; then 1 and 3.
  r.played = [](player_id x, player_id y) { return (x == 0 && y == 1) || (x == 1 && y == 0); };
  res = pair_swiss(r);
  CHECK(res.pairs == std::vector<pp>{{0, 2}, {1, 3}, {4, 5}});
  // Backtracking: 4 and 5 have met, so the greedy (0,1), (2,3) leaves them
  // together; 2 takes 4 instead and 3 takes 5.
  r.played = [](player_id x, player_id y) { return (x == 4 && y == 5) || (x == 5 && y == 4); };
  res = pair_swiss(r);
  CHECK(res.rematches == 0);
  CHECK(res.pairs == std::vector<pp>{{0, 1}, {2, 4}, {3, 5}});
  // Everyone has met everyone: rematches are unavoidable and counted.
  r.played = [](player_id x, player_id y) { return x != y; };
  res = pair_swiss(r);
  CHECK(res.rematches == 3);
  CHECK(res.pairs.size() == 3);
  CHECK(res.exhaustive);
}

TEST_CASE("swiss: the bye goes to the first candidate that allows the fewest rematches") {
  swiss_request r;
  r.order = {0, 1, 2, 3, 4};
  r.bye_preference = {4, 3, 2, 1, 0};
  r.played = [](player_id, player_id) { return false; };
  swiss_result res = pair_swiss(r);
  CHECK(res.bye == 4);
  CHECK(res.rematches == 0);
  // 4 would leave 0..3 where 3 has met 0, 1 and 2: a rematch. 3 takes the bye.
  r.played = [](player_id x, player_id y) {
    return (x == 3 && y < 3) || (y == 3 && x < 3);
  };
  res = pair_swiss(r);
  CHECK(res.bye == 3);
  CHECK(res.rematches == 0);
}

TEST_CASE("swiss: a large field pairs quickly without rematches") {
  for (int n : {64, 257, 512}) {
    const int rounds = n == 64 ? 10 : 9;
    tournament t = make(n, make_config(rounds, 1, 8, static_cast<std::uint64_t>(n)));
    rng h(static_cast<std::uint64_t>(n));
    for (int r = 1; r <= rounds; ++r) {
      const met_matrix m = who_met(t);
      REQUIRE(t.start_next_round("server", r).ok());
      for (const pairing& p : t.rounds().back().pairings)
        if (!p.is_bye()) CHECK(!met(m, p.a, p.b));
      play_round(t, random_results(h, 20));
    }
  }
}

TEST_CASE("swiss: players - 1 rounds in fields of 12 to 20 players: every round pairs everyone") {
  for (std::uint64_t trial = 1; trial <= 20; ++trial) {
    const int n = 12 + static_cast<int>(trial % 9);
    tournament t = make(n, make_config(n - 1, 1, 0, trial));
    rng h(trial);
    for (int r = 1; r < n; ++r) {
      REQUIRE(t.start_next_round("server", r).ok());
      std::size_t seats = 0;
      for (const pairing& p : t.rounds().back().pairings) seats += p.is_bye() ? 1 : 2;
      CHECK(seats == static_cast<std::size_t>(n));
      play_round(t, random_results(h));
    }
    CHECK(t.current_stage() == stage::finished);
  }
}
