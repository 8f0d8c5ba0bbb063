// Internal: message building (cat, shared with the server: common/strcat.hpp)
// and ASCII case folding.
#pragma once

#include <string>
#include <string_view>

#include "common/strcat.hpp"
#include "common/text_forms.hpp"

namespace cod::tournaments {

// One message builder for the server and this library (no second copy to drift).
using server::detail::cat;

using server::ascii_lower;  // common/text_forms.hpp

}  // namespace cod::tournaments
