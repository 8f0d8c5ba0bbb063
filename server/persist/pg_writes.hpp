// Internal to the PostgreSQL store: what each write sends, and whether it
// fits what is stored, decided before sending (pg_writer.hpp). No I/O here:
// the statements go to a send_fn (a pipeline, or one at a time).
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <utility>
#include <variant>
#include <vector>

#include "persist/pg_tournaments.hpp"
#include "persist/pg_util.hpp"
#include "persist/write_queue.hpp"

namespace cod::server::detail {

// What the writer knows of a match.
struct match_state {
  enum class kind { absent, playing, finished } k = kind::absent;
  std::int64_t last_seq = 0;
  std::int64_t last_draft = 0;
  std::string room_id{};  // for the fence (pg_fence.hpp)
};
using match_states = std::unordered_map<std::string, match_state>;

// (name, SQL) of the writer's prepared statements (tournaments' included).
const std::vector<std::pair<std::string, std::string>>& write_statements();

// The matches a write reads or names: its own, a tournament's games'.
template <class F>
void each_match(const write_op& op, F&& f) {
  struct visitor {
    F& f;
    void operator()(const create_op& o) const { f(o.m.match_id); }
    void operator()(const append_op& o) const { f(o.match_id); }
    void operator()(const finish_op& o) const { f(o.match_id); }
    void operator()(const note_op& o) const { f(o.match_id); }
    void operator()(const draft_op& o) const { f(o.match_id); }
    void operator()(const tournament_op& o) const {
      for (const auto& r : o.t.t.rounds())
        for (const auto& p : r.pairings)
          for (const auto& g : p.games)
            if (!g.match_id.empty()) f(g.match_id);
    }
    void operator()(const audit_op&) const {}
    void operator()(const league_save_op&) const {}
  };
  std::visit(visitor{f}, op.what);
}

// Whether a write fits what is stored (`view`: every match it names, as the
// batch so far leaves it); memory_store's checks, with the same codes.
status check_write(const write_op& op, match_states& view);
// What a stored write changes in the view.
void applied(const write_op& op, match_states& view);
// The statements of one write.
void send_write(const write_op& op, const pg::send_fn& send);
// A tournament or an audit row refused by the server for any reason is
// refused alone, as in the SQLite store: losing one must not cost the
// matches' writes of the same batch.
bool refused_on_any_error(const write_op& op);

// A PostgreSQL array literal of texts: {"a","b\"c"}.
std::string text_array(const std::vector<std::string>& v);

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
