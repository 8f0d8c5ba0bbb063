// The accepted rating gap and when waves run (docs/queue.md, "The window").
// Pure arithmetic on the caller's milliseconds: no clock here.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

namespace cod::queue {

// window(wait) = min(max, base + per_second * wait_seconds): Pokémon
// Showdown's shape (100 + 1 per 0.3 s, capped) with numbers tuned on the
// simulation (cod-queue-bench --simulate).
struct window_params {
  double base = 50;
  double per_second = 10;
  double max = 600;
};

inline double window(const window_params& p, std::int64_t wait_ms) {
  const double seconds = static_cast<double>(std::max<std::int64_t>(wait_ms, 0)) / 1000.0;
  return std::min(p.max, p.base + p.per_second * seconds);
}

// Waves: one every interval_ms, or as soon as min_spacing_ms allows once a
// pool holds eager_size tickets (a large pool finds good pairs at once, and
// waiting would only age them).
struct wave_policy {
  std::int64_t interval_ms = 2000;
  std::size_t eager_size = 64;
  std::int64_t min_spacing_ms = 250;
};

// When the next wave is due, given the last one and the largest pool now.
inline std::int64_t next_wave_due(const wave_policy& p, std::int64_t last_wave_ms, std::size_t largest_pool) {
  return last_wave_ms + (largest_pool >= p.eager_size ? p.min_spacing_ms : p.interval_ms);
}

}  // namespace cod::queue
