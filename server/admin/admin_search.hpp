// Match search as the admin API and cod-admin take it: one set of parameter
// names and checks for both front-ends (docs/admin.md, "Search").
//
//   player, mode, status (playing|finished), winner (seat), from, to
//   (created_ms bounds), limit, offset, before (a cursor from "next"),
//   tournament (the matches of its games, through tournament_matches).
//
// Pure; no I/O.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "persist/match_store.hpp"

namespace cod::server::admin {

using params = std::vector<std::pair<std::string, std::string>>;

// A parameter the caller got wrong; the API answers 400 with it.
struct param_error {
  std::string code;     // "bad_parameter" | "unknown_parameter" | "unsupported_filter"
  std::string param;    // the parameter's name
  std::string message;  // a sentence
};

inline constexpr int default_limit = 50;
inline constexpr int max_limit = 1000;

// %XX escapes decoded ('+' too, as a space, in a query string); nullopt
// when an escape is malformed.
std::optional<std::string> percent_decode(std::string_view s, bool plus_is_space);

// "a=1&b=x%20y" -> {{"a","1"},{"b","x y"}}. '+' is a space. nullopt and a
// param_error when a %-escape is malformed.
std::optional<param_error> parse_query_string(std::string_view qs, params& out);

// Fills `q` from search parameters; the first problem otherwise. A name given
// twice is an error (which one would win is not obvious).
std::optional<param_error> query_from_params(const params& p, match_query& q);

// The cursor that continues a listing after `m`: "<created_ms>:<match_id>".
std::string cursor_after(const match_summary& m);

// One listed match as JSON (docs/admin.md): match_id, room_id, mode, format,
// status, created_ms, players [{seat, name}], actions, result | null.
nlohmann::json summary_to_json(const match_summary& m);
// {"matches": [...], "count", "limit", "offset", "next": cursor | null}.
// "next" is set when the page is full (there may be more).
nlohmann::json listing_to_json(const std::vector<match_summary>& found, const match_query& q);

}  // namespace cod::server::admin
