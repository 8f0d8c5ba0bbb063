// Player accounts (docs/accounts.md): guests and registered players, their
// passwords (argon2id, password_hash.hpp) and sessions (opaque tokens,
// stored as SHA-256), the throttles on logins and registrations, and what
// an admin may do to an account. The HTTP routes are account_api.hpp; the
// store is persist/account_store.hpp.
//
// Every call blocks (the store, and argon2id for the calls that take a
// password): run them on the account workers (account_workers.hpp), never
// on an I/O thread or a room's strand. Thread-safe.
//
// Refusals are statuses with a reason the API answers as its error code:
//   invalid        invalid_name, invalid_password, common_password
//   not_found      invalid_credentials (no such name, or the wrong password:
//                  one answer, in the same time), not_signed_in, no_such_session,
//                  no_such_account
//   conflict       name_taken, not_a_guest, account_disabled
//   unavailable    too_many_attempts (with *retry_after_s)
//   io_error       the store or libsodium failed
#pragma once

#include <chrono>
#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "account_service/attempt_window.hpp"
#include "account_service/password_hash.hpp"
#include "common/environment.hpp"
#include "persist/account_store.hpp"

namespace cod::server::accounts {

struct limits {
  // The 11th failed login of one name within 10 minutes is refused without hashing.
  int failed_logins_per_name = 10;
  int failed_logins_per_address = 30;
  std::chrono::minutes failed_login_window{10};
  // Registrations and guests from one client address.
  int registrations_per_address = 10;
  std::chrono::minutes registration_window{60};
  // A session unused this long is gone (config session_idle_days).
  std::int64_t session_idle_ms = 30LL * 24 * 3600 * 1000;
  hash_params hash{};
};

// A session just made: the token goes to the client once, and is never stored.
struct signed_in {
  account_record account;
  session_record session;
  std::string token;
};

// Who a session token belongs to.
struct session_of {
  account_record account;
  session_record session;
};

class account_service {
 public:
  using clock = attempt_window::clock;
  // `store` and `env` outlive the service.
  account_service(account_store& store, environment& env, limits l = {});

  // A new account with a password, signed in. `address`: the client's
  // (throttles, the session's remote).
  result<signed_in> register_account(const std::string& name, const std::string& password,
                                     const std::string& address, clock::time_point now,
                                     std::int64_t* retry_after_s = nullptr);
  // A new guest: a generated name ("guest-" and 8 hex digits), no password.
  result<signed_in> guest(const std::string& address, clock::time_point now, std::int64_t* retry_after_s = nullptr);
  result<signed_in> login(const std::string& name, const std::string& password, const std::string& address,
                          clock::time_point now, std::int64_t* retry_after_s = nullptr);

  // The account and session of `token` (used now: its idle time restarts).
  result<session_of> authenticate(const std::string& token);
  // The guest of `token` takes `name` and `password`: its games and ratings stay.
  result<account_record> claim(const std::string& token, const std::string& name, const std::string& password);
  status logout(const std::string& token);
  result<std::vector<session_record>> sessions(const std::string& token);
  // The same for an account already authenticated (no second session lookup).
  result<std::vector<session_record>> sessions_of(const account_record& a);
  status revoke(const std::string& token, const std::string& session_id);
  // Every session ends, the caller gets a new one.
  result<signed_in> change_password(const std::string& token, const std::string& old_password,
                                    const std::string& new_password, const std::string& address,
                                    clock::time_point now, std::int64_t* retry_after_s = nullptr);
  // The name becomes "deleted player <id>", the password and sessions go;
  // its matches stay. A registered account confirms with its password.
  status delete_account(const std::string& token, const std::string& password, const std::string& address,
                        clock::time_point now, std::int64_t* retry_after_s = nullptr);

  // ---- admins (the admin API, cod-admin)
  result<std::vector<account_record>> find(const std::string& name_prefix, int limit);
  result<account_record> set_disabled(std::int64_t account_id, bool disabled);
  result<std::int64_t> revoke_all(std::int64_t account_id);

  const limits& settings() const { return limits_; }

 private:
  result<signed_in> open_session(const account_record& a, const std::string& address);
  // A failed password: counted for the name and the address.
  void failed(const std::string& name, const std::string& address, clock::time_point now);
  // too_many_attempts when the name or the address has used its failures.
  status throttled(const std::string& name, const std::string& address, clock::time_point now,
                   std::int64_t* retry_after_s);
  bool verify_or_burn(const account_record* a, const std::string& password);
  const std::string& dummy_hash();

  account_store& store_;
  environment& env_;
  limits limits_;
  attempt_window failed_by_name_;
  attempt_window failed_by_address_;
  attempt_window registrations_;
  std::once_flag dummy_once_;
  std::string dummy_hash_;
};

// Why `name` cannot be an account's name (the join rules, and the names
// the server gives: "guest-...", "deleted player ...", "AI", "house-bot"),
// or "" when it can.
std::string account_name_problem(std::string_view name);

}  // namespace cod::server::accounts
