#include "persist/sqlite/sqlite_queue.hpp"

#include <sqlite3.h>

#include <utility>

#include "persist/queue_board_args.hpp"
#include "persist/sqlite/sqlite_util.hpp"

namespace cod::server::detail {

namespace {

constexpr const char* ticket_columns =
    "t.ticket_id, t.node_id, t.account_id, t.pool, t.rating, t.address, t.name, t.seat_hash, t.deck_json, "
    "t.enqueued_ms, t.room_id, t.seat, t.players, t.partner";

queue_ticket_row row_of(const sql::stmt& s) {
  queue_ticket_row t;
  t.ticket = s.int64(0);
  t.node_id = s.text(1);
  t.account_id = s.int64(2);
  t.pool = s.text(3);
  t.rating = s.real(4);
  t.address = s.text(5);
  t.name = s.text(6);
  t.seat_hash = s.text(7);
  t.deck = s.text(8);
  t.enqueued_ms = s.int64(9);
  if (!s.is_null(10)) t.room_id = s.text(10);
  if (!s.is_null(11)) t.seat = static_cast<int>(s.int64(11));
  if (!s.is_null(12)) t.players = s.text(12);
  t.partner = s.text(13);
  return t;
}

}  // namespace

sqlite_queue::sqlite_queue(const std::string& path, int busy_timeout_ms)
    : db_(std::make_unique<sql::db>(path, sql::db::mode::read_write_create)) {
  sqlite3_busy_timeout(db_->handle(), busy_timeout_ms);
}

sqlite_queue::~sqlite_queue() = default;

template <class F>
auto sqlite_queue::guarded(const char* doing, F&& f) -> decltype(f()) {
  return sql::locked_call(mu_, *db_, doing, std::forward<F>(f));
}

result<std::optional<queue_ticket_row>> sqlite_queue::add_ticket(queue_ticket_row t, std::int64_t alive_within_ms) {
  if (status st = check_ticket(t); !st) return st;
  return guarded("adding a queue ticket", [&]() -> result<std::optional<queue_ticket_row>> {
    db_->exec("BEGIN IMMEDIATE");
    // The account's search on a dead node (its connection died with it).
    sql::stmt dead(*db_, sql::with_now("DELETE FROM queue_tickets WHERE account_id = ?1 AND pool = ?2 AND room_id IS NULL "
                                  "AND node_id NOT IN (SELECT node_id FROM queue_nodes WHERE seen_ms >= NOW_MS - ?3)"));
    dead.bind(1, t.account_id).bind(2, t.pool).bind(3, alive_within_ms);
    dead.run();
    sql::stmt s(*db_, sql::with_now("INSERT INTO queue_tickets (node_id, account_id, pool, rating, address, name, "
                               "seat_hash, deck_json, partner, enqueued_ms) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, NOW_MS) "
                               "ON CONFLICT (account_id, pool) WHERE room_id IS NULL DO NOTHING "
                               "RETURNING ticket_id, enqueued_ms"));
    s.bind(1, t.node_id).bind(2, t.account_id).bind(3, t.pool).bind(4, t.rating).bind(5, t.address);
    s.bind(6, t.name).bind(7, t.seat_hash).bind(8, t.deck).bind(9, t.partner);
    bool added = false;
    {
      sql::reset_guard g(s);
      added = s.step();
      if (added) {
        t.ticket = s.int64(0);
        t.enqueued_ms = s.int64(1);
      }
    }
    db_->exec("COMMIT");
    if (!added) return std::optional<queue_ticket_row>{};
    t.last_opponents.clear();
    t.room_id.clear();
    t.seat = -1;
    return std::optional<queue_ticket_row>{std::move(t)};
  });
}

result<std::vector<std::int64_t>> sqlite_queue::withdraw_tickets(const std::string& node_id,
                                                                 const std::vector<std::int64_t>& tickets) {
  return guarded("withdrawing queue tickets", [&]() -> result<std::vector<std::int64_t>> {
    std::vector<std::int64_t> gone;
    sql::stmt s(*db_, "DELETE FROM queue_tickets WHERE ticket_id = ?1 AND node_id = ?2 AND room_id IS NULL");
    for (std::int64_t id : tickets) {
      s.bind(1, id).bind(2, node_id);
      s.run();
      if (db_->changes() > 0) gone.push_back(id);
    }
    return gone;
  });
}

result<std::size_t> sqlite_queue::forget_tickets(const std::string& node_id, const std::vector<std::int64_t>& tickets) {
  return guarded("forgetting queue tickets", [&]() -> result<std::size_t> {
    std::size_t n = 0;
    sql::stmt s(*db_, "DELETE FROM queue_tickets WHERE ticket_id = ?1 AND node_id = ?2");
    for (std::int64_t id : tickets) {
      s.bind(1, id).bind(2, node_id);
      s.run();
      n += static_cast<std::size_t>(db_->changes());
    }
    return n;
  });
}

status sqlite_queue::drop_node_tickets(const std::string& node_id) {
  return guarded("dropping a node's queue tickets", [&]() -> status {
    sql::stmt s(*db_, "DELETE FROM queue_tickets WHERE node_id = ?1");
    s.bind(1, node_id);
    s.run();
    return {};
  });
}

status sqlite_queue::heartbeat(const std::string& node_id) {
  if (node_id.empty()) return status::invalid("a heartbeat needs a node_id");
  return guarded("a queue heartbeat", [&]() -> status {
    sql::stmt s(*db_, sql::with_now("INSERT INTO queue_nodes (node_id, seen_ms) VALUES (?1, NOW_MS) "
                               "ON CONFLICT (node_id) DO UPDATE SET seen_ms = excluded.seen_ms"));
    s.bind(1, node_id);
    s.run();
    return {};
  });
}

result<bool> sqlite_queue::claim_matcher(const std::string& node_id, std::int64_t lease_ms) {
  if (node_id.empty() || lease_ms <= 0) return status::invalid("a matcher lease needs a node_id and a length");
  return guarded("claiming the matcher", [&]() -> result<bool> {
    sql::stmt s(*db_, sql::with_now("INSERT INTO queue_matcher (singleton, node_id, expires_ms) VALUES (1, ?1, NOW_MS + ?2) "
                               "ON CONFLICT (singleton) DO UPDATE SET node_id = excluded.node_id, "
                               "expires_ms = excluded.expires_ms "
                               "WHERE queue_matcher.expires_ms <= NOW_MS OR queue_matcher.node_id = excluded.node_id "
                               "RETURNING node_id"));
    s.bind(1, node_id).bind(2, lease_ms);
    sql::reset_guard g(s);
    return s.step();
  });
}

status sqlite_queue::release_matcher(const std::string& node_id) {
  return guarded("releasing the matcher", [&]() -> status {
    sql::stmt s(*db_, "DELETE FROM queue_matcher WHERE node_id = ?1");
    s.bind(1, node_id);
    s.run();
    return {};
  });
}

result<queue_snapshot> sqlite_queue::waiting_tickets(std::int64_t alive_within_ms, std::int64_t remember_ms) {
  return guarded("reading the queue", [&]() -> result<queue_snapshot> {
    queue_snapshot out;
    db_->exec("BEGIN");
    {
      sql::stmt now(*db_, sql::with_now("SELECT NOW_MS"));
      sql::reset_guard g(now);
      now.step();
      out.now_ms = now.int64(0);
    }
    sql::stmt s(*db_, std::string("SELECT ") + ticket_columns +
                          ", (SELECT opponents FROM queue_recent r WHERE r.account_id = t.account_id AND r.at_ms >= ?2) "
                          "FROM queue_tickets t JOIN queue_nodes n ON n.node_id = t.node_id "
                          "WHERE t.room_id IS NULL AND n.seen_ms >= ?1 ORDER BY t.ticket_id");
    s.bind(1, out.now_ms - alive_within_ms).bind(2, out.now_ms - remember_ms);
    {
      sql::reset_guard g(s);
      while (s.step()) {
        out.tickets.push_back(row_of(s));
        if (!s.is_null(14)) out.tickets.back().last_opponents = split_accounts(s.text(14));
      }
    }
    db_->exec("COMMIT");
    return out;
  });
}

result<bool> sqlite_queue::match_tickets(const std::string& matcher_node, const std::string& room_id,
                                         const std::vector<queue_seating>& seats, const std::string& players) {
  if (status st = check_seating(matcher_node, room_id, seats); !st) return st;
  return guarded("seating a queue match", [&]() -> result<bool> {
    db_->exec("BEGIN IMMEDIATE");
    sql::stmt lease(*db_, sql::with_now("SELECT 1 FROM queue_matcher WHERE node_id = ?1 AND expires_ms > NOW_MS"));
    lease.bind(1, matcher_node);
    bool held = false;
    {
      sql::reset_guard g(lease);
      held = lease.step();
    }
    std::vector<std::int64_t> accounts;
    sql::stmt seat(*db_, "UPDATE queue_tickets SET room_id = ?1, seat = ?2, players = ?4 WHERE ticket_id = ?3 "
                         "AND room_id IS NULL "
                         "RETURNING account_id");
    for (std::size_t i = 0; held && i < seats.size(); ++i) {
      seat.bind(1, room_id).bind(2, seats[i].seat).bind(3, seats[i].ticket).bind(4, players);
      sql::reset_guard g(seat);
      if (seat.step()) accounts.push_back(seat.int64(0));
      else held = false;
    }
    if (!held) {
      db_->exec("ROLLBACK");
      return false;
    }
    sql::stmt recent(*db_, sql::with_now("INSERT INTO queue_recent (account_id, opponents, at_ms) VALUES (?1, ?2, NOW_MS) "
                                    "ON CONFLICT (account_id) DO UPDATE SET opponents = excluded.opponents, "
                                    "at_ms = excluded.at_ms"));
    sql::stmt others_gone(*db_, "DELETE FROM queue_tickets WHERE account_id = ?1 AND room_id IS NULL");
    for (std::size_t i = 0; i < accounts.size(); ++i) {
      recent.bind(1, accounts[i]).bind(2, join_accounts(others(accounts, i)));
      recent.run();
      others_gone.bind(1, accounts[i]);
      others_gone.run();
    }
    db_->exec("COMMIT");
    return true;
  });
}

result<std::vector<queue_ticket_row>> sqlite_queue::matched_tickets(const std::string& node_id) {
  return guarded("reading matched queue tickets", [&]() -> result<std::vector<queue_ticket_row>> {
    sql::stmt s(*db_, std::string("SELECT ") + ticket_columns +
                          " FROM queue_tickets t WHERE t.node_id = ?1 AND t.room_id IS NOT NULL ORDER BY t.ticket_id");
    s.bind(1, node_id);
    std::vector<queue_ticket_row> out;
    sql::reset_guard g(s);
    while (s.step()) out.push_back(row_of(s));
    return out;
  });
}

result<std::size_t> sqlite_queue::forget_stale_tickets(std::int64_t stale_for_ms, std::int64_t remember_ms) {
  return guarded("forgetting stale queue tickets", [&]() -> result<std::size_t> {
    db_->exec("BEGIN IMMEDIATE");
    sql::stmt t(*db_, sql::with_now("DELETE FROM queue_tickets WHERE node_id NOT IN "
                               "(SELECT node_id FROM queue_nodes WHERE seen_ms >= NOW_MS - ?1)"));
    t.bind(1, stale_for_ms);
    t.run();
    const auto n = static_cast<std::size_t>(db_->changes());
    sql::stmt nodes(*db_, sql::with_now("DELETE FROM queue_nodes WHERE seen_ms < NOW_MS - ?1"));
    nodes.bind(1, stale_for_ms);
    nodes.run();
    sql::stmt recent(*db_, sql::with_now("DELETE FROM queue_recent WHERE at_ms < NOW_MS - ?1"));
    recent.bind(1, remember_ms);
    recent.run();
    db_->exec("COMMIT");
    return n;
  });
}

}  // namespace cod::server::detail
