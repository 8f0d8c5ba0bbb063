// Player accounts and their sessions: the store side of docs/accounts.md
// (the tables accounts and account_sessions, migration 0012,
// docs/persistence.md). Every store hands out its own
// (match_store::accounts()), each a class of one .cpp: memory_accounts, sqlite_accounts (its own
// connection to the file), pg_accounts (the cluster's one database: every
// node sees every account and session).
//
// Every call blocks and may come from any thread but a room's strand or an
// I/O thread: the account service calls them from its worker pool. Calls are
// thread-safe. Failures are statuses (io_error when the storage fails,
// conflict and not_found as each call says), never exceptions.
//
// The store keeps what it is given: names are checked, passwords hashed and
// tokens drawn by the account service (server/account_service/). It never
// sees a password or a session token, only libsodium's hash text and the
// token's SHA-256.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/status.hpp"

namespace cod::server {

struct account_record {
  std::int64_t account_id = 0;  // 1, 2, 3... assigned by the store; never reused
  std::string name{};           // unique ignoring ASCII case
  std::string password_hash{};  // crypto_pwhash_str's text (argon2id); "" for a guest or a deleted account
  bool guest = false;           // no password yet: claimed by choosing a name and a password
  bool disabled = false;        // by an admin: no login, its sessions refused
  bool deleted = false;         // its name is "deleted player <account_id>"; no password, no session
  std::int64_t created_ms = 0;
  bool operator==(const account_record&) const = default;
};

struct session_record {
  std::string session_id{};  // 16 lowercase hex: how the player names it to revoke it
  std::string token_hash{};  // SHA-256 hex of the token; the token itself is never stored
  std::int64_t account_id = 0;
  std::int64_t created_ms = 0;
  std::int64_t last_used_ms = 0;
  std::string remote{};      // the client address it was created from ("203.0.113.9")
  bool operator==(const session_record&) const = default;
};

class account_store {
 public:
  virtual ~account_store() = default;

  // A new account (its account_id from the store, everything else as
  // given). conflict: the name is taken, ignoring ASCII case.
  virtual result<account_record> create_account(const account_record& a) = 0;
  // nullopt: no such account. By name: ignoring ASCII case.
  virtual result<std::optional<account_record>> account_by_name(const std::string& name) = 0;
  virtual result<std::optional<account_record>> account_by_id(std::int64_t account_id) = 0;
  // Replaces the stored account a.account_id with `a` (created_ms kept).
  // not_found: no such account; conflict: the new name is another
  // account's, ignoring case.
  virtual status update_account(const account_record& a) = 0;
  // The accounts whose name starts with `prefix` (ignoring ASCII case; ""
  // for all), by name ignoring case, at most `limit` (the admin's search).
  virtual result<std::vector<account_record>> find_accounts(const std::string& prefix, int limit) = 0;

  // not_found: no such account; conflict: the session_id or token_hash exists.
  virtual status add_session(const session_record& s) = 0;
  // The session of a token's hash, now used: its last_used_ms becomes
  // `now_ms`. A session idle longer than `idle_ms` (now_ms - last_used_ms >
  // idle_ms) is deleted instead, and nullopt returned, as for none.
  virtual result<std::optional<session_record>> use_session(const std::string& token_hash, std::int64_t now_ms,
                                                            std::int64_t idle_ms) = 0;
  // The account's sessions, the most recently used first.
  virtual result<std::vector<session_record>> sessions_of(std::int64_t account_id) = 0;
  // Deletes one session of the account. not_found: it has no such session.
  virtual status revoke_session(std::int64_t account_id, const std::string& session_id) = 0;
  // Deletes every session of the account; how many there were.
  virtual result<std::int64_t> revoke_sessions(std::int64_t account_id) = 0;
};

}  // namespace cod::server
