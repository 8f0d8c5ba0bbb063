#include "persist/pg/pg_accounts.hpp"

#include <mutex>
#include <optional>
#include <utility>
#include <vector>

#include "persist/account_refusals.hpp"
#include "persist/pg/pg_util.hpp"

namespace cod::server::detail {

namespace {

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


// A-Z folded, nothing else: names compare as SQLite's NOCASE and the memory
// store compare them, whatever the database's locale (migration 0012's
// index is on the same expression, so these lookups use it).
std::string fold(const std::string& expr) {
  return "translate(" + expr + ", 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz')";
}
const std::string folded_name = fold("name");


constexpr const char* application_name = "cod-store-accounts";

const std::string account_columns = "account_id, name, password_hash, guest, disabled, deleted, created_ms";
const std::string session_columns = "session_id, token_hash, account_id, created_ms, last_used_ms, remote";

account_record account_of(const pg::result& r, int i) {
  return {r.int64(i, 0),      r.text(i, 1),      r.text(i, 2), r.int64(i, 3) != 0,
          r.int64(i, 4) != 0, r.int64(i, 5) != 0, r.int64(i, 6)};
}

session_record session_of(const pg::result& r, int i) {
  return {r.text(i, 0), r.text(i, 1), r.int64(i, 2), r.int64(i, 3), r.int64(i, 4), r.text(i, 5)};
}

std::optional<account_record> one_account(const pg::result& r) {
  if (r.rows() == 0) return std::nullopt;
  return account_of(r, 0);
}

// SQLSTATEs the calls turn into refusals; every other error is the storage's.
bool unique_violation(const pg::error& e) { return e.sqlstate == "23505"; }
bool foreign_key_violation(const pg::error& e) { return e.sqlstate == "23503"; }

}  // namespace

pg_accounts::pg_accounts(std::string uri) : uri_(std::move(uri)) {
  conn_ = std::make_unique<pg::conn>(uri_, application_name);
}

pg_accounts::~pg_accounts() = default;

template <class F>
auto pg_accounts::guarded(const char* doing, F&& f) -> decltype(f(std::declval<pg::conn&>())) {
  return pg::locked_call(mu_, conn_, uri_, application_name, doing, std::forward<F>(f));
}

result<account_record> pg_accounts::create_account(const account_record& a) {
  return guarded("creating an account", [&](pg::conn& c) -> result<account_record> {
    // A name seen taken inserts nothing, so it uses no number of the
    // identity; two nodes creating the same name at once meet at the
    // unique index instead (and the loser's number is skipped).
    static const std::string sql =
        "INSERT INTO accounts (name, password_hash, guest, disabled, deleted, created_ms) "
        "SELECT $1::text, $2::text, $3::integer, $4::integer, $5::integer, $6::bigint "
        "WHERE NOT EXISTS (SELECT 1 FROM accounts WHERE " + folded_name + " = " + fold("$1::text") +
        ") RETURNING account_id";
    account_record stored = a;
    try {
      const pg::result r = c.query(sql, pg::params()
                                            .add(a.name)
                                            .add(a.password_hash)
                                            .add(a.guest ? 1 : 0)
                                            .add(a.disabled ? 1 : 0)
                                            .add(a.deleted ? 1 : 0)
                                            .add(a.created_ms));
      if (r.rows() == 0) return name_taken(a.name);
      stored.account_id = r.int64(0, 0);
    } catch (const pg::error& e) {
      if (!unique_violation(e)) throw;
      return name_taken(a.name);
    }
    return stored;
  });
}

result<std::optional<account_record>> pg_accounts::account_by_name(const std::string& name) {
  return guarded("finding an account by name", [&](pg::conn& c) -> result<std::optional<account_record>> {
    static const std::string sql =
        "SELECT " + account_columns + " FROM accounts WHERE " + folded_name + " = " + fold("$1::text");
    return one_account(c.query(sql, pg::params().add(name)));
  });
}

result<std::optional<account_record>> pg_accounts::account_by_id(std::int64_t account_id) {
  return guarded("finding an account by id", [&](pg::conn& c) -> result<std::optional<account_record>> {
    static const std::string sql = "SELECT " + account_columns + " FROM accounts WHERE account_id = $1";
    return one_account(c.query(sql, pg::params().add(account_id)));
  });
}

status pg_accounts::update_account(const account_record& a) {
  const result<bool> updated = guarded("updating an account", [&](pg::conn& c) -> result<bool> {
    try {
      return c.query("UPDATE accounts SET name = $2, password_hash = $3, guest = $4, disabled = $5, deleted = $6 "
                     "WHERE account_id = $1",
                     pg::params()
                         .add(a.account_id)
                         .add(a.name)
                         .add(a.password_hash)
                         .add(a.guest ? 1 : 0)
                         .add(a.disabled ? 1 : 0)
                         .add(a.deleted ? 1 : 0))
                 .affected() == 1;
    } catch (const pg::error& e) {
      if (!unique_violation(e)) throw;
      return name_taken(a.name);
    }
  });
  if (!updated) return updated.error();
  return *updated ? status{} : no_account(a.account_id);
}

result<std::vector<account_record>> pg_accounts::find_accounts(const std::string& prefix, int limit) {
  return guarded("finding accounts", [&](pg::conn& c) -> result<std::vector<account_record>> {
    std::vector<account_record> out;
    if (limit <= 0) return out;  // PostgreSQL refuses a negative LIMIT
    // Ordered bytewise (COLLATE "C") on the lowercased name: as SQLite's
    // NOCASE and the memory store order, whatever the database's locale.
    static const std::string sql = "SELECT " + account_columns + " FROM accounts WHERE left(" + folded_name +
                                   ", length($1::text)) = " + fold("$1::text") + " ORDER BY " + folded_name +
                                   " COLLATE \"C\" LIMIT $2";
    const pg::result r = c.query(sql, pg::params().add(prefix).add(limit));
    for (int i = 0; i < r.rows(); ++i) out.push_back(account_of(r, i));
    return out;
  });
}

status pg_accounts::add_session(const session_record& s) {
  return guarded("adding a session", [&](pg::conn& c) -> status {
    static const std::string sql =
        "INSERT INTO account_sessions (" + session_columns +
        ") SELECT $1::text, $2::text, $3::bigint, $4::bigint, $5::bigint, $6::text "
        "WHERE EXISTS (SELECT 1 FROM accounts WHERE account_id = $3::bigint)";
    try {
      const auto n = c.query(sql, pg::params()
                                      .add(s.session_id)
                                      .add(s.token_hash)
                                      .add(s.account_id)
                                      .add(s.created_ms)
                                      .add(s.last_used_ms)
                                      .add(s.remote))
                         .affected();
      return n == 1 ? status{} : no_account(s.account_id);
    } catch (const pg::error& e) {
      if (unique_violation(e)) return session_taken(s.session_id);
      if (foreign_key_violation(e)) return no_account(s.account_id);
      throw;
    }
  });
}

result<std::optional<session_record>> pg_accounts::use_session(const std::string& token_hash, std::int64_t now_ms,
                                                               std::int64_t idle_ms) {
  return guarded("using a session", [&](pg::conn& c) -> result<std::optional<session_record>> {
    // Two statements, each atomic, no transaction around them: the first
    // deletes the session if it is idle too long at now_ms; the second then
    // finds it only if it was not (or another node used it in between),
    // and marks it used.
    static const std::string idle_sql =
        "DELETE FROM account_sessions WHERE token_hash = $1 AND $2::bigint - last_used_ms > $3::bigint";
    static const std::string use_sql =
        "UPDATE account_sessions SET last_used_ms = $2 WHERE token_hash = $1 RETURNING " + session_columns;
    c.query(idle_sql, pg::params().add(token_hash).add(now_ms).add(idle_ms));
    const pg::result r = c.query(use_sql, pg::params().add(token_hash).add(now_ms));
    if (r.rows() == 0) return std::optional<session_record>{};
    return std::optional<session_record>{session_of(r, 0)};
  });
}

result<std::vector<session_record>> pg_accounts::sessions_of(std::int64_t account_id) {
  return guarded("listing an account's sessions", [&](pg::conn& c) -> result<std::vector<session_record>> {
    static const std::string sql = "SELECT " + session_columns +
                                   " FROM account_sessions WHERE account_id = $1 "
                                   "ORDER BY last_used_ms DESC, session_id COLLATE \"C\"";
    const pg::result r = c.query(sql, pg::params().add(account_id));
    std::vector<session_record> out;
    for (int i = 0; i < r.rows(); ++i) out.push_back(session_of(r, i));
    return out;
  });
}

status pg_accounts::revoke_session(std::int64_t account_id, const std::string& session_id) {
  const result<bool> revoked = guarded("revoking a session", [&](pg::conn& c) -> result<bool> {
    return c.query("DELETE FROM account_sessions WHERE account_id = $1 AND session_id = $2",
                   pg::params().add(account_id).add(session_id))
               .affected() == 1;
  });
  if (!revoked) return revoked.error();
  return *revoked ? status{} : no_session(account_id, session_id);
}

result<std::int64_t> pg_accounts::revoke_sessions(std::int64_t account_id) {
  return guarded("revoking an account's sessions", [&](pg::conn& c) -> result<std::int64_t> {
    return c.query("DELETE FROM account_sessions WHERE account_id = $1", pg::params().add(account_id)).affected();
  });
}

std::unique_ptr<account_store> open_pg_accounts(std::string uri) {
  return std::make_unique<pg_accounts>(std::move(uri));
}

}  // namespace cod::server::detail
