// An organised event's rooms, a tournament's (docs/tournaments.md) or a
// league's (docs/league.md): seats reserved for the players' tokens, the
// hooks that tell the event a match started and ended, an organiser's
// concession, retiring a game no longer needed, and the spectator delay.
#include <spdlog/spdlog.h>

#include "common/constant_time.hpp"
#include "common/sha256.hpp"
#include "room/room.hpp"

namespace cod::server {

namespace pr = cod::protocol;
using nlohmann::json;

void room::set_hooks(room_hooks h) {
  run(nullptr, {}, [self = shared_from_this(), h = std::move(h)] {
    self->hooks_ = h;
    if (h.spectator_delay > 0) {
      self->feed_.emplace(h.spectator_delay);
      // A recovered match: its earlier states are gone, so spectators start
      // from the state at recovery (docs/tournaments.md, limits).
      if (self->status_ == status::playing) self->feed_->start(self->state_for(spectator));
    }
  });
}

void room::join_reserved(std::shared_ptr<peer> c, pr::join_msg m, std::string token) {
  auto id = m.id;
  run(c, std::move(id), [self = shared_from_this(), c, m = std::move(m), token = std::move(token)] {
    self->do_join_reserved(c, m, token);
  });
}

void room::concede_seat(int seat, std::string why) {
  run(nullptr, {}, [self = shared_from_this(), seat, why = std::move(why)] {
    if (self->status_ != status::playing || self->match_.over() || seat < 0 ||
        seat >= static_cast<int>(self->seats_.size()))
      return;
    spdlog::info("room {}: seat {} ('{}') concedes: {}", self->p_.id, seat, self->seats_[seat].name, why);
    self->concede_for(seat, why);
  });
}

void room::retire(std::string why) {
  run(nullptr, {}, [self = shared_from_this(), why = std::move(why)] { self->do_retire(why); });
}

void room::do_join_reserved(const std::shared_ptr<peer>& c, const pr::join_msg& m, const std::string& token) {
  const std::string hash = sha256_hex(token);
  const int seat = m.seat.value_or(-1);
  // A room rebuilt at start-up has no reservations (they are not stored),
  // but its seats hold the players' token hashes.
  const bool ok = seat >= 0 && seat < static_cast<int>(seats_.size()) &&
                  constant_time_equal(p_.reserved.size() == seats_.size() ? p_.reserved[static_cast<std::size_t>(seat)]
                                                                          : seats_[seat].token_hash,
                                      hash);
  if (!ok) {
    c->send(pr::make_error(m.id, pr::session_errc::bad_token));
    if (seat_of(c->id()) < 0 && !is_spectator(c->id())) c->detach(this);
    return;
  }
  if (seats_[seat].taken) return do_resume(c, pr::resume_msg{m.id, p_.id, token});
  do_join(c, m, &token);
}

void room::do_retire(const std::string& why) {
  if (status_ == status::waiting) {
    close_room(why);
    return;
  }
  if (status_ != status::playing || match_.over()) return;
  // No result: the tournament no longer counts this match.
  spdlog::info("room {}: match {} voided: {}", p_.id, match_id_, why);
  end_without_result("voided", why);
  linger_after(why);
}

}  // namespace cod::server
