// Internal to the PostgreSQL store: the liveness locks of cluster nodes
// (docs/cluster.md, "A dead node's rooms at once"). A node holds a
// session-level advisory lock naming it, (liveness_lock_class,
// hashtext(node_id)), on a connection of its own (application name
// cod-node-liveness) for as long as it lives. PostgreSQL drops the lock with
// the session: at once when the node's process dies (its kernel closes the
// socket), within seconds when the node is cut off (the session's TCP
// keepalives, set short here). A node that is only slow or paused (SIGSTOP)
// keeps its session, and so its lock: its kernel still answers.
//
// The directory reads pg_locks to tell a dead lease holder from a live one
// (live_nodes_cte, dead_node): a dead holder's lease may be claimed before
// it expires. Two node ids with the same hashtext make the dead one look
// alive while the other lives: its rooms then wait for their leases to
// expire, as without liveness locks (the safe direction).
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <string_view>

#include "common/status.hpp"

namespace cod::server::pg {
class conn;
}

namespace cod::server::detail {

// The advisory lock class of every liveness lock ("CoD1"): no other lock of
// this project uses it (the migrations' lock is a single bigint key).
inline constexpr std::int32_t liveness_lock_class = 0x436f4431;

class pg_liveness {
 public:
  // Connects on first use: a store that never claims for a node (cod-admin,
  // a single node) opens no connection for it.
  explicit pg_liveness(std::string uri);
  ~pg_liveness();
  pg_liveness(const pg_liveness&) = delete;
  pg_liveness& operator=(const pg_liveness&) = delete;

  // Makes sure this session holds node_id's lock: takes it if it does not
  // (one round trip; nothing when it does). `check`: first asks the session
  // whether it is still there (one round trip), and after a lost connection
  // opens a new one, whose locks must be taken again (the old session's
  // went with it). ok: held. conflict: another session holds it (another
  // process with this node_id, or this node's previous process, whose
  // session has not ended yet). io_error: no connection to the server.
  status hold(const std::string& node_id, bool check);

 private:
  std::mutex mu_;
  std::string uri_;
  std::unique_ptr<pg::conn> conn_;
  std::set<std::string> held_;  // the node ids whose lock conn_'s session holds
};

// SQL for a WITH clause: live_nodes(objid), the hashes of the node ids whose
// liveness lock some session of this database holds now (read once per
// statement from pg_locks).
const std::string& live_nodes_cte();
// SQL: true when the node named by `column` holds no liveness lock (needs
// live_nodes_cte in the statement's WITH clause).
std::string dead_node(std::string_view column);

}  // namespace cod::server::detail
