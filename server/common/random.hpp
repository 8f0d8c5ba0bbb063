// The operating system's CSPRNG (std::random_device reads getrandom /
// /dev/urandom on Linux), behind environment::system()'s random_u64: rooms
// and services draw through their environment (common/environment.hpp),
// which also makes hex tokens and room ids of it. Thread-safe.
#pragma once

#include <cstdint>
#include <string>

namespace cod::server {

std::uint64_t random_u64();
// A tournament's or a league's id from a random value: `prefix` and ten hex
// digits (its low 40 bits), e.g. "t3f0a9c71b2", "l3f9a0c21b7".
std::string prefixed_hex_id(char prefix, std::uint64_t v);

}  // namespace cod::server
