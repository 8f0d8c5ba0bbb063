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

std::string random_hex(std::size_t chars) {
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

std::string prefixed_hex_id(char prefix, std::uint64_t v) {
  static constexpr char digits[] = "0123456789abcdef";
  std::string s(1, prefix);
  for (int i = 0; i < 10; ++i) {
    s += digits[v & 15];
    v >>= 4;
  }
  return s;
}

std::string random_room_id() {
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
