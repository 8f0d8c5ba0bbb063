// The players (docs/ai.md): deterministic, legal in every mode, and blind to
// what their seat cannot see.
#include <doctest/doctest.h>

#include <algorithm>

#include <nlohmann/json.hpp>

#include "cod/protocol/json_codec.hpp"
#include "games.hpp"

namespace cod::test {

namespace {

search::settings small_search(int iterations) {
  search::settings s;
  s.iterations = iterations;
  return s;
}

// Another true world behind the same view of `me`: the hidden hands' cards
// moved around (each other hand reshuffled; in four-player games cards also
// traded between the hidden hands), sizes kept.
match another_world(const match& m, seat_t me, std::uint64_t seed) {
  const seat_view rv = m.view(referee);
  const seat_view mine = m.view(me);
  std::array<std::vector<card_ref>, max_seats> hands;
  std::vector<card_ref> pool;
  std::vector<int> hidden;
  for (int s = 0; s < m.seat_count(); ++s) {
    hands[s] = rv.all_hands[s];
    if (s == me || (mine.share_team_hands && s == mine.teammate)) continue;
    hidden.push_back(s);
    pool.insert(pool.end(), hands[s].begin(), hands[s].end());
  }
  rng r(seed);
  r.shuffle(pool.data(), static_cast<int>(pool.size()));
  std::size_t next = 0;
  for (int s : hidden)
    for (auto& c : hands[s]) c = pool[next++];
  match other;
  REQUIRE(match::from_view(m.cards(), mine, hands, seed, other) == rule_error::ok);
  return other;
}

}  // namespace

TEST_CASE("the same view, seed and budget give the same action; a search is not a random pick") {
  for (game_mode mode : searched_modes)
    for (std::uint64_t seed = 1; seed <= 6; ++seed) {
      game g = random_game(mode, seed, 9);
      if (g.m.over()) continue;
      const seat_view v = g.m.view(g.m.active_seat());
      const auto a = search::decide(shipped(), v, g.decks, small_search(200), 42);
      const auto b = search::decide(shipped(), v, g.decks, small_search(200), 42);
      CHECK(a.chosen == b.chosen);
      CHECK(a.iterations == (a.legal > 1 ? 200 : 0));
      const auto c = search::decide(shipped(), v, g.decks, search::level_settings(1), 7);
      const auto d = search::decide(shipped(), v, g.decks, search::level_settings(1), 7);
      CHECK(c.chosen == d.chosen);
    }
}

TEST_CASE("no peeking: every world behind the same view gets the same decision (R16.2)") {
  int compared = 0, differing_truths = 0;
  for (game_mode mode : searched_modes)
    for (std::uint64_t seed = 1; seed <= 12; ++seed) {
      game g = random_game(mode, seed, static_cast<int>(3 + seed % 20));
      if (g.m.over()) continue;
      const seat_t me = g.m.active_seat();
      for (std::uint64_t k = 0; k < 3; ++k) {
        match other = another_world(g.m, me, seed * 10 + k);
        REQUIRE(shown(other, me) == shown(g.m, me));
        differing_truths += shown(other, referee) != shown(g.m, referee);
        for (search::policy p : {search::policy::search, search::policy::greedy, search::policy::random}) {
          search::settings s = small_search(150);
          s.kind = p;
          const auto here = search::decide(shipped(), g.m.view(me), g.decks, s, 5);
          const auto there = search::decide(shipped(), other.view(me), g.decks, s, 5);
          CHECK(here.chosen == there.chosen);
          ++compared;
        }
      }
    }
  CHECK(compared > 60);
  CHECK(differing_truths > 20);  // the worlds did differ where the seat cannot see
}

TEST_CASE("every decision is legal: thousands of positions, every searched mode, every policy") {
  int decided = 0;
  for (game_mode mode : searched_modes)
    for (std::uint64_t seed = 100; seed < 130; ++seed) {
      game g = random_game(mode, seed, 0);
      std::vector<event> events;
      for (int step = 0; step < 400 && !g.m.over(); ++step) {
        const seat_t me = g.m.active_seat();
        search::settings s = small_search(12);
        s.kind = static_cast<search::policy>(step % 3);  // random, greedy, search in turn
        const auto d = search::decide(shipped(), g.m.view(me), g.decks, s, seed * 1000 + static_cast<std::uint64_t>(step));
        REQUIRE(d.chosen.seat == me);
        REQUIRE(g.m.check(d.chosen) == rule_error::ok);
        REQUIRE(d.chosen.type != action_type::concede);
        events.clear();
        REQUIRE(g.m.apply(d.chosen, events) == rule_error::ok);
        ++decided;
      }
    }
  CHECK(decided > 2000);
}

TEST_CASE("a view the search cannot use gets a plain end of turn, not a crash") {
  game g = random_game(game_mode::duel, 3, 4);
  const seat_t me = g.m.active_seat();
  const seat_t other = static_cast<seat_t>(1 - me);
  // Not its turn: it ends (the caller asked out of turn); the engine would refuse it.
  const auto d = search::decide(shipped(), g.m.view(other), g.decks, small_search(10), 1);
  CHECK(d.chosen == action::end(other));
  CHECK(d.iterations == 0);
  // Unknown deck lists: the hidden cards come from the catalogue; still a legal choice.
  const auto blind = search::decide(shipped(), g.m.view(me), search::table{}, small_search(50), 1);
  CHECK(g.m.check(blind.chosen) == rule_error::ok);
}

TEST_CASE("the all-seeing variant decides legally on the true world") {
  game g = random_game(game_mode::ffa, 8, 10);
  const auto d = search::decide_all_seeing(g.m, small_search(100), 3);
  CHECK(g.m.check(d.chosen) == rule_error::ok);
  CHECK(d.iterations == (d.legal > 1 ? 100 : 0));
}

TEST_CASE("levels: a budget that grows with the level, noise only at the bottom") {
  for (int l = search::min_level; l < search::max_level; ++l) {
    CHECK(search::level_settings(l).iterations < search::level_settings(l + 1).iterations);
    CHECK(search::level_settings(l).noise_permille >= search::level_settings(l + 1).noise_permille);
  }
  CHECK(search::level_settings(0) == search::level_settings(search::min_level));
  CHECK(search::level_settings(99) == search::level_settings(search::max_level));
}

}  // namespace cod::test
