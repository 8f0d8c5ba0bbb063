// The match_store of the server: one SQLite file (docs/persistence.md).
//
//   auto opened = cod::server::sqlite_store::open({.path = "var/cod.db"});
//   if (!opened) { spdlog::critical("{}", opened.error().message()); return 1; }
//   auto store = std::move(*opened);
//
// One writer thread owns the only read-write connection and its prepared
// statements. It drains its queue, commits up to max_batch writes in one
// transaction (group commit), then runs their callbacks in queue order: a
// callback given an ok status means the write is committed. Reads (load_*,
// list_*) use a separate read-only connection (sqlite_reader.hpp) and see
// committed data.
//
// Durability: WAL journal. synchronous=NORMAL by default: a committed write
// survives the process being killed (kill -9, crash), because it is in the
// WAL file through the OS before the callback runs; an OS crash or power loss
// may lose the last transactions (never corrupts the file). synchronous=FULL
// also fsyncs the WAL at each commit (one fsync per batch), for power-loss
// durability at the cost of latency.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>

#include "persist/account_store.hpp"
#include "persist/match_store.hpp"
#include "persist/queue_board.hpp"
#include "persist/room_directory.hpp"
#include "persist/sqlite/sqlite_reader.hpp"

namespace cod::server {

namespace sql {
class db;
}
namespace detail {
class write_queue;
class sqlite_directory;
class checkpointer;
class owner_lock;
}

struct sqlite_options {
  std::string path{};            // created when missing
  enum class sync { normal, full } synchronous = sync::normal;
  std::size_t max_batch = 1024;  // most writes per transaction
  // Another process holding the write lock (a backup, an admin's sqlite3
  // shell in a transaction): the writer waits busy_timeout_ms in SQLite's
  // busy handler, then logs that the database is locked and tries the batch
  // again, until busy_max_ms have passed since the batch's first try; past
  // that the batch fails (its matches are abandoned). The room directory's
  // connection waits busy_timeout_ms.
  int busy_timeout_ms = 5000;
  int busy_max_ms = 60000;       // the config's store_busy_max_sec
  int checkpoint_pages = 1000;   // WAL size that starts a checkpoint (on its own thread)
};

class sqlite_store final : public match_store {
 public:
  // Takes the database file's owner lock (db_files.hpp; whatever path names
  // the file), makes its files 0600 (creating the file when missing), opens,
  // switches to WAL, applies the migrations, and writes once to check it
  // can. On failure a sentence and a code: conflict when another process
  // holds the lock; io_error for a file it may not make private (another
  // user's), an unreadable or corrupt file, a database that is not ours, a
  // schema newer than ours, a file it cannot write.
  static result<std::unique_ptr<sqlite_store>> open(const sqlite_options& o);
  // Commits everything queued, then closes.
  ~sqlite_store() override;

  void create_match(const match_record& m, done_fn done) override;
  void append_action(const std::string& match_id, const action_record& a, done_fn done) override;
  void finish_match(const std::string& match_id, const match_result& r, done_fn done) override;
  void append_note(const std::string& match_id, std::int64_t at_ms, const std::string& text) override;
  void append_draft(const std::string& match_id, const std::vector<draft_event_record>& rows,
                    done_fn done) override;
  void save_tournament(const stored_tournament& t, done_fn done) override;
  void record_audit(const audit_record& r, done_fn done) override;
  // WAL checkpoints run so far (checkpointer.hpp), for tests and metrics.
  std::uint64_t checkpoints() const;
  // WAL pages those checkpoints copied into the database file (for tests).
  std::uint64_t checkpointed_pages() const;

  void save_league(const stored_league& l, done_fn done) override;
  // Reads on a connection of their own; committed data only.
  match_reader& reader() override { return *reader_; }
  void flush() override;
  std::size_t pending() const override;
  std::uint64_t commits() const override;
  store_health health() const override;
  // Leases and the lobby (room_directory.hpp), on a connection of their own (sqlite_directory.hpp).
  room_directory* directory() override;
  // Accounts and sessions (account_store.hpp), on a connection of their own (sqlite_accounts.hpp).
  account_store* accounts() override;
  // A cluster's queue (queue_board.hpp), on a connection of its own (sqlite_queue.hpp).
  queue_board* queue() override;
  // The schema version the file had when opened (0: new file).
  int schema_version_at_open() const { return version_at_open_; }

 private:
  struct writer;
  sqlite_store() = default;

  // Held from open to the end (db_files.hpp): a descriptor of the database
  // file itself, whose closing drops SQLite's POSIX locks on the file in this
  // process. So it is declared first (destroyed last) and the destructor
  // releases it explicitly after closing every connection below; an open
  // that fails part way destroys the connections (declared after it) first too.
  std::unique_ptr<detail::owner_lock> lock_;
  std::unique_ptr<writer> writer_;
  std::unique_ptr<sqlite_reader> reader_;
  std::unique_ptr<detail::sqlite_directory> directory_;
  std::unique_ptr<account_store> accounts_;
  std::unique_ptr<queue_board> board_;
  std::unique_ptr<detail::checkpointer> checkpointer_;  // WAL checkpoints, after the queue stops
  std::unique_ptr<detail::write_queue> queue_;  // destroyed first (the destructor resets it)
  int version_at_open_ = 0;
};

}  // namespace cod::server
