#include "persist/sqlite/sqlite_reader.hpp"

#include <mutex>

#include "common/strcat.hpp"
#include "persist/sqlite/sqlite_migrations.hpp"
#include "persist/record_rows.hpp"
#include "persist/sqlite/sqlite_ratings.hpp"
#include "persist/sqlite/sqlite_tournaments.hpp"
#include "persist/sqlite/sqlite_util.hpp"

namespace cod::server {

using detail::cat;

using detail::match_columns;


namespace {

// One read-only connection behind a mutex.
class sqlite_reader_impl final : public sqlite_reader {
 public:
  explicit sqlite_reader_impl(const std::string& path)
      : db_(std::make_unique<sql::db>(path, sql::db::mode::read_only)) {
    schema_version_ = check_schema(*db_);
  }

  result<std::vector<stored_match>> load_unfinished() override;
  result<std::vector<stored_match>> load_finished_since(std::int64_t ended_from_ms) override;
  result<std::optional<stored_match>> load_match(const std::string& match_id) override;
  result<std::vector<match_summary>> list_matches(const match_query& q) override;
  result<std::int64_t> count_matches(const match_query& q) override;
  result<std::vector<audit_record>> list_audit(const std::string& match_id) override;
  result<std::vector<stored_tournament>> load_tournaments() override;
  result<std::vector<stored_league>> load_leagues() override;
  result<std::optional<stored_league>> load_league(const std::string& id) override;
  result<std::vector<rating_record>> load_ratings(std::int64_t account_id) override;
  result<std::vector<rating_record>> list_ladder(const ladder_query& q) override;
  result<std::vector<rating_change_record>> rating_history(std::int64_t account_id, int offset, int limit) override;
  result<std::vector<rating_change_record>> match_rating_changes(const std::string& match_id) override;

 private:
  std::mutex mu_;
  std::unique_ptr<sql::db> db_;
};

}  // namespace

result<std::unique_ptr<sqlite_reader>> sqlite_reader::open(const std::string& path) {
  try {
    return std::unique_ptr<sqlite_reader>(std::make_unique<sqlite_reader_impl>(path));
  } catch (const std::exception& e) {
    return status::io_error(e.what());
  }
}

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
                "SELECT seat, name, token_hash, deck_json, team, champion, ai, account_id FROM match_seats WHERE match_id = ?1 "
                "ORDER BY seat");
    s.bind(1, id);
    while (s.step()) sm.match.seats.push_back(detail::seat_from_row(s));
  }
  {
    sql::stmt s(d,
                "SELECT seq, seat, action_json, digest, at_ms FROM match_actions WHERE match_id = ?1 ORDER BY seq");
    s.bind(1, id);
    while (s.step()) sm.actions.push_back(detail::action_from_row(id, s));
  }
  {
    sql::stmt s(d, "SELECT seq, seat, kind, cards_json, at_ms FROM draft_events WHERE match_id = ?1 ORDER BY seq");
    s.bind(1, id);
    while (s.step()) sm.draft.push_back(detail::draft_from_row(s));
  }
  {
    sql::stmt s(d, "SELECT at_ms, text FROM match_notes WHERE match_id = ?1 ORDER BY note_id");
    s.bind(1, id);
    while (s.step()) sm.notes.push_back(detail::note_from_row(s));
  }
  sm.rating_changes = detail::read_match_rating_changes(d, id);
}

// The WHERE clause of a match_query's filters (list_matches, count_matches);
// ?5 and ?6 are left for the page.
std::string filter_sql(const match_query& q) {
  std::string where = " WHERE created_ms >= ?1";
  if (q.created_to_ms != 0) where += " AND created_ms < ?2";
  if (!q.status.empty()) where += " AND status = ?3";
  if (!q.player.empty())
    where += " AND match_id IN (SELECT match_id FROM match_seats WHERE name = ?4 COLLATE NOCASE)";
  if (!q.mode.empty()) where += " AND mode = ?7";
  if (q.account_id != 0)
    where += " AND match_id IN (SELECT match_id FROM match_seats WHERE account_id = ?12)";
  // winners is a JSON array of seats ("[1]"); NULL while playing.
  if (q.winner >= 0)
    where += " AND status = 'finished' AND EXISTS (SELECT 1 FROM json_each(m.winners) WHERE value = ?8)";
  if (q.has_before) where += " AND (created_ms < ?9 OR (created_ms = ?9 AND match_id < ?10))";
  // A tournament's matches are those its games name (migration 0011).
  if (!q.tournament.empty())
    where += " AND match_id IN (SELECT match_id FROM tournament_matches WHERE tournament_id = ?11)";
  return where;
}

void bind_filters(sql::stmt& s, const match_query& q) {
  s.bind(1, q.created_from_ms);
  if (q.created_to_ms != 0) s.bind(2, q.created_to_ms);
  if (!q.status.empty()) s.bind(3, q.status);
  if (!q.player.empty()) s.bind(4, q.player);
  if (!q.mode.empty()) s.bind(7, q.mode);
  if (q.winner >= 0) s.bind(8, q.winner);
  if (q.has_before) s.bind(9, q.before_created_ms).bind(10, q.before_match_id);
  if (!q.tournament.empty()) s.bind(11, q.tournament);
  if (q.account_id != 0) s.bind(12, q.account_id);
}

}  // namespace

result<std::vector<stored_match>> sqlite_reader_impl::load_finished_since(std::int64_t ended_from_ms) {
  return detail::read_or_error([&]() -> std::vector<stored_match> {
    std::lock_guard lk(mu_);
    return in_read_txn(*db_, [&] {
      std::vector<stored_match> out;
      // No index on ended_ms: this walks the finished rows of matches_status
      // once, at start-up (a created_ms bound would miss long matches).
      sql::stmt s(*db_, cat("SELECT ", match_columns,
                            " FROM matches WHERE status = 'finished' AND ended_ms >= ?1 ORDER BY created_ms, match_id"));
      s.bind(1, ended_from_ms);
      while (s.step()) out.push_back(detail::match_from_row(s));
      for (stored_match& sm : out) fill_log(*db_, sm);
      return out;
    });
  });
}

result<std::vector<stored_match>> sqlite_reader_impl::load_unfinished() {
  return detail::read_or_error([&]() -> std::vector<stored_match> {
    std::lock_guard lk(mu_);
    return in_read_txn(*db_, [&] {
      std::vector<stored_match> out;
      sql::stmt s(*db_, cat("SELECT ", match_columns,
                            " FROM matches WHERE status = 'playing' ORDER BY created_ms, match_id"));
      while (s.step()) out.push_back(detail::match_from_row(s));
      for (stored_match& sm : out) fill_log(*db_, sm);
      return out;
    });
  });
}

result<std::optional<stored_match>> sqlite_reader_impl::load_match(const std::string& match_id) {
  return detail::read_or_error([&]() -> std::optional<stored_match> {
    std::lock_guard lk(mu_);
    return in_read_txn(*db_, [&]() -> std::optional<stored_match> {
      sql::stmt s(*db_, cat("SELECT ", match_columns, " FROM matches WHERE match_id = ?1"));
      s.bind(1, match_id);
      if (!s.step()) return std::nullopt;
      stored_match sm = detail::match_from_row(s);
      fill_log(*db_, sm);
      return sm;
    });
  });
}

result<std::vector<match_summary>> sqlite_reader_impl::list_matches(const match_query& q) {
  return detail::read_or_error([&]() -> std::vector<match_summary> {
    std::lock_guard lk(mu_);
    return in_read_txn(*db_, [&] {
      const std::string where = filter_sql(q);
      sql::stmt s(*db_, cat("SELECT ", match_columns,
                            ", (SELECT COALESCE(MAX(seq), 0) FROM match_actions a WHERE a.match_id = m.match_id)"
                            " FROM matches m",
                            where, " ORDER BY created_ms DESC, match_id DESC LIMIT ?5 OFFSET ?6"));
      bind_filters(s, q);
      s.bind(5, std::max(q.limit, 0)).bind(6, std::max(q.offset, 0));
      std::vector<match_summary> out;
      while (s.step()) out.push_back(detail::summary_from_row(s));
      sql::stmt names(*db_, "SELECT name, account_id FROM match_seats WHERE match_id = ?1 ORDER BY seat");
      for (match_summary& m : out) {
        sql::reset_guard g(names);
        names.bind(1, m.match_id);
        while (names.step()) {
          m.names.push_back(names.text(0));
          m.accounts.push_back(names.is_null(1) ? 0 : names.int64(1));
        }
      }
      return out;
    });
  });
}

result<std::int64_t> sqlite_reader_impl::count_matches(const match_query& q) {
  return detail::read_or_error([&]() -> std::int64_t {
    std::lock_guard lk(mu_);
    sql::stmt s(*db_, cat("SELECT count(*) FROM matches m", filter_sql(q)));
    bind_filters(s, q);
    s.step();
    return s.int64(0);
  });
}

result<std::vector<audit_record>> sqlite_reader_impl::list_audit(const std::string& match_id) {
  return detail::read_or_error([&]() -> std::vector<audit_record> {
    std::lock_guard lk(mu_);
    std::vector<audit_record> out;
    sql::stmt s(*db_, cat("SELECT at_ms, role, remote, match_id, route, target FROM admin_audit",
                          match_id.empty() ? "" : " WHERE match_id = ?1", " ORDER BY audit_id"));
    if (!match_id.empty()) s.bind(1, match_id);
    while (s.step()) out.push_back(detail::audit_from_row(s));
    return out;
  });
}

// A league row as detail::league_from_row reads it.
constexpr const char* league_select = "SELECT league_id, name, created_ms, finished, record_json FROM leagues ";

result<std::vector<stored_league>> sqlite_reader_impl::load_leagues() {
  return detail::read_or_error([&]() -> std::vector<stored_league> {
    std::lock_guard lk(mu_);
    std::vector<stored_league> out;
    sql::stmt s(*db_, std::string(league_select) + "ORDER BY created_ms, league_id");
    while (s.step()) out.push_back(detail::league_from_row(s));
    return out;
  });
}

result<std::optional<stored_league>> sqlite_reader_impl::load_league(const std::string& id) {
  return detail::read_or_error([&]() -> std::optional<stored_league> {
    std::lock_guard lk(mu_);
    sql::stmt s(*db_, std::string(league_select) + "WHERE league_id = ?1");
    s.bind(1, id);
    if (!s.step()) return std::nullopt;
    return detail::league_from_row(s);
  });
}

result<std::vector<stored_tournament>> sqlite_reader_impl::load_tournaments() {
  return detail::read_or_error([&]() -> std::vector<stored_tournament> {
    std::lock_guard lk(mu_);
    return in_read_txn(*db_, [&] { return detail::load_tournaments(*db_); });
  });
}

result<std::vector<rating_record>> sqlite_reader_impl::load_ratings(std::int64_t account_id) {
  return detail::read_or_error([&] {
    std::lock_guard lk(mu_);
    return detail::read_ratings(*db_, account_id);
  });
}

result<std::vector<rating_record>> sqlite_reader_impl::list_ladder(const ladder_query& q) {
  return detail::read_or_error([&] {
    std::lock_guard lk(mu_);
    return detail::read_ladder(*db_, q);
  });
}

result<std::vector<rating_change_record>> sqlite_reader_impl::rating_history(std::int64_t account_id, int offset,
                                                                             int limit) {
  return detail::read_or_error([&] {
    std::lock_guard lk(mu_);
    return detail::read_rating_history(*db_, account_id, offset, limit);
  });
}

result<std::vector<rating_change_record>> sqlite_reader_impl::match_rating_changes(const std::string& match_id) {
  return detail::read_or_error([&] {
    std::lock_guard lk(mu_);
    return detail::read_match_rating_changes(*db_, match_id);
  });
}

}  // namespace cod::server
