// Shared by cod-bench and cod-demo, so that `cod-demo --seed S` replays the
// very game cod-bench played with match seed S: how self-play draws decks and
// moves. Neither touches the match's own generator.
#pragma once

#include <cstdint>
#include <vector>

#include "cod/engine/catalogue.hpp"
#include "cod/engine/rng.hpp"

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

inline std::vector<card_id> all_cards(const catalogue& cat) {
  std::vector<card_id> pool;
  for (std::size_t c = 0; c < cat.size(); ++c) pool.push_back(static_cast<card_id>(c));
  return pool;
}

}  // namespace cod::self_play
