#include "persist/db_files.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <spdlog/spdlog.h>

#include "common/strcat.hpp"

namespace cod::server::detail {

namespace {

// The pid the holder wrote into its lock file ("" when none yet).
std::string holder_pid(int fd) {
  char buf[32] = {};
  const ssize_t n = ::pread(fd, buf, sizeof buf - 1, 0);
  std::string pid;
  for (ssize_t i = 0; i < n && buf[i] >= '0' && buf[i] <= '9'; ++i) pid.push_back(buf[i]);
  return pid;
}

}  // namespace

result<std::unique_ptr<owner_lock>> owner_lock::acquire(const std::string& db_path) {
  std::string path = db_path + ".lock";
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  if (fd < 0) {
    return status::io_error(cat("database ", db_path, ": cannot open its lock file ", path, ": ", std::strerror(errno)));
  }
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    const int e = errno;
    const std::string pid = holder_pid(fd);
    ::close(fd);
    if (e == EWOULDBLOCK)
      return status::conflict(cat("database ", db_path, " is in use by another cod-server",
                                  pid.empty() ? std::string() : cat(" (pid ", pid, ")"), ", which holds its lock file ",
                                  path,
                                  ": one server per database; stop that one, or give this one a database of its own "
                                  "(db)"));
    return status::io_error(cat("database ", db_path, ": cannot lock ", path, ": ", std::strerror(e)));
  }
  // Who holds it, for the message above and for an admin reading the file.
  const std::string pid = cat(static_cast<long long>(::getpid()), '\n');
  if (::ftruncate(fd, 0) != 0 || ::pwrite(fd, pid.data(), pid.size(), 0) != static_cast<ssize_t>(pid.size()))
    spdlog::warn("persist: cannot write this process's pid into {}: {}", path, std::strerror(errno));
  return std::unique_ptr<owner_lock>(new owner_lock(std::move(path), fd));
}

owner_lock::~owner_lock() {
  // Closing releases the lock. The file stays: removing it could let a
  // third process lock a new file while a second still waits on the old one.
  if (fd_ >= 0) ::close(fd_);
}

std::string create_private_file(const std::string& db_path) {
  const int fd = ::open(db_path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd >= 0) {
    ::close(fd);
    return {};
  }
  if (errno == EEXIST) return {};
  return cat("database ", db_path, ": cannot create it: ", std::strerror(errno));
}

std::vector<std::string> warn_if_not_private(const std::string& db_path) {
  std::vector<std::string> shared;
  for (const char* suffix : {"", "-wal", "-shm", ".lock"}) {
    const std::string p = db_path + suffix;
    struct stat st {};
    if (::stat(p.c_str(), &st) != 0 || (st.st_mode & (S_IRWXG | S_IRWXO)) == 0) continue;
    spdlog::warn("persist: {} has mode {:o}: its group or others can read it, and the database holds every live "
                 "match's seed (so every hand); chmod 600 it",
                 p, st.st_mode & 07777);
    shared.push_back(p);
  }
  return shared;
}

}  // namespace cod::server::detail
