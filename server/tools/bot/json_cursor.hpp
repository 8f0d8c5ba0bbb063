// A forward-only reader over JSON text that builds nothing and allocates
// nothing: the caller walks the objects and arrays it cares about and skips
// the rest. For bot/view_scan.cpp, where a DOM of every update cost the load
// driver most of its CPU.
//
// Failure is sticky: once something is not valid JSON (or not what the caller
// asked for: an integer that does not fit in an int, say), every call returns
// false and ok() says so, so loops end and the caller checks ok() once.
// Strings come back raw (between the quotes, escapes undecoded) with a flag
// saying whether they hold an escape: a caller comparing text treats an
// escaped string as unexpected rather than decoding it. UTF-8 is not checked.
#pragma once

#include <cstring>
#include <string_view>

namespace cod::bot {

class json_cursor {
 public:
  explicit json_cursor(std::string_view text) : p_(text.data()), end_(text.data() + text.size()) {}

  bool ok() const { return ok_; }

  // Nothing but whitespace left, and nothing failed.
  bool at_end() {
    ws();
    return ok_ && p_ == end_;
  }

  // Enters an object ('{'); false when the next value is not one.
  bool begin_object() { return open('{'); }
  // Moves to the next member: its key (raw; `escaped` when it holds a
  // backslash), the cursor then at its value, which the caller must read or
  // skip. False at the object's end ('}' consumed) or on failure.
  bool next_member(std::string_view& key, bool& escaped) {
    if (!next('}')) return false;
    if (!read_string(key, escaped)) return false;
    ws();
    if (p_ == end_ || *p_ != ':') return fail();
    ++p_;
    return true;
  }

  // Enters an array ('['); false when the next value is not one.
  bool begin_array() { return open('['); }
  // Moves to the next element (the caller reads or skips it); false at the
  // array's end (']' consumed) or on failure.
  bool next_element() { return next(']'); }

  // Consumes `null` when it comes next.
  bool take_null() {
    ws();
    if (end_ - p_ >= 4 && std::memcmp(p_, "null", 4) == 0) {
      p_ += 4;
      return true;
    }
    return false;
  }

  // An integer in int range written without fraction or exponent; false (a
  // failure) for anything else.
  bool read_int(int& out) {
    ws();
    const bool neg = p_ != end_ && *p_ == '-';
    if (neg) ++p_;
    const char* first = p_;
    long v = 0;
    while (p_ != end_ && *p_ >= '0' && *p_ <= '9') {
      v = v * 10 + (*p_ - '0');
      if (++p_ - first > 9) return fail();  // beyond what the view holds: let a real parser judge
    }
    if (p_ == first || (*first == '0' && p_ - first > 1)) return fail();
    if (p_ != end_ && (*p_ == '.' || *p_ == 'e' || *p_ == 'E')) return fail();
    out = static_cast<int>(neg ? -v : v);
    return true;
  }

  // A string, raw (between the quotes); `escaped` when it holds a backslash.
  bool read_string(std::string_view& out, bool& escaped) {
    ws();
    if (p_ == end_ || *p_ != '"') return fail();
    const char* start = ++p_;
    escaped = false;
    while (p_ != end_) {
      const unsigned char ch = static_cast<unsigned char>(*p_);
      if (ch == '"') {
        out = std::string_view(start, static_cast<std::size_t>(p_ - start));
        ++p_;
        return true;
      }
      if (ch < 0x20) return fail();
      if (ch == '\\') {
        escaped = true;
        if (!skip_escape()) return false;
      } else {
        ++p_;
      }
    }
    return fail();
  }

  // Skips one value of any kind, checking its structure; nesting deeper than
  // 64 levels fails (no update comes near it).
  bool skip_value() { return ok_ && skip(0); }

 private:
  bool fail() {
    ok_ = false;
    p_ = end_;
    return false;
  }
  void ws() {
    while (p_ != end_ && (*p_ == ' ' || *p_ == '\n' || *p_ == '\r' || *p_ == '\t')) ++p_;
  }
  bool open(char bracket) {
    ws();
    if (p_ == end_ || *p_ != bracket) return fail();
    ++p_;
    first_ = true;
    return true;
  }
  // Before an element or member: the closing bracket ends the container;
  // after the first, a comma must come. (One flag does for every level: a
  // nested container is read to its end before its parent goes on.)
  bool next(char close) {
    ws();
    if (p_ == end_) return fail();
    if (*p_ == close) {
      ++p_;
      first_ = false;
      return false;
    }
    if (!first_) {
      if (*p_ != ',') return fail();
      ++p_;
      ws();
      if (p_ != end_ && *p_ == close) return fail();  // a trailing comma
    }
    first_ = false;
    return true;
  }
  bool skip_escape() {  // at the backslash
    if (end_ - p_ < 2) return fail();
    const char e = p_[1];
    p_ += 2;
    if (e == 'u') {
      if (end_ - p_ < 4) return fail();
      for (int i = 0; i < 4; ++i, ++p_) {
        const char h = *p_;
        if (!((h >= '0' && h <= '9') || (h >= 'a' && h <= 'f') || (h >= 'A' && h <= 'F'))) return fail();
      }
      return true;
    }
    return std::strchr("\"\\/bfnrt", e) != nullptr && e != '\0' ? true : fail();
  }
  bool literal(const char* word, std::size_t n) {
    if (static_cast<std::size_t>(end_ - p_) < n || std::memcmp(p_, word, n) != 0) return fail();
    p_ += n;
    return true;
  }
  bool digits() {
    const char* first = p_;
    while (p_ != end_ && *p_ >= '0' && *p_ <= '9') ++p_;
    return p_ != first ? true : fail();
  }
  bool number() {
    if (*p_ == '-') ++p_;
    if (p_ != end_ && *p_ == '0') ++p_;
    else if (!digits()) return false;
    if (p_ != end_ && *p_ == '.') {
      ++p_;
      if (!digits()) return false;
    }
    if (p_ != end_ && (*p_ == 'e' || *p_ == 'E')) {
      ++p_;
      if (p_ != end_ && (*p_ == '+' || *p_ == '-')) ++p_;
      if (!digits()) return false;
    }
    return true;
  }
  bool skip(int depth) {
    ws();
    if (p_ == end_) return fail();
    std::string_view s;
    bool escaped = false;
    switch (*p_) {
      case '"': return read_string(s, escaped);
      case 't': return literal("true", 4);
      case 'f': return literal("false", 5);
      case 'n': return literal("null", 4);
      case '{':
      case '[': {
        if (depth >= 64) return fail();
        const bool object = *p_ == '{';
        ++p_;
        first_ = true;
        while (object ? next_member(s, escaped) : next_element())
          if (!skip(depth + 1)) return false;
        return ok_;
      }
      default:
        if (*p_ == '-' || (*p_ >= '0' && *p_ <= '9')) return number();
        return fail();
    }
  }

  const char* p_;
  const char* end_;
  bool ok_ = true;
  bool first_ = false;  // just inside a '{' or '[': no comma before the next member
};

}  // namespace cod::bot
