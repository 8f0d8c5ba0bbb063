// Shared by the engine tests: the shipped catalogue (tests/shared), card ids by name, and a random
// legal-move player.
#pragma once

#include <doctest/doctest.h>

#include <vector>

#include "../shared/catalogue.hpp"  // shipped()
#include "cod/engine/match.hpp"

namespace cod::test {

inline card_id id(const char* name) {
  auto c = shipped().find(name);
  REQUIRE_MESSAGE(c.has_value(), name);
  return *c;
}

inline match_config precon_config(int deck_a, int deck_b, std::uint64_t seed, bool exhaustion = false) {
  match_config cfg;
  cfg.seed = seed;
  cfg.exhaustion_rule = exhaustion;
  cfg.decks[0] = shipped().preconstructed_deck(deck_a);
  cfg.decks[1] = shipped().preconstructed_deck(deck_b);
  return cfg;
}

// Plays random legal moves; records the actions taken. Returns false if any
// legal action was rejected (which would be an engine bug).
inline bool play_random(match& m, std::uint64_t player_seed, std::vector<action>& log, int max_actions = 3000,
                        std::vector<std::uint64_t>* digests = nullptr) {
  rng player(player_seed);
  std::vector<action> legal;
  std::vector<event> events;
  for (int n = 0; n < max_actions && !m.over(); ++n) {
    m.legal_actions(legal);
    if (legal.empty()) return false;
    const action a = legal[player.below(legal.size())];
    events.clear();
    if (m.apply(a, events) != rule_error::ok) return false;
    log.push_back(a);
    if (digests) digests->push_back(m.digest());
  }
  return true;
}

}  // namespace cod::test
