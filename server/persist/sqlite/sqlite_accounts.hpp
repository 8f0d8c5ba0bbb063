// Internal to the SQLite store: its account_store (account_store.hpp) on a
// read-write connection of its own, as sqlite_directory has, so that a
// login never waits behind the writer thread's queue (only, briefly, behind
// its transaction: busy_timeout). Every call runs under one mutex; a write
// that reads first (add_session: is there such an account; use_session: is
// the session idle too long) does both in one BEGIN IMMEDIATE transaction.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "common/status.hpp"
#include "persist/account_store.hpp"

namespace cod::server::sql {
class db;
}  // namespace cod::server::sql

namespace cod::server::detail {

class sqlite_accounts final : public account_store {
 public:
  // Opens its connection on a migrated database. Throws persist_error.
  sqlite_accounts(const std::string& path, int busy_timeout_ms);
  ~sqlite_accounts() override;
  sqlite_accounts(const sqlite_accounts&) = delete;
  sqlite_accounts& operator=(const sqlite_accounts&) = delete;

  result<account_record> create_account(const account_record& a) override;
  result<std::optional<account_record>> account_by_name(const std::string& name) override;
  result<std::optional<account_record>> account_by_id(std::int64_t account_id) override;
  status update_account(const account_record& a) override;
  result<std::vector<account_record>> find_accounts(const std::string& prefix, int limit) override;
  status add_session(const session_record& s) override;
  result<std::optional<session_record>> use_session(const std::string& token_hash, std::int64_t now_ms,
                                                    std::int64_t idle_ms) override;
  result<std::vector<session_record>> sessions_of(std::int64_t account_id) override;
  status revoke_session(std::int64_t account_id, const std::string& session_id) override;
  result<std::int64_t> revoke_sessions(std::int64_t account_id) override;

 private:
  template <class F>
  auto guarded(const char* doing, F&& f) -> decltype(f());

  std::mutex mu_;
  std::unique_ptr<sql::db> db_;
};

}  // namespace cod::server::detail
