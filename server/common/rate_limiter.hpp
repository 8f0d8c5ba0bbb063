// Per-connection message rate limit: a token bucket (rate per second, burst)
// plus a flood detector (more than flood_factor x rate messages within one
// second). Not thread-safe: one per connection, used on its strand.
#pragma once

#include <chrono>

namespace cod::server {

class rate_limiter {
 public:
  using clock = std::chrono::steady_clock;
  enum class verdict {
    allow,    // process the message
    limited,  // drop it, reply rate_limited
    flood,    // close the connection (1008)
  };

  // per_sec == 0 disables the limit (every message is allowed).
  rate_limiter(int per_sec, int burst, int flood_factor, clock::time_point now = clock::now());

  verdict on_message(clock::time_point now = clock::now());
  double tokens() const { return tokens_; }

 private:
  double rate_;
  double burst_;
  long flood_limit_;
  double tokens_;
  clock::time_point last_;
  clock::time_point window_start_;
  long window_count_ = 0;
};

}  // namespace cod::server
