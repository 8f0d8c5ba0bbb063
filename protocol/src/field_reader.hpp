// The strict field readers the client parser and the room options' reader
// share (private to cod_protocol): each checks one JSON value's type and range
// and, on failure, names the field as a path ("options.turn_clock.bank_ms")
// in a protocol_error. Inline, so that parsing a frame costs no calls.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include <nlohmann/json.hpp>

#include "cod/protocol/protocol_error.hpp"

namespace cod::protocol::detail {

using json = nlohmann::json;
using perr = std::optional<protocol_error>;

// Builds a message from pieces without `"literal" + std::string` (g++ 12's
// false -Wrestrict).
template <class... Parts>
std::string cat(const Parts&... parts) {
  std::string s;
  (s.append(parts), ...);
  return s;
}

inline std::string num(std::int64_t v) { return std::to_string(v); }

inline protocol_error err(protocol_errc code, std::string field, std::string message) {
  return protocol_error{code, std::move(field), std::move(message)};
}

inline std::string in_quotes(std::string_view s) { return cat("\"", s, "\""); }

inline const json* find(const json& obj, const char* key) {
  auto it = obj.find(key);
  return it == obj.end() ? nullptr : &*it;
}

// Every key of `obj` must be in `allowed`; `what` names the object in messages.
inline perr check_keys(const json& obj, std::initializer_list<std::string_view> allowed,
                       const std::string& prefix, std::string_view what) {
  for (auto it = obj.begin(); it != obj.end(); ++it) {
    bool ok = false;
    for (std::string_view a : allowed) ok = ok || it.key() == a;
    if (!ok)
      return err(protocol_errc::unknown_field, cat(prefix, it.key()),
                 cat(in_quotes(it.key()), " is not a field of ", what));
  }
  return std::nullopt;
}

inline perr missing(const std::string& field, std::string_view what) {
  return err(protocol_errc::missing_field, field, cat(what, " needs ", in_quotes(field)));
}

// An integer in [lo, hi].
inline perr read_int(const json& v, const std::string& field, std::int64_t lo, std::int64_t hi,
                     std::int64_t& out) {
  if (!v.is_number_integer())
    return err(protocol_errc::bad_field_type, field, cat(in_quotes(field), " must be an integer"));
  const bool in_range =
      v.is_number_unsigned()
          ? v.get<std::uint64_t>() <= static_cast<std::uint64_t>(hi) && hi >= 0 &&
                static_cast<std::int64_t>(v.get<std::uint64_t>()) >= lo
          : v.get<std::int64_t>() >= lo && v.get<std::int64_t>() <= hi;
  if (!in_range)
    return err(protocol_errc::bad_field_value, field,
               cat(in_quotes(field), " must be from ", num(lo), " to ", num(hi)));
  out = v.get<std::int64_t>();
  return std::nullopt;
}

inline perr read_int(const json& v, const std::string& field, std::int64_t lo, std::int64_t hi, int& out) {
  std::int64_t wide = 0;
  if (auto e = read_int(v, field, lo, hi, wide)) return e;
  out = static_cast<int>(wide);
  return std::nullopt;
}

inline perr read_bool(const json& v, const std::string& field, bool& out) {
  if (!v.is_boolean())
    return err(protocol_errc::bad_field_type, field, cat(in_quotes(field), " must be true or false"));
  out = v.get<bool>();
  return std::nullopt;
}

inline perr read_string(const json& v, const std::string& field, const std::string*& out) {
  if (!v.is_string())
    return err(protocol_errc::bad_field_type, field, cat(in_quotes(field), " must be a string"));
  out = &v.get_ref<const std::string&>();
  return std::nullopt;
}

// An optional field: absent leaves `out` as it is; `prefix` + `key` names it
// in errors.
inline perr read_opt_bool(const json& obj, const std::string& prefix, const char* key, bool& out) {
  const json* v = find(obj, key);
  if (!v) return std::nullopt;
  return read_bool(*v, cat(prefix, key), out);
}

template <class Int>
perr read_opt_int(const json& obj, const std::string& prefix, const char* key, std::int64_t lo,
                  std::int64_t hi, Int& out) {
  const json* v = find(obj, key);
  if (!v) return std::nullopt;
  return read_int(*v, cat(prefix, key), lo, hi, out);
}

}  // namespace cod::protocol::detail
