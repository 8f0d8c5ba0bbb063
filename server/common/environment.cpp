#include "common/environment.hpp"

#include "common/random.hpp"
#include "common/wall_clock.hpp"

namespace cod::server {
namespace {

class system_environment final : public environment {
 public:
  std::int64_t wall_ms() override { return now_ms(); }
  // The free function (common/random.hpp), not this member.
  std::uint64_t random_u64() override { return cod::server::random_u64(); }
};

}  // namespace

environment& environment::system() {
  static system_environment env;
  return env;
}

std::string environment::random_hex(std::size_t chars) {
  static constexpr char digits[] = "0123456789abcdef";
  std::string s;
  s.reserve(chars);
  std::uint64_t bits = 0;
  int left = 0;
  for (std::size_t i = 0; i < chars; ++i) {
    if (left == 0) {
      bits = random_u64();
      left = 16;
    }
    s += digits[bits & 0xF];
    bits >>= 4;
    --left;
  }
  return s;
}

std::string environment::random_room_id() {
  static constexpr char digits[] = "0123456789abcdefghijklmnopqrstuvwxyz";
  std::uint64_t bits = random_u64();
  std::string s = "r";
  for (int i = 0; i < 4; ++i) {
    s += digits[bits % 36];
    bits /= 36;
  }
  return s;
}

}  // namespace cod::server
