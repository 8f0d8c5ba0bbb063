// The wire/storage names of the enums (the schema's CHECKs list the same).
#include "tournament/tournament.hpp"

namespace cod::tournaments {

std::string_view act_name(act a) {
  switch (a) {
    case act::start_round: return "start_round";
    case act::drop: return "drop";
    case act::game_loss: return "game_loss";
    case act::repair: return "repair";
  }
  return "?";
}

std::optional<act> act_from_name(std::string_view s) {
  for (act a : {act::start_round, act::drop, act::game_loss, act::repair})
    if (act_name(a) == s) return a;
  return std::nullopt;
}

std::string_view stage_name(stage s) {
  switch (s) {
    case stage::not_started: return "not_started";
    case stage::swiss: return "swiss";
    case stage::top_cut: return "top_cut";
    case stage::finished: return "finished";
  }
  return "?";
}

std::string_view errc_name(errc e) {
  switch (e) {
    case errc::ok: return "ok";
    case errc::invalid_config: return "invalid_config";
    case errc::invalid_players: return "invalid_players";
    case errc::unknown_player: return "unknown_player";
    case errc::player_dropped: return "player_dropped";
    case errc::not_started: return "not_started";
    case errc::round_not_finished: return "round_not_finished";
    case errc::tournament_finished: return "tournament_finished";
    case errc::not_enough_players: return "not_enough_players";
    case errc::unknown_table: return "unknown_table";
    case errc::match_already_running: return "match_already_running";
    case errc::match_id_in_use: return "match_id_in_use";
    case errc::invalid_match_id: return "invalid_match_id";
    case errc::pairing_finished: return "pairing_finished";
    case errc::bye: return "bye";
    case errc::unknown_match: return "unknown_match";
    case errc::game_already_decided: return "game_already_decided";
    case errc::not_in_match: return "not_in_match";
    case errc::not_in_round: return "not_in_round";
    case errc::round_has_results: return "round_has_results";
    case errc::not_swiss: return "not_swiss";
  }
  return "?";
}

}  // namespace cod::tournaments
