// The organiser's acts: drop a player, give a game loss, re-pair the round.
// Each is checked completely before anything changes, then logged.
#include "tournament/text.hpp"
#include "tournament/tournament.hpp"

namespace cod::tournaments {

void tournament::append_log(std::string_view actor, std::int64_t at_ms, act what, player_id p,
                            std::string_view note) {
  log_entry e;
  e.seq = static_cast<int>(log_.size()) + 1;
  e.at_ms = at_ms;
  e.actor = std::string(actor);
  e.what = what;
  e.round = rounds_.empty() ? 0 : rounds_.back().number;
  e.player = p;
  e.note = std::string(note);
  log_.push_back(std::move(e));
}

pairing* tournament::current_pairing_of(player_id p) {
  if (rounds_.empty()) return nullptr;
  for (pairing& x : rounds_.back().pairings)
    if (x.a == p || x.b == p) return &x;
  return nullptr;
}

// The loser gives up the match: the running game, then as many further
// games as the opponent still needs, all as game losses.
void tournament::concede(pairing& p, player_id loser, std::vector<std::string>* voided) {
  const player_id winner = p.a == loser ? p.b : p.a;
  const round_kind kind = rounds_.back().kind;
  if (!p.games.empty() && !p.games.back().decided) {
    game& g = p.games.back();
    if (voided) voided->push_back(g.match_id);
    g.decided = true;
    g.winner = winner;
    g.penalty = true;
  }
  while (!score(p, kind).finished) {
    game g;
    g.decided = true;
    g.winner = winner;
    g.penalty = true;
    p.games.push_back(std::move(g));
  }
}

status tournament::drop_player(std::string_view actor, std::int64_t at_ms, player_id p, std::string_view reason,
                               std::vector<std::string>* voided) {
  if (p < 0 || p >= static_cast<player_id>(players_.size()))
    return {errc::unknown_player, cat("no player ", p)};
  if (players_[static_cast<std::size_t>(p)].dropped())
    return {errc::player_dropped, cat(players_[static_cast<std::size_t>(p)].name, " has already dropped")};
  if (current_stage() == stage::finished) return {errc::tournament_finished, "the tournament is over"};
  players_[static_cast<std::size_t>(p)].dropped_in_round = rounds_.empty() ? 0 : rounds_.back().number;
  if (pairing* x = current_pairing_of(p); x && !x->is_bye() && !score(*x, rounds_.back().kind).finished)
    concede(*x, p, voided);
  append_log(actor, at_ms, act::drop, p, reason);
  return {};
}

status tournament::give_game_loss(std::string_view actor, std::int64_t at_ms, player_id p, std::string_view reason,
                                  std::string* voided) {
  if (p < 0 || p >= static_cast<player_id>(players_.size()))
    return {errc::unknown_player, cat("no player ", p)};
  if (rounds_.empty()) return {errc::not_started, "no round has started"};
  pairing* x = current_pairing_of(p);
  if (!x) return {errc::not_in_round, cat(players_[static_cast<std::size_t>(p)].name, " is not paired this round")};
  if (x->is_bye()) return {errc::bye, cat(players_[static_cast<std::size_t>(p)].name, " has a bye this round")};
  if (score(*x, rounds_.back().kind).finished)
    return {errc::pairing_finished, cat("table ", x->table, " already has its result")};
  const player_id winner = x->a == p ? x->b : x->a;
  if (!x->games.empty() && !x->games.back().decided) {
    game& g = x->games.back();
    if (voided) *voided = g.match_id;
    g.decided = true;
    g.winner = winner;
    g.penalty = true;
  } else {
    game g;
    g.decided = true;
    g.winner = winner;
    g.penalty = true;
    x->games.push_back(std::move(g));
  }
  append_log(actor, at_ms, act::game_loss, p, reason);
  return {};
}

status tournament::repair_round(std::string_view actor, std::int64_t at_ms, std::string_view reason,
                                std::vector<std::string>* abandoned) {
  if (rounds_.empty()) return {errc::not_started, "no round has started"};
  round& cur = rounds_.back();
  if (cur.kind != round_kind::swiss) return {errc::not_swiss, "top-cut rounds follow the bracket; no re-pair"};
  for (const pairing& p : cur.pairings)
    for (const game& g : p.games)
      if (g.decided)
        return {errc::round_has_results, cat("table ", p.table, " of round ", cur.number, " has a result")};
  round fresh;
  if (status s = pair_swiss_round(cur.number, cur.attempt + 1, fresh); !s) return s;
  if (abandoned)
    for (const pairing& p : cur.pairings)
      for (const game& g : p.games) abandoned->push_back(g.match_id);
  cur = std::move(fresh);
  append_log(actor, at_ms, act::repair, no_player, reason);
  return {};
}

}  // namespace cod::tournaments
