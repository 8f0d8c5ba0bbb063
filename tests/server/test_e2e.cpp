// End to end: the whole server in-process on 127.0.0.1, an ephemeral port and
// a temporary SQLite file; Beast WebSocket and HTTP clients.
#include <doctest/doctest.h>

#include <chrono>
#include <filesystem>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include <unistd.h>

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include "../shared/catalogue.hpp"
#include "app/server.hpp"
#include "cod/protocol/catalogue_json.hpp"
#include "common/config.hpp"
#include "common/metrics.hpp"
#include "common/sha256.hpp"
#include "harness.hpp"
#include "live_harness.hpp"
#include "persist/memory/memory_store.hpp"
#include "../shared/store_reads.hpp"

using cod::server::test::moves_from_view;
using namespace cod::server::test::live;
using cod::server::test::base_config;
using cod::server::test::http_get;
using cod::server::test::live_server;
using cod::server::test::temp_dir;
using cod::server::test::ws_client;

namespace {

// Two players (and maybe a spectator) following one match: their views, the
// seqs each saw, and a generator for moves.
struct duel {
  ws_client* seats[2];
  ws_client* spectator = nullptr;
  json views[2];
  std::int64_t seq = 0;
  std::vector<std::int64_t> seen[3];  // update seqs per client (2: spectator)
  bool over = false;
  std::mt19937 rng{2024};

  // After the actor's `accepted` (already read): one update per client.
  void step(int) {
    ++seq;
    for (int k = 0; k < 3; ++k) {
      ws_client* c = k < 2 ? seats[k] : spectator;
      if (!c) continue;
      json up = c->expect("update");
      CHECK(up.at("seq") == seq);
      seen[k].push_back(up.at("seq").get<std::int64_t>());
      if (k < 2) {
        views[k] = up.at("view");
        CHECK(views[k].at("viewer") == k);
      } else {
        CHECK(up.at("view").at("role") == "spectator");
        CHECK(up.at("view").at("hand").empty());
      }
      if (up.at("view").at("phase") == "game_over") over = true;
    }
  }
};

}  // namespace

TEST_CASE("e2e: a duel to the end over WebSockets; every client sees the same seqs; health and metrics") {
  const auto dir = temp_dir("cod-e2e-duel");
  live_server s(base_config(dir));
  REQUIRE(s.port() != 0);

  ws_client a(s.port()), b(s.port()), watcher(s.port());
  a.hello();
  b.hello();
  watcher.hello();
  a.send({{"type", "create_room"}, {"id", 1}, {"mode", "duel"}, {"format", "preconstructed"}, {"options", {{"exhaustion", true}}}});
  auto created = a.expect("room_created");
  CHECK(created.at("id") == 1);
  const std::string room = created.at("room");
  const std::string seed_hash = created.at("seed_hash");
  watcher.send({{"type", "spectate"}, {"room", room}});
  watcher.expect("spectating");
  a.send({{"type", "join"}, {"room", room}, {"name", "ann"}, {"deck", {{"preconstructed", 1}}}});
  CHECK(a.expect("joined").at("seat") == 0);
  b.send({{"type", "join"}, {"room", room}, {"name", "bob"}, {"deck", {{"preconstructed", 3}}}});
  CHECK(b.expect("joined").at("seat") == 1);

  duel d;
  d.seats[0] = &a;
  d.seats[1] = &b;
  d.spectator = &watcher;
  auto sa = a.expect("state");
  auto sb = b.expect("state");
  auto sw = watcher.expect("state");
  for (const auto* st : {&sa, &sb, &sw}) {
    CHECK(st->at("seq") == 0);
    CHECK(st->at("seed_hash") == seed_hash);
  }
  d.views[0] = sa.at("view");
  d.views[1] = sb.at("view");

  // Random moves from the views; a refused try (the view does not show every
  // rule, e.g. a full line) is answered with an error and changes nothing.
  int rejected = 0;
  for (int tries = 0; !d.over && d.seq < 1500 && tries < 20000; ++tries) {
    const int seat = d.views[0].at("active_seat").get<int>();
    auto moves = moves_from_view(d.views[seat], cod::test::shipped());
    REQUIRE(!moves.empty());
    const auto& mv = moves[d.rng() % moves.size()];
    d.seats[seat]->send({{"type", "act"}, {"id", tries}, {"action", mv}});
    auto reply = d.seats[seat]->read();
    REQUIRE(reply.has_value());
    if (reply->at("type") == "error") {
      CHECK(reply->at("id") == tries);
      ++rejected;
      continue;
    }
    REQUIRE(reply->at("type") == "accepted");
    CHECK(reply->at("seq") == d.seq + 1);
    CHECK(reply->at("id") == tries);
    d.step(seat);
  }
  if (!d.over) {
    // A game this long: end it the legal way.
    a.send({{"type", "act"}, {"action", {{"type", "concede"}}}});
    a.expect("accepted");
    d.step(0);
  }
  REQUIRE(d.over);
  MESSAGE("e2e duel: " << d.seq << " actions, " << rejected << " refused tries");
  for (auto& seqs : d.seen) {
    REQUIRE(seqs.size() == static_cast<std::size_t>(d.seq));
    for (std::size_t i = 0; i < seqs.size(); ++i) CHECK(seqs[i] == static_cast<std::int64_t>(i + 1));
  }
  for (ws_client* c : {&a, &b, &watcher}) {
    auto over = c->expect("match_over");
    CHECK(over.at("room") == room);
    CHECK(cod::server::seed_commitment(std::stoull(over.at("seed").get<std::string>())) == seed_hash);
  }

  auto health = http_get(s.port(), "/healthz");
  CHECK(health.status == 200);
  CHECK(health.content_type == "application/json");
  auto hj = json::parse(health.body);
  CHECK(hj.at("status") == "ok");
  CHECK(hj.at("rooms") == 1);
  CHECK(hj.at("connections") == 3);
  CHECK(hj.contains("uptime_s"));

  auto metrics = http_get(s.port(), "/metrics");
  CHECK(metrics.status == 200);
  CHECK(metrics.content_type.find("text/plain") == 0);
  std::string actions_line = "cod_actions_total ";
  actions_line += std::to_string(d.seq);
  actions_line += "\n";
  CHECK(metrics.body.find(actions_line) != std::string::npos);
  // The limits on abuse are visible (none was hit here).
  CHECK(metrics.body.find("cod_connections_refused_total 0\n") != std::string::npos);
  CHECK(metrics.body.find("cod_hello_timeouts_total 0\n") != std::string::npos);
  CHECK(metrics.body.find("cod_admin_refused_total 0\n") != std::string::npos);
  for (const char* name : {"cod_rooms 1\n", "cod_connections 3\n", "cod_actions_per_second ",
                           "cod_persistence_pending ", "cod_matches_finished_total 1\n"})
    CHECK(metrics.body.find(name) != std::string::npos);
  if (rejected > 0) CHECK(metrics.body.find("cod_errors_total{code=") != std::string::npos);
  CHECK(http_get(s.port(), "/nope").status == 404);
  CHECK(http_get(s.port(), "/ws").status == 426);

  // The log is in SQLite, finished.
  auto matches = cod::server::test::read_ok(s.srv.store().reader().list_matches({}));
  REQUIRE(matches.size() == 1);
  CHECK(matches[0].status == "finished");
  CHECK(matches[0].actions == d.seq);

  // Shutdown closes every socket with 1001 "server shutting down".
  s.srv.stop();
  for (ws_client* c : {&a, &b, &watcher}) {
    auto last = c->drain(5s);
    REQUIRE(!last.empty());
    CHECK(last.back().at("type") == "error");
    CHECK(last.back().at("code") == "shutting_down");
    REQUIRE(c->close.has_value());
    CHECK(c->close->code == websocket::close_code::going_away);
    CHECK(std::string(c->close->reason.c_str()) == "server shutting down");
  }
  s.srv.wait();
  std::filesystem::remove_all(dir);
}

TEST_CASE("e2e: hostile input never crashes the server and gets the documented errors") {
  const auto dir = temp_dir("cod-e2e-hostile");
  live_server s(base_config(dir));

  SUBCASE("malformed messages") {
    ws_client c(s.port());
    c.send_raw("{not json");
    CHECK(c.expect("error").at("code") == "bad_json");
    c.send({{"type", "list_rooms"}, {"id", 5}});
    auto first = c.expect("error");
    CHECK(first.at("code") == "hello_required");
    CHECK(first.at("id") == 5);
    c.hello();
    c.send_raw("[1, 2, 3]");
    CHECK(c.expect("error").at("code") == "bad_json");
    c.send_raw("\"hello\"");
    CHECK(c.expect("error").at("code") == "bad_json");
    c.send_raw(std::string("\x00\xff\xfe{", 4), true);  // binary garbage
    CHECK(c.expect("error").at("code") == "bad_json");
    c.send_raw(std::string(200, '[') + std::string(200, ']'));
    CHECK(c.expect("error").at("code") == "bad_json");
    c.send({{"type", "act"}, {"id", "q"}, {"action", {{"type", "play"}, {"card", -5}}}});
    auto e = c.expect("error");
    CHECK(e.at("id") == "q");
    c.send({{"type", "join"}, {"room", std::string(500, 'r')}, {"name", "x"}, {"deck", {{"preconstructed", 1}}}});
    CHECK(c.expect("error").at("code") == "bad_field_value");
    c.send({{"type", "ping"}, {"id", 1}});
    CHECK(c.expect("pong").at("id") == 1);  // still served
  }

  SUBCASE("an oversized frame: frame_too_large, then close 1009") {
    ws_client c(s.port());
    c.hello();
    json big = {{"type", "ping"}, {"pad", std::string(70000, 'x')}};
    c.send(big);
    auto e = c.expect("error");
    CHECK(e.at("code") == "frame_too_large");
    c.drain(5s);
    REQUIRE(c.close.has_value());
    CHECK(c.close->code == websocket::close_code::too_big);
  }

  SUBCASE("a flood: rate_limited, then close 1008") {
    ws_client c(s.port());
    c.hello();
    for (int i = 0; i < 60; ++i) c.send({{"type", "ping"}, {"id", i}});
    int pongs = 0, limited = 0;
    for (int i = 0; i < 60; ++i) {
      auto m = c.read();
      REQUIRE(m.has_value());
      if (m->at("type") == "pong") ++pongs;
      else if (m->at("type") == "error" && m->at("code") == "rate_limited") ++limited;
    }
    CHECK(pongs >= 39);  // the burst of 40, less the hello
    CHECK(limited >= 1);
    CHECK(pongs + limited == 60);
    for (int i = 0; i < 400; ++i)
      if (!c.send({{"type", "ping"}})) break;
    c.drain(5s);
    REQUIRE(c.close.has_value());
    CHECK(c.close->code == websocket::close_code::policy_error);
  }

  // Whatever happened above, the server still serves.
  ws_client d(s.port());
  d.hello();
  d.send({{"type", "list_rooms"}, {"id", 2}});
  CHECK(d.expect("rooms").at("id") == 2);
  CHECK(http_get(s.port(), "/healthz").status == 200);
  std::filesystem::remove_all(dir);
}

TEST_CASE("e2e: over max_connections a client gets server_busy, then close 1013") {
  const auto dir = temp_dir("cod-e2e-busy");
  auto cfg = base_config(dir);
  cfg.max_connections = 1;
  cfg.db = ":memory:";
  live_server s(cfg);
  ws_client first(s.port());
  first.hello();
  ws_client second(s.port());
  auto e = second.read();
  REQUIRE(e.has_value());
  CHECK(e->at("code") == "server_busy");
  second.drain(5s);
  REQUIRE(second.close.has_value());
  CHECK(second.close->code == 1013);
  first.send({{"type", "ping"}, {"id", 1}});
  CHECK(first.expect("pong").at("id") == 1);
}

TEST_CASE("e2e: a client that never reads is dropped as a slow consumer; memory stays bounded") {
  const auto dir = temp_dir("cod-e2e-slow");
  auto cfg = base_config(dir);
  cfg.rate_limit_per_sec = 0;
  cfg.list_rooms_per_sec = 0;
  cfg.max_waiting_rooms_per_address = 0;
  cfg.max_queued_messages = 8;
  cfg.close_timeout_ms = 300;
  cfg.db = ":memory:";
  live_server s(cfg);

  ws_client maker(s.port());
  maker.hello();
  for (int i = 0; i < 300; ++i) {
    maker.send({{"type", "create_room"}, {"mode", "duel"}, {"format", "preconstructed"}});
    maker.expect("room_created");
  }
  ws_client lazy(s.port(), 4096);
  lazy.hello();
  // Each reply lists a page of 100 rooms (~17 KB); the client reads none of them.
  for (int i = 0; i < 400; ++i)
    if (!lazy.send({{"type", "list_rooms"}, {"limit", 100}})) break;
  for (int i = 0; i < 200 && s.srv.stats().slow_consumers_total == 0; ++i) std::this_thread::sleep_for(20ms);
  CHECK(s.srv.stats().slow_consumers_total == 1);
  lazy.drain(5s);  // what the kernel buffered, then the end
  CHECK(lazy.ended);
  CHECK_FALSE(lazy.timed_out);
  CHECK(lazy.received < 400);
  // The server is fine.
  maker.send({{"type", "ping"}});
  maker.expect("pong");
  std::filesystem::remove_all(dir);
}

TEST_CASE("e2e: a restarted server recovers the match from SQLite; players resume with their tokens") {
  const auto dir = temp_dir("cod-e2e-recovery");
  const auto cfg = base_config(dir);
  std::string room, tokens[2];
  json views[2];
  std::int64_t seq = 0;
  {
    live_server s(cfg);
    ws_client a(s.port()), b(s.port());
    a.hello();
    b.hello();
    a.send({{"type", "create_room"}, {"mode", "duel"}, {"format", "preconstructed"}});
    room = a.expect("room_created").at("room");
    a.send({{"type", "join"}, {"room", room}, {"name", "ann"}, {"deck", {{"preconstructed", 2}}}});
    tokens[0] = a.expect("joined").at("token");
    b.send({{"type", "join"}, {"room", room}, {"name", "bob"}, {"deck", {{"preconstructed", 4}}}});
    tokens[1] = b.expect("joined").at("token");
    duel d;
    d.seats[0] = &a;
    d.seats[1] = &b;
    d.views[0] = a.expect("state").at("view");
    d.views[1] = b.expect("state").at("view");
    for (int tries = 0; d.seq < 8 && !d.over && tries < 500; ++tries) {
      const int seat = d.views[0].at("active_seat").get<int>();
      auto moves = moves_from_view(d.views[seat], cod::test::shipped());
      d.seats[seat]->send({{"type", "act"}, {"action", cod::server::test::prefer_play(moves, d.rng)}});
      auto reply = d.seats[seat]->read();
      REQUIRE(reply.has_value());
      if (reply->at("type") != "accepted") continue;
      d.step(seat);
    }
    REQUIRE_FALSE(d.over);
    seq = d.seq;
    views[0] = d.views[0];
    views[1] = d.views[1];
  }  // stopped: SIGTERM-like shutdown, store flushed

  live_server s(cfg);
  for (int seat = 0; seat < 2; ++seat) {
    ws_client c(s.port());
    c.hello();
    c.send({{"type", "resume"}, {"room", room}, {"token", tokens[seat]}});
    CHECK(c.expect("joined").at("seat") == seat);
    auto st = c.expect("state");
    CHECK(st.at("seq") == seq);
    CHECK(st.at("view") == views[seat]);
  }
  ws_client bad(s.port());
  bad.hello();
  std::string wrong = tokens[0];
  wrong.back() = wrong.back() == '0' ? '1' : '0';
  bad.send({{"type", "resume"}, {"room", room}, {"token", wrong}});
  CHECK(bad.expect("error").at("code") == "bad_token");
  std::filesystem::remove_all(dir);
}

// Two players join `room` (decks 1 and 2), each reads its first state.
void join_two(ws_client& a, ws_client& b, const std::string& room, std::string tokens[2]) {
  a.send({{"type", "join"}, {"room", room}, {"name", "ann"}, {"deck", {{"preconstructed", 1}}}});
  tokens[0] = a.expect("joined").at("token");
  b.send({{"type", "join"}, {"room", room}, {"name", "bob"}, {"deck", {{"preconstructed", 2}}}});
  tokens[1] = b.expect("joined").at("token");
}

TEST_CASE("e2e: a match that ended before a restart: a resume gets its final state and match_over with the seed") {
  // docs/protocol.md, "Reconnecting": the result was stored, then the server
  // went (here a stop; after kill -9 the file is the same), before a player
  // saw match_over or reloaded to see it.
  const auto dir = temp_dir("cod-e2e-finished");
  const auto cfg = base_config(dir);
  std::string room, tokens[2];
  json over_before, final_view[2];
  {
    live_server s(cfg);
    ws_client a(s.port()), b(s.port());
    a.hello();
    b.hello();
    a.send({{"type", "create_room"}, {"mode", "duel"}, {"format", "preconstructed"}});
    room = a.expect("room_created").at("room");
    join_two(a, b, room, tokens);
    a.expect("state");
    b.expect("state");
    a.send({{"type", "act"}, {"id", 1}, {"action", {{"type", "concede"}}}});
    a.expect("accepted");
    final_view[0] = a.expect("update").at("view");
    final_view[1] = b.expect("update").at("view");
    over_before = a.expect("match_over");
    CHECK(b.expect("match_over") == over_before);
  }

  live_server s(cfg);
  for (int seat = 0; seat < 2; ++seat) {
    ws_client c(s.port());
    c.hello();
    c.send({{"type", "resume"}, {"id", 5}, {"room", room}, {"token", tokens[seat]}});
    auto first = c.read();
    REQUIRE(first.has_value());
    INFO("the first answer: " << first->dump());
    REQUIRE(first->at("type") == "joined");
    CHECK(first->at("seat") == seat);
    auto st = c.expect("state");
    CHECK(st.at("seq") == 1);
    CHECK(st.at("view") == final_view[seat]);
    auto over = c.expect("match_over");
    CHECK(over == over_before);
    CHECK(cod::server::seed_commitment(std::stoull(over.at("seed").get<std::string>())) == st.at("seed_hash"));
  }
  std::filesystem::remove_all(dir);
}

TEST_CASE("e2e: a second server on the same database refuses to start, naming the lock file and the first's pid") {
  const auto dir = temp_dir("cod-e2e-two-servers");
  const auto cfg = base_config(dir);
  live_server first(cfg);
  cod::server::server second(cfg);
  const cod::server::status started = second.start();
  CHECK_FALSE(started);
  const std::string& error = started.message();
  INFO(error);
  CHECK(error.find(cfg.db + ".lock") != std::string::npos);
  CHECK(error.find("(pid " + std::to_string(::getpid()) + ")") != std::string::npos);
  CHECK(http_get(first.port(), "/healthz").status == 200);
  std::filesystem::remove_all(dir);
}

TEST_CASE("e2e: while the store cannot write, /healthz says degraded with HTTP 503 and /metrics counts the failures") {
  const auto dir = temp_dir("cod-e2e-health");
  auto owned = std::make_unique<cod::server::memory_store>();
  cod::server::memory_store& store = *owned;
  cod::server::server srv(base_config(dir), std::move(owned));
  spdlog::set_level(spdlog::level::warn);
  const cod::server::status started = srv.start();
  REQUIRE_MESSAGE(started, started.message());
  srv.run();

  auto health = http_get(srv.port(), "/healthz");
  CHECK(health.status == 200);
  auto hj = json::parse(health.body);
  CHECK(hj.at("status") == "ok");
  CHECK(hj.at("store") == json{{"ok", true}, {"write_errors", 0}});

  {  // the clients close before the server stops (no 2 s wait for their close handshakes)
    ws_client a(srv.port()), b(srv.port());
    a.hello();
    b.hello();
    std::string tokens[2];
    store.fail_writes(true);  // a full disk, a read-only file...
    a.send({{"type", "create_room"}, {"mode", "duel"}, {"format", "preconstructed"}});
    std::string room = a.expect("room_created").at("room");
    join_two(a, b, room, tokens);
    CHECK(a.expect("error").at("code") == "internal_error");  // the match could not be saved

    health = http_get(srv.port(), "/healthz");
    CHECK(health.status == 503);
    hj = json::parse(health.body);
    CHECK(hj.at("status") == "degraded");
    CHECK(hj.at("store").at("ok") == false);
    CHECK(hj.at("store").at("write_errors") == 1);
    CHECK(hj.at("store").at("last_error") == "fault injected (fail_writes)");
    CHECK(hj.at("store").at("last_error_ms").get<std::int64_t>() > 1'700'000'000'000);
    for (const char* field : {"server", "uptime_s", "rooms", "connections", "persistence_pending"})
      CHECK(hj.contains(field));
    auto metrics = http_get(srv.port(), "/metrics");
    CHECK(metrics.status == 200);
    CHECK(metrics.body.find("cod_persistence_write_errors_total 1\n") != std::string::npos);
    CHECK(metrics.body.find("cod_persistence_healthy 0\n") != std::string::npos);
    CHECK(metrics.body.find("cod_persistence_last_write_error_timestamp_seconds 17") != std::string::npos);

    // Writes succeed again: healthy, the last failure still on record.
    store.fail_writes(false);
    ws_client c(srv.port()), d(srv.port());
    c.hello();
    d.hello();
    c.send({{"type", "create_room"}, {"mode", "duel"}, {"format", "preconstructed"}});
    room = c.expect("room_created").at("room");
    join_two(c, d, room, tokens);
    c.expect("state");
    health = http_get(srv.port(), "/healthz");
    CHECK(health.status == 200);
    hj = json::parse(health.body);
    CHECK(hj.at("status") == "ok");
    CHECK(hj.at("store").at("ok") == true);
    CHECK(hj.at("store").at("write_errors") == 1);
    CHECK(hj.at("store").contains("last_error"));
    metrics = http_get(srv.port(), "/metrics");
    CHECK(metrics.body.find("cod_persistence_healthy 1\n") != std::string::npos);
  }
  srv.stop();
  srv.wait();
  std::filesystem::remove_all(dir);
}

TEST_CASE("e2e: the browser clients are served at /play/ and /admin/, the catalogue beside them, nothing outside") {
  auto dir = temp_dir("cod-e2e-web");
  auto cfg = base_config(dir);
  cfg.web_root = COD_SOURCE_DIR "/server/web";
  live_server s(cfg);

  auto r = http_get(s.port(), "/play");
  CHECK(r.status == 301);
  CHECK(r.location == "/play/");
  r = http_get(s.port(), "/play/");
  CHECK(r.status == 200);
  CHECK(r.content_type == "text/html; charset=utf-8");
  CHECK(r.cache_control == "no-cache");
  CHECK(r.body.find("<script type=\"module\"") != std::string::npos);
  r = http_get(s.port(), "/play/js/app.js");
  CHECK(r.status == 200);
  CHECK(r.content_type == "text/javascript; charset=utf-8");
  r = http_get(s.port(), "/play/style.css");
  CHECK(r.status == 200);
  CHECK(r.content_type == "text/css; charset=utf-8");
  r = http_get(s.port(), "/admin/");
  CHECK(r.status == 200);
  CHECK(r.content_type == "text/html; charset=utf-8");

  // The catalogue the server plays with, whole.
  r = http_get(s.port(), "/play/catalogue.json");
  CHECK(r.status == 200);
  CHECK(r.content_type == "application/json");
  auto cat = nlohmann::json::parse(r.body, nullptr, false);
  REQUIRE(cat.is_object());
  CHECK(cat["cards"].size() == cod::test::shipped().size());

  // Traversal over the wire: raw and encoded; the source tree is right above.
  for (const char* target : {"/play/../../CMakeLists.txt", "/play/%2e%2e/%2e%2e/CMakeLists.txt",
                             "/admin/..%2f..%2fCMakeLists.txt", "/play/../web/play/index.html"}) {
    CAPTURE(target);
    r = http_get(s.port(), target);
    CHECK(r.status == 404);
    CHECK(r.body.find("project(") == std::string::npos);
  }
  CHECK(http_get(s.port(), "/play/nope.js").status == 404);
  // The admin API's paths are not static files: the API answers them (403
  // here: no admin_token is set).
  r = http_get(s.port(), "/admin/api/matches");
  CHECK(r.status == 403);
  CHECK(r.body.find("admin_disabled") != std::string::npos);
  // The rest is unchanged.
  CHECK(http_get(s.port(), "/healthz").status == 200);
  CHECK(http_get(s.port(), "/nope").status == 404);
  std::filesystem::remove_all(dir);
}
