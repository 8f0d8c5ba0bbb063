#include "admin/admin_api.hpp"

#include <charconv>
#include <string>

#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include "admin/admin_search.hpp"
#include "admin/match_report.hpp"
#include "common/constant_time.hpp"
#include "common/sha256.hpp"
#include "common/strcat.hpp"
#include "replay/recovery.hpp"

namespace cod::server::admin {

using detail::cat;
using nlohmann::json;

response error_response(int status, std::string code, std::string message, std::string param) {
  response r;
  r.status = status;
  json body = {{"error", code}, {"message", message}};
  if (!param.empty()) body["param"] = param;
  r.body = body.dump();
  r.code = std::move(code);
  return r;
}

response moving_response(std::string_view kind, const std::string& id) {
  response r = error_response(503, std::string(kind) + "_moving",
                              std::string(kind) + " " + id +
                                  " is moving to this node (its node is away, or handing it over): retry in a moment");
  r.headers.emplace_back("Retry-After", "1");
  return r;
}

response refusal_response(const status& st) {
  int http = 500;
  switch (st.error_code()) {
    case status::code::invalid: http = 400; break;
    case status::code::not_found: http = 404; break;
    case status::code::conflict: http = 409; break;
    case status::code::unavailable: http = 503; break;
    case status::code::ok:
    case status::code::io_error: http = 500; break;
  }
  response r = error_response(http, st.reason().empty() ? status_code_name(st.error_code()) : st.reason(), st.message(),
                              st.field());
  if (http == 503) r.headers.emplace_back("Retry-After", "1");
  return r;
}

namespace {

constexpr std::string_view api_prefix = "/admin/api/";

response bad_param(const param_error& e) { return error_response(400, e.code, e.message, e.param); }

response ok_json(const json& j) {
  response r;
  r.body = j.dump();
  return r;
}

// Both sides hashed first: the comparison then always runs over the same
// length, whatever the tokens' lengths.
bool same_token(std::string_view given, std::string_view expected) {
  return constant_time_equal(sha256_hex(given), sha256_hex(expected));
}

// "Bearer <token>" (the scheme is case-insensitive, RFC 7235); "" otherwise.
std::string bearer_token(std::string_view header) {
  constexpr std::string_view scheme = "bearer ";
  if (header.size() <= scheme.size()) return {};
  for (std::size_t i = 0; i < scheme.size(); ++i) {
    char c = header[i];
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    if (c != scheme[i]) return {};
  }
  std::string_view t = header.substr(scheme.size());
  while (!t.empty() && t.front() == ' ') t.remove_prefix(1);
  while (!t.empty() && (t.back() == ' ' || t.back() == '\t')) t.remove_suffix(1);
  return std::string(t);
}

// The path's segments after /admin/api/, each %-decoded; false when an
// escape is malformed. A trailing slash gives an empty last segment (404).
bool split_path(std::string_view path, std::vector<std::string>& out) {
  path.remove_prefix(api_prefix.size());
  for (;;) {
    const auto slash = path.find('/');
    auto seg = percent_decode(path.substr(0, slash), false);
    if (!seg) return false;
    out.push_back(std::move(*seg));
    if (slash == std::string_view::npos) return true;
    path.remove_prefix(slash + 1);
  }
}

// The parameters an endpoint takes; anything else is a 400 (a typo never
// silently changes what is returned).
std::optional<param_error> only(const params& p, std::initializer_list<std::string_view> allowed) {
  for (const auto& [name, value] : p) {
    bool known = false;
    for (auto a : allowed) known = known || a == name;
    if (!known) {
      std::string list;
      for (auto a : allowed) list += cat(list.empty() ? "" : ", ", a);
      return param_error{"unknown_parameter", name,
                         cat("unknown parameter '", name, "'", list.empty() ? std::string(" (this endpoint takes none)")
                                                                            : cat(" (this endpoint takes ", list, ")"))};
    }
  }
  return std::nullopt;
}

const std::string* find_param(const params& p, std::string_view name) {
  for (const auto& [n, v] : p)
    if (n == name) return &v;
  return nullptr;
}

}  // namespace

void audit_live_read(match_store& store, std::string_view role, const request& req, const std::string& match_id,
                     std::string_view route, std::int64_t at_ms) {
  // A warning: never filtered at the default level, and easy to grep ("audit:").
  spdlog::warn("audit: {} at {} read match {} while it is played ({}): {} {} (at_ms {})", role, req.remote, match_id,
               route, req.method, req.target, at_ms);
  const audit_record row{at_ms, std::string(role), req.remote, match_id, std::string(route),
                         cat(req.method, " ", req.target)};
  store.record_audit(row, [match_id](const status& st) {
    if (!st)
      spdlog::error("audit: the audit row for match {} could not be stored (the line above stands): {}", match_id,
                    st.message());
  });
}

// Only the API: the rest of /admin/ is the browser admin page (static files).
bool is_admin_target(std::string_view target) {
  return target == "/admin/api" || target.substr(0, 11) == "/admin/api/" || target.substr(0, 11) == "/admin/api?";
}

api::api(std::string token, const catalogue& cards, match_store& store, environment& env,
         std::string organiser_token, guard_limits limits)
    : token_(std::move(token)),
      organiser_token_(std::move(organiser_token)),
      cards_(cards),
      store_(store),
      env_(env),
      guard_(limits) {}

namespace {
// The organiser API's targets: /admin/api/tournaments, /admin/api/leagues and below.
bool is_organiser_target(std::string_view target) {
  const std::string_view path = target.substr(0, target.find('?'));
  for (std::string_view root : {std::string_view("/admin/api/tournaments"), std::string_view("/admin/api/leagues")})
    if (path.substr(0, root.size()) == root && (path.size() == root.size() || path[root.size()] == '/')) return true;
  return false;
}
}  // namespace

response api::handle(const request& req, clock::time_point now) const {
  guard_.tick(now);  // a summary of refusals from an interval that is over comes first
  const std::string address = address_of(req.remote);
  response r;
  // Who is asking: "admin", "organiser", or "-" (refused before knowing).
  std::string_view who = "-";
  if (!enabled()) {
    r = error_response(403, "admin_disabled",
                       "the admin API is disabled: set admin_token or organiser_token (docs/admin.md)");
  } else if (const int wait = guard_.retry_after(address, now); wait > 0) {
    // Before the token check: a guesser learns nothing more until the window ends.
    r = error_response(429, "too_many_requests",
                       cat("too many failed authentications from ", address, "; retry in ", wait, " s"));
    r.headers.emplace_back("Retry-After", std::to_string(wait));
    guard_.throttled();
  } else if (req.authorization.empty()) {
    r = error_response(401, "unauthorized", "missing \"Authorization: Bearer <token>\" header");
  } else if (const std::string t = bearer_token(req.authorization); t.empty()) {
    r = error_response(401, "unauthorized", "wrong token");
  } else if (!token_.empty() && same_token(t, token_)) {
    who = "admin";
  } else if (!organiser_token_.empty() && same_token(t, organiser_token_)) {
    who = "organiser";
    if (!is_organiser_target(req.target))
      r = error_response(403, "forbidden",
                         "the organiser token opens only /admin/api/tournaments and /admin/api/leagues "
                         "(docs/tournaments.md, docs/league.md)");
  } else {
    r = error_response(401, "unauthorized", "wrong token");
  }
  const bool auth_failed = r.status == 401;  // only the token check answers 401 (before routing)
  if (auth_failed) guard_.failed(address, now);
  else if (who != "-") guard_.succeeded(address);
  if (who != "-" && r.status == 200) {
    try {
      r = route(req, who);
    } catch (const persist_error& e) {
      spdlog::error("admin: storage error on {} {}: {}", req.method, req.target, e.what());
      r = error_response(500, "storage_error", cat("the database could not be read: ", e.what()));
    } catch (const std::exception& e) {
      spdlog::error("admin: internal error on {} {}: {}", req.method, req.target, e.what());
      r = error_response(500, "internal_error", e.what());
    }
  }
  if (r.status == 401) r.headers.emplace_back("WWW-Authenticate", "Bearer realm=\"cod-admin\"");
  // The access log: who, what, outcome. The token is never logged.
  // "admin: 10.1.2.3:4567 as organiser: POST /admin/api/tournaments -> 201 ok"
  const std::string as = who == "-" ? std::string() : cat(" as ", who, ":");
  // Refusals through the guard: a flood of them is summarised, not logged
  // line by line.
  if (r.status == 401 || r.status == 403 || r.status == 429)
    guard_.refused(address,
                   cat("admin: ", req.remote, as, " ", req.method, " ", req.target, " refused: ", r.status, " ", r.code),
                   now);
  else
    spdlog::info("admin: {}{} {} {} -> {} {}", req.remote, as, req.method, req.target, r.status, r.code);
  return r;
}

response api::route(const request& req, std::string_view who) const {
  std::string_view target = req.target;
  std::string_view query;
  if (auto q = target.find('?'); q != std::string_view::npos) {
    query = target.substr(q + 1);
    target = target.substr(0, q);
  }
  if (target.substr(0, api_prefix.size()) != api_prefix)
    return error_response(404, "not_found", "no such admin endpoint; the API is under /admin/api/ (docs/admin.md)");
  std::vector<std::string> seg;
  if (!split_path(target, seg)) return error_response(400, "bad_path", "malformed %-escape in the path");
  // The organiser API (docs/tournaments.md): its own methods (POST for acts).
  if (!seg.empty() && seg[0] == "tournaments") {
    if (!tournaments_) return error_response(404, "not_found", "this server runs no tournaments");
    params p;
    if (auto e = parse_query_string(query, p)) return bad_param(*e);
    return tournaments_->handle(req, who, seg, p);
  }
  if (!seg.empty() && seg[0] == "leagues") {
    if (!leagues_) return error_response(404, "not_found", "this server runs no leagues");
    params p;
    if (auto e = parse_query_string(query, p)) return bad_param(*e);
    return leagues_->handle(req, who, seg, p);
  }
  // Player accounts (docs/accounts.md, "Admins"): the admin token only.
  if (!seg.empty() && seg[0] == "accounts") {
    if (!accounts_) return error_response(404, "not_found", "this server has no accounts");
    params p;
    if (auto e = parse_query_string(query, p)) return bad_param(*e);
    return accounts_->handle(req, who, seg, p);
  }
  if (req.method != "GET" && req.method != "HEAD") {
    response r = error_response(405, "method_not_allowed", "the admin API is read-only: GET (or HEAD)");
    r.headers.emplace_back("Allow", "GET, HEAD");
    return r;
  }
  params p;
  if (auto e = parse_query_string(query, p)) return bad_param(*e);

  // GET /admin/api/matches
  if (seg.size() == 1 && seg[0] == "matches") {
    match_query q;
    if (auto e = query_from_params(p, q)) return bad_param(*e);
    return ok_json(listing_to_json(read_for_route(store_.reader().list_matches(q)), q));
  }
  if (seg.size() < 2 || seg.size() > 4 || seg[0] != "matches" || seg[1].empty())
    return error_response(404, "not_found", "no such admin endpoint (docs/admin.md)");
  const std::string& id = seg[1];
  const std::string what = seg.size() >= 3 ? seg[2] : "";
  const std::string sub = seg.size() == 4 ? seg[3] : "";
  const bool known = (seg.size() == 2) || (seg.size() == 3 && (what == "log" || what == "state" || what == "verify" ||
                                                               what == "export" || what == "draft")) ||
                     (seg.size() == 4 && what == "log" && sub == "raw");
  if (!known) return error_response(404, "not_found", "no such admin endpoint (docs/admin.md)");

  // Parameters first: a bad request is a 400 whether or not the match exists.
  if (what == "log" && sub.empty()) {
    if (auto e = only(p, {"format"})) return bad_param(*e);
    if (auto f = find_param(p, "format"); f && *f != "json" && *f != "text")
      return error_response(400, "bad_parameter", cat("'format' is json or text, not '", *f, "'"), "format");
  } else if (what == "state") {
    if (auto e = only(p, {"step"})) return bad_param(*e);
    if (!find_param(p, "step"))
      return error_response(400, "bad_parameter", "'step' is required (0: after the setup)", "step");
  } else if (auto e = only(p, {})) {
    return bad_param(*e);
  }

  const auto sm = read_for_route(store_.reader().load_match(id));
  if (!sm) return error_response(404, "no_such_match", cat("no match '", id, "'"));
  response r = read_match(*sm, what, sub, p);
  // Every document of a match being played shows something its players do
  // not see (decks, hands, picks, the replay): who read it is audited.
  if (!sm->finished() && r.status == 200)
    audit_live_read(store_, who, req, id, what.empty() ? std::string("record") : sub.empty() ? what : cat(what, "/", sub),
                    env_.wall_ms());
  return r;
}

response api::read_match(const stored_match& sm, const std::string& what, const std::string& sub,
                         const params& p) const {
  const std::string& id = sm.match.match_id;
  if (what.empty()) return ok_json(record_to_json(sm));
  if (what == "export") return ok_json(export_match(sm));
  if (what == "draft") {
    // Drafted formats only (draft, instant_constructed): their draft_events.
    if (!has_draft_record(sm))
      return error_response(
          404, "no_draft_record",
          cat("no draft record for match '", id, "': its format '", sm.match.format, "' is not drafted"));
    return ok_json(draft_to_json(cards_, sm));
  }
  if (what == "verify") return ok_json(verify_to_json(sm, verify(cards_, sm)));
  if (what == "log" && sub == "raw") return ok_json(raw_log_to_json(sm));
  if (what == "log") {
    const match_log log = render_log(cards_, sm);
    const std::string* f = find_param(p, "format");
    if (f && *f == "text") {
      response r;
      r.content_type = "text/plain; charset=utf-8";
      r.body = log_to_text(sm, log);
      return r;
    }
    return ok_json(log_to_json(sm, log));
  }
  // state
  const std::string& step_text = *find_param(p, "step");
  std::int64_t step = -1;
  {
    const char* b = step_text.data();
    const char* e = b + step_text.size();
    auto [ptr, ec] = std::from_chars(b, e, step);
    if (step_text.empty() || ec != std::errc{} || ptr != e || step < 0)
      return error_response(400, "bad_parameter",
                            cat("'step' is an action number from 0 to ", sm.actions.size(), ", not '", step_text, "'"),
                            "step");
  }
  state_result s = state_at(cards_, sm, step);
  if (s.bad_step) return error_response(400, "bad_parameter", s.error, "step");
  if (!s.ok) return error_response(422, "replay_failed", s.error);
  return ok_json(s.body);
}

}  // namespace cod::server::admin
