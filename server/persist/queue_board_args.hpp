// Internal: what every queue_board refuses alike (invalid) and the little
// they share, so the three stores answer the same.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/status.hpp"
#include "common/strcat.hpp"
#include "persist/queue_board.hpp"

namespace cod::server::detail {

inline status check_ticket(const queue_ticket_row& t) {
  if (t.node_id.empty()) return status::invalid("a queue ticket needs a node_id");
  if (t.account_id <= 0) return status::invalid("a queue ticket needs an account");
  if (t.pool.empty()) return status::invalid("a queue ticket needs a pool");
  return {};
}

inline status check_seating(const std::string& matcher_node, const std::string& room_id,
                            const std::vector<queue_seating>& seats) {
  if (matcher_node.empty()) return status::invalid("a match needs the matching node's id");
  if (room_id.empty()) return status::invalid("a match needs a room");
  if (seats.empty()) return status::invalid("a match needs seats");
  return {};
}

// queue_recent.opponents: comma-separated account ids.
inline std::string join_accounts(const std::vector<std::int64_t>& ids) {
  std::string out;
  for (std::int64_t id : ids) out += (out.empty() ? "" : ",") + std::to_string(id);
  return out;
}

inline std::vector<std::int64_t> split_accounts(const std::string& text) {
  std::vector<std::int64_t> out;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find(',', start);
    if (end == std::string::npos) end = text.size();
    try {
      out.push_back(std::stoll(text.substr(start, end - start)));
    } catch (const std::exception&) {  // a hand-edited row: that id is skipped
    }
    start = end + 1;
  }
  return out;
}

// For each seat of a match, the other seats' accounts (its last opponents).
inline std::vector<std::int64_t> others(const std::vector<std::int64_t>& accounts, std::size_t i) {
  std::vector<std::int64_t> out;
  for (std::size_t j = 0; j < accounts.size(); ++j)
    if (j != i && accounts[j] != accounts[i]) out.push_back(accounts[j]);
  return out;
}

}  // namespace cod::server::detail
