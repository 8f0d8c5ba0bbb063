// Delayed spectators (docs/tournaments.md, "Spectator delay"): a tournament
// may show its matches to spectators N accepted actions late, so nobody
// watching can relay a hand or a plan to a player in time. Players are not
// affected. The room hands every accepted action's spectator update here,
// with the spectator state right after it, and sends on what comes back.
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
  // An accepted action. Returns the update due to spectators now (the one
  // `delay` actions older), or null while fewer than `delay` are held.
  message_ptr push(message_ptr update, message_ptr state_after) {
    held_.emplace_back(std::move(update), std::move(state_after));
    if (held_.size() <= delay_) return nullptr;
    auto [u, s] = std::move(held_.front());
    held_.pop_front();
    shown_ = std::move(s);
    return u;
  }
  // The match is over: every held update, oldest first (spectators catch up).
  std::vector<message_ptr> flush() {
    std::vector<message_ptr> out;
    for (auto& [u, s] : held_) {
      out.push_back(std::move(u));
      shown_ = std::move(s);
    }
    held_.clear();
    return out;
  }
  // What a spectator arriving now gets: the state as of the last released update.
  const message_ptr& state() const { return shown_; }
  std::size_t held() const { return held_.size(); }

 private:
  std::size_t delay_;
  std::deque<std::pair<message_ptr, message_ptr>> held_;
  message_ptr shown_;
};

}  // namespace cod::server
