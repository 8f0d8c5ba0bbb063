// The window's formula and the wave policy (docs/queue.md, "The window").
#include <doctest/doctest.h>

#include "queue/window.hpp"

using namespace cod::queue;

TEST_CASE("window: base at once, growing linearly with the wait, capped") {
  const window_params p{50, 10, 400};
  CHECK(window(p, 0) == 50);
  CHECK(window(p, 2500) == doctest::Approx(75));
  CHECK(window(p, 20'000) == doctest::Approx(250));
  CHECK(window(p, 35'000) == 400);
  CHECK(window(p, 3'600'000) == 400);
  CHECK(window(p, -5000) == 50);  // a clock step back never narrows it below the base
}

TEST_CASE("waves: every interval, sooner once a pool is large") {
  const wave_policy p{2000, 64, 250};
  CHECK(next_wave_due(p, 10'000, 0) == 12'000);
  CHECK(next_wave_due(p, 10'000, 63) == 12'000);
  CHECK(next_wave_due(p, 10'000, 64) == 10'250);
}
