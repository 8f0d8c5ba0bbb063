#include "cod/protocol/protocol_error.hpp"

#include <nlohmann/json.hpp>

namespace cod::protocol {

std::string_view protocol_errc_name(protocol_errc c) {
  switch (c) {
    case protocol_errc::bad_json: return "bad_json";
    case protocol_errc::unknown_type: return "unknown_type";
    case protocol_errc::missing_field: return "missing_field";
    case protocol_errc::unknown_field: return "unknown_field";
    case protocol_errc::bad_field_type: return "bad_field_type";
    case protocol_errc::bad_field_value: return "bad_field_value";
  }
  return "?";
}

nlohmann::json error_to_json(const protocol_error& e) {
  nlohmann::json j = {{"code", e.name()}, {"message", e.message}};
  if (!e.field.empty()) j["field"] = e.field;
  return j;
}

nlohmann::json error_to_json(rule_error e) {
  return {{"code", error_name(e)}, {"message", error_message(e)}};
}

}  // namespace cod::protocol
