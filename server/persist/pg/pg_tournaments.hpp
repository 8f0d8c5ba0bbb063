// Internal to the PostgreSQL store: a tournament is one row of tournaments,
// its value the document of tournament_record.hpp, and one row of
// tournament_matches for each match its games name (migration 0011, as
// SQLite's). save_tournament produces the statements that replace what is
// stored under the id (the writer queues them in its batch, inside the
// batch's transaction); load_tournaments reads them back.
#pragma once

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "persist/records.hpp"

namespace cod::server::pg {

class conn;
class params;

// (name, SQL) of the writer's prepared statements for tournaments.
const std::vector<std::pair<std::string, std::string>>& tournament_statements();

// Runs (or queues) one prepared statement.
using send_fn = std::function<void(const std::string& name, const params& p)>;
// The statements storing `t`: created_ms kept from the first save.
void save_tournament(const stored_tournament& t, const send_fn& send);

// Every stored tournament, oldest created first (then by id); inside the
// caller's transaction. Throws persist_error.
std::vector<stored_tournament> load_tournaments(conn& c);

}  // namespace cod::server::pg
