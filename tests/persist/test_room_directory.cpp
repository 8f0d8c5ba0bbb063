// The room directory (room_directory.hpp) on every store: leases (claim,
// renew, release, expiry on the store's clock), handover requests, the rooms
// a sweeper finds, one room's match, the lobby of several nodes. Times: leases that must not
// expire last a minute; those that must, 200 ms, and the test polls for the
// expiry with a generous deadline (never asserting how fast anything is).
#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "../tournament/helpers.hpp"
#include "helpers.hpp"
#include "persist/room_directory.hpp"

using namespace cod::server;
using namespace cod::server::test;

namespace {

constexpr std::int64_t minute = 60'000;
constexpr std::int64_t short_lease = 200;

room_directory& dir_of(match_store& s) {
  room_directory* d = s.directory();
  REQUIRE(d != nullptr);
  return *d;
}

bool claim(room_directory& d, const std::string& room, const std::string& node, std::int64_t lease_ms = minute) {
  const result<bool> r = d.claim_room(room, node, lease_ms);
  REQUIRE_MESSAGE(r, r.error().message());
  return *r;
}

std::vector<std::string> held(room_directory& d, const std::string& node, std::int64_t lease_ms = minute) {
  auto r = d.renew_leases(node, lease_ms);
  REQUIRE_MESSAGE(r, r.error().message());
  return *r;
}

bool request(room_directory& d, const std::string& room, const std::string& node) {
  const result<bool> r = d.request_room(room, node);
  REQUIRE_MESSAGE(r, r.error().message());
  return *r;
}

std::vector<std::string> wanted(room_directory& d, const std::string& node) {
  auto r = d.wanted_rooms(node);
  REQUIRE_MESSAGE(r, r.error().message());
  return *r;
}

std::vector<std::string> expired(room_directory& d) {
  auto r = d.expired_rooms(100);
  REQUIRE_MESSAGE(r, r.error().message());
  return *r;
}

bool contains(const std::vector<std::string>& v, const std::string& x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

void created(match_store& s, const match_record& m) {
  acks a;
  s.create_match(m, a.expect(true));
  s.flush();
  REQUIRE(a.wrong() == 0);
}

std::vector<room_listing> lobby(room_directory& d, std::int64_t stale_after_ms = minute) {
  auto r = d.list_all_rooms(stale_after_ms);
  REQUIRE_MESSAGE(r, r.error().message());
  return *r;
}

}  // namespace

TEST_CASE("store: a room's lease is claimed by one node; renewed, released, then claimed by another") {
  for_each_store([](match_store& s) {
    room_directory& d = dir_of(s);
    CHECK(claim(d, "r1", "n1"));
    CHECK(!claim(d, "r1", "n2"));  // n1's lease is live
    CHECK(claim(d, "r1", "n1"));   // already n1's: renewed
    CHECK(claim(d, "r2", "n2"));
    CHECK(held(d, "n1") == std::vector<std::string>{"r1"});
    CHECK(held(d, "n2") == std::vector<std::string>{"r2"});
    CHECK(held(d, "n3").empty());

    const status wrong = d.release_room("r1", "n2");
    CHECK(wrong.error_code() == status::code::conflict);
    CHECK(!claim(d, "r1", "n2"));  // still n1's
    CHECK(d.release_room("r1", "n1").is_ok());
    CHECK(claim(d, "r1", "n2"));  // free now
    CHECK(held(d, "n1").empty());
    CHECK(held(d, "n2") == std::vector<std::string>{"r1", "r2"});
    CHECK(d.release_room("r1", "n1").error_code() == status::code::conflict);

    CHECK(d.claim_room("r3", "", minute).error().error_code() == status::code::invalid);
    CHECK(d.claim_room("", "n1", minute).error().error_code() == status::code::invalid);
    CHECK(d.claim_room("r3", "n1", 0).error().error_code() == status::code::invalid);
    CHECK(d.renew_leases("", minute).error().error_code() == status::code::invalid);
  });
}

TEST_CASE("store: hold_liveness: a node holds it on every store, and its live leases stay its own") {
  for_each_store([](match_store& s) {
    room_directory& d = dir_of(s);
    CHECK(d.hold_liveness("n1").is_ok());
    CHECK(d.hold_liveness("n1").is_ok());  // again: still held
    CHECK(claim(d, "r1", "n1"));
    CHECK(!claim(d, "r1", "n2"));
    CHECK(!contains(expired(d), "r1"));
    CHECK(d.hold_liveness("").error_code() == status::code::invalid);
  });
}

TEST_CASE("store: an expired lease can be claimed by another node; renewing keeps it; the loser renews nothing") {
  for_each_store([](match_store& s) {
    room_directory& d = dir_of(s);
    // Renewed before anyone takes it: still n1's, for a minute now (even
    // had it expired in between, no one else claimed it).
    CHECK(claim(d, "kept", "n1", short_lease));
    CHECK(held(d, "n1") == std::vector<std::string>{"kept"});
    CHECK(!claim(d, "kept", "n2"));

    CHECK(claim(d, "lost", "n1", short_lease));
    CHECK(eventually([&] { return claim(d, "lost", "n2"); }));
    CHECK(!claim(d, "lost", "n1"));
    CHECK(held(d, "n1") == std::vector<std::string>{"kept"});
    CHECK(held(d, "n2") == std::vector<std::string>{"lost"});
  });
}

TEST_CASE("store: a handover request marks another node's live lease; its holder sees it in wanted_rooms") {
  for_each_store([](match_store& s) {
    room_directory& d = dir_of(s);
    CHECK(claim(d, "r1", "n1"));
    CHECK(claim(d, "r2", "n1"));
    CHECK(claim(d, "r3", "n3"));
    CHECK(wanted(d, "n1").empty());

    CHECK(request(d, "r2", "n2"));
    CHECK(request(d, "r1", "n2"));
    CHECK(wanted(d, "n1") == std::vector<std::string>{"r1", "r2"});  // sorted
    CHECK(wanted(d, "n2").empty());  // the asker holds nothing
    CHECK(wanted(d, "n3").empty());  // nobody asked n3
    // A renewal keeps the request; the holder still holds the room.
    CHECK(held(d, "n1") == std::vector<std::string>{"r1", "r2"});
    CHECK(wanted(d, "n1") == std::vector<std::string>{"r1", "r2"});
    CHECK(!claim(d, "r1", "n2"));  // asking is not taking: n1's lease is live

    // The holder hands it over: released, the asker claims it and starts unasked.
    CHECK(d.release_room("r1", "n1").is_ok());
    CHECK(wanted(d, "n1") == std::vector<std::string>{"r2"});
    CHECK(claim(d, "r1", "n2"));
    CHECK(wanted(d, "n2").empty());
    CHECK(held(d, "n2") == std::vector<std::string>{"r1"});
  });
}

TEST_CASE("store: nothing to ask when nobody holds the room, its lease expired, or the asker holds it") {
  for_each_store([](match_store& s) {
    room_directory& d = dir_of(s);
    CHECK(!request(d, "never-claimed", "n2"));
    CHECK(claim(d, "mine", "n2"));
    CHECK(!request(d, "mine", "n2"));
    CHECK(wanted(d, "n2").empty());

    CHECK(claim(d, "released", "n1"));
    CHECK(d.release_room("released", "n1").is_ok());
    CHECK(!request(d, "released", "n2"));

    // Expired (seen through expired_rooms, which marks nothing, unlike a
    // request made too early): claimed directly, not asked for.
    created(s, sample_record("short"));  // room-short
    CHECK(claim(d, "room-short", "n1", short_lease));
    CHECK(eventually([&] { return contains(expired(d), "room-short"); }));
    CHECK(!request(d, "room-short", "n2"));
    CHECK(wanted(d, "n1").empty());
    CHECK(claim(d, "room-short", "n2"));
    CHECK(wanted(d, "n2").empty());
  });
}

TEST_CASE("store: a second handover request replaces the first; a claim clears it") {
  for_each_store([](match_store& s) {
    room_directory& d = dir_of(s);
    CHECK(claim(d, "r", "n1"));
    CHECK(request(d, "r", "n2"));
    CHECK(request(d, "r", "n3"));  // replaces n2's: still one wanted room
    CHECK(wanted(d, "n1") == std::vector<std::string>{"r"});
    // The holder claiming its own room again clears it too (a claim always
    // does): the asker asks again.
    CHECK(claim(d, "r", "n1"));
    CHECK(wanted(d, "n1").empty());
    CHECK(request(d, "r", "n3"));
    CHECK(wanted(d, "n1") == std::vector<std::string>{"r"});

    // n1 hands it to whoever claims first (here n3); a new holder starts
    // unasked, even though n2 had asked before.
    CHECK(d.release_room("r", "n1").is_ok());
    CHECK(claim(d, "r", "n3"));
    CHECK(wanted(d, "n3").empty());
    CHECK(wanted(d, "n1").empty());

    // Taken over after expiry, the room comes unasked too. (Asked while the
    // lease is a minute long, then renewed short: the request must find it
    // live however slow the machine.)
    CHECK(claim(d, "t", "n1"));
    CHECK(request(d, "t", "n2"));
    CHECK(held(d, "n1", short_lease) == std::vector<std::string>{"t"});
    CHECK(wanted(d, "n1") == std::vector<std::string>{"t"});
    CHECK(eventually([&] { return claim(d, "t", "n3"); }));
    CHECK(wanted(d, "n3").empty());
    CHECK(wanted(d, "n1").empty());
  });
}

TEST_CASE("store: handover requests refuse empty ids") {
  for_each_store([](match_store& s) {
    room_directory& d = dir_of(s);
    CHECK(claim(d, "r", "n1"));
    CHECK(d.request_room("", "n2").error().error_code() == status::code::invalid);
    CHECK(d.request_room("r", "").error().error_code() == status::code::invalid);
    CHECK(d.wanted_rooms("").error().error_code() == status::code::invalid);
    CHECK(wanted(d, "n1").empty());  // a refused request marked nothing
  });
}

TEST_CASE("store: expired_rooms lists the rooms of unfinished matches that no live lease holds") {
  for_each_store([](match_store& s) {
    room_directory& d = dir_of(s);
    created(s, sample_record("a"));  // room-a
    created(s, sample_record("b"));  // room-b
    created(s, sample_record("done"));
    acks fin;
    s.finish_match("done", {{0}, "victory", 1700000001000}, fin.expect(true));
    s.flush();
    REQUIRE(fin.wrong() == 0);

    // Never claimed: nobody runs them (a finished match's room is nobody's business).
    CHECK(expired(d) == std::vector<std::string>{"room-a", "room-b"});
    CHECK(claim(d, "room-a", "n1"));
    CHECK(claim(d, "room-b", "n1", short_lease));
    CHECK(claim(d, "room-done", "n1", short_lease));
    CHECK(!contains(expired(d), "room-a"));
    CHECK(eventually([&] { return expired(d) == std::vector<std::string>{"room-b"}; }));
    CHECK(d.release_room("room-a", "n1").is_ok());
    CHECK(expired(d) == std::vector<std::string>{"room-a", "room-b"});
    auto one = d.expired_rooms(1);
    REQUIRE(one);
    CHECK(*one == std::vector<std::string>{"room-a"});
    CHECK(claim(d, "room-b", "n2"));
    CHECK(expired(d) == std::vector<std::string>{"room-a"});
  });
}

TEST_CASE("store: room_known: a room with a lease row or a match is known, a made-up id is not") {
  for_each_store([](match_store& s) {
    room_directory& d = dir_of(s);
    auto known = [&d](const std::string& room) {
      const auto k = d.room_known(room);
      REQUIRE_MESSAGE(k, k.error().message());
      return *k;
    };
    CHECK_FALSE(known("n1-rmadeup"));
    CHECK(claim(d, "n1-rwaiting", "n1"));  // a waiting room: a lease, no match yet
    CHECK(known("n1-rwaiting"));
    match_record m = sample_record("played", 1700000000000);
    m.room_id = "n2-rplayed";
    created(s, m);
    s.flush();
    CHECK(known("n2-rplayed"));  // a match, no lease
    CHECK(d.release_room("n1-rwaiting", "n1").is_ok());
    CHECK_FALSE(known("n1-rwaiting"));
  });
}

TEST_CASE("store: forget_stale deletes long-expired leases of rooms without an unfinished match, and long-silent "
          "nodes' lobby rows") {
  for_each_store([](match_store& s) {
    room_directory& d = dir_of(s);
    match_record playing = sample_record("playing", 1700000000000);
    playing.room_id = "n1-rplaying";
    created(s, playing);
    s.flush();
    CHECK(claim(d, "n1-rplaying", "n1", 1));  // unfinished match: kept, however old
    CHECK(claim(d, "n1-rwaiting", "n1", 1));  // no match: forgotten
    CHECK(claim(d, "n2-rlive", "n2"));        // a live lease: kept
    REQUIRE(d.publish_rooms("n1", {{"n1-rwaiting", "{}", {}, 0}}).is_ok());
    CHECK(eventually([&] { return expired(d) == std::vector<std::string>{"n1-rplaying"}; }));
    std::this_thread::sleep_for(std::chrono::milliseconds(30));
    const auto none = d.forget_stale(60'000);  // nothing that old
    REQUIRE(none);
    CHECK(*none == 0);
    const auto gone = d.forget_stale(10);
    REQUIRE_MESSAGE(gone, gone.error().message());
    CHECK(*gone == 2);  // n1-rwaiting's lease, node n1
    const auto known = [&d](const std::string& room) { return d.room_known(room).value(); };
    CHECK_FALSE(known("n1-rwaiting"));
    CHECK(known("n1-rplaying"));
    CHECK_FALSE(claim(d, "n2-rlive", "n1"));  // still n2's
    const auto listed = d.list_all_rooms(3'600'000);
    REQUIRE(listed);
    CHECK(listed->empty());
    // A node that comes back publishes anew.
    REQUIRE(d.publish_rooms("n1", {{"n1-rplaying", "{}", {}, 0}}).is_ok());
    CHECK(d.list_all_rooms(60'000).value().size() == 1);
  });
}

TEST_CASE("store: a tournament's id is known; expired_events lists it while no live lease holds it and it has "
          "not finished; forget_stale keeps its expired lease row until then") {
  for_each_store([](match_store& s) {
    namespace tn = cod::tournaments;
    room_directory& d = dir_of(s);
    CHECK_FALSE(d.room_known("n1-tcup").value());
    stored_tournament t{"n1-tcup", tn::test::make(4, tn::test::make_config(1)), {}, 1000};
    s.save_tournament(t, nullptr);
    s.flush();
    CHECK(d.room_known("n1-tcup").value());  // no lease row: known by the tournament
    auto orphans = [&d] { return d.expired_events(10).value(); };
    CHECK(orphans() == std::vector<std::string>{"n1-tcup"});  // never claimed
    CHECK(claim(d, "n1-tcup", "n1"));
    CHECK(orphans().empty());  // a live lease
    CHECK(d.release_room("n1-tcup", "n1").is_ok());
    CHECK(orphans() == std::vector<std::string>{"n1-tcup"});
    CHECK(claim(d, "n1-tcup", "n1", 1));
    std::this_thread::sleep_for(std::chrono::milliseconds(30));
    const auto kept = d.forget_stale(10);
    REQUIRE_MESSAGE(kept, kept.error().message());
    CHECK(*kept == 0);  // unfinished: the row stays (whoever takes the tournament over claims it)
    // Finished: its lease row is housekeeping's like any other.
    REQUIRE(t.t.start_next_round("server", 2000).ok());
    for (const auto& g : t.t.games_to_start()) {
      const std::string m = "n1-tcup-t" + std::to_string(g.table);
      s.create_match(sample_record(m), nullptr);
      s.flush();
      REQUIRE(t.t.attach_match(g.table, m).ok());
      REQUIRE(t.t.report_game(m, g.a).ok());
    }
    REQUIRE(t.t.current_stage() == tn::stage::finished);
    s.save_tournament(t, nullptr);
    s.flush();
    CHECK(orphans().empty());  // finished: nothing to run
    const auto gone = d.forget_stale(10);
    REQUIRE_MESSAGE(gone, gone.error().message());
    CHECK(*gone == 1);
    CHECK(d.room_known("n1-tcup").value());  // still a tournament
  });
}

TEST_CASE("store: a league's id is known; expired_events lists it beside the tournaments while no live lease holds "
          "it and it has not finished; forget_stale keeps its expired lease row until then") {
  for_each_store([](match_store& s) {
    room_directory& d = dir_of(s);
    CHECK_FALSE(d.room_known("n2-lfall").value());
    stored_league l{"n2-lfall", "Fall", 1000, false, "{}"};
    s.save_league(l, nullptr);
    s.flush();
    CHECK(d.room_known("n2-lfall").value());  // no lease row: known by the league
    auto orphans = [&d] { return d.expired_events(10).value(); };
    CHECK(orphans() == std::vector<std::string>{"n2-lfall"});
    CHECK(claim(d, "n2-lfall", "n2"));
    CHECK(orphans().empty());
    CHECK(claim(d, "n2-lfall", "n2", 1));
    std::this_thread::sleep_for(std::chrono::milliseconds(30));
    CHECK(orphans() == std::vector<std::string>{"n2-lfall"});  // expired: a sweeper takes it
    const auto kept = d.forget_stale(10);
    REQUIRE_MESSAGE(kept, kept.error().message());
    CHECK(*kept == 0);  // unfinished: the row stays
    l.finished = true;
    s.save_league(l, nullptr);
    s.flush();
    CHECK(orphans().empty());  // finished: nothing to run
    const auto gone = d.forget_stale(10);
    REQUIRE_MESSAGE(gone, gone.error().message());
    CHECK(*gone == 1);
  });
}

TEST_CASE("store: load_room_match gives the room's unfinished match with its whole log, else a recently finished one") {
  for_each_store([](match_store& s) {
    room_directory& d = dir_of(s);
    match_record old_one = sample_record("old", 1700000000000);
    old_one.room_id = "lobby-7";
    match_record current = sample_record("current", 1700000005000, "Carol", "Dan");
    current.room_id = "lobby-7";
    match_record elsewhere = sample_record("elsewhere", 1700000009000);
    created(s, old_one);
    created(s, current);
    created(s, elsewhere);
    acks a;
    s.append_action("old", sample_action(1), a.expect(true));
    s.finish_match("old", {{1}, "victory", 1700000004000}, a.expect(true));
    for (int seq = 1; seq <= 3; ++seq) s.append_action("current", sample_action(seq, seq % 2), a.expect(true));
    s.append_draft("current", {{1, 0, "pick", "[\"c1\"]", 1700000006000}}, a.expect(true));
    s.append_note("current", 1700000007000, "seat 1 reconnected");
    s.append_action("elsewhere", sample_action(1), a.expect(true));
    s.flush();
    REQUIRE(a.wrong() == 0);

    const auto got = d.load_room_match("lobby-7", room_directory::only_unfinished);
    REQUIRE_MESSAGE(got, got.error().message());
    REQUIRE(got->has_value());
    const stored_match& sm = **got;
    CHECK(sm.match == current);
    CHECK(!sm.finished());
    REQUIRE(sm.actions.size() == 3);
    for (int seq = 1; seq <= 3; ++seq) CHECK(sm.actions[seq - 1] == sample_action(seq, seq % 2));
    CHECK(sm.draft.size() == 1);
    REQUIRE(sm.notes.size() == 1);
    CHECK(sm.notes[0].text == "seat 1 reconnected");

    // Finished: the room has no match to resume; unknown rooms neither.
    s.finish_match("current", {{0}, "victory", 1700000008000}, a.expect(true));
    s.flush();
    const auto none = d.load_room_match("lobby-7", room_directory::only_unfinished);
    REQUIRE(none);
    CHECK(!none->has_value());
    const auto unknown = d.load_room_match("no-such-room", 0);
    REQUIRE(unknown);
    CHECK(!unknown->has_value());

    // Finished ones when asked for: the newest that ended since the time given.
    const auto recent = d.load_room_match("lobby-7", 1700000008000);
    REQUIRE(recent);
    REQUIRE(recent->has_value());
    CHECK((*recent)->match.match_id == "current");
    REQUIRE((*recent)->finished());
    CHECK((*recent)->result->winners == std::vector<int>{0});
    CHECK((*recent)->actions.size() == 3);
    const auto too_old = d.load_room_match("lobby-7", 1700000008001);
    REQUIRE(too_old);
    CHECK(!too_old->has_value());
    // An unfinished match comes first, however new the finished one.
    match_record next = sample_record("next", 1700000001000);
    next.room_id = "lobby-7";
    created(s, next);
    s.flush();
    const auto playing = d.load_room_match("lobby-7", 0);
    REQUIRE(playing);
    REQUIRE(playing->has_value());
    CHECK((*playing)->match.match_id == "next");
  });
}

TEST_CASE("store: the lobby lists every node's rooms; a publish replaces the node's; texts come back exact") {
  for_each_store([](match_store& s) {
    room_directory& d = dir_of(s);
    const std::string tricky = R"({"room":"n1-a","name":"quote \" backslash \\ brace } comma, é 🂡","seats":[1,null]})";
    REQUIRE(d.publish_rooms("n1", {{"n1-a", tricky}, {"n1-b", R"({"room":"n1-b"})"}}).is_ok());
    REQUIRE(d.publish_rooms("n2", {{"n2-c", R"({"room":"n2-c"})"}}).is_ok());
    auto all = lobby(d);
    REQUIRE(all.size() == 3);
    CHECK(all[0].room_id == "n1-a");
    CHECK(all[0].summary_json == tricky);
    CHECK(all[0].node_id == "n1");
    CHECK(all[0].updated_ms > 1'600'000'000'000);  // the store's clock, ms since the epoch
    CHECK(all[1].room_id == "n1-b");
    CHECK(all[2].room_id == "n2-c");
    CHECK(all[2].node_id == "n2");

    REQUIRE(d.publish_rooms("n1", {{"n1-b", R"({"room":"n1-b","players":2})"}}).is_ok());
    all = lobby(d);
    REQUIRE(all.size() == 2);
    CHECK(all[0].room_id == "n1-b");
    CHECK(all[0].summary_json == R"({"room":"n1-b","players":2})");
    CHECK(all[1].room_id == "n2-c");
    REQUIRE(d.publish_rooms("n2", {}).is_ok());
    CHECK(lobby(d).size() == 1);

    CHECK(d.publish_rooms("n1", {{"x", "{}"}, {"x", "{}"}}).error_code() == status::code::invalid);
    CHECK(d.publish_rooms("", {{"x", "{}"}}).error_code() == status::code::invalid);
    CHECK(lobby(d).size() == 1);  // a refused publish changed nothing
  });
}

TEST_CASE("store: a node that stops publishing drops out of the lobby; a room two nodes list comes once") {
  for_each_store([](match_store& s) {
    room_directory& d = dir_of(s);
    REQUIRE(d.publish_rooms("dead", {{"dead-1", "{}"}, {"shared", R"({"by":"dead"})"}}).is_ok());
    // Taken over: n2 lists "shared" too. The newer publish wins (n2
    // publishes again until its time is past the dead node's).
    const std::int64_t dead_at = lobby(d).at(0).updated_ms;
    CHECK(eventually([&] {
      REQUIRE(d.publish_rooms("n2", {{"shared", R"({"by":"n2"})"}}).is_ok());
      const auto all = lobby(d);
      return all.size() == 2 && all[1].updated_ms > dead_at;
    }));
    auto all = lobby(d);
    REQUIRE(all.size() == 2);
    CHECK(all[0].room_id == "dead-1");
    CHECK(all[1].room_id == "shared");
    CHECK(all[1].node_id == "n2");
    CHECK(all[1].summary_json == R"({"by":"n2"})");

    // "dead" never publishes again: after a second it is stale, while n2,
    // publishing just before each look, stays.
    CHECK(eventually([&] {
      REQUIRE(d.publish_rooms("n2", {{"shared", R"({"by":"n2"})"}, {"n2-x", "{}"}}).is_ok());
      const auto fresh = lobby(d, 1000);
      return fresh.size() == 2 && fresh[0].room_id == "n2-x" && fresh[1].room_id == "shared" &&
             fresh[1].node_id == "n2";
    }));
    CHECK(lobby(d).size() == 3);  // a longer patience still lists it
  });
}
