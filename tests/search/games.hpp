// Random games of every mode the search plays (duel, free-for-all, 2v2; with
// and without Champions and R9), stopped at random points: the positions the
// search tests decide in.
#pragma once

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "../shared/catalogue.hpp"
#include "cod/engine/match.hpp"
#include "cod/protocol/json_codec.hpp"
#include "cod/search/player.hpp"

namespace cod::test {

// What `viewer` is shown, as one comparable text (the wire's view).
inline std::string shown(const match& m, seat_t viewer) {
  return protocol::view_to_json(m.view(viewer), m.cards()).dump();
}

inline const game_mode searched_modes[] = {game_mode::duel, game_mode::ffa, game_mode::two_vs_two};

struct game {
  match m;
  search::table decks;  // each seat's deck list, as the players know them (R14.6)
};

// Match `seed` of `mode`: random legal 8-card decks, Champions in odd seeds,
// R9 when seed % 3 == 0; then `moves` random legal actions (fewer if it ends).
inline game random_game(game_mode mode, std::uint64_t seed, int moves) {
  const catalogue& cat = shipped();
  match_config cfg;
  cfg.mode = mode;
  cfg.seat_count = seats_of(mode);
  cfg.seed = seed;
  cfg.exhaustion_rule = seed % 3 == 0;
  cfg.share_team_hands = mode == game_mode::two_vs_two && seed % 4 == 1;
  rng r(seed * 7919 + 13);
  for (int s = 0; s < cfg.seat_count; ++s) {
    while (cfg.decks[s].size() < 8) {
      const auto c = static_cast<card_id>(r.below(cat.size()));
      bool dup = false;
      for (card_id d : cfg.decks[s]) dup |= d == c;
      if (!dup) cfg.decks[s].push_back(c);
    }
    REQUIRE(match::check_deck(cat, cfg.decks[s]) == rule_error::ok);
    if (seed % 2 == 1)
      for (;;) {
        const auto c = static_cast<card_id>(r.below(cat.size()));
        if (cat.stats(c).type == card_type::creature && match::check_champion(cat, c, cfg.decks[s]) == rule_error::ok) {
          cfg.champions[s] = c;
          break;
        }
      }
  }
  game g;
  std::vector<event> events;
  REQUIRE(match::create(cat, cfg, g.m, events) == rule_error::ok);
  for (int s = 0; s < cfg.seat_count; ++s) g.decks.decks[s] = cfg.decks[s];
  std::vector<action> legal;
  for (int i = 0; i < moves && !g.m.over(); ++i) {
    g.m.legal_actions(legal);
    events.clear();
    REQUIRE(g.m.apply(legal[r.below(legal.size())], events) == rule_error::ok);
  }
  return g;
}

}  // namespace cod::test
