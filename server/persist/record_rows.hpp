// Internal: stored rows back into records, for both SQL stores (SQLite and
// PostgreSQL read the same columns in the same order; only the query text
// and the driver differ). No SQL here: each function names the columns it
// expects, in order, and a backend hands it a row_view over its result.
// Malformed stored values (a seed that is not a decimal uint64, a digest that
// is not 16 hex digits) throw persist_error naming the match. A tournament is
// one document (tournament_record.hpp).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "persist/match_store.hpp"

namespace cod::server::detail {

// One row of a result, column by column (0-based).
class row_view {
 public:
  virtual bool is_null(int col) const = 0;
  virtual std::int64_t int64(int col) const = 0;
  virtual std::string text(int col) const = 0;
  // A REAL / DOUBLE PRECISION column, exactly (SQLite's text of a REAL keeps 15 digits only).
  virtual double real(int col) const = 0;

 protected:
  ~row_view() = default;
};

// The columns of match_from_row, for the SELECT lists of both backends.
inline constexpr const char* match_columns =
    "match_id, room_id, mode, format, options_json, rules_version, engine_version, seed, seed_hash, "
    "created_ms, status, ended_ms, winners, reason, cards_json, rated";

// match_columns; seats, actions, notes and draft not read.
stored_match match_from_row(const row_view& r);
// match_columns, then the last seq at column 16; names not read.
match_summary summary_from_row(const row_view& r);
// seat, name, token_hash, deck_json, team, champion, ai
seat_record seat_from_row(const row_view& r);
// seq, seat, action_json, digest, at_ms
action_record action_from_row(const std::string& match_id, const row_view& r);
// seq, seat, kind, cards_json, at_ms
draft_event_record draft_from_row(const row_view& r);
// at_ms, text
note_record note_from_row(const row_view& r);
// at_ms, role, remote, match_id, route, target
audit_record audit_from_row(const row_view& r);
// league_id, name, created_ms, finished, record_json
stored_league league_from_row(const row_view& r);
// The columns of rating_from_row.
inline constexpr const char* rating_columns =
    "account_id, ladder, value, deviation, volatility, display, games, wins, losses, last_ms";
rating_record rating_from_row(const row_view& r);
// The columns of rating_change_from_row.
inline constexpr const char* rating_change_columns =
    "match_id, seat, account_id, ladder, ended_ms, before_value, before_deviation, before_volatility, "
    "before_last_ms, after_value, after_deviation, after_volatility, delta";
rating_change_record rating_change_from_row(const row_view& r);

}  // namespace cod::server::detail
