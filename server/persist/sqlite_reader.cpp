#include "persist/sqlite_reader.hpp"

#include <nlohmann/json.hpp>

#include "common/strcat.hpp"
#include "common/text_forms.hpp"
#include "persist/migrations.hpp"
#include "persist/sqlite_tournaments.hpp"
#include "persist/sqlite_util.hpp"

namespace cod::server {

using detail::cat;

namespace {

constexpr const char* match_columns =
    "match_id, room_id, mode, format, options_json, rules_version, engine_version, seed, seed_hash, "
    "created_ms, status, ended_ms, winners, reason";


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

// A row of `match_columns`, seats/actions/notes not yet read.
stored_match read_match_row(sql::stmt& s) {
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
  if (s.text(10) == "finished") {
    match_result r;
    r.ended_ms = s.is_null(11) ? 0 : s.int64(11);
    r.winners = s.is_null(12) ? std::vector<int>{} : parse_winners(m.match_id, s.text(12));
    r.reason = s.text(13);
    sm.result = std::move(r);
  }
  return sm;
}

}  // namespace

// ---------------------------------------------------------------------------
// sqlite_reader


result<std::unique_ptr<sqlite_reader>> sqlite_reader::open(const std::string& path) {
  try {
    std::unique_ptr<sqlite_reader> r(new sqlite_reader());
    r->db_ = std::make_unique<sql::db>(path, sql::db::mode::read_only);
    r->schema_version_ = check_schema(*r->db_);
    return r;
  } catch (const std::exception& e) {
    return status::io_error(e.what());
  }
}

sqlite_reader::~sqlite_reader() = default;

namespace {

// Runs `f` inside one read transaction (a consistent snapshot).
template <class F>
auto in_read_txn(sql::db& d, F&& f) {
  d.exec("BEGIN");
  try {
    auto out = f();
    d.exec("COMMIT");
    return out;
  } catch (...) {
    try {
      d.exec("ROLLBACK");
    } catch (...) {
    }
    throw;
  }
}

void fill_log(sql::db& d, stored_match& sm) {
  const std::string& id = sm.match.match_id;
  {
    sql::stmt s(d,
                "SELECT seat, name, token_hash, deck_json, team, champion, ai FROM match_seats WHERE match_id = ?1 "
                "ORDER BY seat");
    s.bind(1, id);
    while (s.step()) {
      seat_record r;
      r.seat = static_cast<int>(s.int64(0));
      r.name = s.text(1);
      r.token_hash = s.text(2);
      r.deck_json = s.text(3);
      if (!s.is_null(4)) r.team = static_cast<int>(s.int64(4));
      if (!s.is_null(5)) r.champion = s.text(5);
      r.ai = s.int64(6) != 0;
      sm.match.seats.push_back(std::move(r));
    }
  }
  {
    sql::stmt s(d,
                "SELECT seq, seat, action_json, digest, at_ms FROM match_actions WHERE match_id = ?1 ORDER BY seq");
    s.bind(1, id);
    while (s.step()) {
      action_record a;
      a.seq = s.int64(0);
      a.seat = static_cast<int>(s.int64(1));
      a.action_json = s.text(2);
      const std::string digest = s.text(3);
      if (auto v = parse_digest_hex(digest)) a.digest = *v;
      else throw persist_error(cat("match ", id, " seq ", a.seq, ": digest is not 16 hex digits: ", digest));
      a.at_ms = s.int64(4);
      sm.actions.push_back(std::move(a));
    }
  }
  {
    sql::stmt s(d, "SELECT seq, seat, kind, cards_json, at_ms FROM draft_events WHERE match_id = ?1 ORDER BY seq");
    s.bind(1, id);
    while (s.step()) {
      draft_event_record r;
      r.seq = s.int64(0);
      r.seat = static_cast<int>(s.int64(1));
      r.kind = s.text(2);
      r.cards_json = s.text(3);
      r.at_ms = s.int64(4);
      sm.draft.push_back(std::move(r));
    }
  }
  {
    sql::stmt s(d, "SELECT at_ms, text FROM match_notes WHERE match_id = ?1 ORDER BY note_id");
    s.bind(1, id);
    while (s.step()) sm.notes.push_back({s.int64(0), s.text(1)});
  }
}

}  // namespace

std::vector<stored_match> sqlite_reader::load_finished_since(std::int64_t ended_from_ms) {
  std::lock_guard lk(mu_);
  return in_read_txn(*db_, [&] {
    std::vector<stored_match> out;
    // No index on ended_ms: this walks the finished rows of matches_status
    // once, at start-up (a created_ms bound would miss long matches).
    sql::stmt s(*db_, cat("SELECT ", match_columns,
                          " FROM matches WHERE status = 'finished' AND ended_ms >= ?1 ORDER BY created_ms, match_id"));
    s.bind(1, ended_from_ms);
    while (s.step()) out.push_back(read_match_row(s));
    for (stored_match& sm : out) fill_log(*db_, sm);
    return out;
  });
}

std::vector<stored_match> sqlite_reader::load_unfinished() {
  std::lock_guard lk(mu_);
  return in_read_txn(*db_, [&] {
    std::vector<stored_match> out;
    sql::stmt s(*db_, cat("SELECT ", match_columns,
                          " FROM matches WHERE status = 'playing' ORDER BY created_ms, match_id"));
    while (s.step()) out.push_back(read_match_row(s));
    for (stored_match& sm : out) fill_log(*db_, sm);
    return out;
  });
}

std::optional<stored_match> sqlite_reader::load_match(const std::string& match_id) {
  std::lock_guard lk(mu_);
  return in_read_txn(*db_, [&]() -> std::optional<stored_match> {
    sql::stmt s(*db_, cat("SELECT ", match_columns, " FROM matches WHERE match_id = ?1"));
    s.bind(1, match_id);
    if (!s.step()) return std::nullopt;
    stored_match sm = read_match_row(s);
    fill_log(*db_, sm);
    return sm;
  });
}

std::vector<match_summary> sqlite_reader::list_matches(const match_query& q) {
  std::lock_guard lk(mu_);
  return in_read_txn(*db_, [&] {
    std::string where = " WHERE created_ms >= ?1";
    if (q.created_to_ms != 0) where += " AND created_ms < ?2";
    if (!q.status.empty()) where += " AND status = ?3";
    if (!q.player.empty())
      where += " AND match_id IN (SELECT match_id FROM match_seats WHERE name = ?4 COLLATE NOCASE)";
    if (!q.mode.empty()) where += " AND mode = ?7";
    // winners is a JSON array of seats ("[1]"); NULL while playing.
    if (q.winner >= 0)
      where += " AND status = 'finished' AND EXISTS (SELECT 1 FROM json_each(m.winners) WHERE value = ?8)";
    if (q.has_before) where += " AND (created_ms < ?9 OR (created_ms = ?9 AND match_id < ?10))";
    // A tournament's matches are those its games name (migration 0003).
    if (!q.tournament.empty())
      where += " AND match_id IN (SELECT match_id FROM tournament_games WHERE tournament_id = ?11)";
    sql::stmt s(*db_, cat("SELECT ", match_columns,
                          ", (SELECT COALESCE(MAX(seq), 0) FROM match_actions a WHERE a.match_id = m.match_id)"
                          " FROM matches m",
                          where, " ORDER BY created_ms DESC, match_id DESC LIMIT ?5 OFFSET ?6"));
    s.bind(1, q.created_from_ms);
    if (q.created_to_ms != 0) s.bind(2, q.created_to_ms);
    if (!q.status.empty()) s.bind(3, q.status);
    if (!q.player.empty()) s.bind(4, q.player);
    s.bind(5, std::max(q.limit, 0)).bind(6, std::max(q.offset, 0));
    if (!q.mode.empty()) s.bind(7, q.mode);
    if (q.winner >= 0) s.bind(8, q.winner);
    if (q.has_before) s.bind(9, q.before_created_ms).bind(10, q.before_match_id);
    if (!q.tournament.empty()) s.bind(11, q.tournament);
    std::vector<match_summary> out;
    while (s.step()) {
      stored_match sm = read_match_row(s);
      match_summary m;
      m.match_id = sm.match.match_id;
      m.room_id = sm.match.room_id;
      m.mode = sm.match.mode;
      m.format = sm.match.format;
      m.status = s.text(10);
      m.created_ms = sm.match.created_ms;
      m.actions = s.int64(14);
      m.result = std::move(sm.result);
      out.push_back(std::move(m));
    }
    sql::stmt names(*db_, "SELECT name FROM match_seats WHERE match_id = ?1 ORDER BY seat");
    for (match_summary& m : out) {
      sql::reset_guard g(names);
      names.bind(1, m.match_id);
      while (names.step()) m.names.push_back(names.text(0));
    }
    return out;
  });
}

std::vector<audit_record> sqlite_reader::list_audit(const std::string& match_id) {
  std::lock_guard lk(mu_);
  std::vector<audit_record> out;
  sql::stmt s(*db_, cat("SELECT at_ms, role, remote, match_id, route, target FROM admin_audit",
                        match_id.empty() ? "" : " WHERE match_id = ?1", " ORDER BY audit_id"));
  if (!match_id.empty()) s.bind(1, match_id);
  while (s.step()) out.push_back({s.int64(0), s.text(1), s.text(2), s.text(3), s.text(4), s.text(5)});
  return out;
}

std::vector<stored_tournament> sqlite_reader::load_tournaments() {
  std::lock_guard lk(mu_);
  return in_read_txn(*db_, [&] { return detail::load_stored_tournaments(*db_); });
}

}  // namespace cod::server
