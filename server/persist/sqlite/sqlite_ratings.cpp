#include "persist/sqlite/sqlite_ratings.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <optional>

#include "common/strcat.hpp"
#include "persist/rating_update.hpp"
#include "persist/record_rows.hpp"
#include "persist/sqlite/sqlite_util.hpp"
#include "rating/glicko2.hpp"

namespace cod::server::detail {

namespace {

void bind_volatility(sql::stmt& s, int i, const std::string& ladder, double v) {
  if (ladder == "duel") s.bind(i, v);
  else s.bind_null(i);  // OpenSkill has none
}

}  // namespace

void store_rating_change(sql::db& d, const std::string& match_id, const match_result& r) {
  // What plan_rating needs of the record: its mode, the seats, who played.
  match_record m;
  m.match_id = match_id;
  m.rated = true;
  {
    sql::stmt s(d, "SELECT mode FROM matches WHERE match_id = ?1");
    s.bind(1, match_id);
    if (!s.step()) return;
    m.mode = s.text(0);
  }
  {
    sql::stmt s(d, "SELECT seat, account_id, ai, team FROM match_seats WHERE match_id = ?1 ORDER BY seat");
    s.bind(1, match_id);
    while (s.step()) {
      seat_record sr;
      sr.seat = static_cast<int>(s.int64(0));
      sr.account_id = s.is_null(1) ? 0 : s.int64(1);
      sr.ai = s.int64(2) != 0;
      if (!s.is_null(3)) sr.team = static_cast<int>(s.int64(3));
      m.seats.push_back(sr);
    }
  }
  unsigned played = 0;
  {
    sql::stmt s(d, "SELECT seat, action_json FROM match_actions WHERE match_id = ?1");
    s.bind(1, match_id);
    while (s.step()) {
      const auto seat = s.int64(0);
      if (seat >= 0 && seat < 8 && !(played & (1u << seat)) && is_play(s.text(1))) played |= 1u << seat;
    }
  }
  const rating_plan plan = plan_rating(m, r, played);
  if (!plan.rated) {
    spdlog::info("persist: rated match {} is not rated: {}", match_id, plan.why);
    return;
  }
  std::vector<std::optional<rating_record>> before;
  {
    sql::stmt s(d, cat("SELECT ", rating_columns, " FROM ratings WHERE account_id = ?1 AND ladder = ?2"));
    for (const auto& seat : plan.seats) {
      sql::reset_guard g(s);
      s.bind(1, seat.account_id).bind(2, plan.ladder);
      before.push_back(s.step() ? std::optional<rating_record>(rating_from_row(s)) : std::nullopt);
    }
  }
  const rating_outcome out = rate_match(plan, match_id, before, r.ended_ms);
  sql::stmt upsert(d,
                   "INSERT INTO ratings (account_id, ladder, value, deviation, volatility, display, games, wins, "
                   "losses, last_ms) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10) "
                   "ON CONFLICT (account_id, ladder) DO UPDATE SET value = excluded.value, deviation = "
                   "excluded.deviation, volatility = excluded.volatility, display = excluded.display, games = "
                   "excluded.games, wins = excluded.wins, losses = excluded.losses, last_ms = excluded.last_ms");
  for (const rating_record& row : out.rows) {
    upsert.bind(1, row.account_id).bind(2, row.ladder).bind(3, row.r.value).bind(4, row.r.deviation);
    bind_volatility(upsert, 5, row.ladder, row.r.volatility);
    upsert.bind(6, row.display).bind(7, row.games).bind(8, row.wins).bind(9, row.losses).bind(10, row.last_ms);
    upsert.run();
  }
  sql::stmt insert(d, cat("INSERT INTO rating_changes (", rating_change_columns,
                          ") VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)"));
  for (const rating_change_record& c : out.changes) {
    insert.bind(1, c.match_id).bind(2, c.seat).bind(3, c.account_id).bind(4, c.ladder).bind(5, c.ended_ms);
    insert.bind(6, c.before.value).bind(7, c.before.deviation);
    bind_volatility(insert, 8, c.ladder, c.before.volatility);
    insert.bind(9, c.before_last_ms).bind(10, c.after.value).bind(11, c.after.deviation);
    bind_volatility(insert, 12, c.ladder, c.after.volatility);
    insert.bind(13, c.delta);
    insert.run();
  }
}

std::vector<rating_record> read_ratings(sql::db& d, std::int64_t account_id) {
  sql::stmt s(d, cat("SELECT ", rating_columns, " FROM ratings WHERE account_id = ?1 ORDER BY ladder"));
  s.bind(1, account_id);
  std::vector<rating_record> out;
  while (s.step()) out.push_back(rating_from_row(s));
  return out;
}

std::vector<rating_record> read_ladder(sql::db& d, const ladder_query& q) {
  // ratings_ladder (ladder, display DESC, account_id) serves the order.
  sql::stmt s(d, cat("SELECT ", rating_columns, " FROM ratings WHERE ladder = ?1",
                     q.established_only ? " AND NOT (ladder = 'duel' AND deviation >= ?4)" : "",
                     q.active_only ? " AND account_id NOT IN (SELECT account_id FROM accounts WHERE disabled = 1 "
                                     "OR deleted = 1)"
                                   : "",
                     " ORDER BY display DESC, account_id LIMIT ?2 OFFSET ?3"));
  s.bind(1, q.ladder).bind(2, std::max(q.limit, 0)).bind(3, std::max(q.offset, 0));
  if (q.established_only) s.bind(4, ratings::glicko2_params{}.provisional_deviation);
  std::vector<rating_record> out;
  while (s.step()) out.push_back(rating_from_row(s));
  return out;
}

std::vector<rating_change_record> read_rating_history(sql::db& d, std::int64_t account_id, int offset, int limit) {
  sql::stmt s(d, cat("SELECT ", rating_change_columns,
                     " FROM rating_changes WHERE account_id = ?1 ORDER BY ended_ms DESC, match_id DESC "
                     "LIMIT ?2 OFFSET ?3"));
  s.bind(1, account_id).bind(2, std::max(limit, 0)).bind(3, std::max(offset, 0));
  std::vector<rating_change_record> out;
  while (s.step()) out.push_back(rating_change_from_row(s));
  return out;
}

std::vector<rating_change_record> read_match_rating_changes(sql::db& d, const std::string& match_id) {
  sql::stmt s(d, cat("SELECT ", rating_change_columns, " FROM rating_changes WHERE match_id = ?1 ORDER BY seat"));
  s.bind(1, match_id);
  std::vector<rating_change_record> out;
  while (s.step()) out.push_back(rating_change_from_row(s));
  return out;
}

}  // namespace cod::server::detail
