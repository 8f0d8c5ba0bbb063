// Actions on the wire: round trips, and a stable error code for every way a
// client message can be malformed (hostile input included).
#include <doctest/doctest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "cod/protocol/json_codec.hpp"

using nlohmann::json;
namespace proto = cod::protocol;

namespace {

void check_error(const std::string& text, proto::protocol_errc code,
                 const std::string& field = "") {
  CAPTURE(text);
  const auto r = proto::parse_action_text(text, 0);
  REQUIRE_FALSE(r.ok());
  CHECK(r.error->code == code);
  CHECK(r.error->field == field);
  CHECK_FALSE(r.error->message.empty());
}

}  // namespace

TEST_CASE("actions round trip through their wire form") {
  const cod::action actions[] = {
      cod::action::play_creature(1, 5, 0),
      cod::action::play_creature(0, 0, 1),
      cod::action::play_symbiote(0, 4, 1, 9),  // R7 Symbiote on a host
      cod::action::play_incantation(1, 12, 3),
      cod::action::end(0),
      cod::action::concede_by(1),
  };
  for (const auto& a : actions) {
    const json j = proto::action_to_json(a);
    CAPTURE(j.dump());
    CHECK_FALSE(j.contains("seat"));  // the seat comes from the connection
    const auto r = proto::parse_action(j, a.seat);
    REQUIRE(r.ok());
    CHECK(r.value == a);
    const auto t = proto::parse_action_text(j.dump(), a.seat);
    REQUIRE(t.ok());
    CHECK(t.value == a);
  }
}

TEST_CASE("the wire form of each action") {
  CHECK(proto::action_to_json(cod::action::play_creature(0, 5, 0)) ==
        json{{"type", "play"}, {"card", 5}, {"line", "upper"}});
  CHECK(proto::action_to_json(cod::action::play_creature(0, 5, 1)) ==
        json{{"type", "play"}, {"card", 5}, {"line", "lower"}});
  CHECK(proto::action_to_json(cod::action::play_symbiote(0, 5, 0, 9)) ==
        json{{"type", "play"}, {"card", 5}, {"line", "upper"}, {"host", 9}});
  // Without a host, a Symbiote play is an ordinary creature play.
  CHECK(proto::action_to_json(cod::action::play_symbiote(0, 5, 1, cod::no_uid)) ==
        proto::action_to_json(cod::action::play_creature(0, 5, 1)));
  CHECK(proto::action_to_json(cod::action::play_incantation(0, 7, 9)) ==
        json{{"type", "play"}, {"card", 7}, {"target", 9}});
  CHECK(proto::action_to_json(cod::action::end(0)) == json{{"type", "end_turn"}});
  CHECK(proto::action_to_json(cod::action::concede_by(0)) == json{{"type", "concede"}});
}

TEST_CASE("a Symbiote's host (R7)") {
  const auto r = proto::parse_action_text(R"({"type":"play","card":4,"line":"lower","host":9})", 1);
  REQUIRE(r.ok());
  CHECK(r.value == cod::action::play_symbiote(1, 4, 1, 9));
  CHECK(r.value.host == 9);
  CHECK(r.value.target == cod::no_uid);
  const auto plain = proto::parse_action_text(R"({"type":"play","card":4,"line":"lower"})", 1);
  REQUIRE(plain.ok());
  CHECK(plain.value.host == cod::no_uid);
  CHECK(plain.value == cod::action::play_creature(1, 4, 1));
}

TEST_CASE("the seat is the caller's, not the message's") {
  const auto r = proto::parse_action_text(R"({"type":"end_turn"})", 1);
  REQUIRE(r.ok());
  CHECK(r.value.seat == 1);
  CHECK(r.value.type == cod::action_type::end_turn);
}

TEST_CASE("every protocol error code for a bad action") {
  using proto::protocol_errc;
  SUBCASE("bad_json") {
    check_error("", protocol_errc::bad_json);
    check_error("{\"type\":", protocol_errc::bad_json);
    check_error("not json", protocol_errc::bad_json);
    check_error("[1, 2]", protocol_errc::bad_json);
    check_error("\"end_turn\"", protocol_errc::bad_json);
    check_error("null", protocol_errc::bad_json);
    check_error(std::string(proto::max_action_bytes + 1, ' '), protocol_errc::bad_json);
    // Deep nesting: refused by size before the parser sees it, and within the
    // size cap parsed (nlohmann's parser is not recursive) and refused as not an object.
    check_error(std::string(5000, '[') + std::string(5000, ']'), protocol_errc::bad_json);
    check_error(std::string(500, '[') + std::string(500, ']'), protocol_errc::bad_json);
    check_error(std::string(500, '['), protocol_errc::bad_json);
  }
  SUBCASE("unknown_type") {
    check_error(R"({"type":"attack"})", protocol_errc::unknown_type, "type");
    check_error(R"({"type":""})", protocol_errc::unknown_type, "type");
    check_error(R"({"type":"END_TURN"})", protocol_errc::unknown_type, "type");
  }
  SUBCASE("missing_field") {
    check_error(R"({})", protocol_errc::missing_field, "type");
    check_error(R"({"type":"play","line":"upper"})", protocol_errc::missing_field, "card");
    check_error(R"({"type":"play","card":3})", protocol_errc::missing_field, "line");
    check_error(R"({"type":"play","card":3,"host":4})", protocol_errc::missing_field, "line");
  }
  SUBCASE("unknown_field") {
    check_error(R"({"type":"end_turn","card":3})", protocol_errc::unknown_field, "card");
    check_error(R"({"type":"concede","seat":1})", protocol_errc::unknown_field, "seat");
    check_error(R"({"type":"play","card":3,"line":"upper","seat":0})", protocol_errc::unknown_field,
                "seat");
    check_error(R"({"type":"end_turn","host":3})", protocol_errc::unknown_field, "host");
  }
  SUBCASE("bad_field_type") {
    check_error(R"({"type":7})", protocol_errc::bad_field_type, "type");
    check_error(R"({"type":"play","card":"3","line":"upper"})", protocol_errc::bad_field_type,
                "card");
    check_error(R"({"type":"play","card":3.5,"line":"upper"})", protocol_errc::bad_field_type,
                "card");
    check_error(R"({"type":"play","card":true,"line":"upper"})", protocol_errc::bad_field_type,
                "card");
    check_error(R"({"type":"play","card":3,"line":0})", protocol_errc::bad_field_type, "line");
    check_error(R"({"type":"play","card":3,"target":"4"})", protocol_errc::bad_field_type,
                "target");
    check_error(R"({"type":"play","card":1e300,"line":"upper"})", protocol_errc::bad_field_type,
                "card");
    check_error(R"({"type":"play","card":3,"line":"upper","host":"4"})", protocol_errc::bad_field_type,
                "host");
    check_error(R"({"type":"play","card":3,"line":"upper","host":null})", protocol_errc::bad_field_type,
                "host");
    check_error(R"({"type":"play","card":3,"line":"upper","host":4.5})", protocol_errc::bad_field_type,
                "host");
  }
  SUBCASE("bad_field_value") {
    check_error(R"({"type":"play","card":-1,"line":"upper"})", protocol_errc::bad_field_value,
                "card");
    check_error(R"({"type":"play","card":128,"line":"upper"})", protocol_errc::bad_field_value,
                "card");
    check_error(R"({"type":"play","card":18446744073709551615,"line":"upper"})",
                protocol_errc::bad_field_value, "card");
    check_error(R"({"type":"play","card":3,"line":"middle"})", protocol_errc::bad_field_value,
                "line");
    check_error(R"({"type":"play","card":3,"target":255})", protocol_errc::bad_field_value,
                "target");
    check_error(R"({"type":"play","card":3,"line":"upper","target":4})",
                protocol_errc::bad_field_value);
    check_error(R"({"type":"play","card":3,"line":"upper","host":-1})", protocol_errc::bad_field_value,
                "host");
    check_error(R"({"type":"play","card":3,"line":"upper","host":128})", protocol_errc::bad_field_value,
                "host");
    // A host goes with a line (a creature), never with a target (an incantation).
    check_error(R"({"type":"play","card":3,"target":4,"host":5})", protocol_errc::bad_field_value,
                "host");
  }
}

TEST_CASE("error codes and their JSON are stable") {
  using proto::protocol_errc;
  CHECK(proto::protocol_errc_name(protocol_errc::bad_json) == "bad_json");
  CHECK(proto::protocol_errc_name(protocol_errc::unknown_type) == "unknown_type");
  CHECK(proto::protocol_errc_name(protocol_errc::missing_field) == "missing_field");
  CHECK(proto::protocol_errc_name(protocol_errc::unknown_field) == "unknown_field");
  CHECK(proto::protocol_errc_name(protocol_errc::bad_field_type) == "bad_field_type");
  CHECK(proto::protocol_errc_name(protocol_errc::bad_field_value) == "bad_field_value");

  const auto r = proto::parse_action_text(R"({"type":"play","card":"x","line":"upper"})", 0);
  REQUIRE_FALSE(r.ok());
  const json j = proto::error_to_json(*r.error);
  CHECK(j["code"] == "bad_field_type");
  CHECK(j["field"] == "card");
  CHECK(j["message"].is_string());
  CHECK_FALSE(proto::error_to_json(proto::protocol_error{protocol_errc::bad_json, "", "x"})
                  .contains("field"));

  const json rule = proto::error_to_json(cod::rule_error::not_your_turn);
  CHECK(rule["code"] == "not_your_turn");
  CHECK(rule["message"] == std::string(cod::error_message(cod::rule_error::not_your_turn)));
}
