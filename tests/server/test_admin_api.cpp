// The admin API's handlers (server/admin/admin_api.hpp), called directly:
// access control and its log, parameter errors, and what it reads about a
// real duel played through the engine and stored as the server stores it.
// The views a test compares with were taken while playing, not by the
// admin's replay.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <random>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include "../shared/catalogue.hpp"
#include "admin/admin_api.hpp"
#include "admin/match_report.hpp"
#include "cod/engine/match.hpp"
#include "cod/engine/rng.hpp"
#include "cod/protocol/json_codec.hpp"
#include "cod/protocol/wire_names.hpp"
#include "common/sha256.hpp"
#include "log_capture.hpp"
#include "persist/memory/memory_store.hpp"
#include "persist/sqlite/sqlite_store.hpp"
#include "persist/sqlite/sqlite_util.hpp"
#include "replay/draft_log.hpp"
#include "replay/recovery.hpp"
#include "../shared/store_reads.hpp"

using namespace cod::server;
using cod::server::test::read_ok;
using cod::test::shipped;
using nlohmann::json;
using cod::server::test::log_capture;

namespace {

constexpr const char* token = "test-admin-token-0123456789";
constexpr const char* auth = "Bearer test-admin-token-0123456789";

struct played {
  stored_match sm;
  std::vector<json> views;  // the referee view after the setup (0) and after each action, as played
};

// An accepted action as a room stores it: its wire form and the digest after it.
action_record stored_action(const cod::match& m, const cod::action& act, std::int64_t seq, std::int64_t at_ms) {
  action_record ar;
  ar.seq = seq;
  ar.seat = act.seat;
  ar.action_json = cod::protocol::action_to_json(act).dump();
  ar.digest = m.digest();
  ar.at_ms = at_ms;
  return ar;
}

// The result of a match that is over, as a room stores it.
match_result stored_result(const cod::match& m, std::int64_t ended_ms) {
  match_result r;
  r.winners = cod::winner_seats(m.winners());
  r.reason = std::string(cod::protocol::end_reason_name(m.view(cod::referee).reason));
  r.ended_ms = ended_ms;
  return r;
}

// A duel between random legal moves (preconstructed decks 1 and 2), stored
// as a room stores it: the record, each action with its digest, the result.
// max_actions < 0: to the end.
played play_and_store(match_store& store, const std::string& id, std::uint64_t seed, std::int64_t created_ms,
                      int max_actions, const std::string& name0 = "Ann", const std::string& name1 = "Ben") {
  played p;
  match_record& rec = p.sm.match;
  rec.match_id = id;
  rec.room_id = "room-" + id;
  rec.mode = "duel";
  rec.format = "preconstructed";
  rec.options_json = R"({"exhaustion":false})";
  rec.rules_version = "test";
  rec.engine_version = cod::engine_version;
  rec.seed = seed;
  rec.seed_hash = seed_commitment(seed);
  rec.created_ms = created_ms;
  rec.seats = {{0, name0, sha256_hex("t0"), R"({"preconstructed":1})"},
               {1, name1, sha256_hex("t1"), R"({"preconstructed":2})"}};
  cod::match_config cfg;
  const status read = config_from_record(shipped(), rec, cfg);
  REQUIRE_MESSAGE(read, read.message());
  cod::match m;
  std::vector<cod::event> events;
  REQUIRE(cod::match::create(shipped(), cfg, m, events) == cod::rule_error::ok);
  p.views.push_back(cod::protocol::view_to_json(m.view(cod::referee), shipped()));
  store.create_match(rec, nullptr);
  cod::rng player(seed * 31 + 7);
  std::vector<cod::action> legal;
  for (int n = 0; !m.over() && (max_actions < 0 || n < max_actions); ++n) {
    m.legal_actions(legal);
    REQUIRE(!legal.empty());
    const cod::action act = legal[player.below(legal.size())];
    events.clear();
    REQUIRE(m.apply(act, events) == cod::rule_error::ok);
    const action_record ar = stored_action(m, act, n + 1, created_ms + n);
    p.sm.actions.push_back(ar);
    p.views.push_back(cod::protocol::view_to_json(m.view(cod::referee), shipped()));
    store.append_action(id, ar, nullptr);
  }
  if (m.over()) {
    const match_result r = stored_result(m, created_ms + 100000);
    store.finish_match(id, r, nullptr);
    p.sm.result = r;
  }
  store.flush();
  return p;
}

// Copies a stored match into `store`, after `change` edits it (tampering).
template <class F>
void store_copy(match_store& store, stored_match sm, F&& change) {
  change(sm);
  store.create_match(sm.match, nullptr);
  for (const auto& a : sm.actions) store.append_action(sm.match.match_id, a, nullptr);
  if (sm.result) store.finish_match(sm.match.match_id, *sm.result, nullptr);
  store.flush();
}

// A drafted duel (R14) stored as room_draft.cpp stores it: the record when
// the draft starts (each seat's deck {"draft":true}), the draft log's rows
// step by step (replay/draft_log.hpp), then the match created from the
// drafted decks and seed (RULING E62) and played to its end by random legal
// moves. max_picks >= 0: stop the draft after that many picks (the server
// stopped mid-draft).
stored_match draft_and_store(match_store& store, const std::string& id, const std::string& format,
                             std::uint64_t seed, int max_picks) {
  match_record rec;
  rec.match_id = id;
  rec.room_id = "room-" + id;
  rec.mode = "duel";
  rec.format = format;
  rec.options_json = R"({"exhaustion":false})";
  rec.rules_version = "test";
  rec.engine_version = cod::engine_version;
  rec.seed = seed;
  rec.seed_hash = seed_commitment(seed);
  rec.created_ms = 1700000003000;
  rec.seats = {{0, "Dee", sha256_hex("t0"), R"({"draft":true})"}, {1, "Eve", sha256_hex("t1"), R"({"draft":true})"}};
  store.create_match(rec, nullptr);
  cod::draft_config cfg;
  const status read = draft_config_from_record(rec, cfg);
  REQUIRE_MESSAGE(read, read.message());
  cod::draft d;
  std::vector<cod::draft_event> events;
  REQUIRE(cod::draft::create(shipped(), cfg, d, events) == cod::draft_error::ok);
  std::int64_t next = 1, at = rec.created_ms;
  store.append_draft(id, draft_rows(shipped(), d, nullptr, events, next, at), nullptr);
  cod::rng r(seed + 1);
  std::vector<cod::draft_pick> legal;
  for (int picks = 0; !d.finished() && (max_picks < 0 || picks < max_picks); ++picks) {
    REQUIRE(picks < 200);
    d.legal_picks(legal);
    if (legal.empty()) {  // secret lists (R14.7) are not enumerated: any `count` pool cards
      const auto w = d.waiting();
      REQUIRE(!w.empty());
      std::vector<cod::card_id> pool = d.state().pool;
      r.shuffle(pool.data(), static_cast<int>(pool.size()));
      pool.resize(static_cast<std::size_t>(w[0].count));
      cod::draft_pick p;
      p.type = cod::draft_pick_type::submit;
      p.seat = w[0].seat;
      p.cards = pool;
      legal.push_back(p);
    }
    const cod::draft_pick p = legal[r.below(legal.size())];
    events.clear();
    REQUIRE(d.apply(p, events) == cod::draft_error::ok);
    store.append_draft(id, draft_rows(shipped(), d, &p, events, next, ++at), nullptr);
  }
  if (d.finished()) {
    cod::match_config mc;
    const status read_match = config_from_record(shipped(), rec, mc);
    REQUIRE_MESSAGE(read_match, read_match.message());
    for (std::size_t s = 0; s < 2; ++s) mc.decks[s] = d.decks()[s];
    mc.seed = d.match_seed();
    cod::match m;
    std::vector<cod::event> setup;
    REQUIRE(cod::match::create(shipped(), mc, m, setup) == cod::rule_error::ok);
    std::vector<cod::action> moves;
    std::vector<cod::event> ev;
    for (int n = 0; !m.over(); ++n) {
      REQUIRE(n < 5000);
      m.legal_actions(moves);
      const cod::action act = moves[r.below(moves.size())];
      ev.clear();
      REQUIRE(m.apply(act, ev) == cod::rule_error::ok);
      store.append_action(id, stored_action(m, act, n + 1, ++at), nullptr);
    }
    store.finish_match(id, stored_result(m, ++at), nullptr);
  }
  store.flush();
  auto sm = read_ok(store.reader().load_match(id));
  REQUIRE(sm);
  return *sm;
}

admin::response get(const admin::api& api, const std::string& target, const std::string& authorization = auth,
                    const std::string& method = "GET") {
  admin::request r;
  r.method = method;
  r.target = target;
  r.authorization = authorization;
  r.remote = "10.1.2.3:4567";
  return api.handle(r);
}

json body(const admin::response& r) {
  REQUIRE(r.content_type == "application/json");
  return json::parse(r.body);
}

struct fixture {
  memory_store store{memory_store::callbacks::run_inline};
  admin::api api{token, shipped(), store, environment::system()};
  played full = play_and_store(store, "m-full", 20261122, 1700000002000, -1, "Ann", "Ben");
  played part = play_and_store(store, "m-part", 7700123456789ull, 1700000001000, 9, "Cid", "ann");
};

bool has_line(const std::vector<std::string>& lines, const std::string& want) {
  for (const auto& l : lines)
    if (l == want) return true;
  return false;
}

}  // namespace

TEST_CASE("admin api: tokens; refused requests get 401 or 403 and no data; every access is logged") {
  fixture f;
  log_capture logs;

  SUBCASE("an empty admin_token disables the API") {
    admin::api off("", shipped(), f.store, environment::system());
    CHECK(!off.enabled());
    auto r = get(off, "/admin/api/matches", auth);
    CHECK(r.status == 403);
    CHECK(body(r)["error"] == "admin_disabled");
    CHECK(r.body.find("m-full") == std::string::npos);
  }
  SUBCASE("no Authorization header") {
    auto r = get(f.api, "/admin/api/matches", "");
    CHECK(r.status == 401);
    CHECK(body(r)["error"] == "unauthorized");
    CHECK(!body(r).contains("matches"));
    CHECK(r.body.find("m-full") == std::string::npos);
    REQUIRE(r.headers.size() == 1);
    CHECK(r.headers[0].first == "WWW-Authenticate");
    const auto lines = logs.lines();
    REQUIRE(!lines.empty());
    CHECK(lines.back() == "warning admin: 10.1.2.3:4567 GET /admin/api/matches refused: 401 unauthorized");
  }
  SUBCASE("a wrong token, a prefix of the token, the token plus more, another scheme") {
    for (std::string h : {std::string("Bearer wrong"), std::string("Bearer test-admin-token"),
                          std::string(auth) + "x", std::string("Basic ") + token, std::string(token),
                          std::string("Bearer ")}) {
      INFO(h);
      auto r = get(f.api, "/admin/api/matches/m-full/export", h);
      CHECK(r.status == 401);
      CHECK(body(r)["error"] == "unauthorized");
      CHECK(r.body.find("actions") == std::string::npos);
    }
    const auto lines = logs.lines();
    REQUIRE(lines.size() >= 6);
    CHECK(lines.back() ==
          "warning admin: 10.1.2.3:4567 GET /admin/api/matches/m-full/export refused: 401 unauthorized");
    for (const auto& l : lines) CHECK(l.find(token) == std::string::npos);  // the token is never logged
  }
  SUBCASE("the right token; the scheme is case-insensitive") {
    auto r = get(f.api, "/admin/api/matches");
    CHECK(r.status == 200);
    CHECK(body(r)["count"] == 2);
    CHECK(get(f.api, "/admin/api/matches", std::string("bearer ") + token).status == 200);
    const auto lines = logs.lines();
    REQUIRE(!lines.empty());
    CHECK(has_line(lines, "info admin: 10.1.2.3:4567 as admin: GET /admin/api/matches -> 200 ok"));
  }
  SUBCASE("the organiser token opens /admin/api/tournaments only") {
    const std::string org = "organiser-token-0123456789";
    admin::api both(token, shipped(), f.store, environment::system(), org);
    // No tournaments on this api: past the token check, the route says so.
    auto r = get(both, "/admin/api/tournaments", "Bearer " + org);
    CHECK(r.status == 404);
    CHECK(body(r)["error"] == "not_found");
    CHECK(get(both, "/admin/api/tournaments/t1/standings?x=1", "Bearer " + org).status == 404);
    for (std::string target : {"/admin/api/matches", "/admin/api/matches/m-full/export", "/admin/api/tournamentsx",
                               "/admin/api", "/admin/api/matches?tournament=t1"}) {
      INFO(target);
      r = get(both, target, "Bearer " + org);
      CHECK(r.status == 403);
      CHECK(body(r)["error"] == "forbidden");
      CHECK(r.body.find("m-full") == std::string::npos);
    }
    const auto lines = logs.lines();
    CHECK(has_line(lines, "warning admin: 10.1.2.3:4567 as organiser: GET /admin/api/matches refused: 403 forbidden"));
    CHECK(has_line(lines, "info admin: 10.1.2.3:4567 as organiser: GET /admin/api/tournaments -> 404 not_found"));
    // The admin token still opens everything; the organiser's is no admin's.
    CHECK(get(both, "/admin/api/matches").status == 200);
    CHECK(get(both, "/admin/api/matches", "Bearer " + org + "x").status == 401);
    // An organiser token alone enables the API for organisers only; an empty
    // Bearer never matches the unset admin token.
    admin::api only_org("", shipped(), f.store, environment::system(), org);
    CHECK(only_org.enabled());
    CHECK(get(only_org, "/admin/api/tournaments", "Bearer " + org).status == 404);
    CHECK(get(only_org, "/admin/api/matches", "Bearer " + org).status == 403);
    CHECK(get(only_org, "/admin/api/matches", "Bearer ").status == 401);
    CHECK(get(only_org, "/admin/api/matches").status == 401);
  }
}

TEST_CASE("admin api: bad parameters and unknown things get 400/404/405 with a stable code") {
  fixture f;
  struct bad_case {
    std::string target;
    int status;
    std::string code;
    std::string param;
  };
  const std::vector<bad_case> cases = {
      {"/admin/api/matches?limit=0", 400, "bad_parameter", "limit"},
      {"/admin/api/matches?limit=1001", 400, "bad_parameter", "limit"},
      {"/admin/api/matches?limit=ten", 400, "bad_parameter", "limit"},
      {"/admin/api/matches?offset=-1", 400, "bad_parameter", "offset"},
      {"/admin/api/matches?status=done", 400, "bad_parameter", "status"},
      {"/admin/api/matches?winner=4", 400, "bad_parameter", "winner"},
      {"/admin/api/matches?winner=1&status=playing", 400, "bad_parameter", "winner"},
      {"/admin/api/matches?from=-5", 400, "bad_parameter", "from"},
      {"/admin/api/matches?from=2000&to=1000", 400, "bad_parameter", "to"},
      {"/admin/api/matches?before=123", 400, "bad_parameter", "before"},
      {"/admin/api/matches?player=", 400, "bad_parameter", "player"},
      {"/admin/api/matches?player=a&player=b", 400, "bad_parameter", "player"},
      {"/admin/api/matches?player=%zz", 400, "bad_parameter", "player"},
      {"/admin/api/matches?colour=red", 400, "unknown_parameter", "colour"},
      {"/admin/api/matches?tournament=", 400, "bad_parameter", "tournament"},
      {"/admin/api/matches/m-full/state", 400, "bad_parameter", "step"},
      {"/admin/api/matches/m-full/state?step=x", 400, "bad_parameter", "step"},
      {"/admin/api/matches/m-full/state?step=-1", 400, "bad_parameter", "step"},
      {"/admin/api/matches/m-part/state?step=10", 400, "bad_parameter", "step"},
      {"/admin/api/matches/m-full/log?format=xml", 400, "bad_parameter", "format"},
      {"/admin/api/matches/m-full/verify?deep=1", 400, "unknown_parameter", "deep"},
      {"/admin/api/matches/nope", 404, "no_such_match", ""},
      {"/admin/api/matches/nope/log", 404, "no_such_match", ""},
      {"/admin/api/matches/m-full/draft", 404, "no_draft_record", ""},
      {"/admin/api/matches/m-full/moves", 404, "not_found", ""},
      {"/admin/api/matches/m-full/", 404, "not_found", ""},
      {"/admin/api/players", 404, "not_found", ""},
      {"/admin/api/", 404, "not_found", ""},
      {"/admin/other", 404, "not_found", ""},
      // Without a tournament service (organiser_api) there are no tournaments.
      {"/admin/api/tournaments/t1/export", 404, "not_found", ""},
  };
  for (const auto& c : cases) {
    INFO(c.target);
    auto r = get(f.api, c.target);
    CHECK(r.status == c.status);
    const json j = body(r);
    CHECK(j["error"] == c.code);
    CHECK(j["message"].is_string());
    if (!c.param.empty()) CHECK(j["param"] == c.param);
  }
  auto r = get(f.api, "/admin/api/matches", auth, "POST");
  CHECK(r.status == 405);
  CHECK(body(r)["error"] == "method_not_allowed");
  // A refused method still needs the token first.
  CHECK(get(f.api, "/admin/api/matches", "", "DELETE").status == 401);
}

TEST_CASE("admin api: search by player, mode, status, winner, dates; pages by offset and cursor") {
  fixture f;
  REQUIRE(f.full.sm.result);
  REQUIRE(f.full.sm.result->winners.size() == 1);
  const int winner = f.full.sm.result->winners[0];
  auto ids = [&](const std::string& q) {
    auto r = get(f.api, "/admin/api/matches" + q);
    INFO(q << " -> " << r.body);
    REQUIRE(r.status == 200);
    const json j = body(r);
    std::string out;
    for (const auto& m : j["matches"]) out += m["match_id"].get<std::string>() + " ";
    return out;
  };
  CHECK(ids("") == "m-full m-part ");
  CHECK(ids("?player=ANN") == "m-full m-part ");  // case-insensitive; "ann" plays seat 1 of m-part
  CHECK(ids("?player=cid") == "m-part ");
  CHECK(ids("?player=%41nn&mode=du%65l") == "m-full m-part ");  // %-escapes decoded
  CHECK(ids("?player=Ann+Lee") == "");                            // '+' is a space, not a wildcard
  CHECK(ids("?player=Zed") == "");
  CHECK(ids("?mode=duel") == "m-full m-part ");
  CHECK(ids("?mode=ffa") == "");
  CHECK(ids("?status=playing") == "m-part ");
  CHECK(ids("?status=finished") == "m-full ");
  CHECK(ids("?winner=" + std::to_string(winner)) == "m-full ");
  CHECK(ids("?winner=" + std::to_string(1 - winner)) == "");
  CHECK(ids("?from=1700000001500") == "m-full ");
  CHECK(ids("?to=1700000001500") == "m-part ");
  CHECK(ids("?from=1700000001000&to=1700000002001") == "m-full m-part ");
  CHECK(ids("?limit=1&offset=1") == "m-part ");

  auto page = body(get(f.api, "/admin/api/matches?limit=1"));
  CHECK(page["count"] == 1);
  REQUIRE(page["next"].is_string());
  CHECK(page["next"] == "1700000002000:m-full");
  const auto m0 = page["matches"][0];
  CHECK(m0["status"] == "finished");
  CHECK(m0["players"][0]["name"] == "Ann");
  CHECK(m0["actions"] == f.full.sm.actions.size());
  CHECK(m0["result"]["winners"] == json(f.full.sm.result->winners));
  page = body(get(f.api, "/admin/api/matches?limit=1&before=" + page["next"].get<std::string>()));
  CHECK(page["matches"][0]["match_id"] == "m-part");
  page = body(get(f.api, "/admin/api/matches?limit=1&before=" + page["next"].get<std::string>()));
  CHECK(page["count"] == 0);
  CHECK(page["next"].is_null());
}

TEST_CASE("admin api: the log of a played match, replayed and told in sentences") {
  fixture f;
  const stored_match& sm = f.full.sm;
  auto r = get(f.api, "/admin/api/matches/m-full/log");
  REQUIRE(r.status == 200);
  const json log = body(r);
  CHECK(log["complete"] == true);
  CHECK(log["error"].is_null());
  const auto& entries = log["entries"];
  REQUIRE(entries.size() == sm.actions.size() + 1);  // the setup, then one per action

  // The setup: who goes first, as the view taken while playing says.
  CHECK(entries[0]["text"] == "Setup");
  const int first = f.full.views[0]["first_seat"].get<int>();
  const auto& setup = entries[0]["effects"];
  // Seats are named by their players (the wire's numbers are not for people).
  auto name_of_seat = [&](int seat) {
    for (const auto& s : sm.match.seats)
      if (s.seat == seat) return s.name;
    return std::string("?");
  };
  CHECK(std::find(setup.begin(), setup.end(), json(name_of_seat(first) + " goes first")) != setup.end());

  // Every entry: its action, seat and digest as stored; a play names its card
  // as the catalogue does, looked up here from the view taken while playing.
  auto name_of = [&](int uid) {
    for (const auto& v : f.full.views)
      for (const auto& line : v["lines"])
        for (const auto& side : line["sides"])
          for (const auto& c : side["creatures"])
            if (c["uid"] == uid) return shipped().def(*shipped().find(c["card_id"].get<std::string>())).name;
    return std::string("?");
  };
  int plays = 0, destroyed = 0;
  for (std::size_t i = 1; i < entries.size(); ++i) {
    const auto& e = entries[i];
    const action_record& a = sm.actions[i - 1];
    INFO("seq " << a.seq << ": " << e.dump());
    CHECK(e["seq"] == a.seq);
    CHECK(e["seat"] == a.seat);
    CHECK(e["action"] == json::parse(a.action_json));
    CHECK(e["digest"].get<std::string>().size() == 16);
    const json act = json::parse(a.action_json);
    const std::string who = name_of_seat(a.seat);
    const bool game_over = e["effects"].back().get<std::string>().rfind("Game over", 0) == 0;
    if (act["type"] == "end_turn") {
      CHECK(e["text"] == who + ": end the turn");
      // The turn ends, unless its assault ended the game.
      if (!game_over)
        CHECK(std::find(e["effects"].begin(), e["effects"].end(), json(who + " ends the turn")) != e["effects"].end());
    } else if (act["type"] == "play" && act.contains("line") && !act.contains("host")) {
      const std::string name = name_of(act["card"].get<int>());
      if (name == "?") continue;  // an incantation never reaches a line
      ++plays;
      CHECK(e["text"] == who + ": play " + name + " on its " + act["line"].get<std::string>() + " line");
      // Its first effect is the play itself, on the absolute line the view gives for that seat.
      const int abs_line = f.full.views[i]["seats"][a.seat][act["line"] == "upper" ? "upper_line" : "lower_line"];
      CHECK(e["effects"][0] == who + " plays " + name + " on " + (abs_line == 0 ? "the upper line" : "the lower line"));
    }
    for (std::size_t k = 0; k < e["effects"].size(); ++k) {
      const std::string line = e["effects"][k];
      if (line.size() > 12 && line.substr(line.size() - 12) == " (destroyed)") {
        ++destroyed;
        // "X deals N to Y (destroyed)" is followed, in the same step, by "Y is destroyed".
        const std::string target = line.substr(line.find(" to ") + 4, line.size() - 12 - line.find(" to ") - 4);
        bool found = false;
        for (std::size_t j = k + 1; j < e["effects"].size(); ++j) found = found || e["effects"][j] == target + " is destroyed";
        CHECK(found);
      }
    }
  }
  CHECK(plays > 3);
  CHECK(destroyed > 0);
  // The last step ends the game, as the stored result says.
  const auto& last = entries.back()["effects"];
  // The reason in words with whose defeat it was, never its code (fort_destroyed).
  const std::string over = last.back().get<std::string>();
  CHECK(over.rfind("Game over: " + name_of_seat(sm.result->winners[0]) + " wins (", 0) == 0);
  CHECK(over.find(sm.result->reason) == std::string::npos);
  CHECK(over.find("_") == std::string::npos);
  if (sm.result->reason == "fort_destroyed") CHECK(over.find("'s Fort was destroyed)") != std::string::npos);

  // The text form: the same sentences, one per line.
  auto t = get(f.api, "/admin/api/matches/m-full/log?format=text");
  REQUIRE(t.status == 200);
  CHECK(t.content_type == "text/plain; charset=utf-8");
  CHECK(t.body.rfind("Match m-full: duel (preconstructed), seat 1 Ann, seat 2 Ben\nSetup\n", 0) == 0);
  CHECK(t.body.find("\n#1 " + entries[1]["text"].get<std::string>() + "\n  " +
                    entries[1]["effects"][0].get<std::string>() + "\n") != std::string::npos);
  CHECK(t.body.find("Result: winners " + name_of_seat(sm.result->winners[0]) + ", reason " + sm.result->reason) !=
        std::string::npos);

  // The raw log: as stored.
  const json raw = body(get(f.api, "/admin/api/matches/m-full/log/raw"));
  REQUIRE(raw["actions"].size() == sm.actions.size());
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(sm.actions[4].digest));
  CHECK(raw["actions"][4]["digest"] == hex);
  CHECK(raw["actions"][4]["action"] == json::parse(sm.actions[4].action_json));
  CHECK(raw["actions"][4]["at_ms"] == sm.actions[4].at_ms);
}

TEST_CASE("admin api: the referee view at step N is the view the match had after action N") {
  fixture f;
  for (std::size_t step : {std::size_t{0}, std::size_t{1}, std::size_t{7}, f.full.sm.actions.size()}) {
    INFO("step " << step);
    auto r = get(f.api, "/admin/api/matches/m-full/state?step=" + std::to_string(step));
    REQUIRE(r.status == 200);
    const json j = body(r);
    CHECK(j["step"] == step);
    CHECK(j["steps"] == f.full.sm.actions.size());
    CHECK(j["view"] == f.full.views[step]);
    CHECK(j["view"]["role"] == "referee");
    if (step == 0) CHECK(j["action"].is_null());
    else CHECK(j["action"] == json::parse(f.full.sm.actions[step - 1].action_json));
  }
  CHECK(body(get(f.api, "/admin/api/matches/m-part/state?step=9"))["view"] == f.part.views[9]);
  CHECK(get(f.api, "/admin/api/matches/m-full/state?step=3")
            .body.find("\"phase\":\"game_over\"") == std::string::npos);
}

TEST_CASE("admin api: verify passes a played match and finds a tampered one's first divergence") {
  fixture f;
  json v = body(get(f.api, "/admin/api/matches/m-full/verify"));
  CHECK(v["ok"] == true);
  CHECK(v["first_divergence"].is_null());
  CHECK(v["replayed"] == f.full.sm.actions.size());
  CHECK(v["checks"].size() == 6);
  for (const auto& c : v["checks"]) CHECK(c["ok"] == true);

  // Unfinished: only "finished" fails.
  v = body(get(f.api, "/admin/api/matches/m-part/verify"));
  CHECK(v["ok"] == false);
  CHECK(v["first_divergence"]["check"] == "finished");

  // A digest changed at seq 5: the replay stops there.
  store_copy(f.store, f.full.sm, [](stored_match& sm) {
    sm.match.match_id = "t-digest";
    sm.actions[4].digest ^= 1;
  });
  v = body(get(f.api, "/admin/api/matches/t-digest/verify"));
  CHECK(v["ok"] == false);
  CHECK(v["replayed"] == 4);
  CHECK(v["first_divergence"]["check"] == "replay");
  CHECK(v["first_divergence"]["seq"] == 5);
  CHECK(v["first_divergence"]["detail"].get<std::string>().find("action seq 5") == 0);
  // The log shows the four good steps and says where it stopped.
  const json log = body(get(f.api, "/admin/api/matches/t-digest/log"));
  CHECK(log["complete"] == false);
  CHECK(log["failed_seq"] == 5);
  CHECK(log["entries"].size() == 5);
  CHECK(get(f.api, "/admin/api/matches/t-digest/log?format=text").body.find("REPLAY STOPPED: action seq 5") !=
        std::string::npos);
  // State before the divergence is fine; after it, 422.
  CHECK(get(f.api, "/admin/api/matches/t-digest/state?step=4").status == 200);
  auto s = get(f.api, "/admin/api/matches/t-digest/state?step=6");
  CHECK(s.status == 422);
  CHECK(body(s)["error"] == "replay_failed");

  // A seed that does not match its commitment.
  store_copy(f.store, f.full.sm, [](stored_match& sm) {
    sm.match.match_id = "t-seed";
    sm.match.seed_hash = seed_commitment(sm.match.seed + 1);
  });
  v = body(get(f.api, "/admin/api/matches/t-seed/verify"));
  CHECK(v["ok"] == false);
  CHECK(v["first_divergence"]["check"] == "seed commitment");
  CHECK(v["first_divergence"]["seq"].is_null());
}

TEST_CASE("admin api: the record and the export; the seed stays secret while a match is played") {
  fixture f;
  const json rec = body(get(f.api, "/admin/api/matches/m%2Dfull"));  // ids in paths are %-decoded
  CHECK(rec["match_id"] == "m-full");
  CHECK(rec["seed"] == std::to_string(f.full.sm.match.seed));
  CHECK(rec["seats"][1]["deck"] == json{{"preconstructed", 2}});
  CHECK(rec["actions"] == f.full.sm.actions.size());

  const json ex = body(get(f.api, "/admin/api/matches/m-full/export"));
  CHECK(ex["export"] == "cod-match");
  CHECK(ex["version"] == 1);
  CHECK(ex["match"]["match_id"] == "m-full");
  CHECK(ex["match"]["seed_hash"] == f.full.sm.match.seed_hash);
  CHECK(ex["match"]["seed"] == std::to_string(f.full.sm.match.seed));
  CHECK(ex["options"] == json{{"exhaustion", false}});
  CHECK(ex["seats"].size() == 2);
  CHECK(ex["seats"][0]["name"] == "Ann");
  CHECK(ex["actions"].size() == f.full.sm.actions.size());
  CHECK(ex["result"]["reason"] == f.full.sm.result->reason);
  CHECK(ex["notes"].is_array());
  CHECK_FALSE(ex.contains("draft"));  // a preconstructed duel was not drafted
  // The same bytes each time (no timestamps of its own).
  CHECK(get(f.api, "/admin/api/matches/m-full/export").body == get(f.api, "/admin/api/matches/m-full/export").body);

  const json part = body(get(f.api, "/admin/api/matches/m-part/export"));
  CHECK(part["match"]["status"] == "playing");
  CHECK(part["match"]["seed"].is_null());
  CHECK(part["result"].is_null());
  const auto part_rec = get(f.api, "/admin/api/matches/m-part");
  CHECK(body(part_rec)["seed"].is_null());
  CHECK(part_rec.body.find(std::to_string(f.part.sm.match.seed)) == std::string::npos);
}

TEST_CASE("admin api: the draft record of drafted matches (R14), replayed; secret lists withheld mid-draft") {
  memory_store store{memory_store::callbacks::run_inline};
  admin::api api{token, shipped(), store, environment::system()};
  const stored_match full = draft_and_store(store, "d-full", "draft", 4242, -1);
  const stored_match ic = draft_and_store(store, "i-full", "instant_constructed", 5151, -1);
  const stored_match mid = draft_and_store(store, "i-mid", "instant_constructed", 6161, 1);
  REQUIRE(full.finished());
  REQUIRE(ic.finished());
  REQUIRE_FALSE(mid.finished());
  REQUIRE(mid.actions.empty());

  for (const stored_match* sm : {&full, &ic}) {
    const std::string id = sm->match.match_id;
    INFO(id);
    const json d = body(get(api, "/admin/api/matches/" + id + "/draft"));
    CHECK(d["match_id"] == id);
    CHECK(d["format"] == sm->match.format);
    CHECK(d["finished"] == true);
    CHECK(d["complete"] == true);
    CHECK(d["error"].is_null());
    REQUIRE(d["rows"].size() == sm->draft.size());
    CHECK(d["picks"].get<std::size_t>() + d["reveals"].get<std::size_t>() == sm->draft.size());
    for (std::size_t i = 0; i < sm->draft.size(); ++i) {
      CHECK(d["rows"][i]["seq"] == sm->draft[i].seq);
      CHECK(d["rows"][i]["kind"] == sm->draft[i].kind);
      CHECK(d["rows"][i]["cards"] == json::parse(sm->draft[i].cards_json));  // nothing withheld once finished
    }
    const json v = body(get(api, "/admin/api/matches/" + id + "/verify"));
    CHECK(v["ok"] == true);
    bool draft_check = false;
    for (const auto& c : v["checks"]) draft_check = draft_check || (c["name"] == "draft" && c["ok"] == true);
    CHECK(draft_check);
    CHECK(get(api, "/admin/api/matches/" + id + "/state?step=0").status == 200);
    CHECK(body(get(api, "/admin/api/matches/" + id + "/log"))["complete"] == true);
    const json ex = body(get(api, "/admin/api/matches/" + id + "/export"));
    REQUIRE(ex.contains("draft"));
    CHECK(ex["draft"] == d["rows"]);
  }

  // Mid-draft (one secret list submitted): the list is withheld, the draft
  // replays, there is no match state yet, and verify says the draft is unfinished.
  const json d = body(get(api, "/admin/api/matches/i-mid/draft"));
  CHECK(d["finished"] == false);
  CHECK(d["complete"] == true);
  int picks = 0;
  for (const auto& row : d["rows"])
    if (row["kind"] == "pick") {
      ++picks;
      CHECK(row["cards"].is_null());
    }
  CHECK(picks == 1);
  CHECK(body(get(api, "/admin/api/matches/i-mid/export"))["draft"] == d["rows"]);
  const auto st = get(api, "/admin/api/matches/i-mid/state?step=0");
  CHECK(st.status == 422);
  CHECK(body(st)["error"] == "replay_failed");
  const json v = body(get(api, "/admin/api/matches/i-mid/verify"));
  CHECK(v["ok"] == false);
  CHECK(v["first_divergence"]["check"] == "draft");
  // A tampered draft log does not replay: complete false and the row named.
  {
    stored_match bad = full;
    bad.match.match_id = "d-bad";
    for (auto& row : bad.draft)
      if (row.kind == "pick") {
        row.cards_json = R"(["no-such-card"])";
        break;
      }
    store.create_match(bad.match, nullptr);
    store.append_draft("d-bad", bad.draft, nullptr);
    for (const auto& a : bad.actions) store.append_action("d-bad", a, nullptr);
    store.finish_match("d-bad", *bad.result, nullptr);
    store.flush();
  }
  const json bad = body(get(api, "/admin/api/matches/d-bad/draft"));
  CHECK(bad["complete"] == false);
  INFO(bad.dump());
  CHECK(bad["error"].get<std::string>().find("unknown card \"no-such-card\"") != std::string::npos);
  CHECK(body(get(api, "/admin/api/matches/d-bad/verify"))["ok"] == false);
}

// ---------------------------------------------------------------------------
// Under abuse: the brute-force guard and the refusal log, on
// explicit times (no clock, no sleeps).

namespace {

using admin_clock = admin::api::clock;
const admin_clock::time_point t0 = admin_clock::time_point{} + std::chrono::hours(1000);

admin::response get_at(const admin::api& api, admin_clock::time_point now, const std::string& remote,
                       const std::string& authorization, const std::string& target = "/admin/api/matches") {
  admin::request r;
  r.method = "GET";
  r.target = target;
  r.authorization = authorization;
  r.remote = remote;
  return api.handle(r, now);
}

std::string header(const admin::response& r, const std::string& name) {
  for (const auto& [n, v] : r.headers)
    if (n == name) return v;
  return {};
}

std::size_t count_containing(const std::vector<std::string>& lines, const std::string& part) {
  return static_cast<std::size_t>(
      std::count_if(lines.begin(), lines.end(), [&](const std::string& l) { return l.find(part) != std::string::npos; }));
}

}  // namespace

TEST_CASE("admin api: after 20 failed authentications an address gets 429 with Retry-After until its window ends") {
  memory_store store{memory_store::callbacks::run_inline};
  admin::api api{token, shipped(), store, environment::system()};
  log_capture logs;
  // A new port each try: the count is per address.
  for (int i = 0; i < 20; ++i) {
    INFO(i);
    auto r = get_at(api, t0 + std::chrono::milliseconds(i), "10.0.0.9:" + std::to_string(40000 + i), "Bearer guess");
    CHECK(r.status == 401);
  }
  // Locked: even the right token is not checked, and the answer says when to retry.
  auto r = get_at(api, t0 + std::chrono::seconds(1), "10.0.0.9:50000", auth);
  CHECK(r.status == 429);
  CHECK(body(r)["error"] == "too_many_requests");
  CHECK(r.body.find("m-") == std::string::npos);
  CHECK(header(r, "Retry-After") == "59");
  r = get_at(api, t0 + std::chrono::milliseconds(30500), "10.0.0.9:50001", "Bearer guess");
  CHECK(r.status == 429);
  CHECK(header(r, "Retry-After") == "30");  // rounded up
  // Another address is not affected; IPv6 peers are keyed by address too.
  CHECK(get_at(api, t0 + std::chrono::seconds(2), "10.0.0.10:50000", auth).status == 200);
  // The window ends 60 s after the first failure: the right token works again
  // (the 429s did not extend it), and its success forgets the failures.
  CHECK(get_at(api, t0 + std::chrono::seconds(60), "10.0.0.9:50002", auth).status == 200);
  for (int i = 0; i < 19; ++i)
    CHECK(get_at(api, t0 + std::chrono::seconds(61), "10.0.0.9:50003", "Bearer guess").status == 401);
  CHECK(get_at(api, t0 + std::chrono::seconds(61), "10.0.0.9:50004", auth).status == 200);
  // A missing header counts as a failure too.
  for (int i = 0; i < 20; ++i) CHECK(get_at(api, t0 + std::chrono::seconds(62), "[::1]:" + std::to_string(i), "").status == 401);
  CHECK(get_at(api, t0 + std::chrono::seconds(62), "[::1]:999", auth).status == 429);
  CHECK(api.throttled_total() == 3);
  CHECK(api.refused_total() == 20 + 2 + 19 + 20 + 1);
  // The first 429 fell in the 10 s interval of the 20 failures (10 lines, then
  // counted); the one at 30.5 s opened a new interval, logged in full.
  const auto lines = logs.lines();
  CHECK(has_line(lines, "warning admin: 10.0.0.9:50001 GET /admin/api/matches refused: 429 too_many_requests"));
  CHECK(has_line(lines,
                 "warning admin: 11 more refused requests in 1 s from 1 address (not logged one by one); last: "
                 "10.0.0.9:50000 GET /admin/api/matches refused: 429 too_many_requests"));
}

TEST_CASE("admin api: a flood of refusals logs 10 lines per 10 s and one summary, never lost") {
  memory_store store{memory_store::callbacks::run_inline};
  log_capture logs;
  admin::guard_limits no_lockout;
  no_lockout.max_failures = 1000000;  // the log alone here
  {
    admin::api api{token, shipped(), store, environment::system(), {}, no_lockout};
    // 1000 refusals in 5 s from three addresses.
    for (int i = 0; i < 1000; ++i)
      get_at(api, t0 + std::chrono::milliseconds(5 * i), "10.0.0." + std::to_string(1 + i % 3) + ":4000",
             i % 2 ? "Bearer wrong" : "");
    auto lines = logs.lines();
    CHECK(count_containing(lines, "refused: 401") == 10);
    CHECK(count_containing(lines, "more refused") == 0);  // the interval is not over yet
    CHECK(lines.back() == "warning admin: 10.0.0.1:4000 GET /admin/api/matches refused: 401 unauthorized");
    // The next request after the interval (an accepted one) brings the summary first.
    CHECK(get_at(api, t0 + std::chrono::seconds(11), "10.0.0.7:1", auth).status == 200);
    lines = logs.lines();
    REQUIRE(lines.size() >= 2);
    CHECK(lines[lines.size() - 2] ==
          "warning admin: 990 more refused requests in 5 s from 3 addresses (not logged one by one); last: "
          "10.0.0.1:4000 GET /admin/api/matches refused: 401 unauthorized");
    CHECK(lines.back() == "info admin: 10.0.0.7:1 as admin: GET /admin/api/matches -> 200 ok");
    CHECK(count_containing(lines, "more refused") == 1);
    // A new interval: the first refusals are logged in full again.
    get_at(api, t0 + std::chrono::seconds(12), "10.0.0.2:5", "Bearer wrong", "/admin/api/matches/x");
    CHECK(logs.lines().back() == "warning admin: 10.0.0.2:5 GET /admin/api/matches/x refused: 401 unauthorized");
    for (int i = 0; i < 10; ++i) get_at(api, t0 + std::chrono::seconds(13), "10.0.0.2:5", "Bearer wrong");
    CHECK(count_containing(logs.lines(), "more refused") == 1);
    CHECK(api.refused_total() == 1011);
  }
  // No request came after: the api's end (server shutdown) logs what is pending.
  const auto lines = logs.lines();
  CHECK(count_containing(lines, "more refused") == 2);
  CHECK(lines.back() ==
        "warning admin: 1 more refused request in 1 s from 1 address (not logged one by one); last: "
        "10.0.0.2:5 GET /admin/api/matches refused: 401 unauthorized");
  for (const auto& l : lines) CHECK(l.find(token) == std::string::npos);
}

TEST_CASE("admin refusal guard: addresses from peers; memory bounded, the oldest window forgotten first") {
  CHECK(admin::address_of("10.1.2.3:4567") == "10.1.2.3");
  CHECK(admin::address_of("::1:50312") == "::1");
  CHECK(admin::address_of("[2001:db8::7]:443") == "2001:db8::7");
  CHECK(admin::address_of("?") == "?");

  admin::guard_limits l;
  l.max_failures = 2;
  l.max_addresses = 8;
  admin::refusal_guard g(l);
  for (int i = 0; i < 100; ++i) {
    const std::string a = "10.9.0." + std::to_string(i);
    g.failed(a, t0 + std::chrono::milliseconds(i));
    g.failed(a, t0 + std::chrono::milliseconds(i));
    CHECK(g.tracked_addresses() <= 8);
  }
  CHECK(g.tracked_addresses() == 8);
  CHECK(g.retry_after("10.9.0.99", t0 + std::chrono::seconds(1)) == 60);  // the newest is still locked
  CHECK(g.retry_after("10.9.0.0", t0 + std::chrono::seconds(1)) == 0);    // the oldest was forgotten
  // Expired windows go first, and on their own when asked about.
  CHECK(g.retry_after("10.9.0.99", t0 + std::chrono::seconds(61)) == 0);
  CHECK(g.tracked_addresses() == 7);
}

// ---------------------------------------------------------------------------
// Audit (docs/admin.md, "Audit"): reading a match that is still being played.

TEST_CASE("admin api: every read of a live match's documents is audited: who, from where, which match, what, when") {
  fixture f;
  log_capture logs;
  const auto audit_lines = [&] {
    std::vector<std::string> out;
    for (const auto& l : logs.lines())
      if (l.find("audit:") != std::string::npos) out.push_back(l);
    return out;
  };
  // The hidden state of m-part (9 actions, not over): every hand.
  auto r = get(f.api, "/admin/api/matches/m-part/state?step=9");
  REQUIRE(r.status == 200);
  auto lines = audit_lines();
  REQUIRE(lines.size() == 1);
  const std::string want =
      "warning audit: admin at 10.1.2.3:4567 read match m-part while it is played (state): "
      "GET /admin/api/matches/m-part/state?step=9 (at_ms ";
  CHECK(lines[0].substr(0, want.size()) == want);
  // When: the wall clock's milliseconds, after 2020.
  CHECK(std::stoll(lines[0].substr(want.size())) > 1577836800000);
  // Each of its documents, by route.
  for (const std::string route : {"", "/log", "/log/raw", "/export", "/verify"}) {
    INFO(route);
    CHECK(get(f.api, "/admin/api/matches/m-part" + route).status == 200);
  }
  lines = audit_lines();
  REQUIRE(lines.size() == 6);
  CHECK(lines[1].find("(record): GET /admin/api/matches/m-part (at_ms") != std::string::npos);
  CHECK(lines[2].find("(log): GET /admin/api/matches/m-part/log (at_ms") != std::string::npos);
  CHECK(lines[3].find("(log/raw): ") != std::string::npos);
  CHECK(lines[4].find("(export): ") != std::string::npos);
  CHECK(lines[5].find("(verify): ") != std::string::npos);
  // Not audited: a finished match, a refused request, an unknown match.
  CHECK(get(f.api, "/admin/api/matches/m-full/state?step=3").status == 200);
  CHECK(get(f.api, "/admin/api/matches/m-part/state?step=99").status == 400);
  CHECK(get(f.api, "/admin/api/matches/m-part/state?step=1", "Bearer wrong").status == 401);
  CHECK(get(f.api, "/admin/api/matches/nope/state?step=1").status == 404);
  CHECK(audit_lines().size() == 6);
}

TEST_CASE("admin api: memory_store keeps the audit rows too, as the store's typed record") {
  fixture f;
  log_capture logs;
  REQUIRE(get(f.api, "/admin/api/matches/m-part/state?step=9").status == 200);
  REQUIRE(get(f.api, "/admin/api/matches/m-part/log").status == 200);
  REQUIRE(get(f.api, "/admin/api/matches/m-full/state?step=3").status == 200);  // finished: no row
  const auto rows = read_ok(f.store.reader().list_audit(""));
  REQUIRE(rows.size() == 2);
  CHECK(rows[0].role == "admin");
  CHECK(rows[0].remote == "10.1.2.3:4567");
  CHECK(rows[0].match_id == "m-part");
  CHECK(rows[0].route == "state");
  CHECK(rows[0].target == "GET /admin/api/matches/m-part/state?step=9");
  CHECK(rows[0].at_ms > 1577836800000);
  CHECK(rows[1].route == "log");
  CHECK(read_ok(f.store.reader().list_audit("m-part")) == rows);
  CHECK(read_ok(f.store.reader().list_audit("m-full")).empty());
}

TEST_CASE("admin api: the audit is stored in admin_audit on the SQLite store") {
  std::random_device rd;
  const auto dir = std::filesystem::temp_directory_path() / ("cod-admin-audit-" + std::to_string(rd()));
  std::filesystem::create_directories(dir);
  const std::string path = (dir / "cod.db").string();
  {
    auto opened = sqlite_store::open({.path = path});
    REQUIRE_MESSAGE(opened, opened.error().message());
    auto store = std::move(*opened);
    play_and_store(*store, "live-1", 4242, 1700000003000, 6);
    play_and_store(*store, "done-1", 4243, 1700000004000, -1);
    admin::api api{token, shipped(), *store, environment::system()};
    log_capture logs;
    admin::request req;
    req.method = "GET";
    req.target = "/admin/api/matches/live-1/state?step=6";
    req.authorization = auth;
    req.remote = "192.0.2.8:6000";
    REQUIRE(api.handle(req).status == 200);
    req.target = "/admin/api/matches/done-1/state?step=1";  // finished: no row
    REQUIRE(api.handle(req).status == 200);
    store->flush();
    // The same row through the store's reader.
    const auto rows = read_ok(store->reader().list_audit("live-1"));
    REQUIRE(rows.size() == 1);
    CHECK(rows[0].route == "state");
    CHECK(read_ok(store->reader().list_audit("")) == rows);
  }
  {
    sql::db db(path, sql::db::mode::read_only);
    sql::stmt q(db, "SELECT at_ms, role, remote, match_id, route, target FROM admin_audit ORDER BY audit_id");
    REQUIRE(q.step());
    CHECK(q.int64(0) > 1577836800000);
    CHECK(q.text(1) == "admin");
    CHECK(q.text(2) == "192.0.2.8:6000");
    CHECK(q.text(3) == "live-1");
    CHECK(q.text(4) == "state");
    CHECK(q.text(5) == "GET /admin/api/matches/live-1/state?step=6");
    CHECK_FALSE(q.step());
  }
  std::filesystem::remove_all(dir);
}

TEST_CASE("admin api: a service's refusal answers by its status code; its reason and field are the error and param") {
  using admin::refusal_response;
  const auto body = [](const admin::response& r) { return json::parse(r.body); };
  auto r = refusal_response(status::invalid("two players are named 'a'").because("invalid_players", "players"));
  CHECK(r.status == 400);
  CHECK(r.code == "invalid_players");
  CHECK(body(r) == json{{"error", "invalid_players"}, {"message", "two players are named 'a'"}, {"param", "players"}});
  r = refusal_response(status::not_found("no league 'l1'").because("no_such_league"));
  CHECK(r.status == 404);
  CHECK(body(r) == json{{"error", "no_such_league"}, {"message", "no league 'l1'"}});
  CHECK(refusal_response(status::conflict("round 1 is not finished").because("round_not_finished")).status == 409);
  r = refusal_response(status::unavailable("the tournament was not created: lease").because("store_unavailable"));
  CHECK(r.status == 503);
  CHECK(std::count(r.headers.begin(), r.headers.end(), std::pair<std::string, std::string>{"Retry-After", "1"}) == 1);
  // No reason: the code's name.
  r = refusal_response(status::io_error("disk"));
  CHECK(r.status == 500);
  CHECK(r.code == "io_error");
}
