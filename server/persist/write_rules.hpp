// The write rules of match_store.hpp, in one place: every backend asks
// check_write before it stores a write, so memory, SQLite and PostgreSQL
// refuse the same writes with the same status and message, by construction.
// The storage's own constraints stay as a second line, not as the rule.
//
// A backend keeps a view of the matches a write names (match_states: what it
// has stored, as the batch so far leaves it), gives it to check_write, stores
// the write when it is ok and then tells the view (applied). No I/O here.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <variant>

#include "common/status.hpp"
#include "persist/write_queue.hpp"

namespace cod::server::detail {

// What a backend knows of a stored match.
struct match_state {
  enum class kind { absent, playing, finished } k = kind::absent;
  std::int64_t last_seq = 0;    // of its actions; 0: none
  std::int64_t last_draft = 0;  // of its draft log; 0: none
  std::string room_id{};        // PostgreSQL's fence (pg/pg_fence.hpp)
  bool rated = false;           // its finish writes rating changes (rating_update.hpp)
};
using match_states = std::unordered_map<std::string, match_state>;

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

// Whether a write fits what is stored. `view` must hold every match the
// write names (each_match); one it lacks counts as absent.
//   create_match     invalid: a seat outside 0..3 or named twice; conflict: the match exists
//   append_action    not_found: unknown match; conflict: finished, or seq is not last + 1;
//                    invalid: a seat outside 0..3
//   finish_match     not_found: unknown match; conflict: finished already
//   append_draft     as append_action, each row in turn; invalid: a kind not reveal/pick
//   append_note      not_found: unknown match
//   save_tournament  conflict: a game names a match not stored
//   audit, league    always ok
status check_write(const write_op& op, match_states& view);
// What a stored write changes in the view.
void applied(const write_op& op, match_states& view);

}  // namespace cod::server::detail
