// The admin HTTP API under /admin/api/ (docs/admin.md), without the HTTP
// machinery: http_session hands it the method, target, Authorization header
// and peer address, and writes back what it returns. Tests call it directly.
//
// Access: every request needs "Authorization: Bearer <token>", compared in
// constant time. Two tokens, two roles: the admin token opens everything; the
// organiser token opens only the organiser API (/admin/api/tournaments...),
// and gets 403 forbidden elsewhere, so a tournament organiser never reads
// other players' match logs. An empty token disables its role; with both
// empty the API answers 403 admin_disabled. Every request, accepted or
// refused, is logged through spdlog with the role (who), the peer address,
// method, target and outcome (never the token); refused ones at most a few
// per interval, the rest summarised (refusal_guard.hpp). An address that
// failed authentication too often gets 429 too_many_requests, its token
// unchecked, until its window ends.
//
// handle() blocks (SQLite reads, replays through the engine): call it off the
// io threads. Thread-safe.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "admin/refusal_guard.hpp"
#include "cod/engine/catalogue.hpp"
#include "common/environment.hpp"
#include "persist/match_store.hpp"

namespace cod::server::admin {

struct request {
  std::string method{};         // "GET"
  std::string target{};         // "/admin/api/matches?player=ann"
  std::string authorization{};  // the Authorization header's value; "" when absent
  std::string remote{};         // the peer, "127.0.0.1:50312" (for the access log)
  std::string body{};           // POST bodies (the organiser API)
};

struct response {
  int status = 200;
  std::string content_type = "application/json";
  std::string body{};
  std::string code = "ok";  // the error code of the body, "ok" on success (logs, tests)
  std::vector<std::pair<std::string, std::string>> headers{};  // extra ones (WWW-Authenticate)
};

// An error answer: a JSON body {"error": code, "message": message}, with
// "param" when given, and `code` for the access log. The tournament routes
// answer their errors the same way.
response error_response(int status, std::string code, std::string message, std::string param = {});

// An organiser's act on an event (`kind`: "tournament", "league") that is
// moving to this node and not yet run here (docs/cluster.md): 503
// "<kind>_moving" with Retry-After: 1, so the organiser's client retries.
response moving_response(std::string_view kind, const std::string& id);

// A service's refusal (a server::status that is not ok) as an error answer:
// the HTTP status from the code (invalid 400, not_found 404, conflict 409,
// unavailable 503 with Retry-After: 1, io_error 500), "error" the status's
// reason (else the code's name), "param" its field. The services say what
// went wrong; only the *_api.cpp files speak HTTP.
response refusal_response(const status& st);

// Audit (docs/admin.md, "Audit"): `role` ("admin", "organiser") read match
// `match_id`, which is still being played, through `route` ("state",
// "export", ...; each shows the players' hidden information: decks, hands,
// picks). Logs one "audit:" warning (who, peer, which match, what, when)
// and adds an audit row through the store (match_store::record_audit).
void audit_live_read(match_store& store, std::string_view role, const request& req, const std::string& match_id,
                     std::string_view route, std::int64_t at_ms);

// A read of the store for a route: its value, or persist_error with the
// store's sentence, which the routes' one catch answers 500 storage_error
// (admin_api.cpp, api::handle): a route reads as if the store could not fail.
template <class T>
T read_for_route(result<T> r) {
  if (!r) throw persist_error(r.error().message());
  return std::move(*r);
}

// True for the targets the admin API answers (everything under /admin/api/;
// the rest of /admin/ is the browser admin page).
bool is_admin_target(std::string_view target);

// An organised event's routes, /admin/api/tournaments... and
// /admin/api/leagues... (and the admins' /admin/api/accounts...): answered by its service's API
// (server/tournament_service/organiser_api.hpp,
// server/league_service/league_api.hpp) behind the same token check and
// access log. `seg`: the path's segments after /admin/api/.
class organiser_routes {
 public:
  virtual ~organiser_routes() = default;
  // `role`: whose token opened it, "admin" or "organiser" (logs, audit).
  virtual response handle(const request& req, std::string_view role, const std::vector<std::string>& seg,
                          const std::vector<std::pair<std::string, std::string>>& query) = 0;
};

class api {
 public:
  using clock = refusal_guard::clock;
  // `cards`, `store` and `env` must outlive the api. `env`: the server's one
  // (audit times). `organiser_token`: see above.
  api(std::string token, const catalogue& cards, match_store& store, environment& env,
      std::string organiser_token = {}, guard_limits limits = {});

  bool enabled() const { return !token_.empty() || !organiser_token_.empty(); }
  // Before serving; must outlive the api. Without it, /admin/api/tournaments is 404.
  void set_tournaments(organiser_routes* t) { tournaments_ = t; }
  // The same for /admin/api/leagues (server/league_service/league_api.hpp).
  void set_leagues(organiser_routes* l) { leagues_ = l; }
  // The same for /admin/api/accounts (server/account_service/account_api.hpp;
  // the admin token only, never the organiser's).
  void set_accounts(organiser_routes* a) { accounts_ = a; }
  response handle(const request& req) const { return handle(req, clock::now()); }
  // `now`: the brute-force guard's and the refusal log's time (tests).
  response handle(const request& req, clock::time_point now) const;

  // For /metrics: refused requests (401, 403, 429) and the 429s among them.
  std::uint64_t refused_total() const { return guard_.refused_total(); }
  std::uint64_t throttled_total() const { return guard_.throttled_total(); }

 private:
  response route(const request& req, std::string_view who) const;
  // A stored match's documents (the routes under /matches/{id}).
  response read_match(const stored_match& sm, const std::string& what, const std::string& sub,
                      const std::vector<std::pair<std::string, std::string>>& p) const;

  std::string token_;
  std::string organiser_token_;
  const catalogue& cards_;
  match_store& store_;
  environment& env_;
  organiser_routes* tournaments_ = nullptr;
  organiser_routes* leagues_ = nullptr;
  organiser_routes* accounts_ = nullptr;
  // Its own mutex: handle() stays const and thread-safe.
  mutable refusal_guard guard_;
};

}  // namespace cod::server::admin
