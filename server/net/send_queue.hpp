// A connection's outgoing messages: capped, so a client that does not read
// cannot make the server's memory grow. Messages are shared: one serialized
// update goes to every spectator without a copy. Not thread-safe: one per
// connection, used on its strand.
#pragma once

#include <cstddef>
#include <deque>
#include <memory>
#include <string>

namespace cod::server {

using message_ptr = std::shared_ptr<const std::string>;

class send_queue {
 public:
  explicit send_queue(std::size_t cap) : cap_(cap == 0 ? 1 : cap) {}

  // Queues `m`. False when the queue is full: the message is not queued and
  // the owner closes the connection (slow consumer).
  bool push(message_ptr m);

  bool empty() const { return q_.empty(); }
  std::size_t size() const { return q_.size(); }
  std::size_t capacity() const { return cap_; }
  // The oldest message (it stays queued until its write ends).
  const std::string& front() const { return *q_.front(); }
  void pop() { q_.pop_front(); }
  // Drops everything but the oldest message (which may be mid-write).
  void drop_pending();
  void clear() { q_.clear(); }

 private:
  std::size_t cap_;
  std::deque<message_ptr> q_;
};

}  // namespace cod::server
