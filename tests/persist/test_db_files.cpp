// The database's files (docs/persistence.md, "One server per database", "File
// modes"): the owner lock, 0600 files.
#include <doctest/doctest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "helpers.hpp"
#include "persist/db_files.hpp"
#include "persist/sqlite_store.hpp"

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
  std::string error;
  auto first = sqlite_store::open({.path = path}, error);
  REQUIRE_MESSAGE(first, error);
  acks a;
  first->create_match(sample_record("m"), a.expect(true));
  first->flush();

  // Another store (here in this process: flock locks are per open file, so
  // this is what a second cod-server gets).
  error.clear();
  auto second = sqlite_store::open({.path = path}, error);
  CHECK(second == nullptr);
  INFO(error);
  CHECK(error.find(path + ".lock") != std::string::npos);
  CHECK(error.find("in use by another cod-server") != std::string::npos);
  CHECK(error.find("(pid " + std::to_string(::getpid()) + ")") != std::string::npos);

  // Readers (cod-admin) do not take the lock, and see what the owner wrote.
  auto reader = sqlite_reader::open(path, error);
  REQUIRE_MESSAGE(reader, error);
  CHECK(reader->load_match("m").has_value());

  // The first writes on, untouched by the refused open.
  first->append_action("m", sample_action(1), a.expect(true));
  first->flush();
  CHECK(a.wrong() == 0);

  // The lock goes with its store.
  first.reset();
  auto third = sqlite_store::open({.path = path}, error);
  REQUIRE_MESSAGE(third, error);
  CHECK(third->load_match("m")->actions.size() == 1);
}

TEST_CASE("sqlite_store: the database, its -wal and -shm and its lock file are created 0600") {
  const umask_scope u(022);  // the usual umask: files would be 0644
  temp_dir dir;
  const std::string path = dir.file("private.db");
  std::string error;
  auto s = sqlite_store::open({.path = path}, error);
  REQUIRE_MESSAGE(s, error);
  acks a;
  s->create_match(sample_record("m"), a.expect(true));
  s->flush();
  // While the store runs, all four exist.
  for (const char* suffix : {"", "-wal", "-shm", ".lock"}) {
    CAPTURE(suffix);
    CHECK(mode_of(path + suffix) == 0600);
  }
  CHECK(detail::warn_if_not_private(path).empty());
  CHECK(a.wrong() == 0);
}

TEST_CASE("sqlite_store: an existing database its group or others can read is named in a warning") {
  temp_dir dir;
  const std::string path = dir.file("shared.db");
  std::string error;
  { REQUIRE_MESSAGE(sqlite_store::open({.path = path}, error), error); }
  std::filesystem::permissions(path, std::filesystem::perms(0644));
  CHECK(detail::warn_if_not_private(path) == std::vector<std::string>{path});
  // It still opens (an admin may mean it), and the lock file stays private.
  auto s = sqlite_store::open({.path = path}, error);
  REQUIRE_MESSAGE(s, error);
  CHECK(mode_of(path + ".lock") == 0600);
}
