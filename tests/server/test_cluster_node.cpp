// cluster_node (docs/cluster.md, "What a node does") on two "nodes" in one
// process: two room harnesses on one memory_store, whose room directory the
// two cluster_nodes share, with short leases. A node's death is its
// cluster thread stopped without releasing (its leases run out) and its
// rooms shut down.
#include <doctest/doctest.h>

#include <chrono>
#include <mutex>
#include <set>
#include <thread>

#include "../tournament/helpers.hpp"
#include "cluster/cluster_node.hpp"
#include "room_harness.hpp"

using namespace cod::server;
using namespace cod::server::test;

namespace {

cluster_options fast_options(const std::string& node) {
  cluster_options o;
  o.node_id = node;
  o.lease_ms = 400;
  o.renew_every_ms = 100;
  o.tick_ms = 10;
  o.fetch_timeout_ms = 5000;
  o.sweep_after_ms = 60'000;  // no sweeps here: connections take the rooms
  return o;
}

// A harness whose rooms are a cluster node's.
struct node {
  harness h;
  cluster_node cluster;
  node(const std::string& id, memory_store& store, std::int64_t finished_room_ttl_ms = 0,
       event_hooks tournaments = {})
      : h(cluster_config(id), &store), cluster(with_ttl(fast_options(id), finished_room_ttl_ms), *store.directory(), h.rooms) {
    // memory_store has no fence: nothing refuses a room's writes.
    cluster.serve(h.rsvc, h.lsvc, false);
    if (tournaments.running) cluster.serve_events(std::move(tournaments));
    cluster.start();
  }
  static cluster_options with_ttl(cluster_options o, std::int64_t finished_room_ttl_ms) {
    o.finished_room_ttl_ms = finished_room_ttl_ms;
    return o;
  }
  static config cluster_config(const std::string& id) {
    config c = test_config();
    c.node_id = id;
    c.list_rooms_per_sec = 1000;  // the lobby test polls
    return c;
  }
};

// Pumps both nodes' executors until `c` has received a message of `type`
// (the cluster thread answers from its own thread).
json wait_for(client& c, const std::string& type, harness& a, harness& b) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(8);
  std::vector<json> seen;
  while (std::chrono::steady_clock::now() < deadline) {
    a.ex->run();
    b.ex->run();
    for (auto& m : c.take()) {
      seen.push_back(m);
      if (m.at("type") == type) {
        a.ex->run();
        b.ex->run();
        for (auto& more : c.take()) seen.push_back(more);
        return json(seen);
      }
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  INFO("received: " << json(seen).dump());
  FAIL("no " << type << " within 8 s");
  return json(seen);
}

// A tournament service's side of the leases (event_hooks), recorded;
// called on the cluster thread.
struct fake_tournaments {
  std::mutex mu;
  std::set<std::string> running;
  std::vector<std::string> adopted, given_up, lost;
  event_hooks hooks() {
    return {.running = [this] {
              std::lock_guard lk(mu);
              return std::vector<std::string>(running.begin(), running.end());
            },
            .adopt = [this](const std::string& id) {
              std::lock_guard lk(mu);
              adopted.push_back(id);
              running.insert(id);
              return true;
            },
            .give_up = [this](const std::string& id, std::function<void()> saved) {
              {
                std::lock_guard lk(mu);
                given_up.push_back(id);
                running.erase(id);
              }
              saved();
            },
            .lost = [this](const std::string& id) {
              std::lock_guard lk(mu);
              lost.push_back(id);
              running.erase(id);
            }};
  }
  template <class F>
  bool eventually(F&& f) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(8);
    while (std::chrono::steady_clock::now() < deadline) {
      {
        std::lock_guard lk(mu);
        if (f()) return true;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    return false;
  }
};

const json* of_type(const json& msgs, const std::string& type) {
  for (const auto& m : msgs)
    if (m.at("type") == type) return &m;
  return nullptr;
}

}  // namespace

TEST_CASE("cluster node: a dead node's room is taken over by a routed resume, same seat and state; a live node's "
          "room is not pulled by a connection that did not name it") {
  memory_store store(memory_store::callbacks::run_inline);
  auto n1 = std::make_unique<node>("n1", store);
  node n2("n2", store);

  auto host = n1->h.connect();
  const std::string room = n1->h.create_room(host);
  REQUIRE(room.starts_with("n1-"));
  auto [a, b] = n1->h.start_duel(room);
  const auto seq = a.state.at("seq").get<std::int64_t>();

  // n1 is alive: a lobby connection on n2 is told where the room is.
  auto lobby = n2.h.connect();
  lobby.session->on_text(json({{"type", "resume"}, {"id", 5}, {"room", room}, {"token", a.token}}).dump());
  const json refused = wait_for(lobby, "error", n1->h, n2.h);
  const json* e = of_type(refused, "error");
  REQUIRE(e);
  CHECK(e->at("code") == "room_not_found");
  CHECK(e->at("message").get<std::string>().find("runs on another node: connect with /ws?room=" + room) !=
        std::string::npos);
  CHECK(n1->h.rooms->find(room) != nullptr);  // not pulled over
  CHECK(n2.h.rooms->find(room) == nullptr);

  // n1 dies: its leases are not renewed and run out.
  n1->cluster.stop();
  n1->h.crash();

  auto back = n2.h.connect(false);
  back.session->set_routed_room(room);
  back.say({{"type", "hello"}, {"version", 1}, {"client", "test"}});
  back.expect("welcome");
  back.session->on_text(json({{"type", "resume"}, {"id", 6}, {"room", room}, {"token", a.token}}).dump());
  const json msgs = wait_for(back, "state", n1->h, n2.h);
  const json* joined = of_type(msgs, "joined");
  REQUIRE(joined);
  CHECK(joined->at("seat") == a.seat);
  CHECK(joined->at("token") == a.token);
  const json* st = of_type(msgs, "state");
  REQUIRE(st);
  CHECK(st->at("seq") == seq);
  CHECK(st->at("view") == a.state.at("view"));
  CHECK(n2.h.rooms->find(room) != nullptr);
  n1.reset();
}

TEST_CASE("cluster node: a routed connection on another node gets a live room handed over; the holder closes its "
          "clients' connections with 1001 and they resume on the new node") {
  memory_store store(memory_store::callbacks::run_inline);
  node n1("n1", store);
  node n2("n2", store);

  auto host = n1.h.connect();
  const std::string room = n1.h.create_room(host);
  auto [a, b] = n1.h.start_duel(room);
  const auto seq = b.state.at("seq").get<std::int64_t>();

  auto routed = n2.h.connect(false);
  routed.session->set_routed_room(room);
  routed.say({{"type", "hello"}, {"version", 1}, {"client", "test"}});
  routed.expect("welcome");
  routed.session->on_text(json({{"type", "resume"}, {"id", 7}, {"room", room}, {"token", b.token}}).dump());
  const json msgs = wait_for(routed, "state", n1.h, n2.h);
  const json* joined = of_type(msgs, "joined");
  REQUIRE(joined);
  CHECK(joined->at("seat") == b.seat);
  const json* st = of_type(msgs, "state");
  REQUIRE(st);
  CHECK(st->at("seq") == seq);

  // The holder moved the room away: its clients were told to reconnect.
  n1.h.ex->run();
  CHECK(n1.h.rooms->find(room) == nullptr);
  CHECK(n2.h.rooms->find(room) != nullptr);
  REQUIRE(a.c.peer->close_code.has_value());
  CHECK(*a.c.peer->close_code == 1001);
  CHECK(a.c.peer->close_reason.find("moved to another node") != std::string::npos);

  // n2 holds the lease now: n1's next renewal sees it, and a room created
  // on n2 is n2's.
  auto host2 = n2.h.connect();
  CHECK(n2.h.create_room(host2).starts_with("n2-"));
}

TEST_CASE("cluster node: start-up takes back only the node's own rooms whose leases are free") {
  memory_store store(memory_store::callbacks::run_inline);
  room_directory& dir = *store.directory();
  auto match = [](const std::string& room) {
    stored_match m;
    m.match.room_id = room;
    m.match.match_id = room + "-m";
    return m;
  };
  REQUIRE(dir.claim_room("n1-rtaken", "n2", 60'000).value());  // taken over while n1 was away
  harness h;
  cluster_node n1(fast_options("n1"), dir, h.rooms);
  const auto mine = n1.claim_own({match("n1-rfree"), match("n1-rtaken"), match("n2-rother")});
  REQUIRE(mine.size() == 1);
  CHECK(mine[0].match.room_id == "n1-rfree");
  CHECK_FALSE(dir.claim_room("n1-rfree", "n3", 60'000).value());  // n1 holds it now
}

TEST_CASE("cluster node: the lobby lists every node's rooms, this node's as they are now") {
  memory_store store(memory_store::callbacks::run_inline);
  node n1("n1", store);
  node n2("n2", store);
  auto host1 = n1.h.connect();
  auto host2 = n2.h.connect();
  const std::string r1 = n1.h.create_room(host1);
  const std::string r2 = n2.h.create_room(host2, json::object(), "preconstructed", "ffa");
  // n2's own room at once; n1's once n1 has published (every renew_every_ms).
  auto lister = n2.h.connect();
  std::set<std::string> listed;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (std::chrono::steady_clock::now() < deadline) {
    lister.say({{"type", "list_rooms"}});
    const json reply = lister.expect("rooms");
    listed.clear();
    for (const auto& r : reply.at("rooms")) listed.insert(r.at("room").get<std::string>());
    if (listed.size() == 2) {
      CHECK(reply.at("total") == 2);
      break;
    }
    CHECK(listed.count(r2) == 1);
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  CHECK(listed == std::set<std::string>{r1, r2});
  // Filters and pages apply to the merged list.
  lister.say({{"type", "list_rooms"}, {"mode", "ffa"}});
  const json ffa = lister.expect("rooms");
  REQUIRE(ffa.at("rooms").size() == 1);
  CHECK(ffa.at("rooms")[0].at("room") == r2);
  lister.say({{"type", "list_rooms"}, {"limit", 1}});
  const json page = lister.expect("rooms");
  CHECK(page.at("rooms").size() == 1);
  CHECK(page.at("total") == 2);
  CHECK(page.at("next") == page.at("rooms")[0].at("room"));
}

TEST_CASE("cluster node: a match that ended with its dead node's last action is shown finished on another node "
          "within finished_room_ttl, and not after") {
  memory_store store(memory_store::callbacks::run_inline);
  auto n1 = std::make_unique<node>("n1", store);
  node n2("n2", store);
  auto host = n1->h.connect();
  const std::string room = n1->h.create_room(host);
  auto [a, b] = n1->h.start_duel(room);
  // a's concession ends the match; n1 dies before b sees the end.
  auto r = act(a.c, {{"type", "concede"}});
  const json* over = find_type(r, "match_over");
  REQUIRE(over);
  const json over_before = *over;
  n1->cluster.stop();
  n1->h.crash();

  // Resumes b on a node that has not seen the room yet.
  auto resume_elsewhere = [&](const std::string& id, std::int64_t ttl_ms) {
    node n(id, store, ttl_ms);
    auto back = n.h.connect(false);
    back.session->set_routed_room(room);
    back.say({{"type", "hello"}, {"version", 1}, {"client", "test"}});
    back.expect("welcome");
    back.session->on_text(json({{"type", "resume"}, {"id", 8}, {"room", room}, {"token", b.token}}).dump());
    return wait_for(back, ttl_ms > 0 ? "match_over" : "error", n.h, n2.h);
  };

  const json msgs = resume_elsewhere("n3", 100'000);
  const json* joined = of_type(msgs, "joined");
  REQUIRE(joined);
  CHECK(joined->at("seat") == b.seat);
  const json* end = of_type(msgs, "match_over");
  REQUIRE(end);
  CHECK(*end == over_before);
  // A finished room holds no lease: another node may claim it at once.
  CHECK(store.directory()->claim_room(room, "n9", 1000).value());
  REQUIRE(store.directory()->release_room(room, "n9").is_ok());

  // finished_room_ttl_ms 0: never shown.
  const json refused = resume_elsewhere("n4", 0);
  const json* e = of_type(refused, "error");
  REQUIRE(e);
  CHECK(e->at("code") == "room_not_found");
  n1.reset();
}

TEST_CASE("cluster node: a tournament's lease: renewed with the rooms', handed over to the node that wants it, "
          "and a node that lost it is told") {
  memory_store store(memory_store::callbacks::run_inline);
  fake_tournaments t1, t2;
  node n1("n1", store, 0, t1.hooks());
  node n2("n2", store, 0, t2.hooks());
  const std::string id = "n1-t0123456789";
  REQUIRE(n1.cluster.claim_new(id).is_ok());
  {
    std::lock_guard lk(t1.mu);
    t1.running.insert(id);
  }
  // Renewed, not released as idle: another node cannot take it.
  std::this_thread::sleep_for(std::chrono::milliseconds(600));  // more than a lease, several renewals
  CHECK_FALSE(store.directory()->claim_room(id, "n3", 400).value());

  // Wanted on n2 (the proxy sends its traffic there): n1 gives it up, n2 adopts it.
  CHECK(n2.cluster.want_event(id));
  CHECK(t2.eventually([&] { return t2.adopted == std::vector<std::string>{id}; }));
  CHECK(t1.eventually([&] { return t1.given_up == std::vector<std::string>{id} && t1.running.empty(); }));
  CHECK(n1.cluster.want_event(id) == true);  // n1 may ask for it back: it exists
  CHECK(t1.eventually([&] { return t1.adopted == std::vector<std::string>{id}; }));
  CHECK(t2.eventually([&] { return t2.given_up == std::vector<std::string>{id}; }));

  // A node that thinks it runs a tournament another node holds is told (lost).
  {
    std::lock_guard lk(t2.mu);
    t2.running.insert(id);
  }
  CHECK(t2.eventually([&] { return t2.lost == std::vector<std::string>{id} && t2.running.empty(); }));
  CHECK(t1.running.count(id) == 1);

  // A made-up id: looked up once, then refused for a while.
  const std::string made_up = "n9-t0000000000";
  CHECK(n2.cluster.want_event(made_up));
  CHECK(t2.eventually([&] { return !n2.cluster.want_event(made_up); }));
  CHECK_FALSE(n2.cluster.want_event("n2-rk7q4-not-an-id!"));
  CHECK(t2.adopted == std::vector<std::string>{id});  // not the made-up one
}

TEST_CASE("cluster node: a tournament no node holds (its node died, nobody asked for it) is swept") {
  memory_store store(memory_store::callbacks::run_inline);
  const std::string id = "n1-t0123456789";
  store.save_tournament({id, cod::tournaments::test::make(4, cod::tournaments::test::make_config(2)), {}, 1000}, nullptr);
  store.flush();
  fake_tournaments t;
  harness h(node::cluster_config("n2"), &store);
  cluster_options o = fast_options("n2");
  o.sweep_after_ms = 100;
  cluster_node n(o, *store.directory(), h.rooms);
  n.serve(h.rsvc, h.lsvc, false);
  n.serve_events(t.hooks());
  n.start();
  CHECK(t.eventually([&] { return t.adopted == std::vector<std::string>{id}; }));
  CHECK_FALSE(store.directory()->claim_room(id, "n3", 400).value());  // n2's now
  n.stop();
}
