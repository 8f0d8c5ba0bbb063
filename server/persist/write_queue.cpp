#include "persist/write_queue.hpp"

#include <spdlog/spdlog.h>

#include <chrono>
#include <exception>

#include "common/strcat.hpp"

namespace cod::server::detail {

std::string describe(const write_op& op) {
  struct visitor {
    std::string operator()(const create_op& o) const { return cat("create_match(", o.m.match_id, ")"); }
    std::string operator()(const append_op& o) const {
      return cat("append_action(", o.match_id, ", seq ", o.a.seq, ")");
    }
    std::string operator()(const finish_op& o) const { return cat("finish_match(", o.match_id, ")"); }
    std::string operator()(const note_op& o) const { return cat("append_note(", o.match_id, ")"); }
    std::string operator()(const tournament_op& o) const { return cat("save_tournament(", o.t.id, ")"); }
    std::string operator()(const audit_op& o) const { return cat("record_audit(", o.r.match_id, ")"); }
    std::string operator()(const league_save_op& o) const { return cat("save_league(", o.l.id, ")"); }
    std::string operator()(const draft_op& o) const {
      return cat("append_draft(", o.match_id, ", seq ", o.rows.empty() ? 0 : o.rows.front().seq, ", ", o.rows.size(),
                 " rows)");
    }
  };
  return std::visit(visitor{}, op.what);
}

void health_tracker::failed(std::size_t writes, std::string why) {
  const auto now = std::chrono::duration_cast<std::chrono::milliseconds>(
                       std::chrono::system_clock::now().time_since_epoch())
                       .count();
  std::lock_guard lk(mu_);
  h_.ok = false;
  h_.write_errors += writes;
  h_.last_error = std::move(why);
  h_.last_error_ms = now;
}

void health_tracker::committed() {
  std::lock_guard lk(mu_);
  h_.ok = true;
}

store_health health_tracker::get() const {
  std::lock_guard lk(mu_);
  return h_;
}

void run_callback(const match_store::done_fn& done, const status& s, const write_op& op) {
  if (!done) return;
  try {
    done(s);
  } catch (const std::exception& e) {
    spdlog::error("persist: the callback of {} threw: {}", describe(op), e.what());
  } catch (...) {
    spdlog::error("persist: the callback of {} threw", describe(op));
  }
}

write_queue::write_queue(std::string name, std::size_t max_batch, commit_fn commit)
    : name_(std::move(name)), max_batch_(max_batch ? max_batch : 1), commit_(std::move(commit)) {
  thread_ = std::thread([this] { run(); });
}

write_queue::~write_queue() {
  {
    std::lock_guard lk(mu_);
    stop_ = true;
  }
  work_cv_.notify_all();
  thread_.join();
}

void write_queue::push(write_op op) {
  {
    std::lock_guard lk(mu_);
    queue_.push_back(std::move(op));
    ++pushed_;
  }
  work_cv_.notify_one();
}

void write_queue::flush() {
  if (std::this_thread::get_id() == thread_.get_id()) {
    spdlog::warn("persist: {}: flush() called from a store callback; not waiting", name_);
    return;
  }
  std::unique_lock lk(mu_);
  const std::uint64_t target = pushed_;
  done_cv_.wait(lk, [&] { return completed_ >= target; });
}

std::size_t write_queue::pending() const {
  std::lock_guard lk(mu_);
  return static_cast<std::size_t>(pushed_ - completed_);
}

std::uint64_t write_queue::batches() const {
  std::lock_guard lk(mu_);
  return batches_;
}

void write_queue::run() {
  std::vector<write_op> batch;
  std::vector<status> out;
  for (;;) {
    {
      std::unique_lock lk(mu_);
      work_cv_.wait(lk, [&] { return stop_ || !queue_.empty(); });
      if (queue_.empty()) return;  // stop_ and drained
      const std::size_t n = std::min(queue_.size(), max_batch_);
      batch.clear();
      batch.reserve(n);
      for (std::size_t i = 0; i < n; ++i) {
        batch.push_back(std::move(queue_.front()));
        queue_.pop_front();
      }
    }
    out.assign(batch.size(), status::ok());
    commit_(batch, out);
    for (std::size_t i = 0; i < batch.size(); ++i) run_callback(batch[i].done, out[i], batch[i]);
    const std::size_t done = batch.size();
    // Drop the callbacks (and what they hold: rooms) before flush() can return,
    // so nothing of a caller outlives its flush() on this thread.
    batch.clear();
    {
      std::lock_guard lk(mu_);
      completed_ += done;
      ++batches_;
    }
    done_cv_.notify_all();
  }
}

}  // namespace cod::server::detail
