#include "account_service/player_pages.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <map>
#include <optional>

#include <nlohmann/json.hpp>

#include "admin/admin_search.hpp"
#include "admin/request_body.hpp"
#include "common/strcat.hpp"
#include "persist/rating_update.hpp"

namespace cod::server::accounts {

using admin::error_response;
using admin::ok_json;
using admin::response;
using detail::cat;
using nlohmann::json;

namespace {

constexpr int default_ladder_limit = 50;
// Each ladder row costs an account lookup (its name): a page stays small.
constexpr int max_ladder_limit = 100;
constexpr int history_size = 50;
constexpr int recent_matches = 20;
// The account's newest matches read in one listing: the recent ones and,
// nearly always, every match of the history (whose results it gives); a
// history match older than these is read alone.
constexpr int listing_window = 100;

// A player sees whole numbers, as on every ladder site; the deltas are the
// difference of the rounded numbers, so a page adds up.
long long shown(double v) { return std::llround(v); }

bool is_ladder(const std::string& l) { return l == "duel" || l == "ffa" || l == "2v2"; }

// win, loss, draw (the game ended without winners), none (the server ended
// it: aborted, voided...); null while playing.
json result_of(const std::optional<match_result>& r, int seat) {
  if (!r) return nullptr;
  if (std::find(r->winners.begin(), r->winners.end(), seat) != r->winners.end()) return "win";
  if (!r->winners.empty()) return "loss";
  return ended_by_the_game(r->reason) ? "draw" : "none";
}

std::optional<int> int_param(const std::string& v, int lo, int hi) {
  int n = 0;
  auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
  if (ec != std::errc{} || p != v.data() + v.size() || n < lo || n > hi) return std::nullopt;
  return n;
}

// The query's parameters, each of `allowed` at most once; else the 400.
bool params_of(const std::string& query, std::initializer_list<const char*> allowed, admin::params& out,
               response& err) {
  if (auto bad = admin::parse_query_string(query, out)) {
    err = error_response(400, bad->code, bad->message, bad->param);
    return false;
  }
  for (std::size_t i = 0; i < out.size(); ++i) {
    const std::string& k = out[i].first;
    if (std::none_of(allowed.begin(), allowed.end(), [&](const char* a) { return k == a; })) {
      err = error_response(400, "unknown_parameter", cat("unknown parameter '", k, "'"), k);
      return false;
    }
    for (std::size_t j = 0; j < i; ++j)
      if (out[j].first == k) {
        err = error_response(400, "bad_parameter", cat("'", k, "' is given twice"), k);
        return false;
      }
  }
  return true;
}

}  // namespace

response player_pages::handle(const admin::request& req, const std::vector<std::string>& seg,
                              const std::string& query) const {
  if (seg.size() != 2) return error_response(404, "not_found", "no such route (docs/accounts.md, \"Ladders and players\")");
  if (req.method != "GET" && req.method != "HEAD") return admin::method_not_allowed("GET");
  return seg[0] == "ladder" ? ladder(seg[1], query) : player(seg[1], query);
}

response player_pages::ladder(const std::string& ladder, const std::string& query) const {
  if (!is_ladder(ladder))
    return error_response(404, "no_such_ladder", cat("no ladder '", ladder, "' (duel, ffa, 2v2)"));
  admin::params p;
  response err;
  if (!params_of(query, {"offset", "limit"}, p, err)) return err;
  ladder_query q{.ladder = ladder, .established_only = true, .active_only = true, .offset = 0,
                 .limit = default_ladder_limit};
  for (const auto& [k, v] : p) {
    if (k == "offset") {
      auto n = int_param(v, 0, std::numeric_limits<int>::max() - max_ladder_limit - 1);
      if (!n) return error_response(400, "bad_parameter", cat("'offset' is a non-negative integer, not '", v, "'"), k);
      q.offset = *n;
    } else {
      auto n = int_param(v, 1, max_ladder_limit);
      if (!n)
        return error_response(400, "bad_parameter",
                              cat("'limit' is an integer from 1 to ", max_ladder_limit, ", not '", v, "'"), k);
      q.limit = *n;
    }
  }
  const int limit = q.limit;
  ++q.limit;  // one more than shown: is there a next page?
  auto rows = matches_.list_ladder(q);
  if (!rows) return admin::refusal_response(rows.error());
  json players = json::array();
  for (int i = 0; i < limit && i < static_cast<int>(rows->size()); ++i) {
    const rating_record& r = (*rows)[static_cast<std::size_t>(i)];
    auto who = accounts_.account_by_id(r.account_id);
    if (!who) return admin::refusal_response(who.error());
    // A rating names an account the store keeps (no row is ever removed).
    const std::string name = *who ? (*who)->name : cat("player ", r.account_id);
    players.push_back({{"rank", q.offset + i + 1},
                       {"id", r.account_id},
                       {"name", name},
                       {"rating", shown(r.display)},
                       {"deviation", shown(displayed_deviation(ladder, r.r))},
                       {"games", r.games},
                       {"wins", r.wins},
                       {"losses", r.losses}});
  }
  const bool more = static_cast<int>(rows->size()) > limit;
  response out = ok_json({{"ladder", ladder},
                          {"players", players},
                          {"offset", q.offset},
                          {"next_offset", more ? json(q.offset + limit) : json(nullptr)}});
  // Many read it, it changes only as rated matches end: a few seconds old is fine.
  out.headers.emplace_back("Cache-Control", "public, max-age=10");
  return out;
}

response player_pages::player(const std::string& raw_name, const std::string& query) const {
  admin::params p;
  response err;
  if (!params_of(query, {}, p, err)) return err;
  const auto name = admin::percent_decode(raw_name, false);
  if (!name) return error_response(400, "bad_path", "a malformed %-escape in the name");
  auto found = accounts_.account_by_name(*name);
  if (!found) return admin::refusal_response(found.error());
  // A deleted account's player asked to be gone: its games stay (as
  // "deleted player N" in others' matches), its page does not.
  if (!*found || (*found)->deleted) return error_response(404, "no_such_player", cat("no player '", *name, "'"));
  const account_record& a = **found;

  auto ratings = matches_.load_ratings(a.account_id);
  if (!ratings) return admin::refusal_response(ratings.error());
  auto history = matches_.rating_history(a.account_id, 0, history_size);
  if (!history) return admin::refusal_response(history.error());
  match_query mq;
  mq.account_id = a.account_id;
  mq.limit = listing_window;
  auto listing = matches_.list_matches(mq);
  if (!listing) return admin::refusal_response(listing.error());

  std::map<std::string, const match_summary*> listed;
  for (const match_summary& m : *listing) listed.emplace(m.match_id, &m);
  json ratings_out = json::array();
  for (const rating_record& r : *ratings)
    ratings_out.push_back({{"ladder", r.ladder},
                           {"rating", shown(r.display)},
                           {"deviation", shown(displayed_deviation(r.ladder, r.r))},
                           {"games", r.games},
                           {"wins", r.wins},
                           {"losses", r.losses},
                           {"provisional", provisional(r.ladder, r.r)}});

  auto delta_of = [](const rating_change_record& c) {
    return shown(displayed(c.ladder, c.after)) - shown(displayed(c.ladder, c.before));
  };
  std::map<std::string, long long> delta_by_match;
  json history_out = json::array();
  for (const rating_change_record& c : *history) {
    std::optional<match_result> result;
    if (auto it = listed.find(c.match_id); it != listed.end()) {
      result = it->second->result;
    } else {
      auto sm = matches_.load_match(c.match_id);
      if (!sm) return admin::refusal_response(sm.error());
      if (*sm) result = (*sm)->result;
    }
    delta_by_match[c.match_id] = delta_of(c);
    history_out.push_back({{"match_id", c.match_id},
                           {"ladder", c.ladder},
                           {"ended_ms", c.ended_ms},
                           {"before", shown(displayed(c.ladder, c.before))},
                           {"after", shown(displayed(c.ladder, c.after))},
                           {"delta", delta_of(c)},
                           {"result", result_of(result, c.seat)}});
  }

  json matches_out = json::array();
  for (int i = 0; i < recent_matches && i < static_cast<int>(listing->size()); ++i) {
    const match_summary& m = (*listing)[static_cast<std::size_t>(i)];
    const auto at = std::find(m.accounts.begin(), m.accounts.end(), a.account_id);
    const int seat = static_cast<int>(at - m.accounts.begin());
    json change = nullptr;
    if (auto it = delta_by_match.find(m.match_id); it != delta_by_match.end()) {
      change = it->second;
    } else if (m.result && static_cast<int>(history->size()) == history_size) {
      // The history was cut: a rated match may be older than its page.
      auto changes = matches_.match_rating_changes(m.match_id);
      if (!changes) return admin::refusal_response(changes.error());
      for (const rating_change_record& c : *changes)
        if (c.account_id == a.account_id) change = delta_of(c);
    }
    matches_out.push_back({{"match_id", m.match_id},
                           {"mode", m.mode},
                           {"ended_ms", m.result ? json(m.result->ended_ms) : json(nullptr)},
                           {"result", result_of(m.result, seat)},
                           {"rating_change", change}});
  }
  return ok_json({{"player", {{"id", a.account_id}, {"name", a.name}, {"guest", a.guest}, {"created_ms", a.created_ms}}},
                  {"ratings", ratings_out},
                  {"history", history_out},
                  {"matches", matches_out}});
}

}  // namespace cod::server::accounts
