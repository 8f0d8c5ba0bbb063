#include "account_service/attempt_window.hpp"

namespace cod::server::accounts {

void attempt_window::prune(std::deque<clock::time_point>& events, clock::time_point now) const {
  while (!events.empty() && now - events.front() >= window_) events.pop_front();
}

attempt_window::clock::duration attempt_window::wait(const std::string& key, clock::time_point now) {
  std::lock_guard lock(mu_);
  auto it = events_.find(key);
  if (it == events_.end()) return clock::duration::zero();
  prune(it->second, now);
  if (static_cast<int>(it->second.size()) < limit_) return clock::duration::zero();
  // The oldest event of the window leaves it first.
  return it->second.front() + window_ - now;
}

void attempt_window::add(const std::string& key, clock::time_point now) {
  std::lock_guard lock(mu_);
  auto& events = events_[key];
  prune(events, now);
  events.push_back(now);
  // Keep at most `limit` events: older ones no longer decide anything.
  while (static_cast<int>(events.size()) > limit_) events.pop_front();
  if (++adds_since_sweep_ >= 1024) sweep(now);
}

void attempt_window::sweep(clock::time_point now) {
  adds_since_sweep_ = 0;
  for (auto it = events_.begin(); it != events_.end();) {
    prune(it->second, now);
    it = it->second.empty() ? events_.erase(it) : std::next(it);
  }
}

std::size_t attempt_window::keys() const {
  std::lock_guard lock(mu_);
  return events_.size();
}

}  // namespace cod::server::accounts
