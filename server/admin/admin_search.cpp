#include "admin/admin_search.hpp"

#include <charconv>
#include <limits>

#include <nlohmann/json.hpp>

#include "common/strcat.hpp"

namespace cod::server::admin {

using detail::cat;

namespace {

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

std::optional<std::string> percent_decode(std::string_view s, bool plus_is_space) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '+' && plus_is_space) {
      out += ' ';
    } else if (s[i] == '%') {
      if (i + 2 >= s.size()) return std::nullopt;
      const int hi = hex_value(s[i + 1]);
      const int lo = hex_value(s[i + 2]);
      if (hi < 0 || lo < 0) return std::nullopt;
      out += static_cast<char>(hi * 16 + lo);
      i += 2;
    } else {
      out += s[i];
    }
  }
  return out;
}

namespace {

std::optional<std::int64_t> parse_int(std::string_view v) {
  std::int64_t out = 0;
  auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), out);
  if (v.empty() || ec != std::errc{} || p != v.data() + v.size()) return std::nullopt;
  return out;
}

param_error bad(std::string param, std::string message) {
  return {"bad_parameter", std::move(param), std::move(message)};
}

}  // namespace

std::optional<param_error> parse_query_string(std::string_view qs, params& out) {
  while (!qs.empty()) {
    const auto amp = qs.find('&');
    const std::string_view part = qs.substr(0, amp);
    qs = amp == std::string_view::npos ? std::string_view{} : qs.substr(amp + 1);
    if (part.empty()) continue;
    const auto eq = part.find('=');
    auto name = percent_decode(part.substr(0, eq), true);
    auto value = percent_decode(eq == std::string_view::npos ? std::string_view{} : part.substr(eq + 1), true);
    if (!name || !value)
      return bad(std::string(part.substr(0, eq)), "malformed %-escape in the query string");
    out.emplace_back(std::move(*name), std::move(*value));
  }
  return std::nullopt;
}

std::optional<param_error> query_from_params(const params& p, match_query& q) {
  q = match_query{};
  q.limit = default_limit;
  std::vector<std::string> seen;
  for (const auto& [name, value] : p) {
    for (const auto& s : seen)
      if (s == name) return bad(name, cat("'", name, "' is given more than once"));
    seen.push_back(name);

    // An init-capture: clang 14 cannot capture a structured binding (the fuzz build).
    auto int_in = [&v = value](std::int64_t lo, std::int64_t hi) -> std::optional<std::int64_t> {
      auto n = parse_int(v);
      if (!n || *n < lo || *n > hi) return std::nullopt;
      return n;
    };
    constexpr std::int64_t big = std::numeric_limits<std::int64_t>::max();
    if (name == "player") {
      if (value.empty()) return bad(name, "'player' must not be empty");
      q.player = value;
    } else if (name == "mode") {
      if (value.empty()) return bad(name, "'mode' must not be empty");
      q.mode = value;
    } else if (name == "status") {
      if (value != "playing" && value != "finished")
        return bad(name, cat("'status' is playing or finished, not '", value, "'"));
      q.status = value;
    } else if (name == "winner") {
      auto n = int_in(0, 3);
      if (!n) return bad(name, cat("'winner' is a seat from 0 to 3, not '", value, "'"));
      q.winner = static_cast<int>(*n);
    } else if (name == "from" || name == "to") {
      auto n = int_in(0, big);
      if (!n) return bad(name, cat("'", name, "' is a time in milliseconds since the Unix epoch, not '", value, "'"));
      (name == "from" ? q.created_from_ms : q.created_to_ms) = *n;
    } else if (name == "limit") {
      auto n = int_in(1, max_limit);
      if (!n) return bad(name, cat("'limit' is an integer from 1 to ", max_limit, ", not '", value, "'"));
      q.limit = static_cast<int>(*n);
    } else if (name == "offset") {
      auto n = int_in(0, std::numeric_limits<int>::max());
      if (!n) return bad(name, cat("'offset' is a non-negative integer, not '", value, "'"));
      q.offset = static_cast<int>(*n);
    } else if (name == "before") {
      // "<created_ms>:<match_id>", as cursor_after writes it.
      const auto colon = value.find(':');
      auto ms = colon == std::string::npos ? std::nullopt : parse_int(std::string_view(value).substr(0, colon));
      if (!ms || *ms < 0 || colon + 1 >= value.size())
        return bad(name, cat("'before' is a cursor \"<created_ms>:<match_id>\" (a listing's \"next\"), not '",
                             value, "'"));
      q.has_before = true;
      q.before_created_ms = *ms;
      q.before_match_id = value.substr(colon + 1);
    } else if (name == "tournament") {
      // The matches that played this tournament's games (tournament_matches).
      if (value.empty() || value.size() > 64) return bad(name, "'tournament' is a tournament id (1 to 64 characters)");
      q.tournament = value;
    } else {
      return param_error{"unknown_parameter", name,
                         cat("unknown parameter '", name,
                             "' (player, mode, status, winner, tournament, from, to, limit, offset, before)")};
    }
  }
  if (q.created_to_ms != 0 && q.created_to_ms <= q.created_from_ms)
    return bad("to", "'to' must be later than 'from' (the range is from <= created_ms < to)");
  if (q.winner >= 0 && q.status == "playing")
    return bad("winner", "'winner' selects finished matches; it cannot be combined with status=playing");
  return std::nullopt;
}

std::string cursor_after(const match_summary& m) { return cat(m.created_ms, ':', m.match_id); }

nlohmann::json summary_to_json(const match_summary& m) {
  nlohmann::json players = nlohmann::json::array();
  for (std::size_t i = 0; i < m.names.size(); ++i) players.push_back({{"seat", i}, {"name", m.names[i]}});
  nlohmann::json result = nullptr;
  if (m.result)
    result = {{"winners", m.result->winners}, {"reason", m.result->reason}, {"ended_ms", m.result->ended_ms}};
  return {{"match_id", m.match_id}, {"room_id", m.room_id},     {"mode", m.mode},
          {"format", m.format},     {"status", m.status},       {"created_ms", m.created_ms},
          {"players", players},     {"actions", m.actions},     {"result", result}};
}

nlohmann::json listing_to_json(const std::vector<match_summary>& found, const match_query& q) {
  nlohmann::json list = nlohmann::json::array();
  for (const auto& m : found) list.push_back(summary_to_json(m));
  nlohmann::json next = nullptr;
  if (!found.empty() && static_cast<int>(found.size()) >= q.limit) next = cursor_after(found.back());
  return {{"matches", list}, {"count", found.size()}, {"limit", q.limit}, {"offset", q.offset}, {"next", next}};
}

}  // namespace cod::server::admin
