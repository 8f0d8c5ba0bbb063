// Internal: the word mixer behind match::digest and draft::digest (R16.1),
// one definition so the two can never drift apart.
#pragma once

#include <cstdint>
#include <vector>

#include "cod/engine/types.hpp"

namespace cod::detail {

struct hasher {
  std::uint64_t h = 0x6A09E667F3BCC908ULL;
  void add(std::uint64_t v) {
    // One SplitMix64 finaliser round per word: cheap and well mixed.
    h ^= v + 0x9E3779B97F4A7C15ULL + (h << 6) + (h >> 2);
    h = (h ^ (h >> 30)) * 0xBF58476D1CE4E5B9ULL;
    h = (h ^ (h >> 27)) * 0x94D049BB133111EBULL;
    h ^= h >> 31;
  }
  // The size first, so [a][b, c] and [a, b][c] differ.
  void add(const std::vector<card_id>& v) {
    add(v.size());
    for (card_id c : v) add(c);
  }
};

}  // namespace cod::detail
