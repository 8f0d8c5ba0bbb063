#include "net/connection_limits.hpp"

namespace cod::server {

admission::~admission() { limits_.release(*this); }

bool admission::upgrade() {
  if (websocket_) return true;
  if (!limits_.upgrade(address_)) return false;
  websocket_ = true;
  return true;
}

std::unique_ptr<admission> connection_limits::admit(const std::string& address, refusal& why) {
  std::lock_guard lock(mutex_);
  // Without a limit per address (0: a proxy in front limits per client),
  // none on its HTTP connections either.
  if (per_address_ > 0 && !unlimited_.count(address)) {
    auto it = by_address_.find(address);
    if (it != by_address_.end()) {
      if (per_address_ > 0 && it->second.all >= per_address_) {
        why = refusal::per_address;
        return nullptr;
      }
      if (http_per_address_ > 0 && it->second.http >= http_per_address_) {
        why = refusal::http_per_address;
        return nullptr;
      }
    }
  }
  if (http_ >= static_cast<std::size_t>(max_http_)) {
    why = refusal::http_full;
    return nullptr;
  }
  ++http_;
  auto& n = by_address_[address];
  ++n.all;
  ++n.http;
  why = refusal::none;
  return std::unique_ptr<admission>(new admission(*this, address));
}

bool connection_limits::upgrade(const std::string& address) {
  std::lock_guard lock(mutex_);
  if (websocket_ >= static_cast<std::size_t>(max_websocket_)) return false;
  --http_;
  ++websocket_;
  if (auto it = by_address_.find(address); it != by_address_.end()) --it->second.http;
  return true;
}

void connection_limits::release(const admission& a) {
  std::lock_guard lock(mutex_);
  if (a.websocket_) --websocket_;
  else --http_;
  auto it = by_address_.find(a.address_);
  if (it == by_address_.end()) return;
  if (!a.websocket_) --it->second.http;
  if (--it->second.all <= 0) by_address_.erase(it);
}

std::size_t connection_limits::http_connections() const {
  std::lock_guard lock(mutex_);
  return http_;
}

std::size_t connection_limits::websocket_connections() const {
  std::lock_guard lock(mutex_);
  return websocket_;
}

std::size_t connection_limits::connections_from(const std::string& address) const {
  std::lock_guard lock(mutex_);
  auto it = by_address_.find(address);
  return it == by_address_.end() ? 0 : static_cast<std::size_t>(it->second.all);
}

}  // namespace cod::server
