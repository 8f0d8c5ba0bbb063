#include "account_service/password_rules.hpp"

#include <cstdint>
#include <string>
#include <unordered_set>

#include "common/strcat.hpp"
#include "common/text_forms.hpp"

namespace cod::server::accounts {

using detail::cat;

// common_passwords.txt, embedded at build time (CMakeLists.txt).
std::string_view common_passwords_text();

namespace {

const std::unordered_set<std::string>& common_set() {
  static const std::unordered_set<std::string> set = [] {
    std::unordered_set<std::string> s;
    std::string_view text = common_passwords_text();
    while (!text.empty()) {
      const auto end = text.find('\n');
      std::string_view line = text.substr(0, end);
      text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
      if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
      if (line.empty() || line.front() == '#') continue;
      s.insert(ascii_lower(line));
    }
    return s;
  }();
  return set;
}

// Code points of valid UTF-8 (no overlongs, surrogates or values past
// U+10FFFF); nullopt-like -1 when it is not UTF-8.
long utf8_chars(std::string_view s) {
  long n = 0;
  for (std::size_t i = 0; i < s.size(); ++n) {
    const auto c = static_cast<unsigned char>(s[i]);
    std::size_t len = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
    if (len == 0 || i + len > s.size()) return -1;
    std::uint32_t cp = len == 1 ? c : len == 2 ? (c & 0x1F) : len == 3 ? (c & 0x0F) : (c & 0x07);
    for (std::size_t k = 1; k < len; ++k) {
      const auto d = static_cast<unsigned char>(s[i + k]);
      if ((d >> 6) != 0x2) return -1;
      cp = (cp << 6) | (d & 0x3F);
    }
    if ((len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10FFFF)) ||
        (cp >= 0xD800 && cp <= 0xDFFF))
      return -1;
    i += len;
  }
  return n;
}

}  // namespace

bool is_common_password(std::string_view password) { return common_set().count(ascii_lower(password)) != 0; }

std::size_t common_password_count() { return common_set().size(); }

status check_new_password(std::string_view password, const char* field) {
  const long chars = utf8_chars(password);
  if (chars < 0) return status::invalid(cat("'", field, "' is not valid UTF-8")).because("invalid_password", field);
  if (chars < static_cast<long>(min_password_chars) || chars > static_cast<long>(max_password_chars))
    return status::invalid(cat("'", field, "' must be ", min_password_chars, " to ", max_password_chars,
                               " characters (it has ", chars, ")"))
        .because("invalid_password", field);
  if (is_common_password(password))
    return status::invalid(cat("'", field, "' is one of the 1,000 most common passwords: choose another"))
        .because("common_password", field);
  return {};
}

}  // namespace cod::server::accounts
