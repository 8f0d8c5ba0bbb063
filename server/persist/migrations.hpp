// The schema migrations (migrations/NNNN_name.sql at the repository root,
// migrations/postgres/ for PostgreSQL), embedded into the binary at build
// time (embed_migrations.cmake), and the check both runners make of what a
// database records (sqlite/sqlite_migrations.hpp, pg/pg_migrations.hpp).
// docs/persistence.md.
//
// Versioning: a schema_migrations(version, name, sha256, applied_at) table
// that the runner creates; the database's schema version is its highest
// version. PRAGMA user_version is not used.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace cod::server {

struct migration {
  int version;            // 1, 2, 3... from the file name
  std::string_view name;  // "0001_initial.sql"
  std::string_view sql;
};

// In order, versions 1..N (the build fails otherwise).
std::span<const migration> embedded_migrations();
// N: the newest schema this program knows.
int known_schema_version();
// The same migrations in PostgreSQL's dialect (migrations/postgres/, the
// same numbers and names; pg_migrations.hpp applies them).
std::span<const migration> embedded_postgres_migrations();

// One row of schema_migrations.
struct applied_migration {
  int version;
  std::string name;
  std::string sha256;
};

// Both runners' checks of what a database records against `ours`: versions
// contiguous from 1, none newer than ours, names as ours (a changed text
// only logs a warning). Returns the schema version (0: none applied).
// Throws persist_error "database <where>: why".
int check_applied(const std::string& where, const std::vector<applied_migration>& rows,
                  std::span<const migration> ours);

// Throws persist_error when the embedded list is not numbered 1..N.
void check_embedded();

}  // namespace cod::server
