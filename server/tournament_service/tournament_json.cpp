#include "tournament_service/tournament_json.hpp"

namespace cod::server {

namespace tn = cod::tournaments;
using nlohmann::json;

namespace {

json player_ref(const tn::tournament& t, tn::player_id p) {
  if (p == tn::no_player) return nullptr;
  return {{"player", p}, {"name", t.players()[static_cast<std::size_t>(p)].name}};
}

json config_json(const tn::config& c) {
  json j = {{"name", c.name},       {"mode", c.mode},        {"format", c.format},
            {"rounds", c.swiss_rounds}, {"best_of", c.best_of}, {"exhaustion", c.exhaustion},
            {"top_cut", c.top_cut}, {"seed", std::to_string(c.seed)}};
  j["turn_clock"] = c.clock ? json{{"bank_ms", c.clock->bank_ms}, {"increment_ms", c.clock->increment_ms}} : json();
  return j;
}

}  // namespace

json standings_to_json(const tn::tournament& t) {
  json out = json::array();
  for (const auto& s : t.standings()) {
    out.push_back({{"rank", s.rank},
                   {"player", s.player},
                   {"name", t.players()[static_cast<std::size_t>(s.player)].name},
                   {"match_points", s.match_points},
                   {"wins", s.wins},
                   {"losses", s.losses},
                   {"draws", s.draws},
                   {"byes", s.byes},
                   {"game_points", s.game_points},
                   {"games", s.games},
                   {"mwp", s.mwp},
                   {"omwp", s.omwp},
                   {"gwp", s.gwp},
                   {"ogwp", s.ogwp},
                   {"dropped", s.dropped}});
  }
  return out;
}

json tournament_log_to_json(const tn::tournament& t) {
  json out = json::array();
  for (const auto& e : t.log()) {
    out.push_back({{"seq", e.seq},
                   {"at_ms", e.at_ms},
                   {"actor", e.actor},
                   {"act", tn::act_name(e.what)},
                   {"round", e.round},
                   {"player", player_ref(t, e.player)},
                   {"note", e.note}});
  }
  return out;
}

json tournament_summary_json(const tournament_snapshot& s) {
  const auto* r = s.t.current_round();
  return {{"tournament", s.id},
          {"name", s.t.settings().name},
          {"stage", tn::stage_name(s.t.current_stage())},
          {"round", r ? r->number : 0},
          {"players", s.t.players().size()},
          {"created_ms", s.created_ms}};
}

json tournament_to_json(const tournament_snapshot& s) {
  const tn::tournament& t = s.t;
  json j = tournament_summary_json(s);
  j["config"] = config_json(t.settings());
  j["spectator_delay"] = s.extras.spectator_delay;
  j["auto_advance"] = s.extras.auto_advance;
  j["round_finished"] = t.round_finished();
  json players = json::array();
  for (std::size_t i = 0; i < t.players().size(); ++i) {
    const auto& p = t.players()[i];
    players.push_back({{"player", i},
                       {"name", p.name},
                       {"seed_order", p.seed_order},
                       {"dropped_in_round", p.dropped() ? json(p.dropped_in_round) : json()}});
  }
  j["player_list"] = players;
  json rounds = json::array();
  for (const auto& r : t.rounds()) {
    json pairings = json::array();
    for (const auto& p : r.pairings) {
      json games = json::array();
      for (std::size_t g = 0; g < p.games.size(); ++g) {
        const auto& game = p.games[g];
        games.push_back({{"game", g + 1},
                         {"match_id", game.match_id.empty() ? json() : json(game.match_id)},
                         {"decided", game.decided},
                         {"winner", game.decided ? player_ref(t, game.winner) : json()},
                         {"penalty", game.penalty}});
      }
      const auto sc = t.score(p, r.kind);
      json rooms = json::array();
      for (const auto& tr : s.rooms)
        if (tr.round == r.number && tr.table == p.table)
          rooms.push_back({{"game", tr.game}, {"room", tr.room_id},
                           {"match_id", tr.match_id.empty() ? json() : json(tr.match_id)}});
      pairings.push_back({{"table", p.table},
                          {"a", player_ref(t, p.a)},
                          {"b", player_ref(t, p.b)},
                          {"bye", p.is_bye()},
                          {"games", games},
                          {"score", {{"a_wins", sc.a_wins}, {"b_wins", sc.b_wins}, {"draws", sc.draws},
                                     {"finished", sc.finished}, {"winner", sc.finished ? player_ref(t, sc.winner) : json()}}},
                          {"rooms", rooms}});
    }
    rounds.push_back({{"round", r.number},
                      {"kind", r.kind == tn::round_kind::swiss ? "swiss" : "top_cut"},
                      {"attempt", r.attempt},
                      {"pairings", pairings}});
  }
  j["rounds"] = rounds;
  j["standings"] = standings_to_json(t);
  j["log"] = tournament_log_to_json(t);
  const auto champ = t.champion();
  j["champion"] = champ ? player_ref(t, *champ) : json();
  return j;
}

}  // namespace cod::server
