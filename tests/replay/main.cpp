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
  return ctx.run();
}
