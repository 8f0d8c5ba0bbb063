// The account requests' own threads (docs/accounts.md, "Load"): a password
// hash takes 19 MiB and tens of milliseconds of a core, so they run here,
// never on an I/O thread or a room's strand. `threads` bounds the hashes in
// flight (memory: threads x 19 MiB; CPU: threads cores at most); `queue`
// bounds the requests waiting, so a login storm is refused (503 busy,
// Retry-After) rather than queued without end. With `idle_priority` the
// threads run under Linux's SCHED_IDLE policy: a room's thread that wakes
// takes the core from a hash at once, so hashes use only what the rooms
// leave (a lower niceness alone still let them delay the rooms' wake-ups).
// With `cpus` they run only on those CPUs (sched_setaffinity): a hash
// streams 19 MiB through the caches of the core it runs on, and a room's
// thread woken there finds them cold.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace cod::server::accounts {

class account_workers {
 public:
  account_workers(std::size_t threads, std::size_t queue, bool idle_priority = false, std::vector<int> cpus = {});
  ~account_workers();  // runs what was accepted, then joins
  account_workers(const account_workers&) = delete;
  account_workers& operator=(const account_workers&) = delete;

  // Queues `job`; false (and `job` dropped) when `queue` jobs are waiting already.
  bool try_post(std::function<void()> job);
  // Waits for every accepted job to finish; no job is accepted after it.
  void stop();

  std::uint64_t refused() const;
  std::size_t waiting() const;

 private:
  void run(bool idle_priority, const std::vector<int>& cpus);

  const std::size_t capacity_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::function<void()>> jobs_;
  bool stopping_ = false;
  std::uint64_t refused_ = 0;
  std::vector<std::thread> threads_;
};

}  // namespace cod::server::accounts
