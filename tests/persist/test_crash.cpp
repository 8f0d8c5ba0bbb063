// kill -9 while writing: every action whose callback said "committed" must be
// in the file when it is reopened (WAL, synchronous=NORMAL: the commit is in
// the OS before the callback runs).
#include <doctest/doctest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <iostream>
#include <cstdint>
#include <thread>

#include "helpers.hpp"
#include "persist/sqlite/sqlite_store.hpp"
#include "../shared/store_reads.hpp"

using namespace cod::server;
using namespace cod::server::test;

namespace {

void report(int fd, std::int64_t n) {
  const char* p = reinterpret_cast<const char*>(&n);
  std::size_t left = sizeof n;
  while (left > 0) {
    const ssize_t w = ::write(fd, p, left);
    if (w <= 0) _exit(4);
    p += w;
    left -= static_cast<std::size_t>(w);
  }
}

// The child: appends n actions; reports how many were acknowledged and dies
// by SIGKILL, either once all n are acknowledged (kill_at == 0) or from
// inside the kill_at-th callback, with later writes still queued or being
// committed. Never returns; no doctest here.
[[noreturn]] void child(const std::string& path, int fd, int n, int kill_at) {
  auto opened = sqlite_store::open({.path = path});
  if (!opened) _exit(3);
  auto s = std::move(*opened);
  std::atomic<std::int64_t> acked{0};
  std::atomic<bool> bad{false};
  s->create_match(sample_record("m"), [&](const status& st) {
    if (!st) bad = true;
  });
  for (int i = 1; i <= n; ++i) {
    s->append_action("m", sample_action(i, i % 2), [&, i](const status& st) {
      if (!st || bad) _exit(5);
      const std::int64_t a = ++acked;
      if (a != i) _exit(6);  // callbacks come in order
      if (a == kill_at) {
        report(fd, a);
        ::kill(::getpid(), SIGKILL);
      }
    });
  }
  if (kill_at == 0) {
    while (acked.load() < n) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    report(fd, acked.load());
    ::kill(::getpid(), SIGKILL);
  }
  for (;;) ::pause();
}

void crash_and_check(int n, int kill_at) {
  temp_dir dir;
  const std::string path = dir.file("crash.db");
  int fds[2];
  REQUIRE(::pipe(fds) == 0);
  // The child inherits unflushed stdio buffers; anything in it that flushes
  // stdout (spdlog does) would print the parent's output twice.
  std::cout.flush();
  std::fflush(nullptr);
  const pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    ::close(fds[0]);
    child(path, fds[1], n, kill_at);
  }
  ::close(fds[1]);
  std::int64_t acknowledged = -1;
  char* p = reinterpret_cast<char*>(&acknowledged);
  std::size_t got = 0;
  while (got < sizeof acknowledged) {
    const ssize_t r = ::read(fds[0], p + got, sizeof acknowledged - got);
    if (r <= 0) break;
    got += static_cast<std::size_t>(r);
  }
  ::close(fds[0]);
  int status = 0;
  REQUIRE(::waitpid(pid, &status, 0) == pid);
  INFO("child status " << status);
  REQUIRE(WIFSIGNALED(status));
  CHECK(WTERMSIG(status) == SIGKILL);
  REQUIRE(got == sizeof acknowledged);
  CHECK(acknowledged == (kill_at ? kill_at : n));

  auto opened = sqlite_store::open({.path = path});  // recovers the WAL
  REQUIRE_MESSAGE(opened, opened.error().message());
  auto s = std::move(*opened);
  auto un = read_ok(s->reader().load_unfinished());
  REQUIRE(un.size() == 1);
  const auto& log = un[0].actions;
  MESSAGE("acknowledged " << acknowledged << ", found " << log.size() << " after kill -9");
  CHECK(static_cast<std::int64_t>(log.size()) >= acknowledged);
  for (std::size_t i = 0; i < log.size(); ++i) CHECK(log[i] == sample_action(static_cast<int>(i) + 1, (static_cast<int>(i) + 1) % 2));
  raw_db db(path);
  CHECK(db.one("PRAGMA integrity_check") == "ok");
}

}  // namespace

TEST_CASE("crash: actions acknowledged before kill -9 are all there (child waits for every ack)") {
  crash_and_check(2000, 0);
}

TEST_CASE("crash: kill -9 in the middle of group commits loses nothing acknowledged") {
  crash_and_check(20000, 3000);
}
