#include "common/metrics.hpp"

#include <cstdio>
#include <sstream>

namespace cod::server {

metrics::metrics() : start_(clock::now()) { bucket_second_.fill(-1); }

void metrics::action(clock::time_point now) {
  actions_total_.fetch_add(1);
  const auto sec = std::chrono::duration_cast<std::chrono::seconds>(now - start_).count();
  const auto i = static_cast<std::size_t>(sec % static_cast<std::int64_t>(bucket_count_.size()));
  std::lock_guard lock(mutex_);
  if (bucket_second_[i] != sec) {
    bucket_second_[i] = sec;
    bucket_count_[i] = 0;
  }
  ++bucket_count_[i];
}

double metrics::actions_per_second(clock::time_point now) const {
  const auto sec = std::chrono::duration_cast<std::chrono::seconds>(now - start_).count();
  std::uint64_t n = 0;
  std::lock_guard lock(mutex_);
  // The last `window` complete seconds (the current one is still filling).
  for (std::size_t i = 0; i < bucket_second_.size(); ++i) {
    const auto s = bucket_second_[i];
    if (s >= 0 && s < sec && s >= sec - window) n += bucket_count_[i];
  }
  const auto span = std::min<std::int64_t>(window, sec);
  return span > 0 ? static_cast<double>(n) / static_cast<double>(span) : 0.0;
}

void metrics::error(std::string_view code) {
  std::lock_guard lock(mutex_);
  auto it = errors_.find(code);
  if (it == errors_.end()) it = errors_.emplace(std::string(code), 0).first;
  ++it->second;
}

std::map<std::string, std::uint64_t> metrics::errors() const {
  std::lock_guard lock(mutex_);
  return {errors_.begin(), errors_.end()};
}

std::uint64_t metrics::errors_total(std::string_view code) const {
  std::lock_guard lock(mutex_);
  auto it = errors_.find(code);
  return it == errors_.end() ? 0 : it->second;
}

double metrics::uptime_seconds() const { return std::chrono::duration<double>(clock::now() - start_).count(); }

namespace {
void metric(std::ostringstream& o, const char* name, const char* type, const char* help) {
  o << "# HELP " << name << ' ' << help << "\n# TYPE " << name << ' ' << type << '\n';
}
std::string number(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.3f", v);
  return buf;
}
}  // namespace

std::string metrics::prometheus(std::size_t persistence_pending, std::uint64_t persistence_commits,
                                const store_gauges& store) const {
  std::ostringstream o;
  metric(o, "cod_uptime_seconds", "gauge", "Seconds since the server started.");
  o << "cod_uptime_seconds " << number(uptime_seconds()) << '\n';
  metric(o, "cod_rooms", "gauge", "Rooms in the registry (waiting, playing or finished).");
  o << "cod_rooms " << rooms.load() << '\n';
  metric(o, "cod_connections", "gauge", "Open WebSocket connections.");
  o << "cod_connections " << connections.load() << '\n';
  metric(o, "cod_connections_total", "counter", "WebSocket connections accepted.");
  o << "cod_connections_total " << connections_total.load() << '\n';
  metric(o, "cod_messages_in_total", "counter", "WebSocket messages received.");
  o << "cod_messages_in_total " << messages_in_total.load() << '\n';
  metric(o, "cod_messages_out_total", "counter", "WebSocket messages written.");
  o << "cod_messages_out_total " << messages_out_total.load() << '\n';
  metric(o, "cod_actions_total", "counter", "Actions accepted and persisted.");
  o << "cod_actions_total " << actions_total() << '\n';
  metric(o, "cod_actions_per_second", "gauge", "Accepted actions per second, mean over the last 10 s.");
  o << "cod_actions_per_second " << number(actions_per_second()) << '\n';
  metric(o, "cod_matches_started_total", "counter", "Matches started.");
  o << "cod_matches_started_total " << matches_started_total.load() << '\n';
  metric(o, "cod_matches_finished_total", "counter", "Matches finished.");
  o << "cod_matches_finished_total " << matches_finished_total.load() << '\n';
  metric(o, "cod_slow_consumers_total", "counter", "Connections closed because their outgoing queue overflowed.");
  o << "cod_slow_consumers_total " << slow_consumers_total.load() << '\n';
  metric(o, "cod_connections_refused_total", "counter",
         "TCP connections closed at accept: a per-address or HTTP connection limit, or no descriptor left.");
  o << "cod_connections_refused_total " << connections_refused_total.load() << '\n';
  metric(o, "cod_websocket_refused_total", "counter",
         "WebSocket upgrades refused at max_connections (error server_busy, close 1013).");
  o << "cod_websocket_refused_total " << websocket_refused_total.load() << '\n';
  metric(o, "cod_hello_timeouts_total", "counter", "WebSocket connections closed for not sending hello in time.");
  o << "cod_hello_timeouts_total " << hello_timeouts_total.load() << '\n';
  metric(o, "cod_persistence_errors_total", "counter", "Store writes that failed.");
  o << "cod_persistence_errors_total " << persistence_errors_total.load() << '\n';
  metric(o, "cod_ai_pending", "gauge", "House bot decisions queued or running on the AI pool (at most ai_max_pending).");
  o << "cod_ai_pending " << ai_pending.load() << '\n';
  metric(o, "cod_ai_waiting", "gauge", "House bot decisions waiting for a place on the full AI pool.");
  o << "cod_ai_waiting " << ai_waiting.load() << '\n';
  metric(o, "cod_ai_decisions_total", "counter", "House bot decisions made on the AI pool.");
  o << "cod_ai_decisions_total " << ai_decisions_total.load() << '\n';
  metric(o, "cod_ai_stale_total", "counter",
         "House bot decisions dropped because the match moved on before they ran or were played.");
  o << "cod_ai_stale_total " << ai_stale_total.load() << '\n';
  metric(o, "cod_ai_saturated_total", "counter", "House bot decisions that found the AI pool full and waited.");
  o << "cod_ai_saturated_total " << ai_saturated_total.load() << '\n';
  metric(o, "cod_ai_think_seconds_total", "counter", "Time the AI pool's threads spent deciding.");
  o << "cod_ai_think_seconds_total " << number(static_cast<double>(ai_think_ms_total.load()) / 1000.0) << '\n';
  metric(o, "cod_persistence_pending", "gauge", "Store writes queued and not yet committed.");
  o << "cod_persistence_pending " << persistence_pending << '\n';
  metric(o, "cod_persistence_commits_total", "counter",
         "Store transactions committed (group commit: writes per commit = writes / this).");
  o << "cod_persistence_commits_total " << persistence_commits << '\n';
  metric(o, "cod_persistence_write_errors_total", "counter",
         "Store writes lost to storage failures (disk full, I/O error, read-only file, write lock timeout).");
  o << "cod_persistence_write_errors_total " << store.write_errors << '\n';
  metric(o, "cod_persistence_last_write_error_timestamp_seconds", "gauge",
         "When the last storage failure happened, seconds since the epoch; 0: never.");
  o << "cod_persistence_last_write_error_timestamp_seconds " << store.last_error_ms / 1000 << '\n';
  metric(o, "cod_persistence_healthy", "gauge",
         "0 while the last store commit failed and none has succeeded since (/healthz says degraded), else 1.");
  o << "cod_persistence_healthy " << (store.ok ? 1 : 0) << '\n';
  metric(o, "cod_errors_total", "counter", "Error messages sent to clients, by code.");
  for (const auto& [code, n] : errors()) o << "cod_errors_total{code=\"" << code << "\"} " << n << '\n';
  return o.str();
}

}  // namespace cod::server
