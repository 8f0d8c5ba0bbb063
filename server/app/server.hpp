// The whole server in one object: catalogue, store, rooms (recovered from the
// store), the listener and the io threads. main() runs one; the end-to-end
// tests run one in-process on an ephemeral port.
//
// Threads: `threads` io threads run the io_context; each connection and each
// room is a strand on it. The store has its own writer thread. Shutdown
// (stop(), SIGINT, SIGTERM): stop accepting, stop room timers, close every
// WebSocket with 1001 "server shutting down", wait for the close handshakes
// (at most shutdown_timeout_ms), stop the io threads, flush the store.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "common/config.hpp"
#include "common/status.hpp"
#include "persist/match_store.hpp"

namespace cod {
class catalogue;
}

namespace cod::server {

class metrics;

class server {
 public:
  // `store`: null opens cfg.db (SQLite; ":memory:" gives a memory store).
  explicit server(config cfg, std::unique_ptr<match_store> store = nullptr);
  ~server();
  server(const server&) = delete;
  server& operator=(const server&) = delete;

  // Takes over SIGINT and SIGTERM: from this call on, either one stops the
  // server gracefully once its io threads run (a signal that arrives during
  // start(), e.g. while matches are recovered, waits for them). Call before
  // start(); run_until_signal() calls it if nobody did.
  void catch_signals();
  // Loads the catalogue, opens the store, recovers unfinished matches, binds.
  // A status with a sentence on failure: invalid (catalogue, address),
  // io_error (directory, recovery reads, listening), or the store's open's
  // own (conflict: another server holds the database; io_error).
  status start();
  // Runs the io threads in the background.
  void run();
  // Graceful stop; returns at once (thread-safe, idempotent).
  void stop();
  // Blocks until stopped, then joins the io threads and flushes the store.
  void wait();
  // run(), stop on SIGINT/SIGTERM, wait(). The process' exit status.
  int run_until_signal();

  std::uint16_t port() const;
  // The health listener's port (config health_listen), 0 when there is none.
  std::uint16_t health_port() const;
  const metrics& stats() const;
  match_store& store();

 private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

}  // namespace cod::server
