// The turn clock as the room runs it: turn_clock keeps the banks; here are
// the timer that concedes a seat whose bank runs out, and the clock messages
// (docs/protocol.md, "Turn clock").
#include <algorithm>
#include <utility>

#include <spdlog/spdlog.h>

#include "room/room.hpp"

namespace cod::server {

namespace pr = cod::protocol;
using nlohmann::json;
using std::chrono::milliseconds;

std::optional<json> room::clock_turn_started(std::int64_t now, bool resumed) {
  if (!p_.options.clock || match_.over() || stopping_) return std::nullopt;
  const seat_t s = match_.active_seat();
  const int turn = match_.turn();
  const std::int64_t bank = clock_.start(s, turn, now, resumed);
  if (clock_timer_) ex_->cancel(clock_timer_);
  std::weak_ptr<room> weak = weak_from_this();
  clock_timer_ = ex_->schedule(milliseconds(std::max<std::int64_t>(bank, 0)), [weak, s, turn] {
    if (auto self = weak.lock()) self->run(nullptr, {}, [self, s, turn] { self->on_clock_expired(s, turn); });
  });
  return pr::make_clock(p_.id, s, bank);
}

void room::clock_stop(std::int64_t now) {
  if (clock_.running_seat() == no_seat) return;
  clock_.stop(now);
  if (clock_timer_) ex_->cancel(std::exchange(clock_timer_, 0));
}

void room::on_clock_expired(int seat, int turn) {
  if (stopping_ || status_ != status::playing || match_.over()) return;
  if (!clock_.runs(static_cast<seat_t>(seat), turn)) return;
  clock_timer_ = 0;
  clock_stop(ex_->now_ms());
  std::string text = "seat ";
  text += std::to_string(seat);
  text += " (";
  text += seats_[seat].name;
  text += ") ran out of time on turn ";
  text += std::to_string(turn);
  text += " and concedes";
  spdlog::info("room {}: {}", p_.id, text);
  concede_for(seat, text);
}

// A turn started under the clock: everyone gets the clock message; the match's
// notes and the log keep it.
void room::announce_clock(const json& msg) {
  if (!feed_) {
    broadcast(msg);
  } else {
    // Delayed spectators get it behind the update that ended the last turn.
    auto m = to_message(msg);
    send_seats(m);
    if (auto now = feed_->after(m)) send_spectators(now);
  }
  std::string text = "clock: seat ";
  text += std::to_string(msg.at("seat").get<int>());
  text += " starts turn ";
  text += std::to_string(match_.turn());
  text += " with ";
  text += std::to_string(msg.at("remaining_ms").get<std::int64_t>());
  text += " ms";
  spdlog::debug("room {}: {}", p_.id, text);
  note(text);
}

std::optional<pr::clock_snapshot> room::clock_snapshot(std::int64_t now) const {
  if (!p_.options.clock) return std::nullopt;
  pr::clock_snapshot c;
  for (std::size_t i = 0; i < clock_.seats(); ++i) c.remaining_ms.push_back(clock_.remaining(static_cast<seat_t>(i), now));
  c.running_seat = clock_.running_seat();
  return c;
}

}  // namespace cod::server
