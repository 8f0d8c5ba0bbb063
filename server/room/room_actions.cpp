// The action pipeline: an act is applied to the match, its messages built
// (each recipient's view after exactly this action), the action stored, and
// only once the store has it are the messages sent ("persist then
// continue", which the draft's picks and the match's start and end use too).
#include <utility>

#include <spdlog/spdlog.h>

#include "cod/protocol/json_codec.hpp"
#include "cod/protocol/legal_actions.hpp"
#include "common/metrics.hpp"
#include "room/room.hpp"

namespace cod::server {

namespace pr = cod::protocol;
using nlohmann::json;

// The messages of one accepted action, built when it is applied and sent
// once it is durable.
struct room::outgoing {
  std::weak_ptr<peer> actor;
  json id;
  std::int64_t seq = 0;
  std::vector<message_ptr> seat_updates;  // by seat
  message_ptr spectator_update;           // one string for every spectator
  message_ptr spectator_state;            // with a spectator delay: the state after it
  std::optional<json> clock;              // a new turn's clock message
  bool acked_in_update = false;           // the actor's update carries its id: no `accepted`
};

// ---------------------------------------------------------------------------
// Persist then continue.

void room::persist(const store_write& write, write_failure failed, task then) {
  busy_ = true;
  write_started_ms_ = ex_->now_ms();
  // A write that takes long (the database locked by another process: the
  // store waits up to store_busy_max_sec) is shown to the room's people.
  std::weak_ptr<room> weak = weak_from_this();
  store_wait_timer_ = ex_->schedule(store_wait_notice, [weak] {
    if (auto self = weak.lock()) self->on_store_waiting();
  });
  // The store calls back once: what it carries moves on to the executor.
  write([self = shared_from_this(), failed = std::move(failed),
         then = std::move(then)](const server::status& st) mutable {
    self->ex_->post([self, failed = std::move(failed), then = std::move(then), st] {
      self->on_stored(st, failed, then);
    });
  });
}

void room::on_store_waiting() {
  store_wait_timer_ = 0;
  if (!busy_ || stopping_ || moved_) return;
  store_wait_told_ = true;
  spdlog::warn("room {}: a store write has waited {} ms: the room is paused, its players told", p_.id,
               store_wait_notice.count());
  // The turn clock stops as of the write's start: the wait is nobody's
  // time. It starts again once the write is stored (on_stored).
  if (p_.options.clock && clock_.running_seat() != no_seat && !match_.over()) {
    clock_stop(write_started_ms_);
    clock_paused_ = true;
  }
  broadcast(pr::make_notice(p_.id, "store_waiting",
                            "the server is waiting for its database (another process holds it): the match is "
                            "paused, nothing is lost; it goes on by itself when the database is free"));
}

void room::on_stored(const server::status& st, const write_failure& failed, const task& then) {
  busy_ = false;
  if (store_wait_timer_) ex_->cancel(std::exchange(store_wait_timer_, 0));
  if (std::exchange(store_wait_told_, false) && st && !moved_)
    broadcast(pr::make_notice(p_.id, "store_resumed", "the server's database is back: the match goes on"));
  if (!st && svc_.fenced && st.error_code() == server::status::code::conflict) {
    // The fence: another node holds this room's lease and runs its match
    // from the stored log (this write is not in it, and was never
    // acknowledged). Its players reconnect to that node. The actor gets no
    // error: its act is simply not acknowledged, as when a connection drops
    // before the answer, and it resumes on the new node from the stored
    // state (an internal_error would tell a client to give up).
    spdlog::warn("room {}: the store refused a write ({}): another node holds the room; moving away", p_.id,
                 st.message());
    do_move_away("the store's fence: another node holds the room");
    drain();
    return;
  }
  if (!st) {
    svc_.stats->persistence_errors_total++;
    spdlog::error("room {}: persistence error: {}", p_.id, failed.what);
    if (failed.abandon_why) {
      if (failed.reply)
        if (auto c = failed.actor.lock()) c->send(pr::make_error(failed.id, pr::session_errc::internal_error, failed.reply));
      abandon(failed.abandon_why);
      drain();
      return;
    }
  }
  then();
  // The clock stopped for the wait goes on, with the bank it had when the
  // write began; everyone is told the time left.
  if (std::exchange(clock_paused_, false) && status_ == status::playing && !match_.over() && !stopping_ && !moved_)
    if (auto m = clock_turn_started(ex_->now_ms(), true)) announce_clock(*m);
  drain();
}

// ---------------------------------------------------------------------------
// Actions.

void room::emote(std::shared_ptr<peer> c, pr::emote_msg m) {
  auto id = m.id;
  run(c, std::move(id), [self = shared_from_this(), c, m = std::move(m)] { self->do_emote(c, m); });
}

// Seats only: a spectator's emote would be a voice at a table it does not
// sit at (spectator_cannot_act). Any status: a greeting while waiting, a
// "good game" after the end.
void room::do_emote(const std::shared_ptr<peer>& c, const pr::emote_msg& m) {
  const int seat = acting_seat(c, m.id);
  if (seat < 0) return;
  const auto& name = seats_[static_cast<std::size_t>(seat)].name;
  broadcast(pr::make_emote(json(), p_.id, seat, name, m.emote), c->id());
  c->send(pr::make_emote(m.id, p_.id, seat, name, m.emote));
}

int room::acting_seat(const std::shared_ptr<peer>& c, const json& id) {
  const int seat = seat_of(c->id());
  if (seat >= 0) return seat;
  if (is_spectator(c->id())) {
    c->send(pr::make_error(id, pr::session_errc::spectator_cannot_act));
  } else {
    c->send(pr::make_error(id, pr::session_errc::not_seated));
    c->detach(this);
  }
  return -1;
}

// A request chosen in an older state (a double click that arrives after the
// AI or another seat has played) is refused whole: valid now or not, it is
// not what the player chose.
bool room::fresh(const std::shared_ptr<peer>& c, const json& id, const std::optional<std::int64_t>& chosen,
                 std::int64_t current, std::string_view request, std::string_view subject, std::string_view newest) {
  if (!chosen || *chosen == current) return true;
  c->send(pr::make_error(id, pr::session_errc::stale_action,
                         fmt::format("this {} was chosen at seq {}, {} is at seq {}: nothing was done; choose again "
                                     "from the newest {}",
                                     request, *chosen, subject, current, newest)));
  return false;
}

void room::do_act(const std::shared_ptr<peer>& c, const pr::act_msg& m) {
  const int seat = acting_seat(c, m.id);
  if (seat < 0) return;
  if (status_ == status::drafting) {
    c->send(pr::make_error(m.id, pr::session_errc::match_not_started,
                           "the match has not started: the room is drafting; pick with draft_pick (draft.waiting says "
                           "who picks what)"));
    return;
  }
  if (status_ == status::waiting || status_ == status::starting) {
    c->send(pr::make_error(m.id, pr::session_errc::match_not_started));
    return;
  }
  if (status_ == status::finished && !match_.over()) {
    c->send(pr::make_error(m.id, pr::session_errc::internal_error, "this match was abandoned"));
    return;
  }
  if (!fresh(c, m.id, m.seq, seq_, "act", "the match", "state")) return;
  submit(m.for_seat(static_cast<seat_t>(seat)), c, m.id);
}

void room::concede_for(int seat, const std::string& why) {
  note(why);
  submit(action::concede_by(static_cast<seat_t>(seat)), nullptr, {});
}

void room::submit(const action& a, const std::shared_ptr<peer>& c, const json& id) {
  events_.clear();
  if (auto e = match_.apply(a, events_); e != rule_error::ok) {
    if (c) {
      c->send(pr::make_error(id, e));
      spdlog::info("room {}: seat {} action rejected: {}", p_.id, static_cast<int>(a.seat), error_name(e));
    }
    return;
  }
  applied_.push_back(a);
  const auto now = ex_->now_ms();
  auto out = std::make_shared<outgoing>();
  out->actor = c;
  out->id = id;
  out->seq = ++seq_;
  bot_position_moved();  // a bot decision for the position before is stale (room_bots.cpp)
  if (p_.options.clock) {
    if (match_.over()) {
      clock_stop(now);
    } else if (!clock_.runs(match_.active_seat(), match_.turn())) {
      clock_stop(now);
      out->clock = clock_turn_started(now);
    }
  }
  // hello.acks in_update: the actor's own update is its acknowledgement.
  build_updates(*out, c && c->acks_in_update() ? seat_of(c->id()) : -1, now);

  action_record rec;
  rec.seq = out->seq;
  rec.seat = a.seat;
  rec.action_json = pr::action_to_json(a).dump();
  rec.digest = match_.digest();
  rec.at_ms = svc_.env->wall_ms();
  write_failure failed{fmt::format("action {} of match {} was not saved", out->seq, match_id_),
                       "an action could not be saved", out->actor, out->id, "the action could not be saved"};
  persist([&](match_store::done_fn done) { svc_.store->append_action(match_id_, rec, std::move(done)); },
          std::move(failed), [this, out] { on_action_stored(out); });
}

void room::build_updates(outgoing& out, int ack_seat, std::int64_t now) const {
  const auto clock = clock_snapshot(now);
  out.acked_in_update = ack_seat >= 0;
  // hello.legal_actions: the engine's list, computed once, for the seats
  // whose clients asked (the others' lists are empty). The seats' clients
  // cannot change before the update is sent: requests wait while it is stored.
  std::vector<action> legal;
  bool listed = false;
  std::string seat_legal;
  for (std::size_t i = 0; i < seats_.size(); ++i) {
    const auto viewer = static_cast<seat_t>(i);
    const auto to = seats_[i].client.lock();
    const bool wants = to && to->wants_legal_actions();
    if (wants) {
      if (!std::exchange(listed, true)) match_.legal_actions(legal);
      // Only the active seat has plays to preview (R3.2.6: what each costs).
      seat_legal = pr::legal_actions_text(legal, viewer, pr::play_previews(match_, legal, viewer));
    }
    out.seat_updates.push_back(std::make_shared<const std::string>(
        pr::update_text(p_.id, out.seq, pr::events_to_json(events_, viewer, cards(), uid_cards_),
                        match_.view(viewer), cards(), clock, static_cast<int>(i) == ack_seat ? &out.id : nullptr,
                        wants ? &seat_legal : nullptr)));
  }
  if (!spectators_.empty() || feed_) {
    out.spectator_update = std::make_shared<const std::string>(
        pr::update_text(p_.id, out.seq, pr::events_to_json(events_, spectator, cards(), uid_cards_),
                        match_.view(spectator), cards(), clock));
    if (feed_) out.spectator_state = state_for(spectator);
  }
}

void room::on_action_stored(const std::shared_ptr<outgoing>& out) {
  svc_.stats->action();
  if (!out->acked_in_update)
    if (auto c = out->actor.lock()) c->send(pr::make_accepted(out->id, out->seq));
  for (std::size_t i = 0; i < seats_.size(); ++i)
    if (auto c = seats_[i].client.lock()) c->send(out->seat_updates[i]);
  // Spectators cannot arrive or go while the write is pending (their requests
  // wait in the backlog), so these are the ones the update was built for.
  if (out->spectator_update) send_spectator_update(out->spectator_update, out->spectator_state);
  if (out->clock) announce_clock(*out->clock);
  if (match_.over()) finish_match();
  else schedule_bot_move();
}

void room::send_spectator_update(const message_ptr& update, const message_ptr& state_after) {
  if (!feed_) return send_spectators(update);
  for (const auto& m : feed_->push(update, state_after)) send_spectators(m);
  // The match is over: nothing is left to hide.
  if (match_.over())
    for (const auto& m : feed_->flush()) send_spectators(m);
}

}  // namespace cod::server
