// A read-only connection to a cod-server database: the SQLite store's reads,
// and cod-admin's on a file the server may be writing (WAL readers do not
// block the writer). Thread-safe (one connection behind a mutex). Refuses a
// database whose schema is not exactly the one this program knows.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "common/status.hpp"
#include "persist/match_store.hpp"

namespace cod::server {

namespace sql {
class db;
}

class sqlite_reader final : public match_reader {
 public:
  // io_error, with a sentence, when the file cannot be read (missing,
  // corrupt, not ours, a schema newer than ours).
  static result<std::unique_ptr<sqlite_reader>> open(const std::string& path);
  ~sqlite_reader() override;

  result<std::vector<stored_match>> load_unfinished() override;
  result<std::vector<stored_match>> load_finished_since(std::int64_t ended_from_ms) override;
  result<std::optional<stored_match>> load_match(const std::string& match_id) override;
  result<std::vector<match_summary>> list_matches(const match_query& q) override;
  result<std::vector<audit_record>> list_audit(const std::string& match_id) override;
  result<std::vector<stored_tournament>> load_tournaments() override;
  result<std::vector<stored_league>> load_leagues() override;
  int schema_version() const { return schema_version_; }

 private:
  sqlite_reader() = default;

  std::mutex mu_;
  std::unique_ptr<sql::db> db_;
  int schema_version_ = 0;
};

}  // namespace cod::server
