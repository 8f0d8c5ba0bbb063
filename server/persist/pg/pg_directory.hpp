// Internal to the PostgreSQL store: its room_directory (room_directory.hpp)
// on a connection of its own (application name cod-store-directory), so a
// claim or a renewal never waits behind the writer's queue. Thread-safe (one
// connection behind a mutex); a lost connection fails that call (io_error)
// and is opened again for the next one. Every time is the server's
// clock_timestamp(), never this node's. The liveness locks of the nodes it
// claims for are held on another connection (pg_liveness.hpp).
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "common/status.hpp"
#include "persist/match_store.hpp"
#include "persist/room_directory.hpp"

namespace cod::server::pg {
class conn;
}

namespace cod::server::detail {

class pg_liveness;

class pg_directory final : public room_directory {
 public:
  // Connects. Throws persist_error (the password never shown).
  // `reader`: the store's, which loads a room's match (load_room_match); it
  // outlives the directory.
  pg_directory(std::string uri, match_reader& reader);
  ~pg_directory() override;
  pg_directory(const pg_directory&) = delete;
  pg_directory& operator=(const pg_directory&) = delete;

  result<bool> claim_room(const std::string& room_id, const std::string& node_id, std::int64_t lease_ms) override;
  result<std::vector<std::string>> renew_leases(const std::string& node_id, std::int64_t lease_ms) override;
  status hold_liveness(const std::string& node_id) override;
  status release_room(const std::string& room_id, const std::string& node_id) override;
  result<bool> request_room(const std::string& room_id, const std::string& node_id) override;
  result<std::vector<std::string>> wanted_rooms(const std::string& node_id) override;
  result<bool> room_known(const std::string& room_id) override;
  result<std::vector<std::string>> expired_rooms(std::size_t limit) override;
  result<std::vector<std::string>> expired_events(std::size_t limit) override;
  result<std::optional<stored_match>> load_room_match(const std::string& room_id,
                                                      std::int64_t finished_since_ms) override;
  // The match_id load_room_match loads (through the reader).
  result<std::optional<std::string>> room_match_id(const std::string& room_id, std::int64_t finished_since_ms);
  status publish_rooms(const std::string& node_id, const std::vector<room_listing>& rooms) override;
  result<std::vector<room_listing>> list_all_rooms(std::int64_t stale_after_ms) override;
  result<std::size_t> forget_stale(std::int64_t stale_for_ms) override;

 private:
  // Runs f(conn) under the mutex on a live connection; a persist_error
  // becomes io_error (and a transaction left open is rolled back).
  template <class F>
  auto guarded(const char* doing, F&& f) -> decltype(f(std::declval<pg::conn&>()));

  match_reader& reader_;
  std::mutex mu_;
  std::string uri_;
  std::unique_ptr<pg::conn> conn_;
  std::unique_ptr<pg_liveness> liveness_;
};

}  // namespace cod::server::detail
