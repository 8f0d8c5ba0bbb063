// Wall-clock time as stored (created, ended and audit times): milliseconds
// since the Unix epoch. Turn clocks use their executor's monotonic clock
// instead (room/executor.hpp).
#pragma once

#include <cstdint>

namespace cod::server {

std::int64_t now_ms();

}  // namespace cod::server
