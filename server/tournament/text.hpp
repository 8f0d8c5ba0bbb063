// Internal: message building (cat, shared with the server: common/strcat.hpp)
// and ASCII case folding.
#pragma once

#include <string>
#include <string_view>

#include "common/strcat.hpp"

namespace cod::tournaments {

// One message builder for the server and this library (no second copy to drift).
using server::detail::cat;

inline std::string ascii_lower(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return out;
}

}  // namespace cod::tournaments
