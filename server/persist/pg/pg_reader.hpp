// Reads of a PostgreSQL store on a connection of their own: the PostgreSQL
// store's reads (pg_store.hpp), and cod-admin's on a database a server is
// writing. Thread-safe (one connection behind a mutex); a lost connection
// fails that read (persist_error) and is opened again for the next one.
// Each read that takes several queries runs in one REPEATABLE READ
// transaction: a consistent snapshot, like SQLite's read transactions.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/status.hpp"
#include "persist/match_store.hpp"

namespace cod::server {

// The reads themselves (match_reader's) are defined in pg_reader.cpp alone:
// adding a read to the store touches that file, not this one.
class pg_reader : public match_reader {
 public:
  // io_error, with a sentence, when the server cannot be reached or the
  // schema is not exactly this program's (older, newer, not ours).
  static result<std::unique_ptr<pg_reader>> open(const std::string& uri);
  int schema_version() const { return schema_version_; }

 protected:
  pg_reader() = default;
  int schema_version_ = 0;
};

}  // namespace cod::server
