// A tournament in the database (migration 0003_tournaments.sql,
// docs/persistence.md): save replaces everything stored under the id with
// the value; load rebuilds the value. On the caller's connection, inside a
// savepoint (so inside or outside the caller's transaction). Throws
// server::persist_error on SQLite errors and on stored data that does not
// form a tournament; a failed save leaves the stored tournament as it was.
//
// Games refer to matches(match_id): with foreign keys on, save after the
// matches' rows exist (docs/tournaments.md, "Rounds and games").
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tournament/tournament.hpp"

namespace cod::server::sql {
class db;
}

namespace cod::tournaments {

// created_ms is kept from the first save.
void save_tournament(server::sql::db& d, std::string_view id, const tournament& t, std::int64_t created_ms);
std::optional<tournament> load_tournament(server::sql::db& d, std::string_view id);
// Every stored id, oldest first.
std::vector<std::string> list_tournaments(server::sql::db& d);

}  // namespace cod::tournaments
