// The SQLite runner of the migrations (persist/migrations.hpp).
#pragma once

namespace cod::server {

namespace sql {
class db;
}

// On a read-write connection: applies every missing migration in one
// BEGIN IMMEDIATE transaction (all or nothing). Throws persist_error, naming
// the file, when the database is not ours, its recorded versions are not
// contiguous from 1, a recorded name differs from ours, or its version is
// newer than known_schema_version(). Returns the version it had before.
int migrate(sql::db& d);

// On a read-only connection: the schema version, which must equal
// known_schema_version() (throws persist_error otherwise, saying why).
int check_schema(sql::db& d);

}  // namespace cod::server
