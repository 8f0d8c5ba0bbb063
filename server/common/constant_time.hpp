// Comparing secrets (token hashes): the time taken does not depend on where
// the strings differ, so it tells an attacker nothing about a prefix.
#pragma once

#include <string_view>

namespace cod::server {

bool constant_time_equal(std::string_view a, std::string_view b);

}  // namespace cod::server
