// Match ids (room/match_id.hpp): made from the room id, read back by the
// tournament service to find a match's room.
#include <doctest/doctest.h>

#include <cctype>

#include "room/match_id.hpp"

using namespace cod::server;

TEST_CASE("match ids: the room id, '-', 8 hex digits; the room id read back") {
  CHECK(make_match_id("r7k2x", "3f9a0c1b") == "r7k2x-3f9a0c1b");
  const std::string id = make_match_id("r7k2x", environment::system());
  REQUIRE(id.size() == 5 + 1 + 8);
  CHECK(id.substr(0, 6) == "r7k2x-");
  for (char ch : id.substr(6)) CHECK(std::isxdigit(static_cast<unsigned char>(ch)));
  CHECK(make_match_id("r7k2x", environment::system()) != id);  // a new suffix each time
  CHECK(room_of_match(id) == "r7k2x");
}

TEST_CASE("match ids: a room id with a '-' comes back whole; an id with none is its own room id") {
  CHECK(room_of_match(make_match_id("t-1", "00ff00ff")) == "t-1");
  CHECK(room_of_match(make_match_id("t-1", environment::system())) == "t-1");
  CHECK(room_of_match("r7k2x") == "r7k2x");
  CHECK(room_of_match("") == "");
}
