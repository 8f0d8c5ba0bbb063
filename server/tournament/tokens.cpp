#include "tournament/tokens.hpp"

#include "persist/sha256.hpp"

namespace cod::tournaments {

std::string make_token(const random_source& random) {
  static constexpr char hex[] = "0123456789abcdef";
  std::string t;
  t.reserve(32);
  for (int word = 0; word < 2; ++word) {
    std::uint64_t x = random();
    for (int i = 0; i < 16; ++i, x >>= 4) t.push_back(hex[x & 15]);
  }
  return t;
}

std::string token_hash(std::string_view token) { return server::sha256_hex(token); }

bool constant_time_equal(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  unsigned char diff = 0;
  for (std::size_t i = 0; i < a.size(); ++i) diff |= static_cast<unsigned char>(a[i] ^ b[i]);
  return diff == 0;
}

}  // namespace cod::tournaments
