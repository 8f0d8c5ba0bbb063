// Internal to the PostgreSQL store: its writer, the one connection that
// writes. write_queue (write_queue.hpp) calls commit_batch on its thread
// with everything queued (group commit); the batch goes to the server in one
// round trip: BEGIN, every write's statements and COMMIT in one libpq
// pipeline. docs/persistence.md, "PostgreSQL".
//
// Refusals are decided before anything is sent (pg_writes.hpp), from what
// the writer knows of each match (exists, finished, last seq, last draft
// seq): read once per batch for the matches it has not seen (one query),
// then kept for the matches being played, which nobody else writes. A
// statement the server refuses all the same (a CHECK or unique constraint
// the writer does not check itself) rolls the pipeline back, and the batch
// is run again one write at a time, each in a savepoint, so that only that
// write is refused. Any other
// failure (the connection lost, the server down, the disk full) fails the
// whole batch with io_error and closes the connection; the next batch opens
// a new one.
//
// With a node_id (a cluster node) the writer is fenced (pg_fence.hpp): each
// batch first opens its transaction, locks the lease rows of the rooms it
// writes and reads the state of every match it names afresh (one more round
// trip: another node may have written a match since this one last held its
// room, so nothing is cached), then refuses the writes of rooms this node
// does not hold and sends the rest with COMMIT in one pipeline.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "persist/pg/pg_fence.hpp"
#include "persist/pg/pg_writes.hpp"
#include "persist/write_queue.hpp"

namespace cod::server::pg {
class conn;
class params;
}  // namespace cod::server::pg

namespace cod::server::detail {

class pg_writer {
 public:
  // Connects, migrates (pg_migrations.hpp) and checks it can write. Throws
  // persist_error. schema_before: the version the database had.
  // node_id: "" for one node (no fencing, states cached), else this node's.
  pg_writer(std::string uri, std::string node_id);
  ~pg_writer();
  pg_writer(const pg_writer&) = delete;
  pg_writer& operator=(const pg_writer&) = delete;

  int schema_before() const { return schema_before_; }
  void commit_batch(std::vector<write_op>& batch, std::vector<status>& out);
  health_tracker health;

 private:
  void connect();
  match_states states_for(const std::vector<write_op>& batch);
  // Fenced: BEGIN, the lease locks (into fence_.held), every match's state read.
  match_states fenced_start(const std::vector<write_op>& batch);
  void read_states(const std::vector<std::string>& ids, match_states& view);
  // Whether a write fits: the fence, then what is stored.
  status check(const write_op& op, match_states& view);
  // The batch in one pipeline; false (nothing stored) when the server
  // refused a statement: run it again with one_by_one.
  bool pipelined(std::vector<write_op>& batch, match_states& view, std::vector<status>& out);
  void one_by_one(std::vector<write_op>& batch, match_states& view, std::vector<status>& out);

  std::string uri_;
  std::unique_ptr<pg::conn> conn_;
  match_states known_;  // matches being played (not fenced only)
  fence fence_;
  int schema_before_ = 0;
};

}  // namespace cod::server::detail
