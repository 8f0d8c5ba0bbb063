#include "common/rate_limiter.hpp"

#include <algorithm>

namespace cod::server {

rate_limiter::rate_limiter(int per_sec, int burst, int flood_factor, clock::time_point now)
    : rate_(per_sec),
      burst_(std::max(burst, 1)),
      flood_limit_(static_cast<long>(per_sec) * std::max(flood_factor, 1)),
      tokens_(burst_),
      last_(now),
      window_start_(now) {}

rate_limiter::verdict rate_limiter::on_message(clock::time_point now) {
  if (rate_ <= 0) return verdict::allow;
  if (now - window_start_ >= std::chrono::seconds(1)) {
    window_start_ = now;
    window_count_ = 0;
  }
  if (++window_count_ > flood_limit_) return verdict::flood;
  if (now > last_) {
    const double elapsed = std::chrono::duration<double>(now - last_).count();
    tokens_ = std::min(burst_, tokens_ + elapsed * rate_);
    last_ = now;
  }
  if (tokens_ < 1.0) return verdict::limited;
  tokens_ -= 1.0;
  return verdict::allow;
}

}  // namespace cod::server
