// The migration runner on PostgreSQL: the same numbered migrations as
// SQLite's, in PostgreSQL's dialect (migrations/postgres/, embedded at build
// time: migrations.hpp, embedded_postgres_migrations), recorded in the same
// schema_migrations table and checked the same way (check_applied).
// docs/persistence.md, "PostgreSQL".
#pragma once

namespace cod::server::pg {

class conn;

// On a read-write connection: applies every missing migration in one
// transaction (all or nothing), holding an advisory lock so that two nodes
// starting at once on one database migrate one after the other (the second
// finds nothing to do). Throws persist_error, naming the database, when the
// schema is not ours (tables but no schema_migrations), its recorded
// versions are not contiguous from 1, a recorded name differs from ours, or
// it is newer than this program. Returns the version it had before.
int migrate(conn& c);

// The schema version, which must equal this program's (a reader never
// migrates); throws persist_error otherwise, saying why.
int check_schema(conn& c);

}  // namespace cod::server::pg
