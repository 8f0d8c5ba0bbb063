// The text forms of numbers the store keeps and admins read: state digests
// as 16 hex digits, seeds as decimal text (a uint64 does not fit SQLite's
// signed integer), winners as a JSON array of seats.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cod::server {

std::string digest_hex(std::uint64_t d);  // 16 lowercase hex digits
std::optional<std::uint64_t> parse_digest_hex(std::string_view s);
// Canonical decimal only: no sign, no leading zero, no trailing text.
std::optional<std::uint64_t> parse_decimal_u64(std::string_view s);

// A-Z to a-z, every other byte as it is: names compared ignoring ASCII case
// (players, accounts), as SQLite's NOCASE compares them.
std::string ascii_lower(std::string_view s);

// Winners as stored and shown: "[0,2]".
std::string seats_json(const std::vector<int>& seats);

}  // namespace cod::server
