// The turn clock of a room with options.clock (docs/protocol.md, "Turn
// clock"): each seat has a bank of milliseconds that runs down during its
// turns; increment_ms is added to it as each of its turns starts; the room
// concedes a seat whose bank runs out.
//
// A value: no timers and no clock of its own. The caller passes the time,
// from any one clock: the room's executor while it plays, the log's stored
// timestamps when recovery replays a match (so the time the server was down
// is charged to no one). The room schedules the expiry itself.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "cod/engine/types.hpp"

namespace cod::server {

class turn_clock {
 public:
  turn_clock() = default;
  // `seats` empty banks, nothing running.
  turn_clock(std::size_t seats, std::int64_t increment_ms);

  // The match starts: every bank holds `bank_ms`.
  void fill(std::int64_t bank_ms);
  // `seat`'s turn `turn` starts running at `now`, its bank given the
  // increment first unless `resumed` (a recovered match's turn goes on).
  // Replaces any running turn without charging it: stop() that first.
  // Returns the seat's bank.
  std::int64_t start(seat_t seat, int turn, std::int64_t now, bool resumed = false);
  // The running turn (if any) stops at `now`: its seat is charged the time
  // since it started, never below an empty bank.
  void stop(std::int64_t now);

  // The seat whose turn runs; no_seat when none does.
  seat_t running_seat() const { return seat_; }
  // Whether seat `seat`'s turn `turn` is the one running.
  bool runs(seat_t seat, int turn) const { return seat_ != no_seat && seat == seat_ && turn == turn_; }
  // `seat`'s bank at `now`: the running seat's as if it stopped then.
  std::int64_t remaining(seat_t seat, std::int64_t now) const;
  std::size_t seats() const { return banks_.size(); }

 private:
  std::vector<std::int64_t> banks_;
  std::int64_t increment_ms_ = 0;
  seat_t seat_ = no_seat;
  int turn_ = 0;
  std::int64_t since_ = 0;
};

}  // namespace cod::server
