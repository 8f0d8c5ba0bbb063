// Mutation leagues run by the server (R15; docs/league.md): the organiser
// API (through admin::api, behind the tokens), players following their
// league (league_join) and acting (league_act) with refusals in words, the
// phase clock, duels in reserved rooms with the players' mutated decks, the
// ranking, and a restart that replays the league from the store. Rooms on
// the manual executor, memory_store inline.
#include <doctest/doctest.h>

#include <functional>
#include <map>
#include <optional>

#include "admin/admin_api.hpp"
#include "cod/engine/league.hpp"
#include "cod/protocol/client_messages.hpp"
#include "cod/protocol/league_json.hpp"
#include "cod/protocol/mutation_json.hpp"
#include "league_service/league_api.hpp"
#include "league_service/league_service.hpp"
#include "room_harness.hpp"
#include "../shared/store_reads.hpp"

namespace cod::server::test {
namespace {

const std::string admin_token = "admin-test-token-0123456";
const std::string organiser_token = "organiser-test-token-0123";

struct fixture {
  harness h;
  std::uint64_t counter = 7;
  // The service's and its APIs': the rooms' wall read without moving it (a
  // test moves it), ids, seeds and tokens from an LCG of `counter`.
  test_environment env;
  std::unique_ptr<league_service> svc;
  std::unique_ptr<league_api> routes;
  admin::api api{admin_token, shipped(), *h.store, env, organiser_token};

  // A cluster node's (node_id not empty): its lease claims and its wants
  // (league_service::deps), recorded; a claim is refused while refuse_claims.
  std::vector<std::string> claims, wants;
  bool refuse_claims = false;
  // A cluster node's deps::fetch_room, when set.
  std::function<void(const std::string&, league_service::deps::room_reached)> fetch_room;

  explicit fixture(match_store* shared_store = nullptr, const std::string& node_id = {})
      : h(test_config(), shared_store) {
    league_service::deps d;
    d.rooms = h.rooms;
    d.store = h.store;
    if (!node_id.empty()) {
      d.node_id = node_id;
      d.claim = [this](const std::string& id) {
        claims.push_back(id);
        return refuse_claims ? status::conflict("another node holds it") : status{};
      };
      d.want = [this](const std::string& id) {
        wants.push_back(id);
        return true;
      };
      d.fetch_room = [this](const std::string& room_id, league_service::deps::room_reached then) {
        if (fetch_room) fetch_room(room_id, std::move(then));
        else then(nullptr);
      };
    }
    d.cards = &shipped();
    env.wall = [this] { return h.wall; };
    env.random = [this] { return cod::test::lcg_next(counter); };
    d.env = &env;
    svc = std::make_unique<league_service>(d);
    routes = std::make_unique<league_api>(*svc, *h.store, env);
    api.set_leagues(routes.get());
    h.lsvc.follow_league = [this](std::string_view t, const json& id, std::weak_ptr<peer> p,
                                  const std::string& routed) { return svc->follow(t, id, std::move(p), routed); };
    h.lsvc.league_act = [this](std::string_view t, const json& id, const json& op) { return svc->act(t, id, op); };
    h.lsvc.league_mutations = [this](std::string_view t, const json& id, const json& staged) {
      return svc->legal_mutations(t, id, staged);
    };
    h.lsvc.find_event_seat = [this](std::string_view t, const std::string&) { return svc->find_seat(t); };
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
    auto r = call(method, target, body, organiser_token);
    INFO(method << " " << target << ": " << r.body);
    REQUIRE(r.status == want);
    return json::parse(r.body);
  }
};

json league_body() {
  return {{"name", "Autumn league"},
          {"players", {"Ann", "Bob", "Cy", "Di"}},
          {"packs", {"initiation", "treachery"}},
          {"seed", "99"},
          {"phase_clock_sec", 60}};
}

// The newest `league` message among `msgs` (pushes and replies).
json last_league(const std::vector<json>& msgs) {
  json out;
  for (const auto& m : msgs)
    if (m.at("type") == "league") out = m;
  REQUIRE(out.is_object());
  return out;
}

struct players {
  std::vector<client> c;
  std::vector<std::string> tokens;
  std::map<int, json> view;  // each seat's newest view
  void refresh() {
    for (int s = 0; s < 4; ++s) {
      auto msgs = c[s].take();
      bool any = false;
      for (const auto& m : msgs) any = any || m.at("type") == "league";
      if (any) view[s] = last_league(msgs).at("view");
    }
  }
  json act(int s, const json& op) {
    c[s].say({{"type", "league_act"}, {"id", 1}, {"op", op}});
    auto msgs = c[s].take();
    for (const auto& m : msgs)
      if (m.at("type") == "error" || (m.at("type") == "league" && m.contains("id"))) {
        if (m.at("type") == "league") view[s] = m.at("view");
        return m;
      }
    FAIL("no reply to league_act: " << json(msgs).dump());
    return {};
  }
};

players follow_all(fixture& f, const json& created) {
  players p;
  for (int s = 0; s < 4; ++s) {
    p.c.push_back(f.h.connect());
    p.tokens.push_back(created.at("players")[s].at("token"));
    p.c[s].say({{"type", "league_join"}, {"id", 3}, {"token", p.tokens[s]}});
    const json reply = p.c[s].expect("league");
    CHECK(reply.at("id") == 3);
    p.view[s] = reply.at("view");
  }
  return p;
}

// R15.1: every seat picks the first card of its packet until the draft ends.
void draft_all(players& p) {
  while (p.view[0].at("stage") == "drafting") {
    for (int s = 0; s < 4; ++s) {
      const json& packet = p.view[s].at("you").at("packet");
      REQUIRE(!packet.empty());
      const json r = p.act(s, {{"type", "pick"}, {"card", packet[0]}});
      REQUIRE(r.at("type") == "league");
    }
    p.refresh();
  }
}

void build_all(players& p) {
  for (int s = 0; s < 4; ++s) {
    json drafted = p.view[s].at("you").at("drafted");
    REQUIRE(drafted.size() == 16);
    json deck = json::array();
    for (int i = 0; i < 8; ++i) deck.push_back(drafted[i]);
    REQUIRE(p.act(s, {{"type", "choose_deck"}, {"cards", deck}}).at("type") == "league");
  }
  p.refresh();
}

// The seat's duel this round: tournament_join with its deck, conceding when `concede`.
struct seated {
  client c;
  std::string room;
  int seat;
  std::vector<json> received;  // what the join brought (the state, when the match started)
};
seated join_duel(fixture& f, players& p, int s) {
  const json duel = p.view[s].at("you").at("duel");
  json deck = json::array();
  for (const auto& card : p.view[s].at("you").at("deck")) deck.push_back(card.at("card").at("id"));
  seated out{f.h.connect(), duel.at("room"), duel.at("seat"), {}};
  out.c.say({{"type", "tournament_join"}, {"id", 9}, {"token", p.tokens[s]}, {"deck", {{"cards", deck}}}});
  f.h.ex->run();
  auto msgs = out.c.take();
  INFO(json(msgs).dump());
  out.received = msgs;
  const json* joined = find_type(msgs, "joined");
  REQUIRE(joined);
  CHECK(joined->at("room") == out.room);
  CHECK(joined->at("seat") == out.seat);
  return out;
}

// The league as the engine has it, from the export's ops replayed (the
// server's own value is private to it).
league replayed_league(fixture& f, const std::string& id) {
  const json exported = f.ok("GET", "/admin/api/leagues/" + id + "/export");
  std::vector<league_op> ops;
  for (const auto& o : exported.at("league").at("ops")) {
    std::string error;
    auto op = protocol::league_op_from_json(o, shipped(), error);
    REQUIRE_MESSAGE(op, error);
    ops.push_back(*op);
  }
  league out;
  int failed_at = 0;
  REQUIRE(replay_league(shipped(), league_config{99, {"initiation", "treachery"}, mutation_costs::ruling()}, ops, out,
                        failed_at)
              .ok());
  return out;
}

// The engine's legal_mutations for `seat`'s deck as it stands and `left`
// half points, on the wire.
json engine_menu(const league& l, seat_t seat, half_points left = mutation_budget) {
  std::vector<mutation> menu;
  legal_mutations(l.config().costs, l.deck_of(seat), left, menu);
  return protocol::mutations_to_json(menu, shipped());
}

// One league_mutations request of seat `s`: its reply (league_mutations or an error).
json ask_menu(players& p, int s, const json& staged) {
  p.c[s].say({{"type", "league_mutations"}, {"id", 5}, {"mutations", staged}});
  auto msgs = p.c[s].take();
  INFO(json(msgs).dump());
  REQUIRE(msgs.size() == 1);  // a reply only: nothing changed, nobody was told
  CHECK(msgs[0].at("id") == 5);
  return msgs[0];
}

}  // namespace

TEST_CASE("league API: create with refusals in words, tokens once, the organiser token opens it") {
  fixture f;
  CHECK(f.call("POST", "/admin/api/leagues", league_body(), "wrong-token-wrong-token").status == 401);
  auto bad = [&](json body, const std::string& error, const std::string& param) {
    auto r = f.call("POST", "/admin/api/leagues", body, organiser_token);
    INFO(r.body);
    CHECK(r.status == 400);
    CHECK(json::parse(r.body).at("error") == error);
    CHECK(json::parse(r.body).value("param", "") == param);
  };
  json b = league_body();
  b["players"] = {"Ann", "Bob", "Cy"};
  bad(b, "invalid_players", "players");
  b = league_body();
  b["players"] = {"Ann", "Bob", "Cy", "ann"};
  bad(b, "invalid_players", "players");
  b["players"] = {"Ann", "Bob", "Cy", "D\u202Ei"};
  bad(b, "invalid_players", "players");
  b = league_body();
  b["name"] = "";
  bad(b, "invalid_config", "name");
  b = league_body();
  b["packs"] = {"initiation", "initiation"};
  bad(b, "invalid_config", "packs");
  b = league_body();
  b["costs"] = {{"hp", -1}};
  bad(b, "invalid_config", "costs");
  b = league_body();
  b["colour"] = "red";
  bad(b, "unknown_field", "colour");
  b = league_body();
  b["turn_clock"] = {{"bank_ms", -5}, {"increment_ms", 0}};
  bad(b, "invalid_config", "turn_clock");
  CHECK(f.call("GET", "/admin/api/leagues/lnope", nullptr, organiser_token).status == 404);

  // The organiser's own cost table (R15.6) replaces the ruling's.
  b = league_body();
  json costs = protocol::mutation_costs_to_json(mutation_costs::ruling());
  costs["hp"] = 2;
  b["costs"] = costs;
  const json created = f.ok("POST", "/admin/api/leagues", b, 201);
  REQUIRE(created.at("players").size() == 4);
  CHECK(created.at("players")[2].at("name") == "Cy");
  const std::string id = created.at("league");
  // The token names its league: "ID." and 32 hex digits (protocol::event_of_token).
  const std::string cy_token = created.at("players")[2].at("token");
  CHECK(cy_token.size() == id.size() + 1 + 32);
  CHECK(protocol::event_of_token(cy_token) == id);
  const json got = f.ok("GET", "/admin/api/leagues/" + id);
  CHECK(got.at("stage") == "drafting");
  CHECK(got.at("costs").at("hp") == 2);
  // No token is ever shown again.
  CHECK(got.dump().find(created.at("players")[0].at("token").get<std::string>()) == std::string::npos);
  CHECK(f.ok("GET", "/admin/api/leagues").at("leagues").size() == 1);
  // The admin token opens it too; the organiser token opens no match log.
  CHECK(f.call("GET", "/admin/api/leagues/" + id).status == 200);
  CHECK(f.call("GET", "/admin/api/matches", nullptr, organiser_token).status == 403);
}

TEST_CASE("league step clock: absent players get the default op, a step at a time") {
  fixture f;
  const json created = f.ok("POST", "/admin/api/leagues", league_body(), 201);
  const std::string id = created.at("league");
  // Nothing before the clock runs out.
  f.h.wall += 59'000;
  f.svc->tick();
  CHECK(f.ok("GET", "/admin/api/leagues/" + id).at("draft").at("pick") == 1);
  int ticks = 0;
  json st;
  do {
    f.h.wall += 61'000;
    f.svc->tick();
    f.h.ex->run();
    st = f.ok("GET", "/admin/api/leagues/" + id);
    ++ticks;
  } while (st.at("stage") != "playing" && ticks < 30);
  // R15.1: 15 picks, one step each (the 16th card comes without a choice);
  // then the decks, then the mutation phase.
  CHECK(ticks == 17);
  CHECK(st.at("stage") == "playing");
  const json ex = f.ok("GET", "/admin/api/leagues/" + id + "/export").at("league");
  int picks = 0, decks = 0, passes = 0;
  for (const auto& op : ex.at("ops")) {
    picks += op.at("type") == "pick";
    decks += op.at("type") == "choose_deck";
    passes += op.at("type") == "pass";
  }
  CHECK(picks == 60);
  CHECK(decks == 4);
  CHECK(passes == 4);
}

TEST_CASE("league restart mid-draft and mid-phase: the same packets, picks, decks and deadline come back") {
  memory_store store(memory_store::callbacks::run_inline);
  std::string id;
  std::vector<std::string> tokens;
  std::map<int, json> before;
  {
    fixture f(&store);
    const json created = f.ok("POST", "/admin/api/leagues", league_body(), 201);
    id = created.at("league");
    players p = follow_all(f, created);
    tokens = p.tokens;
    // Three seats pick; the fourth has not yet: the draft waits in mid-pick.
    for (int s = 0; s < 3; ++s)
      REQUIRE(p.act(s, {{"type", "pick"}, {"card", p.view[s].at("you").at("packet")[0]}}).at("type") == "league");
    p.refresh();
    before = p.view;
  }
  {
    fixture f(&store);
    f.svc->load();
    for (int s = 0; s < 4; ++s) {
      auto c = f.h.connect();
      c.say({{"type", "league_join"}, {"id", 3}, {"token", tokens[s]}});
      const json v = c.expect("league").at("view");
      CHECK(v.at("you") == before[s].at("you"));
      CHECK(v.at("draft") == before[s].at("draft"));
      CHECK(v.at("phase_deadline_ms") == before[s].at("phase_deadline_ms"));
    }
    // The step clock finishes the draft and the decks; the phase waits.
    for (int i = 0; i < 16 && f.ok("GET", "/admin/api/leagues/" + id).at("stage") != "mutating"; ++i) {
      f.h.wall += 601'000;
      f.svc->tick();
    }
    REQUIRE(f.ok("GET", "/admin/api/leagues/" + id).at("stage") == "mutating");
  }
  // A restart in the mutation phase: the same stage, round and deadline.
  fixture f(&store);
  f.svc->load();
  const json after = f.ok("GET", "/admin/api/leagues/" + id);
  CHECK(after.at("stage") == "mutating");
  CHECK(after.at("round") == 1);
  CHECK(after.at("phase_deadline_ms").is_number());
  auto c = f.h.connect();
  c.say({{"type", "league_join"}, {"id", 3}, {"token", tokens[0]}});
  CHECK(c.expect("league").at("view").at("you").at("deck").size() == 8);
}

TEST_CASE("league in a cluster: its id names its node, it holds a lease, moves to the node that asks with its views "
          "and deadline, and the node it left closes its followers (docs/cluster.md, Tournaments and leagues)") {
  memory_store store(memory_store::callbacks::run_inline);
  fixture n1(&store, "n1");
  fixture n2(&store, "n2");
  // A node that cannot take the new league's lease creates nothing.
  n1.refuse_claims = true;
  auto refused = n1.call("POST", "/admin/api/leagues", league_body(), organiser_token);
  CHECK(refused.status == 503);
  CHECK(json::parse(refused.body).at("error") == "store_unavailable");
  CHECK(json::parse(n1.call("GET", "/admin/api/leagues", nullptr, organiser_token).body).at("leagues").empty());
  n1.refuse_claims = false;

  const json created = n1.ok("POST", "/admin/api/leagues", league_body(), 201);
  const std::string id = created.at("league");
  CHECK(id.starts_with("n1-l"));
  CHECK(n1.claims.back() == id);
  CHECK(n1.svc->running() == std::vector<std::string>{id});
  players p = follow_all(n1, created);
  for (int s = 0; s < 3; ++s)
    REQUIRE(p.act(s, {{"type", "pick"}, {"card", p.view[s].at("you").at("packet")[0]}}).at("type") == "league");
  p.refresh();
  const auto before = p.view;

  // The proxy sends a player to n2 (n1 is away): n2 asks for the league and
  // says it is moving; a token routed elsewhere, or to no league, is unknown.
  auto c = n2.h.connect();
  c.session->set_routed_room(id);
  c.say({{"type", "league_join"}, {"id", 4}, {"token", p.tokens[3]}});
  const json waiting = c.expect("error");
  CHECK(waiting.at("code") == "tournament_waiting");
  CHECK(waiting.at("message").get<std::string>().find("moving to this node") != std::string::npos);
  CHECK(n2.wants == std::vector<std::string>{id});
  c.say({{"type", "league_act"}, {"id", 5}, {"op", {{"type", "pass"}}}});
  CHECK(c.expect("error").at("code") == "not_in_league");  // the waiting join followed nothing
  auto stray = n2.h.connect();
  stray.say({{"type", "league_join"}, {"id", 4}, {"token", p.tokens[3]}});
  CHECK(stray.expect("error").at("code") == "bad_token");  // not routed: nothing moves
  CHECK(n2.wants.size() == 1);
  // The organiser reads the stored copy on n2 meanwhile; an act waits.
  const json stored = n2.ok("GET", "/admin/api/leagues/" + id);
  CHECK(stored.at("stage") == "drafting");
  auto act = n2.call("POST", "/admin/api/leagues/" + id + "/result", {{"table", 0}, {"winner", nullptr}}, organiser_token);
  CHECK(act.status == 503);
  CHECK(json::parse(act.body).at("error") == "league_moving");

  // n1 hands it over: saved, then its followers are closed (they come back
  // through the proxy); n2 adopts it from the store.
  bool saved = false;
  n1.svc->give_up(id, [&saved] { saved = true; });
  CHECK(saved);
  CHECK(n1.svc->running().empty());
  for (int s = 0; s < 4; ++s) CHECK(p.c[s].peer->close_code == protocol::close_code::going_away);
  REQUIRE(n2.svc->adopt(id));
  CHECK(n2.svc->running() == std::vector<std::string>{id});
  CHECK_FALSE(n2.svc->adopt("n1-lffffffffff"));  // nothing stored under that id
  c.say({{"type", "league_join"}, {"id", 6}, {"token", p.tokens[3]}});
  const json back = c.expect("league").at("view");
  CHECK(back.at("you") == before.at(3).at("you"));
  CHECK(back.at("phase_deadline_ms") == before.at(3).at("phase_deadline_ms"));
  // The draft goes on on n2, from where it was.
  c.say({{"type", "league_act"}, {"id", 7}, {"op", {{"type", "pick"}, {"card", back.at("you").at("packet")[0]}}}});
  CHECK(c.expect("league").at("view").at("draft") != before.at(3).at("draft"));
  // n1, asked again, answers with the stored copy, now n2's.
  CHECK(n1.ok("GET", "/admin/api/leagues/" + id).at("draft") == n2.ok("GET", "/admin/api/leagues/" + id).at("draft"));
  // Another node took the lease: n2 forgets it, without a save.
  n2.svc->lost(id);
  CHECK(n2.svc->running().empty());
}

TEST_CASE("league in a cluster: an organiser's result for a duel running on another node brings its room over and "
          "voids its match there; the table counts the result") {
  memory_store store(memory_store::callbacks::run_inline);
  std::string id, room0;
  {
    fixture n1(&store, "n1");
    const json created = n1.ok("POST", "/admin/api/leagues", league_body(), 201);
    id = created.at("league");
    players p = follow_all(n1, created);
    draft_all(p);
    build_all(p);
    for (int s = 0; s < 4; ++s) REQUIRE(p.act(s, {{"type", "pass"}}).at("type") == "league");
    p.refresh();
    REQUIRE(p.view[0].at("stage") == "playing");
    // Table 0's duel starts (both seated); table 1's waits.
    auto a = join_duel(n1, p, 0);
    auto b = join_duel(n1, p, 1);
    room0 = a.room;
    n1.h.crash();
  }
  // n1 died; n3 took table 0's match room; n2 takes the league over, but
  // cannot bring the room yet (n3 does not answer).
  fixture n3(&store, "n3");
  REQUIRE(n3.h.rooms->recover(read_ok(store.reader().load_unfinished())) == 1);
  n3.h.ex->run();
  REQUIRE(n3.h.rooms->find(room0));
  fixture n2(&store, "n2");
  std::vector<std::string> fetched;
  bool reachable = false;
  n2.fetch_room = [&](const std::string& room_id, league_service::deps::room_reached then) {
    fetched.push_back(room_id);
    if (!reachable) return then(nullptr);
    then(n3.h.hand_over(room_id, n2.h));
    n2.h.ex->run();
  };
  REQUIRE(n2.svc->adopt(id));
  CHECK(fetched == std::vector<std::string>{room0});  // asked for at adoption, not reached
  CHECK(!n2.h.rooms->find(room0));

  // The organiser gives table 0 to Bob: the room comes to n2 and its match ends voided.
  reachable = true;
  n2.ok("POST", "/admin/api/leagues/" + id + "/result", {{"table", 0}, {"winner", 1}, {"reason", "ruled"}});
  CHECK(fetched == std::vector<std::string>{room0, room0});
  CHECK(!n3.h.rooms->find(room0));
  std::optional<stored_match> m;
  for (const auto& row : read_ok(store.reader().list_matches({})))
    if (row.room_id == room0) m = read_ok(store.reader().load_match(row.match_id));
  REQUIRE(m);
  REQUIRE(m->finished());
  CHECK(m->result->reason == "voided");
  CHECK(m->result->winners.empty());
  const json after = n2.ok("GET", "/admin/api/leagues/" + id);
  CHECK(after.at("schedule")[0].at("tables")[0].at("winner") == 1);
}

TEST_CASE("league over the wire: draft, decks, mutations with refusals, duels with mutated cards, ranking, restart") {
  memory_store store(memory_store::callbacks::run_inline);
  std::string id;
  players p;
  std::vector<std::string> tokens;
  {
    fixture f(&store);
    const json created = f.ok("POST", "/admin/api/leagues", league_body(), 201);
    id = created.at("league");
    p = follow_all(f, created);
    tokens = p.tokens;
    // Unknown tokens and acts before league_join are refused.
    auto stranger = f.h.connect();
    stranger.say({{"type", "league_join"}, {"id", 1}, {"token", std::string(32, 'a')}});
    CHECK(stranger.expect("error").at("code") == "bad_token");
    stranger.say({{"type", "league_act"}, {"id", 2}, {"op", {{"type", "pass"}}}});
    CHECK(stranger.expect("error").at("code") == "not_in_league");
    stranger.say({{"type", "league_act"}, {"id", 2}, {"op", {{"type", "pass"}, {"seat", 1}}}});
    CHECK(stranger.expect("error").at("code") == "unknown_field");

    // E77: each sees its own packet only; the others' counts.
    const json v0 = p.view[0];
    CHECK(v0.at("stage") == "drafting");
    CHECK(v0.at("you").at("packet").size() == 16);
    CHECK(v0.at("name") == "Autumn league");
    for (int s = 1; s < 4; ++s) CHECK(p.view[s].at("you").at("packet") != v0.at("you").at("packet"));
    // A card not in the packet: refused in words, nothing changes.
    const json wrong = p.act(0, {{"type", "pick"}, {"card", p.view[1].at("you").at("packet")[0]}});
    CHECK(wrong.at("code") == "league_refused");
    CHECK(wrong.at("refusal").at("error") == "draft_refused");
    CHECK(!wrong.at("message").get<std::string>().empty());
    // Out of stage: a deck while drafting.
    CHECK(p.act(0, {{"type", "choose_deck"}, {"cards", json::array()}}).at("refusal").at("error") == "wrong_stage");
    draft_all(p);
    CHECK(p.view[0].at("stage") == "building");
    // R15.2: 8 of one's own 16; wrong count and another's card refused.
    json mine = p.view[0].at("you").at("drafted");
    json seven = json::array();
    for (int i = 0; i < 7; ++i) seven.push_back(mine[i]);
    json r = p.act(0, {{"type", "choose_deck"}, {"cards", seven}});
    CHECK(r.at("refusal").at("detail") == "wrong_count");
    json stolen = seven;
    stolen.push_back(p.view[1].at("you").at("drafted")[0]);
    r = p.act(0, {{"type", "choose_deck"}, {"cards", stolen}});
    CHECK(r.at("refusal").at("detail") == "card_not_drafted");
    build_all(p);
    CHECK(p.view[0].at("stage") == "mutating");
    CHECK(p.view[0].at("round") == 1);
    CHECK(p.view[0].at("you").at("lab").size() == 8);
    // Nobody's lab or deck in another's view.
    CHECK(!p.view[1].at("players")[0].contains("lab"));
    CHECK(p.view[1].dump().find(p.view[0].at("you").at("lab")[0].at("card").get<std::string>()) ==
          std::string::npos);
    CHECK(p.view[0].at("phase_deadline_ms") == f.h.wall + 60'000);

    // R15.5: a mutation that breaks a limit is refused with its code, and
    // changes nothing; one the engine lists as legal is accepted.
    const json deck0 = p.view[0].at("you").at("deck");
    r = p.act(0, {{"type", "mutate"},
                  {"mutations", {{{"target", p.view[0].at("you").at("lab")[0].at("card")},
                                  {"source", p.view[0].at("you").at("lab")[1].at("card")},
                                  {"element", "hp"}}}}});
    CHECK(r.at("refusal").at("error") == "mutation_refused");
    CHECK(r.at("refusal").at("index") == 0);
    // The engine's own menu for seat 0, from the export's ops replayed.
    const json exported = f.ok("GET", "/admin/api/leagues/" + id + "/export");
    std::vector<league_op> ops;
    for (const auto& o : exported.at("league").at("ops")) {
      std::string error;
      ops.push_back(*protocol::league_op_from_json(o, shipped(), error));
    }
    league replayed;
    int failed_at = 0;
    REQUIRE(replay_league(shipped(), league_config{99, {"initiation", "treachery"}, mutation_costs::ruling()}, ops,
                          replayed, failed_at)
                .ok());
    std::vector<mutation> menu;
    legal_mutations(mutation_costs::ruling(), replayed.deck_of(0), mutation_budget, menu);
    REQUIRE(!menu.empty());
    const json m = protocol::mutation_to_json(menu.front(), shipped());
    r = p.act(0, {{"type", "mutate"}, {"mutations", {m}}});
    REQUIRE(r.at("type") == "league");
    CHECK(r.at("view").at("you").at("mutations").size() == 1);
    CHECK(r.at("view").at("you").at("mutations")[0].at("mutation") == m);
    CHECK(p.act(0, {{"type", "pass"}}).at("refusal").at("error") == "already_done");
    CHECK(p.act(1, {{"type", "pass"}}).at("type") == "league");
    // R15.4: the phase clock passes the two who did not act.
    f.h.wall += 61'000;
    f.svc->tick();
    f.h.ex->run();
    p.refresh();
    REQUIRE(p.view[0].at("stage") == "playing");
    // R15.3: both duels open, reserved; the mutated card is in the duel's cards.
    const json duel0 = p.view[0].at("you").at("duel");
    CHECK(duel0.at("opponent") == "Bob");  // E78: round 1 is A-B and C-D
    auto a = join_duel(f, p, 0);
    auto b = join_duel(f, p, 1);
    const json* st = find_type(b.received, "state");
    REQUIRE(st);
    bool has_mutated = false;
    for (const auto& def : st->at("cards"))
      has_mutated = has_mutated || def.at("id") == m.at("target");
    CHECK(has_mutated);
    // Bob concedes: Ann wins table 0.
    b.c.say({{"type", "act"}, {"id", 4}, {"action", {{"type", "concede"}}}});
    f.h.ex->run();
    p.refresh();
    CHECK(p.view[0].at("schedule")[0].at("tables")[0].at("winner") == 0);
    CHECK(p.view[2].at("stage") == "playing");
    // The store has the league as it stands.
    const auto saved = read_leagues(store);
    REQUIRE(saved.size() == 1);
    CHECK(saved[0].id == id);
    CHECK_FALSE(saved[0].finished);
  }
  // ---- A restart: the league replays from the store; the open duel of
  // table 1 gets its room again (the old one went with the process).
  fixture f(&store);
  f.svc->load();
  f.h.ex->run();
  const json after = f.ok("GET", "/admin/api/leagues/" + id);
  CHECK(after.at("stage") == "playing");
  CHECK(after.at("schedule")[0].at("tables")[0].at("winner") == 0);
  f.svc->tick();
  f.h.ex->run();
  players q;
  q.tokens = tokens;
  for (int s = 0; s < 4; ++s) {
    q.c.push_back(f.h.connect());
    q.c[s].say({{"type", "league_join"}, {"id", 3}, {"token", tokens[s]}});
    q.view[s] = q.c[s].expect("league").at("view");
  }
  // The rest of the league, every duel conceded by its seat 1, table 1 of
  // round 1 first; the organiser records one result himself.
  int guard = 0;
  while (q.view[0].at("stage") != "finished" && ++guard < 40) {
    const std::string stage = q.view[0].at("stage");
    if (stage == "mutating") {
      for (int s = 0; s < 4; ++s) CHECK(q.act(s, {{"type", "pass"}}).at("type") == "league");
    } else if (stage == "playing") {
      const int round = q.view[0].at("round");
      if (round == 3) {
        // An organiser's result: table 1, seat 2's player wins.
        const json ans = f.ok("POST", "/admin/api/leagues/" + id + "/result",
                              {{"table", 1}, {"winner", q.view[0].at("schedule")[2].at("tables")[1].at("seats")[0]},
                               {"reason", "no-show"}});
        CHECK(ans.at("schedule")[2].at("tables")[1].at("winner").is_number());
        CHECK(f.call("POST", "/admin/api/leagues/" + id + "/result", {{"table", 1}, {"winner", nullptr}}).status == 409);
        q.refresh();
        for (int s = 0; s < 4; ++s)
          if (q.view[s].at("you").contains("duel")) CHECK(q.view[s].at("you").at("duel").at("table") == 0);
      }
      // Each open duel: both players sit down, its seat 1 concedes.
      std::map<int, std::pair<int, int>> tables;  // table -> (seat 0's player, seat 1's)
      for (int s = 0; s < 4; ++s) {
        if (!q.view[s].at("you").contains("duel")) continue;
        const json duel = q.view[s].at("you").at("duel");
        auto& t = tables[duel.at("table").get<int>()];
        (duel.at("seat") == 0 ? t.first : t.second) = s;
      }
      for (const auto& [table, who] : tables) {
        auto first = join_duel(f, q, who.first);
        auto second = join_duel(f, q, who.second);
        second.c.say({{"type", "act"}, {"id", 4}, {"action", {{"type", "concede"}}}});
        f.h.ex->run();
      }
    }
    q.refresh();
  }
  REQUIRE(q.view[0].at("stage") == "finished");
  // R15.7: 12 duels, each with a winner.
  const json standings = f.ok("GET", "/admin/api/leagues/" + id + "/standings").at("standings");
  int played = 0, won = 0;
  for (const auto& s : standings) {
    played += s.at("played").get<int>();
    won += s.at("won").get<int>();
  }
  CHECK(played == 24);
  CHECK(won == 12);
  const json ex = f.ok("GET", "/admin/api/leagues/" + id + "/export");
  CHECK(ex.at("format") == "cod-league-export/1");
  CHECK(ex.at("matches").size() >= 11);  // one result came from the organiser
  CHECK(read_leagues(store).at(0).finished);
  // A finished league seats nobody.
  auto late = f.h.connect();
  late.say({{"type", "tournament_join"}, {"id", 1}, {"token", tokens[0]}, {"deck", {{"preconstructed", 1}}}});
  CHECK(late.expect("error").at("code") == "tournament_over");
}

}  // namespace cod::server::test

namespace cod::server::test {

TEST_CASE("league legal mutations: the view lists the engine's, only to its player; each accepted, others refused") {
  memory_store store(memory_store::callbacks::run_inline);
  fixture f(&store);
  const json created = f.ok("POST", "/admin/api/leagues", league_body(), 201);
  const std::string id = created.at("league");
  players p = follow_all(f, created);
  // Drafting and building: nothing to mutate, no list.
  for (int s = 0; s < 4; ++s) CHECK_FALSE(p.view[s].at("you").contains("legal_mutations"));
  draft_all(p);
  build_all(p);
  REQUIRE(p.view[0].at("stage") == "mutating");

  // R15.4: each player's view lists the engine's legal_mutations for its
  // deck as it stands and the phase's 2.5 points, in the engine's order.
  league l = replayed_league(f, id);
  for (int s = 0; s < 4; ++s) {
    const json& listed = p.view[s].at("you").at("legal_mutations");
    CHECK(listed == engine_menu(l, static_cast<seat_t>(s)));
    CHECK(listed.size() > 20);
    // Never another player's cards: none of seat t's drafted cards (deck
    // and lab) is named in seat s's view, its list included.
    for (int t = 0; t < 4; ++t)
      if (t != s)
        for (card_id c : l.drafted(static_cast<seat_t>(t)))
          CHECK(p.view[s].dump().find("\"" + shipped().def(c).id + "\"") == std::string::npos);
  }
  // The public view (the organiser's) has no player's list.
  CHECK(f.ok("GET", "/admin/api/leagues/" + id).dump().find("legal_mutations") == std::string::npos);

  // league_mutations: the same list for nothing staged; after a staged
  // mutation, the engine's list for the deck as it leaves it, within the
  // points it leaves; a staged list the league would refuse, refused alike.
  const json listed0 = p.view[0].at("you").at("legal_mutations");
  json r = ask_menu(p, 0, json::array());
  REQUIRE(r.at("type") == "league_mutations");
  CHECK(r.at("league") == id);
  CHECK(r.at("round") == 1);
  CHECK(r.at("points_left") == 2.5);
  CHECK(r.at("legal_mutations") == listed0);
  const json first = listed0[0];
  const auto first_m = protocol::mutation_from_json(first, shipped());
  REQUIRE(first_m.ok());
  r = ask_menu(p, 0, json::array({first}));
  REQUIRE(r.at("type") == "league_mutations");
  league_deck after_first = l.deck_of(0);
  half_points spent = 0;
  REQUIRE(apply_mutations(l.config().costs, after_first, {first_m.m}, &spent).ok());
  CHECK(r.at("points_left") == (mutation_budget - spent) / 2.0);
  {
    std::vector<mutation> menu;
    legal_mutations(l.config().costs, after_first, mutation_budget - spent, menu);
    CHECK(r.at("legal_mutations") == protocol::mutations_to_json(menu, shipped()));
  }
  const json after_listed = r.at("legal_mutations");
  REQUIRE(!after_listed.empty());
  r = ask_menu(p, 0, json::array({first, first}));
  CHECK(r.at("code") == "league_refused");
  CHECK(r.at("refusal").at("error") == "mutation_refused");
  CHECK(r.at("refusal").at("index") == 1);
  json broken = first;
  broken["element"] = "colour";
  r = ask_menu(p, 0, json::array({broken}));
  CHECK(r.at("code") == "bad_field_value");
  CHECK(r.at("field") == "mutations[0].element");
  auto stranger = f.h.connect();
  stranger.say({{"type", "league_mutations"}, {"id", 2}, {"mutations", json::array()}});
  CHECK(stranger.expect("error").at("code") == "not_in_league");
  // Asking changed nothing: the league is as it was, nobody was pushed.
  p.refresh();
  CHECK(p.view[0].at("you").at("mutations").empty());
  CHECK(replayed_league(f, id).digest() == l.digest());

  // A mutation the list lacks is refused by league_act: the first mana,
  // AV or HP of a lab card onto a deck card that is not listed.
  json unlisted;
  for (const auto& d : p.view[0].at("you").at("deck"))
    for (const auto& lab : p.view[0].at("you").at("lab"))
      for (const char* element : {"mana", "av", "hp"}) {
        json m = {{"target", d.at("card").at("id")}, {"source", lab.at("card")}, {"element", element}};
        if (unlisted.is_null() && std::find(listed0.begin(), listed0.end(), m) == listed0.end()) unlisted = m;
      }
  REQUIRE(unlisted.is_object());
  r = p.act(0, {{"type", "mutate"}, {"mutations", {unlisted}}});
  CHECK(r.at("code") == "league_refused");
  CHECK(r.at("refusal").at("error") == "mutation_refused");

  // Every listed mutation is accepted by a league_act, alone; and every one
  // listed after `first`, after it. Each on its own copy of the league (a
  // phase takes one act): the saved league loaded by a fresh server.
  const stored_league saved = read_leagues(store).at(0);
  auto act_on_copy = [&](const json& list) {
    memory_store copy(memory_store::callbacks::run_inline);
    copy.save_league(saved, [](const status& st) { REQUIRE(st); });
    fixture g(&copy);
    g.svc->load();
    players one;
    one.c.push_back(g.h.connect());
    one.c[0].say({{"type", "league_join"}, {"id", 1}, {"token", p.tokens[0]}});
    one.c[0].expect("league");
    return one.act(0, {{"type", "mutate"}, {"mutations", list}});
  };
  auto accepted = [&](const json& list) {
    const json reply = act_on_copy(list);
    INFO(list.dump() << " -> " << reply.dump());
    REQUIRE(reply.at("type") == "league");
    const json& done = reply.at("view").at("you").at("mutations");
    REQUIRE(done.size() == list.size());
    for (std::size_t i = 0; i < list.size(); ++i) CHECK(done[i].at("mutation") == list[i]);
    // Acted: no list any more in this phase.
    CHECK_FALSE(reply.at("view").at("you").contains("legal_mutations"));
  };
  for (const json& m : listed0) accepted(json::array({m}));
  for (const json& m : after_listed) accepted(json::array({first, m}));
  // And the copy refuses what the list lacks, as the league did.
  CHECK(act_on_copy(json::array({unlisted})).at("code") == "league_refused");

  // In the league itself: seat 0 sends one listed mutation; its view has
  // no list any more, the others' still have theirs, unchanged.
  r = p.act(0, {{"type", "mutate"}, {"mutations", {first}}});
  REQUIRE(r.at("type") == "league");
  CHECK_FALSE(r.at("view").at("you").contains("legal_mutations"));
  p.refresh();
  CHECK(p.view[1].at("you").at("legal_mutations") == engine_menu(l, 1));
  CHECK(ask_menu(p, 0, json::array()).at("refusal").at("error") == "already_done");

  // Round 2: the lists are the engine's for the decks as mutated (seat 0's
  // mutated element and used lab element are no longer offered).
  for (int s = 1; s < 4; ++s) REQUIRE(p.act(s, {{"type", "pass"}}).at("type") == "league");
  p.refresh();
  REQUIRE(p.view[0].at("stage") == "playing");
  CHECK_FALSE(p.view[1].at("you").contains("legal_mutations"));
  f.ok("POST", "/admin/api/leagues/" + id + "/result", {{"table", 0}, {"winner", nullptr}, {"reason", "test"}});
  f.ok("POST", "/admin/api/leagues/" + id + "/result", {{"table", 1}, {"winner", nullptr}, {"reason", "test"}});
  p.refresh();
  REQUIRE(p.view[0].at("stage") == "mutating");
  REQUIRE(p.view[0].at("round") == 2);
  l = replayed_league(f, id);
  for (int s = 0; s < 4; ++s) CHECK(p.view[s].at("you").at("legal_mutations") == engine_menu(l, static_cast<seat_t>(s)));
  const json round2 = p.view[0].at("you").at("legal_mutations");
  REQUIRE(!round2.empty());
  for (const json& m : round2) {
    CHECK(m != first);
    // R15.4, R15.5: the mutated element is not covered again; the lab element is used.
    if (m.at("element") == first.at("element") && first.at("element") != "ability") {
      CHECK(m.at("target") != first.at("target"));
      CHECK(m.at("source") != first.at("source"));
    }
  }
}

}  // namespace cod::server::test
