#include "cod/protocol/names.hpp"

#include <cstdint>
#include <cstdio>

namespace cod::protocol {
namespace {

// Decodes one code point at s[i] and advances i; nullopt for ill-formed
// UTF-8 (truncated, overlong, a surrogate, above U+10FFFF).
std::optional<char32_t> next_code_point(std::string_view s, std::size_t& i) {
  const auto b0 = static_cast<unsigned char>(s[i]);
  int extra = 0;
  char32_t cp = 0;
  if (b0 < 0x80) {
    ++i;
    return b0;
  } else if (b0 >= 0xC2 && b0 <= 0xDF) {
    extra = 1;
    cp = b0 & 0x1F;
  } else if (b0 >= 0xE0 && b0 <= 0xEF) {
    extra = 2;
    cp = b0 & 0x0F;
  } else if (b0 >= 0xF0 && b0 <= 0xF4) {
    extra = 3;
    cp = b0 & 0x07;
  } else {
    return std::nullopt;
  }
  if (s.size() - i <= static_cast<std::size_t>(extra)) return std::nullopt;
  for (int k = 1; k <= extra; ++k) {
    const auto b = static_cast<unsigned char>(s[i + static_cast<std::size_t>(k)]);
    if ((b & 0xC0) != 0x80) return std::nullopt;
    cp = (cp << 6) | (b & 0x3F);
  }
  static constexpr char32_t min_of[] = {0, 0x80, 0x800, 0x10000};
  if (cp < min_of[extra] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return std::nullopt;
  i += static_cast<std::size_t>(extra) + 1;
  return cp;
}

bool in(char32_t c, char32_t lo, char32_t hi) { return c >= lo && c <= hi; }

bool is_bidi_control(char32_t c) {
  return c == 0x061C || c == 0x200E || c == 0x200F || in(c, 0x202A, 0x202E) || in(c, 0x2066, 0x2069);
}

// Characters that draw nothing on their own: spaces, zero-width and other
// invisible format characters, fillers, combining marks, variation
// selectors, tags. A name needs one character outside this set.
bool is_invisible(char32_t c) {
  return c == 0x20 || c == 0xA0 || c == 0xAD || c == 0x115F || c == 0x1160 || c == 0x1680 || c == 0x180E ||
         in(c, 0x2000, 0x200D) || in(c, 0x2028, 0x2029) || c == 0x202F || c == 0x205F || in(c, 0x2060, 0x2064) ||
         in(c, 0x206A, 0x206F) || c == 0x3000 || c == 0x3164 || c == 0xFEFF || c == 0xFFA0 ||
         in(c, 0x0300, 0x036F) || in(c, 0x1AB0, 0x1AFF) || in(c, 0x1DC0, 0x1DFF) || in(c, 0x20D0, 0x20FF) ||
         in(c, 0xFE20, 0xFE2F) || in(c, 0xFE00, 0xFE0F) || in(c, 0xE0100, 0xE01EF) || in(c, 0xE0000, 0xE007F);
}

std::string code(char32_t c) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "U+%04X", static_cast<unsigned>(c));
  return buf;
}

}  // namespace

std::optional<std::string> name_problem(std::string_view name, std::size_t max_chars) {
  if (name.empty()) return "is empty";
  std::size_t chars = 0;
  bool visible = false;
  for (std::size_t i = 0; i < name.size();) {
    const auto c = next_code_point(name, i);
    if (!c) return "is not valid UTF-8";
    ++chars;
    if (*c < 0x20 || *c == 0x7F) return "contains a control character (" + code(*c) + ")";
    if (in(*c, 0x80, 0x9F)) return "contains a C1 control character (" + code(*c) + ")";
    if (is_bidi_control(*c)) return "contains a bidirectional control character (" + code(*c) + ")";
    visible = visible || !is_invisible(*c);
  }
  if (chars > max_chars) return "is longer than " + std::to_string(max_chars) + " characters";
  if (!visible) return "has no visible character (only spaces, zero-width or combining characters)";
  return std::nullopt;
}

}  // namespace cod::protocol
