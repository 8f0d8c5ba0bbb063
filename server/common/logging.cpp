#include "common/logging.hpp"

#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

namespace cod::server {

void setup_logging(const std::string& level) {
  auto logger = spdlog::get("cod");
  if (!logger) logger = spdlog::stdout_color_mt("cod");
  spdlog::set_default_logger(logger);
  spdlog::set_pattern("[%Y-%m-%d %H:%M:%S.%e] [%^%l%$] %v");
  spdlog::set_level(spdlog::level::from_str(level));
  // Lines reach the log at once, even when stdout is a pipe.
  spdlog::flush_on(spdlog::level::trace);
}

}  // namespace cod::server
