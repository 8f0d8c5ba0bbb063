// Internal: thin RAII over the SQLite C API. Errors throw persist_error with
// the database path, SQLite's message and, where useful, the statement.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

#include "common/strcat.hpp"
#include "persist/match_store.hpp"
#include "persist/record_rows.hpp"

struct sqlite3;
struct sqlite3_stmt;

namespace cod::server::sql {

// A failure SQLite reports, with its primary result code (SQLITE_CONSTRAINT...).
struct sql_error : persist_error {
  sql_error(int code, const std::string& what) : persist_error(what), code(code) {}
  int code;
};

class stmt;

class db {
 public:
  enum class mode { read_write_create, read_only };
  // Opens; throws persist_error naming the path.
  db(const std::string& path, mode m);
  ~db();
  db(const db&) = delete;
  db& operator=(const db&) = delete;

  sqlite3* handle() const { return h_; }
  const std::string& path() const { return path_; }
  // One or more statements, no results.
  void exec(std::string_view sql);
  // A single-value query (PRAGMA journal_mode...); nullopt when no row.
  std::optional<std::string> query_text(std::string_view sql);
  std::int64_t changes() const;
  bool in_transaction() const;
  [[noreturn]] void fail(int rc, std::string_view doing) const;

 private:
  sqlite3* h_ = nullptr;
  std::string path_;
};

class stmt final : public detail::row_view {
 public:
  stmt(db& d, std::string_view sql);
  ~stmt();
  stmt(const stmt&) = delete;
  stmt& operator=(const stmt&) = delete;

  stmt& bind(int i, std::int64_t v);
  stmt& bind(int i, int v) { return bind(i, static_cast<std::int64_t>(v)); }
  stmt& bind(int i, std::string_view v);
  stmt& bind(int i, const std::string& v) { return bind(i, std::string_view(v)); }
  stmt& bind(int i, const char* v) { return bind(i, std::string_view(v)); }
  stmt& bind(int i, double v);
  stmt& bind_null(int i);

  // true: a row is available; false: done. Throws sql_error on failure.
  bool step();
  // Steps to completion (INSERT/UPDATE) and resets.
  void run();
  void reset();

  bool is_null(int col) const override;
  std::int64_t int64(int col) const override;
  std::string text(int col) const override;
  double real(int col) const override;

 private:
  db& db_;
  sqlite3_stmt* s_ = nullptr;
};

// One call of a component with a connection of its own (the directory, the
// accounts): f() under `mu`; any exception becomes io_error naming the file
// and what was being done, after rolling back a transaction left open.
template <class F>
auto locked_call(std::mutex& mu, db& d, const char* doing, F&& f) -> decltype(f()) {
  std::lock_guard lk(mu);
  try {
    return f();
  } catch (const std::exception& e) {
    if (d.in_transaction()) {
      try {
        d.exec("ROLLBACK");
      } catch (...) {
      }
    }
    return status::io_error(detail::cat(d.path(), ": ", doing, ": ", e.what()));
  }
}

// Resets a statement when leaving a scope (reads that stop early, errors).
class reset_guard {
 public:
  explicit reset_guard(stmt& s) : s_(s) {}
  ~reset_guard() { s_.reset(); }
  reset_guard(const reset_guard&) = delete;
  reset_guard& operator=(const reset_guard&) = delete;

 private:
  stmt& s_;
};

// `sql` with each NOW_MS replaced by the database's clock in ms since the
// epoch (julianday('now') has ms): the directory's and the queue's times.
std::string with_now(std::string_view sql);

}  // namespace cod::server::sql
