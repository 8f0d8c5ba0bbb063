// cod-bot's computer players (bot/search_policy.hpp) from the view as the
// wire carries it: on every seat's turn of self-played duels, free-for-alls
// and 2v2s, greedy and search choose an action the match accepts; solo and
// co-op, which they do not play, and views that do not decode are answered
// with a reason, never an action.
#include <cstdint>
#include <vector>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "../shared/catalogue.hpp"
#include "bot/search_policy.hpp"
#include "cod/protocol/json_codec.hpp"
#include "games.hpp"

namespace {

using nlohmann::json;
using namespace cod;

}  // namespace

TEST_CASE("greedy and search choose legal actions from the wire view, in every mode they play") {
  const catalogue& cat = test::shipped();
  std::vector<event> events;
  std::vector<action> legal;
  long decided = 0, refused_modes = 0;
  for (long g = 0; g < 20; ++g) {
    const match_config cfg = bot_test::game_config(cat, g);
    match m;
    REQUIRE(match::create(cat, cfg, m, events) == rule_error::ok);
    rng r(cfg.seed);
    for (int n = 0; n < 120 && !m.over(); ++n) {
      const seat_t me = m.active_seat();
      if (n % 5 == 0) {
        const json view = protocol::view_to_json(m.view(me), cat);
        for (auto kind : {bot::policy_kind::greedy, bot::policy_kind::search}) {
          // Level 1 (100 iterations) with time to spare: what the iteration budget decides.
          // Every seat's list, as the match's state gives them (RULING E82).
          search::table decks;
          for (int s = 0; s < cfg.seat_count; ++s) decks.decks[static_cast<std::size_t>(s)] = cfg.decks[static_cast<std::size_t>(s)];
          const bot::search_policy player(cat, kind, 1, 10000, 5, decks);
          const auto c = player.decide(view, n);
          if (cfg.mode == game_mode::solo || cfg.mode == game_mode::coop) {
            CHECK_FALSE(c.chosen);
            CHECK_FALSE(c.why.empty());
            ++refused_modes;
            continue;
          }
          REQUIRE_MESSAGE(c.chosen, c.why);
          CHECK(c.chosen->seat == me);
          CHECK(m.check(*c.chosen) == rule_error::ok);
          ++decided;
        }
      }
      m.legal_actions(legal);
      events.clear();
      REQUIRE(m.apply(legal[r.below(legal.size())], events) == rule_error::ok);
    }
  }
  CHECK(decided > 100);
  CHECK(refused_modes > 0);
}

TEST_CASE("a view that does not decode: a reason naming the field, no action") {
  const catalogue& cat = test::shipped();
  const bot::search_policy player(cat, bot::policy_kind::search, 1, 50, 1, {});
  json view = json::object();
  auto c = player.decide(view, 0);
  CHECK_FALSE(c.chosen);
  CHECK(c.why.find("role") != std::string::npos);
  c = player.decide(json("view"), 0);
  CHECK_FALSE(c.chosen);
  CHECK_FALSE(c.why.empty());
}
