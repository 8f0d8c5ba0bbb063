#include "net/send_queue.hpp"

namespace cod::server {

bool send_queue::push(message_ptr m) {
  if (!m) return false;
  if (!q_.empty() && (q_.size() >= cap_ || bytes_ + m->size() > cap_bytes_)) return false;
  bytes_ += m->size();
  q_.push_back(std::move(m));
  return true;
}

void send_queue::pop() {
  bytes_ -= q_.front()->size();
  q_.pop_front();
}

void send_queue::drop_pending() {
  while (q_.size() > 1) {
    bytes_ -= q_.back()->size();
    q_.pop_back();
  }
}

void send_queue::clear() {
  q_.clear();
  bytes_ = 0;
}

}  // namespace cod::server
