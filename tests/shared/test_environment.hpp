// A deterministic environment (common/environment.hpp) for tests: its wall
// clock and random source are the test's own functions, so a harness keeps
// the behaviour it chose (a wall that advances 1000 ms per reading, an LCG
// from a counter it can reset) while the code under test reads them through
// the same environment the server injects.
#pragma once

#include <cstdint>
#include <functional>

#include "common/environment.hpp"

namespace cod::test {

class test_environment final : public cod::server::environment {
 public:
  // Both must be set before the code under test reads them.
  std::function<std::int64_t()> wall;
  std::function<std::uint64_t()> random;

  std::int64_t wall_ms() override { return wall(); }
  std::uint64_t random_u64() override { return random(); }
};

// The tests' linear congruential generator (Knuth's MMIX constants):
// advances `state` and returns it.
inline std::uint64_t lcg_next(std::uint64_t& state) {
  return state = state * 6364136223846793005ULL + 1442695040888963407ULL;
}

}  // namespace cod::test
