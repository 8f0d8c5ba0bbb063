#include "persist/pg/pg_util.hpp"

#include <libpq-fe.h>

#include <charconv>
#include <cstdlib>

#include "common/strcat.hpp"

namespace cod::server::pg {

using detail::cat;

namespace {

// libpq's messages span lines ("...failed: ...\n\tIs the server running...?\n"):
// one line, for the log.
std::string one_line(std::string m) {
  while (!m.empty() && (m.back() == '\n' || m.back() == ' ')) m.pop_back();
  std::string out;
  for (std::size_t i = 0; i < m.size(); ++i) {
    if (m[i] != '\n') {
      out += m[i];
      continue;
    }
    out += "; ";
    while (i + 1 < m.size() && (m[i + 1] == '\t' || m[i + 1] == ' ')) ++i;
  }
  return out;
}

}  // namespace

std::string redact(std::string_view uri) {
  // postgresql://user:password@host... : hide what is between ':' and '@'
  // in the authority.
  const auto scheme = uri.find("://");
  if (scheme == std::string_view::npos) return std::string(uri);
  const auto start = scheme + 3;
  const auto end = uri.find_first_of("/?", start);
  const std::string_view auth = uri.substr(start, end == std::string_view::npos ? uri.npos : end - start);
  const auto at = auth.rfind('@');
  if (at == std::string_view::npos) return std::string(uri);
  const auto colon = auth.substr(0, at).find(':');
  if (colon == std::string_view::npos) return std::string(uri);
  return cat(uri.substr(0, start + colon + 1), "xxx", uri.substr(start + at));
}

bool is_uri(std::string_view s) { return s.starts_with("postgresql://") || s.starts_with("postgres://"); }

// ---------------------------------------------------------------------------
// params, result

params& params::add(std::string_view v) {
  values_.emplace_back(std::string(v));
  return *this;
}

params& params::add(double v) {
  char buf[64];
  const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  return add(std::string_view(buf, ec == std::errc{} ? static_cast<std::size_t>(end - buf) : 0));
}

params& params::add_null() {
  values_.emplace_back(std::nullopt);
  return *this;
}

std::vector<const char*> params::pointers() const {
  std::vector<const char*> out;
  out.reserve(values_.size());
  for (const auto& v : values_) out.push_back(v ? v->c_str() : nullptr);
  return out;
}

result::~result() {
  if (r_) PQclear(r_);
}

result& result::operator=(result&& o) noexcept {
  if (this != &o) {
    if (r_) PQclear(r_);
    r_ = o.r_;
    o.r_ = nullptr;
  }
  return *this;
}

int result::rows() const { return PQntuples(r_); }
bool result::is_null(int row, int col) const { return PQgetisnull(r_, row, col) != 0; }
std::int64_t result::int64(int row, int col) const { return std::strtoll(PQgetvalue(r_, row, col), nullptr, 10); }
double result::real(int row, int col) const { return std::strtod(PQgetvalue(r_, row, col), nullptr); }
std::string result::text(int row, int col) const {
  return std::string(PQgetvalue(r_, row, col), static_cast<std::size_t>(PQgetlength(r_, row, col)));
}
std::int64_t result::affected() const {
  const char* n = PQcmdTuples(r_);
  return n && *n ? std::strtoll(n, nullptr, 10) : 0;
}

// ---------------------------------------------------------------------------
// conn

conn::conn(const std::string& uri, const char* application_name) {
  const char* keys[] = {"dbname", "application_name", "connect_timeout", nullptr};
  const char* values[] = {uri.c_str(), application_name, "10", nullptr};
  c_ = PQconnectdbParams(keys, values, /*expand_dbname=*/1);
  if (!c_ || PQstatus(c_) != CONNECTION_OK) {
    const std::string why = one_line(c_ ? PQerrorMessage(c_) : "out of memory");
    if (c_) PQfinish(c_);
    c_ = nullptr;
    throw error(cat("cannot connect to PostgreSQL at ", redact(uri), ": ", why), "", true);
  }
  const char* host = PQhost(c_);
  where_ = cat("PostgreSQL database ", PQdb(c_), " on ", host && *host ? host : "localhost", ":", PQport(c_));
}

conn::~conn() {
  if (c_) PQfinish(c_);
}

bool conn::ok() const { return c_ && PQstatus(c_) == CONNECTION_OK; }

int conn::backend_pid() const { return PQbackendPID(c_); }

void conn::fail(pg_result* r, std::string_view doing) const {
  std::string state;
  std::string msg;
  if (r) {
    if (const char* s = PQresultErrorField(r, PG_DIAG_SQLSTATE)) state = s;
    msg = PQresultErrorMessage(r);
    PQclear(r);
  }
  if (msg.empty()) msg = PQerrorMessage(c_);
  msg = one_line(std::move(msg));
  const bool lost = PQstatus(c_) != CONNECTION_OK;
  throw error(cat(where_, ": ", doing, ": ", msg.empty() ? "failed" : msg, lost ? " (connection lost)" : ""),
              std::move(state), lost);
}

result conn::check(pg_result* r, std::string_view doing) const {
  const auto st = r ? PQresultStatus(r) : PGRES_FATAL_ERROR;
  if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK) fail(r, doing);
  return result(r);
}

void conn::prepare(const std::string& name, std::string_view sql) {
  const std::string text(sql);
  check(PQprepare(c_, name.c_str(), text.c_str(), 0, nullptr), cat("preparing ", text)).affected();
}

result conn::run(const std::string& name, const params& p) {
  const auto v = p.pointers();
  return check(PQexecPrepared(c_, name.c_str(), p.size(), v.data(), nullptr, nullptr, 0), name);
}

result conn::query(const std::string& sql, const params& p) {
  auto it = by_text_.find(sql);
  if (it == by_text_.end()) {
    std::string name = cat("q", by_text_.size() + 1);
    prepare(name, sql);
    it = by_text_.emplace(sql, std::move(name)).first;
  }
  const auto v = p.pointers();
  return check(PQexecPrepared(c_, it->second.c_str(), p.size(), v.data(), nullptr, nullptr, 0), sql);
}

void conn::exec(std::string_view sql) {
  const std::string text(sql);
  check(PQexec(c_, text.c_str()), text.size() > 60 ? text.substr(0, 60) + "..." : text);
}

// ---------------------------------------------------------------------------
// pipeline

namespace {
// Results the server may hold for us before we read them: it stops reading
// our statements when its output is full, so a blocking client must read
// along (libpq, "Pipeline Mode": interleaving sends and reads).
constexpr std::size_t max_unread = 512;
}  // namespace

pipeline::pipeline(conn& c) : c_(c) {
  if (PQenterPipelineMode(c_.handle()) != 1) c_.fail(nullptr, "entering pipeline mode");
}

pipeline::~pipeline() {
  if (c_.ok()) PQexitPipelineMode(c_.handle());
}

std::size_t pipeline::send(const std::string& name, const params& p) {
  const auto v = p.pointers();
  if (PQsendQueryPrepared(c_.handle(), name.c_str(), p.size(), v.data(), nullptr, nullptr, 0) != 1)
    c_.fail(nullptr, cat("queueing ", name));
  const std::size_t i = sent_++;
  if (sent_ - out_.affected.size() >= max_unread) {
    if (PQsendFlushRequest(c_.handle()) != 1 || PQflush(c_.handle()) != 0) c_.fail(nullptr, "flushing the pipeline");
    while (out_.affected.size() < sent_) read_one();
  }
  return i;
}

void pipeline::read_one() {
  pg_result* r = PQgetResult(c_.handle());
  if (!r) c_.fail(nullptr, "reading a pipeline result");
  const auto st = PQresultStatus(r);
  std::int64_t n = -1;
  if (st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK) {
    n = result(r).affected();
  } else if (st == PGRES_PIPELINE_ABORTED) {
    PQclear(r);
  } else {
    if (!c_.ok()) c_.fail(r, "a pipelined statement");
    try {
      c_.fail(r, "a pipelined statement");
    } catch (const error& e) {
      if (!out_.failed) {
        out_.failed = e;
        out_.failed_at = out_.affected.size();
      }
    }
  }
  out_.affected.push_back(n);
  // Each statement's results end with a NULL.
  if (pg_result* extra = PQgetResult(c_.handle())) {
    PQclear(extra);
    c_.fail(nullptr, "an unexpected second result in the pipeline");
  }
}

pipeline::outcome pipeline::finish() {
  if (PQpipelineSync(c_.handle()) != 1) c_.fail(nullptr, "ending the pipeline");
  while (out_.affected.size() < sent_) read_one();
  pg_result* r = PQgetResult(c_.handle());
  const auto st = r ? PQresultStatus(r) : PGRES_FATAL_ERROR;
  if (st != PGRES_PIPELINE_SYNC) c_.fail(r, "the pipeline's end");
  PQclear(r);
  return std::move(out_);
}

// Appends one element to a PostgreSQL array literal being built ("{" so far).
void add_array_text(std::string& out, std::string_view s) {
  out += out.size() > 1 ? ",\"" : "\"";
  for (char ch : s) {
    if (ch == '"' || ch == '\\') out += '\\';
    out += ch;
  }
  out += '"';
}

std::string text_array(const std::vector<std::string>& v) {
  std::string out = "{";
  for (const std::string& s : v) add_array_text(out, s);
  return out + "}";
}

std::string with_now(std::string_view sql) {
  std::string out;
  for (std::size_t i = 0; i < sql.size(); ++i) {
    if (sql.compare(i, 6, "NOW_MS") == 0) {
      out += "(EXTRACT(EPOCH FROM clock_timestamp()) * 1000)::bigint";
      i += 5;
    } else {
      out += sql[i];
    }
  }
  return out;
}

}  // namespace cod::server::pg
