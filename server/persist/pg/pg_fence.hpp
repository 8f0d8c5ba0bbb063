// Internal to the PostgreSQL store: the fence that keeps a node that lost a
// room's lease from writing that room's match (docs/persistence.md,
// "Fencing"). Used by the writer when the store was opened with a node_id.
//
// Each batch, in its transaction and before anything else, locks FOR SHARE
// the lease rows (room_leases) that name this node, of every room the batch
// writes. A write whose room is not among them is refused (conflict): its
// lease was taken over, released or never taken. The locks make it exact: a
// claim by another node updates the row, so it waits for this transaction
// to commit (then its node reads a log that has this batch), or this batch
// waits for the claim to commit and then finds the row no longer its node's
// (then it writes nothing). The rows are locked in room order, like
// renew_leases's, so the two never deadlock. The fence is the row, not the
// clock: no node's clock is compared with anything.
#pragma once

#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

#include "persist/pg/pg_util.hpp"
#include "persist/write_queue.hpp"
#include "persist/write_rules.hpp"

namespace cod::server::detail {

struct fence {
  std::string node_id;                   // empty: no fencing (one node: today's behaviour)
  std::unordered_set<std::string> held;  // rooms this batch's transaction holds, locked
  bool on() const { return !node_id.empty(); }
};

// (name, SQL) of the statement that locks the held lease rows.
const std::pair<std::string, std::string>& lock_statement();
// Its parameters: the node, the rooms of the batch's create_match writes,
// the matches of its other room writes (their rooms found in SQL).
pg::params lock_params(const std::vector<write_op>& batch, const std::string& node_id);
// ok, or conflict when `op` writes a room whose lease this node does not
// hold. A tournament's save is fenced by its own lease (a row of room_leases
// named by the tournament id); audit rows are never fenced. A write
// for an unknown match passes (check_write refuses it: not_found).
status check_fence(const write_op& op, const match_states& view, const fence& f);

}  // namespace cod::server::detail
