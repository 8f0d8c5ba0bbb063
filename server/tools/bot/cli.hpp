// Command-line helpers shared by cod-bot and cod-load.
#pragma once

#include <cerrno>
#include <cstdlib>

namespace cod::bot {

// A whole decimal number in [lo, hi]; false for anything else (no partial parses).
inline bool parse_long(const char* s, long lo, long hi, long& out) {
  char* end = nullptr;
  errno = 0;
  const long v = std::strtol(s, &end, 10);
  if (errno || end == s || *end || v < lo || v > hi) return false;
  out = v;
  return true;
}

}  // namespace cod::bot
