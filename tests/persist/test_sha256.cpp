#include <doctest/doctest.h>

#include <string>

#include "common/sha256.hpp"

using namespace cod::server;

TEST_CASE("sha256: FIPS 180 test vectors") {
  CHECK(sha256_hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  CHECK(sha256_hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq") ==
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  CHECK(sha256_hex(std::string(1000000, 'a')) ==
        "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
  // The 896-bit message (two blocks after padding).
  CHECK(sha256_hex("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrs"
                   "mnopqrstnopqrstu") == "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");
}

TEST_CASE("sha256: incremental updates equal one shot, at every split and padding boundary") {
  std::string msg;
  for (int i = 0; i < 300; ++i) msg.push_back(static_cast<char>('a' + i % 26));
  for (std::size_t len : {0u, 1u, 55u, 56u, 57u, 63u, 64u, 65u, 119u, 120u, 128u, 300u}) {
    const std::string m = msg.substr(0, len);
    const std::string whole = sha256_hex(m);
    for (std::size_t chunk : {1u, 3u, 63u, 64u, 100u}) {
      sha256 h;
      for (std::size_t i = 0; i < m.size(); i += chunk) h.update(std::string_view(m).substr(i, chunk));
      CHECK_MESSAGE(to_hex(h.finish()) == whole, "len " << len << " chunk " << chunk);
    }
  }
  // One million 'a' fed in uneven pieces.
  sha256 h;
  const std::string piece(997, 'a');
  std::size_t left = 1000000;
  while (left > 0) {
    const std::size_t n = left < piece.size() ? left : piece.size();
    h.update(piece.data(), n);
    left -= n;
  }
  CHECK(to_hex(h.finish()) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST_CASE("seed_commitment is SHA-256 of the decimal text") {
  CHECK(seed_commitment(0) == sha256_hex("0"));
  CHECK(seed_commitment(42) == sha256_hex("42"));
  CHECK(seed_commitment(18446744073709551615ull) == sha256_hex("18446744073709551615"));
  CHECK(seed_commitment(1) != seed_commitment(2));
  CHECK(seed_commitment(7).size() == 64);
}
