// Fuzz target: the config loader (server/common/config.hpp), which reads the
// config file, COD_* variables and flags. Input: a JSON document for
// apply_config_json, or (when it does not start with '{') lines "key=value"
// for set_config_key. Checks: neither throws or crashes; errors are
// sentences; a key that was set gives back, through its getter, a text that
// sets the same value again (the --help defaults and config/server.json rely
// on get/set agreeing).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "common/config.hpp"
#include "fuzz_common.hpp"

using cod::server::config;

namespace {

void check_round_trip(const config& c) {
  for (const auto& k : cod::server::config_keys()) {
    const std::string text = k.get(c);
    config again = c;
    const auto e = k.set(again, text);
    cod::fuzz::check(!e && k.get(again) == text, "a config key's value does not round-trip");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  config c;
  if (!text.empty() && text.front() == '{') {
    if (const auto e = cod::server::apply_config_json(text, c)) {
      cod::fuzz::check(!e->empty(), "an empty config error");
      return 0;
    }
  } else {
    std::size_t start = 0;
    while (start < text.size()) {
      std::size_t end = text.find('\n', start);
      if (end == std::string_view::npos) end = text.size();
      const std::string_view line = text.substr(start, end - start);
      start = end + 1;
      const std::size_t eq = line.find('=');
      if (eq == std::string_view::npos) continue;
      if (const auto e = cod::server::set_config_key(c, line.substr(0, eq), line.substr(eq + 1)))
        cod::fuzz::check(!e->empty(), "an empty config error");
    }
  }
  check_round_trip(c);
  return 0;
}
