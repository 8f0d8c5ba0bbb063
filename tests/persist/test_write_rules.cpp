// The one write-rule checker (persist/write_rules.hpp): the rules alone on a
// view, then one script of writes run on every store, which must answer each
// with the same status, code and message (memory, SQLite, and PostgreSQL in
// persist_tests_pg).
#include <doctest/doctest.h>

#include <memory>
#include <string>
#include <vector>

#include "../tournament/helpers.hpp"
#include "helpers.hpp"
#include "persist/write_rules.hpp"

using namespace cod::server;
using namespace cod::server::test;
namespace tn = cod::tournaments;

namespace {

using kind = detail::match_state::kind;

draft_event_record draft_row(std::int64_t seq, int seat, std::string k) {
  return {seq, seat, std::move(k), "[1]", 1700000000000 + seq};
}

// The statuses of a store's writes, in the order queued.
struct answers {
  std::vector<std::shared_ptr<status>> got;
  match_store::done_fn next() {
    got.push_back(std::make_shared<status>(status::invalid("no callback yet")));
    return [g = got.back()](const status& s) { *g = s; };
  }
};

template <class Op>
detail::write_op op(Op o) {
  return {std::move(o), nullptr};
}

}  // namespace

TEST_CASE("write rules: each write is checked against the view of the matches it names") {
  detail::match_states view;
  const auto check = [&](const detail::write_op& w) { return detail::check_write(w, view); };

  match_record rec = sample_record("m");
  CHECK(check(op(detail::create_op{rec})) == status::ok());
  rec.seats[1].seat = 0;
  CHECK(check(op(detail::create_op{rec})) == status::invalid("bad or duplicate seat 0"));
  rec.seats[1].seat = 4;
  CHECK(check(op(detail::create_op{rec})) == status::invalid("bad or duplicate seat 4"));

  CHECK(check(op(detail::append_op{"m", sample_action(1)})) == status::not_found("unknown match"));
  detail::applied(op(detail::create_op{sample_record("m")}), view);
  CHECK(view.at("m").k == kind::playing);
  CHECK(view.at("m").room_id == "room-m");
  CHECK(check(op(detail::create_op{sample_record("m")})) == status::conflict("the match exists already"));
  CHECK(check(op(detail::append_op{"m", sample_action(2)})) ==
        status::conflict("seq 2 does not follow the last seq 0"));
  CHECK(check(op(detail::append_op{"m", sample_action(1, -1)})) == status::invalid("bad seat -1"));
  detail::applied(op(detail::append_op{"m", sample_action(1)}), view);
  CHECK(view.at("m").last_seq == 1);

  CHECK(check(op(detail::draft_op{"m", {draft_row(1, 0, "reveal"), draft_row(3, 0, "pick")}})) ==
        status::conflict("draft seq 3 does not follow the last draft seq 0"));
  CHECK(check(op(detail::draft_op{"m", {draft_row(1, 0, "peek")}})) == status::invalid("bad kind peek"));
  detail::applied(op(detail::draft_op{"m", {draft_row(1, 0, "reveal"), draft_row(2, 0, "pick")}}), view);
  CHECK(view.at("m").last_draft == 2);

  CHECK(check(op(detail::note_op{"gone", {1, "x"}})) == status::not_found("unknown match"));
  detail::applied(op(detail::finish_op{"m", {{0}, "concession", 5}}), view);
  CHECK(check(op(detail::finish_op{"m", {{0}, "concession", 6}})) ==
        status::conflict("the match is finished already"));
  CHECK(check(op(detail::append_op{"m", sample_action(2)})) == status::conflict("the match is finished"));
  CHECK(check(op(detail::note_op{"m", {1, "after the end"}})) == status::ok());
  CHECK(check(op(detail::audit_op{{1, "admin", "r", "m", "state", "GET /"}})) == status::ok());
}

TEST_CASE("write rules: every store refuses the same writes with the same status and message") {
  for_each_store([](match_store& s) {
    answers a;
    s.create_match(sample_record("m1"), a.next());
    s.create_match(sample_record("m1"), a.next());  // exists
    match_record dup = sample_record("m2");
    dup.seats[1].seat = 0;
    s.create_match(dup, a.next());
    match_record far = sample_record("m3");
    far.seats[1].seat = 7;
    s.create_match(far, a.next());
    s.append_action("nope", sample_action(1), a.next());
    s.append_action("m1", sample_action(2), a.next());
    s.append_action("m1", sample_action(1, 9), a.next());
    s.append_action("m1", sample_action(1), a.next());
    s.append_draft("m1", {draft_row(1, 0, "reveal"), draft_row(2, 1, "pick")}, a.next());
    s.append_draft("m1", {draft_row(2, 0, "reveal")}, a.next());
    s.append_draft("m1", {draft_row(3, 5, "pick")}, a.next());
    s.append_draft("m1", {draft_row(3, 0, "peek")}, a.next());
    s.append_draft("nope", {draft_row(1, 0, "pick")}, a.next());
    s.finish_match("nope", {{0}, "concession", 1}, a.next());
    s.finish_match("m1", {{0}, "concession", 1}, a.next());
    s.finish_match("m1", {{1}, "concession", 2}, a.next());
    s.append_action("m1", sample_action(2), a.next());
    s.append_draft("m1", {draft_row(3, 0, "pick")}, a.next());
    s.flush();
    // The same batch again, after a restart of the writer's view: a new
    // match, and what the store read back of m1 (SQLite's and
    // PostgreSQL's writers read a match's state from the database).
    s.append_action("m1", sample_action(2), a.next());
    s.create_match(sample_record("m4"), a.next());
    s.append_action("m4", sample_action(1, 3), a.next());
    s.flush();

    const std::vector<status> want = {
        status::ok(),
        status::conflict("the match exists already"),
        status::invalid("bad or duplicate seat 0"),
        status::invalid("bad or duplicate seat 7"),
        status::not_found("unknown match"),
        status::conflict("seq 2 does not follow the last seq 0"),
        status::invalid("bad seat 9"),
        status::ok(),
        status::ok(),
        status::conflict("draft seq 2 does not follow the last draft seq 2"),
        status::invalid("bad seat 5"),
        status::invalid("bad kind peek"),
        status::not_found("unknown match"),
        status::not_found("unknown match"),
        status::ok(),
        status::conflict("the match is finished already"),
        status::conflict("the match is finished"),
        status::conflict("the match is finished"),
        status::conflict("the match is finished"),
        status::ok(),
        status::ok(),
    };
    REQUIRE(a.got.size() == want.size());
    for (std::size_t i = 0; i < want.size(); ++i) {
      CAPTURE(i);
      CHECK(*a.got[i] == want[i]);
    }
  });
}

TEST_CASE("write rules: a tournament naming a match no store holds is refused alike") {
  for_each_store([](match_store& s) {
    stored_tournament t;
    t.id = "t1";
    t.t = tn::test::make(4, tn::test::make_config(2));
    t.created_ms = 1000;
    REQUIRE(t.t.start_next_round("server", 1000).ok());
    const auto games = t.t.games_to_start();
    REQUIRE(!games.empty());
    REQUIRE(t.t.attach_match(games[0].table, "t1-missing").ok());
    answers a;
    s.save_tournament(t, a.next());
    s.flush();
    CHECK(*a.got[0] == status::conflict("tournament t1: a game names the unknown match t1-missing"));
  });
}
