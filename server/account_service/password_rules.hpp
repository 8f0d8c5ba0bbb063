// What a new password must be (docs/accounts.md, "Passwords"): 8 to 128
// characters (code points of valid UTF-8), and not one of the 1,000 most
// common passwords (common_passwords.txt, compared ignoring ASCII case).
#pragma once

#include <cstddef>
#include <string_view>

#include "common/status.hpp"

namespace cod::server::accounts {

inline constexpr std::size_t min_password_chars = 8;
inline constexpr std::size_t max_password_chars = 128;

// ok, or invalid with reason "invalid_password" (not UTF-8, too short, too
// long) or "common_password", field "password" (or `field`).
status check_new_password(std::string_view password, const char* field = "password");

// The shipped list, ignoring ASCII case.
bool is_common_password(std::string_view password);
// How many passwords the list holds (1,000).
std::size_t common_password_count();

}  // namespace cod::server::accounts
