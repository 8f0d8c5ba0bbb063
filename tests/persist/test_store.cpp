#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <thread>

#include "helpers.hpp"
#include "persist/memory/memory_store.hpp"
#include "persist/sqlite/sqlite_store.hpp"
#include "../shared/store_reads.hpp"

using namespace cod::server;
using namespace cod::server::test;

namespace {

std::string mid(int t) {
  std::string s = "m";
  s += std::to_string(t);
  return s;
}

}  // namespace

TEST_CASE("store: a match, its log, notes and result round-trip") {
  for_each_store([](match_store& s) {
    acks a;
    const match_record rec = sample_record("m1");
    s.create_match(rec, a.expect(true));
    std::vector<action_record> log;
    for (int i = 1; i <= 5; ++i) {
      log.push_back(sample_action(i, i % 2));
      std::string json = R"({"type":"play","card":)";
      json += std::to_string(i);
      json += R"(,"line":"upper"})";
      log.back().action_json = json;
      s.append_action("m1", log.back(), a.expect(true));
    }
    s.append_note("m1", 1700000000100, "seat 1 clock: 1000 ms left");
    s.append_note("m1", 1700000000200, "note with 'quotes' and \"double\" and ünïcode");
    s.flush();
    CHECK(a.calls() == 6);
    CHECK(a.wrong() == 0);
    CHECK(s.pending() == 0);

    auto sm = read_ok(s.reader().load_match("m1"));
    REQUIRE(sm);
    CHECK(sm->match == rec);
    CHECK(sm->actions == log);
    REQUIRE(sm->notes.size() == 2);
    CHECK(sm->notes[0] == note_record{1700000000100, "seat 1 clock: 1000 ms left"});
    CHECK(sm->notes[1].text == "note with 'quotes' and \"double\" and ünïcode");
    CHECK(!sm->finished());
    CHECK(!read_ok(s.reader().load_match("nope")));

    auto unfinished = read_ok(s.reader().load_unfinished());
    REQUIRE(unfinished.size() == 1);
    CHECK(unfinished[0].match == rec);
    CHECK(unfinished[0].actions == log);

    const match_result result{{1}, "fort_destroyed", 1700000009999};
    s.finish_match("m1", result, a.expect(true));
    s.flush();
    CHECK(a.wrong() == 0);
    CHECK(read_ok(s.reader().load_unfinished()).empty());
    sm = read_ok(s.reader().load_match("m1"));
    REQUIRE(sm);
    REQUIRE(sm->result);
    CHECK(*sm->result == result);
    CHECK(sm->actions == log);
  });
}

TEST_CASE("store: writes that do not fit the match are refused, alone") {
  for_each_store([](match_store& s) {
    acks good, bad;
    s.create_match(sample_record("m1"), good.expect(true));
    s.create_match(sample_record("m1"), bad.expect(false));  // exists
    match_record dup_seats = sample_record("m2");
    dup_seats.seats[1].seat = 0;
    s.create_match(dup_seats, bad.expect(false));  // two seats 0: nothing of it stored
    match_record bad_seat = sample_record("m3");
    bad_seat.seats[1].seat = 7;
    s.create_match(bad_seat, bad.expect(false));
    s.append_action("nope", sample_action(1), bad.expect(false));  // unknown match
    s.append_action("m1", sample_action(2), bad.expect(false));    // seq gap
    s.append_action("m1", sample_action(1), good.expect(true));
    s.append_action("m1", sample_action(1), bad.expect(false));    // seq again
    s.append_action("m1", sample_action(2, 9), bad.expect(false)); // no seat 9
    s.append_action("m1", sample_action(2), good.expect(true));
    s.finish_match("nope", {{0}, "concession", 1}, bad.expect(false));
    s.finish_match("m1", {{0}, "concession", 1}, good.expect(true));
    s.finish_match("m1", {{1}, "concession", 2}, bad.expect(false));  // twice
    s.append_action("m1", sample_action(3), bad.expect(false));        // after the end
    s.append_note("nope", 1, "lost");                                   // logged, dropped
    s.append_note("m1", 1, "kept after the end");
    s.flush();
    CHECK(good.calls() == 4);
    CHECK(good.wrong() == 0);
    CHECK(bad.calls() == 10);
    CHECK(bad.wrong() == 0);
    CHECK(!read_ok(s.reader().load_match("m2")));
    CHECK(!read_ok(s.reader().load_match("m3")));
    auto sm = read_ok(s.reader().load_match("m1"));
    REQUIRE(sm);
    CHECK(sm->actions.size() == 2);
    CHECK(sm->result->winners == std::vector<int>{0});
    REQUIRE(sm->notes.size() == 1);
    CHECK(sm->notes[0].text == "kept after the end");
  });
}

TEST_CASE("store: list_matches filters by status, player and time; newest first; pages") {
  for_each_store([](match_store& s) {
    acks a;
    s.create_match(sample_record("a", 1000, "Alice", "Bob"), a.expect(true));
    s.create_match(sample_record("b", 2000, "carol", "ALICE"), a.expect(true));
    s.create_match(sample_record("c", 3000, "Dave", "Erin"), a.expect(true));
    s.append_action("b", sample_action(1), a.expect(true));
    s.append_action("b", sample_action(2), a.expect(true));
    s.finish_match("c", {{0, 1}, "concession", 3500}, a.expect(true));
    s.flush();
    REQUIRE(a.wrong() == 0);

    auto ids = [](const std::vector<match_summary>& v) {
      std::string out;
      for (const auto& m : v) out += m.match_id;
      return out;
    };
    auto all = read_ok(s.reader().list_matches({}));
    CHECK(ids(all) == "cba");
    REQUIRE(all.size() == 3);
    CHECK(all[0].status == "finished");
    REQUIRE(all[0].result);
    CHECK(all[0].result->winners == std::vector<int>{0, 1});
    CHECK(all[1].actions == 2);
    CHECK(all[1].names == std::vector<std::string>{"carol", "ALICE"});
    CHECK(all[1].room_id == "room-b");
    CHECK(!all[1].result);
    CHECK(ids(read_ok(s.reader().list_matches({.status = "playing"}))) == "ba");
    CHECK(ids(read_ok(s.reader().list_matches({.status = "finished"}))) == "c");
    CHECK(ids(read_ok(s.reader().list_matches({.player = "alice"}))) == "ba");
    CHECK(ids(read_ok(s.reader().list_matches({.player = "nobody"}))) == "");
    CHECK(ids(read_ok(s.reader().list_matches({.created_from_ms = 2000}))) == "cb");
    CHECK(ids(read_ok(s.reader().list_matches({.created_from_ms = 1000, .created_to_ms = 3000}))) == "ba");
    CHECK(ids(read_ok(s.reader().list_matches({.limit = 2}))) == "cb");
    CHECK(ids(read_ok(s.reader().list_matches({.limit = 2, .offset = 2}))) == "a");
  });
}

TEST_CASE("store: count_matches counts what list_matches finds, its page aside") {
  for_each_store([](match_store& s) {
    acks a;
    match_record other = sample_record("x", 2000, "carol", "ALICE");
    other.mode = "ffa";
    s.create_match(sample_record("a", 1000, "Alice", "Bob"), a.expect(true));
    s.create_match(other, a.expect(true));
    s.create_match(sample_record("c", 3000, "Dave", "Erin"), a.expect(true));
    s.finish_match("c", {{1}, "concession", 3500}, a.expect(true));
    s.flush();
    REQUIRE(a.wrong() == 0);
    match_reader& r = s.reader();
    const auto count = [&](const match_query& q) { return read_ok(r.count_matches(q)); };
    CHECK(count({}) == 3);
    CHECK(count({.limit = 1, .offset = 2}) == 3);  // the page does not count
    CHECK(count({.status = "playing"}) == 2);
    CHECK(count({.player = "alice"}) == 2);
    CHECK(count({.player = "nobody"}) == 0);
    CHECK(count({.mode = "ffa"}) == 1);
    CHECK(count({.winner = 1}) == 1);
    CHECK(count({.created_from_ms = 1000, .created_to_ms = 3000}) == 2);
    match_query before;
    before.has_before = true;
    before.before_created_ms = 3000;
    before.before_match_id = "c";
    CHECK(count(before) == 2);
    // Every filter alike in both reads.
    for (const match_query& q : {match_query{}, match_query{.status = "finished"}, match_query{.player = "ALICE"}})
      CHECK(count(q) == static_cast<std::int64_t>(read_ok(r.list_matches(q)).size()));
  });
}

TEST_CASE("store: list_matches filters by mode and winner; a before-cursor pages without overlap") {
  for_each_store([](match_store& s) {
    acks a;
    match_record other = sample_record("x", 2000);
    other.mode = "ffa";  // only the filter cares; the store keeps any mode
    s.create_match(sample_record("a", 1000), a.expect(true));
    s.create_match(other, a.expect(true));
    s.create_match(sample_record("b2", 3000), a.expect(true));  // same created_ms: ties by match_id
    s.create_match(sample_record("b1", 3000), a.expect(true));
    s.finish_match("a", {{1}, "fort_destroyed", 1500}, a.expect(true));
    s.finish_match("b1", {{0}, "concession", 3500}, a.expect(true));
    s.finish_match("x", {{0, 2}, "fort_destroyed", 2500}, a.expect(true));
    s.flush();
    REQUIRE(a.wrong() == 0);
    auto ids = [&](const match_query& q) {
      std::string out;
      for (const auto& m : read_ok(s.reader().list_matches(q))) out += m.match_id + " ";
      return out;
    };
    match_query q;
    CHECK(ids(q) == "b2 b1 x a ");
    q.mode = "duel";
    CHECK(ids(q) == "b2 b1 a ");
    q.mode = "ffa";
    CHECK(ids(q) == "x ");
    q = match_query{};
    q.winner = 0;
    CHECK(ids(q) == "b1 x ");
    q.winner = 1;
    CHECK(ids(q) == "a ");
    q.winner = 2;
    CHECK(ids(q) == "x ");
    q.winner = 3;
    CHECK(ids(q) == "");
    // The cursor of "b2" continues with b1 (same created_ms, smaller id), then x.
    q = match_query{};
    q.limit = 1;
    q.has_before = true;
    q.before_created_ms = 3000;
    q.before_match_id = "b2";
    CHECK(ids(q) == "b1 ");
    q.before_match_id = "b1";
    CHECK(ids(q) == "x ");
    q.before_created_ms = 1000;
    q.before_match_id = "a";
    CHECK(ids(q) == "");
  });
}

TEST_CASE("store: many concurrent appends are all committed, in order, each callback once") {
  for_each_store([](match_store& s) {
    constexpr int threads = 8;
    constexpr int per_thread = 300;
    acks created;
    for (int t = 0; t < threads; ++t) s.create_match(sample_record(mid(t)), created.expect(true));
    s.flush();
    REQUIRE(created.wrong() == 0);

    std::mutex mu;
    std::map<int, std::vector<std::int64_t>> order;  // match -> seqs in callback order
    std::atomic<int> failed{0};
    std::vector<std::thread> producers;
    for (int t = 0; t < threads; ++t) {
      producers.emplace_back([&, t] {
        const std::string id = mid(t);
        for (int i = 1; i <= per_thread; ++i) {
          s.append_action(id, sample_action(i, t % 2), [&, t, i](const status& st) {
            if (!st) ++failed;
            std::lock_guard lk(mu);
            order[t].push_back(i);
          });
        }
      });
    }
    for (auto& p : producers) p.join();
    s.flush();
    CHECK(s.pending() == 0);
    CHECK(failed == 0);
    for (int t = 0; t < threads; ++t) {
      std::vector<std::int64_t> want(per_thread);
      for (int i = 0; i < per_thread; ++i) want[static_cast<std::size_t>(i)] = i + 1;
      CHECK(order[t] == want);  // once each, in order
      auto sm = read_ok(s.reader().load_match(mid(t)));
      REQUIRE(sm);
      REQUIRE(sm->actions.size() == per_thread);
      for (int i = 0; i < per_thread; ++i) CHECK(sm->actions[static_cast<std::size_t>(i)] == sample_action(i + 1, t % 2));
    }
    if (auto* sq = dynamic_cast<sqlite_store*>(&s)) {
      const auto writes = static_cast<std::uint64_t>(threads * per_thread + threads);
      MESSAGE("sqlite_store: " << writes << " writes in " << sq->commits() << " transactions");
      CHECK(sq->commits() < writes);  // group commit
    }
  });
}

TEST_CASE("store: pending() counts queued writes; flush() waits for them and their callbacks") {
  SUBCASE("memory_store") {
    memory_store s;
    std::mutex gate;
    std::unique_lock hold(gate);
    acks a;
    s.create_match(sample_record("m"), [&](const status&) { std::lock_guard lk(gate); });  // blocks the writer
    for (int i = 1; i <= 50; ++i) s.append_action("m", sample_action(i), a.expect(true));
    CHECK(s.pending() >= 50);
    hold.unlock();
    s.flush();
    CHECK(a.calls() == 50);
    CHECK(a.wrong() == 0);
    CHECK(s.pending() == 0);
  }
  SUBCASE("sqlite_store") {
    temp_dir dir;
    auto opened = sqlite_store::open({.path = dir.file("p.db")});
    REQUIRE_MESSAGE(opened, opened.error().message());
    auto s = std::move(*opened);
    std::mutex gate;
    std::unique_lock hold(gate);
    acks a;
    s->create_match(sample_record("m"), [&](const status&) { std::lock_guard lk(gate); });
    for (int i = 1; i <= 1000; ++i) s->append_action("m", sample_action(i), a.expect(true));
    CHECK(s->pending() >= 1000);
    hold.unlock();
    s->flush();
    CHECK(a.calls() == 1000);  // every callback has run when flush returns
    CHECK(a.wrong() == 0);
    CHECK(s->pending() == 0);
    CHECK(read_ok(s->reader().load_match("m"))->actions.size() == 1000);
  }
}

TEST_CASE("store: a throwing callback does not stop the writer") {
  for_each_store([](match_store& s) {
    acks a;
    s.create_match(sample_record("m"), [](const status&) { throw std::runtime_error("room gone"); });
    s.append_action("m", sample_action(1), a.expect(true));
    s.flush();
    CHECK(a.calls() == 1);
    CHECK(a.wrong() == 0);
  });
}

TEST_CASE("memory_store: fail_writes refuses every write") {
  memory_store s(memory_store::callbacks::run_inline);
  acks a;
  s.create_match(sample_record("m"), a.expect(true));
  s.fail_writes(true);
  s.append_action("m", sample_action(1), a.expect(false));
  s.fail_writes(false);
  s.append_action("m", sample_action(1), a.expect(true));
  CHECK(a.calls() == 3);
  CHECK(a.wrong() == 0);
}

TEST_CASE("sqlite_store: closing commits what is queued; reopening loads every unfinished match") {
  temp_dir dir;
  const std::string path = dir.file("reopen.db");
  std::atomic<int> acked{0};
  {
    auto opened = sqlite_store::open({.path = path, .synchronous = sqlite_options::sync::full, .max_batch = 64});
    REQUIRE_MESSAGE(opened, opened.error().message());
    auto s = std::move(*opened);
    s->create_match(sample_record("old", 1000), nullptr);
    s->create_match(sample_record("done", 1500), nullptr);
    s->create_match(sample_record("new", 2000), nullptr);
    for (int i = 1; i <= 300; ++i) {
      s->append_action("new", sample_action(i), [&](const status& st) { acked += st.is_ok(); });
      if (i <= 10) s->append_action("old", sample_action(i), [&](const status& st) { acked += st.is_ok(); });
    }
    s->append_note("old", 5, "a note");
    s->finish_match("done", {{1}, "stronghold_alone", 1600}, nullptr);
    // No flush: the destructor drains the queue.
  }
  CHECK(acked == 310);
  auto opened = sqlite_store::open({.path = path});
  REQUIRE_MESSAGE(opened, opened.error().message());
  auto s = std::move(*opened);
  auto un = read_ok(s->reader().load_unfinished());
  REQUIRE(un.size() == 2);
  CHECK(un[0].match == sample_record("old", 1000));  // oldest first
  CHECK(un[0].actions.size() == 10);
  REQUIRE(un[0].notes.size() == 1);
  CHECK(un[1].match.match_id == "new");
  REQUIRE(un[1].actions.size() == 300);
  for (int i = 0; i < 300; ++i) CHECK(un[1].actions[static_cast<std::size_t>(i)] == sample_action(i + 1));
  CHECK(read_ok(s->reader().load_match("done"))->result->reason == "stronghold_alone");
  // And it goes on appending where it stopped (the writer learns each
  // match's last seq and status from the file), refusing what does not fit.
  acks a;
  s->append_action("new", sample_action(301), a.expect(true));
  s->append_action("new", sample_action(303), a.expect(false));
  s->append_action("old", sample_action(10), a.expect(false));
  s->append_action("old", sample_action(11), a.expect(true));
  s->append_action("done", sample_action(1), a.expect(false));
  s->flush();
  CHECK(a.wrong() == 0);
}

TEST_CASE("sqlite_store: a reader sees committed data while the store runs") {
  temp_dir dir;
  const std::string path = dir.file("live.db");
  auto opened = sqlite_store::open({.path = path});
  REQUIRE_MESSAGE(opened, opened.error().message());
  auto s = std::move(*opened);
  acks a;
  s->create_match(sample_record("m"), a.expect(true));
  s->append_action("m", sample_action(1), a.expect(true));
  s->flush();
  auto reader_opened = sqlite_reader::open(path);
  REQUIRE_MESSAGE(reader_opened, reader_opened.error().message());
  auto r = std::move(*reader_opened);
  CHECK(r->schema_version() >= 1);
  CHECK(read_ok(r->load_match("m"))->actions.size() == 1);
  s->append_action("m", sample_action(2), a.expect(true));
  s->flush();
  CHECK(read_ok(r->load_match("m"))->actions.size() == 2);
  CHECK(read_ok(r->list_matches({})).size() == 1);
  CHECK(a.wrong() == 0);
}

TEST_CASE("sqlite_store: WAL checkpoints run off the writer thread once the WAL reaches the threshold") {
  // 40 commits (one per flush), with a threshold they cross and one they never reach.
  for (const int threshold : {4, 1000000}) {
    CAPTURE(threshold);
    temp_dir dir;
    const std::string path = dir.file("ckpt.db");
    sqlite_options o;
    o.path = path;
    o.checkpoint_pages = threshold;
    auto opened = sqlite_store::open(o);
    REQUIRE_MESSAGE(opened, opened.error().message());
    auto s = std::move(*opened);
    acks a;
    s->create_match(sample_record("m"), a.expect(true));
    for (int seq = 1; seq <= 40; ++seq) {
      s->append_action("m", sample_action(seq), a.expect(true));
      s->flush();
    }
    if (threshold == 4) {
      for (int i = 0; i < 200 && s->checkpointed_pages() == 0; ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
      CHECK(s->checkpoints() > 0);
      // They copy the WAL into the database while the store is open (they
      // once ran without doing anything, and the WAL grew without bound).
      CHECK(s->checkpointed_pages() > 0);
      CHECK(std::filesystem::file_size(path) > 4096);
    } else {
      CHECK(s->checkpoints() == 0);
    }
    auto reader_opened = sqlite_reader::open(path);
    REQUIRE_MESSAGE(reader_opened, reader_opened.error().message());
    auto r = std::move(*reader_opened);
    CHECK(read_ok(r->load_match("m"))->actions.size() == 40);
    CHECK(a.wrong() == 0);
  }
}

TEST_CASE("sqlite_store: a failed commit refuses its whole batch; the log never gets a hole") {
  temp_dir dir;
  const std::string path = dir.file("busy.db");
  auto opened = sqlite_store::open({.path = path, .busy_timeout_ms = 50, .busy_max_ms = 50});
  REQUIRE_MESSAGE(opened, opened.error().message());
  auto s = std::move(*opened);
  acks good, bad;
  s->create_match(sample_record("m"), good.expect(true));
  s->append_action("m", sample_action(1), good.expect(true));
  s->flush();
  {
    raw_db other(path);
    other.exec("BEGIN IMMEDIATE");  // another process holds the write lock past busy_max_ms: commits fail (SQLITE_BUSY)
    s->append_action("m", sample_action(2), bad.expect(false));
    s->append_action("m", sample_action(3), bad.expect(false));
    s->flush();
    other.exec("COMMIT");
  }
  s->append_action("m", sample_action(4), bad.expect(false));  // 2 and 3 were lost: 4 would leave a hole
  s->append_action("m", sample_action(2), good.expect(true));   // the room may retry from the last durable seq
  s->flush();
  CHECK(good.calls() == 3);
  CHECK(good.wrong() == 0);
  CHECK(bad.calls() == 3);
  CHECK(bad.wrong() == 0);
  auto sm = read_ok(s->reader().load_match("m"));
  REQUIRE(sm);
  CHECK(sm->actions == std::vector<action_record>{sample_action(1), sample_action(2)});
}

TEST_CASE("sqlite_store: another process's write lock held past busy_timeout_ms is waited out, up to busy_max_ms") {
  // The shapes of store_busy_max_sec = 60 with SQLite's busy_timeout of 5 s,
  // scaled down: each try waits 100 ms, the writer keeps trying for 1.5 s.
  temp_dir dir;
  const std::string path = dir.file("locked.db");
  auto opened = sqlite_store::open({.path = path, .busy_timeout_ms = 100, .busy_max_ms = 1500});
  REQUIRE_MESSAGE(opened, opened.error().message());
  auto s = std::move(*opened);
  acks good, bad;
  s->create_match(sample_record("m"), good.expect(true));
  s->append_action("m", sample_action(1), good.expect(true));
  s->flush();
  REQUIRE(good.calls() == 2);
  {
    // A backup, or an admin's sqlite3 shell after BEGIN IMMEDIATE, for 6
    // tries' worth of busy_timeout_ms: the writes wait, nothing fails.
    raw_db other(path);
    other.exec("BEGIN IMMEDIATE");
    for (std::int64_t seq = 2; seq <= 6; ++seq) s->append_action("m", sample_action(seq), good.expect(true));
    std::this_thread::sleep_for(std::chrono::milliseconds(600));
    CHECK(good.calls() == 2);  // none answered yet, none failed
    CHECK(s->pending() == 5);
    CHECK(s->health().ok);
    other.exec("COMMIT");
  }
  s->flush();
  CHECK(good.calls() == 7);
  CHECK(good.wrong() == 0);
  CHECK(s->health().ok);
  CHECK(s->health().write_errors == 0);
  std::vector<action_record> want;
  for (std::int64_t seq = 1; seq <= 6; ++seq) want.push_back(sample_action(seq));
  CHECK(read_ok(s->reader().load_match("m"))->actions == want);

  {
    // Held past busy_max_ms: the write fails as before (the room abandons
    // its match), after about busy_max_ms, and the store goes on after.
    raw_db other(path);
    other.exec("BEGIN IMMEDIATE");
    const auto t0 = std::chrono::steady_clock::now();
    s->append_action("m", sample_action(7), bad.expect(false));
    s->flush();
    const auto waited =
        std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0).count();
    CHECK(waited >= 1400);
    CHECK(waited < 10000);
    CHECK(bad.calls() == 1);
    const store_health h = s->health();
    CHECK_FALSE(h.ok);
    CHECK(h.write_errors == 1);
    CHECK(h.last_error.find("locked") != std::string::npos);
    other.exec("COMMIT");
  }
  s->append_action("m", sample_action(7), good.expect(true));
  s->flush();
  CHECK(bad.wrong() == 0);
  CHECK(good.wrong() == 0);
  CHECK(s->health().ok);
  want.push_back(sample_action(7));
  CHECK(read_ok(s->reader().load_match("m"))->actions == want);
}

TEST_CASE("store: an empty options_json round-trips as given") {
  for_each_store([](match_store& s) {
    match_record m = sample_record("m");
    m.options_json = "";
    s.create_match(m, nullptr);
    s.flush();
    CHECK(read_ok(s.reader().load_match("m"))->match == m);
  });
}

TEST_CASE("store: a match's own cards (0009, R15) round-trip; listing still counts its actions") {
  for_each_store([](match_store& s) {
    match_record m = sample_record("m");
    m.cards_json = R"([{"id":"brute","name":"BRUTE","pack":"initiation","type":"creature","mana":4,"av":9,"hp":5,)"
                   R"("abilities":[{"ability":"aerial","aura":false}],"deck":0}])";
    s.create_match(m, nullptr);
    s.append_action("m", sample_action(1, 0), nullptr);
    s.append_action("m", sample_action(2, 1), nullptr);
    s.flush();
    CHECK(read_ok(s.reader().load_match("m"))->match == m);
    CHECK(read_ok(s.reader().load_unfinished()).at(0).match.cards_json == m.cards_json);
    const auto listed = read_ok(s.reader().list_matches({}));
    REQUIRE(listed.size() == 1);
    CHECK(listed[0].actions == 2);
  });
}

TEST_CASE("store: leagues (0010) are saved whole and loaded back, oldest first (or one by id); created_ms kept from "
          "the first save") {
  for_each_store([](match_store& s) {
    acks a;
    stored_league one{"l1", "Autumn league", 1700000000000, false, R"({"ops":[{"type":"pass","seat":0}]})"};
    stored_league two{"l0", "Winter", 1700000005000, false, "{}"};
    s.save_league(two, a.expect(true));
    s.save_league(one, a.expect(true));
    stored_league later = one;
    later.created_ms = 1800000000000;  // ignored: the first save's stays
    later.finished = true;
    later.record_json = R"({"ops":[{"type":"pass","seat":0},{"type":"pass","seat":1}]})";
    s.save_league(later, a.expect(true));
    s.flush();
    CHECK(a.wrong() == 0);
    const auto leagues = read_leagues(s);
    REQUIRE(leagues.size() == 2);
    CHECK(leagues[0].id == "l1");
    CHECK(leagues[0].created_ms == 1700000000000);
    CHECK(leagues[0].finished);
    CHECK(leagues[0].record_json == later.record_json);
    CHECK(leagues[1] == two);
    // One by id, as the list has it; none for an id never saved.
    CHECK(read_ok(s.reader().load_league("l1")) == std::optional<stored_league>{leagues[0]});
    CHECK(read_ok(s.reader().load_league("l0")) == std::optional<stored_league>{two});
    CHECK(!read_ok(s.reader().load_league("l2")).has_value());
  });
}

TEST_CASE("store: load_finished_since gives the matches finished since a time, whole, oldest created first") {
  for_each_store([](match_store& s) {
    acks a;
    s.create_match(sample_record("late", 3000), a.expect(true));
    s.create_match(sample_record("early", 1000), a.expect(true));
    s.create_match(sample_record("long_ago", 500), a.expect(true));
    s.create_match(sample_record("playing", 2000), a.expect(true));
    s.append_action("late", sample_action(1), a.expect(true));
    s.append_note("late", 3100, "a note");
    s.finish_match("late", {{1}, "stronghold_alone", 5000}, a.expect(true));
    s.finish_match("early", {{0}, "concession", 5001}, a.expect(true));
    s.finish_match("long_ago", {{0}, "concession", 4999}, a.expect(true));
    s.flush();
    CHECK(a.wrong() == 0);
    const auto found = read_ok(s.reader().load_finished_since(5000));
    REQUIRE(found.size() == 2);
    CHECK(found[0].match.match_id == "early");
    CHECK(found[1].match == sample_record("late", 3000));
    CHECK(found[1].actions == std::vector<action_record>{sample_action(1)});
    CHECK(found[1].notes.size() == 1);
    REQUIRE(found[1].result);
    CHECK(*found[1].result == match_result{{1}, "stronghold_alone", 5000});
    CHECK(read_ok(s.reader().load_finished_since(5002)).empty());
    CHECK(read_ok(s.reader().load_finished_since(0)).size() == 3);
  });
}

TEST_CASE("store: texts of any characters round-trip exactly (quotes, backslashes, braces, new lines, UTF-8)") {
  for_each_store([](match_store& s) {
    const std::string nasty = "{\"say\":\"a \\\"quoted\\\" \\\\ back\\\\slash, {braces}, NULL\",\n\t\"é✓\":[1,2]}";
    match_record m = sample_record("m\"1,{x}");
    m.seats[0].name = "O'Brien \"the\\ace\"";
    s.create_match(m, nullptr);
    action_record a = sample_action(1);
    a.action_json = nasty;
    action_record b = sample_action(2);
    b.action_json = "";
    acks ok;
    s.append_action(m.match_id, a, ok.expect(true));
    s.append_action(m.match_id, b, ok.expect(true));
    s.flush();
    CHECK(ok.calls() == 2);
    CHECK(ok.wrong() == 0);
    const auto sm = read_ok(s.reader().load_match(m.match_id));
    REQUIRE(sm);
    CHECK(sm->match == m);
    REQUIRE(sm->actions.size() == 2);
    CHECK(sm->actions[0] == a);
    CHECK(sm->actions[1] == b);
  });
}
