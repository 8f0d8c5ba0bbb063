#include "persist/sqlite/sqlite_directory.hpp"

#include <sqlite3.h>

#include <utility>

#include "persist/directory_args.hpp"
#include "persist/sqlite/sqlite_util.hpp"

namespace cod::server::detail {

namespace {

std::vector<std::string> column0(sql::stmt& s) {
  std::vector<std::string> out;
  sql::reset_guard g(s);
  while (s.step()) out.push_back(s.text(0));
  return out;
}

}  // namespace

sqlite_directory::sqlite_directory(const std::string& path, int busy_timeout_ms, match_reader& reader)
    : reader_(reader), db_(std::make_unique<sql::db>(path, sql::db::mode::read_write_create)) {
  db_->exec("PRAGMA foreign_keys = ON");
  sqlite3_busy_timeout(db_->handle(), busy_timeout_ms);
}

sqlite_directory::~sqlite_directory() = default;

result<std::optional<stored_match>> sqlite_directory::load_room_match(const std::string& room_id,
                                                                      std::int64_t finished_since_ms) {
  return load_room_match_through(*this, reader_, room_id, finished_since_ms);
}

template <class F>
auto sqlite_directory::guarded(const char* doing, F&& f) -> decltype(f()) {
  return sql::locked_call(mu_, *db_, doing, std::forward<F>(f));
}

result<bool> sqlite_directory::claim_room(const std::string& room_id, const std::string& node_id,
                                          std::int64_t lease_ms) {
  if (status st = check_lease(room_id, node_id, lease_ms); !st) return st;
  return guarded("claiming a room", [&]() -> result<bool> {
    sql::stmt s(*db_, sql::with_now("INSERT INTO room_leases (room_id, node_id, expires_ms) VALUES (?1, ?2, NOW_MS + ?3) "
                               "ON CONFLICT (room_id) DO UPDATE SET node_id = excluded.node_id, "
                               "expires_ms = excluded.expires_ms, wanted_by = NULL "
                               "WHERE room_leases.expires_ms <= NOW_MS OR room_leases.node_id = excluded.node_id "
                               "RETURNING node_id"));
    s.bind(1, room_id).bind(2, node_id).bind(3, lease_ms);
    return !column0(s).empty();
  });
}

result<std::vector<std::string>> sqlite_directory::renew_leases(const std::string& node_id, std::int64_t lease_ms) {
  if (status st = check_lease("-", node_id, lease_ms); !st) return st;
  return guarded("renewing leases", [&]() -> result<std::vector<std::string>> {
    db_->exec("BEGIN IMMEDIATE");
    sql::stmt up(*db_, sql::with_now("UPDATE room_leases SET expires_ms = NOW_MS + ?2 WHERE node_id = ?1"));
    up.bind(1, node_id).bind(2, lease_ms);
    up.run();
    sql::stmt held(*db_, "SELECT room_id FROM room_leases WHERE node_id = ?1 ORDER BY room_id");
    held.bind(1, node_id);
    auto out = column0(held);
    db_->exec("COMMIT");
    return out;
  });
}

// One node (the owner lock): nothing to hold, and no holder is ever dead.
status sqlite_directory::hold_liveness(const std::string& node_id) { return check_node(node_id); }

status sqlite_directory::release_room(const std::string& room_id, const std::string& node_id) {
  const result<bool> released = guarded("releasing a room", [&]() -> result<bool> {
    sql::stmt s(*db_, "DELETE FROM room_leases WHERE room_id = ?1 AND node_id = ?2");
    s.bind(1, room_id).bind(2, node_id);
    s.run();
    return db_->changes() == 1;
  });
  if (!released) return released.error();
  return *released ? status{} : not_held(room_id, node_id);
}

result<bool> sqlite_directory::request_room(const std::string& room_id, const std::string& node_id) {
  if (status st = check_request(room_id, node_id); !st) return st;
  return guarded("requesting a room", [&]() -> result<bool> {
    sql::stmt s(*db_, sql::with_now("UPDATE room_leases SET wanted_by = ?2 "
                               "WHERE room_id = ?1 AND node_id <> ?2 AND expires_ms > NOW_MS"));
    s.bind(1, room_id).bind(2, node_id);
    s.run();
    return db_->changes() == 1;
  });
}

result<std::vector<std::string>> sqlite_directory::wanted_rooms(const std::string& node_id) {
  if (status st = check_node(node_id); !st) return st;
  return guarded("listing wanted rooms", [&]() -> result<std::vector<std::string>> {
    sql::stmt s(*db_,
                "SELECT room_id FROM room_leases WHERE node_id = ?1 AND wanted_by IS NOT NULL ORDER BY room_id");
    s.bind(1, node_id);
    return column0(s);
  });
}

result<bool> sqlite_directory::room_known(const std::string& room_id) {
  return guarded("looking a room up", [&]() -> result<bool> {
    sql::stmt s(*db_, "SELECT room_id FROM room_leases WHERE room_id = ?1 UNION ALL "
                      "SELECT room_id FROM matches WHERE room_id = ?1 UNION ALL "
                      "SELECT tournament_id FROM tournaments WHERE tournament_id = ?1 UNION ALL "
                      "SELECT league_id FROM leagues WHERE league_id = ?1 LIMIT 1");
    s.bind(1, room_id);
    return !column0(s).empty();
  });
}

result<std::vector<std::string>> sqlite_directory::expired_rooms(std::size_t limit) {
  return guarded("listing expired rooms", [&]() -> result<std::vector<std::string>> {
    sql::stmt s(*db_, sql::with_now("SELECT DISTINCT m.room_id FROM matches m LEFT JOIN room_leases l ON l.room_id = m.room_id "
                               "WHERE m.status = 'playing' AND (l.room_id IS NULL OR l.expires_ms <= NOW_MS) "
                               "ORDER BY m.room_id LIMIT ?1"));
    s.bind(1, static_cast<std::int64_t>(limit));
    return column0(s);
  });
}

result<std::vector<std::string>> sqlite_directory::expired_events(std::size_t limit) {
  return guarded("listing expired tournaments and leagues", [&]() -> result<std::vector<std::string>> {
    sql::stmt s(*db_, sql::with_now("SELECT e.id FROM (SELECT tournament_id AS id FROM tournaments WHERE finished = 0 "
                                    "UNION ALL SELECT league_id FROM leagues WHERE finished = 0) e LEFT JOIN "
                                    "room_leases l ON l.room_id = e.id WHERE l.room_id IS NULL OR "
                                    "l.expires_ms <= NOW_MS ORDER BY e.id LIMIT ?1"));
    s.bind(1, static_cast<std::int64_t>(limit));
    return column0(s);
  });
}

result<std::optional<std::string>> sqlite_directory::room_match_id(const std::string& room_id,
                                                                    std::int64_t finished_since_ms) {
  return guarded("finding a room's match", [&]() -> result<std::optional<std::string>> {
    sql::stmt s(*db_, "SELECT match_id FROM matches WHERE room_id = ?1 AND (status = 'playing' OR ended_ms >= ?2) "
                      "ORDER BY status = 'playing' DESC, created_ms DESC, match_id DESC LIMIT 1");
    s.bind(1, room_id);
    s.bind(2, finished_since_ms);
    auto ids = column0(s);
    if (ids.empty()) return std::optional<std::string>{};
    return std::optional<std::string>{ids[0]};
  });
}

status sqlite_directory::publish_rooms(const std::string& node_id, const std::vector<room_listing>& rooms) {
  if (status st = check_listings(node_id, rooms); !st) return st;
  const result<bool> done = guarded("publishing the lobby", [&]() -> result<bool> {
    db_->exec("BEGIN IMMEDIATE");
    sql::stmt node(*db_, sql::with_now("INSERT INTO lobby_nodes (node_id, published_ms) VALUES (?1, NOW_MS) "
                                  "ON CONFLICT (node_id) DO UPDATE SET published_ms = excluded.published_ms"));
    node.bind(1, node_id);
    node.run();
    sql::stmt del(*db_, "DELETE FROM lobby_rooms WHERE node_id = ?1");
    del.bind(1, node_id);
    del.run();
    sql::stmt ins(*db_, "INSERT INTO lobby_rooms (node_id, room_id, summary_json) VALUES (?1, ?2, ?3)");
    for (const room_listing& r : rooms) {
      ins.bind(1, node_id).bind(2, r.room_id).bind(3, r.summary_json);
      ins.run();
    }
    db_->exec("COMMIT");
    return true;
  });
  return done.error();
}

result<std::size_t> sqlite_directory::forget_stale(std::int64_t stale_for_ms) {
  return guarded("forgetting stale leases and nodes", [&]() -> result<std::size_t> {
    db_->exec("BEGIN IMMEDIATE");
    sql::stmt leases(*db_, sql::with_now("DELETE FROM room_leases WHERE expires_ms <= NOW_MS - ?1 AND NOT EXISTS "
                                    "(SELECT 1 FROM matches m WHERE m.room_id = room_leases.room_id AND "
                                    "m.status = 'playing') AND NOT EXISTS (SELECT 1 FROM tournaments t WHERE "
                                    "t.tournament_id = room_leases.room_id AND t.finished = 0) AND NOT EXISTS "
                                    "(SELECT 1 FROM leagues g WHERE g.league_id = room_leases.room_id AND "
                                    "g.finished = 0)"));
    leases.bind(1, stale_for_ms);
    leases.run();
    const std::int64_t gone = db_->changes();
    sql::stmt rooms(*db_, sql::with_now("DELETE FROM lobby_rooms WHERE node_id IN "
                                   "(SELECT node_id FROM lobby_nodes WHERE published_ms <= NOW_MS - ?1)"));
    rooms.bind(1, stale_for_ms);
    rooms.run();
    sql::stmt nodes(*db_, sql::with_now("DELETE FROM lobby_nodes WHERE published_ms <= NOW_MS - ?1"));
    nodes.bind(1, stale_for_ms);
    nodes.run();
    const std::int64_t nodes_gone = db_->changes();
    db_->exec("COMMIT");
    return static_cast<std::size_t>(gone + nodes_gone);
  });
}

result<std::vector<room_listing>> sqlite_directory::list_all_rooms(std::int64_t stale_after_ms) {
  return guarded("listing the lobby", [&]() -> result<std::vector<room_listing>> {
    // SQLite gives a bare column the values of the row MAX() picked: the
    // newest publish of a room listed twice.
    sql::stmt s(*db_, sql::with_now("SELECT r.room_id, r.summary_json, r.node_id, MAX(n.published_ms) "
                               "FROM lobby_rooms r JOIN lobby_nodes n ON n.node_id = r.node_id "
                               "WHERE n.published_ms > NOW_MS - ?1 GROUP BY r.room_id ORDER BY r.room_id"));
    s.bind(1, stale_after_ms);
    std::vector<room_listing> out;
    sql::reset_guard g(s);
    while (s.step()) out.push_back({s.text(0), s.text(1), s.text(2), s.int64(3)});
    return out;
  });
}

}  // namespace cod::server::detail
