// Internal to the SQLite store: its queue_board (queue_board.hpp) on a
// read-write connection of its own, like the directory's. One node by
// construction (the owner lock), so the lease always goes to this process;
// the semantics are pg_store's all the same, so the contract tests run here.
#pragma once

#include <memory>
#include <mutex>
#include <string>

#include "persist/queue_board.hpp"

namespace cod::server::sql {
class db;
}

namespace cod::server::detail {

class sqlite_queue final : public queue_board {
 public:
  // Opens its connection on a migrated database. Throws persist_error.
  sqlite_queue(const std::string& path, int busy_timeout_ms);
  ~sqlite_queue() override;
  sqlite_queue(const sqlite_queue&) = delete;
  sqlite_queue& operator=(const sqlite_queue&) = delete;

  result<std::optional<queue_ticket_row>> add_ticket(queue_ticket_row t, std::int64_t alive_within_ms) override;
  result<std::vector<std::int64_t>> withdraw_tickets(const std::string& node_id,
                                                     const std::vector<std::int64_t>& tickets) override;
  result<std::size_t> forget_tickets(const std::string& node_id, const std::vector<std::int64_t>& tickets) override;
  status drop_node_tickets(const std::string& node_id) override;
  status heartbeat(const std::string& node_id) override;
  result<bool> claim_matcher(const std::string& node_id, std::int64_t lease_ms) override;
  status release_matcher(const std::string& node_id) override;
  result<queue_snapshot> waiting_tickets(std::int64_t alive_within_ms, std::int64_t remember_ms) override;
  result<bool> match_tickets(const std::string& matcher_node, const std::string& room_id,
                             const std::vector<queue_seating>& seats, const std::string& players) override;
  result<std::vector<queue_ticket_row>> matched_tickets(const std::string& node_id) override;
  result<std::size_t> forget_stale_tickets(std::int64_t stale_for_ms, std::int64_t remember_ms) override;

 private:
  template <class F>
  auto guarded(const char* doing, F&& f) -> decltype(f());

  std::mutex mu_;
  std::unique_ptr<sql::db> db_;
};

}  // namespace cod::server::detail
