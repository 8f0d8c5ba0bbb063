// Internal to the SQLite store: ratings and rating_changes (migration 0014,
// docs/ratings.md). The write runs on the writer's connection inside the
// transaction (and savepoint) of the finish_match that ends a rated match:
// SQLite's one writer makes the read of the seats' ratings and their
// update serial. The numbers are rating_update.hpp's.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "persist/records.hpp"

namespace cod::server::sql {
class db;
}

namespace cod::server::detail {

// After the matches row was set finished: plans the match's rating
// (rating_update.hpp), reads the seats' ratings, writes ratings and
// rating_changes. An unrated plan writes nothing (logged). Throws sql_error.
void store_rating_change(sql::db& d, const std::string& match_id, const match_result& r);

// The reads of match_reader, on the reader's connection.
std::vector<rating_record> read_ratings(sql::db& d, std::int64_t account_id);
std::vector<rating_record> read_ladder(sql::db& d, const ladder_query& q);
std::vector<rating_change_record> read_rating_history(sql::db& d, std::int64_t account_id, int offset, int limit);
std::vector<rating_change_record> read_match_rating_changes(sql::db& d, const std::string& match_id);

}  // namespace cod::server::detail
