#include "persist/sqlite/sqlite_migrations.hpp"

#include <spdlog/spdlog.h>

#include <string>
#include <vector>

#include "common/sha256.hpp"
#include "common/strcat.hpp"
#include "common/wall_clock.hpp"
#include "persist/migrations.hpp"
#include "persist/sqlite/sqlite_util.hpp"

namespace cod::server {

using detail::cat;

namespace {

[[noreturn]] void refuse(const sql::db& d, const std::string& why) {
  throw persist_error(cat("database ", d.path(), ": ", why));
}

bool has_table(sql::db& d, const char* name) {
  sql::stmt s(d, "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?1");
  s.bind(1, name);
  s.step();
  return s.int64(0) > 0;
}

std::int64_t user_objects(sql::db& d) {
  sql::stmt s(d, "SELECT count(*) FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'");
  s.step();
  return s.int64(0);
}

// The recorded versions of a SQLite database, checked (check_applied).
int read_applied(sql::db& d) {
  std::vector<applied_migration> rows;
  {
    sql::stmt s(d, "SELECT version, name, sha256 FROM schema_migrations ORDER BY version");
    while (s.step()) rows.push_back({static_cast<int>(s.int64(0)), s.text(1), s.text(2)});
  }
  return check_applied(d.path(), rows, embedded_migrations());
}

}  // namespace

int migrate(sql::db& d) {
  check_embedded();
  d.exec("BEGIN IMMEDIATE");
  try {
    if (!has_table(d, "schema_migrations")) {
      if (user_objects(d) > 0)
        refuse(d, "not a Clash of Decks database (it has tables but no schema_migrations)");
      d.exec(
          "CREATE TABLE schema_migrations (\n"
          "  version    INTEGER NOT NULL PRIMARY KEY,\n"
          "  name       TEXT    NOT NULL,\n"
          "  sha256     TEXT    NOT NULL,\n"
          "  applied_at INTEGER NOT NULL\n"
          ")");
    }
    const int before = read_applied(d);
    const auto list = embedded_migrations();
    for (std::size_t i = static_cast<std::size_t>(before); i < list.size(); ++i) {
      const migration& m = list[i];
      try {
        d.exec(m.sql);
      } catch (const persist_error& e) {
        throw persist_error(cat("migration ", m.name, " failed: ", e.what()));
      }
      sql::stmt ins(d, "INSERT INTO schema_migrations (version, name, sha256, applied_at) VALUES (?1, ?2, ?3, ?4)");
      ins.bind(1, m.version).bind(2, m.name).bind(3, sha256_hex(m.sql)).bind(4, now_ms());
      ins.run();
    }
    d.exec("COMMIT");
    if (before < known_schema_version())
      spdlog::info("persist: {}: schema migrated from version {} to {}", d.path(), before, known_schema_version());
    return before;
  } catch (...) {
    if (d.in_transaction()) {
      try {
        d.exec("ROLLBACK");
      } catch (...) {
      }
    }
    throw;
  }
}

int check_schema(sql::db& d) {
  check_embedded();
  d.exec("BEGIN");
  struct end_read {
    sql::db& d;
    ~end_read() {
      try {
        d.exec("COMMIT");
      } catch (...) {
      }
    }
  } guard{d};
  if (!has_table(d, "schema_migrations")) {
    if (user_objects(d) > 0) refuse(d, "not a Clash of Decks database (it has tables but no schema_migrations)");
    refuse(d, "has no schema (empty, or never opened by cod-server)");
  }
  const int version = read_applied(d);
  if (version < known_schema_version())
    refuse(d, cat("schema version ", version, " is older than this program's (", known_schema_version(),
                  "); open it once with cod-server to migrate it"));
  return version;
}

}  // namespace cod::server
