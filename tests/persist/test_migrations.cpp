#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "helpers.hpp"
#include "persist/migrations.hpp"
#include "persist/sqlite/sqlite_store.hpp"
#include "../shared/store_reads.hpp"
#include "persist/tournament_record.hpp"
#include "tournament_steps.hpp"
#include "v10_tournament_rows.hpp"

using namespace cod::server;
using namespace cod::server::test;

namespace {

std::string read_file(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string n_str(int n) { return std::to_string(n); }

// A new database at `path`, migrated by the store, holding match "m1".
void create_with_match(const std::string& path) {
  auto opened = sqlite_store::open({.path = path});
  REQUIRE_MESSAGE(opened, opened.error().message());
  auto store = std::move(*opened);
  acks a;
  store->create_match(sample_record("m1"), a.expect(true));
  store->flush();
  CHECK(a.wrong() == 0);
}

// A new database at `path`, migrated by the store (closed again), then `sql`
// run on it raw.
void migrate_then_exec(const std::string& path, const std::string& sql) {
  const auto opened = sqlite_store::open({.path = path});
  REQUIRE_MESSAGE(opened, opened.error().message());
  raw_db(path).exec(sql);
}

// The documented schema (docs/persistence.md): table -> columns in order.
const std::map<std::string, std::vector<std::string>> documented_tables = {
    {"schema_migrations", {"version", "name", "sha256", "applied_at"}},
    {"matches",
     {"match_id", "room_id", "mode", "format", "options_json", "rules_version", "engine_version", "seed", "seed_hash",
      "created_ms", "status", "ended_ms", "winners", "reason", "cards_json", "rated"}},  // cards_json: 0009, rated: 0014
    {"match_seats", {"match_id", "seat", "name", "token_hash", "deck_json", "team", "champion", "ai",
                     "account_id"}},  // account_id: 0013
    {"match_actions", {"match_id", "seq", "seat", "action_json", "digest", "at_ms"}},
    {"match_notes", {"note_id", "match_id", "at_ms", "text"}},
    {"draft_events", {"match_id", "seq", "seat", "kind", "cards_json", "at_ms"}},
    // 0006_admin_audit.sql
    {"admin_audit", {"audit_id", "at_ms", "role", "remote", "match_id", "route", "target"}},
    // 0007_cluster.sql
    {"room_leases", {"room_id", "node_id", "expires_ms", "wanted_by"}},  // wanted_by: 0008_handover.sql
    // 0010_leagues.sql
    {"leagues", {"league_id", "name", "created_ms", "finished", "record_json"}},
    // 0011_tournament_records.sql (0003 and 0005 rewritten into one document a tournament)
    {"tournaments", {"tournament_id", "name", "created_ms", "finished", "record_json"}},
    {"tournament_matches", {"tournament_id", "match_id"}},
    {"lobby_nodes", {"node_id", "published_ms"}},
    {"lobby_rooms", {"node_id", "room_id", "summary_json"}},
    // 0012_accounts.sql
    {"accounts", {"account_id", "name", "password_hash", "guest", "disabled", "deleted", "created_ms"}},
    {"account_sessions", {"session_id", "token_hash", "account_id", "created_ms", "last_used_ms", "remote"}},
    // 0014_ratings.sql
    {"ratings", {"account_id", "ladder", "value", "deviation", "volatility", "display", "games", "wins", "losses",
                 "last_ms"}},
    {"rating_changes", {"match_id", "seat", "account_id", "ladder", "ended_ms", "before_value", "before_deviation",
                        "before_volatility", "before_last_ms", "after_value", "after_deviation", "after_volatility",
                        "delta"}},
    // 0015_queue_board.sql
    {"queue_tickets", {"ticket_id", "node_id", "account_id", "pool", "rating", "address", "name", "seat_hash",
                       "deck_json", "partner", "enqueued_ms", "room_id", "seat", "players"}},
    {"queue_nodes", {"node_id", "seen_ms"}},
    {"queue_matcher", {"singleton", "node_id", "expires_ms"}},
    {"queue_recent", {"account_id", "opponents", "at_ms"}},
};
const std::vector<std::string> documented_indexes = {
    "account_sessions_account", "accounts_name",   "admin_audit_match",   "leagues_created",     "match_notes_match",
    "match_seats_account",      "match_seats_name",         "matches_created", "matches_room",        "matches_status",
    "queue_tickets_node",       "queue_tickets_waiting",
    "rating_changes_account",   "ratings_ladder",           "room_leases_node", "tournament_matches_match",
    "tournaments_created"};

}  // namespace

TEST_CASE("migrations: the files are numbered contiguously from 1 and all embedded, unchanged") {
  std::vector<std::string> files;
  for (const auto& e : std::filesystem::directory_iterator(COD_MIGRATIONS_DIR))
    if (e.path().extension() == ".sql") files.push_back(e.path().filename().string());
  std::sort(files.begin(), files.end());
  REQUIRE(!files.empty());
  const auto embedded = embedded_migrations();
  REQUIRE(embedded.size() == files.size());
  CHECK(known_schema_version() == static_cast<int>(files.size()));
  for (std::size_t i = 0; i < files.size(); ++i) {
    char prefix[8];
    std::snprintf(prefix, sizeof prefix, "%04d_", static_cast<int>(i + 1));
    CHECK_MESSAGE(files[i].rfind(prefix, 0) == 0, files[i] << " should start with " << prefix);
    CHECK(embedded[i].version == static_cast<int>(i + 1));
    CHECK(embedded[i].name == files[i]);
    CHECK_MESSAGE(embedded[i].sql == read_file(std::filesystem::path(COD_MIGRATIONS_DIR) / files[i]),
                  files[i] << " changed since the build embedded it (rebuild)");
  }
}

TEST_CASE("migrations: the PostgreSQL dialect has the same numbers and names, all embedded, unchanged") {
  const auto sqlite = embedded_migrations();
  const auto pg = embedded_postgres_migrations();
  REQUIRE(pg.size() == sqlite.size());
  const auto dir = std::filesystem::path(COD_MIGRATIONS_DIR) / "postgres";
  for (std::size_t i = 0; i < pg.size(); ++i) {
    CHECK(pg[i].version == sqlite[i].version);
    CHECK(pg[i].name == sqlite[i].name);
    CHECK_MESSAGE(pg[i].sql == read_file(dir / std::string(pg[i].name)),
                  "postgres/" << pg[i].name << " changed since the build embedded it (rebuild)");
    CHECK(!pg[i].sql.empty());
  }
}

TEST_CASE("migrations: an empty database gets the documented schema, in WAL mode") {
  temp_dir dir;
  const std::string path = dir.file("new.db");
  {
    auto opened = sqlite_store::open({.path = path});
    REQUIRE_MESSAGE(opened, opened.error().message());
    auto store = std::move(*opened);
    CHECK(store->schema_version_at_open() == 0);
  }
  raw_db db(path);
  std::vector<std::string> tables = db.rows(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name");
  std::vector<std::string> want;
  for (const auto& [t, cols] : documented_tables) want.push_back(t);
  CHECK(tables == want);
  for (const auto& [t, cols] : documented_tables) {
    std::vector<std::string> got;
    for (const std::string& row : db.rows("SELECT name FROM pragma_table_info('" + t + "') ORDER BY cid"))
      got.push_back(row);
    CHECK_MESSAGE(got == cols, "table " << t);
  }
  CHECK(db.rows("SELECT name FROM sqlite_master WHERE type = 'index' AND name NOT LIKE 'sqlite_%' ORDER BY name") ==
        documented_indexes);
  CHECK(db.one("SELECT count(*), min(version), max(version) FROM schema_migrations") ==
        n_str(known_schema_version()) + "|1|" + n_str(known_schema_version()));
  CHECK(db.one("PRAGMA journal_mode") == "wal");
  // The keys the store relies on.
  CHECK(db.one("SELECT group_concat(name) FROM (SELECT name FROM pragma_table_info('match_actions') "
               "WHERE pk > 0 ORDER BY pk)") == "match_id,seq");
}

TEST_CASE("migrations: the tournament tables keep their keys and checks") {
  temp_dir dir;
  const std::string path = dir.file("tournaments.db");
  create_with_match(path);
  raw_db db(path);
  db.exec("PRAGMA foreign_keys = ON");
  db.exec("INSERT INTO tournaments (tournament_id, name, created_ms, record_json) VALUES ('t1', 'Open', 0, '{}')");
  CHECK(db.one("SELECT finished FROM tournaments") == "0");
  db.exec("INSERT INTO tournament_matches VALUES ('t1', 'm1')");
  const char* refused[] = {
      // unknown match, the same match twice, in another tournament too
      "INSERT INTO tournament_matches VALUES ('t1', 'nope')",
      "INSERT INTO tournament_matches VALUES ('t1', 'm1')",
      "INSERT INTO tournament_matches VALUES ('t2', 'm1')",
      // the same id twice, finished not 0 or 1, no document
      "INSERT INTO tournaments (tournament_id, name, created_ms, record_json) VALUES ('t1', 'x', 0, '{}')",
      "INSERT INTO tournaments (tournament_id, name, created_ms, finished, record_json) VALUES ('t3', 'x', 0, 2, '{}')",
      "INSERT INTO tournaments (tournament_id, name, created_ms) VALUES ('t3', 'x', 0)",
  };
  for (const char* sql : refused) CHECK_MESSAGE(db.try_exec(sql) != SQLITE_OK, sql);
  CHECK(db.one("SELECT count(*) FROM tournament_matches") == "1");
}

TEST_CASE("migrations: the account tables keep their keys and checks; an account_id is never given twice") {
  temp_dir dir;
  const std::string path = dir.file("accounts.db");
  migrate_then_exec(path, "INSERT INTO accounts (name, created_ms) VALUES ('Ann', 0), ('Ben', 0)");
  raw_db db(path);
  db.exec("PRAGMA foreign_keys = ON");
  CHECK(db.one("SELECT group_concat(account_id || ':' || password_hash || guest || disabled || deleted) FROM "
               "accounts") == "1:000,2:000");
  db.exec("INSERT INTO account_sessions (session_id, token_hash, account_id, created_ms, last_used_ms) "
          "VALUES ('s1', 'h1', 1, 0, 0)");
  const char* refused[] = {
      // a name taken, in any case; none
      "INSERT INTO accounts (name, created_ms) VALUES ('ANN', 0)",
      "INSERT INTO accounts (name, created_ms) VALUES ('ben', 0)",
      "INSERT INTO accounts (created_ms) VALUES (0)",
      // a flag not 0 or 1
      "INSERT INTO accounts (name, guest, created_ms) VALUES ('x', 2, 0)",
      "INSERT INTO accounts (name, disabled, created_ms) VALUES ('x', -1, 0)",
      "INSERT INTO accounts (name, deleted, created_ms) VALUES ('x', 2, 0)",
      // a session id or token hash taken; an unknown account
      "INSERT INTO account_sessions (session_id, token_hash, account_id, created_ms, last_used_ms) "
      "VALUES ('s1', 'h2', 1, 0, 0)",
      "INSERT INTO account_sessions (session_id, token_hash, account_id, created_ms, last_used_ms) "
      "VALUES ('s2', 'h1', 1, 0, 0)",
      "INSERT INTO account_sessions (session_id, token_hash, account_id, created_ms, last_used_ms) "
      "VALUES ('s2', 'h2', 9, 0, 0)",
  };
  for (const char* sql : refused) CHECK_MESSAGE(db.try_exec(sql) != SQLITE_OK, sql);
  // The newest account's row gone, the next account still gets a new id
  // (AUTOINCREMENT), not 2 again.
  db.exec("DELETE FROM accounts WHERE account_id = 2");
  db.exec("INSERT INTO accounts (name, created_ms) VALUES ('Cy', 0)");
  CHECK(db.one("SELECT account_id FROM accounts WHERE name = 'Cy'") == "3");
}

TEST_CASE("migrations: a database of schema 10 with tournaments upgrades (0011); each loads as it was stored") {
  temp_dir dir;
  const std::string path = dir.file("v10.db");
  const auto kept = schema10_tournaments();
  {
    raw_db db(path);
    db.exec("PRAGMA foreign_keys = ON");
    write_schema10([&](const std::string& sql) { db.exec(sql); }, embedded_migrations(), kept);
  }
  auto opened = sqlite_store::open({.path = path});
  REQUIRE_MESSAGE(opened, opened.error().message());
  auto store = std::move(*opened);
  check_schema10_upgraded(*store, kept);
  raw_db db(path);
  CHECK(db.one("SELECT group_concat(finished, ',') FROM (SELECT finished FROM tournaments ORDER BY created_ms)") ==
        "0,1,0");
  CHECK(db.rows("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'tournament%' ORDER BY name") ==
        std::vector<std::string>{"tournament_matches", "tournaments"});
}

TEST_CASE("migrations: reopening applies nothing and keeps the data") {
  temp_dir dir;
  const std::string path = dir.file("again.db");
  create_with_match(path);
  std::string applied_at;
  {
    raw_db db(path);
    applied_at = db.one("SELECT group_concat(applied_at) FROM schema_migrations");
  }
  auto opened = sqlite_store::open({.path = path});
  REQUIRE_MESSAGE(opened, opened.error().message());
  auto store = std::move(*opened);
  CHECK(store->schema_version_at_open() == known_schema_version());
  CHECK(read_ok(store->reader().load_match("m1")).has_value());
  raw_db db(path);
  CHECK(db.one("SELECT group_concat(applied_at) FROM schema_migrations") == applied_at);
}

TEST_CASE("migrations: a database with a newer schema is refused, clearly") {
  temp_dir dir;
  const std::string path = dir.file("newer.db");
  migrate_then_exec(path, "INSERT INTO schema_migrations VALUES (" + n_str(known_schema_version() + 1) +
                              ", '9999_future.sql', 'x', 0)");
  const auto store = sqlite_store::open({.path = path});
  CHECK(!store);
  CHECK(store.error().message().find("newer") != std::string::npos);
  CHECK(store.error().message().find(path) != std::string::npos);
  const auto reader = sqlite_reader::open(path);
  CHECK(!reader);
  CHECK(reader.error().message().find("newer") != std::string::npos);
  // Nothing was changed by the refused open.
  raw_db db(path);
  CHECK(db.one("SELECT count(*) FROM schema_migrations") == n_str(known_schema_version() + 1));
}

TEST_CASE("migrations: a gap in the recorded versions is refused") {
  temp_dir dir;
  const std::string path = dir.file("gap.db");
  migrate_then_exec(path, "INSERT INTO schema_migrations VALUES (" + n_str(known_schema_version() + 2) +
                              ", 'x.sql', 'x', 0)");
  const auto opened = sqlite_store::open({.path = path});
  CHECK(!opened);
  CHECK(opened.error().message().find("not contiguous") != std::string::npos);
}

TEST_CASE("migrations: a renamed migration is refused") {
  temp_dir dir;
  const std::string path = dir.file("renamed.db");
  migrate_then_exec(path, "UPDATE schema_migrations SET name = '0001_other.sql' WHERE version = 1");
  const auto opened = sqlite_store::open({.path = path});
  CHECK(!opened);
  CHECK(opened.error().message().find("0001_other.sql") != std::string::npos);
}

TEST_CASE("migrations: a corrupt file, a foreign database and a missing file give clear errors") {
  temp_dir dir;

  const std::string garbage = dir.file("garbage.db");
  {
    std::ofstream out(garbage, std::ios::binary);
    for (int i = 0; i < 200; ++i) out << "this is not a database at all. ";
  }
  const auto garbage_store = sqlite_store::open({.path = garbage});
  CHECK(!garbage_store);
  CHECK(garbage_store.error().message().find(garbage) != std::string::npos);
  CHECK(garbage_store.error().message().find("not a database") != std::string::npos);
  const auto garbage_reader = sqlite_reader::open(garbage);
  CHECK(!garbage_reader);
  CHECK(garbage_reader.error().message().find("not a database") != std::string::npos);

  const std::string foreign = dir.file("foreign.db");
  {
    raw_db db(foreign);
    db.exec("CREATE TABLE t (x)");
  }
  const auto foreign_store = sqlite_store::open({.path = foreign});
  CHECK(!foreign_store);
  CHECK(foreign_store.error().message().find("not a Clash of Decks database") != std::string::npos);
  {
    raw_db db(foreign);
    CHECK(db.one("SELECT count(*) FROM sqlite_master") == "1");  // left untouched
  }

  const auto missing_reader = sqlite_reader::open(dir.file("missing.db"));
  CHECK(!missing_reader);
  CHECK(missing_reader.error().message().find("missing.db") != std::string::npos);

  const std::string empty = dir.file("empty.db");
  { raw_db db(empty); }
  const auto empty_reader = sqlite_reader::open(empty);
  CHECK(!empty_reader);
  CHECK(empty_reader.error().message().find("no schema") != std::string::npos);

  const auto no_dir_store = sqlite_store::open({.path = dir.file("no/such/dir/x.db")});
  CHECK(!no_dir_store);
  CHECK(no_dir_store.error().message().find("cannot open") != std::string::npos);
}

TEST_CASE("migrations: a database of schema 1 (duels only) upgrades to 0002; its matches still load") {
  temp_dir dir;
  const std::string path = dir.file("v1.db");
  const auto list = embedded_migrations();
  REQUIRE(list.size() >= 2);
  REQUIRE(list[1].name == "0002_seat_champion.sql");
  {
    // What a server of schema 1 left: 0001 applied and recorded, one duel.
    raw_db db(path);
    db.exec("CREATE TABLE schema_migrations (version INTEGER NOT NULL PRIMARY KEY, name TEXT NOT NULL, "
            "sha256 TEXT NOT NULL, applied_at INTEGER NOT NULL)");
    db.exec(std::string(list[0].sql));
    db.exec("INSERT INTO schema_migrations VALUES (1, '" + std::string(list[0].name) + "', '" +
            sha256_hex(std::string(list[0].sql)) + "', 0)");
    db.exec("INSERT INTO matches (match_id, room_id, mode, format, options_json, rules_version, engine_version, "
            "seed, seed_hash, created_ms) VALUES ('old', 'r', 'duel', 'preconstructed', "
            "'{\"exhaustion\":false,\"seats\":2,\"turn_clock\":null}', 'x', 1, '5', 'h', 1)");
    db.exec("INSERT INTO match_seats (match_id, seat, name, token_hash, deck_json) VALUES "
            "('old', 0, 'a', 't0', '{\"preconstructed\":1}'), ('old', 1, 'b', 't1', '{\"preconstructed\":2}')");
  }
  auto opened = sqlite_store::open({.path = path});
  REQUIRE_MESSAGE(opened, opened.error().message());
  auto store = std::move(*opened);
  CHECK(store->schema_version_at_open() == 1);
  const auto m = read_ok(store->reader().load_match("old"));
  REQUIRE(m);
  REQUIRE(m->match.seats.size() == 2);
  for (const auto& s : m->match.seats) {
    CHECK(s.champion.empty());
    CHECK_FALSE(s.team);
    CHECK_FALSE(s.ai);  // 0004: every seat before solo and co-op was a player's
  }
  raw_db db(path);
  CHECK(db.one("SELECT max(version) FROM schema_migrations") == n_str(known_schema_version()));
  CHECK(db.one("SELECT count(*) FROM match_seats WHERE champion IS NULL") == "2");
}

TEST_CASE("migrations: a database of schema 13 upgrades to 0014 (ratings); its matches load unrated") {
  temp_dir dir;
  const std::string path = dir.file("v13.db");
  const auto list = embedded_migrations();
  REQUIRE(list.size() >= 14);
  REQUIRE(list[13].name == "0014_ratings.sql");
  {
    // What a server of schema 13 left: 0001 to 0013 applied and recorded, one finished duel.
    raw_db db(path);
    db.exec("CREATE TABLE schema_migrations (version INTEGER NOT NULL PRIMARY KEY, name TEXT NOT NULL, "
            "sha256 TEXT NOT NULL, applied_at INTEGER NOT NULL)");
    for (std::size_t i = 0; i < 13; ++i) {
      db.exec(std::string(list[i].sql));
      db.exec("INSERT INTO schema_migrations VALUES (" + n_str(static_cast<int>(i) + 1) + ", '" +
              std::string(list[i].name) + "', '" + sha256_hex(std::string(list[i].sql)) + "', 0)");
    }
    db.exec("INSERT INTO matches (match_id, room_id, mode, format, options_json, rules_version, engine_version, "
            "seed, seed_hash, created_ms, status, ended_ms, winners, reason) VALUES ('old', 'r', 'duel', "
            "'preconstructed', '{}', 'x', 1, '5', 'h', 1, 'finished', 2, '[0]', 'concession')");
    db.exec("INSERT INTO match_seats (match_id, seat, name, token_hash, deck_json, account_id) VALUES "
            "('old', 0, 'a', 't0', '{\"preconstructed\":1}', 7), ('old', 1, 'b', 't1', '{\"preconstructed\":2}', 8)");
  }
  auto opened = sqlite_store::open({.path = path});
  REQUIRE_MESSAGE(opened, opened.error().message());
  auto store = std::move(*opened);
  CHECK(store->schema_version_at_open() == 13);
  const auto m = read_ok(store->reader().load_match("old"));
  REQUIRE(m);
  CHECK_FALSE(m->match.rated);  // every match before 0014 was unrated
  CHECK(m->rating_changes.empty());
  CHECK(read_ok(store->reader().load_ratings(7)).empty());
  raw_db db(path);
  CHECK(db.one("SELECT max(version) FROM schema_migrations") == n_str(known_schema_version()));
  CHECK(db.one("SELECT rated FROM matches WHERE match_id = 'old'") == "0");
}
