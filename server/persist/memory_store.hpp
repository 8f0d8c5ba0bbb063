// A match_store in memory, for tests: the same validation and ordering as
// sqlite_store, nothing durable.
//
// Callbacks: by default on the store's own writer thread, exactly like
// sqlite_store (callbacks::own_thread). callbacks::run_inline applies each
// write and runs its callback inside the call, before it returns: handy for
// single-threaded unit tests, but a room must then not hold a lock its
// callback needs.
#pragma once

#include <map>
#include <memory>
#include <mutex>

#include "persist/match_store.hpp"

namespace cod::server {

namespace detail {
class write_queue;
class health_tracker;
struct write_op;
}  // namespace detail

class memory_store final : public match_store {
 public:
  enum class callbacks { own_thread, run_inline };
  explicit memory_store(callbacks mode = callbacks::own_thread);
  ~memory_store() override;  // commits what is queued first

  void create_match(const match_record& m, done_fn done) override;
  void append_action(const std::string& match_id, const action_record& a, done_fn done) override;
  void finish_match(const std::string& match_id, const match_result& r, done_fn done) override;
  void append_note(const std::string& match_id, std::int64_t at_ms, const std::string& text) override;
  // Queued in order like the rest; `fn` is not run (no SQL here).
  void run_sql(std::string what, std::function<void(sql::db&)> fn, done_fn done) override;
  void append_draft(const std::string& match_id, const std::vector<draft_event_record>& rows,
                    done_fn done) override;

  std::vector<stored_match> load_unfinished() override;
  std::vector<stored_match> load_finished_since(std::int64_t ended_from_ms) override;
  std::optional<stored_match> load_match(const std::string& match_id) override;
  std::vector<match_summary> list_matches(const match_query& q) override;
  void flush() override;
  std::size_t pending() const override;
  std::uint64_t commits() const override;
  // Failures are the injected ones below.
  store_health health() const override;

  // Fault injection: while set, every write fails (done(false), nothing
  // stored), as a full disk would. For testing how rooms react.
  void fail_writes(bool on);
  // Fault injection: the next `n` writes fail, later ones succeed (a
  // transient error, such as a lock held too long).
  void fail_next_writes(int n);

 private:
  void submit(detail::write_op op);
  bool apply(const detail::write_op& op);  // under mu_

  mutable std::mutex mu_;
  std::map<std::string, stored_match> matches_;
  bool fail_ = false;
  int fail_next_ = 0;
  std::unique_ptr<detail::write_queue> queue_;  // null when inline
  std::unique_ptr<detail::health_tracker> health_;
};

}  // namespace cod::server
