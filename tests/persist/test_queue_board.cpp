// The cluster queue's board (queue_board.hpp) on every store: tickets added
// once per account and pool, withdrawn only while waiting, the matcher's
// lease (one holder, expiry on the store's clock), a match all or nothing
// and fenced by the lease, each node's matched tickets, the last opponents,
// and the tickets of dead nodes. Leases that must not expire last a minute;
// those that must, 200 ms, polled for with a generous deadline.
#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "helpers.hpp"
#include "persist/queue_board.hpp"

using namespace cod::server;
using namespace cod::server::test;

namespace {

constexpr std::int64_t minute = 60'000;

queue_board& board_of(match_store& s) {
  queue_board* b = s.queue();
  REQUIRE(b != nullptr);
  return *b;
}

queue_ticket_row ticket(const std::string& node, std::int64_t account, const std::string& pool = "duel/p/rated") {
  queue_ticket_row t;
  t.node_id = node;
  t.account_id = account;
  t.pool = pool;
  t.rating = 1500.25 + static_cast<double>(account);
  t.address = "10.0.0." + std::to_string(account);
  t.name = "player" + std::to_string(account);
  t.seat_hash = std::string(64, 'a');
  t.deck = R"({"preconstructed":2})";
  if (account % 2 == 0) t.partner = "Friend" + std::to_string(account);
  return t;
}

std::int64_t add(queue_board& b, const queue_ticket_row& t) {
  auto r = b.add_ticket(t, minute);
  REQUIRE_MESSAGE(r, r.error().message());
  REQUIRE(r->has_value());
  return (*r)->ticket;
}

std::vector<std::int64_t> waiting_ids(queue_board& b, std::int64_t alive = minute) {
  auto r = b.waiting_tickets(alive, minute);
  REQUIRE_MESSAGE(r, r.error().message());
  std::vector<std::int64_t> ids;
  for (const auto& t : r->tickets) ids.push_back(t.ticket);
  return ids;
}

bool claim(queue_board& b, const std::string& node, std::int64_t lease_ms = minute) {
  auto r = b.claim_matcher(node, lease_ms);
  REQUIRE_MESSAGE(r, r.error().message());
  return *r;
}

bool seat(queue_board& b, const std::string& node, const std::string& room, std::vector<queue_seating> seats) {
  auto r = b.match_tickets(node, room, seats, R"(["Ada","Bob"])");
  REQUIRE_MESSAGE(r, r.error().message());
  return *r;
}

}  // namespace

TEST_CASE("store: queue tickets are added once per account and pool, read back whole, and withdrawn while waiting") {
  for_each_store([](match_store& s) {
    queue_board& b = board_of(s);
    REQUIRE(b.heartbeat("n1").is_ok());
    REQUIRE(b.heartbeat("n2").is_ok());
    const auto t1 = ticket("n1", 1);
    const std::int64_t id1 = add(b, t1);
    const std::int64_t id2 = add(b, ticket("n2", 2));
    const std::int64_t id1b = add(b, ticket("n1", 1, "ffa/p/rated"));  // another pool: allowed
    CHECK(id1 != id2);
    // The same account and pool again, from any node: refused, nothing changed.
    auto again = b.add_ticket(ticket("n2", 1), minute);
    REQUIRE(again);
    CHECK(!again->has_value());
    CHECK(waiting_ids(b) == std::vector<std::int64_t>{id1, id2, id1b});

    auto snap = b.waiting_tickets(minute, minute);
    REQUIRE(snap);
    CHECK(snap->now_ms > 0);
    const auto& back = snap->tickets.front();
    CHECK(back.node_id == "n1");
    CHECK(back.account_id == 1);
    CHECK(back.pool == t1.pool);
    CHECK(back.rating == t1.rating);  // exactly
    CHECK(back.address == t1.address);
    CHECK(back.name == t1.name);
    CHECK(back.seat_hash == t1.seat_hash);
    CHECK(back.deck == t1.deck);
    CHECK(snap->tickets[1].partner == "Friend2");  // read back too
    CHECK(back.enqueued_ms > 0);
    CHECK(back.enqueued_ms <= snap->now_ms);
    CHECK(back.room_id.empty());
    CHECK(back.last_opponents.empty());

    // Withdrawn only by its own node.
    auto w = b.withdraw_tickets("n2", {id1});
    REQUIRE(w);
    CHECK(w->empty());
    w = b.withdraw_tickets("n1", {id1, 999});
    REQUIRE(w);
    CHECK(*w == std::vector<std::int64_t>{id1});
    CHECK(waiting_ids(b) == std::vector<std::int64_t>{id2, id1b});
    // Withdrawn: the account may queue in that pool again.
    add(b, ticket("n1", 1));

    CHECK(b.add_ticket(ticket("", 3), minute).error().error_code() == status::code::invalid);
    CHECK(b.add_ticket(ticket("n1", 0), minute).error().error_code() == status::code::invalid);
    CHECK(b.add_ticket(ticket("n1", 3, ""), minute).error().error_code() == status::code::invalid);
  });
}

TEST_CASE("store: one node holds the matcher's lease; another takes it once it expires or is released") {
  for_each_store([](match_store& s) {
    queue_board& b = board_of(s);
    CHECK(claim(b, "n1"));
    CHECK(!claim(b, "n2"));
    CHECK(claim(b, "n1"));  // renewed
    REQUIRE(b.release_matcher("n2").is_ok());  // not n2's: nothing changes
    CHECK(!claim(b, "n2"));
    REQUIRE(b.release_matcher("n1").is_ok());
    CHECK(claim(b, "n2"));
    CHECK(!claim(b, "n1"));
    // An expiring lease passes to another node after it expires.
    REQUIRE(b.release_matcher("n2").is_ok());
    CHECK(claim(b, "n1", 200));
    CHECK(eventually([&] { return claim(b, "n2"); }));
    CHECK(!claim(b, "n1"));
    CHECK(b.claim_matcher("", minute).error().error_code() == status::code::invalid);
    CHECK(b.claim_matcher("n1", 0).error().error_code() == status::code::invalid);
  });
}

TEST_CASE("store: a queue match seats every ticket or none, only for the lease's holder; each node reads its own") {
  for_each_store([](match_store& s) {
    queue_board& b = board_of(s);
    REQUIRE(b.heartbeat("n1").is_ok());
    REQUIRE(b.heartbeat("n2").is_ok());
    const std::int64_t a = add(b, ticket("n1", 1));
    const std::int64_t c = add(b, ticket("n2", 2));
    const std::int64_t d = add(b, ticket("n2", 3));

    // No lease: nothing is seated.
    CHECK(!seat(b, "n1", "n1-r1", {{a, 0}, {c, 1}}));
    REQUIRE(claim(b, "n1"));
    // Not the holder: refused (the fence).
    CHECK(!seat(b, "n2", "n2-r1", {{a, 0}, {c, 1}}));
    // A ticket withdrawn meanwhile: none of the match is seated.
    REQUIRE(*b.withdraw_tickets("n2", {d}) == std::vector<std::int64_t>{d});
    CHECK(!seat(b, "n1", "n1-r1", {{a, 0}, {d, 1}}));
    CHECK(waiting_ids(b) == std::vector<std::int64_t>{a, c});

    const std::int64_t other_pool = add(b, ticket("n1", 1, "ffa/p/rated"));
    const std::int64_t bystander = add(b, ticket("n1", 4, "ffa/p/rated"));
    CHECK(seat(b, "n1", "n1-r1", {{a, 0}, {c, 1}}));
    // Account 1's search in another pool went with the match; 4's stays.
    CHECK(waiting_ids(b) == std::vector<std::int64_t>{bystander});
    CHECK(b.withdraw_tickets("n1", {other_pool})->empty());
    REQUIRE(*b.withdraw_tickets("n1", {bystander}) == std::vector<std::int64_t>{bystander});
    CHECK(!seat(b, "n1", "n1-r2", {{a, 0}, {c, 1}}));  // seated already

    auto mine = b.matched_tickets("n2");
    REQUIRE(mine);
    REQUIRE(mine->size() == 1);
    CHECK((*mine)[0].ticket == c);
    CHECK((*mine)[0].room_id == "n1-r1");
    CHECK((*mine)[0].seat == 1);
    CHECK((*mine)[0].seat_hash == std::string(64, 'a'));
    CHECK((*mine)[0].players == R"(["Ada","Bob"])");
    // Matched: withdrawing it changes nothing (its player is told), and the
    // account may queue in that pool again at once.
    CHECK(b.withdraw_tickets("n2", {c})->empty());
    add(b, ticket("n2", 2));
    // Told: forgotten, by its node only.
    CHECK(*b.forget_tickets("n1", {c}) == 0);
    CHECK(*b.forget_tickets("n2", {c}) == 1);
    CHECK(b.matched_tickets("n2")->empty());
    CHECK(b.matched_tickets("n1")->size() == 1);

    // The last opponents come back with the next tickets.
    auto snap = b.waiting_tickets(minute, minute);
    REQUIRE(snap);
    REQUIRE(snap->tickets.size() == 1);
    CHECK(snap->tickets[0].account_id == 2);
    CHECK(snap->tickets[0].last_opponents == std::vector<std::int64_t>{1});
    // ... unless older than the remembered time.
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    snap = b.waiting_tickets(minute, 1);
    REQUIRE(snap);
    CHECK(snap->tickets[0].last_opponents.empty());

    CHECK(b.match_tickets("n1", "", {{a, 0}}, "[]").error().error_code() == status::code::invalid);
    CHECK(b.match_tickets("n1", "r", {}, "[]").error().error_code() == status::code::invalid);
  });
}

TEST_CASE("store: the tickets of a node not alive are not matched, and are forgotten; a restarted node drops its own") {
  for_each_store([](match_store& s) {
    queue_board& b = board_of(s);
    REQUIRE(b.heartbeat("n1").is_ok());
    const std::int64_t a = add(b, ticket("n1", 1));
    const std::int64_t c = add(b, ticket("gone", 2));  // never said it is alive
    CHECK(waiting_ids(b) == std::vector<std::int64_t>{a});
    REQUIRE(b.heartbeat("gone").is_ok());
    CHECK(waiting_ids(b) == std::vector<std::int64_t>{a, c});
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    REQUIRE(b.heartbeat("n1").is_ok());
    CHECK(waiting_ids(b, 200) == std::vector<std::int64_t>{a});  // "gone" silent for 300 ms
    auto n = b.forget_stale_tickets(200, minute);
    REQUIRE(n);
    CHECK(*n == 1);
    REQUIRE(b.heartbeat("gone").is_ok());  // back: its old ticket is not
    CHECK(waiting_ids(b) == std::vector<std::int64_t>{a});

    // The player of a dead node's search comes back through another node:
    // the dead node's search is replaced (a live node's is not).
    const std::int64_t d = add(b, ticket("n1", 5));
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    REQUIRE(b.heartbeat("n2").is_ok());
    auto refused = b.add_ticket(ticket("n2", 1), minute);  // n1 is alive within a minute
    REQUIRE(refused);
    CHECK(!refused->has_value());
    auto replaced = b.add_ticket(ticket("n2", 5), 200);  // n1 silent for 300 ms
    REQUIRE(replaced);
    REQUIRE(replaced->has_value());
    CHECK(waiting_ids(b) == std::vector<std::int64_t>{a, (*replaced)->ticket});
    CHECK((*replaced)->ticket != d);

    REQUIRE(b.heartbeat("n1").is_ok());
    add(b, ticket("n1", 3));
    REQUIRE(b.drop_node_tickets("n1").is_ok());
    REQUIRE(b.drop_node_tickets("n2").is_ok());
    CHECK(waiting_ids(b).empty());
  });
}
