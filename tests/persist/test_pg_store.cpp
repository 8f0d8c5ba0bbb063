// What only the PostgreSQL store has: its connection (lost, unreachable),
// its migration runner on a server. The store's contract itself is checked
// by the cases every store runs (for_each_store, helpers.hpp). The cases
// named "pg_store: ..." need a server (persist_tests_pg).
#include <doctest/doctest.h>

#include <chrono>
#include <optional>
#include <string>
#include <thread>

#include "helpers.hpp"
#include "persist/migrations.hpp"
#include "persist/pg/pg_reader.hpp"
#include "persist/pg/pg_store.hpp"
#include "../shared/store_reads.hpp"
#include "persist/tournament_record.hpp"
#include "tournament_steps.hpp"
#include "v10_tournament_rows.hpp"

namespace cod::server::test {
namespace {

struct outcome {
  std::optional<status> got;
  match_store::done_fn fn() {
    return [this](status s) { got = std::move(s); };
  }
};

std::unique_ptr<pg_store> open_store(const std::string& uri) {
  auto opened = pg_store::open({.uri = uri});
  REQUIRE_MESSAGE(opened, opened.error().message());
  return std::move(*opened);
}

}  // namespace

TEST_CASE("pg_store, no server: an unreachable server is an io_error naming it, never its password") {
  const auto opened = pg_store::open({.uri = "postgresql://cod:s3cret-pw@/cod?host=/nonexistent-cod-dir&port=1"});
  REQUIRE(!opened);
  CHECK(opened.error().error_code() == status::code::io_error);
  const std::string msg = opened.error().message();
  CHECK(msg.find("cannot connect to PostgreSQL") != std::string::npos);
  CHECK(msg.find("/nonexistent-cod-dir") != std::string::npos);
  CHECK(msg.find("s3cret-pw") == std::string::npos);
  const auto reader = pg_reader::open("postgres://cod:s3cret-pw@/cod?host=/nonexistent-cod-dir&port=1");
  REQUIRE(!reader);
  CHECK(reader.error().message().find("s3cret-pw") == std::string::npos);
}

TEST_CASE("pg_store: a connection lost mid-batch fails that batch with io_error; the next batch reconnects") {
  pg_test_db db(test_pg_uri());
  auto s = open_store(db.uri());
  outcome created;
  s->create_match(sample_record("m"), created.fn());
  s->flush();
  REQUIRE(created.got->is_ok());

  // The writer's server process goes away (as when PostgreSQL restarts).
  pg_raw admin(db.server());
  CHECK(admin.one("SELECT count(*) FROM pg_stat_activity WHERE datname = '" + db.name() +
                  "' AND application_name = 'cod-store-writer'") == "1");
  CHECK(admin.one("SELECT bool_and(pg_terminate_backend(pid, 5000)) FROM pg_stat_activity WHERE datname = '" +
                  db.name() + "' AND application_name = 'cod-store-writer'") == "t");

  outcome lost, again, next;
  s->append_action("m", sample_action(1), lost.fn());
  s->flush();
  REQUIRE(lost.got);
  CHECK(lost.got->error_code() == status::code::io_error);
  CHECK(!s->health().ok);
  CHECK(s->health().write_errors == 1);

  // Nothing of the failed batch was stored: the same seq goes in now.
  s->append_action("m", sample_action(1), again.fn());
  s->append_action("m", sample_action(2), next.fn());
  s->flush();
  CHECK(again.got->is_ok());
  CHECK(next.got->is_ok());
  CHECK(s->health().ok);
  const auto sm = read_ok(s->reader().load_match("m"));
  REQUIRE(sm);
  CHECK(sm->actions.size() == 2);
}

TEST_CASE("pg_store: the reader survives a lost connection too (that read fails, the next one reconnects)") {
  pg_test_db db(test_pg_uri());
  auto s = open_store(db.uri());
  outcome created;
  s->create_match(sample_record("m"), created.fn());
  s->flush();
  REQUIRE(read_ok(s->reader().load_match("m")));
  pg_raw(db.server())
      .exec("SELECT pg_terminate_backend(pid, 5000) FROM pg_stat_activity WHERE datname = '" + db.name() +
            "' AND application_name = 'cod-store-reader'");
  const auto lost = s->reader().load_match("m");
  REQUIRE(!lost);
  CHECK(lost.error().error_code() == status::code::io_error);
  CHECK(read_ok(s->reader().load_match("m")));
}

TEST_CASE("pg_store: migrations on an empty database, a no-op reopen, the same tables as SQLite") {
  pg_test_db db(test_pg_uri());
  const auto known = static_cast<int>(embedded_postgres_migrations().size());
  {
    auto s = open_store(db.uri());
    CHECK(s->schema_version_at_open() == 0);
  }
  pg_raw raw(db.uri());
  CHECK(raw.one("SELECT count(*), max(version) FROM schema_migrations") == std::to_string(known) + "|" +
                                                                              std::to_string(known));
  const std::string applied = raw.one("SELECT string_agg(applied_at::text, ',' ORDER BY version) FROM schema_migrations");
  CHECK(raw.rows("SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename") ==
        std::vector<std::string>{"account_sessions", "accounts", "admin_audit", "draft_events", "leagues",
                                 "lobby_nodes", "lobby_rooms", "match_actions", "match_notes", "match_seats", "matches",
                                 "queue_matcher", "queue_nodes", "queue_recent", "queue_tickets", "rating_changes",
                                 "ratings", "room_leases", "schema_migrations", "tournament_matches",
                                 "tournaments"});  // 0011: one document a tournament; 0012: accounts;
                                                   // 0014: ratings; 0015: the cluster's queue
  CHECK(raw.rows("SELECT column_name FROM information_schema.columns WHERE table_name = 'room_leases' "
                 "ORDER BY ordinal_position") ==
        std::vector<std::string>{"room_id", "node_id", "expires_ms", "wanted_by"});  // 0007, 0008
  {
    auto s = open_store(db.uri());
    CHECK(s->schema_version_at_open() == known);
  }
  CHECK(raw.one("SELECT string_agg(applied_at::text, ',' ORDER BY version) FROM schema_migrations") == applied);
  const auto reader = pg_reader::open(db.uri());
  REQUIRE_MESSAGE(reader, reader.error().message());
  CHECK((*reader)->schema_version() == known);
}

TEST_CASE("pg_store: a database of schema 10 with tournaments upgrades (0011); each loads as it was stored") {
  pg_test_db db(test_pg_uri());
  const auto kept = schema10_tournaments();
  {
    pg_raw raw(db.uri());
    write_schema10([&](const std::string& sql) { raw.exec(sql); }, embedded_postgres_migrations(), kept);
  }
  auto s = open_store(db.uri());
  check_schema10_upgraded(*s, kept);
  pg_raw raw(db.uri());
  CHECK(raw.one("SELECT string_agg(finished::text, ',' ORDER BY created_ms) FROM tournaments") == "0,1,0");
  // The stored tournament saves again over the converted row.
  stored_tournament again = read_tournaments(*s)[0];
  again.extras.spectator_delay = 7;
  outcome o;
  s->save_tournament(again, o.fn());
  s->flush();
  REQUIRE(o.got);
  CHECK(o.got->ok());
  CHECK(read_tournaments(*s)[0] == again);
}

TEST_CASE("pg_store: two servers opening one new database at once migrate it once (advisory lock)") {
  pg_test_db db(test_pg_uri());
  result<std::unique_ptr<pg_store>> a = status::invalid("not run"), b = status::invalid("not run");
  std::thread ta([&] { a = pg_store::open({.uri = db.uri()}); });
  std::thread tb([&] { b = pg_store::open({.uri = db.uri()}); });
  ta.join();
  tb.join();
  REQUIRE_MESSAGE(a, a.error().message());
  REQUIRE_MESSAGE(b, b.error().message());
  // One of them found it done.
  CHECK((*a)->schema_version_at_open() + (*b)->schema_version_at_open() == known_schema_version());
  CHECK(pg_raw(db.uri()).one("SELECT count(*) FROM schema_migrations") == std::to_string(known_schema_version()));
}

TEST_CASE("pg_store: a newer schema, a gap, a renamed migration and a foreign database are refused, saying why") {
  const std::string server = test_pg_uri();
  const auto refused = [](const std::string& uri) {
    const auto opened = pg_store::open({.uri = uri});
    REQUIRE(!opened);
    CHECK(opened.error().error_code() == status::code::io_error);
    return opened.error().message();
  };
  {
    pg_test_db db(server);
    open_store(db.uri());
    pg_raw(db.uri()).exec("INSERT INTO schema_migrations VALUES (" + std::to_string(known_schema_version() + 1) +
                          ", '9999_future.sql', 'x', 0)");
    const std::string msg = refused(db.uri());
    CHECK(msg.find("newer than this program knows") != std::string::npos);
    CHECK(msg.find(db.name()) != std::string::npos);
    CHECK(!pg_reader::open(db.uri()));
  }
  {
    pg_test_db db(server);
    open_store(db.uri());
    pg_raw(db.uri()).exec("DELETE FROM schema_migrations WHERE version = 2");
    CHECK(refused(db.uri()).find("not contiguous") != std::string::npos);
  }
  {
    pg_test_db db(server);
    open_store(db.uri());
    pg_raw(db.uri()).exec("UPDATE schema_migrations SET name = '0001_other.sql' WHERE version = 1");
    CHECK(refused(db.uri()).find("0001_other.sql") != std::string::npos);
  }
  {
    pg_test_db db(server);
    pg_raw(db.uri()).exec("CREATE TABLE someone_elses (x int)");
    CHECK(refused(db.uri()).find("not a Clash of Decks database") != std::string::npos);
    CHECK(pg_raw(db.uri()).one("SELECT to_regclass('schema_migrations') IS NULL") == "t");
  }
  {
    pg_test_db db(server);
    const auto reader = pg_reader::open(db.uri());
    REQUIRE(!reader);
    CHECK(reader.error().message().find("has no schema") != std::string::npos);
  }
}

TEST_CASE("pg_store: a statement the server refuses inside a batch refuses that write alone") {
  pg_test_db db(test_pg_uri());
  auto s = open_store(db.uri());
  // A constraint the writer does not check itself (its own checks pass):
  // a deck_json NULL is impossible through the API, so tamper with the
  // schema instead: options_json limited to 10 characters.
  pg_raw(db.uri()).exec("ALTER TABLE matches ADD CONSTRAINT short_options CHECK (length(options_json) < 10)");
  acks good, bad;
  match_record ok = sample_record("ok");
  ok.options_json = "{}";
  match_record too_long = sample_record("long");  // {"exhaustion":true}: 19 characters
  s->create_match(ok, good.expect(true));
  s->create_match(too_long, bad.expect(false));
  s->append_action("ok", sample_action(1), good.expect(true));
  s->append_action("long", sample_action(1), bad.expect(false));  // its match was refused
  s->flush();
  CHECK(good.calls() == 2);
  CHECK(good.wrong() == 0);
  CHECK(bad.calls() == 2);
  CHECK(bad.wrong() == 0);
  CHECK(read_ok(s->reader().load_match("ok"))->actions.size() == 1);
  CHECK(!read_ok(s->reader().load_match("long")));
  CHECK(s->health().ok);
}

TEST_CASE("pg_store: accounts: a name another node creates at the same moment is a conflict (the unique index)") {
  pg_test_db db(test_pg_uri());
  auto s = open_store(db.uri());
  account_store& st = *s->accounts();
  // Another node's insert of Zed, not yet committed: the store's check
  // does not see it, so its insert waits on the unique index, then fails.
  // (`other` is declared after the thread: should a check below throw, it
  // closes first, which frees the insert, and the thread can be joined.)
  std::optional<result<account_record>> got;
  std::jthread creating;
  pg_raw other(db.uri());
  other.exec("BEGIN");
  other.exec("INSERT INTO accounts (name, created_ms) VALUES ('Zed', 1)");
  creating = std::jthread([&] { got.emplace(st.create_account({0, "zed", "", true, false, false, 2})); });
  pg_raw admin(db.server());
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  bool waiting = false;
  while (!waiting && std::chrono::steady_clock::now() < deadline) {
    waiting = admin.one("SELECT count(*) FROM pg_stat_activity WHERE datname = '" + db.name() +
                        "' AND application_name = 'cod-store-accounts' AND wait_event_type = 'Lock'") == "1";
    if (!waiting) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  other.exec("COMMIT");
  creating.join();
  CHECK(waiting);
  REQUIRE(got);
  REQUIRE(!*got);
  CHECK(got->error().error_code() == status::code::conflict);
  CHECK(got->error().message() == "the name zed is taken");
  // The connection is fine afterwards.
  const auto zed = st.account_by_name("ZED");
  REQUIRE(zed);
  REQUIRE(*zed);
  CHECK((*zed)->name == "Zed");
}

TEST_CASE("pg_store: accounts survive a lost connection (that call fails, the next one reconnects)") {
  pg_test_db db(test_pg_uri());
  auto s = open_store(db.uri());
  account_store& st = *s->accounts();
  REQUIRE(st.create_account({0, "Ann", "", true, false, false, 1}));
  pg_raw(db.server())
      .exec("SELECT pg_terminate_backend(pid, 5000) FROM pg_stat_activity WHERE datname = '" + db.name() +
            "' AND application_name = 'cod-store-accounts'");
  const auto lost = st.account_by_name("ann");
  REQUIRE(!lost);
  CHECK(lost.error().error_code() == status::code::io_error);
  const auto again = st.account_by_name("ann");
  REQUIRE_MESSAGE(again, again.error().message());
  REQUIRE(*again);
  CHECK((*again)->account_id == 1);
}

}  // namespace cod::server::test
