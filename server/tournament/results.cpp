// Games and results: matches attached to games, reported results, a
// pairing's score, and the standings from the finished Swiss matches.
#include "tournament/text.hpp"
#include "tournament/tournament.hpp"

namespace cod::tournaments {

match_score tournament::score(const pairing& p, round_kind kind) const {
  match_score m;
  const int need = config_.best_of == 3 ? 2 : 1;
  if (p.is_bye()) {
    // A bye is a match won without an opponent, need-0 in games.
    m.a_wins = need;
    m.finished = true;
    m.winner = p.a;
    return m;
  }
  int decided = 0;
  for (const game& g : p.games) {
    if (!g.decided) continue;
    ++decided;
    if (g.winner == p.a) {
      ++m.a_wins;
    } else if (g.winner == p.b) {
      ++m.b_wins;
    } else {
      ++m.draws;
    }
  }
  if (m.a_wins >= need || m.b_wins >= need) {
    m.finished = true;
    m.winner = m.a_wins >= need ? p.a : p.b;
  } else if (kind == round_kind::swiss && decided >= config_.best_of) {
    // Drawn games used up the match: more wins wins, else a drawn match.
    // (The top cut plays on until someone has the wins it needs.)
    m.finished = true;
    m.winner = m.a_wins > m.b_wins ? p.a : m.b_wins > m.a_wins ? p.b : no_player;
  }
  return m;
}

std::vector<match_record> tournament::swiss_records() const {
  std::vector<match_record> out;
  for (const round& r : rounds_) {
    if (r.kind != round_kind::swiss) continue;
    for (const pairing& p : r.pairings) {
      const match_score m = score(p, r.kind);
      if (!m.finished) continue;
      out.push_back({p.a, p.b, m.a_wins, m.b_wins, m.draws});
    }
  }
  return out;
}

std::vector<standing> tournament::standings() const {
  std::vector<int> order;
  std::vector<bool> dropped;
  for (const player& p : players_) {
    order.push_back(p.seed_order);
    dropped.push_back(p.dropped());
  }
  return compute_standings(swiss_records(), order, dropped);
}

std::vector<game_slot> tournament::games_to_start() const {
  std::vector<game_slot> out;
  const round* r = current_round();
  if (!r) return out;
  for (const pairing& p : r->pairings) {
    if (p.is_bye() || score(p, r->kind).finished) continue;
    if (!p.games.empty() && !p.games.back().decided) continue;  // its match is being played
    out.push_back({r->number, p.table, static_cast<int>(p.games.size()) + 1, p.a, p.b});
  }
  return out;
}

status tournament::attach_match(int table, std::string_view match_id) {
  if (rounds_.empty()) return {errc::not_started, "no round has started"};
  if (match_id.empty()) return {errc::invalid_match_id, "a match id must not be empty"};
  round& r = rounds_.back();
  pairing* found = nullptr;
  for (pairing& p : r.pairings)
    if (p.table == table) found = &p;
  if (!found) return {errc::unknown_table, cat("round ", r.number, " has no table ", table)};
  if (found->is_bye()) return {errc::bye, cat("table ", table, " is a bye")};
  if (score(*found, r.kind).finished) return {errc::pairing_finished, cat("table ", table, " has its result")};
  if (!found->games.empty() && !found->games.back().decided)
    return {errc::match_already_running,
            cat("table ", table, " is playing match ", found->games.back().match_id)};
  for (const round& any : rounds_)
    for (const pairing& p : any.pairings)
      for (const game& g : p.games)
        if (g.match_id == match_id)
          return {errc::match_id_in_use, cat("match ", match_id, " is already a game of round ", any.number)};
  game g;
  g.match_id = std::string(match_id);
  found->games.push_back(std::move(g));
  return {};
}

status tournament::report_game(std::string_view match_id, player_id winner) {
  if (rounds_.empty()) return {errc::not_started, "no round has started"};
  for (round& r : rounds_) {
    for (pairing& p : r.pairings) {
      for (game& g : p.games) {
        if (g.match_id != match_id || match_id.empty()) continue;
        if (g.decided)
          return {errc::game_already_decided,
                  cat("match ", match_id, g.penalty ? " was decided by a game loss" : " already has its result")};
        if (winner != no_player && winner != p.a && winner != p.b)
          return {errc::not_in_match, cat("player ", winner, " is not playing match ", match_id)};
        // Only the current round has undecided games (a round ends when all are decided).
        g.decided = true;
        g.winner = winner;
        return {};
      }
    }
  }
  return {errc::unknown_match, cat("no game is played as match ", match_id)};
}

}  // namespace cod::tournaments
