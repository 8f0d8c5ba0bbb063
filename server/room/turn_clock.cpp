#include "room/turn_clock.hpp"

#include <algorithm>

namespace cod::server {

turn_clock::turn_clock(std::size_t seats, std::int64_t increment_ms) : banks_(seats, 0), increment_ms_(increment_ms) {}

void turn_clock::fill(std::int64_t bank_ms) { std::fill(banks_.begin(), banks_.end(), bank_ms); }

std::int64_t turn_clock::start(seat_t seat, int turn, std::int64_t now, bool resumed) {
  auto& bank = banks_[static_cast<std::size_t>(seat)];
  if (!resumed) bank += increment_ms_;
  seat_ = seat;
  turn_ = turn;
  since_ = now;
  return bank;
}

void turn_clock::stop(std::int64_t now) {
  if (seat_ == no_seat) return;
  banks_[static_cast<std::size_t>(seat_)] = remaining(seat_, now);
  seat_ = no_seat;
}

std::int64_t turn_clock::remaining(seat_t seat, std::int64_t now) const {
  const std::int64_t bank = banks_[static_cast<std::size_t>(seat)];
  if (seat != seat_) return bank;
  return std::max<std::int64_t>(0, bank - (now - since_));
}

}  // namespace cod::server
