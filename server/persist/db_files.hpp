// Internal: the files of a server's database besides what SQLite does with
// them (docs/persistence.md, "One server per database" and "File modes").
//
// The database holds every live match's seed, so every hand: its files are
// created readable by their owner only. And one process at a time may write
// it: two servers running the same matches would each accept actions the
// other never sees. The owner lock is flock(LOCK_EX) on "<db>.lock" (a file of
// its own: SQLite uses POSIX locks on the database file, and closing any other
// descriptor of that file would drop them), held until the owner_lock is
// destroyed or the process dies (the kernel releases it: no stale lock after
// kill -9). cod-admin only reads and never takes it.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "common/status.hpp"

namespace cod::server::detail {

class owner_lock {
 public:
  // Takes the lock on `db_path` + ".lock" (created 0600) and writes this
  // process's pid into it. conflict, with a sentence naming the file and,
  // when it wrote one, the holder's pid, if another process (or another
  // store in this one) holds it; io_error when the file cannot be opened or
  // locked for another reason.
  static result<std::unique_ptr<owner_lock>> acquire(const std::string& db_path);
  ~owner_lock();
  owner_lock(const owner_lock&) = delete;
  owner_lock& operator=(const owner_lock&) = delete;

  const std::string& path() const { return path_; }

 private:
  owner_lock(std::string path, int fd) : path_(std::move(path)), fd_(fd) {}
  std::string path_;
  int fd_ = -1;
};

// Creates `db_path` empty with mode 0600 when it does not exist (SQLite then
// gives its -wal and -shm files the database file's mode). Returns "" or why
// it could not.
std::string create_private_file(const std::string& db_path);

// Logs a warning for each of the database's files (the file, -wal, -shm, the
// lock file) that exists and that its group or others may read or write.
// Returns the paths warned about (tests).
std::vector<std::string> warn_if_not_private(const std::string& db_path);

}  // namespace cod::server::detail
