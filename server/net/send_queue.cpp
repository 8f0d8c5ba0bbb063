#include "net/send_queue.hpp"

namespace cod::server {

bool send_queue::push(message_ptr m) {
  if (!m || q_.size() >= cap_) return false;
  q_.push_back(std::move(m));
  return true;
}

void send_queue::drop_pending() {
  if (q_.size() > 1) q_.erase(q_.begin() + 1, q_.end());
}

}  // namespace cod::server
