// Admission of TCP connections, decided before a byte is read: at most
// `per_address` connections from one IP address (HTTP and WebSocket alike),
// of which at most `http_per_address` not (yet) WebSocket sessions (16 slow
// HTTP clients from one address must not hold every HTTP place),
// at most `max_http` connections that are not WebSocket sessions (requests
// being read, upgrades in progress) and at most `max_websocket` WebSocket
// sessions, counted when the upgrade is asked for, not when it completes, so
// simultaneous handshakes cannot overshoot it.
//
// A connection holds its places through an `admission` for its whole life;
// destroying it gives them back. Thread-safe: one mutex, held for a counter
// update only.
#pragma once

#include <cstddef>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <unordered_set>

namespace cod::server {

class connection_limits;

class admission {
 public:
  admission(const admission&) = delete;
  admission& operator=(const admission&) = delete;
  ~admission();

  // The HTTP connection becomes a WebSocket session: its HTTP place is given
  // back and a WebSocket place taken. False (and nothing changes) when every
  // WebSocket place is taken.
  bool upgrade();
  const std::string& address() const { return address_; }

 private:
  friend class connection_limits;
  admission(connection_limits& limits, std::string address) : limits_(limits), address_(std::move(address)) {}
  connection_limits& limits_;
  std::string address_;
  bool websocket_ = false;
};

class connection_limits {
 public:
  enum class refusal { none, per_address, http_per_address, http_full };

  // 0 for `per_address` or `http_per_address`: no such limit per address
  // (`per_address` 0 turns both off: the HTTP places are part of it).
  // `unlimited`: addresses the per-address limits do not apply to (trusted
  // proxies: they limit per client themselves).
  connection_limits(int per_address, int max_http, int max_websocket, std::unordered_set<std::string> unlimited = {},
                    int http_per_address = 0)
      : per_address_(per_address),
        http_per_address_(http_per_address),
        max_http_(max_http),
        max_websocket_(max_websocket),
        unlimited_(std::move(unlimited)) {}

  // A new TCP connection from `address`: its admission, or null with the
  // reason in `why`.
  std::unique_ptr<admission> admit(const std::string& address, refusal& why);

  std::size_t http_connections() const;
  std::size_t websocket_connections() const;
  std::size_t connections_from(const std::string& address) const;
  int max_websocket() const { return max_websocket_; }

 private:
  friend class admission;
  void release(const admission& a);
  bool upgrade(const std::string& address);

  const int per_address_;
  const int http_per_address_;
  const int max_http_;
  const int max_websocket_;
  const std::unordered_set<std::string> unlimited_;
  mutable std::mutex mutex_;
  std::size_t http_ = 0;
  std::size_t websocket_ = 0;
  struct per_address_count {
    int all = 0;   // HTTP and WebSocket
    int http = 0;  // not (yet) WebSocket
  };
  std::unordered_map<std::string, per_address_count> by_address_;
};

}  // namespace cod::server
