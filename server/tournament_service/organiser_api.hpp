// The organiser API (docs/tournaments.md): /admin/api/tournaments...,
// behind the admin token, its check and its access log (admin::api). Every
// act (create, start a round, drop, game loss, re-pair) is also in the
// tournament's own log, with the organiser's name ("organiser" in the body,
// default "organiser"), and in a spdlog line.
#pragma once

#include "admin/admin_api.hpp"
#include "common/environment.hpp"
#include "persist/match_store.hpp"
#include "tournament_service/tournament_service.hpp"

namespace cod::server {

class organiser_api final : public admin::organiser_routes {
 public:
  // All three must outlive this. `env`: the server's one (audit times).
  organiser_api(tournament_service& svc, match_store& store, environment& env) : svc_(svc), store_(store), env_(env) {}
  admin::response handle(const admin::request& req, std::string_view role, const std::vector<std::string>& seg,
                         const std::vector<std::pair<std::string, std::string>>& query) override;

 private:
  tournament_service& svc_;
  match_store& store_;
  environment& env_;
};

}  // namespace cod::server
