#include "persist/sqlite_store.hpp"

#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>
#include <sqlite3.h>

#include <chrono>
#include <unordered_map>

#include "common/strcat.hpp"
#include "common/text_forms.hpp"
#include "persist/checkpointer.hpp"
#include "persist/db_files.hpp"
#include "persist/migrations.hpp"
#include "persist/sqlite_util.hpp"
#include "persist/write_queue.hpp"

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


std::unique_ptr<sqlite_reader> sqlite_reader::open(const std::string& path, std::string& error) {
  try {
    std::unique_ptr<sqlite_reader> r(new sqlite_reader());
    r->db_ = std::make_unique<sql::db>(path, sql::db::mode::read_only);
    r->schema_version_ = check_schema(*r->db_);
    return r;
  } catch (const std::exception& e) {
    error = e.what();
    return nullptr;
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

// ---------------------------------------------------------------------------
// sqlite_store: the writer

struct sqlite_store::writer {
  explicit writer(const std::string& path) : db(path, sql::db::mode::read_write_create) {}

  void prepare() {
    begin = std::make_unique<sql::stmt>(db, "BEGIN IMMEDIATE");
    commit = std::make_unique<sql::stmt>(db, "COMMIT");
    rollback = std::make_unique<sql::stmt>(db, "ROLLBACK");
    savepoint = std::make_unique<sql::stmt>(db, "SAVEPOINT op");
    release = std::make_unique<sql::stmt>(db, "RELEASE op");
    rollback_to = std::make_unique<sql::stmt>(db, "ROLLBACK TO op");
    insert_match = std::make_unique<sql::stmt>(
        db,
        "INSERT INTO matches (match_id, room_id, mode, format, options_json, rules_version, engine_version, "
        "seed, seed_hash, created_ms, status) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, 'playing')");
    insert_seat = std::make_unique<sql::stmt>(
        db,
        "INSERT INTO match_seats (match_id, seat, name, token_hash, deck_json, team, champion, ai) "
        "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)");
    match_state = std::make_unique<sql::stmt>(
        db,
        "SELECT status, (SELECT COALESCE(MAX(seq), 0) FROM match_actions WHERE match_id = ?1) "
        "FROM matches WHERE match_id = ?1");
    insert_action = std::make_unique<sql::stmt>(
        db,
        "INSERT INTO match_actions (match_id, seq, seat, action_json, digest, at_ms) "
        "VALUES (?1, ?2, ?3, ?4, ?5, ?6)");
    finish = std::make_unique<sql::stmt>(
        db,
        "UPDATE matches SET status = 'finished', ended_ms = ?2, winners = ?3, reason = ?4 "
        "WHERE match_id = ?1 AND status = 'playing'");
    insert_note =
        std::make_unique<sql::stmt>(db, "INSERT INTO match_notes (match_id, at_ms, text) VALUES (?1, ?2, ?3)");
    last_draft_seq =
        std::make_unique<sql::stmt>(db, "SELECT COALESCE(MAX(seq), 0) FROM draft_events WHERE match_id = ?1");
    insert_draft = std::make_unique<sql::stmt>(
        db,
        "INSERT INTO draft_events (match_id, seq, seat, kind, cards_json, at_ms) VALUES (?1, ?2, ?3, ?4, ?5, ?6)");
  }

  // status and last seq of a match; nullopt when unknown. Matches this writer
  // has written are answered from `known` (the writer is the only one: the
  // database cannot change under it); others are read once.
  struct match_state_entry {
    bool playing = true;
    std::int64_t last_seq = 0;
  };
  std::optional<match_state_entry> state_of(const std::string& id) {
    if (auto it = known.find(id); it != known.end()) return it->second;
    sql::reset_guard g(*match_state);
    match_state->bind(1, id);
    if (!match_state->step()) return std::nullopt;
    match_state_entry e{match_state->text(0) == "playing", match_state->int64(1)};
    if (e.playing) known.emplace(id, e);
    return e;
  }

  // One write inside the batch transaction. Returns "" when done, else why it
  // was refused (nothing of it stored). Throws on storage failure.
  std::string apply(const detail::write_op& op) {
    if (const auto* c = std::get_if<detail::create_op>(&op.what)) {
      const match_record& m = c->m;
      std::string why = in_savepoint(refuse::constraint, [&] {
        insert_match->bind(1, m.match_id).bind(2, m.room_id).bind(3, m.mode).bind(4, m.format);
        insert_match->bind(5, m.options_json);
        insert_match->bind(6, m.rules_version).bind(7, m.engine_version).bind(8, std::to_string(m.seed));
        insert_match->bind(9, m.seed_hash).bind(10, m.created_ms);
        insert_match->run();
        for (const seat_record& s : m.seats) {
          insert_seat->bind(1, m.match_id).bind(2, s.seat).bind(3, s.name).bind(4, s.token_hash).bind(5, s.deck_json);
          if (s.team) insert_seat->bind(6, *s.team);
          else insert_seat->bind_null(6);
          if (!s.champion.empty()) insert_seat->bind(7, s.champion);
          else insert_seat->bind_null(7);
          insert_seat->bind(8, s.ai ? 1 : 0);
          insert_seat->run();
        }
      });
      if (why.empty()) known[m.match_id] = match_state_entry{};
      return why;
    }
    if (const auto* a = std::get_if<detail::append_op>(&op.what)) {
      auto st = state_of(a->match_id);
      if (!st) return "unknown match";
      if (!st->playing) return "the match is finished";
      if (a->a.seq != st->last_seq + 1) return cat("seq ", a->a.seq, " does not follow the last seq ", st->last_seq);
      std::string why = insert_or_refuse(*insert_action, [&](sql::stmt& s) {
        s.bind(1, a->match_id).bind(2, a->a.seq).bind(3, a->a.seat).bind(4, a->a.action_json);
        s.bind(5, digest_hex(a->a.digest)).bind(6, a->a.at_ms);
      });
      if (why.empty()) known[a->match_id].last_seq = a->a.seq;
      return why;
    }
    if (const auto* f = std::get_if<detail::finish_op>(&op.what)) {
      finish->bind(1, f->match_id).bind(2, f->r.ended_ms).bind(3, seats_json(f->r.winners)).bind(4, f->r.reason);
      finish->run();
      if (db.changes() == 1) {
        known.erase(f->match_id);  // finished: read again if ever asked
        return {};
      }
      return state_of(f->match_id) ? "the match is finished already" : "unknown match";
    }
    if (const auto* r = std::get_if<detail::sql_op>(&op.what)) {
      return in_savepoint(refuse::any_error, [&] { r->fn(db); });
    }
    if (const auto* dr = std::get_if<detail::draft_op>(&op.what)) {
      auto st = state_of(dr->match_id);
      if (!st) return "unknown match";
      if (!st->playing) return "the match is finished";
      std::int64_t last = 0;
      {
        sql::reset_guard g(*last_draft_seq);
        last_draft_seq->bind(1, dr->match_id);
        if (last_draft_seq->step()) last = last_draft_seq->int64(0);
      }
      for (std::size_t i = 0; i < dr->rows.size(); ++i)
        if (dr->rows[i].seq != last + 1 + static_cast<std::int64_t>(i))
          return cat("draft seq ", dr->rows[i].seq, " does not follow the last draft seq ", last);
      // All rows or none.
      return in_savepoint(refuse::constraint, [&] {
        for (const draft_event_record& r : dr->rows) {
          insert_draft->bind(1, dr->match_id).bind(2, r.seq).bind(3, r.seat).bind(4, r.kind);
          insert_draft->bind(5, r.cards_json).bind(6, r.at_ms);
          insert_draft->run();
        }
      });
    }
    const auto& n = std::get<detail::note_op>(op.what);
    return insert_or_refuse(*insert_note, [&](sql::stmt& s) {
      s.bind(1, n.match_id).bind(2, n.n.at_ms).bind(3, n.n.text);
    });
  }

  // Which failures of a multi-statement write refuse just that write (undone
  // to its savepoint, the batch goes on); any other fails the whole batch.
  // Run SQL (sql_op) is the caller's own code: whatever it throws refuses it.
  enum class refuse { constraint, any_error };

  // Runs `write` inside SAVEPOINT op: all of it or none. Returns "" when
  // done, else why it was refused.
  template <class Write>
  std::string in_savepoint(refuse on, Write&& write) {
    savepoint->run();
    try {
      write();
      release->run();
      return {};
    } catch (const sql::sql_error& e) {
      if (on == refuse::constraint && e.code != SQLITE_CONSTRAINT) throw;
      return undo_savepoint(e);
    } catch (const std::exception& e) {
      if (on == refuse::constraint) throw;
      return undo_savepoint(e);
    }
  }

  std::string undo_savepoint(const std::exception& e) {
    rollback_to->run();
    release->run();
    return e.what();
  }

  // A single-statement write: a constraint failure refuses just this write
  // (SQLite undoes the statement, the transaction goes on).
  template <class Bind>
  std::string insert_or_refuse(sql::stmt& s, Bind&& bind) {
    try {
      bind(s);
      s.run();
      return {};
    } catch (const sql::sql_error& e) {
      if (e.code != SQLITE_CONSTRAINT) throw;
      return e.what();
    }
  }

  void commit_batch(std::vector<detail::write_op>& batch, std::vector<char>& ok) {
    const auto t0 = std::chrono::steady_clock::now();
    try {
      begin->run();
      for (std::size_t i = 0; i < batch.size(); ++i) {
        const std::string why = apply(batch[i]);
        ok[i] = why.empty();
        if (!why.empty()) spdlog::warn("persist: {} refused: {}", detail::describe(batch[i]), why);
      }
      commit->run();
    } catch (const std::exception& e) {
      spdlog::error("persist: {}: a batch of {} writes failed, none stored: {}", db.path(), batch.size(), e.what());
      if (db.in_transaction()) {
        try {
          rollback->run();
        } catch (const std::exception& e2) {
          spdlog::error("persist: {}: rollback failed: {}", db.path(), e2.what());
        }
      }
      ok.assign(batch.size(), 0);
      known.clear();  // the batch is undone: forget what it taught
      health.failed(batch.size(), e.what());
      return;
    }
    health.committed();
    const auto us = std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - t0);
    spdlog::debug("persist: committed {} writes in {} us", batch.size(), us.count());
  }

  sql::db db;
  std::unique_ptr<sql::stmt> begin, commit, rollback, savepoint, release, rollback_to;
  std::unique_ptr<sql::stmt> insert_match, insert_seat, match_state, insert_action, finish, insert_note;
  std::unique_ptr<sql::stmt> last_draft_seq, insert_draft;
  std::unordered_map<std::string, match_state_entry> known;  // playing matches
  detail::health_tracker health;
};

namespace {

// BEGIN IMMEDIATE and COMMIT alone succeed on a read-only file in WAL mode:
// only a real write finds out that every match would fail. This one rewrites
// a row of schema_migrations as it is.
void check_writable(sql::db& d) {
  try {
    d.exec("BEGIN IMMEDIATE");
    d.exec("UPDATE schema_migrations SET applied_at = applied_at "
           "WHERE version = (SELECT MAX(version) FROM schema_migrations)");
    d.exec("COMMIT");
  } catch (const persist_error& e) {
    if (d.in_transaction()) {
      try {
        d.exec("ROLLBACK");
      } catch (...) {
      }
    }
    throw persist_error(cat(e.what(), " (the start-up write check: cod-server must store every action, so it does not "
                            "start on a database it cannot write; check the file's owner and mode, that its "
                            "directory is writable for the -wal and -shm files, and the free space)"));
  }
}

}  // namespace

std::unique_ptr<sqlite_store> sqlite_store::open(const sqlite_options& o, std::string& error) {
  try {
    std::unique_ptr<sqlite_store> s(new sqlite_store());
    // One server per database, before anything touches it (db_files.hpp).
    s->lock_ = detail::owner_lock::acquire(o.path, error);
    if (!s->lock_) return nullptr;
    if (std::string e = detail::create_private_file(o.path); !e.empty()) throw persist_error(e);
    detail::warn_if_not_private(o.path);
    s->writer_ = std::make_unique<writer>(o.path);
    sql::db& d = s->writer_->db;
    const auto mode = d.query_text("PRAGMA journal_mode = WAL");
    if (!mode || *mode != "wal")
      throw persist_error(cat("database ", o.path, ": cannot use WAL journal mode (got '", mode.value_or(""), "')"));
    d.exec(o.synchronous == sqlite_options::sync::full ? "PRAGMA synchronous = FULL" : "PRAGMA synchronous = NORMAL");
    d.exec("PRAGMA foreign_keys = ON");
    sqlite3_busy_timeout(d.handle(), o.busy_timeout_ms);
    d.exec("PRAGMA journal_size_limit = 67108864");
    s->version_at_open_ = migrate(d);
    check_writable(d);
    s->writer_->prepare();
    // Checkpoints leave the writer thread (persist/checkpointer.hpp).
    d.exec("PRAGMA wal_autocheckpoint = 0");
    s->checkpointer_ = std::make_unique<detail::checkpointer>(o.path, d.handle(), o.checkpoint_pages);
    s->reader_ = sqlite_reader::open(o.path, error);
    if (!s->reader_) return nullptr;
    writer* w = s->writer_.get();
    s->queue_ = std::make_unique<detail::write_queue>(
        o.path, o.max_batch,
        [w](std::vector<detail::write_op>& batch, std::vector<char>& ok) { w->commit_batch(batch, ok); });
    return s;
  } catch (const std::exception& e) {
    error = e.what();
    return nullptr;
  }
}

sqlite_store::~sqlite_store() {
  queue_.reset();  // commits what is queued, joins the writer
  checkpointer_.reset();  // a last checkpoint, then its thread stops
  reader_.reset();
  writer_.reset();
}

void sqlite_store::create_match(const match_record& m, done_fn done) {
  queue_->push({detail::create_op{m}, std::move(done)});
}

void sqlite_store::append_action(const std::string& match_id, const action_record& a, done_fn done) {
  queue_->push({detail::append_op{match_id, a}, std::move(done)});
}

void sqlite_store::finish_match(const std::string& match_id, const match_result& r, done_fn done) {
  queue_->push({detail::finish_op{match_id, r}, std::move(done)});
}

void sqlite_store::append_draft(const std::string& match_id, const std::vector<draft_event_record>& rows,
                                done_fn done) {
  queue_->push({detail::draft_op{match_id, rows}, std::move(done)});
}

void sqlite_store::append_note(const std::string& match_id, std::int64_t at_ms, const std::string& text) {
  queue_->push({detail::note_op{match_id, {at_ms, text}}, nullptr});
}

void sqlite_store::run_sql(std::string what, std::function<void(sql::db&)> fn, done_fn done) {
  queue_->push({detail::sql_op{std::move(what), std::move(fn)}, std::move(done)});
}

std::vector<stored_match> sqlite_store::load_unfinished() { return reader_->load_unfinished(); }

std::vector<stored_match> sqlite_store::load_finished_since(std::int64_t ended_from_ms) {
  return reader_->load_finished_since(ended_from_ms);
}

std::optional<stored_match> sqlite_store::load_match(const std::string& match_id) {
  return reader_->load_match(match_id);
}

std::vector<match_summary> sqlite_store::list_matches(const match_query& q) { return reader_->list_matches(q); }

void sqlite_store::flush() { queue_->flush(); }

std::uint64_t sqlite_store::checkpoints() const { return checkpointer_->runs(); }
std::uint64_t sqlite_store::checkpointed_pages() const { return checkpointer_->pages_copied(); }

store_health sqlite_store::health() const { return writer_->health.get(); }

std::size_t sqlite_store::pending() const { return queue_->pending(); }

std::uint64_t sqlite_store::commits() const { return queue_->batches(); }

}  // namespace cod::server
