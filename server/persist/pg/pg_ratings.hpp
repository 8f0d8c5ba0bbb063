// Internal to the PostgreSQL store: ratings and rating_changes (migration
// 0014, docs/ratings.md). The write runs on the writer's connection, inside
// the transaction (and savepoint) of the finish_match that ends a rated
// match; the seats' ratings rows are locked (FOR UPDATE, in account order)
// before they are read, so two nodes finishing matches of one player at
// once rate them one after the other. The numbers are rating_update.hpp's.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "persist/records.hpp"

namespace cod::server::pg {
class conn;
}

namespace cod::server::detail {

// After the matches row was set finished: plans the match's rating, locks
// and reads the seats' ratings, writes ratings and rating_changes. An
// unrated plan writes nothing (logged). Throws pg::error.
void store_rating_change(pg::conn& c, const std::string& match_id, const match_result& r);

// The reads of match_reader, on the reader's connection.
std::vector<rating_record> read_ratings(pg::conn& c, std::int64_t account_id);
std::vector<rating_record> read_ladder(pg::conn& c, const ladder_query& q);
std::vector<rating_change_record> read_rating_history(pg::conn& c, std::int64_t account_id, int offset, int limit);
std::vector<rating_change_record> read_match_rating_changes(pg::conn& c, const std::string& match_id);

}  // namespace cod::server::detail
