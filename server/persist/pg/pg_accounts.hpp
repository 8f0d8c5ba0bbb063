// Internal to the PostgreSQL store: its account_store (account_store.hpp) on
// a connection of its own (application name cod-store-accounts), as
// pg_directory has, so a login never waits behind the writer's queue.
// Thread-safe (one connection behind a mutex); a lost connection fails that
// call (io_error) and is opened again for the next one. Every node of a
// cluster sees the same accounts and sessions: the database's unique
// indexes, not this process, keep names and tokens unique.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/status.hpp"
#include "persist/account_store.hpp"

namespace cod::server::pg {
class conn;
}

namespace cod::server::detail {

class pg_accounts final : public account_store {
 public:
  // Connects. Throws persist_error (the password never shown).
  explicit pg_accounts(std::string uri);
  ~pg_accounts() override;
  pg_accounts(const pg_accounts&) = delete;
  pg_accounts& operator=(const pg_accounts&) = delete;

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
  // Runs f(conn) under the mutex on a live connection; a persist_error
  // becomes io_error (and a transaction left open is rolled back).
  template <class F>
  auto guarded(const char* doing, F&& f) -> decltype(f(std::declval<pg::conn&>()));

  std::mutex mu_;
  std::string uri_;
  std::unique_ptr<pg::conn> conn_;
};

}  // namespace cod::server::detail
