// Holding the admin API under abuse (docs/admin.md, "Refused requests"): a
// brute-force guard per remote address, and a rate-limited log of refused
// requests. A flood of wrong tokens (12,361/s were measured) must neither
// grow the log by megabytes a second nor let a guesser try tokens at that
// rate; the right token must never be locked out for longer than a window.
//
// Time is passed in (`now`), as in net/rate_limiter: tests need no clock and
// no sleeps. Thread-safe (one mutex): admin::api is.
#pragma once

#include <chrono>
#include <cstdint>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>

namespace cod::server::admin {

struct guard_limits {
  // Brute-force guard: after `max_failures` failed authentications (missing
  // or wrong token) from one address within `failure_window` (counted from
  // its first failure), that address gets 429 until the window ends.
  int max_failures = 20;
  std::chrono::seconds failure_window{60};
  // Addresses tracked at once; beyond, the expired ones and then the one
  // whose window is oldest are forgotten (memory stays bounded under a spray
  // of addresses).
  std::size_t max_addresses = 4096;
  // The log: the first `logged_per_interval` refusals of each
  // `log_interval` are logged one line each; the rest are counted and
  // summarised in one line when the interval is over (on the next request,
  // refused or not, or on flush()).
  int logged_per_interval = 10;
  std::chrono::seconds log_interval{10};
  // Distinct addresses counted for the summary (beyond: "at least").
  std::size_t max_summary_addresses = 1024;
};

// The address part of a peer "ip:port" (http_session's admin::request::remote):
// "10.1.2.3:4567" -> "10.1.2.3", "::1:50312" -> "::1", "[::1]:50312" -> "::1".
// Failures are counted per address, not per connection: a new port each
// try must not reset the count. (http_session always writes the port; a
// string not ending in ":digits" is taken whole.)
std::string address_of(std::string_view remote);

class refusal_guard {
 public:
  using clock = std::chrono::steady_clock;

  explicit refusal_guard(guard_limits limits = {});
  // Logs a pending summary: it is never lost at shutdown.
  ~refusal_guard();
  refusal_guard(const refusal_guard&) = delete;
  refusal_guard& operator=(const refusal_guard&) = delete;

  // Seconds until `address` may try a token again (the Retry-After of a
  // 429), or 0 when it may now.
  int retry_after(const std::string& address, clock::time_point now);
  // A missing or wrong token from `address`.
  void failed(const std::string& address, clock::time_point now);
  // The right token from `address`: its failures are forgotten.
  void succeeded(const std::string& address);

  // Every request first: logs the previous interval's summary once it is over.
  void tick(clock::time_point now);
  // A refused request (401, 403, 429): `line` is its access-log line, logged
  // as a warning unless this interval has had its share (then counted).
  void refused(const std::string& address, const std::string& line, clock::time_point now);
  // Logs the pending summary now, if any.
  void flush();

  std::uint64_t refused_total() const;
  std::uint64_t throttled_total() const;  // the 429s among them
  std::size_t tracked_addresses() const;
  void throttled();  // counts a 429 (the api answers it)

 private:
  struct failures {
    clock::time_point window_start;
    int count = 0;
  };
  bool expired(const failures& f, clock::time_point now) const { return now >= f.window_start + limits_.failure_window; }
  void make_room(clock::time_point now);
  void roll(clock::time_point now);
  void summarise();

  const guard_limits limits_;
  mutable std::mutex mutex_;
  std::unordered_map<std::string, failures> failures_;
  // The log's current interval (none before the first refusal / after a roll).
  std::optional<clock::time_point> interval_start_;
  int logged_ = 0;
  std::uint64_t suppressed_ = 0;
  std::set<std::string, std::less<>> suppressed_addresses_;
  bool addresses_capped_ = false;
  std::string last_line_;
  clock::time_point last_at_{};
  std::uint64_t refused_total_ = 0;
  std::uint64_t throttled_total_ = 0;
};

}  // namespace cod::server::admin
