// The organiser API of mutation leagues (docs/league.md): /admin/api/leagues...,
// behind the admin or organiser token, its check and its access log
// (admin::api), like the tournaments'. Every act is also a spdlog line with
// the organiser's name ("organiser" in the body, default "organiser").
#pragma once

#include "admin/admin_api.hpp"
#include "common/environment.hpp"
#include "league_service/league_service.hpp"
#include "persist/match_store.hpp"

namespace cod::server {

class league_api final : public admin::organiser_routes {
 public:
  // All three must outlive this. `env`: the server's one (audit times).
  league_api(league_service& svc, match_store& store, environment& env) : svc_(svc), store_(store), env_(env) {}
  admin::response handle(const admin::request& req, std::string_view role, const std::vector<std::string>& seg,
                         const std::vector<std::pair<std::string, std::string>>& query) override;

 private:
  league_service& svc_;
  match_store& store_;
  environment& env_;
};

}  // namespace cod::server
