#include "arena/player_spec.hpp"

#include <charconv>

namespace cod::arena {

namespace {

bool to_int(std::string_view s, int& out) {
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc{} && end == s.data() + s.size();
}

bool to_double(std::string_view s, double& out) {
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc{} && end == s.data() + s.size();
}

}  // namespace

std::optional<player_spec> parse_player(std::string_view text) {
  player_spec p;
  p.name = std::string(text);
  const auto colon = text.find(':');
  const std::string_view kind = text.substr(0, colon);
  std::string_view rest = colon == std::string_view::npos ? std::string_view{} : text.substr(colon + 1);
  if (kind == "random") p.settings.kind = search::policy::random;
  else if (kind == "greedy") p.settings.kind = search::policy::greedy;
  else if (kind == "search") p.settings = search::level_settings(search::default_level);
  else if (kind == "all_seeing") {
    p.settings = search::level_settings(search::default_level);
    p.settings.kind = search::policy::all_seeing;
    p.all_seeing = true;
  } else {
    return std::nullopt;
  }
  const bool searches = p.settings.kind == search::policy::search || p.all_seeing;
  while (!rest.empty()) {
    const auto next = rest.find(':');
    const std::string_view part = rest.substr(0, next);
    rest = next == std::string_view::npos ? std::string_view{} : rest.substr(next + 1);
    int n = 0;
    double x = 0;
    if (searches && to_int(part, n) && n >= search::min_level && n <= search::max_level) {
      // A level sets the budget and the noise; the kind stays.
      const search::policy k = p.settings.kind;
      p.settings = search::level_settings(n);
      p.settings.kind = k;
    } else if (searches && part.starts_with("iters=") && to_int(part.substr(6), n) && n > 0) {
      p.settings.iterations = n;
    } else if (part.starts_with("noise=") && to_double(part.substr(6), x) && x >= 0 && x <= 1) {
      p.settings.noise_permille = static_cast<int>(x * 1000 + 0.5);
    } else {
      return std::nullopt;
    }
  }
  return p;
}

}  // namespace cod::arena
