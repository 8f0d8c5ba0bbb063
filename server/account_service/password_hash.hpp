// Password hashes: argon2id through libsodium's crypto_pwhash_str (docs/
// accounts.md, "Passwords"). The text it makes holds the algorithm, its
// parameters and the salt, so a stored hash says how to check it and
// whether it is weaker than today's parameters (rehash on login).
//
// Each call takes memlimit bytes and tens of milliseconds of one core:
// call them only from the account workers (account_workers.hpp), never from
// an I/O thread or a room's strand.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "common/status.hpp"

namespace cod::server::accounts {

// OWASP's minimum for argon2id (Password Storage Cheat Sheet): 19 MiB of
// memory, 2 passes, parallelism 1 (libsodium's is always 1).
struct hash_params {
  unsigned long long passes = 2;             // crypto_pwhash's opslimit
  std::size_t memory_bytes = 19u << 20;      // crypto_pwhash's memlimit
};

// libsodium is initialised (once, thread-safe); false when it cannot be.
bool hashing_available();

// The stored text of a new hash of `password`; io_error when libsodium
// cannot (out of memory).
result<std::string> hash_password(std::string_view password, const hash_params& p);
// True when `password` matches `stored` (constant time inside libsodium);
// false for a wrong password and for text that is not a hash.
bool verify_password(const std::string& stored, std::string_view password);
// True when `stored` was made with other parameters than `p` (or is not a hash).
bool needs_rehash(const std::string& stored, const hash_params& p);

}  // namespace cod::server::accounts
