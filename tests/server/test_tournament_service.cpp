// Tournaments run by the server: the organiser API's handlers (through
// admin::api, so behind the token), the rooms the service opens, players
// seated by tournament_join, results from the matches, organiser acts, and
// the spectator delay. Rooms on the manual executor, memory_store inline.
#include <doctest/doctest.h>

#include <chrono>
#include <thread>

#include "admin/admin_api.hpp"
#include "room_harness.hpp"
#include "tournament_service/organiser_api.hpp"
#include "tournament_service/tournament_service.hpp"
#include "../shared/store_reads.hpp"

namespace cod::server::test {
namespace {

const std::string admin_token = "admin-test-token-0123456";
const std::string organiser_token = "organiser-test-token-0123";

struct fixture {
  harness h;
  std::uint64_t counter = 42;
  // The service's and its APIs': the rooms' wall (one clock, 1000 ms per
  // reading), ids and tokens from an LCG of `counter`.
  test_environment env;
  std::unique_ptr<tournament_service> svc;
  std::unique_ptr<organiser_api> org;
  admin::api api{admin_token, shipped(), *h.store, env, organiser_token};
  // A cluster node's (deps::claim, deps::want), when set.
  std::function<status(const std::string&)> claim;
  std::vector<std::string> wanted;  // what deps::want was asked for
  // A cluster node's deps::fetch_room, when set.
  std::function<void(const std::string&, tournament_service::deps::room_reached)> fetch_room;

  // `shared_store`: a store that outlives the fixture (a restart); its own otherwise.
  // `node_id`: a cluster node's service.
  explicit fixture(match_store* shared_store = nullptr, const std::string& node_id = "")
      : h(test_config(), shared_store) {
    tournament_service::deps d;
    d.node_id = node_id;
    if (!node_id.empty()) {
      d.claim = [this](const std::string& id) { return claim ? claim(id) : status::ok(); };
      d.want = [this](const std::string& id) {
        wanted.push_back(id);
        return true;
      };
      d.fetch_room = [this](const std::string& room_id, tournament_service::deps::room_reached then) {
        if (fetch_room) fetch_room(room_id, std::move(then));
        else then(nullptr);
      };
    }
    d.rooms = h.rooms;
    d.store = h.store;
    env.wall = [this] { return h.wall += 1000; };
    env.random = [this] { return cod::test::lcg_next(counter); };
    d.env = &env;
    svc = std::make_unique<tournament_service>(d);
    org = std::make_unique<organiser_api>(*svc, *h.store, env);
    api.set_tournaments(org.get());
    h.lsvc.find_event_seat = [this](std::string_view t, const std::string& routed) {
      return svc->find_seat(t, routed);
    };
  }

  admin::response call(const std::string& method, const std::string& target, const json& body = nullptr,
                       const std::string& token = admin_token) {
    admin::request r;
    r.method = method;
    r.target = target;
    r.authorization = "Bearer " + token;
    r.remote = "10.0.0.1:1";
    if (!body.is_null()) r.body = body.dump();
    auto res = api.handle(r);
    h.ex->run();
    return res;
  }
  json ok(const std::string& method, const std::string& target, const json& body = nullptr, int want = 200) {
    auto r = call(method, target, body);
    INFO(method << " " << target << ": " << r.body);
    REQUIRE(r.status == want);
    return json::parse(r.body);
  }
};

// The first message of `type` in what `c` received (and the rest dropped).
json tjoin(client& c, const std::string& token, int deck = 1) {
  c.say({{"type", "tournament_join"}, {"id", 5}, {"token", token}, {"deck", {{"preconstructed", deck}}}});
  auto msgs = c.take();
  INFO(json(msgs).dump());
  REQUIRE(!msgs.empty());
  const json* j = find_type(msgs, "joined");
  return j ? *j : msgs.front();
}

// Starts round 1 of tournament `id` (`created`: the create answer) and seats
// the players of table 1 on connections `ca` and `cb`.
struct seated_table {
  json pairing;
  std::string room, a_token;
};
seated_table start_and_seat_table_1(fixture& f, const json& created, const std::string& id, client& ca, client& cb) {
  auto tok = [&](const json& who) { return created.at("players")[who.at("player").get<std::size_t>()].at("token"); };
  seated_table out;
  out.pairing = f.ok("POST", "/admin/api/tournaments/" + id + "/rounds", json::object()).at("rounds")[0].at(
      "pairings")[0];
  const json ja = tjoin(ca, tok(out.pairing.at("a")));
  REQUIRE(ja.at("type") == "joined");
  out.room = ja.at("room");
  out.a_token = ja.at("token");
  REQUIRE(tjoin(cb, tok(out.pairing.at("b"))).at("type") == "joined");
  return out;
}

}  // namespace

TEST_CASE("organiser API: create, refusals, rounds, players seated by token, results from the matches") {
  fixture f;
  // The admin token guards it.
  CHECK(f.call("POST", "/admin/api/tournaments", {{"name", "x"}}, "wrong-token-wrong-token").status == 401);
  // Bad requests name what is wrong.
  auto r = f.call("POST", "/admin/api/tournaments", {{"name", "Cup"}, {"players", {"a", "b"}}, {"colour", 1}});
  CHECK(r.status == 400);
  CHECK(json::parse(r.body).at("error") == "unknown_field");
  r = f.call("POST", "/admin/api/tournaments", {{"name", "Cup"}, {"players", {"a", "a"}}});
  CHECK(r.status == 400);
  CHECK(json::parse(r.body).at("error") == "invalid_players");
  r = f.call("POST", "/admin/api/tournaments", {{"name", "Cup"}, {"players", {"a", "b"}}, {"best_of", 2}});
  CHECK(json::parse(r.body).at("error") == "invalid_config");
  CHECK(f.call("GET", "/admin/api/tournaments/nope").status == 404);
  CHECK(f.call("DELETE", "/admin/api/tournaments").status == 405);
  // The organiser token opens the organiser API, and nothing else.
  {
    auto o = f.call("POST", "/admin/api/tournaments", {{"name", "Side event"}, {"players", {"Eve", "Fay", "Gus", "Hal"}}, {"rounds", 1}},
                    organiser_token);
    CHECK(o.status == 201);
    auto listed = f.call("GET", "/admin/api/tournaments", nullptr, organiser_token);
    CHECK(listed.status == 200);
    CHECK(listed.body.find("Side event") != std::string::npos);
    auto logs = f.call("GET", "/admin/api/matches", nullptr, organiser_token);
    CHECK(logs.status == 403);
    CHECK(json::parse(logs.body).at("error") == "forbidden");
  }

  auto c = f.ok("POST", "/admin/api/tournaments",
                {{"name", "Cup"}, {"players", {"Ann", "Ben", "Cid", "Dee"}}, {"rounds", 2}, {"seed", "77"},
                 {"organiser", "Olga"}},
                201);
  const std::string id = c.at("tournament");
  REQUIRE(c.at("players").size() == 4);
  std::vector<std::string> tokens;
  for (const auto& p : c.at("players")) tokens.push_back(p.at("token"));
  auto st = f.ok("GET", "/admin/api/tournaments/" + id);
  CHECK(st.at("config").at("exhaustion") == true);
  CHECK(st.at("config").at("seed") == "77");
  CHECK(st.at("stage") == "not_started");
  CHECK(st.dump().find(tokens[0]) == std::string::npos);

  // Before round 1: waiting; a wrong token: bad_token.
  auto p0 = f.h.connect();
  CHECK(tjoin(p0, tokens[0]).at("code") == "tournament_waiting");
  CHECK(tjoin(p0, std::string(32, 'a')).at("code") == "bad_token");
  // A plain join is refused.
  st = f.ok("POST", "/admin/api/tournaments/" + id + "/rounds", {{"organiser", "Olga"}});
  REQUIRE(st.at("rounds").size() == 1);
  const json pairings = st.at("rounds")[0].at("pairings");  // a copy: st is reassigned below
  REQUIRE(pairings.size() == 2);
  const std::string room = pairings[0].at("rooms")[0].at("room");
  auto stranger = f.h.connect();
  stranger.say({{"type", "join"}, {"room", room}, {"name", "eve"}, {"deck", {{"preconstructed", 1}}}});
  CHECK(stranger.expect("error").at("code") == "room_full");

  // Table 1's players take their seats by token: the match starts and is attached.
  const int a = pairings[0].at("a").at("player"), b = pairings[0].at("b").at("player");
  auto ca = f.h.connect(), cb = f.h.connect();
  auto ja = tjoin(ca, tokens[static_cast<std::size_t>(a)], 1);
  REQUIRE(ja.at("type") == "joined");
  CHECK(ja.at("room") == room);
  CHECK(ja.at("seat") == 0);
  CHECK(ja.at("token") == tokens[static_cast<std::size_t>(a)]);
  auto jb = tjoin(cb, tokens[static_cast<std::size_t>(b)], 2);
  REQUIRE(jb.at("type") == "joined");
  CHECK(jb.at("seat") == 1);
  st = f.ok("GET", "/admin/api/tournaments/" + id);
  const auto& g = st.at("rounds")[0].at("pairings")[0].at("games")[0];
  CHECK(g.at("match_id").is_string());
  CHECK(g.at("decided") == false);
  const std::string match_id = g.at("match_id");
  auto rec = read_ok(f.h.store->reader().load_match(match_id));
  REQUIRE(rec);
  CHECK(rec->match.options_json.find("\"exhaustion\":true") != std::string::npos);

  // b concedes: a wins the game and (best of 1) the match.
  cb.say({{"type", "act"}, {"id", 9}, {"action", {{"type", "concede"}}}});
  st = f.ok("GET", "/admin/api/tournaments/" + id);
  const auto& p = st.at("rounds")[0].at("pairings")[0];
  CHECK(p.at("score").at("finished") == true);
  CHECK(p.at("score").at("winner").at("player") == a);
  CHECK(p.at("games")[0].at("winner").at("player") == a);
  CHECK(st.at("round_finished") == false);
  // Asking again after the match: waiting for the next round.
  ca.say({{"type", "leave"}, {"id", 3}});
  ca.take();
  CHECK(tjoin(ca, tokens[static_cast<std::size_t>(a)]).at("code") == "tournament_waiting");

  // Table 2: a game loss decides it before its match starts; its room closes.
  const int c2 = pairings[1].at("a").at("player");
  const std::string room2 = pairings[1].at("rooms")[0].at("room");
  auto w = f.h.connect();
  REQUIRE(tjoin(w, tokens[static_cast<std::size_t>(c2)]).at("type") == "joined");
  st = f.ok("POST", "/admin/api/tournaments/" + id + "/game_loss",
            {{"organiser", "Olga"}, {"player", pairings[1].at("a").at("name")}, {"reason", "no-show"}});
  CHECK(st.at("round_finished") == true);
  CHECK(f.h.rooms->find(room2) == nullptr);
  CHECK(count_type(w.take(), "left") == 1);
  const auto& log = st.at("log");
  REQUIRE(log.size() == 2);
  CHECK(log[1].at("act") == "game_loss");
  CHECK(log[1].at("actor") == "Olga");
  CHECK(log[1].at("note") == "no-show");
  // Refusals of acts: 409 with the core's code, 404 for an unknown player.
  r = f.call("POST", "/admin/api/tournaments/" + id + "/repair", {{"reason", "x"}});
  CHECK(r.status == 409);
  CHECK(json::parse(r.body).at("error") == "round_has_results");
  r = f.call("POST", "/admin/api/tournaments/" + id + "/drop", {{"player", "Zed"}});
  CHECK(r.status == 404);

  // Standings after round 1: the two winners have 3 match points.
  auto s = f.ok("GET", "/admin/api/tournaments/" + id + "/standings").at("standings");
  REQUIRE(s.size() == 4);
  CHECK(s[0].at("match_points") == 3);
  CHECK(s[1].at("match_points") == 3);
  CHECK(s[2].at("match_points") == 0);

  // Drop, then round 2 pairs three players: one bye.
  f.ok("POST", "/admin/api/tournaments/" + id + "/drop", {{"player", a}, {"reason", "ill"}});
  st = f.ok("POST", "/admin/api/tournaments/" + id + "/rounds", json::object());
  int byes = 0;
  for (const auto& q : st.at("rounds")[1].at("pairings")) byes += q.at("bye") ? 1 : 0;
  CHECK(byes == 1);
  CHECK(tjoin(ca, tokens[static_cast<std::size_t>(a)]).at("code") == "tournament_over");
  // The export holds the tournament and the match played.
  auto e = f.ok("GET", "/admin/api/tournaments/" + id + "/export");
  CHECK(e.at("format") == "cod-tournament-export/1");
  REQUIRE(e.at("matches").size() == 1);
  CHECK(e.at("matches")[0].at("match").at("match_id") == match_id);
}

// A one-round tournament of Ann and Ben created with `settings`, its round
// started, a spectator watching the game's room before both players join.
// `start`: what the spectator got when the match started.
struct spectated_game {
  std::string id, room;
  client spec, ca, cb;
  json start;
};
spectated_game start_spectated(fixture& f, json settings) {
  settings["players"] = {"Ann", "Ben"};
  settings["rounds"] = 1;
  auto c = f.ok("POST", "/admin/api/tournaments", settings, 201);
  spectated_game g;
  g.id = c.at("tournament");
  auto st = f.ok("POST", "/admin/api/tournaments/" + g.id + "/rounds", json::object());
  const auto& p = st.at("rounds")[0].at("pairings")[0];
  g.room = p.at("rooms")[0].at("room");
  auto tok = [&](const json& who) { return c.at("players")[who.at("player").get<std::size_t>()].at("token"); };
  g.spec = f.h.spectator(g.room);
  g.ca = f.h.connect();
  g.cb = f.h.connect();
  REQUIRE(tjoin(g.ca, tok(p.at("a"))).at("type") == "joined");
  REQUIRE(tjoin(g.cb, tok(p.at("b"))).at("type") == "joined");
  g.start = g.spec.take();
  g.ca.take();
  g.cb.take();
  return g;
}

namespace {

struct turn_messages {
  std::vector<json> mine, theirs;
};

// The player to move, seats[turn_of], ends its turn (act `id`): what it and
// the other player were sent.
turn_messages end_turn(client* const (&seats)[2], int turn_of, int id) {
  client& actor = *seats[turn_of];
  actor.say({{"type", "act"}, {"id", id}, {"action", {{"type", "end_turn"}}}});
  turn_messages t;
  t.mine = actor.take();
  t.theirs = seats[1 - turn_of]->take();
  return t;
}

}  // namespace

TEST_CASE("spectator delay: spectators see each update N actions late, players at once; all at the end") {
  fixture f;
  auto g = start_spectated(f, {{"name", "Delayed"}, {"spectator_delay", 2}});
  auto& [id, room, spec, ca, cb, start] = g;
  REQUIRE(find_type(start, "state"));
  CHECK(find_type(start, "state")->at("seq") == 0);

  // Each end_turn: both players get the update at once; the spectator gets
  // the one two actions older (none for the first two).
  client* seats[2] = {&ca, &cb};
  int turn_of = active(*find_type(start, "state"));
  for (int i = 1; i <= 4; ++i) {
    const auto [mine, theirs] = end_turn(seats, turn_of, i);
    REQUIRE(find_type(mine, "update"));
    CHECK(find_type(mine, "update")->at("seq") == i);
    REQUIRE(find_type(theirs, "update"));
    CHECK(find_type(theirs, "update")->at("seq") == i);
    auto seen = spec.take();
    if (i <= 2) {
      CHECK(count_type(seen, "update") == 0);
    } else {
      REQUIRE(count_type(seen, "update") == 1);
      CHECK(find_type(seen, "update")->at("seq") == i - 2);
    }
    turn_of = active(*find_type(mine, "update"));
  }
  // A spectator arriving now gets the state as of seq 2, not 4.
  auto late = f.h.connect();
  late.say({{"type", "spectate"}, {"room", room}});
  auto l = late.take();
  REQUIRE(find_type(l, "state"));
  CHECK(find_type(l, "state")->at("seq") == 2);
  // Its history stops there too; a player's goes to 4.
  late.say({{"type", "history"}, {"id", 1}});
  const json lh = late.expect("history");
  CHECK(lh.at("seq") == 2);
  CHECK(lh.at("entries").size() == 3);  // the setup, 1, 2
  ca.say({{"type", "history"}, {"id", 1}});
  CHECK(ca.expect("history").at("seq") == 4);

  // The match ends: the held updates (3, 4 and the concession's 5) go out, then match_over.
  ca.say({{"type", "act"}, {"id", 9}, {"action", {{"type", "concede"}}}});
  auto end = spec.take();
  std::vector<int> seqs;
  for (const auto& m : end)
    if (m.at("type") == "update") seqs.push_back(m.at("seq").get<int>());
  CHECK(seqs == std::vector<int>{3, 4, 5});
  REQUIRE(find_type(end, "match_over"));
  auto st = f.ok("GET", "/admin/api/tournaments/" + id);
  CHECK(st.at("stage") == "finished");
  CHECK(st.at("champion").is_object());
}

TEST_CASE("spectator delay with a turn clock: a turn's clock message reaches spectators after the update that began it") {
  fixture f;
  auto g = start_spectated(
      f, {{"name", "Clocked"}, {"spectator_delay", 2}, {"turn_clock", {{"bank_ms", 600000}, {"increment_ms", 5000}}}});
  auto& [id, room, spec, ca, cb, start] = g;
  // The first turn's clock: nothing is held yet, so it comes at once.
  REQUIRE(find_type(start, "state"));
  REQUIRE(find_type(start, "clock"));

  client* seats[2] = {&ca, &cb};
  int turn_of = active(*find_type(start, "state"));
  for (int i = 1; i <= 4; ++i) {
    const auto mine = end_turn(seats, turn_of, i).mine;
    // Players: the next turn's clock at once.
    REQUIRE(find_type(mine, "clock"));
    turn_of = active(*find_type(mine, "update"));
    CHECK(find_type(mine, "clock")->at("seat") == turn_of);
    auto seen = spec.take();
    if (i <= 2) {
      // Held with its update: a clock now would say the turn ended.
      CHECK(count_type(seen, "update") == 0);
      CHECK(count_type(seen, "clock") == 0);
    } else {
      // Update i - 2, then the clock of the turn it began, in that order.
      REQUIRE(seen.size() == 2);
      CHECK(seen[0].at("type") == "update");
      CHECK(seen[0].at("seq") == i - 2);
      CHECK(seen[1].at("type") == "clock");
      CHECK(seen[1].at("seat") == active(seen[0]));
    }
  }
  // The end: held updates and their clocks in order, then match_over.
  ca.say({{"type", "act"}, {"id", 9}, {"action", {{"type", "concede"}}}});
  std::vector<std::string> kinds;
  for (const auto& m : spec.take()) kinds.push_back(m.at("type").get<std::string>());
  CHECK(kinds == std::vector<std::string>{"update", "clock", "update", "clock", "update", "match_over"});
}

TEST_CASE("organiser acts reach the rooms: a re-pair voids the running match; auto_advance starts the next round") {
  fixture f;
  auto c = f.ok("POST", "/admin/api/tournaments",
                {{"name", "Acts"}, {"players", {"Ann", "Ben", "Cid", "Dee"}}, {"rounds", 2}, {"auto_advance", true}},
                201);
  const std::string id = c.at("tournament");
  auto tok = [&](const json& who) { return c.at("players")[who.at("player").get<std::size_t>()].at("token"); };
  auto st = f.ok("POST", "/admin/api/tournaments/" + id + "/rounds", json::object());
  const json p = st.at("rounds")[0].at("pairings")[0];
  auto ca = f.h.connect(), cb = f.h.connect();
  REQUIRE(tjoin(ca, tok(p.at("a"))).at("type") == "joined");
  REQUIRE(tjoin(cb, tok(p.at("b"))).at("type") == "joined");
  ca.take();
  cb.take();
  st = f.ok("GET", "/admin/api/tournaments/" + id);
  const std::string running = st.at("rounds")[0].at("pairings")[0].at("games")[0].at("match_id");

  // Re-pair: the running match ends without a result, its players are told,
  // and every pairing of the new attempt gets a fresh room.
  st = f.ok("POST", "/admin/api/tournaments/" + id + "/repair", {{"reason", "wrong table"}, {"organiser", "Olga"}});
  CHECK(st.at("rounds")[0].at("attempt") == 1);
  auto pushed = ca.take();
  REQUIRE(find_type(pushed, "error"));
  CHECK(find_type(pushed, "error")->at("code") == "internal_error");
  auto stored = read_ok(f.h.store->reader().load_match(running));
  REQUIRE(stored);
  REQUIRE(stored->result);
  CHECK(stored->result->reason == "voided");
  CHECK(stored->result->winners.empty());
  for (const auto& q : st.at("rounds")[0].at("pairings")) {
    REQUIRE(q.at("rooms").size() == 1);
    CHECK(q.at("games").empty());
  }
  CHECK(st.at("log").back().at("act") == "repair");
  CHECK(st.at("log").back().at("note") == "wrong table");

  // Play round 1 by concessions; the last result starts round 2 by itself.
  for (const auto& q : st.at("rounds")[0].at("pairings")) {
    auto x = f.h.connect(), y = f.h.connect();
    REQUIRE(tjoin(x, tok(q.at("a"))).at("type") == "joined");
    REQUIRE(tjoin(y, tok(q.at("b"))).at("type") == "joined");
    x.say({{"type", "act"}, {"id", 1}, {"action", {{"type", "concede"}}}});
  }
  st = f.ok("GET", "/admin/api/tournaments/" + id);
  REQUIRE(st.at("rounds").size() == 2);
  CHECK(st.at("log").back().at("act") == "start_round");
  CHECK(st.at("log").back().at("actor") == "server");
  for (const auto& q : st.at("rounds")[1].at("pairings")) CHECK(q.at("rooms").size() == 1);
}

TEST_CASE("tournaments on memory_store: every change is stored; a restarted service loads them") {
  memory_store store{memory_store::callbacks::run_inline};
  std::string id;
  json before;
  {
    fixture f(&store);
    auto c = f.ok("POST", "/admin/api/tournaments",
                  {{"name", "Kept"}, {"players", {"Ann", "Ben", "Cid", "Dee"}}, {"rounds", 2}, {"spectator_delay", 2}},
                  201);
    id = c.at("tournament");
    auto stored = read_tournaments(store);
    REQUIRE(stored.size() == 1);
    CHECK(stored[0].id == id);
    CHECK(stored[0].t.settings().name == "Kept");
    CHECK(stored[0].extras == tournament_extras{2, false});
    CHECK(stored[0].t.current_stage() == tournaments::stage::not_started);

    // Round 1, and table 1's match started: its game names the stored match.
    auto st = f.ok("POST", "/admin/api/tournaments/" + id + "/rounds", json::object());
    const json p = st.at("rounds")[0].at("pairings")[0];
    auto tok = [&](const json& who) { return c.at("players")[who.at("player").get<std::size_t>()].at("token"); };
    auto ca = f.h.connect(), cb = f.h.connect();
    REQUIRE(tjoin(ca, tok(p.at("a"))).at("type") == "joined");
    REQUIRE(tjoin(cb, tok(p.at("b"))).at("type") == "joined");
    before = f.ok("GET", "/admin/api/tournaments/" + id);
    const std::string match_id = before.at("rounds")[0].at("pairings")[0].at("games")[0].at("match_id");
    stored = read_tournaments(store);
    REQUIRE(stored.size() == 1);
    CHECK(stored[0].t.rounds().size() == 1);
    CHECK(stored[0].t.rounds()[0].pairings[0].games.at(0).match_id == match_id);
    // The tournament's matches, through the admin search.
    const auto listed = f.ok("GET", "/admin/api/matches?tournament=" + id);
    REQUIRE(listed.at("matches").size() == 1);
    CHECK(listed.at("matches")[0].at("match_id") == match_id);
    f.h.crash();
  }
  // A new service on the same store: the tournament is back as it was.
  fixture g(&store);
  g.svc->load();
  const auto after = g.ok("GET", "/admin/api/tournaments/" + id);
  CHECK(after.at("rounds").size() == before.at("rounds").size());
  CHECK(after.at("config") == before.at("config"));
  CHECK(after.at("log") == before.at("log"));
  CHECK(after.at("standings") == before.at("standings"));
}

TEST_CASE("tournaments in a cluster: a node runs those it created, tells other nodes' players where theirs run, "
          "and counts the games that ended on another node from the store") {
  memory_store store{memory_store::callbacks::run_inline};
  std::string id, room, match_id;
  json c, p;
  auto tok = [&](const json& who) { return c.at("players")[who.at("player").get<std::size_t>()].at("token"); };
  std::string a_token, b_token;
  {
    fixture n1(&store, "n1");
    c = n1.ok("POST", "/admin/api/tournaments", {{"name", "Spread"}, {"players", {"Ann", "Ben"}}, {"rounds", 1}},
              201);
    id = c.at("tournament");
    CHECK(id.starts_with("n1-t"));
    auto ca = n1.h.connect(), cb = n1.h.connect();
    const auto first = start_and_seat_table_1(n1, c, id, ca, cb);
    p = first.pairing;
    room = first.room;
    a_token = first.a_token;
    match_id = n1.ok("GET", "/admin/api/tournaments/" + id).at("rounds")[0].at("pairings")[0].at("games")[0].at(
        "match_id");

    // Another node does not run it (no second copy opening rooms), lists
    // it from the store, and tells its players where to go. Asked for it
    // (the proxy sends its traffic there), it reads the stored copy and asks
    // for the tournament to move; acts wait for that.
    fixture n2(&store, "n2");
    n2.svc->load();
    CHECK(n2.ok("GET", "/admin/api/tournaments/" + id).at("tournament") == id);
    CHECK(n2.wanted == std::vector<std::string>{id});
    const auto moving = n2.call("POST", "/admin/api/tournaments/" + id + "/rounds", json::object());
    CHECK(moving.status == 503);
    CHECK(moving.body.find("tournament_moving") != std::string::npos);
    const auto listed = n2.ok("GET", "/admin/api/tournaments");
    REQUIRE(listed.at("tournaments").size() == 1);
    CHECK(listed.at("tournaments")[0].at("tournament") == id);
    auto elsewhere = n2.h.connect();
    // The token names its tournament (ID.HEX): the refusal says where to connect.
    CHECK(tok(p.at("a")).get<std::string>().starts_with(id + "."));
    const json refused = tjoin(elsewhere, tok(p.at("a")));
    CHECK(refused.at("code") == "bad_token");
    CHECK(refused.at("message").get<std::string>().find("runs on another node: connect with /ws?room=" + id) !=
          std::string::npos);
    // A plain token (a tournament created before tokens named theirs) cannot say.
    const json plain = tjoin(elsewhere, tok(p.at("a")).get<std::string>().substr(id.size() + 1));
    CHECK(plain.at("code") == "bad_token");
    CHECK(plain.at("message").get<std::string>().find("/ws?room=TOURNAMENT_ID") != std::string::npos);
    n1.h.crash();
  }
  // n1 died; its match runs on n3 (taken over) and ends there, without the
  // tournament's hooks.
  {
    fixture n3(&store, "n3");
    n3.h.recover_one();
    auto back = n3.h.connect();
    back.say({{"type", "resume"}, {"room", room}, {"token", a_token}});
    REQUIRE(find_type(back.take(), "joined"));
    const auto r = act(back, {{"type", "concede"}});
    REQUIRE(find_type(r, "match_over"));
  }
  // n1 comes back: its tournament is its own again; the game it could not
  // watch is counted from the store.
  fixture n1(&store, "n1");
  n1.svc->load();
  const auto after = n1.ok("GET", "/admin/api/tournaments/" + id);
  CHECK(after.at("stage") == "finished");
  const json game = after.at("rounds")[0].at("pairings")[0].at("games")[0];
  CHECK(game.at("match_id") == match_id);
  CHECK(game.at("decided") == true);

  // The same while the node runs: poll_store counts a game that ended elsewhere.
  n1.counter = 7;  // other tokens than the restarted fixture's first ones
  auto c2 = n1.ok("POST", "/admin/api/tournaments", {{"name", "Later"}, {"players", {"Cid", "Dee"}}, {"rounds", 1}}, 201);
  const std::string id2 = c2.at("tournament");
  const json p2 = n1.ok("POST", "/admin/api/tournaments/" + id2 + "/rounds", json::object()).at("rounds")[0].at(
      "pairings")[0];
  auto tok2 = [&](const json& who) { return c2.at("players")[who.at("player").get<std::size_t>()].at("token"); };
  auto ca = n1.h.connect(), cb = n1.h.connect();
  const json ja = tjoin(ca, tok2(p2.at("a")));
  INFO(ja.dump());
  REQUIRE(ja.at("type") == "joined");
  REQUIRE(tjoin(cb, tok2(p2.at("b"))).at("type") == "joined");
  const std::string room2 = ja.at("room");
  // The room moves to another node (a handover): it leaves n1 with its hooks.
  n1.h.rooms->find(room2)->move_away("another node asked for it", nullptr);
  n1.h.ex->run();
  REQUIRE(n1.h.rooms->find(room2) == nullptr);
  n1.svc->poll_store();
  CHECK(n1.ok("GET", "/admin/api/tournaments/" + id2).at("stage") != "finished");
  {
    harness n4(test_config(), &store);
    auto unfinished = read_ok(store.reader().load_unfinished());
    REQUIRE(unfinished.size() == 1);
    REQUIRE(n4.rooms->recover(unfinished) == 1);
    n4.ex->run();
    auto back = n4.connect();
    back.say({{"type", "resume"}, {"room", room2}, {"token", ja.at("token")}});
    REQUIRE(find_type(back.take(), "joined"));
    REQUIRE(find_type(act(back, {{"type", "concede"}}), "match_over"));
  }
  n1.svc->poll_store();
  CHECK(n1.ok("GET", "/admin/api/tournaments/" + id2).at("stage") == "finished");
}

TEST_CASE("tournaments in a cluster: a tournament whose node stays down is taken over by the node its traffic "
          "reaches, hooks its games' rooms there, goes on, and is handed back when asked") {
  memory_store store{memory_store::callbacks::run_inline};
  room_directory& dir = *store.directory();
  auto claimer = [&dir](const std::string& node, std::int64_t lease_ms) {
    return [&dir, node, lease_ms](const std::string& id) -> status {
      const auto r = dir.claim_room(id, node, lease_ms);
      if (!r) return r.error();
      return *r ? status::ok() : status::conflict("held by another node");
    };
  };
  std::string id, room, a_token, b_token;
  json c, p;
  auto tok = [&](const json& who) { return c.at("players")[who.at("player").get<std::size_t>()].at("token"); };
  {
    fixture n1(&store, "n1");
    n1.claim = claimer("n1", 1);  // a lease that lapses at once: n1 "dies" with it
    c = n1.ok("POST", "/admin/api/tournaments", {{"name", "Orphan"}, {"players", {"Ann", "Ben", "Cat", "Dan"}},
                                                 {"rounds", 2}, {"auto_advance", true}},
              201);
    id = c.at("tournament");
    CHECK(n1.svc->running() == std::vector<std::string>{id});
    auto ca = n1.h.connect(), cb = n1.h.connect();
    const auto first = start_and_seat_table_1(n1, c, id, ca, cb);
    p = first.pairing;
    room = first.room;
    a_token = first.a_token;
    n1.h.crash();
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(5));
  fixture n2(&store, "n2");
  n2.claim = claimer("n2", 60'000);
  n2.svc->load();  // n1's: not loaded
  CHECK(n2.svc->running().empty());
  // A player of the other table comes through the proxy (?room=ID): told to
  // wait while the tournament moves here.
  auto early = n2.h.connect();
  early.session->set_routed_room(id);
  const auto p2 = n2.ok("GET", "/admin/api/tournaments/" + id).at("rounds")[0].at("pairings")[1];
  const json waiting = tjoin(early, tok(p2.at("a")));
  CHECK(waiting.at("code") == "tournament_waiting");
  CHECK(waiting.at("message").get<std::string>().find("moving to this node") != std::string::npos);
  // The cluster thread's part: the match's room is taken over here (a
  // resume), then the tournament's lease, and the node runs it.
  n2.h.recover_one();
  REQUIRE(n2.claim(id).is_ok());
  CHECK(n2.svc->adopt(id));
  CHECK(n2.svc->running() == std::vector<std::string>{id});
  // Its game's room here has the tournament's hooks again: its end counts.
  auto back = n2.h.connect();
  back.say({{"type", "resume"}, {"room", room}, {"token", a_token}});
  REQUIRE(find_type(back.take(), "joined"));
  REQUIRE(find_type(act(back, {{"type", "concede"}}), "match_over"));
  const auto after = n2.ok("GET", "/admin/api/tournaments/" + id);
  CHECK(after.at("rounds")[0].at("pairings")[0].at("games")[0].at("decided") == true);
  // The other table's game had not started: n2 opened its room.
  auto cc = n2.h.connect(), cd = n2.h.connect();
  cc.session->set_routed_room(id);
  cd.session->set_routed_room(id);
  const json jc = tjoin(cc, tok(p2.at("a")));
  REQUIRE(jc.at("type") == "joined");
  CHECK(n2.h.rooms->find(jc.at("room").get<std::string>()) != nullptr);
  REQUIRE(tjoin(cd, tok(p2.at("b"))).at("type") == "joined");
  REQUIRE(find_type(act(cc, {{"type", "concede"}}), "match_over"));
  // auto_advance: round 2 started on n2.
  CHECK(n2.ok("GET", "/admin/api/tournaments/" + id).at("rounds").size() == 2);

  // n1 is back and the proxy sends the tournament's traffic there again: n2
  // hands it over when asked; its waiting rooms close; the last save is
  // stored before the lease goes.
  bool saved = false;
  n2.svc->give_up(id, [&saved] { saved = true; });
  CHECK(saved);
  CHECK(n2.svc->running().empty());
  CHECK(n2.ok("GET", "/admin/api/tournaments/" + id).at("rounds").size() == 2);  // the stored copy
  REQUIRE(dir.release_room(id, "n2").is_ok());
  fixture n1(&store, "n1");
  n1.claim = claimer("n1", 60'000);
  n1.svc->load();
  CHECK(n1.svc->running() == std::vector<std::string>{id});
  const auto st = n1.ok("GET", "/admin/api/tournaments/" + id);
  CHECK(st.at("rounds").size() == 2);
  CHECK(st.at("stage") == "swiss");
  // A node that lost the lease forgets the tournament; its waiting rooms close.
  CHECK(n1.h.rooms->summaries().size() == 2);
  n1.svc->lost(id);
  n1.h.ex->run();
  CHECK(n1.svc->running().empty());
  CHECK(n1.h.rooms->summaries().empty());
}

TEST_CASE("tournaments in a cluster: a node taking over a tournament whose round ended meanwhile starts the next "
          "(auto_advance)") {
  memory_store store{memory_store::callbacks::run_inline};
  std::string id;
  std::vector<std::pair<std::string, std::string>> seats;  // (room, token) of each table's seat 0
  {
    fixture n1(&store, "n1");
    const json c =
        n1.ok("POST", "/admin/api/tournaments",
              {{"name", "Gap"}, {"players", {"Ann", "Ben", "Cid", "Dee"}}, {"rounds", 2}, {"auto_advance", true}}, 201);
    id = c.at("tournament");
    const json round = n1.ok("POST", "/admin/api/tournaments/" + id + "/rounds", json::object()).at("rounds")[0];
    auto tok = [&](const json& who) { return c.at("players")[who.at("player").get<std::size_t>()].at("token"); };
    std::vector<client> conns;
    for (const json& p : round.at("pairings")) {
      conns.push_back(n1.h.connect());
      const json ja = tjoin(conns.back(), tok(p.at("a")));
      REQUIRE(ja.at("type") == "joined");
      seats.emplace_back(ja.at("room"), ja.at("token"));
      conns.push_back(n1.h.connect());
      REQUIRE(tjoin(conns.back(), tok(p.at("b"))).at("type") == "joined");
    }
    REQUIRE(seats.size() == 2);
    n1.h.crash();
  }
  // Both matches end on n2 before any node runs the tournament again.
  fixture n2(&store, "n2");
  REQUIRE(n2.h.rooms->recover(read_ok(store.reader().load_unfinished())) == 2);
  n2.h.ex->run();
  for (const auto& [room, token] : seats) {
    auto back = n2.h.connect();
    back.say({{"type", "resume"}, {"room", room}, {"token", token}});
    REQUIRE(find_type(back.take(), "joined"));
    REQUIRE(find_type(act(back, {{"type", "concede"}}), "match_over"));
  }
  CHECK(n2.ok("GET", "/admin/api/tournaments/" + id).at("rounds").size() == 1);  // the stored copy
  CHECK(n2.svc->adopt(id));
  const json st = n2.ok("GET", "/admin/api/tournaments/" + id);
  CHECK(st.at("rounds").size() == 2);
  for (const json& p : st.at("rounds")[0].at("pairings")) CHECK(p.at("games")[0].at("decided") == true);
}

TEST_CASE("tournaments in a cluster: a game loss, a drop and a re-pair reach the game's room on another node") {
  memory_store store{memory_store::callbacks::run_inline};
  std::string four, two;  // a 4-player tournament, a 2-player one
  std::map<std::string, std::string> room_of;  // "<tournament>/<table>" -> its game's room
  json c4;
  {
    fixture n1(&store, "n1");
    c4 = n1.ok("POST", "/admin/api/tournaments", {{"name", "Far"}, {"players", {"Ann", "Ben", "Cid", "Dee"}},
                                                 {"rounds", 2}},
               201);
    four = c4.at("tournament");
    const json c2 = n1.ok("POST", "/admin/api/tournaments", {{"name", "Pair"}, {"players", {"Eve", "Fay"}},
                                                              {"rounds", 1}},
                          201);
    two = c2.at("tournament");
    std::vector<client> conns;
    for (const auto& [id, c] : {std::pair{four, c4}, std::pair{two, c2}}) {
      const json round = n1.ok("POST", "/admin/api/tournaments/" + id + "/rounds", json::object()).at("rounds")[0];
      auto tok = [&](const json& who) { return c.at("players")[who.at("player").get<std::size_t>()].at("token"); };
      for (const json& p : round.at("pairings")) {
        conns.push_back(n1.h.connect());
        const json ja = tjoin(conns.back(), tok(p.at("a")));
        REQUIRE(ja.at("type") == "joined");
        room_of[id + "/" + p.at("table").dump()] = ja.at("room");
        conns.push_back(n1.h.connect());
        REQUIRE(tjoin(conns.back(), tok(p.at("b"))).at("type") == "joined");
      }
    }
    REQUIRE(room_of.size() == 3);
    n1.h.crash();
  }
  // n1 died; n3 took its three matches' rooms; n2 takes the tournaments over.
  fixture n3(&store, "n3");
  REQUIRE(n3.h.rooms->recover(read_ok(store.reader().load_unfinished())) == 3);
  n3.h.ex->run();
  fixture n2(&store, "n2");
  REQUIRE(n2.svc->adopt(four));
  REQUIRE(n2.svc->adopt(two));
  CHECK(n2.h.rooms->summaries().empty());
  // What cluster_node::fetch does for a routed room: its holder (n3) hands
  // it over and n2 rebuilds it from the log.
  std::vector<std::string> fetched;
  bool reachable = true;
  n2.fetch_room = [&](const std::string& room_id, tournament_service::deps::room_reached then) {
    fetched.push_back(room_id);
    if (!reachable) return then(nullptr);
    then(n3.h.hand_over(room_id, n2.h));
    n2.h.ex->run();
  };
  auto stored_of = [&](const std::string& room_id) {
    for (const auto& s : read_ok(store.reader().list_matches({})))
      if (s.room_id == room_id) return read_ok(store.reader().load_match(s.match_id));
    return std::optional<stored_match>{};
  };

  // A game loss on table 1: its match ends there with that player conceding.
  const json t1 = n2.ok("GET", "/admin/api/tournaments/" + four).at("rounds")[0].at("pairings")[0];
  const int loser = t1.at("a").at("player");
  n2.ok("POST", "/admin/api/tournaments/" + four + "/game_loss", {{"player", loser}, {"reason", "late"}});
  const std::string room1 = room_of[four + "/" + t1.at("table").dump()];
  CHECK(fetched == std::vector<std::string>{room1});
  auto m1 = stored_of(room1);
  REQUIRE(m1);
  REQUIRE(m1->finished());
  CHECK(m1->result->winners == std::vector<int>{1});
  CHECK(m1->result->reason == "concession");

  // A drop on table 2 whose room cannot be moved: the tournament counts it;
  // the match plays on where it is.
  reachable = false;
  const json t2 = n2.ok("GET", "/admin/api/tournaments/" + four).at("rounds")[0].at("pairings")[1];
  n2.ok("POST", "/admin/api/tournaments/" + four + "/drop", {{"player", t2.at("b").at("player")}, {"reason", "gone"}});
  const std::string room2 = room_of[four + "/" + t2.at("table").dump()];
  CHECK(fetched.back() == room2);
  CHECK(n3.h.rooms->find(room2) != nullptr);
  CHECK(!stored_of(room2)->finished());
  const json games = n2.ok("GET", "/admin/api/tournaments/" + four).at("rounds")[0].at("pairings");
  for (const json& p : games) CHECK(p.at("games")[0].at("decided") == true);

  // A re-pair of the 2-player tournament voids its match on n3.
  reachable = true;
  n2.ok("POST", "/admin/api/tournaments/" + two + "/repair", {{"reason", "wrong decks"}});
  const std::string room3 = room_of[two + "/1"];
  CHECK(fetched.back() == room3);
  auto m3 = stored_of(room3);
  REQUIRE(m3);
  REQUIRE(m3->finished());
  CHECK(m3->result->reason == "voided");
}

}  // namespace cod::server::test
