// cod-arena --bench (docs/ai-arena.md, "The digest"): a fixed list of
// positions from random games of each searched mode, decided by every policy
// at a few budgets; the chosen actions hashed into one 64-bit digest, as
// cod-bench's signature does for the rules. A change not meant to change play
// keeps it.
#pragma once

#include <cstdint>
#include <vector>

#include "cod/engine/catalogue.hpp"

namespace cod::arena {

struct bench_options {
  int positions = 40;               // per mode
  std::vector<int> budgets{100, 400};  // search iterations
  std::uint64_t seed = 1;
};

struct bench_result {
  std::uint64_t digest = 0;
  long decisions = 0;
  double seconds[4] = {};  // random, greedy, search (every budget), all_seeing (the first budget)
};

bench_result run_bench(const catalogue& cat, const bench_options& o);

}  // namespace cod::arena
