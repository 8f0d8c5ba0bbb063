#include "common/random.hpp"

#include <random>

namespace cod::server {
namespace {
std::random_device& device() {
  thread_local std::random_device rd;
  return rd;
}
}  // namespace

std::uint64_t random_u64() {
  auto& rd = device();
  return (static_cast<std::uint64_t>(rd()) << 32) ^ static_cast<std::uint64_t>(rd());
}

std::string prefixed_hex_id(char prefix, std::uint64_t v) {
  static constexpr char digits[] = "0123456789abcdef";
  std::string s(1, prefix);
  for (int i = 0; i < 10; ++i) {
    s += digits[v & 15];
    v >>= 4;
  }
  return s;
}

}  // namespace cod::server
