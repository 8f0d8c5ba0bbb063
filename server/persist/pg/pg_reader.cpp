#include "persist/pg/pg_reader.hpp"

#include <mutex>

#include <algorithm>

#include "common/strcat.hpp"
#include "persist/pg/pg_migrations.hpp"
#include "persist/pg/pg_ratings.hpp"
#include "persist/pg/pg_tournaments.hpp"
#include "persist/pg/pg_util.hpp"
#include "persist/record_rows.hpp"

namespace cod::server {

using detail::cat;
using detail::match_columns;

namespace {

// One connection behind a mutex; a lost connection fails that read and is
// opened again for the next one.
class pg_reader_impl final : public pg_reader {
 public:
  explicit pg_reader_impl(const std::string& uri)
      : uri_(uri), conn_(std::make_unique<pg::conn>(uri, "cod-store-reader")) {
    schema_version_ = pg::check_schema(*conn_);
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
  // The connection, opened again when the last one was lost. Under mu_.
  pg::conn& connection();
  // Runs f(conn) in a read-only snapshot transaction. Under mu_.
  template <class F>
  auto in_snapshot(F&& f);

  std::mutex mu_;
  std::string uri_;
  std::unique_ptr<pg::conn> conn_;
};

}  // namespace

result<std::unique_ptr<pg_reader>> pg_reader::open(const std::string& uri) {
  try {
    return std::unique_ptr<pg_reader>(std::make_unique<pg_reader_impl>(uri));
  } catch (const std::exception& e) {
    return status::io_error(e.what());
  }
}

pg::conn& pg_reader_impl::connection() {
  if (!conn_ || !conn_->ok()) {
    conn_.reset();
    conn_ = std::make_unique<pg::conn>(uri_, "cod-store-reader");
  }
  return *conn_;
}

template <class F>
auto pg_reader_impl::in_snapshot(F&& f) {
  pg::conn& c = connection();
  c.exec("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
  try {
    auto out = f(c);
    c.exec("COMMIT");
    return out;
  } catch (...) {
    if (c.ok()) {
      try {
        c.exec("ROLLBACK");
      } catch (...) {
      }
    }
    throw;
  }
}

namespace {

void fill_log(pg::conn& c, stored_match& sm) {
  const std::string& id = sm.match.match_id;
  const pg::params by_id = pg::params().add(id);
  {
    const auto r = c.query(
        "SELECT seat, name, token_hash, deck_json, team, champion, ai, account_id FROM match_seats WHERE match_id = $1 "
        "ORDER BY seat",
        by_id);
    for (int i = 0; i < r.rows(); ++i) sm.match.seats.push_back(detail::seat_from_row(pg::row(r, i)));
  }
  {
    const auto r = c.query(
        "SELECT seq, seat, action_json, digest, at_ms FROM match_actions WHERE match_id = $1 ORDER BY seq", by_id);
    sm.actions.reserve(static_cast<std::size_t>(r.rows()));
    for (int i = 0; i < r.rows(); ++i) sm.actions.push_back(detail::action_from_row(id, pg::row(r, i)));
  }
  {
    const auto r = c.query(
        "SELECT seq, seat, kind, cards_json, at_ms FROM draft_events WHERE match_id = $1 ORDER BY seq", by_id);
    for (int i = 0; i < r.rows(); ++i) sm.draft.push_back(detail::draft_from_row(pg::row(r, i)));
  }
  {
    const auto r = c.query("SELECT at_ms, text FROM match_notes WHERE match_id = $1 ORDER BY note_id", by_id);
    for (int i = 0; i < r.rows(); ++i) sm.notes.push_back(detail::note_from_row(pg::row(r, i)));
  }
  sm.rating_changes = detail::read_match_rating_changes(c, id);
}

std::vector<stored_match> whole_matches(pg::conn& c, const std::string& where, const pg::params& p) {
  const auto r = c.query(cat("SELECT ", match_columns, " FROM matches ", where, " ORDER BY created_ms, match_id"), p);
  std::vector<stored_match> out;
  for (int i = 0; i < r.rows(); ++i) out.push_back(detail::match_from_row(pg::row(r, i)));
  for (stored_match& sm : out) fill_log(c, sm);
  return out;
}

// The WHERE clause of a match_query's filters (list_matches, count_matches),
// its parameters added to `p`: only the filters given, each combination one
// prepared statement.
std::string filter_sql(const match_query& q, pg::params& p) {
  auto param = [&p](auto v) {
    p.add(v);
    return cat("$", p.size());
  };
  std::string where = cat(" WHERE created_ms >= ", param(q.created_from_ms));
  if (q.created_to_ms != 0) where += cat(" AND created_ms < ", param(q.created_to_ms));
  if (!q.status.empty()) where += cat(" AND status = ", param(std::string_view(q.status)));
  // ASCII case-insensitive, as SQLite's NOCASE (index match_seats_name on lower(name)).
  if (!q.player.empty())
    where += cat(" AND match_id IN (SELECT match_id FROM match_seats WHERE lower(name) = lower(",
                 param(std::string_view(q.player)), "::text))");
  if (!q.mode.empty()) where += cat(" AND mode = ", param(std::string_view(q.mode)));
  if (q.account_id != 0)
    where += cat(" AND match_id IN (SELECT match_id FROM match_seats WHERE account_id = ", param(q.account_id), ")");
  // winners is a JSON array of seats ("[1]"); NULL while playing.
  if (q.winner >= 0)
    where += cat(" AND status = 'finished' AND winners::jsonb @> to_jsonb(", param(q.winner), "::int)");
  if (q.has_before) {
    const std::string at = param(q.before_created_ms);
    where += cat(" AND (created_ms < ", at, " OR (created_ms = ", at, " AND match_id < ",
                 param(std::string_view(q.before_match_id)), "))");
  }
  if (!q.tournament.empty())
    where += cat(" AND match_id IN (SELECT match_id FROM tournament_matches WHERE tournament_id = ",
                 param(std::string_view(q.tournament)), ")");
  return where;
}

}  // namespace

result<std::vector<stored_match>> pg_reader_impl::load_unfinished() {
  return detail::read_or_error([&]() -> std::vector<stored_match> {
    std::lock_guard lk(mu_);
    return in_snapshot([](pg::conn& c) { return whole_matches(c, "WHERE status = 'playing'", {}); });
  });
}

result<std::vector<stored_match>> pg_reader_impl::load_finished_since(std::int64_t ended_from_ms) {
  return detail::read_or_error([&]() -> std::vector<stored_match> {
    std::lock_guard lk(mu_);
    return in_snapshot([&](pg::conn& c) {
      return whole_matches(c, "WHERE status = 'finished' AND ended_ms >= $1", pg::params().add(ended_from_ms));
    });
  });
}

result<std::optional<stored_match>> pg_reader_impl::load_match(const std::string& match_id) {
  return detail::read_or_error([&]() -> std::optional<stored_match> {
    std::lock_guard lk(mu_);
    return in_snapshot([&](pg::conn& c) -> std::optional<stored_match> {
      const auto r = c.query(cat("SELECT ", match_columns, " FROM matches WHERE match_id = $1"), pg::params().add(match_id));
      if (r.rows() == 0) return std::nullopt;
      stored_match sm = detail::match_from_row(pg::row(r, 0));
      fill_log(c, sm);
      return sm;
    });
  });
}

result<std::vector<match_summary>> pg_reader_impl::list_matches(const match_query& q) {
  return detail::read_or_error([&]() -> std::vector<match_summary> {
    std::lock_guard lk(mu_);
    return in_snapshot([&](pg::conn& c) {
      pg::params p;
      const std::string where = filter_sql(q, p);
      auto param = [&p](auto v) {
        p.add(v);
        return cat("$", p.size());
      };
      const std::string limit = param(std::max(q.limit, 0));
      const std::string offset = param(std::max(q.offset, 0));
      const auto r = c.query(cat("SELECT ", match_columns,
                                 ", (SELECT COALESCE(MAX(seq), 0) FROM match_actions a WHERE a.match_id = m.match_id)"
                                 " FROM matches m",
                                 where, " ORDER BY created_ms DESC, match_id DESC LIMIT ", limit, " OFFSET ", offset),
                             p);
      std::vector<match_summary> out;
      for (int i = 0; i < r.rows(); ++i) out.push_back(detail::summary_from_row(pg::row(r, i)));
      for (match_summary& m : out) {
        const auto names = c.query("SELECT name, account_id FROM match_seats WHERE match_id = $1 ORDER BY seat",
                                   pg::params().add(m.match_id));
        for (int i = 0; i < names.rows(); ++i) {
          m.names.push_back(names.text(i, 0));
          m.accounts.push_back(names.is_null(i, 1) ? 0 : names.int64(i, 1));
        }
      }
      return out;
    });
  });
}

result<std::int64_t> pg_reader_impl::count_matches(const match_query& q) {
  return detail::read_or_error([&]() -> std::int64_t {
    std::lock_guard lk(mu_);
    pg::conn& c = connection();
    pg::params p;
    const std::string where = filter_sql(q, p);
    return c.query(cat("SELECT count(*) FROM matches m", where), p).int64(0, 0);
  });
}

result<std::vector<audit_record>> pg_reader_impl::list_audit(const std::string& match_id) {
  return detail::read_or_error([&]() -> std::vector<audit_record> {
    std::lock_guard lk(mu_);
    pg::conn& c = connection();
    const auto r = match_id.empty()
                       ? c.query("SELECT at_ms, role, remote, match_id, route, target FROM admin_audit ORDER BY audit_id",
                                 {})
                       : c.query("SELECT at_ms, role, remote, match_id, route, target FROM admin_audit "
                                 "WHERE match_id = $1 ORDER BY audit_id",
                                 pg::params().add(match_id));
    std::vector<audit_record> out;
    for (int i = 0; i < r.rows(); ++i) out.push_back(detail::audit_from_row(pg::row(r, i)));
    return out;
  });
}

// A league row as detail::league_from_row reads it.
constexpr const char* league_select = "SELECT league_id, name, created_ms, finished, record_json FROM leagues ";

result<std::vector<stored_league>> pg_reader_impl::load_leagues() {
  return detail::read_or_error([&]() -> std::vector<stored_league> {
    std::lock_guard lk(mu_);
    pg::conn& c = connection();
    const auto r =
        c.query(std::string(league_select) + "ORDER BY created_ms, league_id", {});
    std::vector<stored_league> out;
    for (int i = 0; i < r.rows(); ++i) out.push_back(detail::league_from_row(pg::row(r, i)));
    return out;
  });
}

result<std::optional<stored_league>> pg_reader_impl::load_league(const std::string& id) {
  return detail::read_or_error([&]() -> std::optional<stored_league> {
    std::lock_guard lk(mu_);
    const auto r = connection().query(
        std::string(league_select) + "WHERE league_id = $1",
        pg::params().add(id));
    if (r.rows() == 0) return std::nullopt;
    return detail::league_from_row(pg::row(r, 0));
  });
}

result<std::vector<stored_tournament>> pg_reader_impl::load_tournaments() {
  return detail::read_or_error([&]() -> std::vector<stored_tournament> {
    std::lock_guard lk(mu_);
    return in_snapshot([](pg::conn& c) { return pg::load_tournaments(c); });
  });
}

result<std::vector<rating_record>> pg_reader_impl::load_ratings(std::int64_t account_id) {
  return detail::read_or_error([&] {
    std::lock_guard lk(mu_);
    return detail::read_ratings(connection(), account_id);
  });
}

result<std::vector<rating_record>> pg_reader_impl::list_ladder(const ladder_query& q) {
  return detail::read_or_error([&] {
    std::lock_guard lk(mu_);
    return detail::read_ladder(connection(), q);
  });
}

result<std::vector<rating_change_record>> pg_reader_impl::rating_history(std::int64_t account_id, int offset,
                                                                         int limit) {
  return detail::read_or_error([&] {
    std::lock_guard lk(mu_);
    return detail::read_rating_history(connection(), account_id, offset, limit);
  });
}

result<std::vector<rating_change_record>> pg_reader_impl::match_rating_changes(const std::string& match_id) {
  return detail::read_or_error([&] {
    std::lock_guard lk(mu_);
    return detail::read_match_rating_changes(connection(), match_id);
  });
}

}  // namespace cod::server
