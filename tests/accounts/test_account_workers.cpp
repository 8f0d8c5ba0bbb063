// The account workers (account_workers.hpp): a bounded queue, every accepted
// job run, the rest refused at once.
#include <doctest/doctest.h>

#include <sched.h>

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "account_service/account_workers.hpp"

using namespace cod::server::accounts;

TEST_CASE("account workers: beyond the queue a job is refused at once; every accepted one runs") {
  std::atomic<int> ran{0};
  std::mutex mu;
  std::condition_variable cv;
  bool release = false;
  {
    account_workers w(1, 2);
    // The one thread holds the first job until released.
    REQUIRE(w.try_post([&] {
      std::unique_lock lock(mu);
      cv.wait(lock, [&] { return release; });
      ++ran;
    }));
    // Wait until the thread has taken it, so the queue is empty.
    while (w.waiting() != 0) std::this_thread::yield();
    CHECK(w.try_post([&] { ++ran; }));
    CHECK(w.try_post([&] { ++ran; }));
    CHECK_FALSE(w.try_post([&] { ++ran; }));
    CHECK(w.refused() == 1);
    {
      std::lock_guard lock(mu);
      release = true;
    }
    cv.notify_all();
    w.stop();
    CHECK_FALSE(w.try_post([&] { ++ran; }));
  }
  CHECK(ran == 3);
}

TEST_CASE("account workers: with cpus, the threads run only there") {
  // The first CPU this test may use (CPU 0 unless a cpuset says otherwise).
  cpu_set_t mine;
  CPU_ZERO(&mine);
  REQUIRE(sched_getaffinity(0, sizeof mine, &mine) == 0);
  int first = 0;
  while (!CPU_ISSET(first, &mine)) ++first;
  std::atomic<int> cpus_allowed{-1};
  std::atomic<bool> on_first{false};
  {
    account_workers w(1, 1, false, {first});
    REQUIRE(w.try_post([&] {
      cpu_set_t set;
      CPU_ZERO(&set);
      if (sched_getaffinity(0, sizeof set, &set) == 0) {
        cpus_allowed = CPU_COUNT(&set);
        on_first = CPU_ISSET(first, &set);
      }
    }));
  }
  CHECK(cpus_allowed == 1);
  CHECK(on_first);
}
