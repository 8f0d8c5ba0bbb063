// The database's files (docs/persistence.md, "One server per database", "File
// modes", "A database it cannot write"): the owner lock, 0600 files, the
// start-up write check, and store_health.
#include <doctest/doctest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <string>

#include "helpers.hpp"
#include "persist/sqlite/db_files.hpp"
#include "persist/memory/memory_store.hpp"
#include "persist/sqlite/sqlite_store.hpp"
#include "../shared/store_reads.hpp"

using namespace cod::server;
using namespace cod::server::test;

namespace {

unsigned mode_of(const std::string& path) {
  struct stat st {};
  REQUIRE_MESSAGE(::stat(path.c_str(), &st) == 0, path);
  return st.st_mode & 07777;
}

// Sets the process umask for a scope (so a test does not depend on the one
// it was started with).
struct umask_scope {
  explicit umask_scope(mode_t m) : old(::umask(m)) {}
  ~umask_scope() { ::umask(old); }
  mode_t old;
};

}  // namespace

TEST_CASE("sqlite_store: one store per database; the second is refused with the lock file and the holder's pid") {
  temp_dir dir;
  const std::string path = dir.file("one.db");
  auto opened = sqlite_store::open({.path = path});
  REQUIRE_MESSAGE(opened, opened.error().message());
  auto first = std::move(*opened);
  acks a;
  first->create_match(sample_record("m"), a.expect(true));
  first->flush();

  // Another store (here in this process: flock locks are per open file, so
  // this is what a second cod-server gets).
  const auto second = sqlite_store::open({.path = path});
  CHECK(!second);
  CHECK(second.error().error_code() == status::code::conflict);
  const std::string error = second.error().message();
  INFO(error);
  CHECK(error.find(path + ".lock") != std::string::npos);
  CHECK(error.find("in use by another cod-server") != std::string::npos);
  CHECK(error.find("(pid " + std::to_string(::getpid()) + ")") != std::string::npos);

  // Readers (cod-admin) do not take the lock, and see what the owner wrote.
  auto reader_opened = sqlite_reader::open(path);
  REQUIRE_MESSAGE(reader_opened, reader_opened.error().message());
  auto reader = std::move(*reader_opened);
  CHECK(read_ok(reader->load_match("m")).has_value());

  // The first writes on, untouched by the refused open.
  first->append_action("m", sample_action(1), a.expect(true));
  first->flush();
  CHECK(a.wrong() == 0);

  // The lock goes with its store.
  first.reset();
  auto third_opened = sqlite_store::open({.path = path});
  REQUIRE_MESSAGE(third_opened, third_opened.error().message());
  auto third = std::move(*third_opened);
  CHECK(read_ok(third->reader().load_match("m"))->actions.size() == 1);
}

TEST_CASE("sqlite_store: the database, its -wal and -shm and its lock file are created 0600") {
  const umask_scope u(022);  // the usual umask: files would be 0644
  temp_dir dir;
  const std::string path = dir.file("private.db");
  auto opened = sqlite_store::open({.path = path});
  REQUIRE_MESSAGE(opened, opened.error().message());
  auto s = std::move(*opened);
  acks a;
  s->create_match(sample_record("m"), a.expect(true));
  s->flush();
  // While the store runs, all four exist.
  for (const char* suffix : {"", "-wal", "-shm", ".lock"}) {
    CAPTURE(suffix);
    CHECK(mode_of(path + suffix) == 0600);
  }
  CHECK(a.wrong() == 0);
}

TEST_CASE("sqlite_store: a database it cannot write is refused at open, not at the first match") {
  // As an unprivileged user on its read-only file in a writable directory
  // (SQLite then opens it read-only, and BEGIN IMMEDIATE ... COMMIT without
  // a write succeeds). Root ignores file modes: the child drops to nobody.
  temp_dir dir;
  const std::string path = dir.file("ro.db");
  {
    auto opened = sqlite_store::open({.path = path});
    REQUIRE_MESSAGE(opened, opened.error().message());
    auto s = std::move(*opened);
    s->create_match(sample_record("m"), nullptr);
  }
  std::filesystem::permissions(dir.path(), std::filesystem::perms(0777));
  // Private (0400) and the child's own, so that only its mode keeps it
  // from writing (a file others may read would be refused before that).
  std::filesystem::permissions(path, std::filesystem::perms(0400));
  if (::geteuid() == 0) REQUIRE(::chown(path.c_str(), 65534, 65534) == 0);
  std::filesystem::remove(path + ".lock");  // root's, 0600: the child makes its own
  std::cout.flush();
  std::fflush(nullptr);
  const pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    if (::geteuid() == 0 && (::setgid(65534) != 0 || ::setuid(65534) != 0)) _exit(10);
    const auto s = sqlite_store::open({.path = path});
    if (s) _exit(1);  // started on a database it cannot write
    const std::string e = s.error().message();
    std::fprintf(stderr, "refused as expected: %s\n", e.c_str());
    _exit(e.find("readonly") != std::string::npos && e.find("write check") != std::string::npos ? 0 : 2);
  }
  int status = 0;
  REQUIRE(::waitpid(pid, &status, 0) == pid);
  REQUIRE(WIFEXITED(status));
  INFO("child exit 1: the store opened; 2: refused for another reason (its stderr says)");
  CHECK(WEXITSTATUS(status) == 0);
}

TEST_CASE("store_health: a failed commit makes the store unhealthy until a commit succeeds") {
  SUBCASE("sqlite_store, another process holding the write lock") {
    temp_dir dir;
    const std::string path = dir.file("health.db");
    auto opened = sqlite_store::open({.path = path, .busy_timeout_ms = 50, .busy_max_ms = 50});
    REQUIRE_MESSAGE(opened, opened.error().message());
    auto s = std::move(*opened);
    acks a;
    s->create_match(sample_record("m"), a.expect(true));
    s->append_action("m", sample_action(2), a.expect(false));  // refused (a hole): not a storage failure
    s->flush();
    CHECK(s->health().ok);
    CHECK(s->health().write_errors == 0);
    CHECK(s->health().last_error_ms == 0);
    {
      raw_db other(path);
      other.exec("BEGIN IMMEDIATE");
      s->append_action("m", sample_action(1), a.expect(false));
      s->append_action("m", sample_action(2), a.expect(false));
      s->flush();
      const store_health h = s->health();
      CHECK_FALSE(h.ok);
      CHECK(h.write_errors == 2);
      CHECK(h.last_error.find("locked") != std::string::npos);
      CHECK(h.last_error_ms > 0);
      other.exec("COMMIT");
    }
    s->append_action("m", sample_action(1), a.expect(true));
    s->flush();
    const store_health h = s->health();
    CHECK(h.ok);
    CHECK(h.write_errors == 2);  // a count since the start
    CHECK(h.last_error_ms > 0);  // the last failure stays on record
    CHECK(a.wrong() == 0);
  }
  SUBCASE("memory_store, injected faults") {
    memory_store s(memory_store::callbacks::run_inline);
    acks a;
    s.create_match(sample_record("m"), a.expect(true));
    s.append_action("m", sample_action(3), a.expect(false));  // refused
    CHECK(s.health().ok);
    s.fail_writes(true);
    s.append_action("m", sample_action(1), a.expect(false));
    CHECK_FALSE(s.health().ok);
    CHECK(s.health().write_errors == 1);
    CHECK(s.health().last_error == "fault injected (fail_writes)");
    s.fail_writes(false);
    s.append_action("m", sample_action(1), a.expect(true));
    CHECK(s.health().ok);
    CHECK(a.wrong() == 0);
  }
}

TEST_CASE("sqlite_store: the owner lock is the file's, whatever path names it (symlink, '..', hard link)") {
  temp_dir dir;
  std::filesystem::create_directory(dir.file("sub"));
  const std::string path = dir.file("one.db");
  auto opened = sqlite_store::open({.path = path});
  REQUIRE_MESSAGE(opened, opened.error().message());
  auto first = std::move(*opened);
  acks a;
  first->create_match(sample_record("m"), a.expect(true));
  first->flush();

  std::filesystem::create_symlink(path, dir.file("link.db"));
  std::filesystem::create_hard_link(path, dir.file("hard.db"));
  const std::string pid = "(pid " + std::to_string(::getpid()) + ")";
  for (const std::string& other : {dir.file("link.db"), dir.file("sub/../one.db"), dir.file("hard.db")}) {
    CAPTURE(other);
    const auto second = sqlite_store::open({.path = other});
    REQUIRE_FALSE(second);
    CHECK(second.error().error_code() == status::code::conflict);
    const std::string error = second.error().message();
    INFO(error);
    CHECK(error.find("database " + other) != std::string::npos);
    CHECK(error.find("in use by another cod-server") != std::string::npos);
    CHECK(error.find("one server per database") != std::string::npos);
    // The holder's pid: the kernel's lock table names it for any path to the file.
    if (std::filesystem::exists("/proc/locks")) CHECK(error.find(pid) != std::string::npos);
  }
  // Another process (a second cod-server) meets the kernel's lock on the
  // file: a forked child, through each path.
  for (const std::string& other : {dir.file("link.db"), dir.file("sub/../one.db"), dir.file("hard.db")}) {
    CAPTURE(other);
    std::cout.flush();
    std::fflush(nullptr);
    const pid_t child = ::fork();
    REQUIRE(child >= 0);
    if (child == 0) {
      const auto second = sqlite_store::open({.path = other});
      if (second) _exit(1);  // a second owner
      const std::string e = second.error().message();
      std::fprintf(stderr, "refused as expected: %s\n", e.c_str());
      const bool named = e.find("database " + other) != std::string::npos &&
                         (!std::filesystem::exists("/proc/locks") || e.find(pid) != std::string::npos);
      _exit(second.error().error_code() == status::code::conflict && named ? 0 : 2);
    }
    int st = 0;
    REQUIRE(::waitpid(child, &st, 0) == child);
    REQUIRE(WIFEXITED(st));
    INFO("child exit 1: it opened the database too; 2: refused without the conflict, the path or the holder's pid");
    CHECK(WEXITSTATUS(st) == 0);
  }
  // A symlink names the file it points to (where the pid file is) too.
  {
    const auto second = sqlite_store::open({.path = dir.file("link.db")});
    REQUIRE_FALSE(second);
    CHECK(second.error().message().find(path + ".lock") != std::string::npos);
  }

  // The first writes on, untouched by the refused opens.
  first->append_action("m", sample_action(1), a.expect(true));
  first->flush();
  CHECK(a.wrong() == 0);
  CHECK(read_ok(first->reader().load_match("m"))->actions.size() == 1);

  // Once it is gone, a store through the symlink is the owner.
  first.reset();
  auto again = sqlite_store::open({.path = dir.file("link.db")});
  REQUIRE_MESSAGE(again, again.error().message());
  CHECK(read_ok((*again)->reader().load_match("m"))->actions.size() == 1);
}

TEST_CASE("sqlite_store: an existing database, -wal, -shm and lock file readable by others are made 0600 at open") {
  const umask_scope u(022);
  temp_dir dir;
  const std::string path = dir.file("shared.db");
  {
    auto first = sqlite_store::open({.path = path});
    REQUIRE_MESSAGE(first, first.error().message());
    (*first)->create_match(sample_record("m"), nullptr);
  }
  // As an older server (or an admin's cp) left it: the database 0644, and
  // with it the -wal and -shm SQLite creates (it gives them the database's
  // mode), and the lock file.
  std::filesystem::permissions(path, std::filesystem::perms(0644));
  std::filesystem::permissions(path + ".lock", std::filesystem::perms(0644));
  auto other = std::make_unique<raw_db>(path);  // keeps a -wal and -shm while the store opens
  other->exec("UPDATE matches SET room_id = room_id");
  for (const char* suffix : {"", "-wal", "-shm", ".lock"}) {
    CAPTURE(suffix);
    REQUIRE(mode_of(path + suffix) == 0644);
  }
  {
    auto opened = sqlite_store::open({.path = path});
    REQUIRE_MESSAGE(opened, opened.error().message());
    auto s = std::move(*opened);
    for (const char* suffix : {"", "-wal", "-shm", ".lock"}) {
      CAPTURE(suffix);
      CHECK(mode_of(path + suffix) == 0600);
    }
    acks a;
    s->append_action("m", sample_action(1), a.expect(true));
    s->flush();
    CHECK(a.wrong() == 0);
  }
  // The -wal and -shm SQLite creates from now on take the database's 0600.
  other.reset();
  std::filesystem::remove(path + "-wal");
  std::filesystem::remove(path + "-shm");
  auto opened = sqlite_store::open({.path = path});
  REQUIRE_MESSAGE(opened, opened.error().message());
  auto s = std::move(*opened);
  acks a;
  s->append_action("m", sample_action(2), a.expect(true));
  s->flush();
  CHECK(a.wrong() == 0);
  for (const char* suffix : {"", "-wal", "-shm", ".lock"}) {
    CAPTURE(suffix);
    CHECK(mode_of(path + suffix) == 0600);
  }
}

TEST_CASE("sqlite_store: a database readable by others that it may not chmod is refused, naming the file") {
  // A file of another user, mode 0666 (writable, so nothing else refuses
  // it): cod-server cannot make it private, so it does not start. Root
  // may chmod anything: the child drops to nobody, the file stays root's.
  if (::geteuid() != 0) {
    MESSAGE("skipped: needs root, to give the database to another user");
    return;
  }
  temp_dir dir;
  const std::string path = dir.file("theirs.db");
  {
    auto opened = sqlite_store::open({.path = path});
    REQUIRE_MESSAGE(opened, opened.error().message());
  }
  std::filesystem::permissions(dir.path(), std::filesystem::perms(0777));
  std::filesystem::permissions(path, std::filesystem::perms(0666));
  std::filesystem::remove(path + ".lock");  // root's, 0600: the child makes its own
  std::cout.flush();
  std::fflush(nullptr);
  const pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    if (::setgid(65534) != 0 || ::setuid(65534) != 0) _exit(10);
    const auto s = sqlite_store::open({.path = path});
    if (s) _exit(1);  // started on a database every user can read
    const std::string e = s.error().message();
    std::fprintf(stderr, "refused as expected: %s\n", e.c_str());
    _exit(e.find(path) != std::string::npos && e.find("chmod 600") != std::string::npos &&
                  e.find("Operation not permitted") != std::string::npos
              ? 0
              : 2);
  }
  int status = 0;
  REQUIRE(::waitpid(pid, &status, 0) == pid);
  REQUIRE(WIFEXITED(status));
  INFO("child exit 1: the store opened; 2: refused for another reason (its stderr says)");
  CHECK(WEXITSTATUS(status) == 0);
  CHECK(mode_of(path) == 0666);
}
