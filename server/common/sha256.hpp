// SHA-256 (FIPS 180-4), self-contained: seat token hashes and the seed
// commitment. Not constant-time; nothing here is a secret key.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace cod::server {

class sha256 {
 public:
  using digest_type = std::array<std::uint8_t, 32>;

  sha256();
  void update(const void* data, std::size_t size);
  void update(std::string_view s) { update(s.data(), s.size()); }
  // Pads and returns the digest; the object must not be updated afterwards.
  digest_type finish();

  static digest_type hash(std::string_view s);

 private:
  void block(const std::uint8_t* p);
  std::array<std::uint32_t, 8> h_;
  std::array<std::uint8_t, 64> buf_{};
  std::size_t buf_len_ = 0;
  std::uint64_t total_ = 0;  // bytes
};

// Lowercase hex.
std::string to_hex(const sha256::digest_type& d);
std::string sha256_hex(std::string_view s);

// The commitment published before a match (room_created.seed_hash) and
// checked after it: SHA-256 hex of the seed's decimal text, e.g. "42".
std::string seed_commitment(std::uint64_t seed);

}  // namespace cod::server
