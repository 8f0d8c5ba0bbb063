#include "common/wall_clock.hpp"

#include <chrono>

namespace cod::server {

std::int64_t now_ms() {
  using namespace std::chrono;
  return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

}  // namespace cod::server
