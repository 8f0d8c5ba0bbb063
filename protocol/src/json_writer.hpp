// A streaming JSON writer for the hot server -> client messages (views and
// updates, sent once per recipient per accepted action). Building an
// nlohmann DOM for each costs a few hundred allocations; this appends to one
// string instead.
//
// Output is canonical nlohmann form: the exact bytes json::parse(out).dump()
// gives back. Callers write each object's keys in ascending byte order (as
// nlohmann's std::map orders them); debug builds assert it. Strings are
// escaped as nlohmann escapes them (short forms, \u00xx for other control
// characters, UTF-8 left as is).
#pragma once

#include <cassert>
#include <charconv>
#include <cstdint>
#include <string>
#include <string_view>
#include <array>
#include <cstdlib>

namespace cod::protocol::detail {

class json_writer {
 public:
  explicit json_writer(std::string& out) : out_(out) {}

  void begin_object() { open('{'); }
  void end_object() { close('}'); }
  void begin_array() { open('['); }
  void end_array() { close(']'); }

  // A key in the current object; its value comes next.
  void key(std::string_view k) {
    assert(depth_ > 0 && top().object);
#ifndef NDEBUG
    assert(top().count == 0 || top().last_key < k);
    top().last_key = k;
#endif
    comma();
    string_body(k);
    out_ += ':';
    after_key_ = true;
  }

  void value(std::string_view s) {
    comma();
    string_body(s);
  }
  void value(const char* s) { value(std::string_view(s)); }
  void value(bool b) {
    comma();
    out_ += b ? "true" : "false";
  }
  void value(std::int64_t n) {
    comma();
    char buf[24];
    const auto r = std::to_chars(buf, buf + sizeof buf, n);
    out_.append(buf, r.ptr);
  }
  void value(int n) { value(static_cast<std::int64_t>(n)); }
  void null() {
    comma();
    out_ += "null";
  }
  // Already-serialized JSON (a canonical dump), written as one value.
  void raw(std::string_view json_text) {
    comma();
    out_ += json_text;
  }

  // key + value in one call.
  template <typename T>
  void field(std::string_view k, const T& v) {
    key(k);
    value(v);
  }
  void field_raw(std::string_view k, std::string_view json_text) {
    key(k);
    raw(json_text);
  }
  void null_field(std::string_view k) {
    key(k);
    null();
  }

 private:
  struct level {
    bool object = false;
    int count = 0;
#ifndef NDEBUG
    std::string_view last_key;
#endif
  };

  // Before a value or key: a comma unless first in its container, or the
  // value right after its key.
  void comma() {
    if (after_key_) {
      after_key_ = false;
      return;
    }
    if (depth_ == 0) return;
    if (top().count++ > 0) out_ += ',';
  }
  void open(char c) {
    comma();
    out_ += c;
    if (depth_ == max_depth) std::abort();  // our messages nest a handful deep
    levels_[depth_] = level{};
    levels_[depth_++].object = c == '{';
  }
  void close(char c) {
    assert(depth_ > 0 && !after_key_);
    --depth_;
    out_ += c;
  }
  void string_body(std::string_view s) {
    out_ += '"';
    // Copy runs that need no escaping in one append (names and ids are
    // plain ASCII: usually the whole string).
    std::size_t run = 0;
    for (std::size_t i = 0; i < s.size(); ++i) {
      const auto u = static_cast<unsigned char>(s[i]);
      if (u >= 0x20 && u != '"' && u != '\\') continue;
      out_.append(s.data() + run, i - run);
      run = i + 1;
      switch (u) {
        case '"': out_ += "\\\""; break;
        case '\\': out_ += "\\\\"; break;
        case '\b': out_ += "\\b"; break;
        case '\f': out_ += "\\f"; break;
        case '\n': out_ += "\\n"; break;
        case '\r': out_ += "\\r"; break;
        case '\t': out_ += "\\t"; break;
        default: {
          static constexpr char hex[] = "0123456789abcdef";
          out_ += "\\u00";
          out_ += hex[u >> 4];
          out_ += hex[u & 0xF];
        }
      }
    }
    out_.append(s.data() + run, s.size() - run);
    out_ += '"';
  }

  std::string& out_;
  static constexpr int max_depth = 32;
  level& top() { return levels_[depth_ - 1]; }

  std::array<level, max_depth> levels_{};
  int depth_ = 0;
  bool after_key_ = false;
};

}  // namespace cod::protocol::detail
