// The PostgreSQL side of the store tests: the server the suite was given
// (COD_TEST_PG_URI, set by ctest's persist_tests_pg from the fixture that
// starts one: scripts/pg-temp), and a fresh database per test case on it.
#pragma once

#include <doctest/doctest.h>
#include <libpq-fe.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <string>
#include <vector>

namespace cod::server::test {

// The server of the PostgreSQL run, or nullptr (the SQLite-only run).
inline const char* test_pg_uri() {
  const char* u = std::getenv("COD_TEST_PG_URI");
  return u && *u ? u : nullptr;
}

// `uri` with its database name replaced: postgresql://u@h:p/OLD?x -> /NEW?x.
inline std::string with_database(const std::string& uri, const std::string& db) {
  const auto scheme = uri.find("://");
  REQUIRE_MESSAGE(scheme != std::string::npos, "COD_TEST_PG_URI is not a URI: " << uri);
  const auto path = uri.find_first_of("/?", scheme + 3);
  if (path == std::string::npos) return uri + "/" + db;
  const auto query = uri.find('?', path);
  return uri.substr(0, path) + "/" + db + (query == std::string::npos ? "" : uri.substr(query));
}

// Raw SQL on a PostgreSQL database, for inspecting and tampering.
class pg_raw {
 public:
  explicit pg_raw(const std::string& uri) : c_(PQconnectdb(uri.c_str())) {
    REQUIRE_MESSAGE(PQstatus(c_) == CONNECTION_OK, "cannot connect to " << uri << ": " << PQerrorMessage(c_));
  }
  ~pg_raw() { PQfinish(c_); }
  pg_raw(const pg_raw&) = delete;
  pg_raw& operator=(const pg_raw&) = delete;
  // Every row, each column as text ("NULL" for null), joined with '|'.
  std::vector<std::string> rows(const std::string& sql) {
    PGresult* r = PQexec(c_, sql.c_str());
    const auto st = PQresultStatus(r);
    INFO(sql);
    INFO(PQresultErrorMessage(r));
    if (st != PGRES_TUPLES_OK && st != PGRES_COMMAND_OK) PQclear(r);
    REQUIRE((st == PGRES_TUPLES_OK || st == PGRES_COMMAND_OK));
    std::vector<std::string> out;
    for (int i = 0; i < PQntuples(r); ++i) {
      std::string row;
      for (int c = 0; c < PQnfields(r); ++c) {
        if (c) row += '|';
        row += PQgetisnull(r, i, c) ? "NULL" : PQgetvalue(r, i, c);
      }
      out.push_back(row);
    }
    PQclear(r);
    return out;
  }
  void exec(const std::string& sql) { rows(sql); }
  std::string one(const std::string& sql) {
    auto r = rows(sql);
    REQUIRE(r.size() == 1);
    return r[0];
  }

 private:
  PGconn* c_;
};

// A database of its own for one test case, dropped at the end (with
// whatever connections a failed test left on it).
class pg_test_db {
 public:
  explicit pg_test_db(const std::string& server_uri) : server_(server_uri) {
    static std::atomic<int> counter{0};
    name_ = "cod_test_" + std::to_string(getpid()) + "_" + std::to_string(++counter);
    pg_raw(server_).exec("CREATE DATABASE " + name_);
  }
  ~pg_test_db() {
    PGconn* c = PQconnectdb(server_.c_str());
    PQclear(PQexec(c, ("DROP DATABASE IF EXISTS " + name_ + " WITH (FORCE)").c_str()));
    PQfinish(c);
  }
  pg_test_db(const pg_test_db&) = delete;
  pg_test_db& operator=(const pg_test_db&) = delete;
  std::string uri() const { return with_database(server_, name_); }
  const std::string& name() const { return name_; }
  const std::string& server() const { return server_; }

 private:
  std::string server_;
  std::string name_;
};

}  // namespace cod::server::test
