#include "admin/request_body.hpp"

#include <charconv>

namespace cod::server::admin {

using nlohmann::json;

response ok_json(const json& j, int status) {
  response r;
  r.status = status;
  r.body = j.dump();
  return r;
}

response method_not_allowed(const char* allow) {
  auto r = error_response(405, "method_not_allowed", std::string("this endpoint takes ") + allow);
  r.headers.emplace_back("Allow", allow);
  return r;
}

bool parse_body(const std::string& text, json& out, response& err) {
  if (text.empty()) {
    out = json::object();
    return true;
  }
  out = json::parse(text, nullptr, false);
  if (out.is_discarded() || !out.is_object()) {
    err = error_response(400, "bad_json", "the body must be a JSON object");
    return false;
  }
  return true;
}

bool only_keys(const json& j, std::initializer_list<const char*> allowed, response& err) {
  for (const auto& [k, v] : j.items()) {
    bool known = false;
    for (const char* a : allowed) known = known || k == a;
    if (!known) {
      err = error_response(400, "unknown_field", "unknown field '" + k + "'", k);
      return false;
    }
  }
  return true;
}

std::string actor_of(const json& body) {
  if (auto it = body.find("organiser"); it != body.end() && it->is_string() && !it->get<std::string>().empty())
    return it->get<std::string>().substr(0, 64);
  return "organiser";
}

bool seed_of(const json& body, std::uint64_t& out, bool& given, response& err) {
  given = false;
  auto s = body.find("seed");
  if (s == body.end() || s->is_null()) return true;
  const std::string text = s->is_string() ? s->get<std::string>() : s->is_number_unsigned() ? s->dump() : "";
  std::uint64_t v = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || ec != std::errc{} || ptr != text.data() + text.size()) {
    err = error_response(400, "bad_field_value", "'seed' is an unsigned 64-bit integer (a decimal string)", "seed");
    return false;
  }
  out = v;
  given = true;
  return true;
}

}  // namespace cod::server::admin
