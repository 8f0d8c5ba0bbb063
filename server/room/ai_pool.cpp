#include "room/ai_pool.hpp"

#include <algorithm>
#include <exception>
#include <utility>

#include <spdlog/spdlog.h>

#include "common/metrics.hpp"

namespace cod::server {

namespace {
// A saturated pool stays so for a while: one notice per this long is enough
// to act on, and does not flood the log at 200 bots.
constexpr auto notice_every = std::chrono::seconds(10);
}  // namespace

int ai_pool::default_threads() {
  const int cores = static_cast<int>(std::thread::hardware_concurrency());
  return std::max(1, cores / 2);
}

ai_pool::ai_pool(options o, metrics* stats) : o_(o), stats_(stats) {
  o_.max_pending = std::max<std::size_t>(1, o_.max_pending);
  if (o_.kind != mode::threads) return;
  const int n = std::max(1, o_.threads);
  threads_.reserve(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) threads_.emplace_back([this] { work(); });
}

ai_pool::~ai_pool() { stop(); }

bool ai_pool::submit(job j) {
  if (o_.kind == mode::run_inline) {
    {
      std::lock_guard lock(mutex_);
      if (stopped_) return false;
      ++running_;
      publish_locked();
    }
    run_one(j);
    finished_one();
    return true;
  }
  bool notice = false;
  std::size_t admitted = 0, waiting = 0;
  std::uint64_t refused = 0;
  {
    std::lock_guard lock(mutex_);
    if (stopped_) return false;
    if (queue_.size() + running_ < o_.max_pending) {
      queue_.push_back(std::move(j));
    } else {
      waiting_.push_back(std::move(j));
      ++refused_since_notice_;
      if (stats_) stats_->ai_saturated_total++;
      const auto now = std::chrono::steady_clock::now();
      if (last_notice_ == std::chrono::steady_clock::time_point{} || now - last_notice_ >= notice_every) {
        notice = true;
        last_notice_ = now;
        refused = std::exchange(refused_since_notice_, 0);
      }
    }
    admitted = queue_.size() + running_;
    waiting = waiting_.size();
    publish_locked();
  }
  wake_.notify_one();
  if (notice) {
    spdlog::warn(
        "AI pool saturated: {} house bot decisions queued or running (ai_max_pending {}), {} waiting; {} waited since "
        "the last notice. Bots play slower (people are not slowed). Give the pool more threads (ai_threads, now {}) "
        "if cores are free, or lower bot_think_ms (now {}) or the bots' levels",
        admitted, o_.max_pending, waiting, refused, threads(), o_.think_ms);
  }
  return true;
}

void ai_pool::stop() {
  {
    std::lock_guard lock(mutex_);
    if (stopped_ && threads_.empty()) return;
    stopped_ = true;
    // Dropped unrun: each holds only a weak_ptr to its room.
    queue_.clear();
    waiting_.clear();
    publish_locked();
  }
  wake_.notify_all();
  for (auto& t : threads_)
    if (t.joinable()) t.join();
  threads_.clear();
}

int ai_pool::run_held(int n) {
  int ran = 0;
  while (ran < n) {
    job j;
    {
      std::lock_guard lock(mutex_);
      if (stopped_ || queue_.empty()) break;
      j = std::move(queue_.front());
      queue_.pop_front();
      ++running_;
    }
    run_one(j);
    finished_one();
    ++ran;
  }
  return ran;
}

std::size_t ai_pool::pending() const {
  std::lock_guard lock(mutex_);
  return queue_.size() + running_;
}

std::size_t ai_pool::waiting() const {
  std::lock_guard lock(mutex_);
  return waiting_.size();
}

void ai_pool::work() {
  for (;;) {
    job j;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [this] { return stopped_ || !queue_.empty(); });
      if (stopped_) return;
      j = std::move(queue_.front());
      queue_.pop_front();
      ++running_;
    }
    run_one(j);
    finished_one();
  }
}

void ai_pool::run_one(job& j) {
  try {
    j();
  } catch (const std::exception& e) {
    // The room's pace timer still fires: its bot then plays a random legal action.
    spdlog::error("AI pool: a house bot decision failed: {}", e.what());
  }
  j = nullptr;  // what it captured goes here, off the lock
}

void ai_pool::finished_one() {
  bool admitted = false;
  {
    std::lock_guard lock(mutex_);
    --running_;
    if (!stopped_ && !waiting_.empty() && queue_.size() + running_ < o_.max_pending) {
      queue_.push_back(std::move(waiting_.front()));
      waiting_.pop_front();
      admitted = true;
    }
    publish_locked();
  }
  if (admitted) wake_.notify_one();
}

void ai_pool::publish_locked() {
  if (!stats_) return;
  stats_->ai_pending = static_cast<std::int64_t>(queue_.size() + running_);
  stats_->ai_waiting = static_cast<std::int64_t>(waiting_.size());
}

}  // namespace cod::server
