#include "persist/sqlite/sqlite_util.hpp"

#include <sqlite3.h>

namespace cod::server::sql {

namespace {

std::string describe(sqlite3* h, int rc) {
  std::string msg = h ? sqlite3_errmsg(h) : sqlite3_errstr(rc);
  const std::string code = sqlite3_errstr(rc);
  if (msg != code) {
    msg += " (";
    msg += code;
    msg += ")";
  }
  return msg;
}

}  // namespace

db::db(const std::string& path, mode m) : path_(path) {
  const int flags = (m == mode::read_only ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE) |
                    SQLITE_OPEN_NOMUTEX;
  const int rc = sqlite3_open_v2(path.c_str(), &h_, flags, nullptr);
  if (rc != SQLITE_OK) {
    std::string msg = "cannot open database ";
    msg += path;
    msg += ": ";
    msg += describe(h_, rc);
    sqlite3_close_v2(h_);
    h_ = nullptr;
    throw sql_error(rc & 0xff, msg);
  }
  sqlite3_busy_timeout(h_, 5000);
}

db::~db() {
  if (h_) sqlite3_close_v2(h_);
}

void db::fail(int rc, std::string_view doing) const {
  std::string msg = "database ";
  msg += path_;
  msg += ": ";
  msg += describe(h_, rc);
  if (!doing.empty()) {
    msg += " [";
    msg += doing;
    msg += "]";
  }
  throw sql_error(rc & 0xff, msg);
}

void db::exec(std::string_view sql) {
  const std::string text(sql);
  char* err = nullptr;
  const int rc = sqlite3_exec(h_, text.c_str(), nullptr, nullptr, &err);
  if (rc != SQLITE_OK) {
    std::string msg = "database ";
    msg += path_;
    msg += ": ";
    msg += err ? err : sqlite3_errstr(rc);
    sqlite3_free(err);
    throw sql_error(rc & 0xff, msg);
  }
}

std::optional<std::string> db::query_text(std::string_view sql) {
  stmt s(*this, sql);
  if (!s.step()) return std::nullopt;
  return s.text(0);
}

std::int64_t db::changes() const { return sqlite3_changes64(h_); }

bool db::in_transaction() const { return sqlite3_get_autocommit(h_) == 0; }

stmt::stmt(db& d, std::string_view sql) : db_(d) {
  const int rc = sqlite3_prepare_v3(d.handle(), sql.data(), static_cast<int>(sql.size()),
                                    SQLITE_PREPARE_PERSISTENT, &s_, nullptr);
  if (rc != SQLITE_OK) d.fail(rc, sql);
}

stmt::~stmt() { sqlite3_finalize(s_); }

stmt& stmt::bind(int i, std::int64_t v) {
  if (int rc = sqlite3_bind_int64(s_, i, v); rc != SQLITE_OK) db_.fail(rc, sqlite3_sql(s_));
  return *this;
}

stmt& stmt::bind(int i, std::string_view v) {
  if (int rc = sqlite3_bind_text64(s_, i, v.data(), v.size(), SQLITE_TRANSIENT, SQLITE_UTF8); rc != SQLITE_OK)
    db_.fail(rc, sqlite3_sql(s_));
  return *this;
}

stmt& stmt::bind(int i, double v) {
  if (int rc = sqlite3_bind_double(s_, i, v); rc != SQLITE_OK) db_.fail(rc, sqlite3_sql(s_));
  return *this;
}

stmt& stmt::bind_null(int i) {
  if (int rc = sqlite3_bind_null(s_, i); rc != SQLITE_OK) db_.fail(rc, sqlite3_sql(s_));
  return *this;
}

bool stmt::step() {
  const int rc = sqlite3_step(s_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  const std::string sql = sqlite3_sql(s_);
  sqlite3_reset(s_);
  db_.fail(rc, sql);
}

void stmt::run() {
  reset_guard g(*this);
  while (step()) {
  }
}

void stmt::reset() {
  sqlite3_reset(s_);
  sqlite3_clear_bindings(s_);
}

bool stmt::is_null(int col) const { return sqlite3_column_type(s_, col) == SQLITE_NULL; }

std::int64_t stmt::int64(int col) const { return sqlite3_column_int64(s_, col); }

double stmt::real(int col) const { return sqlite3_column_double(s_, col); }

std::string stmt::text(int col) const {
  const auto* p = sqlite3_column_text(s_, col);
  if (!p) return {};
  return std::string(reinterpret_cast<const char*>(p), static_cast<std::size_t>(sqlite3_column_bytes(s_, col)));
}

std::string with_now(std::string_view sql) {
  constexpr std::string_view now_ms = "CAST(round((julianday('now') - 2440587.5) * 86400000.0) AS INTEGER)";
  std::string out;
  for (std::size_t i = 0; i < sql.size(); ++i) {
    if (sql.compare(i, 6, "NOW_MS") == 0) {
      out += now_ms;
      i += 5;
    } else {
      out += sql[i];
    }
  }
  return out;
}

}  // namespace cod::server::sql
