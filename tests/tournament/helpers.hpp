// Shared by the tournament tests: seeded random sources, a tournament of
// "P1".."Pn", and playing rounds with chosen or random results.
#pragma once

#include <doctest/doctest.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "cod/engine/rng.hpp"
#include "tournament/tournament.hpp"

namespace cod::tournaments::test {

inline random_source seeded_random(std::uint64_t seed) {
  auto g = std::make_shared<rng>(seed);
  return [g] { return g->next(); };
}

inline config make_config(int rounds, int best_of = 1, int cut = 0, std::uint64_t seed = 1) {
  config c;
  c.name = "Test Open";
  c.swiss_rounds = rounds;
  c.best_of = best_of;
  c.top_cut = cut;
  c.seed = seed;
  return c;
}

inline std::vector<std::string> names(int n) {
  std::vector<std::string> v;
  for (int i = 1; i <= n; ++i) {
    std::string s = "P";
    s += std::to_string(i);
    v.push_back(s);
  }
  return v;
}

inline tournament make(int n, const config& c, std::vector<std::string>* tokens = nullptr) {
  tournament t;
  std::vector<std::string> tk;
  const status s = tournament::create(c, names(n), seeded_random(c.seed + 1000), t, tk);
  REQUIRE_MESSAGE(s.ok(), s.detail);
  if (tokens) *tokens = tk;
  return t;
}

// Decides one game of a slot: the winner (a, b, or no_player for a draw).
using game_chooser = std::function<player_id(const game_slot&)>;

// Plays the current round to its end: attach a match to every game that
// needs one and report the chooser's result, until no game needs a match.
inline void play_round(tournament& t, const game_chooser& choose) {
  for (int guard = 0; guard < 1000; ++guard) {
    const auto slots = t.games_to_start();
    if (slots.empty()) return;
    for (const game_slot& g : slots) {
      std::string id = "r";
      id += std::to_string(g.round);
      id += "t";
      id += std::to_string(g.table);
      id += "g";
      id += std::to_string(g.game_number);
      REQUIRE(t.attach_match(g.table, id).ok());
      const status s = t.report_game(id, choose(g));
      REQUIRE_MESSAGE(s.ok(), s.detail);
    }
  }
  FAIL("a round did not end");
}

inline game_chooser a_wins() {
  return [](const game_slot& g) { return g.a; };
}

// Random winners, with a drawn game one time in `draw_one_in` (0: never).
inline game_chooser random_results(rng& g, int draw_one_in = 0) {
  return [&g, draw_one_in](const game_slot& s) {
    if (draw_one_in > 0 && g.below(static_cast<std::uint64_t>(draw_one_in)) == 0) return no_player;
    return g.below(2) == 0 ? s.a : s.b;
  };
}

}  // namespace cod::tournaments::test
