// What a room runs on: a serial executor (tasks never run concurrently, in
// the order posted) with timers. In the server it is an Asio strand
// (net/strand_executor.hpp); tests drive a manual one, so room logic is
// checked without sockets, threads or real time.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>

namespace cod::server {

class serial_executor {
 public:
  using task = std::function<void()>;
  using timer_id = std::uint64_t;
  virtual ~serial_executor() = default;

  // Thread-safe: runs `t` later on this executor.
  virtual void post(task t) = 0;
  // Runs `t` on this executor after `delay` unless cancelled first. Call both
  // only from tasks running on this executor.
  virtual timer_id schedule(std::chrono::milliseconds delay, task t) = 0;
  virtual void cancel(timer_id id) = 0;
  // A monotonic clock in milliseconds (turn clocks).
  virtual std::int64_t now_ms() const = 0;
};

using executor_factory = std::function<std::shared_ptr<serial_executor>()>;

}  // namespace cod::server
