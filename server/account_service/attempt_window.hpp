// At most `limit` events per key within a sliding `window` (failed logins
// per account name and per address, registrations per address;
// docs/accounts.md, "Throttles"). Thread-safe. Keys whose events have all
// aged out are dropped as it goes, so memory follows the recent attempts.
#pragma once

#include <chrono>
#include <cstddef>
#include <deque>
#include <mutex>
#include <string>
#include <unordered_map>

namespace cod::server::accounts {

class attempt_window {
 public:
  using clock = std::chrono::steady_clock;
  attempt_window(int limit, clock::duration window) : limit_(limit), window_(window) {}

  // How long until `key` may have another event: zero when it may now.
  clock::duration wait(const std::string& key, clock::time_point now);
  void add(const std::string& key, clock::time_point now);
  std::size_t keys() const;

 private:
  void prune(std::deque<clock::time_point>& events, clock::time_point now) const;
  void sweep(clock::time_point now);  // under mu_

  int limit_;
  clock::duration window_;
  mutable std::mutex mu_;
  std::unordered_map<std::string, std::deque<clock::time_point>> events_;
  std::size_t adds_since_sweep_ = 0;
};

}  // namespace cod::server::accounts
