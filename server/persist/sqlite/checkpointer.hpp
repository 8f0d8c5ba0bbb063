// Internal: WAL checkpoints off the writer thread.
//
// SQLite's automatic checkpoint runs inside the COMMIT that crosses the
// threshold, on the committing thread: it copies the WAL into the database
// and fsyncs it, which stalls that batch (and every room waiting on it) for
// milliseconds. The store turns it off on its writer connection and hands the
// work to this thread, which checkpoints on its own connection (PASSIVE: it
// never blocks the writer or readers) whenever the writer reports a WAL of
// `threshold_pages` or more, and once more when it stops.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

struct sqlite3;

namespace cod::server::sql {
class db;
}

namespace cod::server::detail {

class checkpointer {
 public:
  // Opens its own connection to `path` (which must exist, in WAL mode) and
  // installs the WAL hook on `writer` (the writer connection). Throws
  // persist_error when the file cannot be opened.
  checkpointer(const std::string& path, sqlite3* writer, int threshold_pages);
  // Checkpoints what is left, then stops. Call after the writer's last commit.
  ~checkpointer();
  checkpointer(const checkpointer&) = delete;
  checkpointer& operator=(const checkpointer&) = delete;

  // Checkpoints run so far (for tests).
  std::uint64_t runs() const;
  // WAL pages copied into the database by those checkpoints (for tests).
  std::uint64_t pages_copied() const;

 private:
  static int on_wal_commit(void* self, sqlite3* db, const char* name, int pages);
  void run();
  void checkpoint_once();

  std::unique_ptr<sql::db> db_;
  sqlite3* writer_;
  int threshold_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  bool wanted_ = false;
  bool stop_ = false;
  std::uint64_t runs_ = 0;
  std::uint64_t pages_copied_ = 0;
  std::thread thread_;  // last: started once the rest is ready
};

}  // namespace cod::server::detail
