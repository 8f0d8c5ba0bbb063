// Counters for /metrics and /healthz. Thread-safe: every part of the server
// bumps them from its own strand.
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <string_view>

namespace cod::server {

// How the store's writes go, as /metrics shows it (the caller copies it
// from the store's health: this floor knows nothing of the store).
struct store_gauges {
  bool ok = true;                  // false: the last commit failed and none has succeeded since
  std::uint64_t write_errors = 0;  // writes lost to storage failures since the start
  std::int64_t last_error_ms = 0;  // the last failure's wall-clock time (0 when none)
};

class metrics {
 public:
  using clock = std::chrono::steady_clock;
  metrics();

  std::atomic<std::int64_t> connections{0};       // open WebSocket sessions
  std::atomic<std::int64_t> rooms{0};             // rooms in the registry
  std::atomic<std::uint64_t> connections_total{0};
  std::atomic<std::uint64_t> messages_in_total{0};
  std::atomic<std::uint64_t> messages_out_total{0};
  std::atomic<std::uint64_t> matches_started_total{0};
  std::atomic<std::uint64_t> matches_finished_total{0};
  std::atomic<std::uint64_t> slow_consumers_total{0};
  // Closed at accept (max_connections_per_address, max_http_connections, out
  // of descriptors), before a byte was read.
  std::atomic<std::uint64_t> connections_refused_total{0};
  std::atomic<std::uint64_t> websocket_refused_total{0};  // upgrades refused at max_connections
  // WebSocket connections closed for not saying hello within hello_timeout_sec.
  std::atomic<std::uint64_t> hello_timeouts_total{0};
  std::atomic<std::uint64_t> persistence_errors_total{0};
  // The house bots' AI pool (room/ai_pool.hpp, docs/ai-server.md): decisions
  // admitted (queued or running), waiting beyond ai_max_pending, done, found
  // stale before they ran (the match moved on), and admissions refused for
  // a full pool (each such decision waited).
  std::atomic<std::int64_t> ai_pending{0};
  std::atomic<std::int64_t> ai_waiting{0};
  std::atomic<std::uint64_t> ai_decisions_total{0};
  std::atomic<std::uint64_t> ai_stale_total{0};
  std::atomic<std::uint64_t> ai_saturated_total{0};
  std::atomic<std::uint64_t> ai_think_ms_total{0};  // time spent deciding, summed over decisions

  // An accepted (and persisted) action.
  void action(clock::time_point now = clock::now());
  std::uint64_t actions_total() const { return actions_total_.load(); }
  // Mean accepted actions per second over the last `window` whole seconds.
  double actions_per_second(clock::time_point now = clock::now()) const;

  // An error sent to a client, by wire code.
  void error(std::string_view code);
  std::map<std::string, std::uint64_t> errors() const;
  std::uint64_t errors_total(std::string_view code) const;

  double uptime_seconds() const;

  // Prometheus text exposition format (version 0.0.4). `persistence_pending`:
  // the store's queued writes; `persistence_commits`: its transactions so
  // far; `store`: how its writes go (storage failures).
  std::string prometheus(std::size_t persistence_pending, std::uint64_t persistence_commits,
                         const store_gauges& store = {}) const;

  static constexpr int window = 10;

 private:
  clock::time_point start_;
  std::atomic<std::uint64_t> actions_total_{0};
  mutable std::mutex mutex_;
  std::map<std::string, std::uint64_t, std::less<>> errors_;
  // Per-second buckets of accepted actions (second number % size).
  std::array<std::int64_t, window + 1> bucket_second_{};
  std::array<std::uint64_t, window + 1> bucket_count_{};
};

}  // namespace cod::server
