// Recovery and verification with the real engine: random duels are stored as
// the server stores them, rebuilt, verified, tampered with, and checked by
// cod-admin.
#include <doctest/doctest.h>
#include <sys/wait.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "../shared/catalogue.hpp"
#include "admin/admin_api.hpp"
#include "cod/engine/match.hpp"
#include "cod/engine/rng.hpp"
#include "cod/protocol/json_codec.hpp"
#include "cod/protocol/room_config.hpp"
#include "cod/protocol/wire_names.hpp"
#include "helpers.hpp"
#include "persist/memory/memory_store.hpp"
#include "persist/pg/pg_store.hpp"
#include "persist/sqlite/sqlite_store.hpp"
#include "replay/recovery.hpp"
#include "../shared/store_reads.hpp"

using namespace cod::server;
using namespace cod::server::test;
using cod::test::shipped;

namespace {

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
match_record duel_record(const std::string& id, std::uint64_t seed, bool exhaustion) {
  match_record rec;
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
  return rec;
}

// A four-seat record as the server writes one: preconstructed decks 1..4,
// 2v2 teams, and with `champions` a Champion per seat outside its deck.
match_record four_seat_record(const std::string& id, const std::string& mode, std::uint64_t seed, bool champions) {
  match_record rec = duel_record(id, seed, false);
  rec.mode = mode;
  rec.format = "preconstructed";
  nlohmann::json opts = {{"exhaustion", false}, {"seats", 4}, {"turn_clock", nullptr},
                         {"champions", champions}, {"share_team_hands", mode == "2v2"}};
  rec.options_json = opts.dump();
  const char* champion_of[] = {"mana_pecker", "growler", "troll", "brute"};
  rec.seats.clear();
  for (int s = 0; s < 4; ++s) {
    seat_record sr;
    sr.seat = s;
    sr.name = std::string(1, static_cast<char>('A' + s));
    sr.token_hash = sha256_hex(sr.name);
    sr.deck_json = nlohmann::json{{"preconstructed", s + 1}}.dump();
    if (mode == "2v2") sr.team = s % 2;
    if (champions) {
      // A creature outside this seat's deck.
      const auto deck = shipped().preconstructed_deck(s + 1);
      for (int k = 0; k < 4 && sr.champion.empty(); ++k) {
        const auto c = shipped().find(champion_of[(s + k) % 4]);
        REQUIRE(c);
        if (std::find(deck.begin(), deck.end(), *c) == deck.end()) sr.champion = champion_of[(s + k) % 4];
      }
      REQUIRE_FALSE(sr.champion.empty());
    }
    rec.seats.push_back(sr);
  }
  return rec;
}

played play_and_store(match_store& store, const match_record& record, int max_actions, int concede_seat = -1);

played play_and_store(match_store& store, const std::string& id, std::uint64_t seed, bool exhaustion,
                      int max_actions, int concede_seat = -1) {
  return play_and_store(store, duel_record(id, seed, exhaustion), max_actions, concede_seat);
}

played play_and_store(match_store& store, const match_record& record, int max_actions, int concede_seat) {
  played p;
  p.sm.match = record;
  const match_record& rec = p.sm.match;
  const std::string& id = rec.match_id;
  const std::uint64_t seed = rec.seed;

  cod::match_config cfg;
  const status read = config_from_record(shipped(), rec, cfg);
  REQUIRE_MESSAGE(read, read.message());
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
    r.winners = cod::winner_seats(m.winners());
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

// config_from_record refuses `bad`, saying `expect` somewhere in its reason.
void config_refused(const match_record& bad, const std::string& expect) {
  cod::match_config c;
  const status why = config_from_record(shipped(), bad, c);
  CHECK_FALSE(why);
  CHECK_MESSAGE(why.message().find(expect) != std::string::npos, why.message());
}

const verify_check* find_check(const verify_result& v, const std::string& name) {
  for (const auto& c : v.checks)
    if (c.name == name) return &c;
  return nullptr;
}

// The check `name`, which must be there and have failed.
const verify_check& failed_check(const verify_result& v, const std::string& name) {
  const verify_check* c = find_check(v, name);
  REQUIRE(c);
  CHECK(!c->ok);
  return *c;
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
  const status read = config_from_record(shipped(), m, cfg);
  REQUIRE_MESSAGE(read, read.message());
  CHECK(cfg.decks[0] == shipped().preconstructed_deck(1));
  CHECK(cfg.decks[1] == shipped().preconstructed_deck(3));
  CHECK(cfg.exhaustion_rule);
  CHECK(cfg.seed == 77);
  CHECK(cfg.first_seat == cod::no_seat);  // the coin toss, from the seed

  match_record bad = m;
  bad.options_json = "";
  cod::match_config c;
  CHECK(config_from_record(shipped(), bad, c));  // no options: the defaults
  CHECK(!c.exhaustion_rule);
  bad = m;
  bad.seats[0].deck_json = R"({"preconstructed": 5})";
  config_refused(bad, "deck.preconstructed");
  bad = m;
  bad.seats[1].deck_json = R"({"cards": ["no_such_card"]})";
  config_refused(bad, "seat 1: deck {\"cards\": [\"no_such_card\"]}: unknown_card");
  bad = m;
  bad.format = "preconstructed";
  config_refused(bad, "wrong_format");
  bad = m;
  bad.seats[0].deck_json = "not json";
  config_refused(bad, "not JSON");
  bad = m;
  bad.options_json = R"({"exhaustion": 1})";
  config_refused(bad, "options.exhaustion");
  bad = m;
  bad.options_json = R"({"seats": 4})";
  config_refused(bad, "seats");
  bad = m;
  bad.seats.pop_back();
  config_refused(bad, "a duel has 2");
  bad = m;
  bad.seats[1].seat = 0;
  config_refused(bad, "duplicate seat");
  bad = m;
  bad.mode = "ffa";
  config_refused(bad, "options.seats");
  bad = m;
  bad.mode = "solo";  // R2.1: no constructed decks against the AI
  config_refused(bad, "a solo room plays preconstructed decks");
  bad = m;
  bad.mode = "draft";
  config_refused(bad, "unsupported mode");
  bad = m;
  bad.seats[0].champion = "troll";
  config_refused(bad, "champions_off");
}

TEST_CASE("recovery: config_from_record reads four-seat modes, teams and Champions") {
  for (const char* mode : {"ffa", "2v2"}) {
    CAPTURE(mode);
    const match_record m = four_seat_record("m4", mode, 99, true);
    cod::match_config cfg;
    const status read = config_from_record(shipped(), m, cfg);
    REQUIRE_MESSAGE(read, read.message());
    CHECK(cod::game_mode_name(cfg.mode) == mode);
    CHECK(cfg.seat_count == 4);
    CHECK(cfg.share_team_hands == (std::string(mode) == "2v2"));
    for (int s = 0; s < 4; ++s) {
      CHECK(cfg.decks[s] == shipped().preconstructed_deck(s + 1));
      CHECK(cfg.champions[s] == *shipped().find(m.seats[s].champion));
    }
    match_record bad = m;
    bad.seats.pop_back();
    config_refused(bad, "3 seats recorded");
    bad = m;
    bad.seats[2].champion.clear();
    config_refused(bad, "seat 2: champion '': champion_required");
    bad = m;
    bad.seats[1].champion = shipped().def(shipped().preconstructed_deck(2)[0]).id;
    config_refused(bad, "in_deck");
    bad = m;
    bad.seats[3].champion = "no_such_card";
    config_refused(bad, "unknown_card");
  }
  // share_team_hands outside 2v2 is refused, as create_room refuses it.
  match_record bad = four_seat_record("m5", "ffa", 1, false);
  bad.options_json = R"({"seats":4,"share_team_hands":true})";
  cod::match_config c;
  const status why = config_from_record(shipped(), bad, c);
  CHECK_FALSE(why);
  CHECK_MESSAGE(why.message().find("share_team_hands") != std::string::npos, why.message());
}

TEST_CASE("recovery: four-seat matches with Champions are stored, rebuilt after a restart and verified") {
  temp_dir dir;
  const std::string path = dir.file("four.db");
  played unfinished, finished_2v2, conceded_ffa;
  {
    auto opened = sqlite_store::open({.path = path});
    REQUIRE_MESSAGE(opened, opened.error().message());
    auto store = std::move(*opened);
    unfinished = play_and_store(*store, four_seat_record("ffa-open", "ffa", 4242, true), 25);
    finished_2v2 = play_and_store(*store, four_seat_record("2v2-end", "2v2", 777, true), -1);
    // seat 1 concedes at its 9th action: ffa ends as R11.4, everyone else wins.
    conceded_ffa = play_and_store(*store, four_seat_record("ffa-conc", "ffa", 31337, false), 9, 1);
  }
  auto opened = sqlite_store::open({.path = path});  // as after a restart
  REQUIRE_MESSAGE(opened, opened.error().message());
  auto store = std::move(*opened);

  // The seats as written: team only in 2v2, Champions by catalogue id.
  const auto t = read_ok(store->reader().load_match("2v2-end"));
  REQUIRE(t);
  CHECK(t->match.seats == four_seat_record("2v2-end", "2v2", 777, true).seats);
  for (const auto& s : t->match.seats) CHECK(s.team == s.seat % 2);
  const auto f = read_ok(store->reader().load_match("ffa-open"));
  REQUIRE(f);
  for (const auto& s : f->match.seats) {
    CHECK_FALSE(s.team);
    CHECK_FALSE(s.champion.empty());
  }
  {
    raw_db db(path);
    CHECK(db.rows("SELECT seat, team, champion FROM match_seats WHERE match_id = '2v2-end' ORDER BY seat") ==
          std::vector<std::string>{"0|0|" + t->match.seats[0].champion, "1|1|" + t->match.seats[1].champion,
                                   "2|0|" + t->match.seats[2].champion, "3|1|" + t->match.seats[3].champion});
    CHECK(db.one("SELECT count(*) FROM match_seats WHERE match_id = 'ffa-conc' AND team IS NULL AND champion IS NULL") ==
          "4");
  }

  auto un = read_ok(store->reader().load_unfinished());
  REQUIRE(un.size() == 1);
  CHECK(un[0].match.match_id == "ffa-open");
  const rebuild_result r = rebuild(shipped(), un[0]);
  CHECK_MESSAGE(r.ok, r.error);
  CHECK(r.seq == 25);
  CHECK(r.m.digest() == unfinished.final_digest);
  CHECK(r.m.seat_count() == 4);
  // Every seat's Champion is back, public in every view.
  const auto v = r.m.view(cod::spectator);
  for (int s = 0; s < 4; ++s) {
    REQUIRE(v.seats[s].champion.card != cod::no_card);
    CHECK(shipped().def(v.seats[s].champion.card).id == un[0].match.seats[s].champion);
  }

  // 2v2 to the end: the winners are a team.
  REQUIRE(finished_2v2.sm.result);
  const auto& w = finished_2v2.sm.result->winners;
  CHECK((w == std::vector<int>{0, 2} || w == std::vector<int>{1, 3}));
  const auto v2 = verify(shipped(), *t);
  for (const auto& c : v2.checks) INFO(c.name << ": " << c.detail);
  CHECK(v2.ok);

  // ffa concession by seat 1: seats 0, 2 and 3 win.
  const auto c = read_ok(store->reader().load_match("ffa-conc"));
  REQUIRE(c);
  REQUIRE(c->result);
  CHECK(c->result->winners == std::vector<int>{0, 2, 3});
  CHECK(c->result->reason == "concession");
  CHECK(verify(shipped(), *c).ok);
  // A tampered winner list is caught.
  stored_match bad = *c;
  bad.result->winners = {0};
  CHECK_FALSE(verify(shipped(), bad).ok);
}

TEST_CASE("recovery: an unfinished duel is rebuilt from the database to the same digest") {
  temp_dir dir;
  const std::string path = dir.file("rec.db");
  played p;
  {
    auto opened = sqlite_store::open({.path = path});
    REQUIRE_MESSAGE(opened, opened.error().message());
    auto store = std::move(*opened);
    p = play_and_store(*store, "m1", 1234567890123ull, true, 12);
  }
  auto opened = sqlite_store::open({.path = path});  // as after a restart
  REQUIRE_MESSAGE(opened, opened.error().message());
  auto store = std::move(*opened);
  auto un = read_ok(store->reader().load_unfinished());
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
  played p, q;
  {
    auto opened = sqlite_store::open({.path = path});
    REQUIRE_MESSAGE(opened, opened.error().message());
    auto store = std::move(*opened);
    p = play_and_store(*store, "full", 42, false, -1);
    q = play_and_store(*store, "conceded", 7, true, 6, 1);
  }
  REQUIRE(p.sm.finished());
  MESSAGE("random duel: " << p.sm.actions.size() << " actions, " << p.sm.result->reason);
  REQUIRE(p.sm.actions.size() > 10);
  REQUIRE(q.sm.finished());
  CHECK(q.sm.result->reason == "concession");
  auto opened = sqlite_reader::open(path);
  REQUIRE_MESSAGE(opened, opened.error().message());
  auto reader = std::move(*opened);
  // Runs `sql` on the file, then verifies match `id` again: it must fail.
  auto verify_tampered = [&](const std::string& sql, const char* id) {
    raw_db(path).exec(sql);
    verify_result v = verify(shipped(), *read_ok(reader->load_match(id)));
    CHECK(!v.ok);
    return v;
  };

  SUBCASE("intact") {
    for (const char* id : {"full", "conceded"}) {
      auto sm = read_ok(reader->load_match(id));
      REQUIRE(sm);
      const verify_result v = verify(shipped(), *sm);
      for (const auto& c : v.checks) INFO(c.name << ": " << c.detail);
      CHECK(v.ok);
      CHECK(v.checks.size() == 6);
      CHECK(v.replay.m.digest() == (std::string(id) == "full" ? p.final_digest : q.final_digest));
    }
  }
  SUBCASE("a stored digest changed") {
    const verify_result v = verify_tampered(
        "UPDATE match_actions SET digest = '0123456789abcdef' WHERE match_id = 'full' AND seq = 7", "full");
    const verify_check& c = failed_check(v, "replay");
    CHECK(c.detail.find("action seq 7 ") != std::string::npos);
    CHECK(c.detail.find("digest mismatch: stored 0123456789abcdef") != std::string::npos);
    CHECK(v.replay.seq == 6);  // the last good action
    CHECK(find_check(v, "seed commitment")->ok);
  }
  SUBCASE("an action changed") {
    // Seat 0's first action becomes a concession: legal, but not what was played.
    auto sm = *read_ok(reader->load_match("full"));
    const std::int64_t seq = 3;
    const int seat = sm.actions[seq - 1].seat;
    const verify_result v = verify_tampered(
        "UPDATE match_actions SET action_json = '{\"type\":\"concede\"}' WHERE match_id = 'full' AND seq = 3", "full");
    const auto* c = find_check(v, "replay");
    REQUIRE(c);
    std::string prefix = "action seq 3 (seat ";
    prefix += std::to_string(seat);
    CHECK(c->detail.find(prefix) == 0);
    CHECK(c->detail.find("digest mismatch") != std::string::npos);
  }
  SUBCASE("an action removed") {
    const verify_result v = verify_tampered("DELETE FROM match_actions WHERE match_id = 'full' AND seq = 5", "full");
    CHECK(find_check(v, "replay")->detail.find("expected seq 5") != std::string::npos);
  }
  SUBCASE("the seed commitment does not match") {
    const verify_result v =
        verify_tampered("UPDATE matches SET seed_hash = '" + seed_commitment(43) + "' WHERE match_id = 'full'", "full");
    CHECK(!find_check(v, "seed commitment")->ok);
    CHECK(find_check(v, "replay")->ok);
  }
  SUBCASE("the seed changed (and its hash with it)") {
    const verify_result v = verify_tampered(
        "UPDATE matches SET seed = '43', seed_hash = '" + seed_commitment(43) + "' WHERE match_id = 'full'", "full");
    CHECK(find_check(v, "seed commitment")->ok);
    CHECK(!find_check(v, "replay")->ok);
  }
  SUBCASE("the stored result is not the engine's") {
    const verify_result v = verify_tampered("UPDATE matches SET winners = '[0,1]' WHERE match_id = 'conceded'", "conceded");
    CHECK(failed_check(v, "result").detail.find("stored winners [0,1]") != std::string::npos);
  }
  SUBCASE("another engine version") {
    auto sm = *read_ok(reader->load_match("full"));
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
  const verify_result v = verify(shipped(), *read_ok(store.reader().load_match("m")));
  CHECK(!v.ok);
  CHECK(find_check(v, "replay")->ok);
  CHECK(!find_check(v, "finished")->ok);
}

TEST_CASE("cod-admin: list, show and verify; exit status follows verification") {
  temp_dir dir;
  const std::string path = dir.file("admin.db");
  {
    auto opened = sqlite_store::open({.path = path});
    REQUIRE_MESSAGE(opened, opened.error().message());
    auto store = std::move(*opened);
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

TEST_CASE("cod-admin: four-seat matches list their teams; show prints each seat's team and Champion; verify") {
  temp_dir dir;
  const std::string path = dir.file("admin4.db");
  match_record two = four_seat_record("t1", "2v2", 777, true);
  {
    auto opened = sqlite_store::open({.path = path});
    REQUIRE_MESSAGE(opened, opened.error().message());
    auto store = std::move(*opened);
    play_and_store(*store, two, -1);
    play_and_store(*store, four_seat_record("f1", "ffa", 31337, false), 9, 1);
  }
  const std::string admin = std::string(COD_ADMIN_PATH) + " --db " + path + " --catalogue " + COD_CATALOGUE_PATH;
  int rc = -1;
  std::string out = run(admin + " list", rc, dir);
  INFO(out);
  CHECK(rc == 0);
  CHECK(out.find("2v2/preconstructed\tA & C vs B & D") != std::string::npos);
  CHECK(out.find("ffa/preconstructed\tA vs B vs C vs D") != std::string::npos);
  CHECK(out.find("winners=[0,2,3]\treason=concession") != std::string::npos);

  out = run(admin + " show t1", rc, dir);
  CHECK(rc == 0);
  CHECK(out.find("mode         2v2 (preconstructed)") != std::string::npos);
  for (const auto& s : two.seats) {
    std::string want = "team ";
    want += std::to_string(s.seat % 2);
    want += "\tchampion ";
    want += s.champion;
    CHECK_MESSAGE(out.find(want) != std::string::npos, want);
  }
  out = run(admin + " verify t1", rc, dir);
  CHECK(rc == 0);
  out = run(admin + " verify f1", rc, dir);
  CHECK(rc == 0);
}

namespace {

// A solo or co-op record as the server writes one (RULING E41): humans on
// preconstructed decks, each AI seat marked, named AI, without token, with
// the 24 cards of the three decks its human did not pick.
match_record ai_record(const std::string& id, const std::string& mode, std::uint64_t seed,
                       const nlohmann::json& options) {
  match_record rec = duel_record(id, seed, false);
  rec.mode = mode;
  rec.format = "preconstructed";
  rec.options_json = options.dump();
  const int seats = mode == "solo" ? 2 : 4;
  const int human_deck[] = {2, 0, 4, 0};
  rec.seats.clear();
  for (int s = 0; s < seats; ++s) {
    seat_record sr;
    sr.seat = s;
    sr.ai = s % 2 == 1;
    if (mode == "coop") sr.team = s % 2;
    if (sr.ai) {
      sr.name = "AI";
      nlohmann::json ids = nlohmann::json::array();
      for (cod::card_id c : cod::solo_ai_deck(shipped(), human_deck[s - 1])) ids.push_back(shipped().def(c).id);
      sr.deck_json = nlohmann::json{{"cards", ids}}.dump();
    } else {
      sr.name = s == 0 ? "Ann" : "Cy";
      sr.token_hash = sha256_hex(sr.name);
      sr.deck_json = nlohmann::json{{"preconstructed", human_deck[s]}}.dump();
    }
    rec.seats.push_back(sr);
  }
  return rec;
}

}  // namespace

TEST_CASE("recovery: solo and co-op matches keep their AI seats and difficulty; rebuilt after a restart; cod-admin") {
  temp_dir dir;
  const std::string path = dir.file("ai.db");
  const nlohmann::json custom = {{"exhaustion", false}, {"seats", 2}, {"turn_clock", nullptr}, {"champions", false},
                                 {"share_team_hands", false}, {"difficulty", 2},
                                 {"ai", {{"fixed_mana", 6}, {"double_variable", false}, {"ai_first", true},
                                         {"resistance", false}, {"abilities", {"sprint"}}}}};
  nlohmann::json quick = {{"seats", 4}, {"difficulty", 0}};
  const match_record solo = ai_record("solo-open", "solo", 99, custom);
  const match_record coop = ai_record("coop-end", "coop", 1234, quick);
  played open_solo;
  {
    auto opened = sqlite_store::open({.path = path});
    REQUIRE_MESSAGE(opened, opened.error().message());
    auto store = std::move(*opened);
    open_solo = play_and_store(*store, solo, 3);
    REQUIRE_FALSE(open_solo.sm.finished());  // the AI wins fast against random moves: 3 actions only
    play_and_store(*store, coop, -1);
  }
  auto opened = sqlite_store::open({.path = path});
  REQUIRE_MESSAGE(opened, opened.error().message());
  auto store = std::move(*opened);
  const auto c = read_ok(store->reader().load_match("coop-end"));
  REQUIRE(c);
  CHECK(c->match.seats == coop.seats);  // ai, team, empty token hash: as written
  {
    raw_db db(path);
    CHECK(db.rows("SELECT seat, name, team, ai, token_hash = '' FROM match_seats WHERE match_id = 'coop-end' "
                  "ORDER BY seat") ==
          std::vector<std::string>{"0|Ann|0|0|0", "1|AI|1|1|1", "2|Cy|0|0|0", "3|AI|1|1|1"});
  }
  // Co-op ends with a team: the humans (0, 2) or the AIs (1, 3); verify agrees.
  REQUIRE(c->result);
  const auto& w = c->result->winners;
  CHECK((w == std::vector<int>{0, 2} || w == std::vector<int>{1, 3}));
  const auto v = verify(shipped(), *c);
  for (const auto& ch : v.checks) INFO(ch.name << ": " << ch.detail);
  CHECK(v.ok);

  // The unfinished solo game (AI first, difficulty 2) rebuilds to the same digest.
  auto un = read_ok(store->reader().load_unfinished());
  REQUIRE(un.size() == 1);
  const rebuild_result r = rebuild(shipped(), un[0]);
  CHECK_MESSAGE(r.ok, r.error);
  CHECK(r.seq == 3);
  CHECK(r.m.digest() == open_solo.final_digest);
  cod::match_config cfg;
  REQUIRE(config_from_record(shipped(), un[0].match, cfg));
  CHECK(cfg.difficulty == 2);
  CHECK(cfg.ai.ai_first);
  CHECK(cfg.ai.granted == cod::bit(cod::ability::sprint));
  CHECK(cfg.decks[1] == cod::solo_ai_deck(shipped(), 2));
  // Options that no longer add up are refused, naming the field.
  match_record bad = solo;
  auto opts = custom;
  opts["difficulty"] = 3;
  bad.options_json = opts.dump();
  const status why = config_from_record(shipped(), bad, cfg);
  CHECK_FALSE(why);
  CHECK(why.message().find("options.difficulty") != std::string::npos);

  const std::string admin = std::string(COD_ADMIN_PATH) + " --db " + path + " --catalogue " + COD_CATALOGUE_PATH;
  int rc = -1;
  std::string out = run(admin + " list", rc, dir);
  INFO(out);
  CHECK(rc == 0);
  CHECK(out.find("coop/preconstructed\tAnn & Cy vs AI & AI") != std::string::npos);
  CHECK(out.find("solo/preconstructed\tAnn vs AI") != std::string::npos);
  out = run(admin + " show coop-end", rc, dir);
  CHECK(rc == 0);
  CHECK(out.find("mode         coop (preconstructed)") != std::string::npos);
  CHECK(out.find("team 1\tai (played by the engine, no token)") != std::string::npos);
  CHECK(out.find("\"difficulty\":0") != std::string::npos);
  out = run(admin + " verify coop-end", rc, dir);
  CHECK(rc == 0);
}

// The readers on PostgreSQL (persist_tests_pg's server; replay_tests_pg):
// cod-admin --store URI and the admin API over pg_store read what the
// server's store wrote, replay it and verify it, as on SQLite.
TEST_CASE("pg_store: cod-admin --store and the admin API read, replay and verify matches stored in PostgreSQL") {
  pg_test_db db(test_pg_uri());
  temp_dir dir;
  auto opened = pg_store::open({.uri = db.uri()});
  REQUIRE_MESSAGE(opened, opened.error().message());
  auto store = std::move(*opened);
  play_and_store(*store, "g1", 5, false, -1);
  play_and_store(*store, "g2", 6, false, 12);
  store->flush();

  const std::string admin =
      std::string(COD_ADMIN_PATH) + " --store '" + db.uri() + "' --catalogue " + COD_CATALOGUE_PATH;
  int rc = -1;
  std::string out = run(admin + " list", rc, dir);
  INFO(out);
  CHECK(rc == 0);
  CHECK(out.find("g1\tfinished") != std::string::npos);
  CHECK(out.find("g2\tplaying") != std::string::npos);
  out = run(admin + " verify g1", rc, dir);
  CHECK(rc == 0);
  CHECK(out.find("g1 verified") != std::string::npos);
  out = run(admin + " log g1", rc, dir);
  CHECK(rc == 0);
  // The log names the players (seats counted from 1 where it numbers them).
  CHECK(out.find(", seat 1 Ann, seat 2 Ben\n") != std::string::npos);
  CHECK(out.find("Ann ends the turn") != std::string::npos);
  out = run(admin + " verify-all", rc, dir);
  CHECK(rc == 0);

  // The admin API, through the store the server would give it.
  admin::api api{"s3cret-admin-token-123", shipped(), *store, environment::system()};
  admin::request req;
  req.method = "GET";
  req.authorization = "Bearer s3cret-admin-token-123";
  req.remote = "192.0.2.8:6000";
  req.target = "/admin/api/matches?status=finished";
  auto res = api.handle(req);
  CHECK(res.status == 200);
  CHECK(res.body.find("\"g1\"") != std::string::npos);
  CHECK(res.body.find("\"g2\"") == std::string::npos);
  req.target = "/admin/api/matches/g1/verify";
  res = api.handle(req);
  CHECK(res.status == 200);
  req.target = "/admin/api/matches/g2/state?step=3";  // a live match: audited
  CHECK(api.handle(req).status == 200);
  store->flush();
  REQUIRE(read_ok(store->reader().list_audit("g2")).size() == 1);

  // A tampered digest is found and located, as on SQLite.
  pg_raw(db.uri()).exec("UPDATE match_actions SET digest = 'ffffffffffffffff' WHERE match_id = 'g1' AND seq = 2");
  out = run(admin + " verify g1", rc, dir);
  CHECK(rc == 1);
  CHECK(out.find("FAIL  replay: action seq 2") != std::string::npos);
  out = run(std::string(COD_ADMIN_PATH) + " --db x.db --store '" + db.uri() + "' list", rc, dir);
  CHECK(rc == 2);
}

namespace {

// A duel in which both players only end their turns, `max_actions` of them or
// to the end, stored as the server stores one (without a store).
stored_match end_turns_only(const match_record& rec, int max_actions) {
  stored_match sm;
  sm.match = rec;
  cod::match_config cfg;
  const status read = config_from_record(shipped(), rec, cfg);
  REQUIRE_MESSAGE(read, read.message());
  cod::match m;
  std::vector<cod::event> events;
  REQUIRE(cod::match::create(shipped(), cfg, m, events) == cod::rule_error::ok);
  for (int n = 0; !m.over() && n < max_actions; ++n) {
    const cod::action act{cod::action_type::end_turn, m.active_seat()};
    events.clear();
    REQUIRE(m.apply(act, events) == cod::rule_error::ok);
    action_record ar;
    ar.seq = n + 1;
    ar.seat = act.seat;
    ar.action_json = cod::protocol::action_to_json(act).dump();
    ar.digest = m.digest();
    ar.at_ms = rec.created_ms + n;
    sm.actions.push_back(ar);
  }
  if (m.over()) {
    match_result r;
    r.winners = cod::winner_seats(m.winners());
    r.reason = std::string(cod::protocol::end_reason_name(m.view(cod::referee).reason));
    r.ended_ms = rec.created_ms + 100000;
    sm.result = r;
  }
  return sm;
}

}  // namespace

TEST_CASE("recovery: R17.25 a record from before the stall guard replays without it; a new one with its stall turn") {
  // Before R17.25 options_json had no stall_exhaustion_turn: that match was
  // played with no stall guard (exhaustion never began without R9), so it
  // reads as 0 and replays exactly as played, past the 40th turn.
  match_record old_rec = duel_record("old", 4242, false);
  old_rec.options_json = R"({"exhaustion":false,"seats":2,"turn_clock":null,"champions":false,"share_team_hands":false})";
  cod::match_config cfg;
  REQUIRE(config_from_record(shipped(), old_rec, cfg));
  CHECK(cfg.stall_exhaustion_turn == 0);
  const stored_match old_sm = end_turns_only(old_rec, 120);  // 60 rounds
  REQUIRE(old_sm.actions.size() == 120);
  const rebuild_result r = rebuild(shipped(), old_sm);
  CHECK_MESSAGE(r.ok, r.error);
  CHECK(r.seq == 120);
  CHECK_FALSE(r.m.over());
  CHECK(r.m.view(cod::referee).round >= 60);
  CHECK(r.m.view(cod::referee).removed.empty());
  // Read with the new default (40) the same log would not verify: the game
  // changes at the first player's 40th turn (the action that starts it, the
  // 78th, removes a card) and ends at its 47th, before the log does.
  std::vector<cod::action> log;
  for (const auto& a : old_sm.actions) {
    const auto parsed = cod::protocol::parse_action_text(a.action_json, static_cast<cod::seat_t>(a.seat));
    REQUIRE(parsed.ok());
    log.push_back(parsed.value);
  }
  cod::match_config as_new = cfg;
  as_new.stall_exhaustion_turn = cod::default_stall_exhaustion_turn;
  cod::match m40;
  int failed_at = 0;
  std::vector<std::uint64_t> digests;
  CHECK(cod::replay(shipped(), as_new, log, m40, failed_at, &digests) == cod::rule_error::game_over);
  CHECK(m40.view(cod::referee).round == 47);
  // digests[0] is the setup's; digests[i + 1] follows action i.
  std::size_t same = 0;
  while (same + 1 < digests.size() && digests[same + 1] == old_sm.actions[same].digest) ++same;
  CHECK(same == 77);

  // A new room writes its stall turn (40 by default): the record replays with
  // it, and verifies to the end the guard gave the game.
  match_record new_rec = duel_record("new", 4242, false);
  new_rec.options_json = cod::protocol::room_options_to_json({}, cod::game_mode::duel).dump();
  REQUIRE(config_from_record(shipped(), new_rec, cfg));
  CHECK(cfg.stall_exhaustion_turn == 40);
  const stored_match new_sm = end_turns_only(new_rec, 1000);
  REQUIRE(new_sm.result);
  CHECK(new_sm.actions.size() < 120);
  const verify_result v = verify(shipped(), new_sm);
  for (const auto& c : v.checks) CHECK_MESSAGE(c.ok, c.name << ": " << c.detail);
  CHECK(v.ok);
  CHECK(v.replay.m.over());
  CHECK(v.replay.m.view(cod::referee).round == 47);
  CHECK(v.replay.m.view(cod::referee).removed.size() == 15);
}

// docs/ratings.md: verify re-derives a rated match's rating changes from
// their stored before-values and the result, and finds an altered one.
TEST_CASE("recovery: verify re-derives a rated duel's rating changes; an altered after-value fails 'rating'") {
  temp_dir dir;
  const std::string path = dir.file("rated.db");
  match_record rec = duel_record("rated", 42, false);
  rec.rated = true;
  rec.seats[0].account_id = 7;
  rec.seats[1].account_id = 8;
  {
    auto opened = sqlite_store::open({.path = path});
    REQUIRE_MESSAGE(opened, opened.error().message());
    auto store = std::move(*opened);
    const played p = play_and_store(*store, rec, -1);
    REQUIRE(p.sm.finished());
  }
  auto opened = sqlite_reader::open(path);
  REQUIRE_MESSAGE(opened, opened.error().message());
  auto reader = std::move(*opened);
  auto sm = read_ok(reader->load_match("rated"));
  REQUIRE(sm);
  REQUIRE(sm->rating_changes.size() == 2);
  verify_result v = verify(shipped(), *sm);
  for (const auto& c : v.checks) INFO(c.name << ": " << c.detail);
  CHECK(v.ok);
  const verify_check* rating = find_check(v, "rating");
  REQUIRE(rating);
  CHECK(rating->ok);
  CHECK(rating->detail.find("2 rating changes on the duel ladder re-derived") == 0);

  raw_db(path).exec("UPDATE rating_changes SET after_value = after_value + 1 WHERE match_id = 'rated' AND seat = 1");
  sm = read_ok(reader->load_match("rated"));
  v = verify(shipped(), *sm);
  CHECK_FALSE(v.ok);
  CHECK(failed_check(v, "rating").detail.find("seat 1: stored after") == 0);
  CHECK(find_check(v, "replay")->ok);  // the rest still passes
}
