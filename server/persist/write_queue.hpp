// Internal: the writes a store accepts, and the one thread that commits them
// in batches (group commit). Both stores use it.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <variant>
#include <vector>

#include "persist/match_store.hpp"

namespace cod::server::detail {

struct create_op {
  match_record m;
};
struct append_op {
  std::string match_id;
  action_record a;
};
struct finish_op {
  std::string match_id;
  match_result r;
};
struct draft_op {
  std::string match_id;
  std::vector<draft_event_record> rows;
};
struct note_op {
  std::string match_id;
  note_record n;
};

struct tournament_op {
  stored_tournament t;
};
struct audit_op {
  audit_record r;
};
struct league_save_op {
  stored_league l;
};

struct write_op {
  std::variant<create_op, append_op, finish_op, note_op, draft_op, tournament_op, audit_op, league_save_op> what;
  match_store::done_fn done;  // may be empty (notes)
};

// "create_match(r7k2-1)", "append_action(r7k2-1, seq 12)"... for log lines.
std::string describe(const write_op& op);

// Commits a batch: sets out[i] to each op's outcome (sized like the batch, all
// ok on entry). Must not throw.
using commit_fn = std::function<void(std::vector<write_op>& batch, std::vector<status>& out)>;

class write_queue {
 public:
  // Starts the writer thread. max_batch: most ops per commit.
  write_queue(std::string name, std::size_t max_batch, commit_fn commit);
  // Commits everything queued, then stops the thread.
  ~write_queue();
  write_queue(const write_queue&) = delete;
  write_queue& operator=(const write_queue&) = delete;

  void push(write_op op);
  // Blocks until every op pushed before the call is committed and its
  // callback has run. On the writer thread itself (from a callback), returns at once.
  void flush();
  std::size_t pending() const;
  // Batches committed so far (each one transaction), for tests and metrics.
  std::uint64_t batches() const;

 private:
  void run();

  std::string name_;
  std::size_t max_batch_;
  commit_fn commit_;
  mutable std::mutex mu_;
  std::condition_variable work_cv_;
  std::condition_variable done_cv_;
  std::deque<write_op> queue_;
  std::uint64_t pushed_ = 0;
  std::uint64_t completed_ = 0;
  std::uint64_t batches_ = 0;
  bool stop_ = false;
  std::thread thread_;  // last: started once the rest is ready
};

// A store's store_health: the writer reports each batch's outcome.
class health_tracker {
 public:
  // A batch of `writes` that stored nothing because the storage failed.
  void failed(std::size_t writes, std::string why);
  // A batch committed (some of its writes may have been refused: no failure).
  void committed();
  store_health get() const;

 private:
  mutable std::mutex mu_;
  store_health h_;
};

// Runs a callback, logging what it throws (a callback must not kill the writer).
void run_callback(const match_store::done_fn& done, const status& s, const write_op& op);

}  // namespace cod::server::detail
