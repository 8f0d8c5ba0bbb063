#include "tournament/tokens.hpp"

#include "common/sha256.hpp"

namespace cod::tournaments {

std::string make_token(const random_source& random, std::string_view event_id) {
  static constexpr char hex[] = "0123456789abcdef";
  std::string t;
  t.reserve(event_id.size() + 33);
  if (!event_id.empty()) {
    t.append(event_id);
    t.push_back('.');
  }
  for (int word = 0; word < 2; ++word) {
    std::uint64_t x = random();
    for (int i = 0; i < 16; ++i, x >>= 4) t.push_back(hex[x & 15]);
  }
  return t;
}

std::string token_hash(std::string_view token) { return server::sha256_hex(token); }

}  // namespace cod::tournaments
