#include "persist/pg/pg_queue.hpp"

#include <algorithm>
#include <utility>

#include "common/strcat.hpp"
#include "persist/pg/pg_liveness.hpp"
#include "persist/pg/pg_util.hpp"
#include "persist/queue_board_args.hpp"

namespace cod::server::detail {

namespace {

constexpr const char* application = "cod-store-queue";


constexpr const char* ticket_columns =
    "t.ticket_id, t.node_id, t.account_id, t.pool, t.rating, t.address, t.name, t.seat_hash, t.deck_json, "
    "t.enqueued_ms, t.room_id, t.seat, t.players, t.partner";

// A row of ticket_columns, starting at column `first`.
queue_ticket_row row_of(const pg::result& r, int i, int first = 0) {
  auto c = [first](int k) { return first + k; };
  queue_ticket_row t;
  t.ticket = r.int64(i, c(0));
  t.node_id = r.text(i, c(1));
  t.account_id = r.int64(i, c(2));
  t.pool = r.text(i, c(3));
  t.rating = r.real(i, c(4));
  t.address = r.text(i, c(5));
  t.name = r.text(i, c(6));
  t.seat_hash = r.text(i, c(7));
  t.deck = r.text(i, c(8));
  t.enqueued_ms = r.int64(i, c(9));
  if (!r.is_null(i, c(10))) t.room_id = r.text(i, c(10));
  if (!r.is_null(i, c(11))) t.seat = static_cast<int>(r.int64(i, c(11)));
  if (!r.is_null(i, c(12))) t.players = r.text(i, c(12));
  t.partner = r.text(i, c(13));
  return t;
}

// A PostgreSQL bigint[] literal.
std::string id_array(const std::vector<std::int64_t>& ids) {
  std::string out = "{";
  for (std::size_t i = 0; i < ids.size(); ++i) out += (i ? "," : "") + std::to_string(ids[i]);
  return out + "}";
}

}  // namespace

pg_queue::pg_queue(std::string uri) : uri_(std::move(uri)) { conn_ = std::make_unique<pg::conn>(uri_, application); }

pg_queue::~pg_queue() = default;

template <class F>
auto pg_queue::guarded(const char* doing, F&& f) -> decltype(f(std::declval<pg::conn&>())) {
  return pg::locked_call(mu_, conn_, uri_, application, doing, std::forward<F>(f));
}

result<std::optional<queue_ticket_row>> pg_queue::add_ticket(queue_ticket_row t, std::int64_t alive_within_ms) {
  if (status st = check_ticket(t); !st) return st;
  return guarded("adding a queue ticket", [&](pg::conn& c) -> result<std::optional<queue_ticket_row>> {
    // The account's search on a dead node (its connection died with it)
    // goes first, in the same transaction.
    static const std::string dead_sql = pg::with_now(
        "DELETE FROM queue_tickets WHERE account_id = $1 AND pool = $2 AND room_id IS NULL AND node_id NOT IN "
        "(SELECT node_id FROM queue_nodes WHERE seen_ms >= NOW_MS - $3)");
    c.exec("BEGIN");
    c.query(dead_sql, pg::params().add(t.account_id).add(t.pool).add(alive_within_ms));
    static const std::string sql = pg::with_now(
        "INSERT INTO queue_tickets (node_id, account_id, pool, rating, address, name, seat_hash, deck_json, partner, "
        "enqueued_ms) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, NOW_MS) "
        "ON CONFLICT (account_id, pool) WHERE room_id IS NULL DO NOTHING RETURNING ticket_id, enqueued_ms");
    const auto r = c.query(sql, pg::params()
                                    .add(t.node_id)
                                    .add(t.account_id)
                                    .add(t.pool)
                                    .add(t.rating)
                                    .add(t.address)
                                    .add(t.name)
                                    .add(t.seat_hash)
                                    .add(t.deck)
                                    .add(t.partner));
    c.exec("COMMIT");
    if (r.rows() == 0) return std::optional<queue_ticket_row>{};
    t.ticket = r.int64(0, 0);
    t.enqueued_ms = r.int64(0, 1);
    t.last_opponents.clear();
    t.room_id.clear();
    t.seat = -1;
    return std::optional<queue_ticket_row>{std::move(t)};
  });
}

result<std::vector<std::int64_t>> pg_queue::withdraw_tickets(const std::string& node_id,
                                                             const std::vector<std::int64_t>& tickets) {
  return guarded("withdrawing queue tickets", [&](pg::conn& c) -> result<std::vector<std::int64_t>> {
    const auto r = c.query(
        "DELETE FROM queue_tickets WHERE ticket_id = ANY($1::bigint[]) AND node_id = $2 AND room_id IS NULL "
        "RETURNING ticket_id",
        pg::params().add(id_array(tickets)).add(node_id));
    std::vector<std::int64_t> gone;
    for (int i = 0; i < r.rows(); ++i) gone.push_back(r.int64(i, 0));
    std::sort(gone.begin(), gone.end());
    return gone;
  });
}

result<std::size_t> pg_queue::forget_tickets(const std::string& node_id, const std::vector<std::int64_t>& tickets) {
  return guarded("forgetting queue tickets", [&](pg::conn& c) -> result<std::size_t> {
    const auto r = c.query("DELETE FROM queue_tickets WHERE ticket_id = ANY($1::bigint[]) AND node_id = $2",
                           pg::params().add(id_array(tickets)).add(node_id));
    return static_cast<std::size_t>(r.affected());
  });
}

status pg_queue::drop_node_tickets(const std::string& node_id) {
  return guarded("dropping a node's queue tickets", [&](pg::conn& c) -> status {
    c.query("DELETE FROM queue_tickets WHERE node_id = $1", pg::params().add(node_id));
    return {};
  });
}

status pg_queue::heartbeat(const std::string& node_id) {
  if (node_id.empty()) return status::invalid("a heartbeat needs a node_id");
  return guarded("a queue heartbeat", [&](pg::conn& c) -> status {
    static const std::string sql = pg::with_now(
        "INSERT INTO queue_nodes (node_id, seen_ms) VALUES ($1, NOW_MS) "
        "ON CONFLICT (node_id) DO UPDATE SET seen_ms = EXCLUDED.seen_ms");
    c.query(sql, pg::params().add(node_id));
    return {};
  });
}

result<bool> pg_queue::claim_matcher(const std::string& node_id, std::int64_t lease_ms) {
  if (node_id.empty() || lease_ms <= 0) return status::invalid("a matcher lease needs a node_id and a length");
  return guarded("claiming the matcher", [&](pg::conn& c) -> result<bool> {
    // One statement: a concurrent claim waits for this one's row lock, then
    // sees the lease live and takes nothing. A holder without its liveness
    // lock (pg_liveness.hpp) is dead: a live node takes its lease before it
    // expires, so the queue is matched again within a heartbeat, as a dead
    // node's rooms move at once. Only a live claimer: two nodes cut off from
    // their locks would take it from each other at every heartbeat. Should
    // the old holder live after all, match_tickets' fence refuses it.
    static const std::string sql = pg::with_now(cat(
        "WITH ", live_nodes_cte(),
        " INSERT INTO queue_matcher AS m (singleton, node_id, expires_ms) VALUES (1, $1, NOW_MS + $2) "
        "ON CONFLICT (singleton) DO UPDATE SET node_id = EXCLUDED.node_id, expires_ms = EXCLUDED.expires_ms "
        "WHERE m.expires_ms <= NOW_MS OR m.node_id = EXCLUDED.node_id OR (",
        dead_node("m.node_id"), " AND NOT ", dead_node("EXCLUDED.node_id"), ") RETURNING m.node_id"));
    return c.query(sql, pg::params().add(node_id).add(lease_ms)).rows() == 1;
  });
}

status pg_queue::release_matcher(const std::string& node_id) {
  return guarded("releasing the matcher", [&](pg::conn& c) -> status {
    c.query("DELETE FROM queue_matcher WHERE node_id = $1", pg::params().add(node_id));
    return {};
  });
}

result<queue_snapshot> pg_queue::waiting_tickets(std::int64_t alive_within_ms, std::int64_t remember_ms) {
  return guarded("reading the queue", [&](pg::conn& c) -> result<queue_snapshot> {
    // One statement, one snapshot: "now" is the statement's start.
    static const std::string sql = std::string(
        "WITH now AS (SELECT (EXTRACT(EPOCH FROM clock_timestamp()) * 1000)::bigint AS ms) "
        "SELECT now.ms, ") + ticket_columns +
        ", (SELECT r.opponents FROM queue_recent r WHERE r.account_id = t.account_id AND r.at_ms >= now.ms - $2) "
        "FROM now LEFT JOIN (queue_tickets t JOIN queue_nodes n ON n.node_id = t.node_id AND t.room_id IS NULL) "
        "ON n.seen_ms >= now.ms - $1 ORDER BY t.ticket_id";
    const auto r = c.query(sql, pg::params().add(alive_within_ms).add(remember_ms));
    queue_snapshot out;
    for (int i = 0; i < r.rows(); ++i) {
      out.now_ms = r.int64(i, 0);
      if (r.is_null(i, 1)) continue;  // the one row of an empty queue
      queue_ticket_row t = row_of(r, i, 1);
      if (!r.is_null(i, 15)) t.last_opponents = split_accounts(r.text(i, 15));
      out.tickets.push_back(std::move(t));
    }
    return out;
  });
}

result<bool> pg_queue::match_tickets(const std::string& matcher_node, const std::string& room_id,
                                     const std::vector<queue_seating>& seats, const std::string& players) {
  if (status st = check_seating(matcher_node, room_id, seats); !st) return st;
  return guarded("seating a queue match", [&](pg::conn& c) -> result<bool> {
    c.exec("BEGIN");
    // The fence: the lease row is read FOR SHARE, so a claim by another node
    // (an UPDATE of that row) waits for this match to commit, and a match
    // after the lease passed finds it gone.
    static const std::string lease_sql =
        pg::with_now("SELECT 1 FROM queue_matcher WHERE node_id = $1 AND expires_ms > NOW_MS FOR SHARE");
    bool held = c.query(lease_sql, pg::params().add(matcher_node)).rows() == 1;
    std::vector<std::int64_t> accounts;
    for (std::size_t i = 0; held && i < seats.size(); ++i) {
      const auto r = c.query(
          "UPDATE queue_tickets SET room_id = $1, seat = $2, players = $4 WHERE ticket_id = $3 AND room_id IS NULL "
          "RETURNING account_id",
          pg::params().add(room_id).add(seats[i].seat).add(seats[i].ticket).add(players));
      if (r.rows() == 1) accounts.push_back(r.int64(0, 0));
      else held = false;
    }
    if (!held) {
      c.exec("ROLLBACK");
      return false;
    }
    static const std::string recent_sql = pg::with_now(
        "INSERT INTO queue_recent (account_id, opponents, at_ms) VALUES ($1, $2, NOW_MS) "
        "ON CONFLICT (account_id) DO UPDATE SET opponents = EXCLUDED.opponents, at_ms = EXCLUDED.at_ms");
    for (std::size_t i = 0; i < accounts.size(); ++i)
      c.query(recent_sql, pg::params().add(accounts[i]).add(join_accounts(others(accounts, i))));
    c.query("DELETE FROM queue_tickets WHERE account_id = ANY($1::bigint[]) AND room_id IS NULL",
            pg::params().add(id_array(accounts)));
    c.exec("COMMIT");
    return true;
  });
}

result<std::vector<queue_ticket_row>> pg_queue::matched_tickets(const std::string& node_id) {
  return guarded("reading matched queue tickets", [&](pg::conn& c) -> result<std::vector<queue_ticket_row>> {
    const auto r = c.query(std::string("SELECT ") + ticket_columns +
                               " FROM queue_tickets t WHERE t.node_id = $1 AND t.room_id IS NOT NULL "
                               "ORDER BY t.ticket_id",
                           pg::params().add(node_id));
    std::vector<queue_ticket_row> out;
    for (int i = 0; i < r.rows(); ++i) out.push_back(row_of(r, i));
    return out;
  });
}

result<std::size_t> pg_queue::forget_stale_tickets(std::int64_t stale_for_ms, std::int64_t remember_ms) {
  return guarded("forgetting stale queue tickets", [&](pg::conn& c) -> result<std::size_t> {
    static const std::string tickets_sql = pg::with_now(
        "DELETE FROM queue_tickets WHERE node_id NOT IN "
        "(SELECT node_id FROM queue_nodes WHERE seen_ms >= NOW_MS - $1)");
    static const std::string nodes_sql = pg::with_now("DELETE FROM queue_nodes WHERE seen_ms < NOW_MS - $1");
    static const std::string recent_sql = pg::with_now("DELETE FROM queue_recent WHERE at_ms < NOW_MS - $1");
    c.exec("BEGIN");
    const auto n = static_cast<std::size_t>(c.query(tickets_sql, pg::params().add(stale_for_ms)).affected());
    c.query(nodes_sql, pg::params().add(stale_for_ms));
    c.query(recent_sql, pg::params().add(remember_ms));
    c.exec("COMMIT");
    return n;
  });
}

}  // namespace cod::server::detail
