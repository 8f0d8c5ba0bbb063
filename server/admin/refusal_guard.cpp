#include "admin/refusal_guard.hpp"

#include <spdlog/spdlog.h>

namespace cod::server::admin {

std::string address_of(std::string_view remote) {
  const auto colon = remote.rfind(':');
  // "10.1.2.3" or a bare IPv6 address without a port would be cut wrongly:
  // only a trailing run of digits after the last ':' is a port.
  if (colon == std::string_view::npos || colon + 1 == remote.size()) return std::string(remote);
  for (char c : remote.substr(colon + 1))
    if (c < '0' || c > '9') return std::string(remote);
  std::string_view addr = remote.substr(0, colon);
  if (addr.size() >= 2 && addr.front() == '[' && addr.back() == ']') addr = addr.substr(1, addr.size() - 2);
  return std::string(addr);
}

refusal_guard::refusal_guard(guard_limits limits) : limits_(limits) {}

refusal_guard::~refusal_guard() { flush(); }

int refusal_guard::retry_after(const std::string& address, clock::time_point now) {
  std::lock_guard lock(mutex_);
  auto it = failures_.find(address);
  if (it == failures_.end()) return 0;
  if (expired(it->second, now)) {
    failures_.erase(it);
    return 0;
  }
  if (it->second.count < limits_.max_failures) return 0;
  const auto left = it->second.window_start + limits_.failure_window - now;
  // Whole seconds, rounded up: a client that waits that long is let through.
  const auto secs = std::chrono::ceil<std::chrono::seconds>(left).count();
  return static_cast<int>(secs < 1 ? 1 : secs);
}

void refusal_guard::failed(const std::string& address, clock::time_point now) {
  std::lock_guard lock(mutex_);
  auto it = failures_.find(address);
  if (it != failures_.end() && !expired(it->second, now)) {
    ++it->second.count;
    return;
  }
  if (it != failures_.end()) {
    it->second = failures{now, 1};
    return;
  }
  make_room(now);
  failures_.emplace(address, failures{now, 1});
}

void refusal_guard::succeeded(const std::string& address) {
  std::lock_guard lock(mutex_);
  failures_.erase(address);
}

// At the cap: forget the expired windows, then, if still full, the oldest.
void refusal_guard::make_room(clock::time_point now) {
  if (failures_.size() < limits_.max_addresses) return;
  std::erase_if(failures_, [&](const auto& kv) { return expired(kv.second, now); });
  while (!failures_.empty() && failures_.size() >= limits_.max_addresses) {
    auto oldest = failures_.begin();
    for (auto it = failures_.begin(); it != failures_.end(); ++it)
      if (it->second.window_start < oldest->second.window_start) oldest = it;
    failures_.erase(oldest);
  }
}

void refusal_guard::tick(clock::time_point now) {
  std::lock_guard lock(mutex_);
  roll(now);
}

void refusal_guard::refused(const std::string& address, const std::string& line, clock::time_point now) {
  std::lock_guard lock(mutex_);
  ++refused_total_;
  roll(now);
  if (!interval_start_) interval_start_ = now;
  if (logged_ < limits_.logged_per_interval) {
    ++logged_;
    spdlog::warn("{}", line);
    return;
  }
  ++suppressed_;
  if (suppressed_addresses_.size() < limits_.max_summary_addresses) suppressed_addresses_.insert(address);
  else if (!suppressed_addresses_.contains(address)) addresses_capped_ = true;
  last_line_ = line;
  last_at_ = now;
}

void refusal_guard::flush() {
  std::lock_guard lock(mutex_);
  summarise();
}

// The interval is over: its summary, then a new interval starts with the
// next refusal.
void refusal_guard::roll(clock::time_point now) {
  if (!interval_start_ || now < *interval_start_ + limits_.log_interval) return;
  summarise();
  interval_start_.reset();
  logged_ = 0;
}

// "admin: 12340 more refused requests in 10 s from 3 addresses; last:
// 10.0.0.7:51234 GET /admin/api/matches refused: 401 unauthorized": the
// seconds are those from the interval's first refusal to its last one.
void refusal_guard::summarise() {
  if (suppressed_ == 0) return;
  const auto span = std::chrono::ceil<std::chrono::seconds>(last_at_ - interval_start_.value_or(last_at_)).count();
  std::string_view last = last_line_;
  if (last.substr(0, 7) == "admin: ") last.remove_prefix(7);
  spdlog::warn("admin: {} more refused request{} in {} s from {}{} address{} (not logged one by one); last: {}",
               suppressed_, suppressed_ == 1 ? "" : "s", span < 1 ? 1 : span, addresses_capped_ ? "at least " : "",
               suppressed_addresses_.size(), suppressed_addresses_.size() == 1 ? "" : "es", last);
  suppressed_ = 0;
  suppressed_addresses_.clear();
  addresses_capped_ = false;
  last_line_.clear();
}

std::uint64_t refusal_guard::refused_total() const {
  std::lock_guard lock(mutex_);
  return refused_total_;
}

std::uint64_t refusal_guard::throttled_total() const {
  std::lock_guard lock(mutex_);
  return throttled_total_;
}

std::size_t refusal_guard::tracked_addresses() const {
  std::lock_guard lock(mutex_);
  return failures_.size();
}

void refusal_guard::throttled() {
  std::lock_guard lock(mutex_);
  ++throttled_total_;
}

}  // namespace cod::server::admin
