#include "persist/pg/pg_migrations.hpp"

#include <spdlog/spdlog.h>

#include <vector>

#include "common/sha256.hpp"
#include "common/strcat.hpp"
#include "common/wall_clock.hpp"
#include "persist/migrations.hpp"
#include "persist/pg/pg_util.hpp"

namespace cod::server::pg {

using detail::cat;

namespace {

// pg_advisory_xact_lock's key for "the schema of this database": any
// constant works, as long as every cod-server uses the same one.
constexpr std::int64_t migration_lock_key = 0x436f445f736368;  // "CoD_sch"

[[noreturn]] void refuse(const conn& c, const std::string& why) {
  throw persist_error(cat("database ", c.where(), ": ", why));
}

bool has_migrations_table(conn& c) {
  auto r = c.query("SELECT to_regclass('schema_migrations') IS NOT NULL", {});
  return r.text(0, 0) == "t";
}

// Tables, views and sequences in the schema new tables go to.
std::int64_t user_objects(conn& c) {
  auto r = c.query(
      "SELECT count(*) FROM pg_catalog.pg_class k JOIN pg_catalog.pg_namespace n ON n.oid = k.relnamespace "
      "WHERE n.nspname = current_schema() AND k.relkind IN ('r', 'v', 'S', 'p')",
      {});
  return r.int64(0, 0);
}

int read_applied(conn& c) {
  std::vector<applied_migration> rows;
  auto r = c.query("SELECT version, name, sha256 FROM schema_migrations ORDER BY version", {});
  for (int i = 0; i < r.rows(); ++i) rows.push_back({static_cast<int>(r.int64(i, 0)), r.text(i, 1), r.text(i, 2)});
  return check_applied(c.where(), rows, embedded_postgres_migrations());
}

// ROLLBACK when leaving with an exception (the connection may be gone).
struct txn {
  conn& c;
  bool done = false;
  explicit txn(conn& c, std::string_view begin) : c(c) { c.exec(begin); }
  void commit() {
    c.exec("COMMIT");
    done = true;
  }
  ~txn() {
    if (done || !c.ok()) return;
    try {
      c.exec("ROLLBACK");
    } catch (...) {
    }
  }
};

}  // namespace

int migrate(conn& c) {
  const auto list = embedded_postgres_migrations();
  txn t(c, "BEGIN");
  c.query("SELECT pg_advisory_xact_lock($1)", params().add(migration_lock_key));
  if (!has_migrations_table(c)) {
    if (user_objects(c) > 0) refuse(c, "not a Clash of Decks database (it has tables but no schema_migrations)");
    c.exec(
        "CREATE TABLE schema_migrations (\n"
        "  version    INTEGER NOT NULL PRIMARY KEY,\n"
        "  name       TEXT    NOT NULL,\n"
        "  sha256     TEXT    NOT NULL,\n"
        "  applied_at BIGINT  NOT NULL\n"
        ")");
  }
  const int before = read_applied(c);
  for (std::size_t i = static_cast<std::size_t>(before); i < list.size(); ++i) {
    const migration& m = list[i];
    try {
      c.exec(m.sql);
    } catch (const persist_error& e) {
      throw persist_error(cat("migration postgres/", m.name, " failed: ", e.what()));
    }
    c.query("INSERT INTO schema_migrations (version, name, sha256, applied_at) VALUES ($1, $2, $3, $4)",
            params().add(m.version).add(m.name).add(sha256_hex(m.sql)).add(now_ms()));
  }
  t.commit();
  const int known = static_cast<int>(list.size());
  if (before < known) spdlog::info("persist: {}: schema migrated from version {} to {}", c.where(), before, known);
  return before;
}

int check_schema(conn& c) {
  txn t(c, "BEGIN READ ONLY");
  if (!has_migrations_table(c)) {
    if (user_objects(c) > 0) refuse(c, "not a Clash of Decks database (it has tables but no schema_migrations)");
    refuse(c, "has no schema (empty, or never opened by cod-server)");
  }
  const int version = read_applied(c);
  const int known = static_cast<int>(embedded_postgres_migrations().size());
  if (version < known)
    refuse(c, cat("schema version ", version, " is older than this program's (", known,
                  "); open it once with cod-server to migrate it"));
  t.commit();
  return version;
}

}  // namespace cod::server::pg
