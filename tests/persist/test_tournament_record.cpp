// A tournament as one stored document (persist/tournament_record.hpp) and
// as the SQLite store keeps it (sqlite_tournaments.hpp, migration 0011):
// the value comes back equal at every step, and a document that is not a
// tournament is refused, saying why.
#include <doctest/doctest.h>

#include <algorithm>
#include <functional>

#include <nlohmann/json.hpp>

#include "helpers.hpp"
#include "persist/sqlite/sqlite_migrations.hpp"
#include "persist/sqlite/sqlite_tournaments.hpp"
#include "persist/sqlite/sqlite_util.hpp"
#include "persist/tournament_record.hpp"
#include "tournament_steps.hpp"

using namespace cod::server;
using namespace cod::server::detail;
using namespace cod::server::test;
namespace tn = cod::tournaments;

namespace {

// The games' matches rows (foreign keys are on, as on the server's writer).
void add_matches(sql::db& d, const tn::tournament& t) {
  sql::stmt s(d,
              "INSERT OR IGNORE INTO matches (match_id, room_id, mode, format, rules_version, engine_version, seed, "
              "seed_hash, created_ms) VALUES (?1, 'room', 'duel', 'preconstructed', 'v', 1, '1', 'h', 0)");
  for (const std::string& m : tournament_match_ids(t)) s.bind(1, m).run();
}

std::string refusal(const std::string& doc) {
  try {
    (void)tournament_from_record("t9", 5, doc);
  } catch (const persist_error& e) {
    return e.what();
  }
  return "(loaded)";
}

}  // namespace

TEST_CASE("tournament record: the document gives back the same tournament, at every step") {
  const auto steps = tournament_steps();
  REQUIRE(steps.size() == 7);
  for (const stored_tournament& st : steps) {
    const std::string doc = tournament_record_json(st);
    const stored_tournament back = tournament_from_record("t1", 111, doc);
    CHECK(back == st);
    CHECK(back.t.standings() == st.t.standings());
  }
  const auto doc = nlohmann::json::parse(tournament_record_json(steps.back()));
  CHECK(doc["config"]["seed"] == "1234567890123456789");  // a string: past a double's exact integers
  CHECK(doc["config"]["clock"] == nlohmann::json{{"bank_ms", 60000}, {"increment_ms", 2000}});
  CHECK(doc["server"] == nlohmann::json{{"spectator_delay", 3}, {"auto_advance", true}});
  CHECK(doc["rounds"].size() == 5);
}

TEST_CASE("tournament record: the matches its games name, in order of play, each once") {
  const auto steps = tournament_steps();
  CHECK(tournament_match_ids(steps.front().t).empty());
  const std::vector<std::string> ids = tournament_match_ids(steps.back().t);
  std::vector<std::string> all;
  for (const auto& r : steps.back().t.rounds())
    for (const auto& p : r.pairings)
      for (const auto& g : p.games)
        if (!g.match_id.empty()) all.push_back(g.match_id);
  CHECK(ids == all);  // attach_match refuses an id twice: nothing to drop
  CHECK(std::find(ids.begin(), ids.end(), "running") != ids.end());
  CHECK(ids.size() > 20);
}

TEST_CASE("tournament record: the SQLite store's row and matches, at every step; created_ms from the first save") {
  temp_dir dir;
  sql::db d(dir.file("t.db"), sql::db::mode::read_write_create);
  migrate(d);
  d.exec("PRAGMA foreign_keys = ON");
  CHECK(load_tournaments(d).empty());
  bool first = true;
  for (stored_tournament st : tournament_steps()) {
    add_matches(d, st.t);
    if (!first) st.created_ms = 999;  // a later save does not move it
    save_tournament(d, st);
    st.created_ms = 111;
    first = false;
    const auto back = load_tournaments(d);
    REQUIRE(back.size() == 1);
    CHECK(back[0] == st);
    sql::stmt m(d, "SELECT match_id FROM tournament_matches WHERE tournament_id = 't1'");
    std::vector<std::string> stored;
    while (m.step()) stored.push_back(m.text(0));
    std::vector<std::string> want = tournament_match_ids(st.t);
    std::sort(want.begin(), want.end());
    std::sort(stored.begin(), stored.end());
    CHECK(stored == want);
  }
  sql::stmt s(d, "SELECT created_ms, finished, name FROM tournaments WHERE tournament_id = 't1'");
  REQUIRE(s.step());
  CHECK(s.int64(0) == 111);
  CHECK(s.int64(1) == 1);
  CHECK(s.text(2) == "Test Open");

  // A second tournament beside it, created later: listed after it.
  const stored_tournament u{"t0", cod::tournaments::test::make(4, cod::tournaments::test::make_config(2)), {}, 222};
  save_tournament(d, u);
  const auto both = load_tournaments(d);
  REQUIRE(both.size() == 2);
  CHECK(both[0].id == "t1");
  CHECK(both[1] == u);
  // A game naming a match not stored: the foreign key refuses the save.
  stored_tournament bad = u;
  REQUIRE(bad.t.start_next_round("server", 0).ok());
  REQUIRE(bad.t.attach_match(1, "no-such-match").ok());
  CHECK_THROWS(save_tournament(d, bad));
}

TEST_CASE("tournament record: a document that is not a tournament is refused, naming the tournament and why") {
  const std::string good = tournament_record_json(tournament_steps().back());
  CHECK(refusal(good) == "(loaded)");
  const auto broken = [&](const std::function<void(nlohmann::json&)>& change) {
    auto j = nlohmann::json::parse(good);
    change(j);
    return refusal(j.dump());
  };
  CHECK(refusal("{not json") == "tournament t9: the record is not JSON");
  CHECK(refusal("[]") == "tournament t9: the record is not an object");
  CHECK(broken([](nlohmann::json& j) { j.erase("log"); }) == "tournament t9: the record has no log");
  CHECK(broken([](nlohmann::json& j) { j["config"]["seed"] = "-3"; }) == "tournament t9: the seed is not a decimal uint64");
  CHECK(broken([](nlohmann::json& j) { j["config"]["best_of"] = "3"; }) == "tournament t9: config.best_of is not an integer");
  CHECK(broken([](nlohmann::json& j) { j["config"]["exhaustion"] = 1; }) ==
        "tournament t9: config.exhaustion is not true or false");
  CHECK(broken([](nlohmann::json& j) { j["rounds"][1]["number"] = 3; }) == "tournament t9: rounds are not numbered 1, 2, 3...");
  CHECK(broken([](nlohmann::json& j) { j["rounds"][0]["kind"] = "knockout"; }) == "tournament t9: round 1: unknown kind knockout");
  CHECK(broken([](nlohmann::json& j) { j["rounds"][0]["pairings"][0]["a"] = 9; }).find("names no player") != std::string::npos);
  CHECK(broken([](nlohmann::json& j) {
          auto& p = j["rounds"][0]["pairings"][0];
          int other = 0;
          while (other == p["a"].get<int>() || other == p["b"].get<int>()) ++other;
          p["games"][0]["winner"] = other;
        }) == "tournament t9: round 1 table 1: a game won by a player of another table");
  CHECK(broken([](nlohmann::json& j) { j["log"][0]["seq"] = 2; }) == "tournament t9: the log is not numbered 1, 2, 3...");
  CHECK(broken([](nlohmann::json& j) { j["log"][0]["act"] = "ban"; }) == "tournament t9: log entry 1: unknown act");
  CHECK(broken([](nlohmann::json& j) { j["log"][0]["player"] = 42; }) == "tournament t9: log entry 1 names no player");
  CHECK(broken([](nlohmann::json& j) { j["server"] = 0; }) == "tournament t9: server is not an object");
}
