// The organiser APIs' request bodies and answers (tournaments, leagues): a
// POST body is one JSON object whose keys are all known, each of its type;
// a typo never silently changes what an act does.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <type_traits>

#include <nlohmann/json.hpp>

#include "admin/admin_api.hpp"

namespace cod::server::admin {

response ok_json(const nlohmann::json& j, int status = 200);
response method_not_allowed(const char* allow);
// The body of a POST: a JSON object ("" counts as {}); else `err` is 400 bad_json.
bool parse_body(const std::string& text, nlohmann::json& out, response& err);
// Only these keys: else `err` is 400 unknown_field naming the first other.
bool only_keys(const nlohmann::json& j, std::initializer_list<const char*> allowed, response& err);
// "organiser" in the body (at most 64 characters), or "organiser".
std::string actor_of(const nlohmann::json& body);

// "seed": a decimal string (JSON numbers lose precision past 2^53) or a
// number, an unsigned 64-bit integer; `given` false when absent or null.
bool seed_of(const nlohmann::json& body, std::uint64_t& out, bool& given, response& err);

// `key`, when present and not null, into `out` (bool, integer or string);
// else `out` is left as it is. A value of another type: 400 bad_field_type.
template <class T>
bool get_field(const nlohmann::json& j, const char* key, T& out, response& err) {
  auto it = j.find(key);
  if (it == j.end() || it->is_null()) return true;
  bool right_type = false;
  if constexpr (std::is_same_v<T, bool>) right_type = it->is_boolean();
  else if constexpr (std::is_integral_v<T>) right_type = it->is_number_integer();
  else right_type = it->is_string();
  if (!right_type) {
    err = error_response(400, "bad_field_type", "'" + std::string(key) + "' has the wrong type", key);
    return false;
  }
  try {
    out = it->get<T>();
    return true;
  } catch (const std::exception&) {
    err = error_response(400, "bad_field_value", "'" + std::string(key) + "' is out of range", key);
    return false;
  }
}

}  // namespace cod::server::admin
