// Shared by cod-bench and cod-demo, so that `cod-demo --seed S` replays the
// very game cod-bench played with match seed S: how self-play draws decks and
// moves. Neither touches the match's own generator.
#pragma once

#include <cstdint>
#include <vector>

#include "cod/engine/catalogue.hpp"
#include "cod/engine/rng.hpp"
#include "cod/engine/setup.hpp"

namespace cod::self_play {

// The generator the random players use for match seed `seed`.
inline rng player_rng(std::uint64_t seed) {
  std::uint64_t x = seed ^ 0xB5AD4ECEDA1CE2A9ULL;
  return rng(rng::splitmix64(x));
}

// Random constructed decks (R14.6: 8 different cards each; seats may share
// cards) for `seats` seats from `pool`, a function of the seed alone.
inline void random_decks(std::uint64_t seed, const std::vector<card_id>& pool, std::vector<card_id>* decks,
                         int seats = 2) {
  std::uint64_t x = seed ^ 0x9E6C63D0676A9A99ULL;
  rng deck_rng(rng::splitmix64(x));
  for (int seat = 0; seat < seats; ++seat) {
    decks[seat].clear();
    while (decks[seat].size() < 8) {
      const card_id c = pool[static_cast<std::size_t>(deck_rng.below(pool.size()))];
      bool dup = false;
      for (card_id d : decks[seat]) dup |= d == c;
      if (!dup) decks[seat].push_back(c);
    }
  }
}

// R13.1: a random Champion for each of `seats` seats: a creature of `pool`
// that is not in that seat's deck (seats may share one). A function of the
// seed alone, from a generator of its own, so the decks drawn for the same
// seed do not change.
inline void random_champions(std::uint64_t seed, const catalogue& cat, const std::vector<card_id>& pool,
                             const std::vector<card_id>* decks, card_id* champions, int seats = 2) {
  std::uint64_t x = seed ^ 0xC3A5C85C97CB3127ULL;
  rng champion_rng(rng::splitmix64(x));
  for (int seat = 0; seat < seats; ++seat) {
    champions[seat] = no_card;
    for (;;) {
      const card_id c = pool[static_cast<std::size_t>(champion_rng.below(pool.size()))];
      if (cat.stats(c).type != card_type::creature) continue;
      bool in_deck = false;
      for (card_id d : decks[seat]) in_deck |= d == c;
      if (in_deck) continue;
      champions[seat] = c;
      break;
    }
  }
}

// R12.7, R14.4 (solo, co-op with --decks catalogue): a random AI deck pile of
// 24 different cards from `pool`, a function of the seed and the seat alone.
inline void random_ai_deck(std::uint64_t seed, int seat, const std::vector<card_id>& pool,
                           std::vector<card_id>& deck) {
  std::uint64_t x = seed ^ 0x5A1D0C0B0E5EEDULL ^ static_cast<std::uint64_t>(seat);
  rng deck_rng(rng::splitmix64(x));
  deck.clear();
  while (deck.size() < 24) {
    const card_id c = pool[static_cast<std::size_t>(deck_rng.below(pool.size()))];
    bool dup = false;
    for (card_id d : deck) dup |= d == c;
    if (!dup) deck.push_back(c);
  }
}

// R12.8: random custom-difficulty settings (a function of the seed alone):
// each option drawn, abilities dropped until the points are at most 10; the
// level is the points spent (0 points: quick play). Human Champions lower the
// points by 2 each; options are added back until the level is at least 1.
inline void random_ai_settings(std::uint64_t seed, int human_champions, ai_settings& ai, int& difficulty) {
  std::uint64_t x = seed ^ 0xD1FF1C017E5EEDULL;
  rng r(rng::splitmix64(x));
  ai = ai_settings{};
  ai.fixed_mana = 6 + static_cast<int>(r.below(5));
  ai.double_variable = r.below(2) == 1;
  ai.ai_first = r.below(2) == 1;
  ai.resistance = r.below(2) == 1;
  ai.granted = static_cast<ability_set>(r.next()) & ai_grantable;
  for (int a = 0; a < ability_count && ai_points(ai, human_champions) > 10; ++a) ai.granted &= ~bit(static_cast<ability>(a));
  if (ai_points(ai, human_champions) > 10) ai.double_variable = false;
  // Too few points (Champions): add options, one point at a time where possible.
  for (int a = 0; ai_points(ai, human_champions) < 1 && a < ability_count; ++a)
    if (has(ai_grantable, static_cast<ability>(a))) ai.granted |= bit(static_cast<ability>(a));
  difficulty = ai_points(ai, human_champions);
  if (difficulty < 1 && human_champions == 0) {
    ai = ai_settings{};
    difficulty = 0;
  }
}

inline std::vector<card_id> all_cards(const catalogue& cat) {
  std::vector<card_id> pool;
  for (std::size_t c = 0; c < cat.size(); ++c) pool.push_back(static_cast<card_id>(c));
  return pool;
}

}  // namespace cod::self_play
