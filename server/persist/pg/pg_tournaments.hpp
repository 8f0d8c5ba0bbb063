// Internal to the PostgreSQL store: tournaments in the database (the tables
// of migrations/postgres/0003 and 0005). save_tournament produces the
// statements that replace everything stored under the id (the writer queues
// them in its batch, inside the batch's transaction); load_tournaments reads
// them back through record_rows.hpp's tournament_rows, as SQLite's does.
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

// Every stored tournament, oldest created first (then by id), with its
// options; inside the caller's transaction. Throws persist_error.
std::vector<stored_tournament> load_tournaments(conn& c);

}  // namespace cod::server::pg
