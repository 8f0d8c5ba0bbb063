// Delayed spectators (docs/tournaments.md, "Spectator delay"): a tournament
// may show its matches to spectators N accepted actions late, so nobody
// watching can relay a hand or a plan to a player in time. Players are not
// affected. The room hands every accepted action's spectator update here,
// with the spectator state right after it, and the clock messages that follow
// an action (so they keep their place), and sends on what comes back.
// Seat connection news (seat_status) is not held: it is about the room, not
// the match's course.
//
// Executor-only (the room's), like the rest of the room's state.
#pragma once

#include <cstddef>
#include <deque>
#include <utility>
#include <vector>

#include "room/peer.hpp"

namespace cod::server {

class spectator_feed {
 public:
  explicit spectator_feed(int delay) : delay_(delay < 0 ? 0 : static_cast<std::size_t>(delay)) {}

  int delay() const { return static_cast<int>(delay_); }
  // The match started: what a spectator sees until the first update is released.
  void start(message_ptr state) { shown_ = std::move(state); }
  // An accepted action. Returns what is due to spectators now: the update
  // `delay` actions older, with the messages that followed it (after()), or
  // nothing while fewer than `delay` are held.
  std::vector<message_ptr> push(message_ptr update, message_ptr state_after) {
    held_.push_back({std::move(update), std::move(state_after), {}});
    if (held_.size() <= delay_) return {};
    entry e = std::move(held_.front());
    held_.pop_front();
    shown_ = std::move(e.state);
    e.after.insert(e.after.begin(), std::move(e.update));
    return std::move(e.after);
  }
  // A message about the match that follows the last accepted action (a turn
  // starting under the clock): it must not reach spectators before that
  // action's update does, or it would tell them the turn ended. Returns it
  // when nothing is held (send it now), else keeps it behind that update.
  message_ptr after(message_ptr m) {
    if (held_.empty()) return m;
    held_.back().after.push_back(std::move(m));
    return nullptr;
  }
  // The match is over: everything held, oldest first (spectators catch up).
  std::vector<message_ptr> flush() {
    std::vector<message_ptr> out;
    for (auto& e : held_) {
      out.push_back(std::move(e.update));
      for (auto& m : e.after) out.push_back(std::move(m));
      shown_ = std::move(e.state);
    }
    held_.clear();
    return out;
  }
  // What a spectator arriving now gets: the state as of the last released update.
  const message_ptr& state() const { return shown_; }
  std::size_t held() const { return held_.size(); }

 private:
  struct entry {
    message_ptr update;
    message_ptr state;
    std::vector<message_ptr> after;
  };
  std::size_t delay_;
  std::deque<entry> held_;
  message_ptr shown_;
};

}  // namespace cod::server
