#include "persist/pg/pg_ratings.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <map>
#include <optional>

#include "common/strcat.hpp"
#include "persist/pg/pg_util.hpp"
#include "persist/rating_update.hpp"
#include "persist/record_rows.hpp"
#include "rating/glicko2.hpp"

namespace cod::server::detail {

namespace {

pg::params& add_volatility(pg::params& p, const std::string& ladder, double v) {
  return ladder == "duel" ? p.add(v) : p.add_null();  // OpenSkill has none
}

}  // namespace

void store_rating_change(pg::conn& c, const std::string& match_id, const match_result& r) {
  const pg::params by_id = pg::params().add(match_id);
  match_record m;
  m.match_id = match_id;
  m.rated = true;
  {
    const auto q = c.query("SELECT mode FROM matches WHERE match_id = $1", by_id);
    if (q.rows() == 0) return;
    m.mode = q.text(0, 0);
  }
  {
    const auto q = c.query("SELECT seat, account_id, ai, team FROM match_seats WHERE match_id = $1 ORDER BY seat", by_id);
    for (int i = 0; i < q.rows(); ++i) {
      seat_record sr;
      sr.seat = static_cast<int>(q.int64(i, 0));
      sr.account_id = q.is_null(i, 1) ? 0 : q.int64(i, 1);
      sr.ai = q.int64(i, 2) != 0;
      if (!q.is_null(i, 3)) sr.team = static_cast<int>(q.int64(i, 3));
      m.seats.push_back(sr);
    }
  }
  unsigned played = 0;
  {
    const auto q = c.query("SELECT seat, action_json FROM match_actions WHERE match_id = $1", by_id);
    for (int i = 0; i < q.rows(); ++i) {
      const auto seat = q.int64(i, 0);
      if (seat >= 0 && seat < 8 && !(played & (1u << seat)) && is_play(q.text(i, 1))) played |= 1u << seat;
    }
  }
  const rating_plan plan = plan_rating(m, r, played);
  if (!plan.rated) {
    spdlog::info("persist: rated match {} is not rated: {}", match_id, plan.why);
    return;
  }
  // A row for every seat first (a first game's: games 0, replaced below in
  // this transaction), so that FOR UPDATE has a row to lock: a missing row
  // locks nothing, and two transactions would both rate from the start.
  // Account order throughout, so two such transactions never deadlock.
  std::vector<std::int64_t> accounts;
  for (const auto& s : plan.seats) accounts.push_back(s.account_id);
  std::sort(accounts.begin(), accounts.end());
  const rating_value fresh = new_rating(plan.ladder);
  for (std::int64_t a : accounts) {
    pg::params p;
    p.add(a).add(plan.ladder).add(fresh.value).add(fresh.deviation);
    add_volatility(p, plan.ladder, fresh.volatility).add(displayed(plan.ladder, fresh));
    c.query("INSERT INTO ratings (account_id, ladder, value, deviation, volatility, display, games, wins, losses, "
            "last_ms) VALUES ($1, $2, $3, $4, $5, $6, 0, 0, 0, 0) ON CONFLICT (account_id, ladder) DO NOTHING",
            p);
  }
  std::string ids = "{";
  for (std::int64_t a : accounts) ids += cat(ids.size() > 1 ? "," : "", a);
  ids += "}";
  std::map<std::int64_t, rating_record> rows;
  {
    const auto q = c.query(cat("SELECT ", rating_columns,
                               " FROM ratings WHERE ladder = $1 AND account_id = ANY($2::bigint[]) "
                               "ORDER BY account_id FOR UPDATE"),
                           pg::params().add(plan.ladder).add(ids));
    for (int i = 0; i < q.rows(); ++i) {
      rating_record row = rating_from_row(pg::row(q, i));
      rows[row.account_id] = row;
    }
  }
  std::vector<std::optional<rating_record>> before;
  for (const auto& s : plan.seats) {
    auto it = rows.find(s.account_id);
    before.push_back(it == rows.end() || it->second.games == 0 ? std::nullopt
                                                               : std::optional<rating_record>(it->second));
  }
  const rating_outcome out = rate_match(plan, match_id, before, r.ended_ms);
  for (const rating_record& row : out.rows) {
    pg::params p;
    p.add(row.account_id).add(row.ladder).add(row.r.value).add(row.r.deviation);
    add_volatility(p, row.ladder, row.r.volatility).add(row.display).add(row.games).add(row.wins).add(row.losses);
    p.add(row.last_ms);
    c.query("UPDATE ratings SET value = $3, deviation = $4, volatility = $5, display = $6, games = $7, wins = $8, "
            "losses = $9, last_ms = $10 WHERE account_id = $1 AND ladder = $2",
            p);
  }
  for (const rating_change_record& ch : out.changes) {
    pg::params p;
    p.add(ch.match_id).add(ch.seat).add(ch.account_id).add(ch.ladder).add(ch.ended_ms);
    p.add(ch.before.value).add(ch.before.deviation);
    add_volatility(p, ch.ladder, ch.before.volatility).add(ch.before_last_ms).add(ch.after.value).add(ch.after.deviation);
    add_volatility(p, ch.ladder, ch.after.volatility).add(ch.delta);
    c.query(cat("INSERT INTO rating_changes (", rating_change_columns,
                ") VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)"),
            p);
  }
}

std::vector<rating_record> read_ratings(pg::conn& c, std::int64_t account_id) {
  const auto q = c.query(cat("SELECT ", rating_columns, " FROM ratings WHERE account_id = $1 ORDER BY ladder"),
                         pg::params().add(account_id));
  std::vector<rating_record> out;
  for (int i = 0; i < q.rows(); ++i) out.push_back(rating_from_row(pg::row(q, i)));
  return out;
}

std::vector<rating_record> read_ladder(pg::conn& c, const ladder_query& q) {
  pg::params p;
  p.add(q.ladder).add(std::max(q.limit, 0)).add(std::max(q.offset, 0));
  if (q.established_only) p.add(ratings::glicko2_params{}.provisional_deviation);
  // ratings_ladder (ladder, display DESC, account_id) serves the order.
  const auto r = c.query(cat("SELECT ", rating_columns, " FROM ratings WHERE ladder = $1",
                             q.established_only ? " AND NOT (ladder = 'duel' AND deviation >= $4)" : "",
                             q.active_only ? " AND account_id NOT IN (SELECT account_id FROM accounts WHERE "
                                             "disabled = 1 OR deleted = 1)"
                                           : "",
                             " ORDER BY display DESC, account_id LIMIT $2 OFFSET $3"),
                         p);
  std::vector<rating_record> out;
  for (int i = 0; i < r.rows(); ++i) out.push_back(rating_from_row(pg::row(r, i)));
  return out;
}

std::vector<rating_change_record> read_rating_history(pg::conn& c, std::int64_t account_id, int offset, int limit) {
  const auto r = c.query(cat("SELECT ", rating_change_columns,
                             " FROM rating_changes WHERE account_id = $1 ORDER BY ended_ms DESC, match_id DESC "
                             "LIMIT $2 OFFSET $3"),
                         pg::params().add(account_id).add(std::max(limit, 0)).add(std::max(offset, 0)));
  std::vector<rating_change_record> out;
  for (int i = 0; i < r.rows(); ++i) out.push_back(rating_change_from_row(pg::row(r, i)));
  return out;
}

std::vector<rating_change_record> read_match_rating_changes(pg::conn& c, const std::string& match_id) {
  const auto r = c.query(cat("SELECT ", rating_change_columns, " FROM rating_changes WHERE match_id = $1 ORDER BY seat"),
                         pg::params().add(match_id));
  std::vector<rating_change_record> out;
  for (int i = 0; i < r.rows(); ++i) out.push_back(rating_change_from_row(pg::row(r, i)));
  return out;
}

}  // namespace cod::server::detail
