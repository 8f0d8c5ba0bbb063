#include "net/strand_executor.hpp"

#include <mutex>
#include <unordered_map>

#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>

namespace cod::server {
namespace {

namespace net = boost::asio;

class strand_executor final : public serial_executor,
                              public std::enable_shared_from_this<strand_executor> {
 public:
  explicit strand_executor(net::io_context& ioc) : strand_(net::make_strand(ioc)) {}

  void post(task t) override { net::post(strand_, std::move(t)); }

  timer_id schedule(std::chrono::milliseconds delay, task t) override {
    auto timer = std::make_shared<net::steady_timer>(strand_, delay);
    timer_id id;
    {
      std::lock_guard lock(mutex_);
      id = ++next_id_;
      timers_.emplace(id, timer);
    }
    std::weak_ptr<strand_executor> weak = weak_from_this();
    timer->async_wait([weak, id, t = std::move(t)](const boost::system::error_code& ec) {
      auto self = weak.lock();
      if (!self) return;
      {
        std::lock_guard lock(self->mutex_);
        if (self->timers_.erase(id) == 0) return;  // cancelled
      }
      if (!ec) t();
    });
    return id;
  }

  void cancel(timer_id id) override {
    std::shared_ptr<net::steady_timer> timer;
    {
      std::lock_guard lock(mutex_);
      auto it = timers_.find(id);
      if (it == timers_.end()) return;
      timer = std::move(it->second);
      timers_.erase(it);
    }
    timer->cancel();
  }

  std::int64_t now_ms() const override {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
  }

  ~strand_executor() override {
    for (auto& [id, timer] : timers_) timer->cancel();
  }

 private:
  net::strand<net::io_context::executor_type> strand_;
  std::mutex mutex_;
  timer_id next_id_ = 0;
  std::unordered_map<timer_id, std::shared_ptr<net::steady_timer>> timers_;
};

}  // namespace

std::shared_ptr<serial_executor> make_strand_executor(boost::asio::io_context& ioc) {
  return std::make_shared<strand_executor>(ioc);
}

}  // namespace cod::server
