#include "persist/sqlite/sqlite_store.hpp"

#include <spdlog/spdlog.h>
#include <sqlite3.h>

#include <algorithm>
#include <chrono>
#include <thread>
#include <utility>
#include <unordered_map>

#include "common/strcat.hpp"
#include "common/text_forms.hpp"
#include "persist/sqlite/checkpointer.hpp"
#include "persist/sqlite/db_files.hpp"
#include "persist/sqlite/sqlite_migrations.hpp"
#include "persist/sqlite/sqlite_accounts.hpp"
#include "persist/sqlite/sqlite_directory.hpp"
#include "persist/sqlite/sqlite_queue.hpp"
#include "persist/sqlite/sqlite_ratings.hpp"
#include "persist/sqlite/sqlite_tournaments.hpp"
#include "persist/sqlite/sqlite_util.hpp"
#include "persist/write_queue.hpp"
#include "persist/write_rules.hpp"

namespace cod::server {

using detail::cat;

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
        "seed, seed_hash, created_ms, status, cards_json, rated) "
        "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, 'playing', ?11, ?12)");
    insert_seat = std::make_unique<sql::stmt>(
        db,
        "INSERT INTO match_seats (match_id, seat, name, token_hash, deck_json, team, champion, ai, account_id) "
        "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)");
    state_query = std::make_unique<sql::stmt>(
        db,
        "SELECT status, (SELECT COALESCE(MAX(seq), 0) FROM match_actions WHERE match_id = ?1), "
        "(SELECT COALESCE(MAX(seq), 0) FROM draft_events WHERE match_id = ?1), rated "
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
    insert_draft = std::make_unique<sql::stmt>(
        db,
        "INSERT INTO draft_events (match_id, seq, seat, kind, cards_json, at_ms) VALUES (?1, ?2, ?3, ?4, ?5, ?6)");
    upsert_league = std::make_unique<sql::stmt>(
        db,
        "INSERT INTO leagues (league_id, name, created_ms, finished, record_json) VALUES (?1, ?2, ?3, ?4, ?5) "
        "ON CONFLICT (league_id) DO UPDATE SET name = excluded.name, finished = excluded.finished, "
        "record_json = excluded.record_json");
    insert_audit = std::make_unique<sql::stmt>(
        db,
        "INSERT INTO admin_audit (at_ms, role, remote, match_id, route, target) VALUES (?1, ?2, ?3, ?4, ?5, ?6)");
  }

  // Puts the matches `op` names in `view` (write_rules.hpp): each is read
  // once, then kept while it plays (this writer is the only one: the
  // database cannot change under it). The others are forgotten when the
  // batch ends, and the whole view when a batch is undone.
  void look_up(const detail::write_op& op) {
    detail::each_match(op, [&](const std::string& id) {
      if (view.count(id)) return;
      detail::match_state st;  // absent
      sql::reset_guard g(*state_query);
      state_query->bind(1, id);
      if (state_query->step())
        st = {state_query->text(0) == "playing" ? detail::match_state::kind::playing
                                                : detail::match_state::kind::finished,
              state_query->int64(1), state_query->int64(2), {}, state_query->int64(3) != 0};
      view.emplace(id, std::move(st));
    });
  }

  // One write inside the batch transaction: ok when done, else why it was
  // refused (nothing of it stored). Throws on storage failure.
  status apply(const detail::write_op& op) {
    look_up(op);
    status st = detail::check_write(op, view);
    if (st) st = std::visit([this](const auto& o) { return apply_one(o); }, op.what);
    if (st) detail::applied(op, view);
    detail::each_match(op, [&](const std::string& id) {
      if (view[id].k != detail::match_state::kind::playing) forget.push_back(id);
    });
    return st;
  }

  // The statements of a write check_write accepted. A constraint that still
  // fails refuses it (the storage's second line).
  status apply_one(const detail::create_op& c) {
    const match_record& m = c.m;
    return in_savepoint(refuse::constraint, [&] {
      insert_match->bind(1, m.match_id).bind(2, m.room_id).bind(3, m.mode).bind(4, m.format);
      insert_match->bind(5, m.options_json);
      insert_match->bind(6, m.rules_version).bind(7, m.engine_version).bind(8, std::to_string(m.seed));
      insert_match->bind(9, m.seed_hash).bind(10, m.created_ms).bind(11, m.cards_json).bind(12, m.rated ? 1 : 0);
      insert_match->run();
      for (const seat_record& s : m.seats) {
        insert_seat->bind(1, m.match_id).bind(2, s.seat).bind(3, s.name).bind(4, s.token_hash).bind(5, s.deck_json);
        if (s.team) insert_seat->bind(6, *s.team);
        else insert_seat->bind_null(6);
        if (!s.champion.empty()) insert_seat->bind(7, s.champion);
        else insert_seat->bind_null(7);
        insert_seat->bind(8, s.ai ? 1 : 0);
        if (s.account_id != 0) insert_seat->bind(9, s.account_id);
        else insert_seat->bind_null(9);
        insert_seat->run();
      }
    });
  }

  status apply_one(const detail::append_op& a) {
    return insert_or_refuse(*insert_action, [&](sql::stmt& s) {
      s.bind(1, a.match_id).bind(2, a.a.seq).bind(3, a.a.seat).bind(4, a.a.action_json);
      s.bind(5, digest_hex(a.a.digest)).bind(6, a.a.at_ms);
    });
  }

  // A rated match's rating change goes with its result, in one savepoint:
  // both or neither (a rating_changes row already there, the second line
  // against rating twice, refuses the finish too).
  status apply_one(const detail::finish_op& f) {
    bool changed = false;
    const bool rated = view[f.match_id].rated;
    status st = in_savepoint(refuse::constraint, [&] {
      finish->bind(1, f.match_id).bind(2, f.r.ended_ms).bind(3, seats_json(f.r.winners)).bind(4, f.r.reason);
      finish->run();
      changed = db.changes() == 1;
      if (changed && rated) detail::store_rating_change(db, f.match_id, f.r);
    });
    if (st && !changed) return status::conflict("the match is finished already");
    return st;
  }

  status apply_one(const detail::draft_op& dr) {
    // All rows or none.
    return in_savepoint(refuse::constraint, [&] {
      for (const draft_event_record& r : dr.rows) {
        insert_draft->bind(1, dr.match_id).bind(2, r.seq).bind(3, r.seat).bind(4, r.kind);
        insert_draft->bind(5, r.cards_json).bind(6, r.at_ms);
        insert_draft->run();
      }
    });
  }

  status apply_one(const detail::note_op& n) {
    return insert_or_refuse(*insert_note, [&](sql::stmt& s) {
      s.bind(1, n.match_id).bind(2, n.n.at_ms).bind(3, n.n.text);
    });
  }

  // A tournament's statements are not prepared once: it is saved after acts
  // and results, far less often than actions.
  status apply_one(const detail::tournament_op& t) {
    return in_savepoint(refuse::any_error, [&] { detail::save_tournament(db, t.t); });
  }

  status apply_one(const detail::audit_op& a) {
    return in_savepoint(refuse::any_error, [&] {
      insert_audit->bind(1, a.r.at_ms).bind(2, a.r.role).bind(3, a.r.remote).bind(4, a.r.match_id);
      insert_audit->bind(5, a.r.route).bind(6, a.r.target);
      insert_audit->run();
    });
  }

  status apply_one(const detail::league_save_op& o) {
    return in_savepoint(refuse::any_error, [&] {
      upsert_league->bind(1, o.l.id).bind(2, o.l.name).bind(3, o.l.created_ms).bind(4, o.l.finished ? 1 : 0);
      upsert_league->bind(5, o.l.record_json);
      upsert_league->run();
    });
  }

  // Which failures of a multi-statement write refuse just that write (undone
  // to its savepoint, the batch goes on); any other fails the whole batch.
  // The tournament and audit writes refuse on any error, as they always did:
  // losing one of them must not cost the matches' writes of the same batch.
  enum class refuse { constraint, any_error };

  // Runs `write` inside SAVEPOINT op: all of it or none. Returns ok when
  // done, else why it was refused.
  template <class Write>
  status in_savepoint(refuse on, Write&& write) {
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

  status undo_savepoint(const std::exception& e) {
    rollback_to->run();
    release->run();
    return status::conflict(e.what());
  }

  // A single-statement write: a constraint failure refuses just this write
  // (SQLite undoes the statement, the transaction goes on).
  template <class Bind>
  status insert_or_refuse(sql::stmt& s, Bind&& bind) {
    try {
      bind(s);
      s.run();
      return {};
    } catch (const sql::sql_error& e) {
      if (e.code != SQLITE_CONSTRAINT) throw;
      return status::conflict(e.what());
    }
  }

  // One try: the whole batch in one transaction. Throws on storage failure
  // (the transaction may still be open).
  void try_batch(std::vector<detail::write_op>& batch, std::vector<status>& out) {
    begin->run();
    for (std::size_t i = 0; i < batch.size(); ++i) {
      out[i] = apply(batch[i]);
      if (!out[i]) spdlog::warn("persist: {} refused: {}", detail::describe(batch[i]), out[i].message());
    }
    commit->run();
    for (const std::string& id : forget) view.erase(id);
    forget.clear();
  }

  void undo_batch() {
    if (db.in_transaction()) {
      try {
        rollback->run();
      } catch (const std::exception& e2) {
        spdlog::error("persist: {}: rollback failed: {}", db.path(), e2.what());
      }
    }
    view.clear();  // the batch is undone: forget what it taught
    forget.clear();
  }

  // Another process holds the write lock (SQLITE_BUSY once SQLite's busy
  // handler gave up after busy_timeout_ms; SQLITE_LOCKED): the batch is
  // undone and tried again, the database's state read afresh, until
  // busy_max_ms have passed since its first try. Meanwhile its rooms wait
  // (their requests in their backlogs) and tell their players.
  static bool locked(const std::exception& e) {
    const auto* s = dynamic_cast<const sql::sql_error*>(&e);
    return s && (s->code == SQLITE_BUSY || s->code == SQLITE_LOCKED);
  }

  void commit_batch(std::vector<detail::write_op>& batch, std::vector<status>& out) {
    using clock = std::chrono::steady_clock;
    const auto t0 = clock::now();
    const auto deadline = t0 + std::chrono::milliseconds(busy_max_ms);
    const auto since = [&] {
      return std::chrono::duration_cast<std::chrono::milliseconds>(clock::now() - t0).count();
    };
    bool waiting = false;  // the wait was logged
    for (;;) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - clock::now()).count();
      sqlite3_busy_timeout(db.handle(), static_cast<int>(std::clamp<std::int64_t>(left, 1, busy_timeout_ms)));
      try {
        out.assign(batch.size(), status::ok());
        try_batch(batch, out);
        break;
      } catch (const std::exception& e) {
        undo_batch();
        if (locked(e) && clock::now() < deadline) {
          if (!std::exchange(waiting, true))
            spdlog::warn("persist: {}: the database is locked by another process (a backup? an sqlite3 shell in a "
                         "transaction?): {} writes have waited {} ms; waiting up to {} s in all (store_busy_max_sec), "
                         "then their matches are abandoned. End that process's transaction (fuser {} shows who has "
                         "the file open)",
                         db.path(), batch.size(), since(), busy_max_ms / 1000.0, db.path());
          // SQLite's busy handler waited; an immediate refusal (SQLITE_LOCKED) must not spin.
          std::this_thread::sleep_for(std::chrono::milliseconds(
              std::clamp<std::int64_t>(std::chrono::duration_cast<std::chrono::milliseconds>(deadline - clock::now())
                                           .count(),
                                       0, 10)));
          continue;
        }
        const bool gave_up = waiting && locked(e);
        const std::string why =
            gave_up ? cat(e.what(), " (still locked after ", since(), " ms, the most store_busy_max_sec allows)")
                    : std::string(e.what());
        if (gave_up)
          spdlog::error("persist: {}: the database stayed locked by another process for {} ms: giving up", db.path(),
                        since());
        spdlog::error("persist: {}: a batch of {} writes failed, none stored: {}", db.path(), batch.size(), why);
        out.assign(batch.size(), status::io_error(cat(db.path(), ": the batch failed, none of its writes stored: ", why)));
        health.failed(batch.size(), why);
        return;
      }
    }
    if (waiting)
      spdlog::warn("persist: {}: the database is free again after {} ms: the {} waiting writes are stored", db.path(),
                   since(), batch.size());
    health.committed();
    const auto us = std::chrono::duration_cast<std::chrono::microseconds>(clock::now() - t0);
    spdlog::debug("persist: committed {} writes in {} us", batch.size(), us.count());
  }

  sql::db db;
  std::unique_ptr<sql::stmt> begin, commit, rollback, savepoint, release, rollback_to;
  std::unique_ptr<sql::stmt> insert_match, insert_seat, state_query, insert_action, finish, insert_note;
  std::unique_ptr<sql::stmt> insert_draft, insert_audit, upsert_league;
  detail::match_states view;        // playing matches, and those of the batch so far
  std::vector<std::string> forget;  // the batch's matches not playing: out of the view after it
  detail::health_tracker health;
  int busy_timeout_ms = 5000;  // sqlite_options
  int busy_max_ms = 60000;
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

result<std::unique_ptr<sqlite_store>> sqlite_store::open(const sqlite_options& o) {
  try {
    std::unique_ptr<sqlite_store> s(new sqlite_store());
    // One server per database, before anything touches it (db_files.hpp):
    // the lock is the file's, whatever path names it.
    auto lock = detail::owner_lock::acquire(o.path);
    if (!lock) return lock.error();
    s->lock_ = std::move(*lock);
    // Every connection opens the canonical path, beside which SQLite keeps
    // the -wal and -shm that make_private checked.
    const std::string path = s->lock_->file();
    if (status st = detail::make_private(path); !st) return st;
    s->writer_ = std::make_unique<writer>(path);
    sql::db& d = s->writer_->db;
    const auto mode = d.query_text("PRAGMA journal_mode = WAL");
    if (!mode || *mode != "wal")
      throw persist_error(cat("database ", path, ": cannot use WAL journal mode (got '", mode.value_or(""), "')"));
    d.exec(o.synchronous == sqlite_options::sync::full ? "PRAGMA synchronous = FULL" : "PRAGMA synchronous = NORMAL");
    d.exec("PRAGMA foreign_keys = ON");
    sqlite3_busy_timeout(d.handle(), o.busy_timeout_ms);
    s->writer_->busy_timeout_ms = std::max(1, o.busy_timeout_ms);
    s->writer_->busy_max_ms = std::max(0, o.busy_max_ms);
    d.exec("PRAGMA journal_size_limit = 67108864");
    s->version_at_open_ = migrate(d);
    check_writable(d);
    s->writer_->prepare();
    // Checkpoints leave the writer thread (persist/checkpointer.hpp).
    d.exec("PRAGMA wal_autocheckpoint = 0");
    s->checkpointer_ = std::make_unique<detail::checkpointer>(path, d.handle(), o.checkpoint_pages);
    auto reader = sqlite_reader::open(path);
    if (!reader) return reader.error();
    s->reader_ = std::move(*reader);
    s->directory_ = std::make_unique<detail::sqlite_directory>(path, o.busy_timeout_ms, *s->reader_);
    s->accounts_ = detail::open_sqlite_accounts(path, o.busy_timeout_ms);
    s->board_ = std::make_unique<detail::sqlite_queue>(path, o.busy_timeout_ms);
    writer* w = s->writer_.get();
    s->queue_ = std::make_unique<detail::write_queue>(
        path, o.max_batch,
        [w](std::vector<detail::write_op>& batch, std::vector<status>& out) { w->commit_batch(batch, out); });
    return s;
  } catch (const std::exception& e) {
    return status::io_error(e.what());
  }
}

sqlite_store::~sqlite_store() {
  queue_.reset();  // commits what is queued, joins the writer
  checkpointer_.reset();  // a last checkpoint, then its thread stops
  accounts_.reset();
  board_.reset();
  directory_.reset();
  reader_.reset();
  writer_.reset();
  // Last, once every connection of this store is closed: closing the owner
  // lock's descriptor of the database file drops every POSIX lock this
  // process holds on the file, SQLite's included (db_files.hpp).
  lock_.reset();
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

void sqlite_store::save_tournament(const stored_tournament& t, done_fn done) {
  queue_->push({detail::tournament_op{t}, std::move(done)});
}

void sqlite_store::save_league(const stored_league& l, done_fn done) {
  queue_->push({detail::league_save_op{l}, std::move(done)});
}

void sqlite_store::record_audit(const audit_record& r, done_fn done) {
  queue_->push({detail::audit_op{r}, std::move(done)});
}

void sqlite_store::flush() { queue_->flush(); }

std::uint64_t sqlite_store::checkpoints() const { return checkpointer_->runs(); }
std::uint64_t sqlite_store::checkpointed_pages() const { return checkpointer_->pages_copied(); }

store_health sqlite_store::health() const { return writer_->health.get(); }

std::size_t sqlite_store::pending() const { return queue_->pending(); }

std::uint64_t sqlite_store::commits() const { return queue_->batches(); }

room_directory* sqlite_store::directory() { return directory_.get(); }
queue_board* sqlite_store::queue() { return board_.get(); }

account_store* sqlite_store::accounts() { return accounts_.get(); }

}  // namespace cod::server
