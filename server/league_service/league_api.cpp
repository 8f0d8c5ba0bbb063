#include "league_service/league_api.hpp"

#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include "admin/match_report.hpp"
#include "admin/request_body.hpp"
#include "cod/protocol/mutation_json.hpp"
#include "cod/protocol/room_config.hpp"
#include "common/strcat.hpp"

namespace cod::server {

using admin::error_response;
using admin::get_field;
using admin::method_not_allowed;
using admin::moving_response;
using admin::ok_json;
using admin::only_keys;
using detail::cat;
using nlohmann::json;

namespace {


// POST /leagues (docs/league.md, "Creating a league").
admin::response create(league_service& svc, const json& body, const std::string& actor) {
  admin::response err;
  if (!only_keys(body, {"name", "players", "packs", "exhaustion", "turn_clock", "phase_clock_sec", "costs", "seed",
                        "organiser"},
                 err))
    return err;
  league_settings s;
  if (!get_field(body, "name", s.name, err) || !get_field(body, "exhaustion", s.exhaustion, err) ||
      !get_field(body, "phase_clock_sec", s.phase_clock_sec, err))
    return err;
  if (!body.contains("name")) s.name = "mutation league";
  std::vector<std::string> names;
  auto players = body.find("players");
  if (players == body.end() || !players->is_array())
    return error_response(400, "invalid_players", "'players' is an array of 4 names", "players");
  for (const auto& p : *players) {
    if (!p.is_string()) return error_response(400, "invalid_players", "'players' is an array of 4 names", "players");
    names.push_back(p.get<std::string>());
  }
  auto packs = body.find("packs");
  if (packs == body.end() || !packs->is_array())
    return error_response(400, "invalid_config", "'packs' is an array of two pack names (R15.1)", "packs");
  for (const auto& p : *packs) {
    if (!p.is_string()) return error_response(400, "invalid_config", "'packs' is an array of two pack names", "packs");
    s.packs.push_back(p.get<std::string>());
  }
  if (auto tc = body.find("turn_clock"); tc != body.end() && !tc->is_null()) {
    // The rooms' own check: the same limits as create_room's turn_clock.
    protocol::room_options o;
    if (auto e = protocol::room_options_from_json(json{{"turn_clock", *tc}}, o))
      return error_response(400, "invalid_config", e->message, "turn_clock");
    s.clock = o.clock;
  }
  if (auto c = body.find("costs"); c != body.end() && !c->is_null()) {
    auto costs = protocol::mutation_costs_from_json(*c);
    if (!costs.ok()) return error_response(400, "invalid_config", "costs." + costs.error, "costs");
    s.costs = costs.costs;
  }
  bool seed_given = false;
  if (!admin::seed_of(body, s.seed, seed_given, err)) return err;
  league_service::created out;
  if (status st = svc.create(s, names, seed_given, actor, out); !st) return admin::refusal_response(st);
  json ps = json::array();
  for (std::size_t i = 0; i < names.size(); ++i) ps.push_back({{"seat", i}, {"name", names[i]}, {"token", out.tokens[i]}});
  return ok_json({{"league", out.id},
                  {"players", std::move(ps)},
                  {"note", "the join tokens are shown once: hand each player theirs"}},
                 201);
}

// POST /leagues/ID/result {table, winner: seat | name | null, reason}.
admin::response record_result(league_service& svc, const std::string& id, const json& body, const json& view,
                       const std::string& actor) {
  admin::response err;
  if (!only_keys(body, {"table", "winner", "reason", "organiser"}, err)) return err;
  int table = -1;
  std::string reason;
  if (!get_field(body, "table", table, err) || !get_field(body, "reason", reason, err)) return err;
  if (!body.contains("table")) return error_response(400, "missing_field", "'table' (0 or 1) is required", "table");
  auto w = body.find("winner");
  if (w == body.end())
    return error_response(400, "missing_field", "'winner' (a seat, a name, or null: nobody won) is required", "winner");
  seat_t winner = no_seat;
  if (w->is_number_integer()) {
    const auto v = w->get<long long>();
    if (v < 0 || v >= league_players) return error_response(400, "unknown_player", cat("no seat ", v), "winner");
    winner = static_cast<seat_t>(v);
  } else if (w->is_string()) {
    bool found = false;
    for (const auto& p : view.at("players"))
      if (p.at("name") == *w) {
        winner = p.at("seat").get<seat_t>();
        found = true;
      }
    if (!found) return error_response(400, "unknown_player", cat("no player named '", w->get<std::string>(), "'"), "winner");
  } else if (!w->is_null()) {
    return error_response(400, "bad_field_type", "'winner' is a seat, a name, or null", "winner");
  }
  if (status st = svc.record_result(id, table, winner, actor, reason.empty() ? "no reason given" : reason); !st)
    return admin::refusal_response(st);
  return ok_json(*svc.summary(id));
}

}  // namespace

admin::response league_api::handle(const admin::request& req, std::string_view role, const std::vector<std::string>& seg,
                                   const std::vector<std::pair<std::string, std::string>>& query) {
  const bool get = req.method == "GET" || req.method == "HEAD";
  const bool post = req.method == "POST";
  if (!query.empty())
    return error_response(400, "unknown_parameter", "the league API takes no query parameters", query[0].first);
  json body = json::object();
  if (post) {
    admin::response err;
    if (!admin::parse_body(req.body, body, err)) return err;
  }
  const std::string actor = admin::actor_of(body);
  if (seg.size() == 1) {
    if (post) {
      auto r = create(svc_, body, actor);
      spdlog::info("organiser: {} ({}) create league -> {} {}", actor, req.remote, r.status, r.code);
      return r;
    }
    if (!get) return method_not_allowed("GET, POST");
    return ok_json({{"leagues", svc_.list()}});
  }
  const std::string& id = seg[1];
  bool moving = false;  // a cluster node's stored copy of a league it is asked to run (summary)
  const auto view = svc_.summary(id, &moving);
  if (!view) return error_response(404, "no_such_league", cat("no league '", id, "'"));
  if (seg.size() == 2) {
    if (!get) return method_not_allowed("GET");
    return ok_json(*view);
  }
  if (seg.size() != 3) return error_response(404, "not_found", "no such league endpoint (docs/league.md)");
  const std::string& what = seg[2];
  if (what == "standings") {
    if (!get) return method_not_allowed("GET");
    return ok_json({{"league", id}, {"stage", view->at("stage")}, {"round", view->at("round")},
                    {"standings", view->at("players")}});
  }
  if (what == "export") {
    if (!get) return method_not_allowed("GET");
    // Everything (every pick, deck, lab, mutation, result) and every match
    // its duels were played in; a match still being played is audited.
    json matches = json::array();
    for (const auto& m : svc_.match_ids(id)) {
      if (auto sm = admin::read_for_route(store_.reader().load_match(m))) {
        matches.push_back(admin::export_match(*sm));
        if (!sm->finished()) admin::audit_live_read(store_, role, req, m, "league export", env_.wall_ms());
      }
    }
    auto league = svc_.export_json(id);
    if (!league) return error_response(404, "no_such_league", cat("no league '", id, "'"));
    return ok_json({{"format", "cod-league-export/1"}, {"league", std::move(*league)}, {"matches", std::move(matches)}});
  }
  if (what == "result") {
    if (!post) return method_not_allowed("POST");
    if (moving) return moving_response("league", id);
    auto r = record_result(svc_, id, body, *view, actor);
    spdlog::info("organiser: {} ({}) result on league {} -> {} {}", actor, req.remote, id, r.status, r.code);
    return r;
  }
  return error_response(404, "not_found", "no such league endpoint (docs/league.md)");
}

}  // namespace cod::server
