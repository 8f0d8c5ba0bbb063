#include "account_service/account_workers.hpp"

#include <pthread.h>
#include <sched.h>

#include <algorithm>

#include <spdlog/spdlog.h>

namespace cod::server::accounts {

account_workers::account_workers(std::size_t threads, std::size_t queue, bool idle_priority, std::vector<int> cpus)
    : capacity_(std::max<std::size_t>(queue, 1)) {
  for (std::size_t i = 0; i < std::max<std::size_t>(threads, 1); ++i)
    threads_.emplace_back([this, idle_priority, cpus] { run(idle_priority, cpus); });
}

account_workers::~account_workers() { stop(); }

bool account_workers::try_post(std::function<void()> job) {
  {
    std::lock_guard lock(mu_);
    if (stopping_ || jobs_.size() >= capacity_) {
      ++refused_;
      return false;
    }
    jobs_.push_back(std::move(job));
  }
  cv_.notify_one();
  return true;
}

void account_workers::stop() {
  {
    std::lock_guard lock(mu_);
    if (stopping_ && threads_.empty()) return;
    stopping_ = true;
  }
  cv_.notify_all();
  for (auto& t : threads_)
    if (t.joinable()) t.join();
  threads_.clear();
}

void account_workers::run(bool idle_priority, const std::vector<int>& cpus) {
  if (!cpus.empty()) {
    cpu_set_t set;
    CPU_ZERO(&set);
    for (int c : cpus)
      if (c >= 0 && c < CPU_SETSIZE) CPU_SET(c, &set);
    // A CPU this machine lacks (or a cgroup forbids): the thread stays where it was.
    if (int err = ::pthread_setaffinity_np(::pthread_self(), sizeof set, &set); err != 0)
      spdlog::warn("accounts: a hashing thread could not be kept to account_cpus (error {}): it runs on any CPU", err);
  }
  // SCHED_IDLE needs no privilege; a failure leaves the thread as it was.
  if (idle_priority) {
    sched_param none{};
    (void)::pthread_setschedparam(::pthread_self(), SCHED_IDLE, &none);
  }
  for (;;) {
    std::function<void()> job;
    {
      std::unique_lock lock(mu_);
      cv_.wait(lock, [this] { return stopping_ || !jobs_.empty(); });
      if (jobs_.empty()) return;  // stopping, and nothing left
      job = std::move(jobs_.front());
      jobs_.pop_front();
    }
    job();
  }
}

std::uint64_t account_workers::refused() const {
  std::lock_guard lock(mu_);
  return refused_;
}

std::size_t account_workers::waiting() const {
  std::lock_guard lock(mu_);
  return jobs_.size();
}

}  // namespace cod::server::accounts
