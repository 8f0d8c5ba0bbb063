#include "persist/sqlite/sqlite_accounts.hpp"

#include <sqlite3.h>

#include <mutex>
#include <optional>
#include <utility>
#include <vector>

#include "persist/account_refusals.hpp"
#include "persist/sqlite/sqlite_util.hpp"

namespace cod::server::detail {

namespace {

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


constexpr const char* account_columns = "account_id, name, password_hash, guest, disabled, deleted, created_ms";
constexpr const char* session_columns = "session_id, token_hash, account_id, created_ms, last_used_ms, remote";

account_record account_of(const sql::stmt& s) {
  return {s.int64(0), s.text(1), s.text(2), s.int64(3) != 0, s.int64(4) != 0, s.int64(5) != 0, s.int64(6)};
}

session_record session_of(const sql::stmt& s) {
  return {s.text(0), s.text(1), s.int64(2), s.int64(3), s.int64(4), s.text(5)};
}

std::optional<account_record> one_account(sql::stmt& s) {
  sql::reset_guard g(s);
  if (!s.step()) return std::nullopt;
  return account_of(s);
}

// The only constraint an INSERT or UPDATE of accounts can break: the name's
// uniqueness (accounts_name, NOCASE). Its CHECKs hold by construction.
bool constraint(const sql::sql_error& e) { return e.code == SQLITE_CONSTRAINT; }

}  // namespace

sqlite_accounts::sqlite_accounts(const std::string& path, int busy_timeout_ms)
    : db_(std::make_unique<sql::db>(path, sql::db::mode::read_write_create)) {
  db_->exec("PRAGMA foreign_keys = ON");
  sqlite3_busy_timeout(db_->handle(), busy_timeout_ms);
}

sqlite_accounts::~sqlite_accounts() = default;

template <class F>
auto sqlite_accounts::guarded(const char* doing, F&& f) -> decltype(f()) {
  return sql::locked_call(mu_, *db_, doing, std::forward<F>(f));
}

result<account_record> sqlite_accounts::create_account(const account_record& a) {
  return guarded("creating an account", [&]() -> result<account_record> {
    sql::stmt s(*db_, cat("INSERT INTO accounts (name, password_hash, guest, disabled, deleted, created_ms) "
                          "VALUES (?1, ?2, ?3, ?4, ?5, ?6) RETURNING account_id"));
    s.bind(1, a.name).bind(2, a.password_hash).bind(3, a.guest ? 1 : 0).bind(4, a.disabled ? 1 : 0);
    s.bind(5, a.deleted ? 1 : 0).bind(6, a.created_ms);
    account_record stored = a;
    try {
      sql::reset_guard g(s);
      if (!s.step()) throw persist_error("the new account's row gave no account_id");
      stored.account_id = s.int64(0);
      while (s.step()) {
      }  // to its end: the statement's commit, and any failure of it, come there
    } catch (const sql::sql_error& e) {
      if (!constraint(e)) throw;
      return name_taken(a.name);
    }
    return stored;
  });
}

result<std::optional<account_record>> sqlite_accounts::account_by_name(const std::string& name) {
  return guarded("finding an account by name", [&]() -> result<std::optional<account_record>> {
    sql::stmt s(*db_, cat("SELECT ", account_columns, " FROM accounts WHERE name = ?1 COLLATE NOCASE"));
    s.bind(1, name);
    return one_account(s);
  });
}

result<std::optional<account_record>> sqlite_accounts::account_by_id(std::int64_t account_id) {
  return guarded("finding an account by id", [&]() -> result<std::optional<account_record>> {
    sql::stmt s(*db_, cat("SELECT ", account_columns, " FROM accounts WHERE account_id = ?1"));
    s.bind(1, account_id);
    return one_account(s);
  });
}

status sqlite_accounts::update_account(const account_record& a) {
  const result<bool> updated = guarded("updating an account", [&]() -> result<bool> {
    sql::stmt s(*db_, "UPDATE accounts SET name = ?2, password_hash = ?3, guest = ?4, disabled = ?5, deleted = ?6 "
                      "WHERE account_id = ?1");
    s.bind(1, a.account_id).bind(2, a.name).bind(3, a.password_hash).bind(4, a.guest ? 1 : 0);
    s.bind(5, a.disabled ? 1 : 0).bind(6, a.deleted ? 1 : 0);
    try {
      s.run();
    } catch (const sql::sql_error& e) {
      if (!constraint(e)) throw;
      return name_taken(a.name);
    }
    return db_->changes() == 1;
  });
  if (!updated) return updated.error();
  return *updated ? status{} : no_account(a.account_id);
}

result<std::vector<account_record>> sqlite_accounts::find_accounts(const std::string& prefix, int limit) {
  return guarded("finding accounts", [&]() -> result<std::vector<account_record>> {
    std::vector<account_record> out;
    if (limit <= 0) return out;  // SQLite reads a negative LIMIT as none
    // NOCASE: ASCII case folded, as the name's index does.
    sql::stmt s(*db_, cat("SELECT ", account_columns, " FROM accounts WHERE substr(name, 1, length(?1)) = ?1 "
                          "COLLATE NOCASE ORDER BY name COLLATE NOCASE LIMIT ?2"));
    s.bind(1, prefix).bind(2, limit);
    sql::reset_guard g(s);
    while (s.step()) out.push_back(account_of(s));
    return out;
  });
}

status sqlite_accounts::add_session(const session_record& rec) {
  return guarded("adding a session", [&]() -> status {
    db_->exec("BEGIN IMMEDIATE");
    sql::stmt known(*db_, "SELECT 1 FROM accounts WHERE account_id = ?1");
    known.bind(1, rec.account_id);
    bool found = false;
    {
      sql::reset_guard g(known);
      found = known.step();
    }
    if (!found) {
      db_->exec("ROLLBACK");
      return no_account(rec.account_id);
    }
    sql::stmt s(*db_, cat("INSERT INTO account_sessions (", session_columns, ") VALUES (?1, ?2, ?3, ?4, ?5, ?6)"));
    s.bind(1, rec.session_id).bind(2, rec.token_hash).bind(3, rec.account_id).bind(4, rec.created_ms);
    s.bind(5, rec.last_used_ms).bind(6, rec.remote);
    try {
      s.run();
    } catch (const sql::sql_error& e) {
      // The account is there (read above, in this transaction): the key or
      // the token's hash is taken.
      if (e.code != SQLITE_CONSTRAINT) throw;
      db_->exec("ROLLBACK");
      return session_taken(rec.session_id);
    }
    db_->exec("COMMIT");
    return status{};
  });
}

result<std::optional<session_record>> sqlite_accounts::use_session(const std::string& token_hash, std::int64_t now_ms,
                                                                   std::int64_t idle_ms) {
  return guarded("using a session", [&]() -> result<std::optional<session_record>> {
    db_->exec("BEGIN IMMEDIATE");
    sql::stmt find(*db_, cat("SELECT ", session_columns, " FROM account_sessions WHERE token_hash = ?1"));
    find.bind(1, token_hash);
    std::optional<session_record> found;
    {
      sql::reset_guard g(find);
      if (find.step()) found = session_of(find);
    }
    if (!found) {
      db_->exec("COMMIT");
      return found;
    }
    if (now_ms - found->last_used_ms > idle_ms) {
      sql::stmt del(*db_, "DELETE FROM account_sessions WHERE session_id = ?1");
      del.bind(1, found->session_id);
      del.run();
      db_->exec("COMMIT");
      return std::optional<session_record>{};
    }
    sql::stmt used(*db_, "UPDATE account_sessions SET last_used_ms = ?2 WHERE session_id = ?1");
    used.bind(1, found->session_id).bind(2, now_ms);
    used.run();
    db_->exec("COMMIT");
    found->last_used_ms = now_ms;
    return found;
  });
}

result<std::vector<session_record>> sqlite_accounts::sessions_of(std::int64_t account_id) {
  return guarded("listing an account's sessions", [&]() -> result<std::vector<session_record>> {
    sql::stmt s(*db_, cat("SELECT ", session_columns, " FROM account_sessions WHERE account_id = ?1 "
                          "ORDER BY last_used_ms DESC, session_id"));
    s.bind(1, account_id);
    std::vector<session_record> out;
    sql::reset_guard g(s);
    while (s.step()) out.push_back(session_of(s));
    return out;
  });
}

status sqlite_accounts::revoke_session(std::int64_t account_id, const std::string& session_id) {
  const result<bool> revoked = guarded("revoking a session", [&]() -> result<bool> {
    sql::stmt s(*db_, "DELETE FROM account_sessions WHERE account_id = ?1 AND session_id = ?2");
    s.bind(1, account_id).bind(2, session_id);
    s.run();
    return db_->changes() == 1;
  });
  if (!revoked) return revoked.error();
  return *revoked ? status{} : no_session(account_id, session_id);
}

result<std::int64_t> sqlite_accounts::revoke_sessions(std::int64_t account_id) {
  return guarded("revoking an account's sessions", [&]() -> result<std::int64_t> {
    sql::stmt s(*db_, "DELETE FROM account_sessions WHERE account_id = ?1");
    s.bind(1, account_id);
    s.run();
    return db_->changes();
  });
}

std::unique_ptr<account_store> open_sqlite_accounts(const std::string& path, int busy_timeout_ms) {
  return std::make_unique<sqlite_accounts>(path, busy_timeout_ms);
}

}  // namespace cod::server::detail
