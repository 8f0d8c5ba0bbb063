#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>
#include <spdlog/spdlog.h>

#include <cstdlib>

// The stores log every refused write; the tests provoke many on purpose.
// COD_TEST_LOG=1 shows them.
int main(int argc, char** argv) {
  const char* log = std::getenv("COD_TEST_LOG");
  spdlog::set_level(log && *log && *log != '0' ? spdlog::level::debug : spdlog::level::off);
  doctest::Context ctx(argc, argv);
  // The PostgreSQL cases need a server: ctest's replay_tests_pg gives one
  // (tests/replay/CMakeLists.txt); without it they are left out, counted as
  // skipped.
  const char* pg = std::getenv("COD_TEST_PG_URI");
  if (!pg || !*pg) ctx.addFilter("test-case-exclude", "pg_store:*");
  return ctx.run();
}
