#include "net/net_context.hpp"

#include <vector>

namespace cod::server {

void connection_list::add(const std::shared_ptr<peer>& p) {
  std::lock_guard lock(mutex_);
  peers_[p->id()] = p;
}

void connection_list::remove(std::uint64_t id) {
  std::lock_guard lock(mutex_);
  peers_.erase(id);
}

std::size_t connection_list::size() const {
  std::lock_guard lock(mutex_);
  return peers_.size();
}

void connection_list::close_all(const message_ptr& m, std::uint16_t code, const std::string& reason) {
  std::vector<std::shared_ptr<peer>> all;
  {
    std::lock_guard lock(mutex_);
    for (auto& [id, w] : peers_)
      if (auto p = w.lock()) all.push_back(std::move(p));
  }
  for (auto& p : all) {
    if (m) p->send(m);
    p->close(code, reason);
  }
}

}  // namespace cod::server
