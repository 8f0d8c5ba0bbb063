// A connection's outgoing messages: capped in count and in bytes, so a client
// that does not read cannot make the server's memory grow. Messages are
// shared: one serialized update goes to every spectator without a copy (the
// byte cap still counts it for each queue: what one reader holds back is
// bounded whatever the others do). Not thread-safe: one per connection, used
// on its strand.
#pragma once

#include <cstddef>
#include <deque>
#include <memory>
#include <string>

namespace cod::server {

using message_ptr = std::shared_ptr<const std::string>;

class send_queue {
 public:
  send_queue(std::size_t max_messages, std::size_t max_bytes)
      : cap_(max_messages == 0 ? 1 : max_messages), cap_bytes_(max_bytes) {}

  // Queues `m`. False when it would take the queue over either cap: the
  // message is not queued and the owner closes the connection (slow
  // consumer). A message alone in the queue is always taken, however large.
  bool push(message_ptr m);

  bool empty() const { return q_.empty(); }
  std::size_t size() const { return q_.size(); }
  std::size_t bytes() const { return bytes_; }
  std::size_t capacity() const { return cap_; }
  // The oldest message (it stays queued until its write ends).
  const std::string& front() const { return *q_.front(); }
  void pop();
  // Drops everything but the oldest message (which may be mid-write).
  void drop_pending();
  void clear();

 private:
  std::size_t cap_;
  std::size_t cap_bytes_;
  std::size_t bytes_ = 0;
  std::deque<message_ptr> q_;
};

}  // namespace cod::server
