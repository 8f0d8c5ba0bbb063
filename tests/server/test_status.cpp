#include <doctest/doctest.h>

#include <string>

#include "common/status.hpp"

using cod::server::result;
using cod::server::status;

TEST_CASE("status: ok by default, an error keeps its code and message") {
  CHECK(status{}.is_ok());
  CHECK(static_cast<bool>(status::ok()));
  const auto s = status::not_found("no match m-1");
  CHECK_FALSE(s.is_ok());
  CHECK(s.error_code() == status::code::not_found);
  CHECK(s.message() == "no match m-1");
  CHECK(std::string(cod::server::status_code_name(s.error_code())) == "not_found");
  CHECK(s != status::io_error("no match m-1"));
}

TEST_CASE("result: a value or the status saying why not") {
  result<int> good = 42;
  REQUIRE(good.has_value());
  CHECK(*good == 42);
  CHECK(good.error().is_ok());
  result<int> bad = status::unavailable("store down");
  CHECK_FALSE(bad.has_value());
  CHECK(bad.error().error_code() == status::code::unavailable);
  CHECK(bad.error().message() == "store down");
}

TEST_CASE("status: a reason and a field for an API's answer; the code still decides") {
  const status plain = status::invalid("bad name");
  CHECK(plain.reason().empty());
  CHECK(plain.field().empty());
  const status named = status::invalid("bad name").because("invalid_players", "players");
  CHECK(named.error_code() == status::code::invalid);
  CHECK(named.message() == "bad name");
  CHECK(named.reason() == "invalid_players");
  CHECK(named.field() == "players");
  CHECK(named != plain);  // the reason is part of what a caller compares
}
