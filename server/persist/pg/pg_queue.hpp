// Internal to the PostgreSQL store: its queue_board (queue_board.hpp) on a
// connection of its own (application name cod-store-queue), so the queue's
// reads and writes never wait behind the writer's queue. Thread-safe (one
// connection behind a mutex); a lost connection fails that call (io_error)
// and is opened again for the next one. Every time is the server's
// clock_timestamp(), never this node's.
#pragma once

#include <memory>
#include <mutex>
#include <string>

#include "persist/queue_board.hpp"

namespace cod::server::pg {
class conn;
}

namespace cod::server::detail {

class pg_queue final : public queue_board {
 public:
  // Connects. Throws persist_error (the password never shown).
  explicit pg_queue(std::string uri);
  ~pg_queue() override;
  pg_queue(const pg_queue&) = delete;
  pg_queue& operator=(const pg_queue&) = delete;

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
  auto guarded(const char* doing, F&& f) -> decltype(f(std::declval<pg::conn&>()));

  std::mutex mu_;
  std::string uri_;
  std::unique_ptr<pg::conn> conn_;
};

}  // namespace cod::server::detail
