#include "account_service/password_hash.hpp"

#include <sodium.h>

namespace cod::server::accounts {

bool hashing_available() {
  static const bool ok = sodium_init() >= 0;  // 0 first time, 1 after: both fine
  return ok;
}

result<std::string> hash_password(std::string_view password, const hash_params& p) {
  if (!hashing_available()) return status::io_error("libsodium could not be initialised");
  char out[crypto_pwhash_STRBYTES];
  if (crypto_pwhash_str(out, password.data(), password.size(), p.passes, p.memory_bytes) != 0)
    return status::io_error("argon2id could not hash (out of memory?)");
  return std::string(out);
}

bool verify_password(const std::string& stored, std::string_view password) {
  if (!hashing_available() || stored.empty() || stored.size() >= crypto_pwhash_STRBYTES) return false;
  return crypto_pwhash_str_verify(stored.c_str(), password.data(), password.size()) == 0;
}

bool needs_rehash(const std::string& stored, const hash_params& p) {
  if (!hashing_available() || stored.size() >= crypto_pwhash_STRBYTES) return true;
  return crypto_pwhash_str_needs_rehash(stored.c_str(), p.passes, p.memory_bytes) != 0;
}

}  // namespace cod::server::accounts
