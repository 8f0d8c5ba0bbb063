// Internal to the SQLite store: its room_directory (room_directory.hpp) on a
// read-write connection of its own, so that a claim or a publish never
// waits behind the writer thread's queue (only, briefly, behind its
// transaction: busy_timeout). One node by construction (the owner lock), so
// every claim is this process's; the semantics are pg_store's all the same.
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

namespace cod::server::sql {
class db;
class stmt;
}  // namespace cod::server::sql

namespace cod::server::detail {

class sqlite_directory final : public room_directory {
 public:
  // Opens its connection on a migrated database. Throws persist_error.
  // `reader`: the store's, which loads a room's match (load_room_match); it
  // outlives the directory.
  sqlite_directory(const std::string& path, int busy_timeout_ms, match_reader& reader);
  ~sqlite_directory() override;
  sqlite_directory(const sqlite_directory&) = delete;
  sqlite_directory& operator=(const sqlite_directory&) = delete;

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
  template <class F>
  auto guarded(const char* doing, F&& f) -> decltype(f());

  match_reader& reader_;
  std::mutex mu_;
  std::unique_ptr<sql::db> db_;
};

}  // namespace cod::server::detail
