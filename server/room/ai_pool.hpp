// The house bots' thinking (docs/ai-server.md): a few worker threads of
// their own run the bots' decisions (cod::search::decide), so that a search
// never holds an I/O thread or a room's strand, and people's actions are
// answered while bots think.
//
// A room, on its strand, copies what the decision needs (the bot seat's view,
// the deck lists) into a job and submits it; the job runs here and posts its
// action back to the room's strand (room_bots.cpp). A job holds no room: only
// a weak_ptr, and a shared flag saying whether the room still wants it.
//
// The cap: at most max_pending jobs are admitted (queued for a worker or
// running) at once; a job submitted beyond it waits, in arrival order, for a
// place. Each room has at most one decision on the way, so the waiting line
// is bounded by the rooms; what the cap bounds is the work promised to the
// workers, and it is the mark of a saturated pool: every admission refused is
// counted (metrics::ai_saturated_total), and logged at most every 10 s with
// what an admin can do about it.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace cod::server {

class metrics;

class ai_pool {
 public:
  using job = std::function<void()>;
  enum class mode : std::uint8_t {
    threads,     // `threads` workers run the jobs (the server)
    held,        // no worker: admitted jobs wait for run_held() (tests: a pool with no free thread)
    run_inline,  // submit() runs the job at once on the caller's thread (tests on a manual executor)
  };
  struct options {
    mode kind = mode::threads;
    int threads = 1;
    std::size_t max_pending = 64;
    int think_ms = 0;  // the configured bot_think_ms, for the saturation notice only
  };

  ai_pool(options o, metrics* stats);
  ~ai_pool();
  ai_pool(const ai_pool&) = delete;
  ai_pool& operator=(const ai_pool&) = delete;

  // Any thread. Admits `j` when fewer than max_pending jobs are admitted,
  // else puts it in the waiting line (admitted in order as places free).
  // false once stopped: `j` is dropped unrun.
  bool submit(job j);
  // Stops: queued and waiting jobs are dropped unrun, running ones finish,
  // the workers are joined. Idempotent; the destructor calls it.
  void stop();
  // mode::held: runs up to `n` admitted jobs, oldest first, on the caller's
  // thread (each run admits a waiting one). Returns how many ran.
  int run_held(int n = 1 << 30);

  std::size_t pending() const;  // admitted: queued or running
  std::size_t waiting() const;  // beyond the cap
  int threads() const { return static_cast<int>(threads_.size()); }
  std::size_t max_pending() const { return o_.max_pending; }

  // max(1, cores / 2): the rooms keep the other half.
  static int default_threads();

 private:
  void work();
  // One job, outside the lock; then its place goes to the next waiting one.
  void run_one(job& j);
  void finished_one();
  void publish_locked();

  options o_;
  metrics* stats_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<job> queue_;    // admitted, not yet running
  std::deque<job> waiting_;  // beyond max_pending
  std::size_t running_ = 0;
  bool stopped_ = false;
  std::vector<std::thread> threads_;
  // The saturation notice: the last one, and the admissions refused since.
  std::chrono::steady_clock::time_point last_notice_{};
  std::uint64_t refused_since_notice_ = 0;
};

}  // namespace cod::server
