// Duel pairing (docs/queue.md, "Duels"): windows, their widening, the
// longest wait picking first, last opponents and shared addresses.
#include <doctest/doctest.h>

#include "helpers.hpp"

using namespace queue_test;

namespace {

// window 50 at once, +10 a second, at most 400: pinned here, whatever the defaults become.
queue_params duel_params() {
  queue_params p;
  p.duel = {50, 10, 400};
  p.rematch_after_ms = 60'000;
  return p;
}

}  // namespace

TEST_CASE("duels: neighbours within the window are paired, the nearest first") {
  matchmaker q(duel_params());
  REQUIRE(q.add(solo(1, 1500)) == add_error::none);
  REQUIRE(q.add(solo(2, 1805)) == add_error::none);
  REQUIRE(q.add(solo(3, 1510)) == add_error::none);
  REQUIRE(q.add(solo(4, 1800)) == add_error::none);
  const wave_result r = q.pass(0);
  REQUIRE(r.matches.size() == 2);
  CHECK(groups(r) == std::vector<std::vector<std::int64_t>>{{1, 3}, {2, 4}});
  CHECK(r.matches[0].spread == 10);
  CHECK(r.matches[1].spread == 5);
  CHECK(r.matches[0].seats.size() == 2);
  CHECK(r.matches[0].seats[1].account == 3);
  CHECK(q.size() == 0);
  CHECK(r.dropped.empty());
}

TEST_CASE("duels: far apart at first, paired once the wait has widened the window") {
  matchmaker q(duel_params());
  q.add(solo(1, 1500, 0));
  q.add(solo(2, 1700, 0));
  CHECK(q.pass(0).matches.empty());        // window 50
  CHECK(q.pass(14'000).matches.empty());   // window 190 < 200
  CHECK(q.size() == 2);
  const wave_result r = q.pass(15'000);    // window 200
  REQUIRE(r.matches.size() == 1);
  CHECK(r.matches[0].spread == 200);
  CHECK(r.matches[0].seats[0].waited_ms == 15'000);
}

TEST_CASE("duels: the wider of the two windows decides (the longer wait, as Showdown)") {
  matchmaker q(duel_params());
  q.add(solo(1, 1500, 0));       // waited 20 s at 20'000: window 250
  q.add(solo(2, 1740, 20'000));  // just queued: window 50
  const wave_result r = q.pass(20'000);
  REQUIRE(r.matches.size() == 1);
  CHECK(r.matches[0].tickets == std::vector<std::int64_t>{1, 2});
}

TEST_CASE("duels: the longest-waiting ticket picks first, its nearest neighbour") {
  matchmaker q(duel_params());
  q.add(solo(1, 1500, 0));
  q.add(solo(2, 1520, 5000));
  q.add(solo(3, 1490, 5000));
  const wave_result r = q.pass(5000);
  REQUIRE(r.matches.size() == 1);
  CHECK(r.matches[0].tickets == std::vector<std::int64_t>{1, 3});
  CHECK(q.find(2) != nullptr);
}

TEST_CASE("duels: no immediate rematch of the last opponent; allowed once both waited a minute") {
  matchmaker q(duel_params());
  ticket a = solo(1, 1500, 0), b = solo(2, 1505, 0);
  a.last_opponents = {2};  // one side naming the other is enough
  q.add(a);
  q.add(b);
  q.add(solo(3, 1540, 0));  // farther, but in range: 1 meets 3, not 2
  wave_result r = q.pass(0);
  REQUIRE(r.matches.size() == 1);
  CHECK(r.matches[0].tickets == std::vector<std::int64_t>{1, 3});

  matchmaker alone(duel_params());
  alone.add(a);
  alone.add(b);
  CHECK(alone.pass(0).matches.empty());
  CHECK(alone.pass(59'999).matches.empty());
  r = alone.pass(60'000);
  REQUIRE(r.matches.size() == 1);
  CHECK(r.matches[0].tickets == std::vector<std::int64_t>{1, 2});
}

TEST_CASE("duels: two clients of one address meet only when nothing else is in range") {
  matchmaker q(duel_params());
  ticket a = solo(1, 1500), b = solo(2, 1502);
  b.address = a.address;
  q.add(a);
  q.add(b);
  q.add(solo(3, 1540));  // 40 away, in the window: preferred to the same address
  wave_result r = q.pass(0);
  REQUIRE(r.matches.size() == 1);
  CHECK(r.matches[0].tickets == std::vector<std::int64_t>{1, 3});

  matchmaker fallback(duel_params());
  fallback.add(a);
  fallback.add(b);
  fallback.add(solo(4, 1800));
  r = fallback.pass(0);
  REQUIRE(r.matches.size() == 1);
  CHECK(r.matches[0].tickets == std::vector<std::int64_t>{1, 2});

  // An unknown address ("") is never a clash.
  matchmaker unknown(duel_params());
  a.address = b.address = "";
  unknown.add(a);
  unknown.add(b);
  unknown.add(solo(3, 1540));
  r = unknown.pass(0);
  REQUIRE(r.matches.size() == 1);
  CHECK(r.matches[0].tickets == std::vector<std::int64_t>{1, 2});
}
