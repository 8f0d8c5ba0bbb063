// The queue of a cluster (cluster_queue, docs/queue.md "In a cluster"): two
// nodes (two harnesses, their own rooms, one store) share one queue in the
// store. Players on different nodes meet; the one whose room runs on the
// other node is told where (matched.connect) and takes its seat there with
// resume; a search made before the matching node dies is matched by the
// node that takes the matcher's lease over. The tests drive each node's
// rounds (step()) themselves, on the store's real clock, with short waves
// and leases.
#include <doctest/doctest.h>

#include <chrono>
#include <map>
#include <thread>

#include "queue_service/cluster_queue.hpp"
#include "room_harness.hpp"
#include "../shared/store_reads.hpp"

using namespace cod;
using namespace cod::server;
using namespace cod::server::test;

namespace {

json queue_msg(const std::string& mode, int deck = 1, bool rated = true) {
  return {{"type", "queue"}, {"id", 5}, {"mode", mode}, {"format", "preconstructed"}, {"rated", rated},
          {"deck", {{"preconstructed", deck}}}};
}

struct node {
  harness h;
  std::shared_ptr<cluster_queue> q;
  bool alive = true;

  node(const std::string& id, match_store* shared, std::map<std::string, account_check>& accounts)
      : h(test_config(), shared) {
    h.lsvc.authenticate = [&accounts](std::string token, std::function<void(account_check)> done) {
      auto it = accounts.find(token);
      done(it == accounts.end() ? account_check{account_check::kind::bad_session, 0, {}, false} : it->second);
      return true;
    };
    queue_services qs;
    qs.rooms = h.rooms;
    qs.ex = h.ex;
    qs.cat = &shipped();
    qs.env = &h.env;
    cluster_queue_options o;
    o.node_id = id;
    o.heartbeat_every_ms = 50;
    o.matcher_lease_ms = 400;
    o.alive_within_ms = 3000;
    queue::queue_params p;
    p.waves.interval_ms = 100;
    p.waves.min_spacing_ms = 20;
    q = std::make_shared<cluster_queue>(qs, *h.store->queue(), o, p);
    h.lsvc.queue = [this](std::shared_ptr<client_session> who, protocol::queue_msg m) { q->enqueue(who, m); };
    h.lsvc.unqueue = [this](std::shared_ptr<client_session> who, protocol::unqueue_msg m) { q->unqueue(who, m); };
    h.lsvc.leave_queue = [this](std::uint64_t conn, std::string reason) { q->leave(conn, reason); };
  }
  ~node() { q->stop(); }
};

struct cluster_fixture {
  std::map<std::string, account_check> accounts;
  memory_store store{memory_store::callbacks::run_inline};
  node n1{"n1", &store, accounts};
  node n2{"n2", &store, accounts};
  std::int64_t next_account = 1;
  std::map<std::string, std::string> tokens;  // name -> its session token
  std::int64_t account_of(const std::string& name) { return accounts[tokens[name]].account_id; }

  // A connection to `n` signed in as account `name` (a new one, or the
  // same account again for a name seen before).
  client player(node& n, const std::string& name) {
    std::string& token = tokens[name];
    if (token.empty()) {
      const std::string id = std::to_string(next_account);
      token = std::string(32 - id.size(), '0') + id;  // 32 hex digits, as the account API gives
      accounts[token] = {account_check::kind::signed_in, next_account++, name, false};
    }
    client c = n.h.connect(false);
    c.say({{"type", "hello"}, {"id", 1}, {"version", 1}, {"account_token", token}});
    c.expect("welcome");
    return c;
  }

  // One round of every live node (n1 first), with the rooms' work done.
  void round() {
    for (node* n : {&n1, &n2}) {
      if (!n->alive) continue;
      n->q->step();
      n->h.ex->run();
    }
  }
  // Rounds until `done` (every 20 ms, at most 10 s).
  template <class F>
  bool until(F&& done) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (std::chrono::steady_clock::now() < deadline) {
      round();
      if (done()) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return false;
  }
};

// Rounds until `c` has received a message of `type`; all it received.
std::vector<json> wait_for(cluster_fixture& f, client& c, const std::string& type) {
  std::vector<json> got;
  f.until([&] {
    for (auto& m : c.take()) got.push_back(std::move(m));
    return find_type(got, type) != nullptr;
  });
  INFO("received: " << json(got).dump());
  REQUIRE(find_type(got, type) != nullptr);
  return got;
}

}  // namespace

TEST_CASE("cluster queue: players on two nodes meet; the one on the other node takes its seat with resume there") {
  cluster_fixture f;
  f.round();  // n1 takes the matcher's lease first
  CHECK(f.n1.q->matching());
  CHECK(!f.n2.q->matching());
  client ada = f.player(f.n1, "Ada");
  client bob = f.player(f.n2, "Bob");
  ada.say(queue_msg("duel", 1));
  bob.say(queue_msg("duel", 2));
  f.round();
  const json qa = ada.expect("queued");
  const json qb = bob.expect("queued");
  CHECK(qa.at("ticket") != qb.at("ticket"));  // the store's ids: unique over the cluster

  // Ada's room runs on n1, her node: she is seated at once.
  auto a = wait_for(f, ada, "joined");
  const json ma = *find_type(a, "matched");
  CHECK(!ma.contains("connect"));
  CHECK(ma.at("players").size() == 2);
  const std::string room = ma.at("room");
  REQUIRE(f.n1.h.rooms->find(room));
  CHECK(!f.n2.h.rooms->find(room));
  // Bob is told where to go: his seat waits for him there.
  auto b = wait_for(f, bob, "matched");
  const json mb = *find_type(b, "matched");
  CHECK(mb.at("room") == room);
  CHECK(mb.at("connect") == "/ws?room=" + room);
  CHECK(mb.at("players") == ma.at("players"));
  CHECK(!find_type(b, "joined"));
  CHECK(f.n1.q->matches_made() == 1);
  CHECK(f.n1.q->waiting() == 0);
  CHECK(f.n2.q->waiting() == 0);

  // Only Bob's account may take Bob's seat, with his token.
  client eve = f.player(f.n1, "Eve");
  eve.say({{"type", "resume"}, {"id", 3}, {"room", room}, {"token", mb.at("token")}});
  f.round();
  CHECK(eve.expect("error").at("code") == "bad_token");
  client bob_there = f.player(f.n1, "Bob");
  bob_there.say({{"type", "resume"}, {"id", 4}, {"room", room}, {"token", mb.at("token")}});
  f.round();
  auto got = bob_there.take();
  INFO(json(got).dump());
  REQUIRE(find_type(got, "joined"));
  CHECK(find_type(got, "joined")->at("seat") == mb.at("seat"));
  CHECK(find_type(got, "state"));  // every seat is in: the match started
  CHECK(find_type(ada.take(), "state"));
  auto unfinished = read_ok(f.store.reader().load_unfinished());
  REQUIRE(unfinished.size() == 1);
  CHECK(unfinished[0].match.rated);
  for (const auto& s : unfinished[0].match.seats) {
    CHECK(s.account_id == f.account_of(s.name));
  }
}

TEST_CASE("cluster queue: a search survives the matching node's death; the next holder of the lease matches it") {
  cluster_fixture f;
  f.round();
  REQUIRE(f.n1.q->matching());
  client cid = f.player(f.n2, "Cid");
  cid.say(queue_msg("duel", 1));
  f.round();
  cid.expect("queued");
  // n1 dies (no more rounds, no release): n2 takes the lease once it expires.
  f.n1.alive = false;
  CHECK(f.until([&] { return f.n2.q->matching(); }));
  client dot = f.player(f.n2, "Dot");
  dot.say(queue_msg("duel", 2));
  auto c = wait_for(f, cid, "joined");
  const json mc = *find_type(c, "matched");
  CHECK(!mc.contains("connect"));  // the room runs on n2 now, Cid's node
  CHECK(f.n2.h.rooms->find(mc.at("room").get<std::string>()));
  auto d = wait_for(f, dot, "state");
  CHECK(find_type(d, "matched")->at("room") == mc.at("room"));
  CHECK(f.n2.q->matches_made() == 1);
}

TEST_CASE("cluster queue: one search per account and pool over the cluster; unqueue and a closed connection withdraw") {
  cluster_fixture f;
  f.round();
  client ada = f.player(f.n1, "Ada");
  ada.say(queue_msg("duel"));
  f.round();
  ada.expect("queued");
  client ada2 = f.player(f.n2, "Ada");  // the same account on the other node
  ada2.say(queue_msg("duel", 2));
  f.round();
  CHECK(ada2.expect("error").at("code") == "already_queued");
  ada2.say(queue_msg("duel", 2, false));  // casual: another pool
  f.round();
  const std::int64_t casual = ada2.expect("queued").at("ticket");
  ada2.say({{"type", "unqueue"}, {"id", 8}, {"ticket", casual}});
  f.round();
  const json u = ada2.expect("unqueued");
  CHECK(u.at("tickets") == json::array({casual}));
  ada2.say({{"type", "unqueue"}, {"id", 9}});
  f.round();
  CHECK(ada2.expect("error").at("code") == "not_queued");

  // Ada's first connection closes: her search goes; Bob waits alone.
  ada.disconnect();
  client bob = f.player(f.n2, "Bob");
  bob.say(queue_msg("duel", 2));
  f.round();
  bob.expect("queued");
  for (int i = 0; i < 15; ++i) {
    f.round();
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  CHECK(!find_type(bob.take(), "matched"));
  CHECK(f.n1.q->waiting() == 0);
  CHECK(f.n2.q->waiting() == 1);
  CHECK(f.n1.q->matches_made() == 0);
}

TEST_CASE("cluster queue: two friends on two nodes queueing 2v2 naming each other play on one team") {
  cluster_fixture f;
  f.round();
  client ada = f.player(f.n1, "Ada");
  client bob = f.player(f.n2, "Bob");
  client cid = f.player(f.n2, "Cid");
  client dot = f.player(f.n1, "Dot");
  json q = queue_msg("2v2", 1);
  q["partner"] = "Bob";
  ada.say(q);
  q["partner"] = "ada";
  bob.say(q);
  cid.say(queue_msg("2v2", 3));
  dot.say(queue_msg("2v2", 4));
  f.round();
  for (auto* c : {&ada, &bob, &cid, &dot}) c->expect("queued");
  std::map<std::string, int> seat_of;
  std::string room;
  for (auto* c : {&ada, &bob, &cid, &dot}) {
    auto got = wait_for(f, *c, "matched");
    const json m = *find_type(got, "matched");
    if (room.empty()) room = m.at("room");
    CHECK(m.at("room") == room);
    seat_of[m.at("players").at(m.at("seat").get<int>()).get<std::string>()] = m.at("seat").get<int>();
  }
  REQUIRE(seat_of.size() == 4);
  CHECK(seat_of["Ada"] % 2 == seat_of["Bob"] % 2);  // 2v2 teams: seats 0, 2 and 1, 3
  CHECK(seat_of["Cid"] % 2 == seat_of["Dot"] % 2);
  CHECK(seat_of["Ada"] % 2 != seat_of["Cid"] % 2);
}
