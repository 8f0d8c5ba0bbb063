// A flood of refused connections must not become a flood of log lines (600
// clients retrying at max_connections once wrote 340,398 lines, 36 MB, in
// 160 s). Each kind of refusal (accept, upgrade) gets one refusal_log: the
// first refusal of an interval is logged at once, the rest of the interval
// are counted and logged as one summary line when the interval is over (on
// the next refusal, or on flush()): at most two lines an interval, however
// many clients retry. The exact counts are in /metrics.
//
// Time is passed in, as in net/rate_limiter: tests need no clock. Thread-safe
// (one mutex): upgrades are refused on every connection's strand.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <mutex>
#include <set>
#include <string>
#include <string_view>

namespace cod::server {

class refusal_log {
 public:
  using clock = std::chrono::steady_clock;
  using sink = std::function<void(const std::string&)>;

  // `what`: the start of each line ("accept", "http: WebSocket upgrade").
  // `write`: where lines go (default: spdlog warn).
  explicit refusal_log(std::string what, std::chrono::seconds interval = std::chrono::seconds(10), sink write = {});
  // The pending summary is logged: never lost at shutdown.
  ~refusal_log();
  refusal_log(const refusal_log&) = delete;
  refusal_log& operator=(const refusal_log&) = delete;

  // One refusal of a connection from `address`, for `reason`.
  void refused(const std::string& address, std::string_view reason, clock::time_point now = clock::now());
  // Logs the pending summary now, if any.
  void flush();

  std::uint64_t total() const;

 private:
  void summarise();  // under mutex_

  const std::string what_;
  const std::chrono::seconds interval_;
  const sink write_;
  mutable std::mutex mutex_;
  bool open_ = false;  // an interval is running (its first refusal logged)
  clock::time_point interval_start_{};
  std::uint64_t counted_ = 0;  // refusals of the interval after its first
  std::set<std::string, std::less<>> addresses_;
  bool addresses_capped_ = false;
  std::string latest_;
  std::uint64_t total_ = 0;
};

}  // namespace cod::server
