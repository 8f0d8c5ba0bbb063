// The streaming writer behind views and updates (protocol/src/json_writer.hpp):
// its output must be exactly nlohmann's dump of the same document.
#include <doctest/doctest.h>

#include <cstdint>
#include <limits>
#include <string>

#include <nlohmann/json.hpp>

#include "json_writer.hpp"

using nlohmann::json;
using cod::protocol::detail::json_writer;

TEST_CASE("json_writer: strings are escaped as nlohmann escapes them") {
  const std::string samples[] = {
      "",
      "plain_id",
      "quote \" and backslash \\",
      std::string("nul \0 inside", 12),
      "controls \b\f\n\r\t \x01\x1f end",
      "utf-8 \xc3\xa9\xe2\x82\xac\xf0\x9f\x83\x8f",
      "\"\\\"",
  };
  for (const std::string& s : samples) {
    std::string out;
    json_writer w(out);
    w.value(s);
    CHECK(out == json(s).dump());
  }
}

TEST_CASE("json_writer: nested objects and arrays, numbers, booleans, null and raw values") {
  std::string out;
  json_writer w(out);
  w.begin_object();
  w.key("a");
  w.begin_array();
  w.value(std::int64_t{-9223372036854775807LL - 1});
  w.value(std::numeric_limits<std::int64_t>::max());
  w.value(0);
  w.value(true);
  w.value(false);
  w.null();
  w.begin_object();
  w.end_object();
  w.begin_array();
  w.end_array();
  w.end_array();
  w.field("b", "x");
  w.field_raw("c", R"({"k":[1,2]})");
  w.null_field("d");
  w.end_object();
  const json expected = {{"a", {std::numeric_limits<std::int64_t>::min(), std::numeric_limits<std::int64_t>::max(), 0,
                                true, false, nullptr, json::object(), json::array()}},
                         {"b", "x"},
                         {"c", {{"k", {1, 2}}}},
                         {"d", nullptr}};
  CHECK(out == expected.dump());
  CHECK(json::parse(out) == expected);
}
