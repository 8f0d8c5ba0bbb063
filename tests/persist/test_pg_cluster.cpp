// Nodes on one PostgreSQL (docs/cluster.md): claims racing for one room
// (exactly one node wins, every round). Each node is a pg_store of its own.
#include <doctest/doctest.h>

#include <atomic>
#include <barrier>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "helpers.hpp"
#include "persist/pg_store.hpp"

namespace cod::server::test {
namespace {

std::unique_ptr<pg_store> node(const std::string& uri, const std::string& node_id) {
  (void)node_id;
  auto opened = pg_store::open({.uri = uri});
  REQUIRE_MESSAGE(opened, opened.error().message());
  return std::move(*opened);
}

bool claim(room_directory& d, const std::string& room, const std::string& node_id, std::int64_t lease_ms) {
  const result<bool> r = d.claim_room(room, node_id, lease_ms);
  REQUIRE_MESSAGE(r, r.error().message());
  return *r;
}

// Polls for up to 20 s: whether the claim succeeded (the other's lease expired).
bool claim_when_expired(room_directory& d, const std::string& room, const std::string& node_id,
                        std::int64_t lease_ms) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (std::chrono::steady_clock::now() < deadline) {
    if (claim(d, room, node_id, lease_ms)) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return false;
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
        const auto got = stores[i]->claim_room("race-" + std::to_string(r), "n" + std::to_string(i + 1), 60'000);
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

}  // namespace cod::server::test
