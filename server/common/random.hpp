// Secrets and ids from the operating system's CSPRNG (std::random_device reads
// getrandom / /dev/urandom on Linux). Thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace cod::server {

std::uint64_t random_u64();
// `chars` lowercase hex digits (tokens: 32, i.e. 128 bits).
std::string random_hex(std::size_t chars);
// A short room id: "r" and four base-36 characters, e.g. "r7k2x".
std::string random_room_id();
// A tournament's or a league's id from a random value: `prefix` and ten hex
// digits (its low 40 bits), e.g. "t3f0a9c71b2", "l3f9a0c21b7".
std::string prefixed_hex_id(char prefix, std::uint64_t v);

}  // namespace cod::server
