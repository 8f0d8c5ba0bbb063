// A connected client as rooms and the lobby see it. Implemented by the
// WebSocket session; tests implement it to record what each client receives.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

namespace cod::server {

using message_ptr = std::shared_ptr<const std::string>;

class peer {
 public:
  virtual ~peer() = default;
  // Thread-safe and non-blocking: queues `m` for this client. A client whose
  // queue is full is closed (slow consumer) and `m` dropped.
  virtual void send(message_ptr m) = 0;
  // Thread-safe: closes the connection with a WebSocket close code
  // (protocol::close_code) and reason.
  virtual void close(std::uint16_t code, std::string reason) = 0;
  // Unique per connection for the process' lifetime (logs, seat lookups).
  virtual std::uint64_t id() const = 0;
};

}  // namespace cod::server
