// Recovery and verification with the real engine: random duels are stored as
// the server stores them, rebuilt, verified, tampered with, and checked by
// cod-admin.
#include <doctest/doctest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cod/engine/match.hpp"
#include "cod/engine/rng.hpp"
#include "cod/protocol/catalogue_json.hpp"
#include "cod/protocol/json_codec.hpp"
#include "cod/protocol/wire_names.hpp"
#include "helpers.hpp"
#include "persist/memory_store.hpp"
#include "persist/recovery.hpp"
#include "persist/sqlite_store.hpp"

using namespace cod::server;
using namespace cod::server::test;

namespace {

const cod::catalogue& shipped() {
  static const cod::catalogue cat = [] {
    cod::catalogue c;
    auto e = cod::protocol::load_catalogue_file(COD_CATALOGUE_PATH, c);
    REQUIRE_MESSAGE(!e, (e ? e->to_string() : std::string()));
    return c;
  }();
  return cat;
}

// A constructed deck: preconstructed deck 3 written out as ids.
std::string deck3_as_cards() {
  nlohmann::json ids = nlohmann::json::array();
  for (cod::card_id c : shipped().preconstructed_deck(3)) ids.push_back(shipped().def(c).id);
  return nlohmann::json{{"cards", ids}}.dump();
}

struct played {
  stored_match sm;           // as stored
  std::uint64_t final_digest = 0;
  std::vector<std::uint64_t> digests;  // after each action
};

// Plays a random duel the way the server runs one, writing to `store`:
// create_match, then each accepted action with its digest, then the result.
// max_actions < 0: to the end; a concession by seat `concede_seat` when >= 0.
played play_and_store(match_store& store, const std::string& id, std::uint64_t seed, bool exhaustion,
                      int max_actions, int concede_seat = -1) {
  played p;
  match_record& rec = p.sm.match;
  rec.match_id = id;
  rec.room_id = "r1";
  rec.mode = "duel";
  rec.format = "constructed";
  rec.options_json = exhaustion ? R"({"exhaustion":true,"turn_clock":{"bank_ms":60000,"increment_ms":5000}})" : "{}";
  rec.rules_version = "test";
  rec.engine_version = cod::engine_version;
  rec.seed = seed;
  rec.seed_hash = seed_commitment(seed);
  rec.created_ms = 1700000000000;
  rec.seats = {{0, "Ann", sha256_hex("t0"), R"({"preconstructed": 2})"}, {1, "Ben", sha256_hex("t1"), deck3_as_cards()}};

  cod::match_config cfg;
  std::string error;
  REQUIRE_MESSAGE(config_from_record(shipped(), rec, cfg, error), error);
  cod::match m;
  std::vector<cod::event> events;
  REQUIRE(cod::match::create(shipped(), cfg, m, events) == cod::rule_error::ok);

  acks a;
  int expected_acks = 1;
  store.create_match(rec, a.expect(true));
  cod::rng player(seed ^ 0x9e3779b97f4a7c15ull);
  std::vector<cod::action> legal;
  for (int n = 0; !m.over() && (max_actions < 0 || n < max_actions); ++n) {
    m.legal_actions(legal);
    REQUIRE(!legal.empty());
    cod::action act = legal[player.below(legal.size())];
    if (concede_seat >= 0 && n == max_actions - 1) act = cod::action::concede_by(static_cast<cod::seat_t>(concede_seat));
    events.clear();
    REQUIRE(m.apply(act, events) == cod::rule_error::ok);
    action_record ar;
    ar.seq = n + 1;
    ar.seat = act.seat;
    ar.action_json = cod::protocol::action_to_json(act).dump();
    ar.digest = m.digest();
    ar.at_ms = rec.created_ms + n;
    p.sm.actions.push_back(ar);
    p.digests.push_back(ar.digest);
    store.append_action(id, ar, a.expect(true));
    ++expected_acks;
  }
  if (m.over()) {
    match_result r;
    for (int s = 0; s < m.seat_count(); ++s)
      if (m.winners() & (1u << s)) r.winners.push_back(s);
    r.reason = std::string(cod::protocol::end_reason_name(m.view(cod::referee).reason));
    r.ended_ms = rec.created_ms + 100000;
    store.finish_match(id, r, a.expect(true));
    ++expected_acks;
    p.sm.result = r;
  }
  store.flush();
  REQUIRE(a.calls() == expected_acks);
  REQUIRE(a.wrong() == 0);
  p.final_digest = m.digest();
  return p;
}

const verify_check* find_check(const verify_result& v, const std::string& name) {
  for (const auto& c : v.checks)
    if (c.name == name) return &c;
  return nullptr;
}

std::string run(const std::string& cmd, int& exit_code, const temp_dir& dir) {
  const std::string out = dir.file("out.txt");
  const int rc = std::system((cmd + " > " + out + " 2>&1").c_str());
  exit_code = WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
  std::ifstream in(out);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

TEST_CASE("recovery: config_from_record reads decks and options as the server does at join") {
  match_record m;
  m.match_id = "m";
  m.mode = "duel";
  m.format = "constructed";
  m.options_json = R"({"exhaustion":true,"seats":2,"turn_clock":null})";
  m.seed = 77;
  m.seats = {{0, "a", "", R"({"preconstructed": 1})"}, {1, "b", "", deck3_as_cards()}};
  cod::match_config cfg;
  std::string error;
  REQUIRE_MESSAGE(config_from_record(shipped(), m, cfg, error), error);
  CHECK(cfg.decks[0] == shipped().preconstructed_deck(1));
  CHECK(cfg.decks[1] == shipped().preconstructed_deck(3));
  CHECK(cfg.exhaustion_rule);
  CHECK(cfg.seed == 77);
  CHECK(cfg.first_seat == cod::no_seat);  // the coin toss, from the seed

  auto fails = [&](match_record bad, const std::string& expect) {
    cod::match_config c;
    std::string why;
    CHECK_FALSE(config_from_record(shipped(), bad, c, why));
    CHECK_MESSAGE(why.find(expect) != std::string::npos, why);
  };
  match_record bad = m;
  bad.options_json = "";
  cod::match_config c;
  CHECK(config_from_record(shipped(), bad, c, error));  // no options: the defaults
  CHECK(!c.exhaustion_rule);
  bad = m;
  bad.seats[0].deck_json = R"({"preconstructed": 5})";
  fails(bad, "deck.preconstructed");
  bad = m;
  bad.seats[1].deck_json = R"({"cards": ["no_such_card"]})";
  fails(bad, "seat 1: deck {\"cards\": [\"no_such_card\"]}: unknown_card");
  bad = m;
  bad.format = "preconstructed";
  fails(bad, "wrong_format");
  bad = m;
  bad.seats[0].deck_json = "not json";
  fails(bad, "not JSON");
  bad = m;
  bad.options_json = R"({"exhaustion": 1})";
  fails(bad, "options.exhaustion");
  bad = m;
  bad.options_json = R"({"seats": 4})";
  fails(bad, "seats");
  bad = m;
  bad.seats.pop_back();
  fails(bad, "a duel has 2");
  bad = m;
  bad.seats[1].seat = 0;
  fails(bad, "duplicate seat");
  bad = m;
  bad.mode = "ffa";
  fails(bad, "unsupported mode");
}

TEST_CASE("recovery: an unfinished duel is rebuilt from the database to the same digest") {
  temp_dir dir;
  const std::string path = dir.file("rec.db");
  std::string error;
  played p;
  {
    auto store = sqlite_store::open({.path = path}, error);
    REQUIRE_MESSAGE(store, error);
    p = play_and_store(*store, "m1", 1234567890123ull, true, 12);
  }
  auto store = sqlite_store::open({.path = path}, error);  // as after a restart
  REQUIRE_MESSAGE(store, error);
  auto un = store->load_unfinished();
  REQUIRE(un.size() == 1);
  CHECK(un[0].actions.size() == 12);
  const rebuild_result r = rebuild(shipped(), un[0]);
  CHECK_MESSAGE(r.ok, r.error);
  CHECK(r.seq == 12);
  CHECK(r.m.digest() == p.final_digest);
  CHECK(!r.m.over());
  // The rebuilt match goes on like the original.
  std::vector<cod::action> legal;
  r.m.legal_actions(legal);
  CHECK(!legal.empty());
}

TEST_CASE("recovery: finished duels verify; tampering is found and located") {
  temp_dir dir;
  const std::string path = dir.file("verify.db");
  std::string error;
  played p, q;
  {
    auto store = sqlite_store::open({.path = path}, error);
    REQUIRE_MESSAGE(store, error);
    p = play_and_store(*store, "full", 42, false, -1);
    q = play_and_store(*store, "conceded", 7, true, 6, 1);
  }
  REQUIRE(p.sm.finished());
  MESSAGE("random duel: " << p.sm.actions.size() << " actions, " << p.sm.result->reason);
  REQUIRE(p.sm.actions.size() > 10);
  REQUIRE(q.sm.finished());
  CHECK(q.sm.result->reason == "concession");
  auto reader = sqlite_reader::open(path, error);
  REQUIRE_MESSAGE(reader, error);

  SUBCASE("intact") {
    for (const char* id : {"full", "conceded"}) {
      auto sm = reader->load_match(id);
      REQUIRE(sm);
      const verify_result v = verify(shipped(), *sm);
      for (const auto& c : v.checks) INFO(c.name << ": " << c.detail);
      CHECK(v.ok);
      CHECK(v.checks.size() == 6);
      CHECK(v.replay.m.digest() == (std::string(id) == "full" ? p.final_digest : q.final_digest));
    }
  }
  SUBCASE("a stored digest changed") {
    raw_db(path).exec("UPDATE match_actions SET digest = '0123456789abcdef' WHERE match_id = 'full' AND seq = 7");
    const verify_result v = verify(shipped(), *reader->load_match("full"));
    CHECK(!v.ok);
    const auto* c = find_check(v, "replay");
    REQUIRE(c);
    CHECK(!c->ok);
    CHECK(c->detail.find("action seq 7 ") != std::string::npos);
    CHECK(c->detail.find("digest mismatch: stored 0123456789abcdef") != std::string::npos);
    CHECK(v.replay.seq == 6);  // the last good action
    CHECK(find_check(v, "seed commitment")->ok);
  }
  SUBCASE("an action changed") {
    // Seat 0's first action becomes a concession: legal, but not what was played.
    auto sm = *reader->load_match("full");
    const std::int64_t seq = 3;
    const int seat = sm.actions[seq - 1].seat;
    raw_db(path).exec("UPDATE match_actions SET action_json = '{\"type\":\"concede\"}' WHERE match_id = 'full' AND seq = 3");
    const verify_result v = verify(shipped(), *reader->load_match("full"));
    CHECK(!v.ok);
    const auto* c = find_check(v, "replay");
    REQUIRE(c);
    std::string prefix = "action seq 3 (seat ";
    prefix += std::to_string(seat);
    CHECK(c->detail.find(prefix) == 0);
    CHECK(c->detail.find("digest mismatch") != std::string::npos);
  }
  SUBCASE("an action removed") {
    raw_db(path).exec("DELETE FROM match_actions WHERE match_id = 'full' AND seq = 5");
    const verify_result v = verify(shipped(), *reader->load_match("full"));
    CHECK(!v.ok);
    CHECK(find_check(v, "replay")->detail.find("expected seq 5") != std::string::npos);
  }
  SUBCASE("the seed commitment does not match") {
    raw_db(path).exec("UPDATE matches SET seed_hash = '" + seed_commitment(43) + "' WHERE match_id = 'full'");
    const verify_result v = verify(shipped(), *reader->load_match("full"));
    CHECK(!v.ok);
    CHECK(!find_check(v, "seed commitment")->ok);
    CHECK(find_check(v, "replay")->ok);
  }
  SUBCASE("the seed changed (and its hash with it)") {
    raw_db(path).exec("UPDATE matches SET seed = '43', seed_hash = '" + seed_commitment(43) + "' WHERE match_id = 'full'");
    const verify_result v = verify(shipped(), *reader->load_match("full"));
    CHECK(!v.ok);
    CHECK(find_check(v, "seed commitment")->ok);
    CHECK(!find_check(v, "replay")->ok);
  }
  SUBCASE("the stored result is not the engine's") {
    raw_db(path).exec("UPDATE matches SET winners = '[0,1]' WHERE match_id = 'conceded'");
    const verify_result v = verify(shipped(), *reader->load_match("conceded"));
    CHECK(!v.ok);
    const auto* c = find_check(v, "result");
    REQUIRE(c);
    CHECK(!c->ok);
    CHECK(c->detail.find("stored winners [0,1]") != std::string::npos);
  }
  SUBCASE("another engine version") {
    auto sm = *reader->load_match("full");
    sm.match.engine_version = cod::engine_version + 1;
    const verify_result v = verify(shipped(), sm);
    CHECK(!v.ok);
    CHECK(!find_check(v, "engine version")->ok);
    CHECK(v.replay.error.find("engine version") != std::string::npos);
  }
}

TEST_CASE("recovery: verify of an unfinished match fails its 'finished' check only") {
  memory_store store(memory_store::callbacks::run_inline);
  played p = play_and_store(store, "m", 99, false, 10);
  const verify_result v = verify(shipped(), *store.load_match("m"));
  CHECK(!v.ok);
  CHECK(find_check(v, "replay")->ok);
  CHECK(!find_check(v, "finished")->ok);
}

TEST_CASE("cod-admin: list, show and verify; exit status follows verification") {
  temp_dir dir;
  const std::string path = dir.file("admin.db");
  std::string error;
  {
    auto store = sqlite_store::open({.path = path}, error);
    REQUIRE_MESSAGE(store, error);
    play_and_store(*store, "g1", 5, false, -1);
    play_and_store(*store, "g2", 6, false, 12);
  }
  const std::string admin = std::string(COD_ADMIN_PATH) + " --db " + path + " --catalogue " + COD_CATALOGUE_PATH;
  int rc = -1;
  std::string out = run(admin + " list", rc, dir);
  CHECK(rc == 0);
  CHECK(out.find("g1\tfinished") != std::string::npos);
  CHECK(out.find("g2\tplaying") != std::string::npos);
  out = run(admin + " list --status playing", rc, dir);
  CHECK(out.find("g1") == std::string::npos);

  out = run(admin + " show g1", rc, dir);
  CHECK(rc == 0);
  CHECK(out.find("match        g1") != std::string::npos);
  CHECK(out.find("  1\tseat ") != std::string::npos);

  out = run(admin + " verify g1", rc, dir);
  INFO(out);
  CHECK(rc == 0);
  CHECK(out.find("ok    seed commitment") != std::string::npos);
  CHECK(out.find("g1 verified") != std::string::npos);

  out = run(admin + " verify g2", rc, dir);
  CHECK(rc == 1);  // not finished

  raw_db(path).exec("UPDATE match_actions SET digest = 'ffffffffffffffff' WHERE match_id = 'g1' AND seq = 2");
  out = run(admin + " verify g1", rc, dir);
  CHECK(rc == 1);
  CHECK(out.find("FAIL  replay: action seq 2") != std::string::npos);

  out = run(admin + " verify nope", rc, dir);
  CHECK(rc == 1);
  out = run(std::string(COD_ADMIN_PATH) + " --db " + dir.file("missing.db") + " list", rc, dir);
  CHECK(rc == 1);
  CHECK(out.find("missing.db") != std::string::npos);
  out = run(std::string(COD_ADMIN_PATH) + " list", rc, dir);
  CHECK(rc == 2);
}
