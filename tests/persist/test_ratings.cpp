// Ratings (docs/ratings.md, migration 0014): a rated match's finish writes
// its seats' rating changes and ratings in the same transaction, on every
// store (for_each_store: memory, SQLite, and PostgreSQL in persist_tests_pg);
// the values are cod_rating's; the rulings leave the others unrated; the
// reads; verify's re-derivation (check_rating_changes).
#include <doctest/doctest.h>

#include <cmath>

#include "helpers.hpp"
#include "persist/rating_update.hpp"
#include "rating/glicko2.hpp"
#include "rating/openskill.hpp"
#include "../shared/store_reads.hpp"

using namespace cod::server;
using namespace cod::server::test;
namespace rt = cod::ratings;

namespace {

constexpr std::int64_t day_ms = 86'400'000;
constexpr std::int64_t t0 = 1'700'000'000'000;

// A rated match of `mode` whose seats are the accounts given (0: none).
match_record rated_record(const std::string& id, const std::string& mode, std::vector<std::int64_t> accounts) {
  match_record m = sample_record(id, t0);
  m.mode = mode;
  m.rated = true;
  m.seats.clear();
  for (std::size_t i = 0; i < accounts.size(); ++i) {
    seat_record s{static_cast<int>(i), "P" + std::to_string(i), sha256_hex("t" + std::to_string(i)),
                  R"({"preconstructed":1})"};
    s.account_id = accounts[i];
    if (mode == "2v2" || mode == "coop") s.team = static_cast<int>(i % 2);
    m.seats.push_back(s);
  }
  return m;
}

// Creates `m`, one end_turn from each seat in `acting` (seq 1, 2, ...), and
// finishes it; flushes. The finish's status.
status play(match_store& s, const match_record& m, const std::vector<int>& acting, const match_result& r) {
  acks a;
  s.create_match(m, a.expect(true));
  std::int64_t seq = 0;
  for (int seat : acting) s.append_action(m.match_id, sample_action(++seq, seat), a.expect(true));
  status finished;
  s.finish_match(m.match_id, r, [&](const status& st) { finished = st; });
  s.flush();
  CHECK(a.wrong() == 0);
  return finished;
}

bool same(double a, double b) { return std::fabs(a - b) <= 1e-9 * std::max(1.0, std::fabs(b)); }

}  // namespace

TEST_CASE("store: a rated duel's finish writes both ratings and changes, cod_rating's numbers, once") {
  for_each_store([](match_store& s) {
    const rt::glicko2_params gp;
    // First games: both start at 1500 / 500 / 0.09; seat 0 wins.
    REQUIRE(play(s, rated_record("d1", "duel", {11, 12}), {0, 1, 0}, {{0}, "fort_destroyed", t0 + 1000}));
    const rt::glicko2_rating fresh;
    const auto a1 = rt::rate_game(fresh, {fresh, 1.0}, gp);
    const auto b1 = rt::rate_game(fresh, {fresh, 0.0}, gp);
    auto changes = read_ok(s.reader().match_rating_changes("d1"));
    REQUIRE(changes.size() == 2);
    CHECK(changes[0].seat == 0);
    CHECK(changes[0].account_id == 11);
    CHECK(changes[0].ladder == "duel");
    CHECK(changes[0].before == rating_value{1500, 500, 0.09});
    CHECK(changes[0].before_last_ms == 0);
    CHECK(changes[0].after == rating_value{a1.rating, a1.deviation, a1.volatility});  // exact: stored as computed
    CHECK(changes[1].after == rating_value{b1.rating, b1.deviation, b1.volatility});
    CHECK(same(changes[0].delta, a1.rating - 1500));
    CHECK(changes[0].delta > 0);
    CHECK(changes[1].delta < 0);
    auto r11 = read_ok(s.reader().load_ratings(11));
    REQUIRE(r11.size() == 1);
    CHECK(r11[0].r == rating_value{a1.rating, a1.deviation, a1.volatility});
    CHECK(r11[0].display == a1.rating);
    CHECK(r11[0].games == 1);
    CHECK(r11[0].wins == 1);
    CHECK(r11[0].losses == 0);
    CHECK(r11[0].last_ms == t0 + 1000);
    CHECK(read_ok(s.reader().load_ratings(12))[0].losses == 1);
    // load_match brings the changes with the match.
    const auto sm = read_ok(s.reader().load_match("d1"));
    REQUIRE(sm);
    CHECK(sm->match.rated);
    CHECK(sm->rating_changes == changes);

    // Ten days later, 11 plays 13 (new) and it is a draw (no winners): 11's
    // RD first grows for the idle days, then Glicko-2 scores 0.5.
    const std::int64_t end2 = t0 + 1000 + 10 * day_ms;
    REQUIRE(play(s, rated_record("d2", "duel", {13, 11}), {0, 1}, {{}, "fort_destroyed", end2}));
    const auto idle = rt::after_idle(a1, 10.0, gp);
    const auto a2 = rt::rate_game(idle, {fresh, 0.5}, gp);
    const auto c2 = rt::rate_game(fresh, {idle, 0.5}, gp);
    changes = read_ok(s.reader().match_rating_changes("d2"));
    REQUIRE(changes.size() == 2);
    CHECK(changes[1].account_id == 11);
    CHECK(changes[1].before == rating_value{a1.rating, a1.deviation, a1.volatility});  // as stored, before idle growth
    CHECK(changes[1].before_last_ms == t0 + 1000);
    CHECK(changes[1].after == rating_value{a2.rating, a2.deviation, a2.volatility});
    CHECK(changes[0].after == rating_value{c2.rating, c2.deviation, c2.volatility});
    r11 = read_ok(s.reader().load_ratings(11));
    CHECK(r11[0].games == 2);
    CHECK(r11[0].wins == 1);
    CHECK(r11[0].losses == 0);  // a draw is neither

    // History: newest first, with match ids.
    const auto hist = read_ok(s.reader().rating_history(11, 0, 10));
    REQUIRE(hist.size() == 2);
    CHECK(hist[0].match_id == "d2");
    CHECK(hist[1].match_id == "d1");
    CHECK(read_ok(s.reader().rating_history(11, 1, 10)).size() == 1);

    // A second finish is refused; nothing changes.
    const auto before = read_ok(s.reader().load_ratings(11));
    status again;
    s.finish_match("d2", {{1}, "concession", end2 + 5}, [&](const status& st) { again = st; });
    s.flush();
    CHECK(again.error_code() == status::code::conflict);
    CHECK(read_ok(s.reader().load_ratings(11)) == before);
    CHECK(read_ok(s.reader().match_rating_changes("d2")).size() == 2);

    // The ladder: by displayed rating; established_only leaves out RD >= 110
    // (everyone here after one or two games).
    const auto ladder = read_ok(s.reader().list_ladder({.ladder = "duel"}));
    REQUIRE(ladder.size() == 3);
    CHECK(ladder[0].display >= ladder[1].display);
    CHECK(ladder[1].display >= ladder[2].display);
    CHECK(read_ok(s.reader().list_ladder({.ladder = "duel", .offset = 1, .limit = 1})).size() == 1);
    CHECK(read_ok(s.reader().list_ladder({.ladder = "duel", .established_only = true})).empty());
    CHECK(read_ok(s.reader().list_ladder({.ladder = "ffa"})).empty());
  });
}

TEST_CASE("store: the rulings leave these matches unrated; nothing written") {
  // One store, one match a ruling (no nested subcases: persist_tests_pg
  // runs the pg_store subcase alone).
  for_each_store([](match_store& s) {
    const match_result won{{0}, "fort_destroyed", t0 + 1000};
    match_record not_rated = rated_record("u-not-rated", "duel", {11, 12});
    not_rated.rated = false;
    REQUIRE(play(s, not_rated, {0, 1}, won));
    // A seat never played: aborted before its first action.
    REQUIRE(play(s, rated_record("u-no-play", "duel", {11, 12}), {0, 0}, won));
    // A seat's only action is a concession (its own or the grace period's).
    {
      acks a;
      s.create_match(rated_record("u-conceded", "duel", {11, 12}), a.expect(true));
      s.append_action("u-conceded", sample_action(1, 0), a.expect(true));
      action_record concede = sample_action(2, 1);
      concede.action_json = R"({"type":"concede"})";
      s.append_action("u-conceded", concede, a.expect(true));
      s.finish_match("u-conceded", {{0}, "concession", t0 + 1000}, a.expect(true));
      s.flush();
      CHECK(a.wrong() == 0);
    }
    REQUIRE(play(s, rated_record("u-no-account", "duel", {11, 0}), {0, 1}, won));
    match_record coop = rated_record("u-coop", "coop", {11, 0, 12, 0});
    coop.seats[1].ai = coop.seats[3].ai = true;
    REQUIRE(play(s, coop, {0, 1, 2, 3}, won));
    REQUIRE(play(s, rated_record("u-aborted", "duel", {11, 12}), {0, 1}, {{}, "aborted", t0 + 1000}));
    REQUIRE(play(s, rated_record("u-twice", "duel", {11, 11}), {0, 1}, won));
    for (const char* id : {"u-not-rated", "u-no-play", "u-conceded", "u-no-account", "u-coop", "u-aborted", "u-twice"}) {
      INFO(id);
      const auto sm = read_ok(s.reader().load_match(id));
      REQUIRE(sm);
      CHECK(sm->finished());
      CHECK(sm->rating_changes.empty());
      CHECK(read_ok(s.reader().match_rating_changes(id)).empty());
    }
    CHECK(read_ok(s.reader().load_ratings(11)).empty());
    CHECK(read_ok(s.reader().load_ratings(12)).empty());
    CHECK(read_ok(s.reader().list_ladder({.ladder = "duel"})).empty());
    // The plans say why.
    const auto sm = read_ok(s.reader().load_match("u-no-play"));
    const rating_plan plan = plan_rating(sm->match, *sm->result, seats_that_played(sm->actions));
    CHECK_FALSE(plan.rated);
    CHECK(plan.why == "seat 1 never played: aborted before every seat's first action");
  });
}

TEST_CASE("store: free-for-all and 2v2 are rated with OpenSkill's numbers") {
  for_each_store([](match_store& s) {
    const rt::skill fresh;
    // Free-for-all: seat 3 lost (R16.3: the others win): places 1, 1, 1, 2.
    REQUIRE(play(s, rated_record("f", "ffa", {21, 22, 23, 24}), {0, 1, 2, 3}, {{0, 1, 2}, "fort_destroyed", t0 + 5}));
    const auto ffa = rt::rate_plackett_luce({{fresh}, {fresh}, {fresh}, {fresh}}, {1, 1, 1, 2});
    auto changes = read_ok(s.reader().match_rating_changes("f"));
    REQUIRE(changes.size() == 4);
    for (int i = 0; i < 4; ++i) {
      CHECK(changes[i].ladder == "ffa");
      CHECK(changes[i].after == rating_value{ffa[i][0].mu, ffa[i][0].sigma, 0});
      CHECK(same(changes[i].delta, 30 * rt::ordinal(ffa[i][0]) - 0));
    }
    const auto r24 = read_ok(s.reader().load_ratings(24));
    REQUIRE(r24.size() == 1);
    CHECK(r24[0].losses == 1);
    CHECK(same(r24[0].display, 30 * rt::ordinal(ffa[3][0])));

    // 2v2: team 1 (seats 1 and 3) wins; 21 and 22 already have ffa ratings,
    // which the 2v2 ladder does not use.
    REQUIRE(play(s, rated_record("t", "2v2", {21, 22, 23, 24}), {0, 1, 2, 3}, {{1, 3}, "stronghold_alone", t0 + 9}));
    const auto tv = rt::rate_plackett_luce({{fresh, fresh}, {fresh, fresh}}, {2, 1});
    changes = read_ok(s.reader().match_rating_changes("t"));
    REQUIRE(changes.size() == 4);
    for (int i = 0; i < 4; ++i) {
      CHECK(changes[i].ladder == "2v2");
      CHECK(changes[i].before == rating_value{25, 25.0 / 3, 0});
      CHECK(changes[i].after == rating_value{tv[i % 2][i / 2].mu, tv[i % 2][i / 2].sigma, 0});
    }
    CHECK(read_ok(s.reader().load_ratings(21)).size() == 2);  // 2v2 and ffa
    const auto ladder = read_ok(s.reader().list_ladder({.ladder = "2v2"}));
    REQUIRE(ladder.size() == 4);
    CHECK(ladder[0].wins == 1);  // the winners first
    CHECK(ladder[1].wins == 1);
  });
}

TEST_CASE("store: a player's own games by account, and the active ladder") {
  // The reads the players' pages use (docs/accounts.md, "Players' pages"):
  // list_matches by a seat's account_id (0013) with each seat's account, and
  // a ladder that leaves out disabled and deleted accounts.
  for_each_store([](match_store& s) {
    REQUIRE(s.accounts() != nullptr);
    std::vector<std::int64_t> ids;
    for (const char* name : {"ann", "bob", "cat"}) {
      account_record a;
      a.name = name;
      a.created_ms = t0;
      auto made = s.accounts()->create_account(a);
      REQUIRE(made);
      ids.push_back(made->account_id);
    }
    const match_result won{{0}, "fort_destroyed", t0 + 1000};
    REQUIRE(play(s, rated_record("a1", "duel", {ids[0], ids[1]}), {0, 1}, won));
    match_record later = rated_record("a2", "duel", {ids[2], ids[0]});
    later.created_ms = t0 + 10;
    later.rated = false;  // a casual game is one of the player's games too
    REQUIRE(play(s, later, {0, 1}, {{0}, "concession", t0 + 2000}));
    REQUIRE(play(s, rated_record("a3", "duel", {ids[1], ids[2]}), {0, 1}, won));

    auto mine = read_ok(s.reader().list_matches({.account_id = ids[0]}));
    REQUIRE(mine.size() == 2);
    CHECK(mine[0].match_id == "a2");  // newest first
    CHECK(mine[1].match_id == "a1");
    CHECK(mine[0].accounts == std::vector<std::int64_t>{ids[2], ids[0]});
    CHECK(mine[1].accounts == std::vector<std::int64_t>{ids[0], ids[1]});
    CHECK(read_ok(s.reader().count_matches({.account_id = ids[0]})) == 2);
    CHECK(read_ok(s.reader().list_matches({.account_id = ids[0], .limit = 1})).size() == 1);
    CHECK(read_ok(s.reader().list_matches({.account_id = 999'999})).empty());
    CHECK(read_ok(s.reader().list_matches({})).size() == 3);

    // Ann disabled, bob deleted: the active ladder has cat alone.
    CHECK(read_ok(s.reader().list_ladder({.ladder = "duel", .active_only = true})).size() == 3);
    auto ann = read_ok(s.accounts()->account_by_id(ids[0]));
    ann->disabled = true;
    REQUIRE(s.accounts()->update_account(*ann));
    auto bob = read_ok(s.accounts()->account_by_id(ids[1]));
    bob->deleted = true;
    bob->name = "deleted player " + std::to_string(ids[1]);
    REQUIRE(s.accounts()->update_account(*bob));
    const auto active = read_ok(s.reader().list_ladder({.ladder = "duel", .active_only = true}));
    REQUIRE(active.size() == 1);
    CHECK(active[0].account_id == ids[2]);
    CHECK(read_ok(s.reader().list_ladder({.ladder = "duel"})).size() == 3);
  });
}

TEST_CASE("ratings: check_rating_changes re-derives stored changes and finds an altered one") {
  memory_store s(memory_store::callbacks::run_inline);
  REQUIRE(play(s, rated_record("d1", "duel", {11, 12}), {0, 1}, {{1}, "concession", t0 + 100}));
  REQUIRE(play(s, rated_record("d2", "duel", {12, 11}), {0, 1}, {{0}, "fort_destroyed", t0 + 3 * day_ms}));
  const auto sm = *read_ok(s.reader().load_match("d2"));
  const rating_plan plan = plan_rating(sm.match, *sm.result, seats_that_played(sm.actions));
  REQUIRE(plan.rated);
  CHECK(check_rating_changes(plan, "d2", sm.rating_changes, sm.result->ended_ms) == "");
  auto altered = sm.rating_changes;
  altered[1].after.value += 0.5;
  CHECK(check_rating_changes(plan, "d2", altered, sm.result->ended_ms).find("seat 1: stored after") == 0);
  altered = sm.rating_changes;
  altered[0].delta += 1;
  CHECK(check_rating_changes(plan, "d2", altered, sm.result->ended_ms).find("delta") != std::string::npos);
  altered.pop_back();
  CHECK(check_rating_changes(plan, "d2", altered, sm.result->ended_ms) != "");
  // An unrated plan with changes stored.
  rating_plan none = plan;
  none.rated = false;
  CHECK(check_rating_changes(none, "d2", sm.rating_changes, sm.result->ended_ms) != "");
  CHECK(check_rating_changes(none, "d2", {}, sm.result->ended_ms) == "");
}
