// Internal: the files of a server's database besides what SQLite does with
// them (docs/persistence.md, "One server per database" and "File modes").
//
// One process at a time may write a database: two servers running the same
// matches would each accept actions the other never sees. The owner lock is
// flock(LOCK_EX) on the database file itself, so it is the file's (its
// device and inode), whatever path names it: a symlink, "dir/../x.db", a
// hard link. flock locks do not interact with the POSIX (fcntl) locks SQLite
// takes on the same file, but closing ANY descriptor of the file drops every
// POSIX lock this process holds on it: the owner_lock must be destroyed only
// after every SQLite connection to the file in this process is closed
// (sqlite_store declares it first, so it goes last). For the same reason a
// second store of a file in the same process is refused from the set of
// files this process holds (device, inode), without opening the file (only
// when another process holds it does a refused open close its descriptor).
// The kernel releases the lock when the process dies (no stale lock after
// kill -9). The holder's pid
// goes into "<file>.lock" beside the file's canonical path, for the refusal
// message and for an admin. cod-admin only reads and never takes it.
//
// The database holds every live match's seed, so every hand: its files are
// made readable by their owner only.
#pragma once

#include <sys/types.h>

#include <memory>
#include <string>
#include <utility>

#include "common/status.hpp"

namespace cod::server::detail {

class owner_lock {
 public:
  // Creates `db_path` empty with mode 0600 when it does not exist, opens it
  // and takes the lock on it, then writes this process's pid into
  // file() + ".lock" (created 0600). conflict, with a sentence naming the
  // file and, when known, the holder's pid, if another process (or another
  // store in this one) holds it; io_error when the file cannot be created,
  // opened or locked for another reason.
  static result<std::unique_ptr<owner_lock>> acquire(const std::string& db_path);
  // Releases the lock. Close every SQLite connection to the file first (the
  // header's comment says why).
  ~owner_lock();
  owner_lock(const owner_lock&) = delete;
  owner_lock& operator=(const owner_lock&) = delete;

  // The database file's canonical path (symlinks and ".." resolved): SQLite
  // keeps its -wal and -shm beside it.
  const std::string& file() const { return file_; }
  // The file the holder's pid is written into: file() + ".lock".
  const std::string& pid_path() const { return pid_path_; }

 private:
  owner_lock(std::string file, std::string pid_path, int fd, dev_t dev, ino_t ino)
      : file_(std::move(file)), pid_path_(std::move(pid_path)), fd_(fd), dev_(dev), ino_(ino) {}
  std::string file_;
  std::string pid_path_;
  int fd_ = -1;  // the database file, flocked
  dev_t dev_;    // its identity, in this process's set of held files
  ino_t ino_;
};

// Makes each of the database's files that exists (`file` as owner_lock::file()
// names it, its -wal and -shm, its ".lock") private when its group or others
// may read or write it (their bits removed: 0644 becomes 0600), with a
// warning naming it; SQLite then gives
// the -wal and -shm it creates later the database's 0600. io_error, naming
// the file and what to do, when one cannot be changed (chmod fails: another
// user's file).
status make_private(const std::string& file);

}  // namespace cod::server::detail
