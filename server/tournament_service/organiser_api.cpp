#include "tournament_service/organiser_api.hpp"

#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include "admin/match_report.hpp"
#include "admin/request_body.hpp"
#include "common/strcat.hpp"
#include "tournament_service/tournament_json.hpp"

namespace cod::server {

namespace tn = cod::tournaments;
using admin::error_response;
using admin::get_field;
using admin::method_not_allowed;
using admin::moving_response;
using admin::ok_json;
using admin::only_keys;
using admin::parse_body;
using detail::cat;
using nlohmann::json;

namespace {

// "player": an id (integer) or a name (case-insensitive).
bool player_of(const json& body, const tn::tournament& t, tn::player_id& out, admin::response& err) {
  auto it = body.find("player");
  if (it == body.end()) {
    err = error_response(400, "missing_field", "'player' (an id or a name) is required", "player");
    return false;
  }
  if (it->is_number_integer()) {
    const auto v = it->get<long long>();
    if (v < 0 || v >= static_cast<long long>(t.players().size())) {
      err = error_response(404, "unknown_player", cat("no player ", v), "player");
      return false;
    }
    out = static_cast<tn::player_id>(v);
    return true;
  }
  if (it->is_string()) {
    if (auto p = t.find_player(it->get<std::string>())) {
      out = *p;
      return true;
    }
    err = error_response(404, "unknown_player", cat("no player named '", it->get<std::string>(), "'"), "player");
    return false;
  }
  err = error_response(400, "bad_field_type", "'player' is an id or a name", "player");
  return false;
}

admin::response create(tournament_service& svc, const json& body, const std::string& actor) {
  admin::response err;
  if (!only_keys(body, {"name", "players", "format", "mode", "rounds", "best_of", "exhaustion", "turn_clock", "top_cut",
                        "seed", "spectator_delay", "auto_advance", "organiser"},
                 err))
    return err;
  tn::config c;
  tournament_extras x;
  if (!get_field(body, "name", c.name, err) || !get_field(body, "format", c.format, err) ||
      !get_field(body, "mode", c.mode, err) || !get_field(body, "rounds", c.swiss_rounds, err) ||
      !get_field(body, "best_of", c.best_of, err) || !get_field(body, "exhaustion", c.exhaustion, err) ||
      !get_field(body, "top_cut", c.top_cut, err) || !get_field(body, "spectator_delay", x.spectator_delay, err) ||
      !get_field(body, "auto_advance", x.auto_advance, err))
    return err;
  if (c.format != "preconstructed" && c.format != "constructed")
    return error_response(400, "invalid_config", "'format' is preconstructed or constructed", "format");
  std::vector<std::string> names;
  auto players = body.find("players");
  if (players == body.end() || !players->is_array())
    return error_response(400, "invalid_players", "'players' is an array of names", "players");
  for (const auto& p : *players) {
    if (!p.is_string()) return error_response(400, "invalid_players", "'players' is an array of names", "players");
    names.push_back(p.get<std::string>());
  }
  if (auto tc = body.find("turn_clock"); tc != body.end() && !tc->is_null()) {
    if (!tc->is_object())
      return error_response(400, "bad_field_type", "'turn_clock' is {bank_ms, increment_ms} or null", "turn_clock");
    tn::clock_settings cs;
    if (!only_keys(*tc, {"bank_ms", "increment_ms"}, err) || !get_field(*tc, "bank_ms", cs.bank_ms, err) ||
        !get_field(*tc, "increment_ms", cs.increment_ms, err))
      return err;
    c.clock = cs;
  }
  bool seed_given = false;
  if (!admin::seed_of(body, c.seed, seed_given, err)) return err;
  if (!seed_given) c.seed = 0;  // drawn by the service
  tournament_service::created out;
  if (status st = svc.create(c, names, x, actor, out, seed_given); !st) return admin::refusal_response(st);
  json j = {{"tournament", out.id}, {"warnings", out.warnings}};
  json ps = json::array();
  for (std::size_t i = 0; i < names.size(); ++i) ps.push_back({{"player", i}, {"name", names[i]}, {"token", out.tokens[i]}});
  j["players"] = ps;
  j["note"] = "the join tokens are shown once: hand each player theirs";
  return ok_json(j, 201);
}

}  // namespace

admin::response organiser_api::handle(const admin::request& req, std::string_view role,
                                      const std::vector<std::string>& seg,
                                      const std::vector<std::pair<std::string, std::string>>& query) {
  const bool get = req.method == "GET" || req.method == "HEAD";
  const bool post = req.method == "POST";
  if (!query.empty())
    return error_response(400, "unknown_parameter", "the organiser API takes no query parameters", query[0].first);
  json body = json::object();
  if (post) {
    admin::response err;
    if (!parse_body(req.body, body, err)) return err;
  }
  const std::string actor = admin::actor_of(body);

  // /tournaments
  if (seg.size() == 1) {
    if (post) {
      auto r = create(svc_, body, actor);
      spdlog::info("organiser: {} ({}) create tournament -> {} {}", actor, req.remote, r.status, r.code);
      return r;
    }
    if (!get) return method_not_allowed("GET, POST");
    json list = json::array();
    for (const auto& s : svc_.list()) list.push_back(tournament_summary_json(s));
    return ok_json({{"tournaments", list}});
  }
  const std::string& id = seg[1];
  auto snap = svc_.get(id);
  // A cluster node that does not run it (docs/cluster.md, "Tournaments"):
  // reads answer from the stored copy; an unfinished one is asked to move
  // here (the proxy sends its traffic here), and acts wait for that.
  bool stored_copy = false, moving = false;  // moving: asked to (deps::want)
  if (!snap && svc_.clustered()) {
    snap = svc_.stored_copy(id, moving);
    stored_copy = snap.has_value();
  }
  if (!snap) return error_response(404, "no_such_tournament", cat("no tournament '", id, "'"));
  if (seg.size() == 2) {
    if (!get) return method_not_allowed("GET");
    return ok_json(tournament_to_json(*snap));
  }
  if (seg.size() != 3) return error_response(404, "not_found", "no such organiser endpoint (docs/tournaments.md)");
  const std::string& what = seg[2];

  if (what == "standings" || what == "log" || what == "export") {
    if (!get) return method_not_allowed("GET");
    if (what == "standings") return ok_json({{"tournament", id}, {"standings", standings_to_json(snap->t)}});
    if (what == "log") return ok_json({{"tournament", id}, {"log", tournament_log_to_json(snap->t)}});
    // export: the tournament and every match its games were played in; a
    // match still being played shows its decks: audited (docs/admin.md).
    json matches = json::array();
    std::vector<std::string> live;
    for (const auto& r : snap->t.rounds())
      for (const auto& p : r.pairings)
        for (const auto& g : p.games) {
          if (g.match_id.empty()) continue;
          if (auto sm = admin::read_for_route(store_.reader().load_match(g.match_id))) {
            matches.push_back(admin::export_match(*sm));
            if (!sm->finished()) live.push_back(g.match_id);
          }
        }
    for (const auto& m : live) admin::audit_live_read(store_, role, req, m, "tournament export", env_.wall_ms());
    return ok_json({{"format", "cod-tournament-export/1"}, {"tournament", tournament_to_json(*snap)}, {"matches", matches}});
  }

  if (what != "rounds" && what != "drop" && what != "game_loss" && what != "repair")
    return error_response(404, "not_found", "no such organiser endpoint (docs/tournaments.md)");
  if (!post) return method_not_allowed("POST");
  if (stored_copy && snap->t.current_stage() == tn::stage::finished)
    return error_response(409, "tournament_finished", cat("tournament ", id, " has finished"));
  if (stored_copy) return moving_response("tournament", id);
  admin::response err;
  std::string reason;
  status st;
  if (what == "rounds") {
    if (!only_keys(body, {"organiser"}, err)) return err;
    st = svc_.start_next_round(id, actor);
  } else if (what == "repair") {
    if (!only_keys(body, {"organiser", "reason"}, err) || !get_field(body, "reason", reason, err)) return err;
    st = svc_.repair(id, actor, reason);
  } else {
    tn::player_id p = tn::no_player;
    if (!only_keys(body, {"organiser", "reason", "player"}, err) || !get_field(body, "reason", reason, err) ||
        !player_of(body, snap->t, p, err))
      return err;
    st = what == "drop" ? svc_.drop(id, actor, p, reason) : svc_.game_loss(id, actor, p, reason);
  }
  admin::response r;
  if (!st) r = admin::refusal_response(st);
  else r = ok_json(tournament_to_json(*svc_.get(id)));
  spdlog::info("organiser: {} ({}) {} on tournament {} -> {} {}", actor, req.remote, what, id, r.status, r.code);
  return r;
}

}  // namespace cod::server
