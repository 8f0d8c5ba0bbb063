// The liveness locks of cluster nodes (pg_liveness.hpp, docs/cluster.md, "A
// dead node's rooms at once"): a live holder keeps its live lease; once its
// liveness session ends (its process died), its leases are claimed at once,
// listed by the sweepers' reads, never asked for; and a node without its
// lock claims nothing. Leases here last a minute: anything claimed sooner
// was claimed through the lock, not through expiry.
#include <doctest/doctest.h>

#include <algorithm>
#include <functional>
#include <future>
#include <memory>
#include <string>
#include <vector>

#include "../tournament/helpers.hpp"
#include "common/strcat.hpp"
#include "helpers.hpp"
#include "persist/pg/pg_liveness.hpp"
#include "persist/pg/pg_store.hpp"

namespace cod::server::test {
namespace {

constexpr std::int64_t minute = 60'000;

std::unique_ptr<pg_store> node(const std::string& uri, const std::string& node_id) {
  auto opened = pg_store::open({.uri = uri, .node_id = node_id});
  REQUIRE_MESSAGE(opened, opened.error().message());
  return std::move(*opened);
}

room_directory& dir(pg_store& s) { return *s.directory(); }

bool claim(pg_store& s, const std::string& room, const std::string& node_id) {
  const result<bool> r = dir(s).claim_room(room, node_id, minute);
  REQUIRE_MESSAGE(r, r.error().message());
  return *r;
}

status wait_for(const std::function<void(match_store::done_fn)>& write) {
  auto p = std::make_shared<std::promise<status>>();
  auto f = p->get_future();
  write([p](const status& st) { p->set_value(st); });
  return f.get();
}

// Ends the session that holds node_id's liveness lock on `db`, as the death
// of the node's process does; returns once that session is gone.
void end_liveness_session(const pg_test_db& db, const std::string& node_id) {
  pg_raw admin(db.server());
  const std::string sql = detail::cat(
      "SELECT bool_and(pg_terminate_backend(pid, 5000)) FROM pg_locks WHERE locktype = 'advisory' AND classid = ",
      detail::liveness_lock_class, " AND objid = hashtext('", node_id,
      "')::oid AND objsubid = 2 AND granted AND database = (SELECT oid FROM pg_database WHERE datname = '", db.name(),
      "')");
  REQUIRE(admin.one(sql) == "t");
}

bool contains(const std::vector<std::string>& v, const std::string& x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

}  // namespace

TEST_CASE("pg_store: liveness: a live holder keeps its lease; once its session ends the lease is claimed at once, "
          "swept, not asked for, and the old holder's writes are fenced") {
  pg_test_db db(test_pg_uri());
  auto n1 = node(db.uri(), "n1");
  auto n2 = node(db.uri(), "n2");
  REQUIRE(claim(*n1, "room-m", "n1"));
  REQUIRE(wait_for([&](auto done) { n1->create_match(sample_record("m"), std::move(done)); }).is_ok());
  REQUIRE(claim(*n1, "n1-tcup", "n1"));
  stored_tournament t{"n1-tcup", tournaments::test::make(4, tournaments::test::make_config(2)), {}, 1000};
  REQUIRE(wait_for([&](auto done) { n1->save_tournament(t, std::move(done)); }).is_ok());

  // Alive: its live leases are its own, exactly as without liveness locks.
  CHECK(!claim(*n2, "room-m", "n2"));
  CHECK(!contains(dir(*n2).expired_rooms(100).value(), "room-m"));
  CHECK(dir(*n2).expired_events(10).value().empty());
  CHECK(dir(*n2).request_room("room-m", "n2").value());  // a live holder is asked

  end_liveness_session(db, "n1");
  // Dead (its lease has most of a minute to go): listed for the sweepers,
  // nothing to ask, claimed directly.
  CHECK(contains(dir(*n2).expired_rooms(100).value(), "room-m"));
  CHECK(dir(*n2).expired_events(10).value() == std::vector<std::string>{"n1-tcup"});
  CHECK(!dir(*n2).request_room("room-m", "n2").value());
  CHECK(claim(*n2, "room-m", "n2"));
  CHECK(!contains(dir(*n2).expired_rooms(100).value(), "room-m"));  // n2 is alive

  // n1's process was alive after all (only its liveness connection went):
  // the fence refuses its writes of the room it lost.
  const status fenced = wait_for([&](auto done) { n1->append_action("m", sample_action(1), std::move(done)); });
  CHECK(fenced.error_code() == status::code::conflict);
  CHECK(!contains(dir(*n1).renew_leases("n1", minute).value(), "room-m"));
  // It takes its lock again on a new connection: alive again, its other
  // live lease is its own again.
  CHECK(dir(*n1).hold_liveness("n1").is_ok());
  CHECK(dir(*n2).expired_events(10).value().empty());
  CHECK(!claim(*n2, "n1-tcup", "n2"));
}

TEST_CASE("pg_store: liveness: a node whose store closes (its process ends) loses its live leases at once") {
  pg_test_db db(test_pg_uri());
  auto n1 = node(db.uri(), "n1");
  auto n2 = node(db.uri(), "n2");
  REQUIRE(claim(*n1, "r", "n1"));
  CHECK(!claim(*n2, "r", "n2"));
  n1.reset();  // its connections close, the liveness lock with its session
  // Polled only because the server ends the session just after the client
  // hangs up; well within the minute's lease.
  CHECK(eventually([&] { return claim(*n2, "r", "n2"); }));
}

TEST_CASE("pg_store: liveness: a second process with the same node_id claims nothing until the first is gone") {
  pg_test_db db(test_pg_uri());
  auto first = node(db.uri(), "n1");
  REQUIRE(dir(*first).hold_liveness("n1").is_ok());
  REQUIRE(claim(*first, "r", "n1"));
  auto second = node(db.uri(), "n1");
  const status refused = dir(*second).hold_liveness("n1");
  CHECK(refused.error_code() == status::code::conflict);
  CHECK(refused.message().find("another process runs with node_id n1") != std::string::npos);
  const auto claimed = dir(*second).claim_room("s", "n1", minute);
  REQUIRE(!claimed);
  CHECK(claimed.error().error_code() == status::code::conflict);
  first.reset();
  CHECK(eventually([&] { return dir(*second).hold_liveness("n1").is_ok(); }));
  CHECK(claim(*second, "s", "n1"));
  CHECK(claim(*second, "r", "n1"));  // its own room (the same node id)
}

TEST_CASE("pg_store: liveness: the queue's matcher lease of a dead node passes at once to a live node, never to a "
          "lockless one, and the old holder's matches are fenced") {
  pg_test_db db(test_pg_uri());
  auto n1 = node(db.uri(), "n1");
  auto n2 = node(db.uri(), "n2");
  auto n3 = node(db.uri(), "n3");
  REQUIRE(dir(*n1).hold_liveness("n1").is_ok());
  REQUIRE(dir(*n2).hold_liveness("n2").is_ok());
  auto claim_matcher = [](pg_store& s, const std::string& node_id) {
    const result<bool> r = s.queue()->claim_matcher(node_id, minute);
    REQUIRE_MESSAGE(r, r.error().message());
    return *r;
  };
  REQUIRE(claim_matcher(*n1, "n1"));
  CHECK(!claim_matcher(*n2, "n2"));  // a live holder keeps it

  end_liveness_session(db, "n1");
  CHECK(!claim_matcher(*n3, "n3"));  // n3 holds no lock: it waits for the minute
  CHECK(claim_matcher(*n2, "n2"));   // n2 is alive: at once
  CHECK(!claim_matcher(*n3, "n3"));
  // n1 lived after all: its lease is gone, and so is its right to seat a match.
  queue_ticket_row t;
  t.node_id = "n1";
  t.account_id = 7;
  t.pool = "duel/p/rated";
  t.rating = 1500;
  t.name = "Ada";
  t.seat_hash = std::string(64, 'a');
  t.deck = R"({"preconstructed":1})";
  const auto added = n1->queue()->add_ticket(t, minute);
  REQUIRE_MESSAGE(added, added.error().message());
  REQUIRE(added->has_value());
  const auto seated = n1->queue()->match_tickets("n1", "n1-q1", {{(*added)->ticket, 0}}, R"(["Ada"])");
  REQUIRE_MESSAGE(seated, seated.error().message());
  CHECK(!*seated);
  CHECK(!claim_matcher(*n1, "n1"));  // n1 has no lock either (nor would it take n2's live lease)
}

}  // namespace cod::server::test
