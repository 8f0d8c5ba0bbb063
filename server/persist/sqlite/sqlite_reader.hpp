// A read-only connection to a cod-server database: the SQLite store's reads,
// and cod-admin's on a file the server may be writing (WAL readers do not
// block the writer). Thread-safe (one connection behind a mutex). Refuses a
// database whose schema is not exactly the one this program knows.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/status.hpp"
#include "persist/match_store.hpp"

namespace cod::server {

// The reads themselves (match_reader's) are defined in sqlite_reader.cpp
// alone: adding a read to the store touches that file, not this one.
class sqlite_reader : public match_reader {
 public:
  // io_error, with a sentence, when the file cannot be read (missing,
  // corrupt, not ours, a schema newer than ours).
  static result<std::unique_ptr<sqlite_reader>> open(const std::string& path);
  int schema_version() const { return schema_version_; }

 protected:
  sqlite_reader() = default;
  int schema_version_ = 0;
};

}  // namespace cod::server
