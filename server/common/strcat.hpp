// cat(): builds a message piece by piece (text, chars, integers), for every
// folder of server/ and its tools. g++ 12 reports a false -Wrestrict on
// "literal" + std::to_string(x); appending avoids that pattern.
#pragma once

#include <concepts>
#include <string>
#include <string_view>

namespace cod::server::detail {

inline void append_part(std::string& s, std::string_view v) { s.append(v); }
inline void append_part(std::string& s, char c) { s.push_back(c); }
template <std::integral T>
  requires(!std::same_as<T, char> && !std::same_as<T, bool>)
void append_part(std::string& s, T v) {
  s.append(std::to_string(v));
}

template <class... T>
std::string cat(const T&... parts) {
  std::string s;
  (append_part(s, parts), ...);
  return s;
}

}  // namespace cod::server::detail
