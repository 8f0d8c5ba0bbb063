#include "persist/sqlite/db_files.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <mutex>
#include <map>
#include <sstream>
#include <utility>

#include <spdlog/spdlog.h>

#include "common/strcat.hpp"

namespace cod::server::detail {

namespace {

// The pid of the process holding a flock on the file open as `fd`, from the
// kernel's lock table ("1: FLOCK  ADVISORY  WRITE 4242 fe:00:10953406 0 EOF":
// the device as major:minor in hex, then the inode): right whatever path the
// holder opened. "" when not found (no /proc, another pid namespace).
std::string holder_pid_from_proc(int fd) {
  struct stat st {};
  if (::fstat(fd, &st) != 0) return {};
  char id[64];
  std::snprintf(id, sizeof id, "%02x:%02x:%llu", ::major(st.st_dev), ::minor(st.st_dev),
                static_cast<unsigned long long>(st.st_ino));
  std::ifstream locks("/proc/locks");
  std::string line;
  while (std::getline(locks, line)) {
    std::istringstream in(line);
    std::string n, kind, advisory, access, pid, dev;
    if (!(in >> n >> kind >> advisory >> access >> pid >> dev)) continue;
    if (kind == "FLOCK" && dev == id && pid != "0" && pid.find_first_not_of("0123456789") == std::string::npos)
      return pid;
  }
  return {};
}

// The pid the holder wrote into its pid file ("" when none).
std::string holder_pid_from_file(const std::string& path) {
  std::ifstream f(path);
  std::string pid;
  char c;
  while (f.get(c) && c >= '0' && c <= '9') pid.push_back(c);
  return pid;
}

// The database files this process holds the lock of (device, inode). A
// second store of the same file in this process is refused from here,
// without opening the file: closing the descriptor it would open drops the
// first store's SQLite (POSIX) locks on the file. With the pid that took it:
// a forked child inherits the set, not the locks (it asks the kernel).
std::mutex held_mu;
std::map<std::pair<dev_t, ino_t>, pid_t> held;

// `pid_path`: where the pid was read, or "" when the kernel named it.
std::string conflict_message(const std::string& named, const std::string& pid, const std::string& pid_path) {
  return cat("database ", named, " is in use by another cod-server", pid.empty() ? std::string() : cat(" (pid ", pid, ")"),
             ", which holds its lock", pid_path.empty() ? std::string() : cat(" (its pid is in ", pid_path, ")"),
             ": one server per database; stop that one, or give this one a database of its own (db)");
}

// The canonical path of an existing file; `path` itself if it cannot be had.
std::string canonical(const std::string& path) {
  char buf[PATH_MAX];
  if (::realpath(path.c_str(), buf)) return buf;
  return path;
}

}  // namespace

result<std::unique_ptr<owner_lock>> owner_lock::acquire(const std::string& db_path) {
  const std::lock_guard lk(held_mu);
  if (struct stat st {}; ::stat(db_path.c_str(), &st) == 0) {
    const auto it = held.find({st.st_dev, st.st_ino});
    if (it != held.end() && it->second == ::getpid()) {
      const std::string file = canonical(db_path);
      return status::conflict(conflict_message(file == db_path ? db_path : cat(db_path, " (the file ", file, ")"),
                                               std::to_string(::getpid()), file + ".lock"));
    }
  }
  // Created 0600 when missing (SQLite would create it with the umask's mode).
  // Read-only is enough for flock; SQLite opens its own descriptors.
  const int fd = ::open(db_path.c_str(), O_RDONLY | O_CREAT | O_CLOEXEC, 0600);
  if (fd < 0) return status::io_error(cat("database ", db_path, ": cannot open or create it: ", std::strerror(errno)));
  std::string file = canonical(db_path);
  std::string pid_path = file + ".lock";
  const std::string named = file == db_path ? db_path : cat(db_path, " (the file ", file, ")");
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    const int e = errno;
    ::close(fd);
    return status::io_error(cat("database ", named, ": cannot stat it: ", std::strerror(e)));
  }
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    const int e = errno;
    std::string pid = holder_pid_from_proc(fd);
    std::string pid_from;
    if (pid.empty()) pid = holder_pid_from_file(pid_from = pid_path);
    ::close(fd);  // another process's lock: no SQLite connection to the file in this one
    if (e == EWOULDBLOCK) return status::conflict(conflict_message(named, pid, pid_from));
    return status::io_error(cat("database ", named, ": cannot lock it: ", std::strerror(e)));
  }
  held[{st.st_dev, st.st_ino}] = ::getpid();
  // Who holds it, for the message above and for an admin reading the file.
  const int pfd = ::open(pid_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  const std::string pid = cat(static_cast<long long>(::getpid()), '\n');
  if (pfd < 0 || ::write(pfd, pid.data(), pid.size()) != static_cast<ssize_t>(pid.size()))
    spdlog::warn("persist: cannot write this process's pid into {}: {}", pid_path, std::strerror(errno));
  if (pfd >= 0) ::close(pfd);
  return std::unique_ptr<owner_lock>(new owner_lock(std::move(file), std::move(pid_path), fd, st.st_dev, st.st_ino));
}

owner_lock::~owner_lock() {
  // Closing releases the flock, and would drop SQLite's POSIX locks on the
  // file if a connection to it were still open in this process: the store
  // closes its connections first. The pid file stays (only informative).
  const std::lock_guard lk(held_mu);
  if (fd_ >= 0) ::close(fd_);
  held.erase({dev_, ino_});
}

status make_private(const std::string& file) {
  for (const char* suffix : {"", "-wal", "-shm", ".lock"}) {
    const std::string p = file + suffix;
    struct stat st {};
    if (::stat(p.c_str(), &st) != 0 || (st.st_mode & (S_IRWXG | S_IRWXO)) == 0) continue;
    const unsigned mode = st.st_mode & 07777;
    // The owner's bits kept (0644 -> 0600; a read-only 0444 -> 0400, which
    // the start-up write check then refuses), the group's and others' gone.
    const unsigned mine = mode & S_IRWXU;
    if (::chmod(p.c_str(), mine) != 0) {
      const int e = errno;
      return status::io_error(cat(
          "database file ", p, " has mode ", fmt::format("{:o}", mode),
          ": its group or others can read it, and it holds every live match's seed (so every hand); cod-server "
          "makes it 600 at start but cannot: ",
          std::strerror(e), " (the file belongs to uid ", static_cast<long long>(st.st_uid), ", cod-server runs as uid ",
          static_cast<long long>(::geteuid()), "). Run chmod 600 ", p,
          " as its owner, or run cod-server as the user that owns the database"));
    }
    spdlog::warn("persist: {} had mode {:o}: its group or others could read it, and the database holds every live "
                 "match's seed (so every hand); made it {:o}",
                 p, mode, mine);
  }
  return {};
}

}  // namespace cod::server::detail
