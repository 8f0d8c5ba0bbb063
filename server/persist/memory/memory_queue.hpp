// Internal to the memory store: its queue_board (queue_board.hpp) in maps
// under a mutex of its own, on the system clock (one process: its clock is
// the store's).
#pragma once

#include <map>
#include <mutex>
#include <optional>

#include "persist/queue_board.hpp"

namespace cod::server::detail {

class memory_queue final : public queue_board {
 public:
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
  struct recent {
    std::vector<std::int64_t> opponents;
    std::int64_t at_ms = 0;
  };
  std::mutex mu_;
  std::int64_t next_id_ = 1;
  std::map<std::int64_t, queue_ticket_row> tickets_;
  std::map<std::string, std::int64_t> seen_;  // node -> last heartbeat
  std::optional<std::pair<std::string, std::int64_t>> matcher_;  // node, expires
  std::map<std::int64_t, recent> recent_;
};

}  // namespace cod::server::detail
