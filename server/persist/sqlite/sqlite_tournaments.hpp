// Internal to the SQLite store: tournaments in the database (migrations
// 0003_tournaments.sql and 0005, docs/persistence.md). save replaces
// everything stored under the id with the value; load rebuilds the value. On
// the caller's connection, inside a savepoint (so inside or outside the
// caller's transaction). Throws persist_error on SQLite errors and on stored
// data that does not form a tournament; a failed save leaves the stored
// tournament as it was.
//
// Games refer to matches(match_id): with foreign keys on, save after the
// matches' rows exist (docs/tournaments.md, "Rounds and games").
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "persist/records.hpp"

namespace cod::server::sql {
class db;
}

namespace cod::server::detail {

// The tournament value alone; created_ms is kept from the first save.
void save_tournament(sql::db& d, std::string_view id, const tournaments::tournament& t, std::int64_t created_ms);
std::optional<tournaments::tournament> load_tournament(sql::db& d, std::string_view id);
// Every stored id, oldest first.
std::vector<std::string> list_tournaments(sql::db& d);

// With the server's options row (migration 0005), in one savepoint.
void save_stored_tournament(sql::db& d, const stored_tournament& t);
// Every stored tournament, oldest first; a tournament whose rows are gone
// meanwhile is skipped.
std::vector<stored_tournament> load_stored_tournaments(sql::db& d);

}  // namespace cod::server::detail
