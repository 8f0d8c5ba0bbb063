// Internal to the PostgreSQL store: what each write sends, once
// check_write (persist/write_rules.hpp) found it fits (pg_writer.hpp). No I/O here:
// the statements go to a send_fn (a pipeline, or one at a time).
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <utility>
#include <variant>
#include <vector>

#include "persist/pg/pg_tournaments.hpp"
#include "persist/pg/pg_util.hpp"
#include "persist/write_queue.hpp"
#include "persist/write_rules.hpp"

namespace cod::server::detail {

// (name, SQL) of the writer's prepared statements (tournaments' included).
const std::vector<std::pair<std::string, std::string>>& write_statements();

// The statements of one write.
void send_write(const write_op& op, const pg::send_fn& send);
// A tournament or an audit row refused by the server for any reason is
// refused alone, as in the SQLite store: losing one must not cost the
// matches' writes of the same batch.
bool refused_on_any_error(const write_op& op);

// The actions of a pipelined batch, as the parameters of the one statement
// (insert_actions) that inserts them all: rows as arrays.
class action_columns {
 public:
  void add(const append_op& a);
  std::size_t rows() const { return rows_; }
  pg::params params() const;

 private:
  std::string match_id_ = "{", seq_ = "{", seat_ = "{", action_json_ = "{", digest_ = "{", at_ms_ = "{";
  std::size_t rows_ = 0;
};

}  // namespace cod::server::detail
