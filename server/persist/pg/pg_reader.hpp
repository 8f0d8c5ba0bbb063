// Reads of a PostgreSQL store on a connection of their own: the PostgreSQL
// store's reads (pg_store.hpp), and cod-admin's on a database a server is
// writing. Thread-safe (one connection behind a mutex); a lost connection
// fails that read (persist_error) and is opened again for the next one.
// Each read that takes several queries runs in one REPEATABLE READ
// transaction: a consistent snapshot, like SQLite's read transactions.
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

namespace pg {
class conn;
}

class pg_reader final : public match_reader {
 public:
  // io_error, with a sentence, when the server cannot be reached or the
  // schema is not exactly this program's (older, newer, not ours).
  static result<std::unique_ptr<pg_reader>> open(const std::string& uri);
  ~pg_reader() override;

  result<std::vector<stored_match>> load_unfinished() override;
  result<std::vector<stored_match>> load_finished_since(std::int64_t ended_from_ms) override;
  result<std::optional<stored_match>> load_match(const std::string& match_id) override;
  result<std::vector<match_summary>> list_matches(const match_query& q) override;
  result<std::vector<audit_record>> list_audit(const std::string& match_id) override;
  result<std::vector<stored_tournament>> load_tournaments() override;
  result<std::vector<stored_league>> load_leagues() override;
  int schema_version() const { return schema_version_; }

 private:
  pg_reader() = default;
  // The connection, opened again when the last one was lost. Under mu_.
  pg::conn& connection();
  // Runs f(conn) in a read-only snapshot transaction. Under mu_.
  template <class F>
  auto in_snapshot(F&& f);

  std::mutex mu_;
  std::string uri_;
  std::unique_ptr<pg::conn> conn_;
  int schema_version_ = 0;
};

}  // namespace cod::server
