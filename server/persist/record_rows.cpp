#include "persist/record_rows.hpp"

#include <nlohmann/json.hpp>

#include "common/strcat.hpp"
#include "common/text_forms.hpp"

namespace cod::server::detail {

using namespace cod::tournaments;

namespace {

std::vector<int> parse_winners(const std::string& match_id, const std::string& text) {
  auto j = nlohmann::json::parse(text, nullptr, false);
  std::vector<int> out;
  bool ok = j.is_array();
  if (ok)
    for (const auto& v : j) {
      if (!v.is_number_integer()) {
        ok = false;
        break;
      }
      out.push_back(v.get<int>());
    }
  if (!ok) throw persist_error(cat("match ", match_id, ": winners is not a JSON array of seats: ", text));
  return out;
}

player_id read_player(const row_view& r, int col) {
  return r.is_null(col) ? no_player : static_cast<player_id>(r.int64(col));
}

}  // namespace

stored_match match_from_row(const row_view& s) {
  stored_match sm;
  match_record& m = sm.match;
  m.match_id = s.text(0);
  m.room_id = s.text(1);
  m.mode = s.text(2);
  m.format = s.text(3);
  m.options_json = s.text(4);
  m.rules_version = s.text(5);
  m.engine_version = static_cast<int>(s.int64(6));
  const std::string seed = s.text(7);
  if (auto v = parse_decimal_u64(seed)) m.seed = *v;
  else throw persist_error(cat("match ", m.match_id, ": seed is not a decimal uint64: ", seed));
  m.seed_hash = s.text(8);
  m.created_ms = s.int64(9);
  m.cards_json = s.text(14);
  if (s.text(10) == "finished") {
    match_result r;
    r.ended_ms = s.is_null(11) ? 0 : s.int64(11);
    r.winners = s.is_null(12) ? std::vector<int>{} : parse_winners(m.match_id, s.text(12));
    r.reason = s.text(13);
    sm.result = std::move(r);
  }
  return sm;
}

match_summary summary_from_row(const row_view& s) {
  stored_match sm = match_from_row(s);
  match_summary m;
  m.match_id = std::move(sm.match.match_id);
  m.room_id = std::move(sm.match.room_id);
  m.mode = std::move(sm.match.mode);
  m.format = std::move(sm.match.format);
  m.status = s.text(10);
  m.created_ms = sm.match.created_ms;
  m.actions = s.int64(15);
  m.result = std::move(sm.result);
  return m;
}

stored_league league_from_row(const row_view& s) {
  stored_league l;
  l.id = s.text(0);
  l.name = s.text(1);
  l.created_ms = s.int64(2);
  l.finished = s.int64(3) != 0;
  l.record_json = s.text(4);
  return l;
}

seat_record seat_from_row(const row_view& s) {
  seat_record r;
  r.seat = static_cast<int>(s.int64(0));
  r.name = s.text(1);
  r.token_hash = s.text(2);
  r.deck_json = s.text(3);
  if (!s.is_null(4)) r.team = static_cast<int>(s.int64(4));
  if (!s.is_null(5)) r.champion = s.text(5);
  r.ai = s.int64(6) != 0;
  return r;
}

action_record action_from_row(const std::string& match_id, const row_view& s) {
  action_record a;
  a.seq = s.int64(0);
  a.seat = static_cast<int>(s.int64(1));
  a.action_json = s.text(2);
  const std::string digest = s.text(3);
  if (auto v = parse_digest_hex(digest)) a.digest = *v;
  else throw persist_error(cat("match ", match_id, " seq ", a.seq, ": digest is not 16 hex digits: ", digest));
  a.at_ms = s.int64(4);
  return a;
}

draft_event_record draft_from_row(const row_view& s) {
  draft_event_record r;
  r.seq = s.int64(0);
  r.seat = static_cast<int>(s.int64(1));
  r.kind = s.text(2);
  r.cards_json = s.text(3);
  r.at_ms = s.int64(4);
  return r;
}

note_record note_from_row(const row_view& s) { return {s.int64(0), s.text(1)}; }

audit_record audit_from_row(const row_view& s) {
  return {s.int64(0), s.text(1), s.text(2), s.text(3), s.text(4), s.text(5)};
}

tournament_extras extras_from_row(const row_view& s) {
  tournament_extras x;
  x.spectator_delay = static_cast<int>(s.int64(0));
  x.auto_advance = s.int64(1) != 0;
  return x;
}

// ---------------------------------------------------------------------------
// tournament_rows

void tournament_rows::corrupt(const std::string& why) const { throw persist_error(cat("tournament ", id_, ": ", why)); }

void tournament_rows::check_player(player_id p, bool may_be_none, const char* what) const {
  const auto n = static_cast<player_id>(players_.size());
  if (p == no_player ? !may_be_none : (p < 0 || p >= n)) corrupt(cat(what, " names no player"));
}

// The foreign keys say the round exists, but they are only enforced where enabled.
round& tournament_rows::round_at(std::int64_t number) {
  if (number < 1 || number > static_cast<std::int64_t>(rounds_.size())) corrupt("a pairing of no round");
  return rounds_[static_cast<std::size_t>(number - 1)];
}

void tournament_rows::config_row(const row_view& s) {
  config& c = config_;
  c.name = s.text(0);
  c.mode = s.text(1);
  c.format = s.text(2);
  c.swiss_rounds = static_cast<int>(s.int64(3));
  c.best_of = static_cast<int>(s.int64(4));
  c.exhaustion = s.int64(5) != 0;
  if (!s.is_null(6)) c.clock = clock_settings{s.int64(6), s.int64(7)};
  c.top_cut = static_cast<int>(s.int64(8));
  const auto seed = parse_decimal_u64(s.text(9));
  if (!seed) corrupt("the seed is not a decimal uint64");
  c.seed = *seed;
}

void tournament_rows::player_row(const row_view& s) {
  if (s.int64(0) != static_cast<std::int64_t>(players_.size())) corrupt("player ids are not 0, 1, 2...");
  player p;
  p.name = s.text(1);
  p.token_hash = s.text(2);
  p.seed_order = static_cast<int>(s.int64(3));
  p.dropped_in_round = s.is_null(4) ? -1 : static_cast<int>(s.int64(4));
  players_.push_back(std::move(p));
}

void tournament_rows::round_row(const row_view& s) {
  round r;
  r.number = static_cast<int>(s.int64(0));
  if (r.number != static_cast<int>(rounds_.size()) + 1) corrupt("rounds are not numbered 1, 2, 3...");
  r.kind = s.text(1) == "swiss" ? round_kind::swiss : round_kind::top_cut;
  r.attempt = static_cast<int>(s.int64(2));
  rounds_.push_back(std::move(r));
}

void tournament_rows::pairing_row(const row_view& s) {
  pairing p;
  p.table = static_cast<int>(s.int64(1));
  p.a = read_player(s, 2);
  p.b = read_player(s, 3);
  check_player(p.a, false, "a pairing");
  check_player(p.b, true, "a pairing");
  round_at(s.int64(0)).pairings.push_back(std::move(p));
}

void tournament_rows::game_row(const row_view& s) {
  round& r = round_at(s.int64(0));
  pairing* p = nullptr;
  for (pairing& x : r.pairings)
    if (x.table == s.int64(1)) p = &x;
  if (!p) corrupt("a game of no pairing");
  if (s.int64(2) != static_cast<std::int64_t>(p->games.size()) + 1)
    corrupt(cat("round ", r.number, " table ", p->table, ": games are not numbered 1, 2, 3..."));
  game g;
  g.match_id = s.is_null(3) ? std::string() : s.text(3);
  g.decided = s.int64(4) != 0;
  g.winner = read_player(s, 5);
  g.penalty = s.int64(6) != 0;
  if (g.winner != no_player && g.winner != p->a && g.winner != p->b)
    corrupt(cat("round ", r.number, " table ", p->table, ": a game won by a player of another table"));
  p->games.push_back(std::move(g));
}

void tournament_rows::log_row(const row_view& s) {
  log_entry e;
  e.seq = static_cast<int>(s.int64(0));
  if (e.seq != static_cast<int>(log_.size()) + 1) corrupt("the log is not numbered 1, 2, 3...");
  e.at_ms = s.int64(1);
  e.actor = s.text(2);
  const auto what = act_from_name(s.text(3));
  if (!what) corrupt(cat("log entry ", e.seq, ": unknown act"));
  e.what = *what;
  e.round = static_cast<int>(s.int64(4));
  e.player = read_player(s, 5);
  check_player(e.player, true, "a log entry");
  e.note = s.text(6);
  log_.push_back(std::move(e));
}

tournament tournament_rows::finish() {
  return tournament::from_parts(std::move(config_), std::move(players_), std::move(rounds_), std::move(log_));
}

}  // namespace cod::server::detail
