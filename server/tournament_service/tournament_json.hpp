// A tournament as the organiser API shows it (docs/tournaments.md,
// "Organiser API"): configuration, players, rounds with their pairings,
// games and open rooms, standings, the organiser log, the champion.
#pragma once

#include <nlohmann/json.hpp>

#include "tournament_service/tournament_service.hpp"

namespace cod::server {

nlohmann::json tournament_to_json(const tournament_snapshot& s);
nlohmann::json standings_to_json(const tournaments::tournament& t);
nlohmann::json tournament_log_to_json(const tournaments::tournament& t);
// One line of GET /admin/api/tournaments.
nlohmann::json tournament_summary_json(const tournament_snapshot& s);

}  // namespace cod::server
