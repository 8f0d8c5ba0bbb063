// Wall-clock time as stored (created, ended and audit times): milliseconds
// since the Unix epoch. Rooms and services read it through their
// environment (common/environment.hpp: environment::system() is this
// clock), so tests can give them another; the store's migrations stamp
// theirs with it directly. Turn clocks use their executor's monotonic clock
// instead (room/executor.hpp).
#pragma once

#include <cstdint>

namespace cod::server {

std::int64_t now_ms();

}  // namespace cod::server
