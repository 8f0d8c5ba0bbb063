// Internal: thin RAII over libpq (the PostgreSQL C API). Data statements are
// prepared once per connection (PQprepare) and run with their parameters as
// text (PQexecPrepared, or queued in a pipeline: pg_pipeline); only
// transaction control and the migrations' DDL go through PQexec. Errors
// throw pg::error: persist_error with the server's SQLSTATE and whether the
// connection is gone.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "common/strcat.hpp"
#include "persist/match_store.hpp"
#include "persist/record_rows.hpp"

struct pg_conn;
struct pg_result;

namespace cod::server::pg {

struct error : persist_error {
  error(const std::string& what, std::string sqlstate, bool connection_lost)
      : persist_error(what), sqlstate(std::move(sqlstate)), connection_lost(connection_lost) {}
  std::string sqlstate;  // "23505" (unique_violation)...; "" when the server sent none
  bool connection_lost;  // the connection is unusable: reconnect before the next use
  // Class 23: a constraint refused the statement (the data, not the storage).
  bool constraint() const { return sqlstate.size() == 5 && sqlstate.compare(0, 2, "23") == 0; }
};

// "postgresql://cod:xxx@db/cod" for log lines: the password never shows.
std::string redact(std::string_view uri);
// Whether a store setting names a PostgreSQL server (postgresql:// or postgres://).
bool is_uri(std::string_view s);

// One statement's parameters, as text (nullopt: NULL).
class params {
 public:
  params& add(std::string_view v);
  params& add(std::int64_t v) { return add(std::string_view(std::to_string(v))); }
  params& add(int v) { return add(static_cast<std::int64_t>(v)); }
  // The shortest text that reads back as exactly `v` (std::to_chars).
  params& add(double v);
  params& add_null();
  int size() const { return static_cast<int>(values_.size()); }
  // Pointers into this object: valid until it changes.
  std::vector<const char*> pointers() const;

 private:
  std::vector<std::optional<std::string>> values_;
};

class result final {
 public:
  explicit result(pg_result* r) : r_(r) {}
  ~result();
  result(result&& o) noexcept : r_(o.r_) { o.r_ = nullptr; }
  result& operator=(result&& o) noexcept;
  result(const result&) = delete;
  result& operator=(const result&) = delete;

  int rows() const;
  bool is_null(int row, int col) const;
  std::int64_t int64(int row, int col) const;
  std::string text(int row, int col) const;
  // A DOUBLE PRECISION column: PostgreSQL 12+ prints the shortest exact text
  // (extra_float_digits >= 1, the default), so this is the stored value.
  double real(int row, int col) const;
  // Rows an INSERT/UPDATE/DELETE touched.
  std::int64_t affected() const;

 private:
  pg_result* r_;
};

// One row of a result, for record_rows.hpp.
class row final : public detail::row_view {
 public:
  row(const result& r, int i) : r_(r), i_(i) {}
  bool is_null(int col) const override { return r_.is_null(i_, col); }
  std::int64_t int64(int col) const override { return r_.int64(i_, col); }
  std::string text(int col) const override { return r_.text(i_, col); }
  double real(int col) const override { return r_.real(i_, col); }

 private:
  const result& r_;
  int i_;
};

class conn {
 public:
  // Connects (a URI or key=value conninfo); application_name shows in
  // pg_stat_activity. Throws pg::error naming the server, never the password.
  conn(const std::string& uri, const char* application_name);
  ~conn();
  conn(const conn&) = delete;
  conn& operator=(const conn&) = delete;

  pg_conn* handle() const { return c_; }
  // "PostgreSQL db cod on /run/postgresql:5432", for messages.
  const std::string& where() const { return where_; }
  bool ok() const;
  // The server process serving this connection (pg_backend_pid).
  int backend_pid() const;

  // Prepares `sql` under `name` (once per connection).
  void prepare(const std::string& name, std::string_view sql);
  // Runs a statement prepared under `name`. Throws pg::error.
  result run(const std::string& name, const params& p);
  // Prepares `sql` on first use (named after a counter), then runs it: for
  // the reads, whose filters make a handful of statement texts.
  result query(const std::string& sql, const params& p);
  // Transaction control and DDL (several statements at once). Throws pg::error.
  void exec(std::string_view sql);
  // Throws the pg::error a failed result (or a NULL one) stands for.
  [[noreturn]] void fail(pg_result* r, std::string_view doing) const;
  // Checks a result: takes ownership, throws on failure.
  result check(pg_result* r, std::string_view doing) const;

 private:
  pg_conn* c_ = nullptr;
  std::string where_;
  std::unordered_map<std::string, std::string> by_text_;  // query(): sql -> statement name
};

}  // namespace cod::server::pg

namespace cod::server::pg {

// Statements queued on one connection and sent together, then one Sync:
// a whole batch in one round trip (libpq's pipeline mode). After an error
// the server skips the rest up to the Sync (PGRES_PIPELINE_ABORTED).
class pipeline {
 public:
  explicit pipeline(conn& c);  // enters pipeline mode; throws pg::error
  ~pipeline();                 // leaves it (after finish, or a lost connection)
  pipeline(const pipeline&) = delete;
  pipeline& operator=(const pipeline&) = delete;

  // Queues a statement prepared under `name`. Returns its index.
  std::size_t send(const std::string& name, const params& p);
  struct outcome {
    std::vector<std::int64_t> affected;  // per statement; -1 when it did not run
    std::optional<error> failed;         // the first statement that failed...
    std::size_t failed_at = 0;           // ...and its index
  };
  // Sends the Sync and reads every statement's result. Throws pg::error
  // (connection_lost) when the connection breaks; a statement's error is
  // returned in the outcome.
  outcome finish();

 private:
  void read_one();

  conn& c_;
  std::size_t sent_ = 0;
  outcome out_;
};

// One call of a component with a connection of its own (the directory, the
// accounts): under `mu`, on `c` (opened again first when it is missing or
// lost, named `application_name`); any exception becomes io_error naming the
// server and what was being done, after rolling back a transaction left open.
template <class F>
auto locked_call(std::mutex& mu, std::unique_ptr<conn>& c, const std::string& uri, const char* application_name,
                 const char* doing, F&& f) -> decltype(f(std::declval<conn&>())) {
  std::lock_guard lk(mu);
  try {
    if (!c || !c->ok()) {
      c.reset();
      c = std::make_unique<conn>(uri, application_name);
    }
    return f(*c);
  } catch (const std::exception& e) {
    if (c && c->ok()) {
      try {
        c->exec("ROLLBACK");  // a warning only when no transaction was open
      } catch (...) {
      }
    }
    return status::io_error(detail::cat(c ? c->where() : redact(uri), ": ", doing, ": ", e.what()));
  }
}

// Appends one text to a PostgreSQL array literal being built ("{" so far).
void add_array_text(std::string& out, std::string_view s);
// A PostgreSQL array literal of texts: {"a","b\"c"}.
std::string text_array(const std::vector<std::string>& v);

// `sql` with each NOW_MS replaced by the server's clock in ms since the
// epoch at the statement's execution (clock_timestamp(), not the
// transaction's start): the directory's and the queue's times.
std::string with_now(std::string_view sql);

}  // namespace cod::server::pg
