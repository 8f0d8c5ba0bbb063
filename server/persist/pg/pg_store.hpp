// The match_store on PostgreSQL (docs/persistence.md, "PostgreSQL"): the
// same contract as sqlite_store, for a server, or several, whose store is a
// PostgreSQL database.
//
//   auto opened = cod::server::pg_store::open({.uri = "postgresql://cod@db.internal/cod"});
//   if (!opened) { spdlog::critical("{}", opened.error().message()); return 1; }
//
// One writer thread owns the only writing connection (pg_writer.hpp): it
// drains its queue and sends up to max_batch writes in one transaction, in
// one round trip (group commit), then runs their callbacks in queue order:
// a callback given an ok status means the COMMIT returned, so the write is
// durable (synchronous_commit on: in the server's fsynced WAL; it survives
// a PostgreSQL crash). Reads use a connection of their own (pg_reader.hpp).
// A connection lost in the middle of a batch fails that batch (io_error,
// logged); the writer connects again for the next one.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

#include "persist/account_store.hpp"
#include "persist/match_store.hpp"
#include "persist/queue_board.hpp"
#include "persist/pg/pg_reader.hpp"
#include "persist/room_directory.hpp"

namespace cod::server {

namespace detail {
class write_queue;
class pg_directory;
class pg_writer;
}  // namespace detail

// The URI with its password hidden, for log lines.
std::string redact_uri(std::string_view uri);

struct pg_options {
  std::string uri{};             // postgresql://user:password@host:port/dbname?... (libpq's URI or key=value)
  std::size_t max_batch = 1024;  // most writes per transaction
  // A cluster node's id (docs/cluster.md): its writes are fenced by the
  // room leases (pg_fence.hpp): a write for a room whose lease does not name
  // this node is refused (conflict). "": one node, no fencing (and no extra
  // round trip per batch).
  std::string node_id{};
};

class pg_store final : public match_store {
 public:
  // Connects, applies the migrations (migrations/postgres/), checks it can
  // write, opens the reader. io_error with a sentence (the password never
  // shown) when the server cannot be reached, the database is not ours or
  // newer than ours, or it cannot be written.
  static result<std::unique_ptr<pg_store>> open(const pg_options& o);
  // Commits everything queued, then closes.
  ~pg_store() override;

  void create_match(const match_record& m, done_fn done) override;
  void append_action(const std::string& match_id, const action_record& a, done_fn done) override;
  void finish_match(const std::string& match_id, const match_result& r, done_fn done) override;
  void append_note(const std::string& match_id, std::int64_t at_ms, const std::string& text) override;
  void append_draft(const std::string& match_id, const std::vector<draft_event_record>& rows,
                    done_fn done) override;
  void save_tournament(const stored_tournament& t, done_fn done) override;
  void record_audit(const audit_record& r, done_fn done) override;

  void save_league(const stored_league& l, done_fn done) override;
  // Reads on a connection of their own; committed data only.
  match_reader& reader() override { return *reader_; }
  void flush() override;
  std::size_t pending() const override;
  std::uint64_t commits() const override;
  store_health health() const override;
  // Leases and the lobby (room_directory.hpp), on a connection of their own (pg_directory.hpp).
  room_directory* directory() override;
  // Accounts and sessions (account_store.hpp), on a connection of their own (pg_accounts.hpp).
  account_store* accounts() override;
  // A cluster's queue (queue_board.hpp), on a connection of its own (pg_queue.hpp).
  queue_board* queue() override;
  // The schema version the database had when opened (0: new).
  int schema_version_at_open() const { return version_at_open_; }

 private:
  pg_store() = default;

  std::unique_ptr<detail::pg_writer> writer_;
  std::unique_ptr<pg_reader> reader_;
  std::unique_ptr<detail::pg_directory> directory_;
  std::unique_ptr<account_store> accounts_;
  std::unique_ptr<queue_board> board_;
  std::unique_ptr<detail::write_queue> queue_;  // destroyed first (the destructor resets it)
  int version_at_open_ = 0;
};

}  // namespace cod::server
