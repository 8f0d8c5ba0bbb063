// The accounts' HTTP routes (docs/accounts.md, with curl examples):
//
//   players, under /api/ (a session token in "Authorization: Bearer ..."
//   where a route needs one):
//     POST   /api/register          {"name", "password"}            201 {account, session}
//     POST   /api/guest             {}                              201 {account, session}
//     POST   /api/login             {"name", "password"}            200 {account, session}
//     POST   /api/claim             {"name", "password"}     Bearer 200 {account}
//     POST   /api/logout                                     Bearer 200 {}
//     GET    /api/me                                         Bearer 200 {account, session}
//     GET    /api/sessions                                   Bearer 200 {sessions}
//     DELETE /api/sessions/{id}                              Bearer 200 {}
//     POST   /api/password          {"old_password", "new_password"} Bearer 200 {account, session}
//     DELETE /api/account           {"password"}             Bearer 200 {}
//     GET    /api/ladder/{ladder}?offset&limit                       200 {ladder, players, offset, next_offset}
//     GET    /api/players/{name}                                     200 {player, ratings, history, matches}
//   (the last two public: player_pages.hpp)
//
//   admins, under /admin/api/accounts (the admin token; admin_api.hpp):
//     GET    /admin/api/accounts?name=PREFIX&limit=N                200 {accounts}
//     POST   /admin/api/accounts/{id}/disable | enable | revoke_sessions
//
// Bodies are JSON objects with only the listed fields. Errors are
// {"error": code, "message": ..., "param"?: ...} like the admin API's.
// handle() blocks (argon2id, the store): run it on the account workers.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "account_service/account_service.hpp"
#include "account_service/player_pages.hpp"
#include "admin/admin_api.hpp"

namespace cod::server::accounts {

// True for the targets the players' routes answer (/api/ and below).
bool is_account_target(std::string_view target);

class account_api {
 public:
  // `pages`: the ladders and players' pages; none (404) when null.
  explicit account_api(account_service& svc, const player_pages* pages = nullptr) : svc_(svc), pages_(pages) {}
  // `req.remote` is "ip:port" (the client's address behind a trusted proxy).
  admin::response handle(const admin::request& req) const;

 private:
  account_service& svc_;
  const player_pages* pages_;
};

// /admin/api/accounts..., behind the admin API's token check (admin only).
class account_admin_routes final : public admin::organiser_routes {
 public:
  explicit account_admin_routes(account_service& svc) : svc_(svc) {}
  admin::response handle(const admin::request& req, std::string_view role, const std::vector<std::string>& seg,
                         const std::vector<std::pair<std::string, std::string>>& query) override;

 private:
  account_service& svc_;
};

}  // namespace cod::server::accounts
