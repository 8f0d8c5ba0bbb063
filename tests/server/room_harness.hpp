// The room tests' harness (test_room*.cpp, test_tournament_service.cpp): client
// sessions over recording peers, rooms on a manual executor, memory_store
// running its callbacks inline.
#pragma once

#include <doctest/doctest.h>

#include <atomic>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "../shared/catalogue.hpp"
#include "../shared/test_environment.hpp"
#include "common/metrics.hpp"
#include "harness.hpp"
#include "persist/memory/memory_store.hpp"
#include "replay/recovery.hpp"
#include "room/ai_pool.hpp"
#include "room/client_session.hpp"
#include "room/room.hpp"
#include "room/room_registry.hpp"
#include "../shared/store_reads.hpp"

namespace cod::server::test {

using cod::test::shipped;
using cod::test::test_environment;

inline config test_config() {
  config c;
  c.grace_period_sec = 30;
  c.finished_room_ttl_sec = 100;
  c.waiting_room_ttl_sec = 600;
  return c;
}

struct harness;

struct client {
  harness* h = nullptr;
  std::shared_ptr<recording_peer> peer;
  std::shared_ptr<client_session> session;
  void say(const json& j);
  void say_raw(const std::string& text);
  std::vector<json> take() { return peer->take(); }
  // The only message of `type` among those received since the last take().
  json expect(const std::string& type) {
    auto msgs = take();
    INFO("received: " << json(msgs).dump());
    const json* m = find_type(msgs, type);
    REQUIRE(m != nullptr);
    return *m;
  }
  void disconnect();
};

struct harness {
  std::unique_ptr<memory_store> own_store;
  match_store* store = nullptr;
  metrics stats;
  // The house bots' decisions: run at once on the test's thread (their
  // results still come back through the executor), unless a test holds
  // them (hold_ai) to see the room answer while its bot thinks.
  std::unique_ptr<ai_pool> ai = std::make_unique<ai_pool>(ai_pool::options{ai_pool::mode::run_inline, 0, 64, 0}, &stats);
  room_services rsvc;
  lobby_services lsvc;
  std::shared_ptr<manual_executor> ex = std::make_shared<manual_executor>();
  std::shared_ptr<room_registry> rooms;
  std::atomic<bool> stopping{false};
  std::uint64_t next_conn = 1;
  // The rooms' and the lobby's environment: a wall that advances 1000 ms per
  // reading from `wall` (a test may move it), ids and tokens from the OS.
  std::int64_t wall = 1'700'000'000'000;
  test_environment env;

  explicit harness(config cfg = test_config(), match_store* shared_store = nullptr) {
    if (!shared_store) {
      own_store = std::make_unique<memory_store>(memory_store::callbacks::run_inline);
      shared_store = own_store.get();
    }
    store = shared_store;
    rsvc.cat = &shipped();
    rsvc.store = store;
    rsvc.stats = &stats;
    rsvc.ai = ai.get();
    rsvc.cfg = cfg;
    env.wall = [this] { return wall += 1000; };
    env.random = [] { return environment::system().random_u64(); };
    rsvc.env = &env;
    rooms = std::make_shared<room_registry>(rsvc, [this] { return std::static_pointer_cast<serial_executor>(ex); });
    lsvc.rooms = rooms;
    lsvc.stats = &stats;
    lsvc.cfg = cfg;
    lsvc.env = &env;
    lsvc.shutting_down = &stopping;
  }

  // A pool with no free thread: decisions wait for ai->run_held(), at most
  // `max_pending` admitted, the rest in line.
  void hold_ai(std::size_t max_pending = 64) {
    ai = std::make_unique<ai_pool>(ai_pool::options{ai_pool::mode::held, 0, max_pending, 0}, &stats);
    rsvc.ai = ai.get();
  }

  // The "crash" in recovery tests: the rooms stop (as on shutdown) and
  // nothing more happens to them; their store keeps what was written.
  void crash() {
    rooms->shutdown();
    ex->run();
  }

  // A restarted server on a crashed one's store: the one unfinished match
  // gets its room back (returned, as the store gave it).
  std::vector<stored_match> recover_one() {
    auto unfinished = read_ok(store->reader().load_unfinished());
    REQUIRE(unfinished.size() == 1);
    CHECK(rooms->recover(unfinished) == 1);
    ex->run();
    return unfinished;
  }

  // What cluster_node::fetch does for a room another node asks for: this
  // node (its holder) hands it over, `to` rebuilds it from the store's log.
  // Returns it as `to` runs it.
  std::shared_ptr<room> hand_over(const std::string& room_id, harness& to) {
    rooms->find(room_id)->move_away("another node asked for it", nullptr);
    ex->run();
    std::vector<stored_match> mine;
    for (auto& sm : read_ok(store->reader().load_unfinished()))
      if (sm.match.room_id == room_id) mine.push_back(std::move(sm));
    REQUIRE(to.rooms->recover(mine) == 1);
    to.ex->run();
    return to.rooms->find(room_id);
  }

  // After recover_one(): the holder of `token` resumes `room`, and must get
  // `seat` back with the state after `seq` actions showing `view`. Returns
  // that state.
  json resume_recovered(const std::string& room, const std::string& token, int seat, std::int64_t seq,
                        const json& view) {
    auto c = connect();
    c.say({{"type", "resume"}, {"room", room}, {"token", token}});
    auto msgs = c.take();
    REQUIRE(find_type(msgs, "joined"));
    CHECK(find_type(msgs, "joined")->at("seat") == seat);
    const json* st = find_type(msgs, "state");
    REQUIRE(st);
    CHECK(st->at("seq") == seq);
    CHECK(st->at("view") == view);
    return *st;
  }

  client connect(bool hello = true) {
    client c;
    c.h = this;
    c.peer = std::make_shared<recording_peer>(next_conn++);
    c.session = std::make_shared<client_session>(lsvc, c.peer, c.peer->id());
    if (hello) {
      c.say({{"type", "hello"}, {"version", 1}, {"client", "test"}});
      c.expect("welcome");
    }
    return c;
  }

  // A spectator of `room`: everything it was sent on arrival taken, the
  // "spectating" reply among it checked.
  client spectator(const std::string& room) {
    client c = connect();
    c.say({{"type", "spectate"}, {"room", room}});
    CHECK(c.expect("spectating").at("room") == room);
    return c;
  }

  std::string create_room(client& c, json options = json::object(), std::string format = "preconstructed",
                          std::string mode = "duel") {
    c.say({{"type", "create_room"}, {"mode", mode}, {"format", format}, {"options", options}});
    auto m = c.expect("room_created");
    return m.at("room").get<std::string>();
  }

  struct seated {
    client c;
    int seat = -1;
    std::string token;
    json state;              // the last state
    std::vector<json> msgs;  // what came with it
  };

  // Two players join `room` (preconstructed decks 1 and 2); the match starts.
  std::pair<seated, seated> start_duel(const std::string& room) {
    seated a, b;
    a.c = connect();
    b.c = connect();
    a.c.say({{"type", "join"}, {"room", room}, {"name", "ann"}, {"deck", {{"preconstructed", 1}}}});
    auto ja = a.c.expect("joined");
    a.seat = ja.at("seat").get<int>();
    a.token = ja.at("token").get<std::string>();
    b.c.say({{"type", "join"}, {"room", room}, {"name", "bob"}, {"deck", {{"preconstructed", 2}}}});
    auto msgs_b = b.c.take();
    REQUIRE(find_type(msgs_b, "joined"));
    b.seat = find_type(msgs_b, "joined")->at("seat").get<int>();
    b.token = find_type(msgs_b, "joined")->at("token").get<std::string>();
    REQUIRE(find_type(msgs_b, "state"));
    b.state = *find_type(msgs_b, "state");
    auto msgs_a = a.c.take();
    REQUIRE(find_type(msgs_a, "state"));
    a.state = *find_type(msgs_a, "state");
    a.msgs = msgs_a;
    b.msgs = msgs_b;
    return {std::move(a), std::move(b)};
  }
};

inline void client::say(const json& j) { say_raw(j.dump()); }
inline void client::say_raw(const std::string& text) {
  session->on_text(text);
  h->ex->run();
}
inline void client::disconnect() {
  session->on_closed();
  h->ex->run();
}

inline std::vector<json> act(client& c, const json& action, int id = 1) {
  c.say({{"type", "act"}, {"id", id}, {"action", action}});
  return c.take();
}

// The one room list_rooms shows `c`.
inline json list_one(client& c) {
  c.say({{"type", "list_rooms"}});
  auto rooms = c.expect("rooms").at("rooms");
  REQUIRE(rooms.size() == 1);
  return rooms[0];
}

// The seat whose turn it is, from a state/update's view.
inline int active(const json& msg) { return msg.at("view").at("active_seat").get<int>(); }

// verify() of a stored match, every check in the failure message. Returns
// the result for further checks.
inline verify_result check_verifies(const stored_match& sm) {
  auto v = verify(shipped(), sm);
  std::string checks;
  for (const auto& c : v.checks) checks += c.name + (c.ok ? " ok: " : " FAILED: ") + c.detail + "\n";
  INFO(checks);
  CHECK(v.ok);
  return v;
}

// create_room that must be refused with bad_field_value: "field: message".
inline std::string refused_create(client& c, const json& options, const std::string& mode,
                                  const std::string& format) {
  c.say({{"type", "create_room"}, {"id", 9}, {"mode", mode}, {"format", format}, {"options", options}});
  const auto e = c.expect("error");
  CHECK(e.at("code") == "bad_field_value");
  return e.at("field").get<std::string>() + ": " + e.at("message").get<std::string>();
}


}  // namespace cod::server::test
