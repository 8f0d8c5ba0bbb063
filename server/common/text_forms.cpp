#include "common/text_forms.hpp"

#include <charconv>

namespace cod::server {

std::string digest_hex(std::uint64_t d) {
  static constexpr char digits[] = "0123456789abcdef";
  std::string out(16, '0');
  for (int i = 15; i >= 0; --i, d >>= 4) out[static_cast<std::size_t>(i)] = digits[d & 15];
  return out;
}

std::optional<std::uint64_t> parse_digest_hex(std::string_view s) {
  if (s.size() != 16) return std::nullopt;
  std::uint64_t v = 0;
  for (char c : s) {
    int x;
    if (c >= '0' && c <= '9') x = c - '0';
    else if (c >= 'a' && c <= 'f') x = c - 'a' + 10;
    else return std::nullopt;
    v = v << 4 | static_cast<std::uint64_t>(x);
  }
  return v;
}

std::optional<std::uint64_t> parse_decimal_u64(std::string_view s) {
  std::uint64_t v = 0;
  if (s.empty() || (s.size() > 1 && s[0] == '0')) return std::nullopt;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size()) return std::nullopt;
  return v;
}

std::string seats_json(const std::vector<int>& seats) {
  std::string s = "[";
  for (std::size_t i = 0; i < seats.size(); ++i) {
    if (i) s += ',';
    s += std::to_string(seats[i]);
  }
  s += ']';
  return s;
}

std::string ascii_lower(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return out;
}

}  // namespace cod::server
