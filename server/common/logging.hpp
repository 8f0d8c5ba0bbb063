// spdlog set-up: one line per admin-relevant event on stdout, e.g.
//   [2025-01-31 12:00:00.123] [info] room r7k2x: match r7k2x-1a2b3c4d started: 'ann' vs 'bob'
#pragma once

#include <string>

namespace cod::server {

// `level`: trace, debug, info, warn, error, critical, off.
void setup_logging(const std::string& level);

}  // namespace cod::server
