// match::from_view and the world sampler (docs/ai.md, "Determinization"):
// a world built from a seat's view with the true hidden hands is the match
// itself, action for action; a sampled world shows that seat the same view.
#include <doctest/doctest.h>

#include "../../engine/search/src/world.hpp"
#include <nlohmann/json.hpp>

#include "cod/protocol/json_codec.hpp"
#include "games.hpp"

namespace cod::test {

namespace {

// What only the engine's view struct carries (not the wire's JSON).
void check_extra_fields(const seat_view& a, const seat_view& b) {
  CHECK(a.stall_exhaustion_turn == b.stall_exhaustion_turn);
  REQUIRE(a.lines.size() == b.lines.size());
  for (std::size_t l = 0; l < a.lines.size(); ++l)
    for (int d = 0; d < 2; ++d) {
      const auto& x = a.lines[l].sides[d].creatures;
      const auto& y = b.lines[l].sides[d].creatures;
      REQUIRE(x.size() == y.size());
      for (std::size_t i = 0; i < x.size(); ++i) {
        CHECK(x[i].chained_from == y[i].chained_from);
        CHECK(x[i].sharpening_spent == y[i].sharpening_spent);
      }
    }
}

}  // namespace

TEST_CASE("from_view with the true hands rebuilds the match: every view, then every action, the same") {
  int positions = 0;
  for (game_mode mode : searched_modes)
    for (std::uint64_t seed = 1; seed <= 60; ++seed) {
      game g = random_game(mode, seed, static_cast<int>(seed * 3 % 70));
      if (g.m.over()) continue;
      const seat_t me = g.m.active_seat();
      const seat_view referee_view = g.m.view(referee);
      std::array<std::vector<card_ref>, max_seats> hands;
      for (std::size_t s = 0; s < referee_view.all_hands.size(); ++s) hands[s] = referee_view.all_hands[s];
      match rebuilt;
      INFO("mode ", static_cast<int>(mode), " seed ", seed);
      REQUIRE(match::from_view(shipped(), g.m.view(me), hands, 99, rebuilt) == rule_error::ok);
      CHECK(rebuilt.check_invariants() == "");
      ++positions;
      // From here both play the same random actions: the views stay equal.
      rng r(seed);
      std::vector<action> legal, legal_rebuilt;
      std::vector<event> e1, e2;
      for (int step = 0; step < 40; ++step) {
        REQUIRE(shown(rebuilt, referee) == shown(g.m, referee));
        for (int s = 0; s < g.m.seat_count(); ++s) REQUIRE(shown(rebuilt, static_cast<seat_t>(s)) == shown(g.m, static_cast<seat_t>(s)));
        check_extra_fields(rebuilt.view(referee), g.m.view(referee));
        if (g.m.over()) break;
        g.m.legal_actions(legal);
        rebuilt.legal_actions(legal_rebuilt);
        REQUIRE(legal == legal_rebuilt);
        const action a = legal[r.below(legal.size())];
        e1.clear();
        e2.clear();
        REQUIRE(g.m.apply(a, e1) == rule_error::ok);
        REQUIRE(rebuilt.apply(a, e2) == rule_error::ok);
        REQUIRE(e1 == e2);
      }
    }
  CHECK(positions > 80);
}

TEST_CASE("from_view refuses hands that do not fit the view") {
  game g = random_game(game_mode::duel, 4, 5);
  const seat_t me = g.m.active_seat();
  const seat_view rv = g.m.view(referee);
  std::array<std::vector<card_ref>, max_seats> hands;
  for (std::size_t s = 0; s < rv.all_hands.size(); ++s) hands[s] = rv.all_hands[s];
  match out;
  auto wrong = hands;
  wrong[1 - me].pop_back();  // a card short: a uid unused and a size that differs
  CHECK(match::from_view(shipped(), g.m.view(me), wrong, 1, out) == rule_error::bad_setup);
  wrong = hands;
  wrong[1 - me][0].uid = wrong[me][0].uid;  // a uid twice
  CHECK(match::from_view(shipped(), g.m.view(me), wrong, 1, out) == rule_error::bad_setup);
}

TEST_CASE("a sampled world shows its seat the seat's own view, and deals each deck's unseen cards") {
  int sampled = 0;
  for (game_mode mode : searched_modes)
    for (std::uint64_t seed = 1; seed <= 40; ++seed) {
      game g = random_game(mode, seed, static_cast<int>(seed * 5 % 60));
      if (g.m.over()) continue;
      const seat_t me = g.m.active_seat();
      const seat_view v = g.m.view(me);
      search::detail::world_sampler sampler(shipped(), v, g.decks);
      REQUIRE(sampler.ok());
      rng r(seed);
      for (int k = 0; k < 5; ++k) {
        match w;
        REQUIRE(sampler.sample(r, w));
        CHECK(w.check_invariants() == "");
        CHECK(shown(w, me) == shown(g.m, me));
        // In a duel the unseen cards are exactly the other hand's, in some order.
        if (mode == game_mode::duel) {
          auto truth = g.m.view(referee).all_hands[1 - me];
          auto dealt = w.view(referee).all_hands[1 - me];
          std::vector<card_id> a, b;
          for (auto& c : truth) a.push_back(c.card);
          for (auto& c : dealt) b.push_back(c.card);
          std::sort(a.begin(), a.end());
          std::sort(b.begin(), b.end());
          CHECK(a == b);
        }
        ++sampled;
      }
    }
  CHECK(sampled > 300);
}

}  // namespace cod::test
