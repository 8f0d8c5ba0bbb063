#include "persist/pg/pg_directory.hpp"

#include <algorithm>
#include <utility>

#include "persist/directory_args.hpp"
#include "persist/pg/pg_liveness.hpp"
#include "persist/pg/pg_util.hpp"

namespace cod::server::detail {

namespace {

std::vector<std::string> column0(const pg::result& r) {
  std::vector<std::string> out;
  for (int i = 0; i < r.rows(); ++i) out.push_back(r.text(i, 0));
  return out;
}

}  // namespace

pg_directory::pg_directory(std::string uri, match_reader& reader)
    : reader_(reader), uri_(std::move(uri)), liveness_(std::make_unique<pg_liveness>(uri_)) {
  conn_ = std::make_unique<pg::conn>(uri_, "cod-store-directory");
}

pg_directory::~pg_directory() = default;

result<std::optional<stored_match>> pg_directory::load_room_match(const std::string& room_id,
                                                                  std::int64_t finished_since_ms) {
  return load_room_match_through(*this, reader_, room_id, finished_since_ms);
}

template <class F>
auto pg_directory::guarded(const char* doing, F&& f) -> decltype(f(std::declval<pg::conn&>())) {
  return pg::locked_call(mu_, conn_, uri_, "cod-store-directory", doing, std::forward<F>(f));
}

result<bool> pg_directory::claim_room(const std::string& room_id, const std::string& node_id, std::int64_t lease_ms) {
  if (status st = check_lease(room_id, node_id, lease_ms); !st) return st;
  // Only while node_id holds its liveness lock: without it the other nodes
  // would see it dead and could take the room at once.
  if (status st = liveness_->hold(node_id, false); !st) return st;
  return guarded("claiming a room", [&](pg::conn& c) -> result<bool> {
    // One statement: a concurrent claim of the same room waits for this
    // one's row lock, then sees its lease live and takes nothing. A holder
    // without its liveness lock is dead: its lease is taken before it
    // expires (should it live after all, the fence refuses its writes).
    static const std::string sql = pg::with_now(cat(
        "WITH ", live_nodes_cte(),
        " INSERT INTO room_leases AS l (room_id, node_id, expires_ms) VALUES ($1, $2, NOW_MS + $3) "
        "ON CONFLICT (room_id) DO UPDATE SET node_id = EXCLUDED.node_id, expires_ms = EXCLUDED.expires_ms, "
        "wanted_by = NULL WHERE l.expires_ms <= NOW_MS OR l.node_id = EXCLUDED.node_id OR ",
        dead_node("l.node_id"), " RETURNING l.node_id"));
    return c.query(sql, pg::params().add(room_id).add(node_id).add(lease_ms)).rows() == 1;
  });
}

result<std::vector<std::string>> pg_directory::renew_leases(const std::string& node_id, std::int64_t lease_ms) {
  if (status st = check_lease("-", node_id, lease_ms); !st) return st;
  return guarded("renewing leases", [&](pg::conn& c) -> result<std::vector<std::string>> {
    // Rows locked in room order, as the writer's fence locks them
    // (pg_fence.hpp): the two never deadlock.
    static const std::string sql = pg::with_now(
        "UPDATE room_leases SET expires_ms = NOW_MS + $2 WHERE node_id = $1 AND room_id IN "
        "(SELECT room_id FROM room_leases WHERE node_id = $1 ORDER BY room_id FOR UPDATE) RETURNING room_id");
    auto held = column0(c.query(sql, pg::params().add(node_id).add(lease_ms)));
    std::sort(held.begin(), held.end());
    return held;
  });
}

status pg_directory::hold_liveness(const std::string& node_id) {
  if (status st = check_node(node_id); !st) return st;
  return liveness_->hold(node_id, true);
}

status pg_directory::release_room(const std::string& room_id, const std::string& node_id) {
  const result<bool> released = guarded("releasing a room", [&](pg::conn& c) -> result<bool> {
    return c.query("DELETE FROM room_leases WHERE room_id = $1 AND node_id = $2",
                   pg::params().add(room_id).add(node_id))
               .affected() == 1;
  });
  if (!released) return released.error();
  return *released ? status{} : not_held(room_id, node_id);
}

result<bool> pg_directory::request_room(const std::string& room_id, const std::string& node_id) {
  if (status st = check_request(room_id, node_id); !st) return st;
  return guarded("requesting a room", [&](pg::conn& c) -> result<bool> {
    // A single-row UPDATE: its row lock waits for a fenced batch of the
    // holder's that holds the row FOR SHARE (pg_fence.hpp) and, being the
    // statement's only lock, never deadlocks with one. node_id and
    // expires_ms stay, so the holder's writes still pass the fence until it
    // releases.
    static const std::string sql = pg::with_now(
        cat("WITH ", live_nodes_cte(),
            " UPDATE room_leases SET wanted_by = $2 WHERE room_id = $1 AND node_id <> $2 AND expires_ms > NOW_MS "
            "AND NOT (",
            dead_node("node_id"), ")"));
    return c.query(sql, pg::params().add(room_id).add(node_id)).affected() == 1;
  });
}

result<std::vector<std::string>> pg_directory::wanted_rooms(const std::string& node_id) {
  if (status st = check_node(node_id); !st) return st;
  return guarded("listing wanted rooms", [&](pg::conn& c) -> result<std::vector<std::string>> {
    return column0(c.query("SELECT room_id FROM room_leases WHERE node_id = $1 AND wanted_by IS NOT NULL "
                           "ORDER BY room_id",
                           pg::params().add(node_id)));
  });
}

result<bool> pg_directory::room_known(const std::string& room_id) {
  return guarded("looking a room up", [&](pg::conn& c) -> result<bool> {
    return !column0(c.query("SELECT room_id FROM room_leases WHERE room_id = $1 UNION ALL "
                            "SELECT room_id FROM matches WHERE room_id = $1 UNION ALL "
                            "SELECT tournament_id FROM tournaments WHERE tournament_id = $1 UNION ALL "
                            "SELECT league_id FROM leagues WHERE league_id = $1 LIMIT 1",
                            pg::params().add(room_id)))
                .empty();
  });
}

result<std::vector<std::string>> pg_directory::expired_rooms(std::size_t limit) {
  return guarded("listing expired rooms", [&](pg::conn& c) -> result<std::vector<std::string>> {
    static const std::string sql = pg::with_now(
        cat("WITH ", live_nodes_cte(),
            " SELECT DISTINCT m.room_id FROM matches m LEFT JOIN room_leases l ON l.room_id = m.room_id "
            "WHERE m.status = 'playing' AND (l.room_id IS NULL OR l.expires_ms <= NOW_MS OR ",
            dead_node("l.node_id"), ") ORDER BY m.room_id LIMIT $1"));
    return column0(c.query(sql, pg::params().add(static_cast<std::int64_t>(limit))));
  });
}

result<std::vector<std::string>> pg_directory::expired_events(std::size_t limit) {
  return guarded("listing expired tournaments and leagues", [&](pg::conn& c) -> result<std::vector<std::string>> {
    static const std::string sql = pg::with_now(
        cat("WITH ", live_nodes_cte(),
            " SELECT e.id FROM (SELECT tournament_id AS id FROM tournaments WHERE finished = 0 UNION ALL "
            "SELECT league_id FROM leagues WHERE finished = 0) e LEFT JOIN room_leases l ON l.room_id = e.id "
            "WHERE l.room_id IS NULL OR l.expires_ms <= NOW_MS OR ",
            dead_node("l.node_id"), " ORDER BY e.id LIMIT $1"));
    return column0(c.query(sql, pg::params().add(static_cast<std::int64_t>(limit))));
  });
}

result<std::optional<std::string>> pg_directory::room_match_id(const std::string& room_id,
                                                                std::int64_t finished_since_ms) {
  return guarded("finding a room's match", [&](pg::conn& c) -> result<std::optional<std::string>> {
    const auto ids = column0(c.query("SELECT match_id FROM matches WHERE room_id = $1 AND (status = 'playing' OR "
                                     "ended_ms >= $2) ORDER BY status = 'playing' DESC, created_ms DESC, "
                                     "match_id DESC LIMIT 1",
                                     pg::params().add(room_id).add(finished_since_ms)));
    if (ids.empty()) return std::optional<std::string>{};
    return std::optional<std::string>{ids[0]};
  });
}

status pg_directory::publish_rooms(const std::string& node_id, const std::vector<room_listing>& rooms) {
  if (status st = check_listings(node_id, rooms); !st) return st;
  const result<bool> done = guarded("publishing the lobby", [&](pg::conn& c) -> result<bool> {
    static const std::string node_sql = pg::with_now(
        "INSERT INTO lobby_nodes (node_id, published_ms) VALUES ($1, NOW_MS) "
        "ON CONFLICT (node_id) DO UPDATE SET published_ms = EXCLUDED.published_ms");
    std::vector<std::string> ids, summaries;
    for (const room_listing& r : rooms) {
      ids.push_back(r.room_id);
      summaries.push_back(r.summary_json);
    }
    c.exec("BEGIN");
    c.query(node_sql, pg::params().add(node_id));
    c.query("DELETE FROM lobby_rooms WHERE node_id = $1", pg::params().add(node_id));
    c.query("INSERT INTO lobby_rooms (node_id, room_id, summary_json) SELECT $1, r, s FROM unnest($2::text[], "
            "$3::text[]) AS u(r, s)",
            pg::params().add(node_id).add(pg::text_array(ids)).add(pg::text_array(summaries)));
    c.exec("COMMIT");
    return true;
  });
  return done.error();
}

result<std::size_t> pg_directory::forget_stale(std::int64_t stale_for_ms) {
  return guarded("forgetting stale leases and nodes", [&](pg::conn& c) -> result<std::size_t> {
    static const std::string leases_sql = pg::with_now(
        "DELETE FROM room_leases l WHERE l.expires_ms <= NOW_MS - $1 AND NOT EXISTS "
        "(SELECT 1 FROM matches m WHERE m.room_id = l.room_id AND m.status = 'playing') AND NOT EXISTS "
        "(SELECT 1 FROM tournaments t WHERE t.tournament_id = l.room_id AND t.finished = 0) AND NOT EXISTS "
        "(SELECT 1 FROM leagues g WHERE g.league_id = l.room_id AND g.finished = 0)");
    static const std::string rooms_sql = pg::with_now(
        "DELETE FROM lobby_rooms WHERE node_id IN (SELECT node_id FROM lobby_nodes WHERE published_ms <= NOW_MS - $1)");
    static const std::string nodes_sql = pg::with_now("DELETE FROM lobby_nodes WHERE published_ms <= NOW_MS - $1");
    const auto leases = c.query(leases_sql, pg::params().add(stale_for_ms)).affected();
    c.exec("BEGIN");
    c.query(rooms_sql, pg::params().add(stale_for_ms));
    const auto nodes = c.query(nodes_sql, pg::params().add(stale_for_ms)).affected();
    c.exec("COMMIT");
    return static_cast<std::size_t>(leases + nodes);
  });
}

result<std::vector<room_listing>> pg_directory::list_all_rooms(std::int64_t stale_after_ms) {
  return guarded("listing the lobby", [&](pg::conn& c) -> result<std::vector<room_listing>> {
    static const std::string sql = pg::with_now(
        "SELECT DISTINCT ON (r.room_id) r.room_id, r.summary_json, r.node_id, n.published_ms "
        "FROM lobby_rooms r JOIN lobby_nodes n ON n.node_id = r.node_id WHERE n.published_ms > NOW_MS - $1 "
        "ORDER BY r.room_id, n.published_ms DESC, r.node_id");
    const auto r = c.query(sql, pg::params().add(stale_after_ms));
    std::vector<room_listing> out;
    for (int i = 0; i < r.rows(); ++i) out.push_back({r.text(i, 0), r.text(i, 1), r.text(i, 2), r.int64(i, 3)});
    return out;
  });
}

}  // namespace cod::server::detail
