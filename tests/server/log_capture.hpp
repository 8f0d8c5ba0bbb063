// Captures what the server logs (spdlog's default logger) for a test's
// lifetime: the lines as "<level> <text>".
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <spdlog/sinks/ringbuffer_sink.h>
#include <spdlog/spdlog.h>

namespace cod::server::test {

class log_capture {
 public:
  log_capture()
      : sink_(std::make_shared<spdlog::sinks::ringbuffer_sink_mt>(256)),
        old_(spdlog::default_logger()) {
    auto l = std::make_shared<spdlog::logger>("capture", sink_);
    l->set_level(spdlog::level::trace);
    l->set_pattern("%l %v");
    spdlog::set_default_logger(l);
  }
  ~log_capture() { spdlog::set_default_logger(old_); }
  // Each line without its end-of-line.
  std::vector<std::string> lines() {
    auto out = sink_->last_formatted();
    for (auto& l : out)
      while (!l.empty() && (l.back() == '\n' || l.back() == '\r')) l.pop_back();
    return out;
  }

 private:
  std::shared_ptr<spdlog::sinks::ringbuffer_sink_mt> sink_;
  std::shared_ptr<spdlog::logger> old_;
};

}  // namespace cod::server::test
