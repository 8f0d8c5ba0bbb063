// A connected client as rooms and the lobby see it. The WebSocket session
// implements the transport (send, close, id); client_session wraps it and
// adds what a room needs of the clients in it; tests implement it to record
// what each client receives. Rooms hold peers only.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

namespace cod::server {

using message_ptr = std::shared_ptr<const std::string>;

// One JSON message as sent: its text, shared by every recipient.
inline message_ptr to_message(const nlohmann::json& j) { return std::make_shared<const std::string>(j.dump()); }

class room;

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

  // What a room needs beyond the transport; a bare connection keeps these
  // defaults (client_session overrides them).
  // Thread-safe: one JSON message (client_session counts errors by code).
  virtual void send(const nlohmann::json& j) { send(to_message(j)); }
  // hello.acks: an accepted act's update carries its id instead of an
  // `accepted` reply.
  virtual bool acks_in_update() const { return false; }
  // hello.legal_actions: this client's seat gets its legal actions in each
  // state, update and draft push.
  virtual bool wants_legal_actions() const { return false; }
  // hello.account_token: the signed-in account (docs/accounts.md), 0 for
  // none. Set once by hello, before any join this connection sends can
  // reach a room: a seat it takes is bound to the account.
  virtual std::int64_t account_id() const { return 0; }
  // Thread-safe: room `r` no longer holds this client (a refused join, a
  // leave, the room closed), which may then join another room.
  virtual void detach(const room* /*r*/) {}
};

}  // namespace cod::server
