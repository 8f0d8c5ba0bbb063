#include "persist/pg/pg_liveness.hpp"

#include <utility>

#include "common/strcat.hpp"
#include "persist/pg/pg_util.hpp"

namespace cod::server::detail {

namespace {

constexpr const char* application_name = "cod-node-liveness";

// A cut-off node's session ends after about idle + interval * count seconds
// of silence (TCP keepalives from the server's side; ignored, and not
// needed, on a Unix socket). Its leases run out sooner anyway (3 s); what
// this bounds is how long its lock outlives it, i.e. how long the node
// restarted elsewhere, under the same id, waits to take it again.
constexpr const char* keepalives =
    "SET tcp_keepalives_idle = 2; SET tcp_keepalives_interval = 1; SET tcp_keepalives_count = 3";

}  // namespace

pg_liveness::pg_liveness(std::string uri) : uri_(std::move(uri)) {}

pg_liveness::~pg_liveness() = default;

status pg_liveness::hold(const std::string& node_id, bool check) {
  std::lock_guard lk(mu_);
  try {
    if (conn_ && check) {
      try {
        conn_->query("SELECT 1", pg::params());
      } catch (const pg::error& e) {
        if (!e.connection_lost) throw;
        conn_.reset();  // its session, and every lock it held, is gone
      }
    }
    if (!conn_ || !conn_->ok()) {
      held_.clear();
      conn_.reset();
      conn_ = std::make_unique<pg::conn>(uri_, application_name);
      conn_->exec(keepalives);
    }
    if (held_.count(node_id)) return {};
    // try, never wait: a lock another session holds is a fact to report
    // (another process with this id), not something to queue behind.
    static const std::string sql = cat("SELECT pg_try_advisory_lock(", liveness_lock_class, ", hashtext($1))");
    if (conn_->query(sql, pg::params().add(node_id)).text(0, 0) != "t")
      return status::conflict(cat("the liveness lock of node ", node_id,
                                  " is held by another session: another process runs with node_id ", node_id,
                                  ", or this node's previous process has not gone yet (its session ends within "
                                  "seconds); this node claims no room until it holds the lock"));
    held_.insert(node_id);
    return {};
  } catch (const std::exception& e) {
    if (conn_ && !conn_->ok()) conn_.reset();
    return status::io_error(cat(conn_ ? conn_->where() : pg::redact(uri_), ": holding the liveness lock of node ",
                                node_id, ": ", e.what()));
  }
}

const std::string& live_nodes_cte() {
  static const std::string sql =
      cat("live_nodes AS MATERIALIZED (SELECT k.objid FROM pg_locks k WHERE k.locktype = 'advisory' AND k.classid = ",
          liveness_lock_class,
          " AND k.objsubid = 2 AND k.granted AND k.database = (SELECT oid FROM pg_database WHERE datname = "
          "current_database()))");
  return sql;
}

std::string dead_node(std::string_view column) {
  return cat("hashtext(", column, ")::oid NOT IN (SELECT objid FROM live_nodes)");
}

}  // namespace cod::server::detail
