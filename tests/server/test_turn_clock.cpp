// The turn clock's banks (room/turn_clock.hpp): a value, driven with the
// times passed in.
#include <doctest/doctest.h>

#include "room/turn_clock.hpp"

using cod::no_seat;
using cod::server::turn_clock;

TEST_CASE("turn_clock: banks start empty, nothing runs until a turn starts") {
  turn_clock c(2, 500);
  CHECK(c.seats() == 2);
  CHECK(c.running_seat() == no_seat);
  CHECK(c.remaining(0, 1000) == 0);
  CHECK(c.remaining(1, 1000) == 0);
  CHECK_FALSE(c.runs(0, 1));
  c.fill(60'000);
  CHECK(c.remaining(0, 0) == 60'000);
  CHECK(c.remaining(1, 0) == 60'000);
}

TEST_CASE("turn_clock: a turn adds the increment, runs the seat's bank down, and is charged when it stops") {
  turn_clock c(2, 500);
  c.fill(10'000);
  CHECK(c.start(1, 1, 1'000) == 10'500);
  CHECK(c.running_seat() == 1);
  CHECK(c.runs(1, 1));
  CHECK_FALSE(c.runs(1, 2));
  CHECK_FALSE(c.runs(0, 1));
  // While it runs, only the running seat's bank goes down.
  CHECK(c.remaining(1, 4'000) == 7'500);
  CHECK(c.remaining(0, 4'000) == 10'000);
  c.stop(5'000);
  CHECK(c.running_seat() == no_seat);
  CHECK_FALSE(c.runs(1, 1));
  CHECK(c.remaining(1, 9'000) == 6'500);  // stopped: time passing no longer counts
  // The next turn: the other seat's.
  CHECK(c.start(0, 2, 5'000) == 10'500);
  c.stop(5'100);
  CHECK(c.remaining(0, 0) == 10'400);
  CHECK(c.remaining(1, 0) == 6'500);
}

TEST_CASE("turn_clock: a bank never goes below empty") {
  turn_clock c(2, 0);
  c.fill(1'000);
  c.start(0, 1, 0);
  CHECK(c.remaining(0, 5'000) == 0);
  c.stop(5'000);
  CHECK(c.remaining(0, 0) == 0);
  CHECK(c.start(0, 3, 6'000) == 0);  // no increment: still empty
}

TEST_CASE("turn_clock: a resumed turn gets no increment; stop with nothing running changes nothing") {
  turn_clock c(3, 2'000);
  c.fill(30'000);
  c.stop(100);  // nothing runs
  CHECK(c.remaining(2, 0) == 30'000);
  CHECK(c.start(2, 4, 0, true) == 30'000);
  CHECK(c.runs(2, 4));
  c.stop(1'000);
  CHECK(c.remaining(2, 0) == 29'000);
}

TEST_CASE("turn_clock: starting a turn replaces the running one without charging it") {
  turn_clock c(2, 0);
  c.fill(10'000);
  c.start(0, 1, 0);
  c.start(1, 2, 3'000);
  CHECK(c.remaining(0, 3'000) == 10'000);
  CHECK(c.runs(1, 2));
  c.stop(4'000);
  CHECK(c.remaining(1, 0) == 9'000);
}
