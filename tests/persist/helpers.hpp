// Shared by the persistence tests: temporary directories, sample records,
// callback counters, raw SQL on a test database.
#pragma once

#include <doctest/doctest.h>
#include <sqlite3.h>
#include <stdlib.h>

#include <chrono>
#include <thread>
#include <condition_variable>
#include <filesystem>
#include <mutex>
#include <string>
#include <vector>

#include "common/sha256.hpp"
#include "persist/match_store.hpp"
#include "persist/memory/memory_store.hpp"
#include "persist/pg/pg_store.hpp"
#include "persist/sqlite/sqlite_store.hpp"
#include "pg_helpers.hpp"

namespace cod::server::test {

// A fresh directory under $TMPDIR (or /tmp), removed with everything in it.
class temp_dir {
 public:
  temp_dir() {
    const char* base = std::getenv("TMPDIR");
    std::string tmpl = std::string(base && *base ? base : "/tmp") + "/cod_persist_XXXXXX";
    REQUIRE(mkdtemp(tmpl.data()) != nullptr);
    path_ = tmpl;
  }
  ~temp_dir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  temp_dir(const temp_dir&) = delete;
  temp_dir& operator=(const temp_dir&) = delete;
  std::string file(const std::string& name) const { return path_ + "/" + name; }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

inline match_record sample_record(const std::string& id, std::int64_t created_ms = 1700000000000,
                                  const std::string& name0 = "Alice", const std::string& name1 = "Bob") {
  match_record m;
  m.match_id = id;
  m.room_id = "room-" + id;
  m.mode = "duel";
  m.format = "preconstructed";
  m.options_json = R"({"exhaustion":true})";
  m.rules_version = "rules-1";
  m.engine_version = 1;
  m.seed = 0xfedcba9876543210ull;  // above INT64_MAX: stored exactly
  m.seed_hash = seed_commitment(m.seed);
  m.created_ms = created_ms;
  m.seats = {{0, name0, sha256_hex("token0"), R"({"preconstructed":1})"},
             {1, name1, sha256_hex("token1"), R"({"preconstructed":2})"}};
  // Seat 1 taken signed in (match_seats.account_id, 0013); seat 0 by a typed name.
  m.seats[1].account_id = 4'000'000'001;  // beyond 32 bits: stored whole
  return m;
}

inline action_record sample_action(std::int64_t seq, int seat = 0) {
  action_record a;
  a.seq = seq;
  a.seat = seat;
  a.action_json = R"({"type":"end_turn"})";
  a.digest = 0x8000000000000000ull ^ static_cast<std::uint64_t>(seq * 7919);  // high bit set
  a.at_ms = 1700000000000 + seq;
  return a;
}

// Polls `done` every 20 ms for up to 20 s (a loaded machine): whether it came true.
template <class F>
bool eventually(F&& done) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (std::chrono::steady_clock::now() < deadline) {
    if (done()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return false;
}

// Runs `body` against every store: memory (own thread), memory (inline),
// sqlite, and pg when the suite was given a PostgreSQL (COD_TEST_PG_URI;
// ctest's persist_tests_pg), each pg case on a fresh database.
template <class Body>
void for_each_store(Body&& body) {
  SUBCASE("memory_store, own thread") {
    memory_store s;
    body(s);
  }
  SUBCASE("memory_store, inline callbacks") {
    memory_store s(memory_store::callbacks::run_inline);
    body(s);
  }
  SUBCASE("sqlite_store") {
    temp_dir dir;
    auto opened = sqlite_store::open({.path = dir.file("store.db")});
    REQUIRE_MESSAGE(opened, opened.error().message());
    auto s = std::move(*opened);
    body(*s);
  }
  if (const char* uri = test_pg_uri()) {
    SUBCASE("pg_store") {
      pg_test_db db(uri);
      auto opened = pg_store::open({.uri = db.uri()});
      REQUIRE_MESSAGE(opened, opened.error().message());
      auto s = std::move(*opened);
      body(*s);
    }
  }
}

// Counts callbacks (from any thread); wait() blocks until n arrived.
class acks {
 public:
  match_store::done_fn expect(bool want) {
    return [this, want](const status& st) {
      std::lock_guard lk(mu_);
      ++calls_;
      if (st.is_ok() != want) ++wrong_;
      cv_.notify_all();
    };
  }
  bool wait(int n, std::chrono::seconds timeout = std::chrono::seconds(30)) {
    std::unique_lock lk(mu_);
    return cv_.wait_for(lk, timeout, [&] { return calls_ >= n; });
  }
  int calls() {
    std::lock_guard lk(mu_);
    return calls_;
  }
  int wrong() {
    std::lock_guard lk(mu_);
    return wrong_;
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  int calls_ = 0;
  int wrong_ = 0;
};

// Raw SQL on a database file, for inspecting and tampering.
class raw_db {
 public:
  explicit raw_db(const std::string& path) { REQUIRE(sqlite3_open(path.c_str(), &db_) == SQLITE_OK); }
  ~raw_db() { sqlite3_close(db_); }
  raw_db(const raw_db&) = delete;
  raw_db& operator=(const raw_db&) = delete;
  void exec(const std::string& sql) {
    char* err = nullptr;
    const int rc = sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &err);
    INFO(sql);
    INFO((err ? err : ""));
    sqlite3_free(err);
    REQUIRE(rc == SQLITE_OK);
  }
  // For statements expected to fail: SQLite's result code.
  int try_exec(const std::string& sql) { return sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, nullptr); }
  // Every row, each column as text ("NULL" for null), joined with '|'.
  std::vector<std::string> rows(const std::string& sql) {
    sqlite3_stmt* s = nullptr;
    INFO(sql);
    REQUIRE(sqlite3_prepare_v2(db_, sql.c_str(), -1, &s, nullptr) == SQLITE_OK);
    std::vector<std::string> out;
    while (sqlite3_step(s) == SQLITE_ROW) {
      std::string row;
      for (int c = 0; c < sqlite3_column_count(s); ++c) {
        if (c) row += '|';
        const auto* t = sqlite3_column_text(s, c);
        row += t ? reinterpret_cast<const char*>(t) : "NULL";
      }
      out.push_back(row);
    }
    sqlite3_finalize(s);
    return out;
  }
  std::string one(const std::string& sql) {
    auto r = rows(sql);
    REQUIRE(r.size() == 1);
    return r[0];
  }

 private:
  sqlite3* db_ = nullptr;
};

}  // namespace cod::server::test
