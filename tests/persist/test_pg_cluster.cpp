// Two nodes on one PostgreSQL (docs/cluster.md): claims racing for one room
// (exactly one node wins, every round), and the fence (pg_fence.hpp): a node
// that lost a room's lease cannot write its match any more, while the new
// owner can, and every write the old owner had acknowledged is in the log
// the new owner loads. Each node is a pg_store opened with its node_id.
#include <doctest/doctest.h>

#include <atomic>
#include <barrier>
#include <chrono>
#include <future>
#include <string>
#include <thread>
#include <vector>

#include "../tournament/helpers.hpp"
#include "helpers.hpp"
#include "persist/pg/pg_store.hpp"
#include "../shared/store_reads.hpp"

namespace cod::server::test {
namespace {

std::unique_ptr<pg_store> node(const std::string& uri, const std::string& node_id) {
  auto opened = pg_store::open({.uri = uri, .node_id = node_id});
  REQUIRE_MESSAGE(opened, opened.error().message());
  return std::move(*opened);
}

// A write's status, waited for.
template <class Write>
status wait_for(Write&& write) {
  auto p = std::make_shared<std::promise<status>>();
  auto f = p->get_future();
  write([p](const status& st) { p->set_value(st); });
  return f.get();
}

status append(match_store& s, const std::string& match_id, action_record a) {
  return wait_for([&](match_store::done_fn done) { s.append_action(match_id, a, std::move(done)); });
}

status create(match_store& s, const match_record& m) {
  return wait_for([&](match_store::done_fn done) { s.create_match(m, std::move(done)); });
}

// On the store's directory (match_store::directory()).
bool claim(match_store& s, const std::string& room, const std::string& node_id, std::int64_t lease_ms) {
  const result<bool> r = s.directory()->claim_room(room, node_id, lease_ms);
  REQUIRE_MESSAGE(r, r.error().message());
  return *r;
}

// Polls for up to 20 s: whether the claim succeeded (the other's lease expired).
bool claim_when_expired(match_store& d, const std::string& room, const std::string& node_id,
                        std::int64_t lease_ms) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (std::chrono::steady_clock::now() < deadline) {
    if (claim(d, room, node_id, lease_ms)) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return false;
}

// The seat says which node wrote an action: 0 for n1, 1 for n2.
action_record by(int seat, std::int64_t seq) {
  action_record a = sample_action(seq, seat);
  return a;
}

}  // namespace

TEST_CASE("pg_store: nodes racing to claim one room: exactly one wins each round; after expiry another can") {
  pg_test_db db(test_pg_uri());
  constexpr int nodes = 4;
  constexpr int rounds = 40;
  std::vector<std::unique_ptr<pg_store>> stores;
  for (int i = 0; i < nodes; ++i) stores.push_back(node(db.uri(), "n" + std::to_string(i + 1)));

  std::vector<std::vector<int>> won(rounds, std::vector<int>(nodes, 0));
  std::atomic<int> errors{0};
  std::barrier start(nodes);
  std::vector<std::thread> threads;
  for (int i = 0; i < nodes; ++i)
    threads.emplace_back([&, i] {
      for (int r = 0; r < rounds; ++r) {
        start.arrive_and_wait();  // all claim the same room at once
        const auto got =
            stores[i]->directory()->claim_room("race-" + std::to_string(r), "n" + std::to_string(i + 1), 60'000);
        if (!got) ++errors;
        else won[r][i] = *got ? 1 : 0;
      }
    });
  for (auto& t : threads) t.join();
  CHECK(errors == 0);
  pg_raw raw(db.uri());
  for (int r = 0; r < rounds; ++r) {
    int winners = 0, winner = -1;
    for (int i = 0; i < nodes; ++i)
      if (won[r][i]) {
        ++winners;
        winner = i;
      }
    CHECK_MESSAGE(winners == 1, "round " << r);
    if (winners == 1)
      CHECK(raw.one("SELECT node_id FROM room_leases WHERE room_id = 'race-" + std::to_string(r) + "'") ==
            "n" + std::to_string(winner + 1));
  }

  // A short lease: the others lose while it is live, then one of them gets it.
  REQUIRE(claim(*stores[0], "short", "n1", 200));
  CHECK(!claim(*stores[1], "short", "n2", 60'000));
  CHECK(claim_when_expired(*stores[1], "short", "n2", 60'000));
  CHECK(!claim(*stores[0], "short", "n1", 60'000));
  CHECK(raw.one("SELECT node_id FROM room_leases WHERE room_id = 'short'") == "n2");
}

TEST_CASE("pg_store: a node that lost a room's lease cannot write its match; the new owner can, from the stored log") {
  pg_test_db db(test_pg_uri());
  auto n1 = node(db.uri(), "n1");
  auto n2 = node(db.uri(), "n2");
  const match_record m = sample_record("m");  // room "room-m"

  // No lease, no write: a room must be claimed before its match is created.
  const status unclaimed = create(*n1, m);
  CHECK(unclaimed.error_code() == status::code::conflict);
  CHECK(unclaimed.message().find("lease") != std::string::npos);

  REQUIRE(claim(*n1, "room-m", "n1", 300));
  REQUIRE(create(*n1, m).is_ok());
  REQUIRE(append(*n1, "m", by(0, 1)).is_ok());
  REQUIRE(append(*n1, "m", by(0, 2)).is_ok());

  // n1 stops renewing (paused, partitioned): n2 takes the room over.
  REQUIRE(claim_when_expired(*n2, "room-m", "n2", 60'000));
  const status fenced = append(*n1, "m", by(0, 3));
  CHECK(fenced.error_code() == status::code::conflict);
  CHECK(fenced.message().find("room-m") != std::string::npos);
  const auto loaded = n2->directory()->load_room_match("room-m", room_directory::only_unfinished);
  REQUIRE(loaded);
  REQUIRE(loaded->has_value());
  CHECK((*loaded)->actions.size() == 2);
  CHECK(append(*n2, "m", by(1, 3)).is_ok());
  CHECK(append(*n2, "m", by(1, 4)).is_ok());
  CHECK(append(*n1, "m", by(0, 5)).error_code() == status::code::conflict);
  // Notes and the result are the room's writes too.
  CHECK(wait_for([&](auto done) { n1->finish_match("m", {{0}, "victory", 1}, std::move(done)); }).error_code() ==
        status::code::conflict);
  CHECK(!n1->directory()->renew_leases("n1", 60'000)->size());

  // Handed back: n1 claims it again and goes on from n2's seq (the state it
  // had is not trusted: it reads the log's end afresh).
  REQUIRE(n2->directory()->release_room("room-m", "n2").is_ok());
  REQUIRE(claim(*n1, "room-m", "n1", 60'000));
  CHECK(append(*n1, "m", by(0, 4)).error_code() == status::code::conflict);  // n2 stored seq 4
  CHECK(append(*n1, "m", by(0, 5)).is_ok());
  CHECK(append(*n2, "m", by(1, 6)).error_code() == status::code::conflict);

  const auto sm = read_ok(n1->reader().load_match("m"));
  REQUIRE(sm);
  REQUIRE(sm->actions.size() == 5);
  const std::vector<int> seats = {0, 0, 1, 1, 0};
  for (std::size_t i = 0; i < seats.size(); ++i) CHECK(sm->actions[i] == by(seats[i], static_cast<std::int64_t>(i + 1)));
  CHECK(n1->health().ok);  // refusals are not storage failures
  CHECK(n2->health().ok);
}

TEST_CASE("pg_store: a tournament's save is fenced by the tournament's own lease (docs/cluster.md, Tournaments)") {
  pg_test_db db(test_pg_uri());
  auto n1 = node(db.uri(), "n1");
  auto n2 = node(db.uri(), "n2");
  stored_tournament t{"n1-tcup", tournaments::test::make(4, tournaments::test::make_config(2)), {}, 1000};
  auto save = [&t](match_store& s) {
    return wait_for([&](match_store::done_fn done) { s.save_tournament(t, std::move(done)); });
  };
  const status unclaimed = save(*n1);
  CHECK(unclaimed.error_code() == status::code::conflict);
  CHECK(unclaimed.message().find("tournament n1-tcup") != std::string::npos);
  REQUIRE(claim(*n1, "n1-tcup", "n1", 300));
  CHECK(save(*n1).is_ok());
  // n1 stops renewing: n2 takes the tournament over; n1's next save is refused.
  REQUIRE(claim_when_expired(*n2, "n1-tcup", "n2", 60'000));
  CHECK(save(*n1).error_code() == status::code::conflict);
  t.extras.auto_advance = true;
  CHECK(save(*n2).is_ok());
  const auto back = read_tournaments(*n1);
  REQUIRE(back.size() == 1);
  CHECK(back[0].extras.auto_advance);
}

TEST_CASE("pg_store: a league's save is fenced by the league's own lease (docs/cluster.md, Tournaments and leagues)") {
  pg_test_db db(test_pg_uri());
  auto n1 = node(db.uri(), "n1");
  auto n2 = node(db.uri(), "n2");
  stored_league l{"n1-lfall", "Fall", 1000, false, R"({"ops":[]})"};
  auto save = [&l](match_store& s) {
    return wait_for([&](match_store::done_fn done) { s.save_league(l, std::move(done)); });
  };
  const status unclaimed = save(*n1);
  CHECK(unclaimed.error_code() == status::code::conflict);
  CHECK(unclaimed.message().find("league n1-lfall") != std::string::npos);
  REQUIRE(claim(*n1, "n1-lfall", "n1", 300));
  CHECK(save(*n1).is_ok());
  // n1 stops renewing: n2 takes the league over; n1's next save is refused.
  REQUIRE(claim_when_expired(*n2, "n1-lfall", "n2", 60'000));
  l.record_json = R"({"ops":["n1"]})";
  CHECK(save(*n1).error_code() == status::code::conflict);
  l.record_json = R"({"ops":["n2"]})";
  CHECK(save(*n2).is_ok());
  const auto back = n1->reader().load_leagues();
  REQUIRE_MESSAGE(back, back.error().message());
  REQUIRE(back->size() == 1);
  CHECK((*back)[0].record_json == R"({"ops":["n2"]})");
}

TEST_CASE("pg_store: takeovers in the middle of a node's appends: every acknowledged append is in the log loaded") {
  pg_test_db db(test_pg_uri());
  std::unique_ptr<pg_store> nodes[2] = {node(db.uri(), "n1"), node(db.uri(), "n2")};
  REQUIRE(claim(*nodes[0], "room-m", "n1", 300));
  REQUIRE(create(*nodes[0], sample_record("m")).is_ok());

  // Five takeovers, each way in turn: the owner appends as fast as its
  // acknowledgements come, without renewing, until it is fenced off; the
  // other claims as soon as the lease expires and loads the match. Without
  // the fence's lock an append checked before the claim could commit after
  // the load: acknowledged, yet missing from the log the new owner resumes.
  std::int64_t next_seq = 1;
  for (int round = 0; round < 5; ++round) {
    const int owner = round % 2, taker = 1 - owner;
    std::atomic<std::int64_t> last_acked{next_seq - 1};
    std::atomic<bool> stop{false};
    std::atomic<int> not_conflict{0};
    std::thread writer([&] {
      for (std::int64_t seq = next_seq; !stop; ++seq) {
        const status st = append(*nodes[owner], "m", by(owner, seq));
        if (!st) {
          if (st.error_code() != status::code::conflict) ++not_conflict;
          return;
        }
        last_acked = seq;
      }
    });
    // The owner's turn has begun (on a loaded machine its lease may be
    // over before its first append: that is no takeover in the middle).
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (last_acked < next_seq + 2 && std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    const bool taken = claim_when_expired(*nodes[taker], "room-m", taker ? "n2" : "n1", 300);
    const auto loaded = nodes[taker]->directory()->load_room_match("room-m", room_directory::only_unfinished);
    if (!taken) stop = true;
    writer.join();  // the owner's next append after the claim is fenced: it stops
    CHECK(not_conflict == 0);
    REQUIRE(taken);
    REQUIRE(loaded);
    REQUIRE(loaded->has_value());
    CHECK_MESSAGE(static_cast<std::int64_t>((*loaded)->actions.size()) == last_acked.load(),
                  "takeover " << round + 1 << ": " << last_acked - next_seq + 1 << " appends by the old owner");
    CHECK(last_acked >= next_seq + 2);  // the owner did write in its turn
    next_seq = last_acked + 1;
  }
  const auto sm = read_ok(nodes[0]->reader().load_match("m"));
  REQUIRE(sm);
  CHECK(static_cast<std::int64_t>(sm->actions.size()) == next_seq - 1);
}

}  // namespace cod::server::test
