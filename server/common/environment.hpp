// The wall clock and the random source of the rooms and services, in one
// object handed to them (LevelDB's Env is the model): the server makes one,
// environment::system(), and gives that same one to the rooms, the lobby,
// the tournament and league services and the admin API, so a test can hand
// them a deterministic one of its own instead.
//
// Not here: turn clocks and timers, which use their executor's monotonic
// clock (room/executor.hpp), and the store's own bookkeeping (persist/).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace cod::server {

class environment {
 public:
  virtual ~environment() = default;

  // Wall-clock milliseconds since the Unix epoch, as stored: created, ended,
  // action and audit times, a tournament's or a league's step times.
  virtual std::int64_t wall_ms() = 0;
  // 64 random bits: seeds, ids, and the tokens built on them below, which
  // are secrets: the system's comes from the OS's CSPRNG.
  virtual std::uint64_t random_u64() = 0;

  // Built on random_u64, so they follow whatever source it is.
  // `chars` lowercase hex digits (tokens: 32, i.e. 128 bits).
  std::string random_hex(std::size_t chars);
  // A short room id: "r" and four base-36 characters, e.g. "r7k2x".
  std::string random_room_id();

  // The real one: the system clock (common/wall_clock.hpp) and the OS's
  // CSPRNG (common/random.hpp). Thread-safe; lives as long as the process.
  static environment& system();
};

}  // namespace cod::server
