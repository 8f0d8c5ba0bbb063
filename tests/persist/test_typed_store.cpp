// The store's typed writes beyond matches, on every store: tournaments saved
// and loaded whole, the admin audit, and the status each write reports.
#include <doctest/doctest.h>

#include <memory>
#include <string>
#include <vector>

#include "../tournament/helpers.hpp"
#include "helpers.hpp"
#include "../shared/store_reads.hpp"

using namespace cod::server;
using namespace cod::server::test;
namespace tn = cod::tournaments;

namespace {

// The status a write reported, once the store has run its callback.
struct outcome {
  std::shared_ptr<status> got = std::make_shared<status>(status::invalid("no callback yet"));
  match_store::done_fn fn() {
    return [got = got](const status& s) { *got = s; };
  }
};

// A tournament of four whose first round's games name the matches "t-m1"
// and "t-m2" (created here first: a game must name a stored match).
stored_tournament started_tournament(match_store& s, const std::string& id, std::int64_t created_ms) {
  stored_tournament st;
  st.id = id;
  st.t = tn::test::make(4, tn::test::make_config(2));
  st.extras = {3, true};
  st.created_ms = created_ms;
  REQUIRE(st.t.start_next_round("server", created_ms).ok());
  int n = 0;
  for (const tn::game_slot& g : st.t.games_to_start()) {
    const std::string match_id = id + "-m" + std::to_string(++n);
    if (!read_ok(s.reader().load_match(match_id))) {
      s.create_match(sample_record(match_id), nullptr);
      s.flush();
    }
    REQUIRE(st.t.attach_match(g.table, match_id).ok());
  }
  return st;
}

// Player a of the pairing whose game is `match_id`: the winner to report.
tn::player_id a_of(const tn::tournament& t, const std::string& match_id) {
  for (const auto& p : t.rounds().back().pairings)
    for (const auto& g : p.games)
      if (g.match_id == match_id) return p.a;
  FAIL("no game of match " << match_id);
  return tn::no_player;
}

}  // namespace

TEST_CASE("typed store: a tournament saved comes back whole; a later save replaces it, created_ms kept") {
  for_each_store([](match_store& s) {
    CHECK(read_tournaments(s).empty());
    stored_tournament t = started_tournament(s, "t1", 1000);
    outcome saved;
    s.save_tournament(t, saved.fn());
    s.flush();
    CHECK(*saved.got == status::ok());
    auto back = read_tournaments(s);
    REQUIRE(back.size() == 1);
    CHECK(back[0] == t);

    // A result and new options; the second save's created_ms does not count.
    REQUIRE(t.t.report_game("t1-m1", a_of(t.t, "t1-m1")).ok());
    t.extras = {0, false};
    stored_tournament again = t;
    again.created_ms = 5000;
    s.save_tournament(again, nullptr);
    // A second tournament, created earlier: listed first (oldest first).
    stored_tournament u = started_tournament(s, "t0", 500);
    s.save_tournament(u, nullptr);
    back = read_tournaments(s);  // sees what was queued before it
    REQUIRE(back.size() == 2);
    CHECK(back[0] == u);
    CHECK(back[1] == t);
    CHECK(back[1].created_ms == 1000);
  });
}

TEST_CASE("typed store: a tournament whose game names an unknown match is refused; the stored one stays") {
  for_each_store([](match_store& s) {
    const stored_tournament t = started_tournament(s, "t1", 1000);
    s.save_tournament(t, nullptr);
    stored_tournament bad = t;
    REQUIRE(bad.t.report_game("t1-m1", a_of(bad.t, "t1-m1")).ok());
    REQUIRE(bad.t.report_game("t1-m2", a_of(bad.t, "t1-m2")).ok());
    // Round 2's first game gets a match the store never saw.
    REQUIRE(bad.t.start_next_round("server", 2000).ok());
    REQUIRE(bad.t.attach_match(1, "no-such-match").ok());
    outcome o;
    s.save_tournament(bad, o.fn());
    s.flush();
    CHECK(o.got->error_code() == status::code::conflict);
    const auto back = read_tournaments(s);
    REQUIRE(back.size() == 1);
    CHECK(back[0] == t);
  });
}

TEST_CASE("typed store: the matches of a tournament's games, through the search filter") {
  for_each_store([](match_store& s) {
    s.create_match(sample_record("other"), nullptr);
    const stored_tournament t = started_tournament(s, "t1", 1000);
    s.save_tournament(t, nullptr);
    s.flush();
    match_query q;
    q.tournament = "t1";
    std::vector<std::string> ids;
    for (const auto& m : read_ok(s.reader().list_matches(q))) ids.push_back(m.match_id);
    CHECK(ids == std::vector<std::string>{"t1-m2", "t1-m1"});  // newest first: equal times, by id descending
    q.tournament = "nope";
    CHECK(read_ok(s.reader().list_matches(q)).empty());
  });
}

TEST_CASE("typed store: audit rows are kept in the order recorded, by match or all") {
  for_each_store([](match_store& s) {
    CHECK(read_ok(s.reader().list_audit("")).empty());
    const audit_record a{1700000000001, "admin", "192.0.2.8:6000", "live-1", "state",
                         "GET /admin/api/matches/live-1/state?step=6"};
    const audit_record b{1700000000002, "organiser", "192.0.2.9:7000", "live-2", "tournament export",
                         "GET /admin/api/tournaments/t1/export"};
    const audit_record c{1700000000003, "admin", "192.0.2.8:6001", "live-1", "log",
                         "GET /admin/api/matches/live-1/log"};
    outcome o;
    s.record_audit(a, o.fn());
    s.record_audit(b, nullptr);
    s.record_audit(c, nullptr);  // no match row needed: the audit outlives matches
    s.flush();
    CHECK(*o.got == status::ok());
    CHECK(read_ok(s.reader().list_audit("")) == std::vector<audit_record>{a, b, c});
    CHECK(read_ok(s.reader().list_audit("live-1")) == std::vector<audit_record>{a, c});
    CHECK(read_ok(s.reader().list_audit("none")).empty());
  });
}

TEST_CASE("typed store: a refused write says why with a status code") {
  for_each_store([](match_store& s) {
    outcome created, again, unknown, gap, finished_twice;
    s.create_match(sample_record("m"), created.fn());
    s.create_match(sample_record("m"), again.fn());
    s.append_action("nope", sample_action(1), unknown.fn());
    s.append_action("m", sample_action(2), gap.fn());
    s.finish_match("m", {{0}, "concession", 1}, nullptr);
    s.finish_match("m", {{0}, "concession", 2}, finished_twice.fn());
    s.flush();
    CHECK(created.got->is_ok());
    CHECK(again.got->error_code() == status::code::conflict);
    CHECK(unknown.got->error_code() == status::code::not_found);
    CHECK(gap.got->error_code() == status::code::conflict);
    CHECK(gap.got->message().find("does not follow") != std::string::npos);
    CHECK(finished_twice.got->error_code() == status::code::conflict);
  });
}

TEST_CASE("typed store: a storage failure is an io_error (memory_store's fault injection)") {
  memory_store s(memory_store::callbacks::run_inline);
  s.fail_next_writes(1);
  outcome o;
  s.record_audit({1, "admin", "r", "m", "state", "GET /"}, o.fn());
  CHECK(o.got->error_code() == status::code::io_error);
  CHECK(read_ok(s.reader().list_audit("")).empty());
  CHECK(!s.health().ok);
}
