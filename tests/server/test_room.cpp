// Room and lobby logic without sockets: client_sessions over recording peers,
// rooms on a manual executor, memory_store running its callbacks inline.
#include <doctest/doctest.h>
#include <sqlite3.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <random>
#include <set>
#include <thread>

#include "cod/protocol/catalogue_json.hpp"
#include "common/metrics.hpp"
#include "common/sha256.hpp"
#include "persist/memory/memory_store.hpp"
#include "persist/sqlite/sqlite_store.hpp"
#include "replay/recovery.hpp"
#include "room/client_session.hpp"
#include "room/room.hpp"
#include "room/room_registry.hpp"
#include "room_harness.hpp"
#include "../shared/store_reads.hpp"

using namespace cod::server;
using namespace cod::server::test;
using namespace std::chrono_literals;

TEST_CASE("lobby: hello first, versions, ping, create and list rooms") {
  harness h;
  auto c = h.connect(false);
  c.say({{"type", "ping"}, {"id", 1}});
  auto e = c.expect("error");
  CHECK(e.at("code") == "hello_required");
  CHECK(e.at("id") == 1);

  c.say({{"type", "hello"}, {"version", 2}});
  CHECK(c.expect("error").at("code") == "unsupported_version");
  CHECK(c.peer->close_code == 1002);

  auto d = h.connect(false);
  d.say({{"type", "hello"}, {"id", "h"}, {"version", 1}});
  auto w = d.expect("welcome");
  CHECK(w.at("id") == "h");
  CHECK(w.at("version") == 1);
  CHECK(w.at("max_frame_bytes") == 65536);
  CHECK(w.at("rate_limit_per_sec") == 20);
  CHECK(w.at("session").is_string());
  d.say({{"type", "hello"}, {"version", 1}});
  CHECK(d.expect("error").at("code") == "duplicate_hello");
  d.say({{"type", "ping"}, {"id", 7}});
  CHECK(d.expect("pong").at("id") == 7);

  d.say_raw("{not json");
  CHECK(d.expect("error").at("code") == "bad_json");
  d.say({{"type", "dance"}, {"id", 3}});
  auto u = d.expect("error");
  CHECK(u.at("code") == "unknown_type");
  CHECK(u.at("id") == 3);
  d.say({{"type", "ping"}, {"extra", 1}});
  CHECK(d.expect("error").at("code") == "unknown_field");

  const auto room = h.create_room(d);
  CHECK(room.size() >= 2);
  d.say({{"type", "list_rooms"}});
  auto rooms = d.expect("rooms").at("rooms");
  REQUIRE(rooms.size() == 1);
  CHECK(rooms[0].at("room") == room);
  CHECK(rooms[0].at("status") == "waiting");
  CHECK(rooms[0].at("seats").size() == 2);
  CHECK(rooms[0].at("seats")[0].at("taken") == false);
  CHECK(h.stats.rooms == 1);
  CHECK(h.stats.errors_total("hello_required") == 1);
  CHECK(h.stats.errors_total("bad_json") == 1);

  d.say({{"type", "join"}, {"room", "nope"}, {"name", "x"}, {"deck", {{"preconstructed", 1}}}});
  CHECK(d.expect("error").at("code") == "room_not_found");
  d.say({{"type", "act"}, {"action", {{"type", "end_turn"}}}});
  CHECK(d.expect("error").at("code") == "not_seated");
  d.say({{"type", "leave"}});
  CHECK(d.expect("error").at("code") == "not_in_room");
}

TEST_CASE("room: joining, tokens, match start, and views that never show the other hand") {
  harness h;
  auto host = h.connect();
  const auto room = h.create_room(host);
  auto spec = h.spectator(room);

  auto [a, b] = h.start_duel(room);
  CHECK(a.seat == 0);
  CHECK(b.seat == 1);
  for (const auto& t : {a.token, b.token}) {
    CHECK(t.size() == 32);
    CHECK(t.find_first_not_of("0123456789abcdef") == std::string::npos);
  }
  CHECK(a.token != b.token);

  // Both states: seq 0, the room's seed hash, each its own view.
  const json& va = a.state.at("view");
  const json& vb = b.state.at("view");
  CHECK(a.state.at("seq") == 0);
  CHECK(b.state.at("seq") == 0);
  CHECK(va.at("viewer") == 0);
  CHECK(vb.at("viewer") == 1);
  CHECK(va.at("role") == "player");
  CHECK_FALSE(va.contains("all_hands"));
  CHECK_FALSE(vb.contains("all_hands"));
  const auto ha = hand_uids(va), hb = hand_uids(vb);
  CHECK(!ha.empty());
  CHECK(!hb.empty());
  for (int u : ha) CHECK(std::find(hb.begin(), hb.end(), u) == hb.end());
  CHECK(va.at("seats")[1].at("hand_size") == static_cast<int>(hb.size()));
  // What a sees of b's hand: its size only. None of b's hand uids appears
  // anywhere in a's view (board and removed cards are public).
  const std::string text_a = va.dump();
  for (int u : hb) {
    const std::string needle = "\"uid\":" + std::to_string(u) + ",";
    CHECK(text_a.find(needle) == std::string::npos);
  }

  auto sv = spec.expect("state").at("view");
  CHECK(sv.at("role") == "spectator");
  CHECK(sv.at("hand").empty());
  CHECK_FALSE(sv.contains("all_hands"));

  // The store has the match with token hashes, never the tokens.
  auto stored = read_ok(h.store->reader().load_unfinished());
  REQUIRE(stored.size() == 1);
  CHECK(stored[0].match.room_id == room);
  CHECK(stored[0].match.seats[0].token_hash == sha256_hex(a.token));
  CHECK(stored[0].match.seats[0].token_hash != a.token);
  CHECK(stored[0].match.seed_hash == a.state.at("seed_hash"));
  CHECK(stored[0].match.seats[1].name == "bob");

  host.say({{"type", "list_rooms"}});
  auto summary = host.expect("rooms").at("rooms")[0];
  CHECK(summary.at("status") == "playing");
  CHECK(summary.at("seats")[0].at("name") == "ann");
  CHECK(summary.at("seats")[1].at("connected") == true);
  CHECK(summary.at("spectators") == 1);
  CHECK(h.stats.matches_started_total == 1);
}

TEST_CASE("room: join refusals") {
  harness h;
  auto host = h.connect();
  const auto room = h.create_room(host);
  auto a = h.connect();
  a.say({{"type", "join"}, {"room", room}, {"name", "ann"}, {"seat", 1}, {"deck", {{"preconstructed", 1}}}});
  CHECK(a.expect("joined").at("seat") == 1);
  a.say({{"type", "join"}, {"room", room}, {"name", "ann"}, {"deck", {{"preconstructed", 1}}}});
  CHECK(a.expect("error").at("code") == "already_in_room");

  auto b = h.connect();
  b.say({{"type", "join"}, {"room", room}, {"name", "bob"}, {"seat", 1}, {"deck", {{"preconstructed", 2}}}});
  CHECK(b.expect("error").at("code") == "seat_taken");
  b.say({{"type", "join"}, {"room", room}, {"name", "bob"}, {"seat", 3}, {"deck", {{"preconstructed", 2}}}});
  CHECK(b.expect("error").at("code") == "no_such_seat");
  b.say({{"type", "join"}, {"room", room}, {"name", "bob"}, {"deck", {{"cards", {"brute"}}}}});
  auto bad = b.expect("error");
  CHECK(bad.at("code") == "bad_deck");
  b.say({{"type", "act"}, {"action", {{"type", "end_turn"}}}});
  CHECK(b.expect("error").at("code") == "not_seated");

  // a leaves the waiting room: the seat is free again.
  a.say({{"type", "leave"}, {"id", 4}});
  auto left = a.expect("left");
  CHECK(left.at("id") == 4);
  b.say({{"type", "join"}, {"room", room}, {"name", "bob"}, {"seat", 1}, {"deck", {{"preconstructed", 2}}}});
  CHECK(b.expect("joined").at("seat") == 1);
  b.say({{"type", "act"}, {"action", {{"type", "end_turn"}}}});
  CHECK(b.expect("error").at("code") == "match_not_started");

  auto c = h.connect();
  c.say({{"type", "join"}, {"room", room}, {"name", "cat"}, {"deck", {{"preconstructed", 3}}}});
  c.take();
  auto d = h.connect();
  d.say({{"type", "join"}, {"room", room}, {"name", "dan"}, {"deck", {{"preconstructed", 3}}}});
  CHECK(d.expect("error").at("code") == "room_full");
}

TEST_CASE("room: actions out of turn are rejected with the engine's code and change nothing") {
  harness h;
  auto host = h.connect();
  const auto room = h.create_room(host);
  auto spec = h.spectator(room);
  auto [a, b] = h.start_duel(room);
  spec.take();
  auto& first = active(a.state) == a.seat ? a : b;
  auto& second = active(a.state) == a.seat ? b : a;

  auto r = act(second.c, {{"type", "end_turn"}}, 9);
  REQUIRE(r.size() == 1);
  CHECK(r[0].at("type") == "error");
  CHECK(r[0].at("code") == "not_your_turn");
  CHECK(r[0].at("id") == 9);
  CHECK(first.c.peer->pending() == 0);
  CHECK(spec.peer->pending() == 0);
  CHECK(read_ok(h.store->reader().load_unfinished())[0].actions.empty());
  CHECK(h.stats.errors_total("not_your_turn") == 1);

  spec.say({{"type", "act"}, {"action", {{"type", "end_turn"}}}});
  CHECK(spec.expect("error").at("code") == "spectator_cannot_act");
  act(first.c, {{"type", "fly"}});
  // Malformed action: the protocol's error, from the parser.
  auto bad = act(first.c, {{"type", "play"}, {"card", "x"}});
  CHECK(bad[0].at("type") == "error");

  // A play by the active seat: the actor gets accepted, everyone an update
  // with their own view; the card's hand index only for the one who played.
  auto moves = moves_from_view(first.state.at("view"), shipped());
  json play;
  for (auto& m : moves)
    if (m.at("type") == "play" && m.contains("line")) play = m;
  REQUIRE(!play.is_null());
  auto mine = act(first.c, play, 10);
  const json* acc = find_type(mine, "accepted");
  REQUIRE(acc);
  CHECK(acc->at("seq") == 1);
  CHECK(acc->at("id") == 10);
  const json* up_mine = find_type(mine, "update");
  REQUIRE(up_mine);
  auto theirs = second.c.take();
  const json* up_theirs = find_type(theirs, "update");
  REQUIRE(up_theirs);
  CHECK(find_type(theirs, "accepted") == nullptr);
  auto spec_msgs = spec.take();
  const json* up_spec = find_type(spec_msgs, "update");
  REQUIRE(up_spec);
  for (const json* u : {up_mine, up_theirs, up_spec}) CHECK(u->at("seq") == 1);
  CHECK(up_mine->at("view").at("viewer") == first.seat);
  CHECK(up_theirs->at("view").at("viewer") == second.seat);
  CHECK(up_spec->at("view").at("role") == "spectator");
  auto played = [](const json& u) {
    for (const auto& e : u.at("events"))
      if (e.at("type") == "card_played") return e;
    return json();
  };
  CHECK(played(*up_mine).contains("hand_index"));
  CHECK_FALSE(played(*up_theirs).contains("hand_index"));
  CHECK_FALSE(played(*up_spec).contains("hand_index"));
  // Hands stay private in every update.
  const auto mine_hand = hand_uids(up_mine->at("view"));
  const auto their_hand = hand_uids(up_theirs->at("view"));
  for (int u : mine_hand) CHECK(std::find(their_hand.begin(), their_hand.end(), u) == their_hand.end());
  CHECK(h.stats.actions_total() == 1);
}

TEST_CASE("room: accepted and update go out only once the store has the action") {
  memory_store inner(memory_store::callbacks::run_inline);
  held_store store(inner);
  harness h(test_config(), &store);
  auto host = h.connect();
  const auto room = h.create_room(host);
  auto [a, b] = h.start_duel(room);
  auto& first = active(a.state) == a.seat ? a : b;
  auto& second = active(a.state) == a.seat ? b : a;

  store.hold = true;
  first.c.say({{"type", "act"}, {"id", 1}, {"action", {{"type", "end_turn"}}}});
  CHECK(store.held() == 1);
  CHECK(first.c.peer->pending() == 0);
  CHECK(second.c.peer->pending() == 0);
  // Requests wait behind the pending write (in order).
  second.c.say({{"type", "act"}, {"id", 2}, {"action", {{"type", "end_turn"}}}});
  CHECK(second.c.peer->pending() == 0);
  auto late = h.connect();
  late.say({{"type", "spectate"}, {"room", room}});
  CHECK(late.peer->pending() == 0);

  store.hold = false;
  store.release();
  h.ex->run();
  auto f = first.c.take();
  REQUIRE(f.size() >= 2);
  CHECK(f[0].at("type") == "accepted");
  CHECK(f[0].at("seq") == 1);
  CHECK(f[1].at("type") == "update");
  CHECK(f[1].at("seq") == 1);
  // second's end_turn ran after the first was durable, as seq 2.
  auto s = second.c.take();
  CHECK(find_type(s, "accepted") != nullptr);
  CHECK(find_type(s, "accepted")->at("seq") == 2);
  auto l = late.take();
  REQUIRE(l.size() >= 2);
  CHECK(l[0].at("type") == "spectating");
  CHECK(l[1].at("type") == "state");
  CHECK(l[1].at("seq") == 2);  // it waited behind both writes
  CHECK(l.size() == 2);
  CHECK(read_ok(inner.reader().load_unfinished())[0].actions.size() == 2);
}

TEST_CASE("room: hello.acks in_update: the actor's update carries its act's id instead of an accepted") {
  harness h;
  auto host = h.connect();
  const auto room = h.create_room(host);
  // ann asks for acks in her updates; bob keeps the default.
  client ann = h.connect(false);
  ann.say({{"type", "hello"}, {"version", 1}, {"acks", "in_update"}});
  ann.expect("welcome");
  client bob = h.connect();
  ann.say({{"type", "join"}, {"room", room}, {"name", "ann"}, {"deck", {{"preconstructed", 1}}}});
  const int ann_seat = ann.expect("joined").at("seat").get<int>();
  bob.say({{"type", "join"}, {"room", room}, {"name", "bob"}, {"deck", {{"preconstructed", 2}}}});
  auto started = bob.take();
  REQUIRE(find_type(started, "state"));
  int turn_of = active(*find_type(started, "state"));
  ann.take();

  // Two end_turns: one by each seat, whichever goes first.
  for (int seq = 1; seq <= 2; ++seq) {
    const bool ann_acts = turn_of == ann_seat;
    auto& actor = ann_acts ? ann : bob;
    actor.say({{"type", "act"}, {"id", 40 + seq}, {"action", {{"type", "end_turn"}}}});
    auto a = ann.take();
    auto b = bob.take();
    REQUIRE(find_type(a, "update"));
    REQUIRE(find_type(b, "update"));
    CHECK(find_type(a, "update")->at("seq") == seq);
    CHECK(find_type(b, "update")->at("seq") == seq);
    if (ann_acts) {
      CHECK(count_type(a, "accepted") == 0);
      CHECK(find_type(a, "update")->at("id") == 40 + seq);
      CHECK(!find_type(b, "update")->contains("id"));  // only the actor's copy
    } else {
      REQUIRE(find_type(b, "accepted"));
      CHECK(find_type(b, "accepted")->at("id") == 40 + seq);
      CHECK(!find_type(b, "update")->contains("id"));  // bob asked for nothing
      CHECK(!find_type(a, "update")->contains("id"));
    }
    turn_of = active(*find_type(a, "update"));
  }
  // A refused act still gets its error reply.
  auto& idle = turn_of == ann_seat ? bob : ann;
  idle.say({{"type", "act"}, {"id", 99}, {"action", {{"type", "end_turn"}}}});
  auto e = idle.expect("error");
  CHECK(e.at("id") == 99);
  // A bad acks value is a protocol error naming the field.
  client odd = h.connect(false);
  odd.say({{"type", "hello"}, {"version", 1}, {"acks", "sometimes"}});
  auto bad = odd.expect("error");
  CHECK(bad.at("code") == "bad_field_value");
  CHECK(bad.at("field") == "acks");
}

TEST_CASE("room: constructed lists are secret while waiting, then in every state of the match (R14.6)") {
  harness h;
  auto host = h.connect();
  const auto room = h.create_room(host, json::object(), "constructed");
  const json ann_list = {"parasite", "microctopus", "scribe", "baron", "alpha", "brute", "carapace", "mutant"};
  const json bob_list = {"assassin", "reptile", "aberration", "carnivore", "grrr", "vortex", "disciple", "troll"};
  auto ann = h.connect();
  ann.say({{"type", "join"}, {"room", room}, {"name", "ann"}, {"deck", {{"cards", ann_list}}}});
  const auto ja = ann.expect("joined");
  // Waiting: nothing a lobby or a spectator gets shows ann's list.
  auto lobby = h.connect();
  lobby.say({{"type", "list_rooms"}});
  lobby.say({{"type", "spectate"}, {"room", room}});
  for (const auto& m : lobby.take()) CHECK(m.dump().find("parasite") == std::string::npos);
  auto bob = h.connect();
  bob.say({{"type", "join"}, {"room", room}, {"name", "bob"}, {"deck", {{"cards", bob_list}}}});
  const json want = json::array({{{"seat", ja.at("seat")}, {"cards", ann_list}},
                                 {{"seat", 1 - ja.at("seat").get<int>()}, {"cards", bob_list}}});
  const json want_sorted = ja.at("seat") == 0 ? want : json::array({want[1], want[0]});
  for (auto* c : {&ann, &bob, &lobby}) {
    auto msgs = c->take();
    REQUIRE(find_type(msgs, "state"));
    CHECK(find_type(msgs, "state")->at("decks") == want_sorted);
  }
  // A reconnecting seat sees them again.
  auto back = h.connect();
  back.say({{"type", "resume"}, {"room", room}, {"token", ja.at("token")}});
  auto r = back.take();
  REQUIRE(find_type(r, "state"));
  CHECK(find_type(r, "state")->at("decks") == want_sorted);
  // RULING E82: a preconstructed match lists its decks too, each seat's
  // chosen deck by its cards.
  const auto other = h.create_room(host);
  auto [a, b] = h.start_duel(other);
  REQUIRE(a.state.contains("decks"));
  REQUIRE(a.state.at("decks").size() == 2);
  CHECK(a.state.at("decks") == b.state.at("decks"));
  for (const auto& d : a.state.at("decks")) {
    CHECK(d.at("cards").size() == 8);
    bool a_precon = false;
    for (int n = 1; n <= 4; ++n) {
      json list = json::array();
      for (cod::card_id c : shipped().preconstructed_deck(n)) list.push_back(shipped().def(c).id);
      a_precon |= list == d.at("cards");
    }
    CHECK(a_precon);
  }
}

TEST_CASE("room: a preconstructed deck in a constructed room is listed by its cards when the match starts (R14.6)") {
  harness h;
  auto host = h.connect();
  const auto room = h.create_room(host, json::object(), "constructed");
  const json ann_list = {"parasite", "microctopus", "scribe", "baron", "alpha", "brute", "carapace", "mutant"};
  auto ann = h.connect();
  ann.say({{"type", "join"}, {"room", room}, {"name", "ann"}, {"deck", {{"cards", ann_list}}}, {"seat", 0}});
  ann.expect("joined");
  auto bob = h.connect();
  bob.say({{"type", "join"}, {"room", room}, {"name", "bob"}, {"deck", {{"preconstructed", 3}}}, {"seat", 1}});
  json deck3 = json::array();
  for (cod::card_id c : shipped().preconstructed_deck(3)) deck3.push_back(shipped().def(c).id);
  REQUIRE(deck3.size() == 8);
  const json want = json::array({{{"seat", 0}, {"cards", ann_list}}, {{"seat", 1}, {"cards", deck3}}});
  for (auto* c : {&ann, &bob}) {
    auto msgs = c->take();
    REQUIRE(find_type(msgs, "state"));
    CHECK(find_type(msgs, "state")->at("decks") == want);
  }
}

TEST_CASE("room: a full backlog answers server_busy") {
  config cfg = test_config();
  cfg.max_room_backlog = 1;
  memory_store inner(memory_store::callbacks::run_inline);
  held_store store(inner);
  harness h(cfg, &store);
  auto host = h.connect();
  const auto room = h.create_room(host);
  auto [a, b] = h.start_duel(room);
  auto& first = active(a.state) == a.seat ? a : b;
  store.hold = true;
  first.c.say({{"type", "act"}, {"id", 1}, {"action", {{"type", "end_turn"}}}});
  first.c.say({{"type", "act"}, {"id", 2}, {"action", {{"type", "end_turn"}}}});  // queued
  first.c.say({{"type", "act"}, {"id", 3}, {"action", {{"type", "end_turn"}}}});  // over the backlog
  auto busy = first.c.expect("error");
  CHECK(busy.at("code") == "server_busy");
  CHECK(busy.at("id") == 3);
  store.hold = false;
  store.release();
  h.ex->run();
  auto msgs = first.c.take();
  CHECK(find_type(msgs, "accepted")->at("id") == 1);
  const json* err = find_type(msgs, "error");
  REQUIRE(err);
  CHECK(err->at("code") == "not_your_turn");  // id 2, after the turn passed
  CHECK(err->at("id") == 2);
}

TEST_CASE("room: a store write that waits (the database locked) pauses the room and tells its people, then goes on") {
  memory_store inner(memory_store::callbacks::run_inline);
  held_store store(inner);
  harness h(test_config(), &store);
  auto host = h.connect();
  const auto room = h.create_room(host);
  auto [a, b] = h.start_duel(room);
  auto& first = active(a.state) == a.seat ? a : b;
  auto& second = &first == &a ? b : a;
  auto watcher = h.connect();
  watcher.say({{"type", "spectate"}, {"room", room}});
  watcher.take();
  const auto notices = [](const std::vector<json>& msgs) {
    std::vector<json> out;
    for (const auto& m : msgs)
      if (m.at("type") == "notice") out.push_back(m);
    return out;
  };

  store.hold = true;  // the store waits (SQLite: another process holds the write lock)
  first.c.say({{"type", "act"}, {"id", 1}, {"action", {{"type", "end_turn"}}}});
  h.ex->advance(store_wait_notice - std::chrono::milliseconds(1));
  CHECK(first.c.peer->pending() == 0);  // a short wait shows nothing
  CHECK(second.c.peer->pending() == 0);
  h.ex->advance(std::chrono::milliseconds(1));
  for (client* c : {&first.c, &second.c, &watcher}) {
    const auto n = notices(c->take());
    REQUIRE(n.size() == 1);
    CHECK(n[0].at("code") == "store_waiting");
    CHECK(n[0].at("room") == room);
    CHECK(n[0].at("message").get<std::string>().find("paused") != std::string::npos);
  }
  // Requests wait meanwhile; a long wait sends nothing more.
  second.c.say({{"type", "act"}, {"id", 2}, {"action", {{"type", "end_turn"}}}});
  h.ex->advance(std::chrono::seconds(30));
  CHECK(first.c.peer->pending() == 0);
  CHECK(second.c.peer->pending() == 0);
  CHECK(watcher.peer->pending() == 0);

  // Stored: the room goes on, each action in order, after the notice.
  store.hold = false;
  store.release();
  h.ex->run();
  const auto f = first.c.take();
  REQUIRE(f.size() >= 3);
  CHECK(f[0].at("type") == "notice");
  CHECK(f[0].at("code") == "store_resumed");
  CHECK(f[1].at("type") == "accepted");
  CHECK(f[1].at("id") == 1);
  CHECK(f[2].at("type") == "update");
  CHECK(f[2].at("seq") == 1);
  const auto s = second.c.take();
  REQUIRE(!s.empty());
  CHECK(s[0].at("code") == "store_resumed");
  CHECK(notices(s).size() == 1);
  const json* accepted = find_type(s, "accepted");
  REQUIRE(accepted);
  CHECK(accepted->at("id") == 2);  // its act, held in the backlog, ran after
  CHECK(accepted->at("seq") == 2);
  CHECK(notices(watcher.take()).size() == 1);
  const auto list = read_ok(inner.reader().list_matches({}));
  REQUIRE(list.size() == 1);
  CHECK(read_ok(inner.reader().load_match(list[0].match_id))->actions.size() == 2);
}

TEST_CASE("room: the turn clock does not run while a store write waits (nobody times out for the database)") {
  memory_store inner(memory_store::callbacks::run_inline);
  held_store store(inner);
  harness h(test_config(), &store);
  auto host = h.connect();
  const auto room = h.create_room(host, {{"turn_clock", {{"bank_ms", 10000}, {"increment_ms", 0}}}});
  auto [a, b] = h.start_duel(room);
  auto& first = active(a.state) == a.seat ? a : b;
  auto& second = &first == &a ? b : a;
  h.ex->advance(std::chrono::seconds(1));  // the first seat uses 1 s of its 10
  store.hold = true;
  first.c.say({{"type", "act"}, {"id", 1}, {"action", {{"type", "end_turn"}}}});
  // A wait three times the second seat's whole bank: it must not concede.
  h.ex->advance(std::chrono::seconds(30));
  CHECK(second.c.expect("notice").at("code") == "store_waiting");
  store.hold = false;
  store.release();
  h.ex->run();
  const auto msgs = second.c.take();
  INFO(json(msgs).dump());
  CHECK(find_type(msgs, "match_over") == nullptr);
  // The last clock message: the second seat's turn, its bank whole.
  const json* last_clock = nullptr;
  for (const auto& m : msgs)
    if (m.at("type") == "clock") last_clock = &m;
  REQUIRE(last_clock);
  CHECK(last_clock->at("seat") == second.seat);
  CHECK(last_clock->at("remaining_ms") == 10000);
  // And it runs again from now: 10 s later the second seat runs out.
  h.ex->advance(std::chrono::milliseconds(9999));
  CHECK(find_type(second.c.take(), "match_over") == nullptr);
  h.ex->advance(std::chrono::milliseconds(2));
  CHECK(find_type(second.c.take(), "match_over") != nullptr);
}

TEST_CASE("room: a store write that waits past the store's bound fails: the match is abandoned as before") {
  memory_store inner(memory_store::callbacks::run_inline);
  held_store store(inner);
  harness h(test_config(), &store);
  auto host = h.connect();
  const auto room = h.create_room(host);
  auto [a, b] = h.start_duel(room);
  auto& first = active(a.state) == a.seat ? a : b;
  auto& second = &first == &a ? b : a;
  // The store waits, then gives up (store_busy_max_sec): the write fails.
  inner.fail_writes(true);
  store.hold = true;
  first.c.say({{"type", "act"}, {"id", 1}, {"action", {{"type", "end_turn"}}}});
  h.ex->advance(store_wait_notice);
  CHECK(first.c.expect("notice").at("code") == "store_waiting");
  CHECK(second.c.expect("notice").at("code") == "store_waiting");
  store.hold = false;
  store.release();
  h.ex->run();
  for (client* c : {&first.c, &second.c}) {
    const auto msgs = c->take();
    INFO(json(msgs).dump());
    CHECK(find_type(msgs, "notice") == nullptr);  // no store_resumed: it was not stored
    CHECK(find_type(msgs, "update") == nullptr);
    REQUIRE(find_type(msgs, "error"));
    CHECK(find_type(msgs, "error")->at("code") == "internal_error");
  }
  CHECK(h.stats.persistence_errors_total == 1);
}

namespace {
// A store that answers each write before the call returns (the writes of
// `inner`, a threaded store, flushed): the manual executor's tests run on it.
class flushed_store final : public match_store {
 public:
  explicit flushed_store(match_store& inner) : inner_(inner) {}
  void create_match(const match_record& m, done_fn done) override { inner_.create_match(m, std::move(done)), flush(); }
  void append_action(const std::string& id, const action_record& a, done_fn done) override {
    inner_.append_action(id, a, std::move(done));
    flush();
  }
  void finish_match(const std::string& id, const match_result& r, done_fn done) override {
    inner_.finish_match(id, r, std::move(done));
    flush();
  }
  void append_note(const std::string& id, std::int64_t at, const std::string& text) override {
    inner_.append_note(id, at, text);
    flush();
  }
  void append_draft(const std::string& id, const std::vector<draft_event_record>& rows, done_fn done) override {
    inner_.append_draft(id, rows, std::move(done));
    flush();
  }
  void save_tournament(const stored_tournament& t, done_fn done) override {
    inner_.save_tournament(t, std::move(done));
    flush();
  }
  void record_audit(const audit_record& r, done_fn done) override {
    inner_.record_audit(r, std::move(done));
    flush();
  }
  void save_league(const stored_league& l, done_fn done) override {
    inner_.save_league(l, std::move(done));
    flush();
  }
  match_reader& reader() override { return inner_.reader(); }
  void flush() override { inner_.flush(); }
  std::size_t pending() const override { return inner_.pending(); }
  std::uint64_t commits() const override { return inner_.commits(); }
  store_health health() const override { return inner_.health(); }

 private:
  match_store& inner_;
};

// Another process's transaction on a SQLite file: BEGIN IMMEDIATE now, COMMIT
// after `hold` (on a thread of its own).
class write_lock_holder {
 public:
  write_lock_holder(const std::string& path, std::chrono::milliseconds hold) {
    REQUIRE(sqlite3_open(path.c_str(), &db_) == SQLITE_OK);
    REQUIRE(sqlite3_exec(db_, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr) == SQLITE_OK);
    thread_ = std::thread([this, hold] {
      std::this_thread::sleep_for(hold);
      sqlite3_exec(db_, "COMMIT", nullptr, nullptr, nullptr);
    });
  }
  ~write_lock_holder() {
    thread_.join();
    sqlite3_close(db_);
  }
  write_lock_holder(const write_lock_holder&) = delete;
  write_lock_holder& operator=(const write_lock_holder&) = delete;

 private:
  sqlite3* db_ = nullptr;
  std::thread thread_;
};
}  // namespace

TEST_CASE("room on SQLite: another process's write lock held past busy_timeout_ms is waited out; past the bound the "
          "match is abandoned") {
  const auto dir = std::filesystem::temp_directory_path() / ("cod-room-locked-" + std::to_string(std::random_device{}()));
  std::filesystem::create_directories(dir);
  struct cleanup {
    std::filesystem::path p;
    ~cleanup() {
      std::error_code ec;
      std::filesystem::remove_all(p, ec);
    }
  } const remove_dir{dir};
  const std::string path = (dir / "cod.db").string();
  // store_busy_max_sec and SQLite's busy timeout, scaled down: each try
  // waits 100 ms, the writer keeps trying for 1 s.
  auto opened = sqlite_store::open({.path = path, .busy_timeout_ms = 100, .busy_max_ms = 1000});
  REQUIRE_MESSAGE(opened, opened.error().message());
  auto sqlite = std::move(*opened);
  flushed_store store(*sqlite);
  harness h(test_config(), &store);
  auto host = h.connect();
  const auto room = h.create_room(host);
  auto [a, b] = h.start_duel(room);
  auto* first = active(a.state) == a.seat ? &a : &b;
  auto* second = first == &a ? &b : &a;
  {
    // Locked for 500 ms, five times busy_timeout_ms (which used to end the match).
    const write_lock_holder other(path, std::chrono::milliseconds(500));
    const auto r = act(first->c, {{"type", "end_turn"}});
    REQUIRE(find_type(r, "accepted"));
    CHECK(find_type(r, "accepted")->at("seq") == 1);
    CHECK(find_type(r, "error") == nullptr);
    CHECK(find_type(second->c.take(), "update"));
  }
  {
    const write_lock_holder other(path, std::chrono::milliseconds(250));
    const auto r = act(second->c, {{"type", "end_turn"}}, 2);
    REQUIRE(find_type(r, "accepted"));
    CHECK(find_type(r, "accepted")->at("seq") == 2);
    first->c.take();
  }
  CHECK(h.stats.persistence_errors_total == 0);
  const auto list = read_ok(sqlite->reader().list_matches({}));
  REQUIRE(list.size() == 1);
  const auto stored = read_ok(sqlite->reader().load_match(list[0].match_id));
  REQUIRE(stored);
  REQUIRE(stored->actions.size() == 2);
  CHECK(stored->actions[0].seq == 1);
  CHECK(stored->actions[1].seq == 2);
  CHECK(stored->actions[0].seat == first->seat);
  CHECK(stored->actions[1].seat == second->seat);
  {
    // Past the bound: the write fails, the match ends as before.
    const write_lock_holder other(path, std::chrono::milliseconds(1500));
    const auto r = act(first->c, {{"type", "end_turn"}}, 3);
    CHECK(find_type(r, "accepted") == nullptr);
    REQUIRE(find_type(r, "error"));
    CHECK(find_type(r, "error")->at("code") == "internal_error");
    CHECK(h.stats.persistence_errors_total == 1);
  }
  CHECK(read_ok(sqlite->reader().load_match(list[0].match_id))->actions.size() == 2);
}

namespace {
// A started duel on a store the test can make fail (callbacks inline).
struct duel_on_memory_store {
  memory_store store{memory_store::callbacks::run_inline};
  harness h{test_config(), &store};
  client host = h.connect();
  std::pair<harness::seated, harness::seated> seats = h.start_duel(h.create_room(host));
  harness::seated& first = active(seats.first.state) == seats.first.seat ? seats.first : seats.second;
  harness::seated& second = &first == &seats.first ? seats.second : seats.first;

  // The one match the store holds.
  stored_match only_match() {
    auto list = read_ok(store.reader().list_matches({}));
    REQUIRE(list.size() == 1);
    auto stored = read_ok(store.reader().load_match(list[0].match_id));
    REQUIRE(stored);
    return *stored;
  }
};
}  // namespace

TEST_CASE("room: a store failure abandons the match, never shows unsaved state") {
  duel_on_memory_store d;
  auto& store = d.store;
  auto& h = d.h;
  auto& first = d.first;
  auto& second = d.second;
  store.fail_writes(true);
  auto r = act(first.c, {{"type", "end_turn"}});
  CHECK(find_type(r, "accepted") == nullptr);
  CHECK(find_type(r, "update") == nullptr);
  CHECK(find_type(r, "error")->at("code") == "internal_error");
  auto s = second.c.take();
  CHECK(find_type(s, "update") == nullptr);
  CHECK(find_type(s, "error")->at("code") == "internal_error");
  CHECK(h.stats.persistence_errors_total == 1);
  // Later acts are refused: the match is over for the server.
  auto later = act(second.c, {{"type", "end_turn"}});
  CHECK(find_type(later, "error")->at("code") == "internal_error");
  store.fail_writes(false);
  // The disk is still failing when the room records the abort, so the row
  // stays "playing": a restart resumes the match from its last stored action
  // (docs/persistence.md, "A match the server stops").
  const auto stored = d.only_match();
  CHECK_FALSE(stored.finished());
  CHECK(stored.actions.empty());
}

TEST_CASE("room: a transient store failure aborts the match and the record says so") {
  duel_on_memory_store d;
  auto& store = d.store;
  auto& h = d.h;
  auto& first = d.first;
  auto& second = d.second;
  act(first.c, {{"type", "end_turn"}});
  second.c.take();
  store.fail_next_writes(1);  // the next append only
  auto r = act(second.c, {{"type", "end_turn"}});
  CHECK(find_type(r, "update") == nullptr);
  CHECK(find_type(r, "error")->at("code") == "internal_error");
  CHECK(find_type(first.c.take(), "error")->at("code") == "internal_error");
  h.ex->run();
  const auto stored = d.only_match();
  REQUIRE(stored.finished());
  CHECK(stored.result->reason == "aborted");
  CHECK(stored.result->winners.empty());
  CHECK(stored.actions.size() == 1);  // the failed action is not in the log
  REQUIRE_FALSE(stored.notes.empty());
  CHECK(stored.notes.back().text == "an action could not be saved");
  // A restart leaves it alone, and verify accepts a match the server stopped.
  CHECK(read_ok(store.reader().load_unfinished()).empty());
  const auto v = check_verifies(stored);
  CHECK(v.ok);
}

TEST_CASE("room: resume by token, wrong token refused, grace period then concession") {
  harness h;
  auto host = h.connect();
  const auto room = h.create_room(host);
  auto [a, b] = h.start_duel(room);
  auto& first = active(a.state) == a.seat ? a : b;
  act(first.c, {{"type", "end_turn"}});
  (&first == &a ? b : a).c.take();

  a.c.disconnect();
  auto st = b.c.expect("seat_status");
  CHECK(st.at("seat") == a.seat);
  CHECK(st.at("connected") == false);

  auto thief = h.connect();
  thief.say({{"type", "resume"}, {"room", room}, {"token", std::string(32, 'a')}});
  CHECK(thief.expect("error").at("code") == "bad_token");
  std::string near = b.token;  // b's token with its last digit changed
  near.back() = near.back() == '0' ? '1' : '0';
  thief.say({{"type", "resume"}, {"room", room}, {"token", near}});
  CHECK(thief.expect("error").at("code") == "bad_token");

  auto back = h.connect();
  back.say({{"type", "resume"}, {"id", 5}, {"room", room}, {"token", a.token}});
  auto msgs = back.take();
  REQUIRE(find_type(msgs, "joined"));
  CHECK(find_type(msgs, "joined")->at("seat") == a.seat);
  CHECK(find_type(msgs, "joined")->at("id") == 5);
  REQUIRE(find_type(msgs, "state"));
  CHECK(find_type(msgs, "state")->at("seq") == 1);
  CHECK(find_type(msgs, "state")->at("view").at("viewer") == a.seat);
  CHECK(b.c.expect("seat_status").at("connected") == true);

  // Gone again, for longer than the grace period: a concedes.
  back.disconnect();
  b.c.take();
  h.ex->advance(29s);
  CHECK(b.c.peer->pending() == 0);
  h.ex->advance(2s);
  auto end = b.c.take();
  const json* over = find_type(end, "match_over");
  REQUIRE(over);
  CHECK(over->at("winners") == json::array({b.seat}));
  const std::string seed = over->at("seed").get<std::string>();
  CHECK(seed_commitment(std::stoull(seed)) == a.state.at("seed_hash"));
  CHECK(find_type(end, "update") != nullptr);
  auto stored = read_ok(h.store->reader().load_match(read_ok(h.store->reader().list_matches({}))[0].match_id));
  REQUIRE(stored);
  CHECK(stored->finished());
  REQUIRE(!stored->notes.empty());
  CHECK(stored->notes.back().text.find("grace") != std::string::npos);
  CHECK(h.stats.matches_finished_total == 1);

  // After the end the room stays listed, then goes.
  CHECK(h.rooms->find(room) != nullptr);
  h.ex->advance(101s);
  CHECK(h.rooms->find(room) == nullptr);
  CHECK(b.c.expect("left").at("room") == room);
}

TEST_CASE("room: a second connection with the same token takes the seat over") {
  harness h;
  auto host = h.connect();
  const auto room = h.create_room(host);
  auto [a, b] = h.start_duel(room);
  auto again = h.connect();
  again.say({{"type", "resume"}, {"room", room}, {"token", a.token}});
  CHECK(again.expect("state").at("view").at("viewer") == a.seat);
  CHECK(a.c.expect("left").at("room") == room);
  a.c.say({{"type", "act"}, {"action", {{"type", "end_turn"}}}});
  CHECK(a.c.expect("error").at("code") == "not_seated");
}

TEST_CASE("room: the turn clock concedes a seat whose bank runs out") {
  harness h;
  auto host = h.connect();
  const auto room =
      h.create_room(host, {{"turn_clock", {{"bank_ms", 2000}, {"increment_ms", 500}}}, {"exhaustion", true}});
  auto [a, b] = h.start_duel(room);
  const int first = active(a.state);
  REQUIRE(a.state.contains("clock"));
  const auto& clock = a.state.at("clock");
  CHECK(clock.at("running_seat") == first);
  CHECK(clock.at("remaining_ms")[first] == 2500);  // bank + the first turn's increment
  CHECK(clock.at("remaining_ms")[1 - first] == 2000);
  const json* clock_msg = find_type(a.msgs, "clock");
  REQUIRE(clock_msg);
  CHECK(clock_msg->at("seat") == first);
  CHECK(clock_msg->at("remaining_ms") == 2500);

  auto& mover = first == a.seat ? a : b;
  auto& other = first == a.seat ? b : a;
  h.ex->advance(1000ms);
  auto r = act(mover.c, {{"type", "end_turn"}});
  const json* up = find_type(r, "update");
  REQUIRE(up);
  CHECK(up->at("clock").at("remaining_ms")[first] == 1500);
  CHECK(up->at("clock").at("running_seat") == 1 - first);
  CHECK(find_type(r, "clock")->at("seat") == 1 - first);
  CHECK(find_type(r, "clock")->at("remaining_ms") == 2500);
  other.c.take();

  // The other seat lets its 2.5 s run out.
  h.ex->advance(2400ms);
  CHECK(find_type(other.c.take(), "match_over") == nullptr);
  h.ex->advance(200ms);
  auto end = mover.c.take();
  const json* over = find_type(end, "match_over");
  REQUIRE(over);
  CHECK(over->at("winners") == json::array({first}));
  auto stored = read_ok(h.store->reader().load_match(read_ok(h.store->reader().list_matches({}))[0].match_id));
  REQUIRE(stored);
  bool noted = false;
  for (auto& n : stored->notes) noted = noted || n.text.find("ran out of time") != std::string::npos;
  CHECK(noted);
}

TEST_CASE("room: a waiting room expires; a dropped seat is freed after the grace period") {
  harness h;
  auto host = h.connect();
  const auto room = h.create_room(host);
  auto a = h.connect();
  a.say({{"type", "join"}, {"room", room}, {"name", "ann"}, {"deck", {{"preconstructed", 1}}}});
  a.take();
  a.disconnect();
  h.ex->advance(31s);
  host.say({{"type", "list_rooms"}});
  CHECK(host.expect("rooms").at("rooms")[0].at("seats")[0].at("taken") == false);

  auto b = h.connect();
  b.say({{"type", "join"}, {"room", room}, {"name", "bob"}, {"deck", {{"preconstructed", 1}}}});
  b.take();
  h.ex->advance(600s);
  CHECK(h.rooms->find(room) == nullptr);
  CHECK(b.expect("left").at("room") == room);
  CHECK(h.stats.rooms == 0);
}

TEST_CASE("room: a whole duel with random moves from the views; the stored log verifies") {
  harness h;
  auto host = h.connect();
  const auto room = h.create_room(host, {{"exhaustion", true}});
  auto spec = h.spectator(room);
  auto [a, b] = h.start_duel(room);
  spec.take();
  std::mt19937 rng(12345);
  json views[2] = {a.state.at("view"), b.state.at("view")};
  client* clients[2] = {&a.c, &b.c};
  std::int64_t seq = 0;
  bool over = false;
  int rejected = 0;
  std::vector<std::int64_t> spec_seqs;
  for (int step = 0; step < 3000 && !over; ++step) {
    const int s = views[0].at("active_seat").get<int>();
    auto moves = moves_from_view(views[s], shipped());
    REQUIRE(!moves.empty());
    const auto& mv = moves[rng() % moves.size()];
    auto r = act(*clients[s], mv, step);
    if (find_type(r, "error")) {
      ++rejected;  // e.g. line_full: the view does not tell everything
      CHECK(find_type(r, "update") == nullptr);
      continue;
    }
    ++seq;
    REQUIRE(find_type(r, "accepted"));
    CHECK(find_type(r, "accepted")->at("seq") == seq);
    for (int k = 0; k < 2; ++k) {
      auto msgs = k == s ? r : clients[k]->take();
      const json* up = nullptr;
      for (auto& m : msgs)
        if (m.at("type") == "update") up = &m;
      REQUIRE(up);
      CHECK(up->at("seq") == seq);
      views[k] = up->at("view");
      for (auto& m : msgs) over = over || m.at("type") == "match_over";
    }
    for (auto& m : spec.take())
      if (m.at("type") == "update") spec_seqs.push_back(m.at("seq").get<std::int64_t>());
  }
  if (!over) {
    auto r = act(a.c, {{"type", "concede"}});
    ++seq;
    b.c.take();
    over = find_type(r, "match_over") != nullptr;
    for (auto& m : spec.take())
      if (m.at("type") == "update") spec_seqs.push_back(m.at("seq").get<std::int64_t>());
  }
  CHECK(over);
  REQUIRE(spec_seqs.size() == static_cast<std::size_t>(seq));
  for (std::size_t i = 0; i < spec_seqs.size(); ++i) CHECK(spec_seqs[i] == static_cast<std::int64_t>(i + 1));
  MESSAGE("duel: " << seq << " actions, " << rejected << " rejected tries");

  // Arriving after the end (a reload, a late spectator): the final state,
  // then the same match_over the others got, seed revealed.
  spec.take();
  auto late = h.connect();
  late.say({{"type", "spectate"}, {"room", room}});
  auto l = late.take();
  REQUIRE(l.size() == 3);
  CHECK(l[0].at("type") == "spectating");
  CHECK(l[1].at("type") == "state");
  CHECK(l[1].at("view").at("phase") == "game_over");
  CHECK(l[2].at("type") == "match_over");
  CHECK(l[2].contains("seed"));
  a.c.say({{"type", "leave"}});
  a.c.take();
  auto back = h.connect();
  back.say({{"type", "resume"}, {"room", room}, {"token", a.token}});
  auto r = back.take();
  REQUIRE(find_type(r, "state"));
  REQUIRE(find_type(r, "match_over"));
  CHECK(*find_type(r, "match_over") == l[2]);

  auto list = read_ok(h.store->reader().list_matches({}));
  REQUIRE(list.size() == 1);
  auto stored = read_ok(h.store->reader().load_match(list[0].match_id));
  REQUIRE(stored);
  CHECK(stored->finished());
  CHECK(static_cast<std::int64_t>(stored->actions.size()) == seq);
  check_verifies(*stored);
  CHECK(h.stats.actions_total() == static_cast<std::uint64_t>(seq));
}

TEST_CASE("room: recovery rebuilds an unfinished match; players resume with their tokens") {
  memory_store store(memory_store::callbacks::run_inline);
  std::string room;
  std::string tokens[2];
  json last_view[2];
  std::int64_t seq = 0;
  {
    harness h(test_config(), &store);
    auto host = h.connect();
    room = h.create_room(host, {{"turn_clock", {{"bank_ms", 60000}, {"increment_ms", 0}}}});
    auto [a, b] = h.start_duel(room);
    tokens[a.seat] = a.token;
    tokens[b.seat] = b.token;
    json views[2] = {a.state.at("view"), b.state.at("view")};
    client* clients[2] = {&a.c, &b.c};
    std::mt19937 rng(7);
    while (seq < 8) {
      const int s = views[0].at("active_seat").get<int>();
      auto moves = moves_from_view(views[s], shipped());
      auto r = act(*clients[s], prefer_play(moves, rng));
      if (!find_type(r, "accepted")) continue;
      ++seq;
      views[s] = find_type(r, "update")->at("view");
      views[1 - s] = find_type(clients[1 - s]->take(), "update")->at("view");
    }
    last_view[0] = views[0];
    last_view[1] = views[1];
    h.crash();  // the "crash": nothing more happens to this room
  }
  harness h2(test_config(), &store);
  h2.recover_one();
  REQUIRE(h2.rooms->find(room));
  for (int s = 0; s < 2; ++s) REQUIRE(h2.resume_recovered(room, tokens[s], s, seq, last_view[s]).contains("clock"));
  auto c = h2.connect();
  c.say({{"type", "resume"}, {"room", room}, {"token", std::string(32, '0')}});
  CHECK(c.expect("error").at("code") == "bad_token");
}

TEST_CASE("room: a waiting room is not stored: after a restart its token finds no room") {
  // docs/protocol.md, "Reconnecting": only started matches come back.
  memory_store store(memory_store::callbacks::run_inline);
  std::string room, token;
  {
    harness h(test_config(), &store);
    auto host = h.connect();
    room = h.create_room(host);
    auto a = h.connect();
    a.say({{"type", "join"}, {"room", room}, {"name", "ann"}, {"deck", {{"preconstructed", 1}}}});
    token = a.expect("joined").at("token").get<std::string>();
    h.crash();
  }
  CHECK(read_ok(store.reader().list_matches({})).empty());
  CHECK(read_ok(store.reader().load_unfinished()).empty());
  harness h2(test_config(), &store);
  CHECK(h2.rooms->recover(read_ok(store.reader().load_unfinished())) == 0);
  auto c = h2.connect();
  c.say({{"type", "resume"}, {"room", room}, {"token", token}});
  CHECK(c.expect("error").at("code") == "room_not_found");
}

TEST_CASE("room: a match that ended before a restart comes back finished, for its result only") {
  // docs/protocol.md, "Reconnecting": the last action and the result were
  // stored, then the server went before a player saw match_over.
  memory_store store(memory_store::callbacks::run_inline);
  std::string room, tokens[2];
  json over_before, final_view[2];
  {
    harness h(test_config(), &store);
    auto host = h.connect();
    room = h.create_room(host);
    auto [a, b] = h.start_duel(room);
    tokens[a.seat] = a.token;
    tokens[b.seat] = b.token;
    auto r = act(a.c, {{"type", "concede"}});
    REQUIRE(find_type(r, "match_over"));
    over_before = *find_type(r, "match_over");
    final_view[a.seat] = find_type(r, "update")->at("view");
    final_view[b.seat] = find_type(b.c.take(), "update")->at("view");
    h.crash();
  }
  REQUIRE(read_ok(store.reader().load_unfinished()).empty());
  const auto finished = read_ok(store.reader().load_finished_since(0));
  REQUIRE(finished.size() == 1);
  const std::int64_t ended = finished[0].result->ended_ms;

  harness h2(test_config(), &store);
  h2.wall = ended + 30'000 - 1000;  // restarted 30 s after the end (wall_ms adds 1000 per call)
  CHECK(h2.rooms->recover(finished) == 1);
  h2.ex->run();
  for (int s = 0; s < 2; ++s) {
    auto c = h2.connect();
    c.say({{"type", "resume"}, {"room", room}, {"token", tokens[s]}});
    auto msgs = c.take();
    INFO(json(msgs).dump());
    REQUIRE(msgs.size() == 3);
    CHECK(msgs[0].at("type") == "joined");
    CHECK(msgs[0].at("seat") == s);
    CHECK(msgs[1].at("type") == "state");
    CHECK(msgs[1].at("seq") == 1);
    CHECK(msgs[1].at("view") == final_view[s]);
    CHECK(msgs[2] == over_before);
    CHECK(seed_commitment(std::stoull(msgs[2].at("seed").get<std::string>())) == msgs[1].at("seed_hash"));
    // Nothing more can happen in it.
    auto r = act(c, {{"type", "end_turn"}});
    REQUIRE(r.size() == 1);
    CHECK(r[0].at("type") == "error");
  }
  auto bad = h2.connect();
  bad.say({{"type", "resume"}, {"room", room}, {"token", std::string(32, '0')}});
  CHECK(bad.expect("error").at("code") == "bad_token");
  CHECK(list_one(bad).at("status") == "finished");
  // Stored as it was: not finished twice, no note.
  CHECK(read_ok(store.reader().load_match(finished[0].match.match_id))->result == finished[0].result);
  CHECK(read_ok(store.reader().load_match(finished[0].match.match_id))->notes.empty());
  // It closes when the room would have: finished_room_ttl_sec (100 s) after
  // the stored end, 70 s after the restart; no seat is conceded meanwhile.
  h2.ex->advance(std::chrono::seconds(69));
  CHECK(h2.rooms->find(room));
  h2.ex->advance(std::chrono::seconds(2));
  CHECK(h2.rooms->find(room) == nullptr);
}

TEST_CASE("room: after a restart at most max_rooms finished matches come back, the newest") {
  // As many finished rooms as a running server keeps (docs/protocol.md,
  // Limits): a restart does not bring back every match of the last
  // finished_room_ttl_sec.
  memory_store store(memory_store::callbacks::run_inline);
  std::vector<std::string> rooms;
  {
    harness h(test_config(), &store);
    for (int i = 0; i < 3; ++i) {
      auto host = h.connect();
      rooms.push_back(h.create_room(host));
      auto [a, b] = h.start_duel(rooms.back());
      REQUIRE(find_type(act(a.c, {{"type", "concede"}}), "match_over"));
    }
    h.crash();
  }
  const auto finished = read_ok(store.reader().load_finished_since(0));
  REQUIRE(finished.size() == 3);
  auto cfg = test_config();
  cfg.max_rooms = 2;
  harness h2(cfg, &store);
  h2.wall = finished[0].result->ended_ms;
  CHECK(h2.rooms->recover(finished) == 2);
  h2.ex->run();
  CHECK(h2.rooms->find(rooms[0]) == nullptr);  // ended first
  CHECK(h2.rooms->find(rooms[1]));
  CHECK(h2.rooms->find(rooms[2]));
}

TEST_CASE("room: a match whose result was not stored is finished at recovery; a resume gets match_over") {
  // The other crash at the last action: the action was stored, its result not.
  memory_store played(memory_store::callbacks::run_inline);
  std::string room, token;
  {
    harness h(test_config(), &played);
    auto host = h.connect();
    room = h.create_room(host);
    auto [a, b] = h.start_duel(room);
    token = b.token;
    act(a.c, {{"type", "concede"}});
    h.crash();
  }
  auto sm = read_ok(played.reader().load_finished_since(0)).at(0);
  memory_store store(memory_store::callbacks::run_inline);  // the same, without the finish
  store.create_match(sm.match, nullptr);
  for (const auto& a : sm.actions) store.append_action(sm.match.match_id, a, nullptr);
  harness h2(test_config(), &store);
  h2.recover_one();
  CHECK(read_ok(store.reader().load_match(sm.match.match_id))->result->reason == sm.result->reason);
  auto c = h2.connect();
  c.say({{"type", "resume"}, {"room", room}, {"token", token}});
  auto over = c.expect("match_over");
  CHECK(over.at("winners") == json::array({1}));
  CHECK(std::to_string(sm.match.seed) == over.at("seed"));
}

TEST_CASE("room: leave frees the connection before `left` is sent (a client may join its next room at once)") {
  harness h;
  auto host = h.connect();
  const std::string room = h.create_room(host);
  auto [a, b] = h.start_duel(room);
  bool checked = false, attached_at_left = true;
  a.c.peer->on_send = [&](const std::string& text) {
    if (json::parse(text).at("type") != "left") return;
    checked = true;
    attached_at_left = a.c.session->attached() != nullptr;
  };
  a.c.say({{"type", "leave"}, {"id", 9}});
  REQUIRE(checked);
  CHECK_FALSE(attached_at_left);
  // A spectator's leave too.
  auto w = h.connect();
  w.say({{"type", "spectate"}, {"room", room}});
  w.take();
  checked = false;
  attached_at_left = true;
  w.peer->on_send = [&](const std::string& text) {
    if (json::parse(text).at("type") != "left") return;
    checked = true;
    attached_at_left = w.session->attached() != nullptr;
  };
  w.say({{"type", "leave"}, {"id", 10}});
  REQUIRE(checked);
  CHECK_FALSE(attached_at_left);
}

TEST_CASE("room: the stall guard (R17.25) over the wire: create_room's setting, the summary, the record; a stalled duel ends") {
  harness h;
  auto host = h.connect();
  const auto plain = h.create_room(host);
  const auto short_room = h.create_room(host, {{"stall_exhaustion_turn", 12}});
  const auto never = h.create_room(host, {{"stall_exhaustion_turn", 0}});
  // Bad values are refused, naming the field; nothing is created.
  for (const json& bad : {json(7), json(1001), json(-1)}) {
    const std::string why = refused_create(host, {{"stall_exhaustion_turn", bad}}, "duel", "preconstructed");
    CHECK(why.rfind("options.stall_exhaustion_turn: ", 0) == 0);
    CHECK(why.find("0 (never)") != std::string::npos);
  }
  host.say({{"type", "create_room"}, {"id", 10}, {"mode", "duel"}, {"format", "preconstructed"},
            {"options", {{"stall_exhaustion_turn", "40"}}}});
  CHECK(host.expect("error").at("code") == "bad_field_type");
  host.say({{"type", "list_rooms"}});
  const auto rooms = host.expect("rooms").at("rooms");
  REQUIRE(rooms.size() == 3);
  for (const auto& r : rooms) {
    const int want = r.at("room") == plain ? 40 : r.at("room") == short_room ? 12 : 0;
    CHECK(r.at("options").at("stall_exhaustion_turn") == want);
  }
  CHECK(std::any_of(rooms.begin(), rooms.end(), [&](const json& r) { return r.at("room") == never; }));

  // Both players only end their turns: the first player is exhausted from its
  // 12th turn and loses when its Stronghold is left alone (R4.6): its 8 cards
  // (R1.2) are gone at its 19th.
  auto [a, b] = h.start_duel(short_room);
  client* clients[2] = {&a.c, &b.c};
  json view = a.state.at("view");
  const int first = view.at("first_seat").get<int>();
  bool over = false;
  int removed_before_12 = 0;
  for (int step = 0; step < 200 && !over; ++step) {
    const int s = view.at("active_seat").get<int>();
    auto r = act(*clients[s], {{"type", "end_turn"}}, step);
    REQUIRE(find_type(r, "update"));
    view = find_type(r, "update")->at("view");
    for (const auto& e : find_type(r, "update")->at("events"))
      if (e.at("type") == "card_removed" && view.at("round").get<int>() < 12) ++removed_before_12;
    over = find_type(r, "match_over") != nullptr;
    clients[1 - s]->take();
  }
  REQUIRE(over);
  CHECK(removed_before_12 == 0);
  CHECK(view.at("round") == 19);
  CHECK(view.at("exhausted") == true);
  CHECK(view.at("removed").size() == 8 + 7);
  CHECK(view.at("loser") == first);

  auto list = read_ok(h.store->reader().list_matches({}));
  REQUIRE(list.size() == 1);
  auto stored = read_ok(h.store->reader().load_match(list[0].match_id));
  REQUIRE(stored);
  CHECK(json::parse(stored->match.options_json).at("stall_exhaustion_turn") == 12);
  check_verifies(*stored);
}

// Emotes (docs/protocol.md, "emote"): a closed set, from seats only, pushed
// to every seat and spectator; each connection's budget stops a flood.
TEST_CASE("emote: pushed to every seat and spectator, the sender's copy answers it; spectators, strangers, "
          "unknown emotes and floods are refused and change nothing") {
  harness h;
  auto ann = h.connect();
  const auto room = h.create_room(ann);
  ann.say({{"type", "join"}, {"room", room}, {"name", "ann"}, {"deck", {{"preconstructed", 1}}}});
  ann.expect("joined");
  auto spec = h.spectator(room);
  auto bo = h.connect();
  bo.say({{"type", "join"}, {"room", room}, {"name", "bo"}, {"deck", {{"preconstructed", 2}}}});
  bo.take();
  ann.take();
  spec.take();

  ann.say({{"type", "emote"}, {"id", 3}, {"emote", "well_played"}});
  const json mine = ann.expect("emote");
  CHECK(mine == json{{"type", "emote"}, {"id", 3}, {"room", room}, {"seat", 0}, {"name", "ann"},
                     {"emote", "well_played"}});
  const json pushed{{"type", "emote"}, {"room", room}, {"seat", 0}, {"name", "ann"}, {"emote", "well_played"}};
  CHECK(bo.expect("emote") == pushed);
  CHECK(spec.expect("emote") == pushed);

  SUBCASE("an emote outside the set: a clear error, nobody hears anything") {
    bo.say({{"type", "emote"}, {"id", 4}, {"emote", "you suck"}});
    const json e = bo.expect("error");
    CHECK(e.at("code") == "bad_field_value");
    CHECK(e.at("message").get<std::string>().find("well_played") != std::string::npos);
    CHECK(ann.take().empty());
    CHECK(spec.take().empty());
  }
  SUBCASE("a spectator does not speak; a connection in no room has nobody to speak to") {
    spec.say({{"type", "emote"}, {"id", 5}, {"emote", "oops"}});
    CHECK(spec.expect("error").at("code") == "spectator_cannot_act");
    auto stranger = h.connect();
    stranger.say({{"type", "emote"}, {"id", 6}, {"emote", "oops"}});
    CHECK(stranger.expect("error").at("code") == "not_in_room");
    CHECK(ann.take().empty());
    CHECK(bo.take().empty());
  }
  SUBCASE("a flood: the connection's budget (3 at once) drops the excess, with rate_limited") {
    for (int i = 0; i < 3; ++i) bo.say({{"type", "emote"}, {"id", 10 + i}, {"emote", "good_game"}});
    // Ann's first one took 1 of her budget, not Bo's: Bo's three all pass.
    auto got = bo.take();
    int echoed = 0, limited = 0;
    for (const auto& m : got) {
      echoed += m.at("type") == "emote";
      limited += m.at("type") == "error";
    }
    CHECK(echoed == 3);
    CHECK(limited == 0);
    bo.say({{"type", "emote"}, {"id", 13}, {"emote", "good_game"}});
    const json e = bo.expect("error");
    CHECK(e.at("code") == "rate_limited");
    CHECK(e.at("id") == 13);
    int heard = 0;
    for (const auto& m : ann.take()) heard += m.at("type") == "emote";
    CHECK(heard == 3);
  }
}
