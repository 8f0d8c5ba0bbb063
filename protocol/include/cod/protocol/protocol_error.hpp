// Why a client message was refused before it reached the engine. The code
// names are part of the wire protocol: never rename one, only add.
// (Rule errors, once a message is well formed, are cod::rule_error.)
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include <nlohmann/json_fwd.hpp>

#include "cod/engine/error.hpp"

namespace cod::protocol {

enum class protocol_errc : std::uint8_t {
  bad_json,         // not JSON, or not a JSON object
  unknown_type,     // "type" names no message of this kind
  missing_field,    // a required field is absent
  unknown_field,    // a field this message type does not have
  bad_field_type,   // a field of the wrong JSON type
  bad_field_value,  // a field of the right type and a wrong value
};

// "bad_field_type" etc.: the code as it appears on the wire.
std::string_view protocol_errc_name(protocol_errc c);

struct protocol_error {
  protocol_errc code = protocol_errc::bad_json;
  std::string field;    // the offending field, "" when the message as a whole is wrong
  std::string message;  // one sentence a client developer can read
  std::string_view name() const { return protocol_errc_name(code); }
  bool operator==(const protocol_error&) const = default;
};

// {"code": "bad_field_type", "field": "card", "message": "..."} ("field" only
// when there is one).
nlohmann::json error_to_json(const protocol_error& e);
// {"code": "not_your_turn", "message": "..."}: cod::error_name / error_message.
nlohmann::json error_to_json(rule_error e);

}  // namespace cod::protocol
