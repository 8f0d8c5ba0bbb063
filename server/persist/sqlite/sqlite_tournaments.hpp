// Internal to the SQLite store: a tournament is one row of tournaments, its
// value the document of tournament_record.hpp, and one row of
// tournament_matches for each match its games name (migration 0011,
// docs/persistence.md "Tournaments and leagues"). On the caller's
// connection, inside its savepoint: the store runs a save as one write.
#pragma once

#include <vector>

#include "persist/records.hpp"

namespace cod::server::sql {
class db;
}

namespace cod::server::detail {

// Replaces what is stored under t.id; created_ms is kept from the first
// save. Throws sql_error (a game naming a match not stored: the foreign
// key, with foreign keys on as on the writer).
void save_tournament(sql::db& d, const stored_tournament& t);
// Every stored tournament, oldest created first (then by id). Throws
// persist_error naming a tournament whose document is not one.
std::vector<stored_tournament> load_tournaments(sql::db& d);

}  // namespace cod::server::detail
