// A room's life: its timers start; every seat taken, the match is set up,
// stored and begins; it finishes with a result, or ends without one (the
// server could not go on, the tournament voided it, a draft was abandoned);
// the room lingers as a finished room, then closes.
#include <algorithm>
#include <utility>

#include <spdlog/spdlog.h>

#include "cod/protocol/json_codec.hpp"
#include "cod/protocol/wire_names.hpp"
#include "common/metrics.hpp"
#include "room/match_id.hpp"
#include "room/room.hpp"
#include "room/room_registry.hpp"

namespace cod::server {

namespace pr = cod::protocol;
using nlohmann::json;

void room::start(std::weak_ptr<room_registry> registry) {
  run(nullptr, {}, [self = shared_from_this(), registry = std::move(registry)] {
    self->registry_ = registry;
    self->publish_summary();  // a recovered finished room becomes evictable
    // A tournament room waits for its players as long as the round lasts
    // (a no-show is the organiser's call: a game loss).
    if (self->status_ == status::waiting && self->p_.reserved.empty())
      self->expire_after(self->svc_.cfg.waiting_room_ttl_sec);
    // A queue's room waits the grace period for its players (those told
    // `matched` on another node come with their seat token); one that does
    // not come closes it, and the others queue again (docs/queue.md).
    else if (self->status_ == status::waiting && !self->p_.reserved_players.empty())
      self->expire_after(self->svc_.cfg.grace_period_sec);
    if (self->recovered_) self->start_recovered();
  });
}

void room::start_recovered() {
  if (status_ == status::finished) {
    // A match that had ended before the restart: it stays for resumes as
    // long as a finished room would have (counted from its stored end).
    const int ttl = svc_.cfg.finished_room_ttl_sec;
    const std::int64_t left_ms = std::int64_t{ttl} * 1000 - (svc_.env->wall_ms() - ended_ms_);
    expire_after(static_cast<int>(std::clamp<std::int64_t>((left_ms + 999) / 1000, 1, std::max(1, ttl))));
    return;
  }
  // A recovered match: every seat has the grace period to resume; the
  // clock restarts for the seat whose turn it is.
  for (std::size_t i = 0; i < seats_.size(); ++i)
    if (!seats_[i].played_by_server()) seat_left(static_cast<int>(i), true);
  if (status_ == status::drafting) {  // the draft waits for its seats to resume; a bot's turn comes again
    schedule_bot_draft_pick();
    return;
  }
  if (match_.over()) {
    // The last action ended the match but its result was not stored.
    finish_match();
  } else {
    if (p_.options.clock) clock_turn_started(ex_->now_ms(), true);
    schedule_bot_move();
  }
}

// ---------------------------------------------------------------------------
// The match begins.

// The room's options as the engine takes them; the decks are the caller's.
match_config room::base_match_config(std::uint64_t seed) const {
  match_config cfg;
  cfg.mode = p_.mode;
  cfg.seat_count = static_cast<int>(seats_.size());
  cfg.exhaustion_rule = p_.options.exhaustion;
  cfg.stall_exhaustion_turn = p_.options.stall_exhaustion_turn;  // R17.25
  cfg.share_team_hands = p_.options.share_team_hands;
  cfg.seed = seed;
  cfg.difficulty = p_.options.difficulty;  // R12.8 (solo, coop; 0 elsewhere)
  cfg.ai = p_.options.ai;
  return cfg;
}

// Solo, coop: what create() did (the AI's opening turn with ai_first) is
// kept for the first state (on_match_created). False (the room abandoned)
// when the engine refuses: the room checked everything before, so a bug.
bool room::create_engine_match(const match_config& cfg) {
  opening_events_.clear();
  if (auto e = match::create(cards(), cfg, match_, opening_events_); e != rule_error::ok) {
    spdlog::error("room {}: the engine refused to start the match: {}", p_.id, error_name(e));
    abandon("the match could not be set up");
    return false;
  }
  uid_cards_ = pr::uid_cards_from_view(match_.view(referee));
  start_ = match_;
  start_events_ = opening_events_;
  applied_.clear();
  return true;
}

void room::start_match() {
  if (!cards_error_.empty()) {
    spdlog::error("room {}: the match's own cards are refused: {}", p_.id, cards_error_);
    abandon("the match's own cards are invalid");
    return;
  }
  status_ = status::starting;
  match_config cfg = base_match_config(p_.seed);
  for (std::size_t i = 0; i < seats_.size(); ++i) {
    if (seats_[i].ai) {
      // RULING E41: the preconstructed decks its human did not pick; kept in
      // the seat's deck_json so that the record alone rebuilds the match.
      const auto& owner = seats_[static_cast<std::size_t>(pr::ai_deck_owner(p_.mode, static_cast<int>(i)))];
      seats_[i].deck = solo_ai_deck(cards(), owner.preconstructed);
      json ids = json::array();
      for (card_id c : seats_[i].deck) ids.push_back(cards().def(c).id);
      seats_[i].deck_json = json{{"cards", std::move(ids)}}.dump();
    }
    cfg.decks[i] = seats_[i].deck;
    cfg.champions[i] = seats_[i].champion;
  }
  if (!create_engine_match(cfg)) return;
  match_id_ = make_match_id(p_.id, *svc_.env);
  const match_record rec = make_record();
  publish_summary();
  write_failure failed;
  failed.what = "match " + match_id_ + " could not be created";
  failed.abandon_why = "the match could not be saved";
  persist([&](match_store::done_fn done) { svc_.store->create_match(rec, std::move(done)); }, std::move(failed),
          [this] { on_match_created(); });
}

match_record room::make_record() const {
  match_record rec;
  rec.match_id = match_id_;
  rec.room_id = p_.id;
  rec.mode = std::string(game_mode_name(p_.mode));
  rec.format = std::string(pr::deck_format_name(p_.format));
  rec.options_json = pr::room_options_to_json(p_.options, p_.mode).dump();
  rec.rules_version = rules_version;
  rec.engine_version = engine_version;
  rec.seed = p_.seed;
  rec.seed_hash = seed_hash_;
  rec.created_ms = svc_.env->wall_ms();
  rec.cards_json = cards_json_;
  rec.rated = p_.rated;
  for (std::size_t i = 0; i < seats_.size(); ++i) {
    seat_record sr;
    sr.seat = static_cast<int>(i);
    sr.name = seats_[i].name;
    sr.token_hash = seats_[i].token_hash;
    sr.deck_json = seats_[i].deck_json;
    sr.team = pr::seat_team(p_.mode, sr.seat);
    sr.champion = seats_[i].champion_id;
    sr.ai = seats_[i].ai;  // no token: nobody can resume it
    sr.account_id = seats_[i].account_id;
    rec.seats.push_back(std::move(sr));
  }
  return rec;
}

void room::on_match_created() {
  match_row_ = true;
  status_ = status::playing;
  svc_.stats->matches_started_total++;
  if (expiry_) ex_->cancel(std::exchange(expiry_, 0));
  std::string names;
  for (std::size_t i = 0; i < seats_.size(); ++i) {
    if (i) names += " vs ";
    names += '\'';
    names += seats_[i].name;
    names += '\'';
  }
  spdlog::info("room {}: match {} started: {} (seed hash {})", p_.id, match_id_, names, seed_hash_);
  std::optional<json> clock_msg;
  const auto now = ex_->now_ms();
  if (p_.options.clock) {
    clock_.fill(p_.options.clock->bank_ms);
    clock_msg = clock_turn_started(now);
  }
  send_first_states(now);
  if (clock_msg) announce_clock(*clock_msg);
  if (hooks_.started) hooks_.started(p_.id, match_id_);
  // Seats that dropped while the match was being created get their grace now.
  for (std::size_t i = 0; i < seats_.size(); ++i)
    if (!seats_[i].played_by_server() && seats_[i].conn == 0 && !seats_[i].grace) seat_left(static_cast<int>(i), true);
  publish_summary();
  schedule_bot_move();
}

// Solo, coop: the state at match start carries create()'s events (the AI's
// opening turn with ai_first), each recipient's redaction; later states
// (resume, spectate) have only the view.
void room::send_first_states(std::int64_t now) {
  const auto* mode_info = pr::find_offered_mode(p_.mode);
  const bool opening = mode_info && mode_info->ai;
  auto first_state = [&](seat_t viewer, const peer* to) {
    if (!opening) return state_for(viewer, to);
    json s = pr::make_state(p_.id, seq_, seed_hash_, pr::view_to_json(match_.view(viewer), cards()),
                            clock_snapshot(now), pr::events_to_json(opening_events_, viewer, cards(), uid_cards_),
                            viewer == spectator ? std::nullopt : legal_actions_for(viewer, to));
    add_own_cards(s);
    return to_message(s);
  };
  for (std::size_t i = 0; i < seats_.size(); ++i)
    if (auto c = seats_[i].client.lock()) c->send(first_state(static_cast<seat_t>(i), c.get()));
  if (!spectators_.empty() || feed_) {
    auto m = first_state(spectator, nullptr);
    if (feed_) feed_->start(m);
    send_spectators(m);
  }
  opening_events_.clear();
}

// ---------------------------------------------------------------------------
// The match ends with a result.

void room::finish_match() {
  match_result r;
  r.winners = winner_seats(match_.winners());
  r.reason = std::string(pr::end_reason_name(match_.view(referee).reason));
  r.ended_ms = svc_.env->wall_ms();
  // A result that is not stored does not stop the room: the match is over.
  write_failure failed;
  failed.what = "the result of match " + match_id_ + " was not saved";
  persist([&](match_store::done_fn done) { svc_.store->finish_match(match_id_, r, std::move(done)); },
          std::move(failed), [this] { on_match_finished(); });
}

void room::on_match_finished() {
  status_ = status::finished;
  svc_.stats->matches_finished_total++;
  clock_stop(ex_->now_ms());
  cancel_grace_timers();
  const auto reason = match_.view(referee).reason;
  const std::vector<int> winners = winner_seats(match_.winners());
  std::string listed;
  for (int s : winners) {
    if (!listed.empty()) listed += ", ";
    listed += std::to_string(s);
  }
  spdlog::info("room {}: match {} ended after {} actions: winners [{}], reason {}", p_.id, match_id_, seq_, listed,
               pr::end_reason_name(reason));
  // Counted as finished before anyone hears so: a player who reads
  // match_over and creates a room at once must find its place free.
  publish_summary();
  broadcast(pr::make_match_over(p_.id, match_.winners(), reason, p_.seed));
  expire_after(svc_.cfg.finished_room_ttl_sec);
  if (hooks_.finished) hooks_.finished(p_.id, match_id_, winners);
}

// Someone arriving after the end (a reload, a late spectator) gets the
// match_over the others got, with the revealed seed to verify the match by.
void room::send_result_if_over(peer& c) const {
  if (status_ != status::finished || !match_.over()) return;
  c.send(pr::make_match_over(p_.id, match_.winners(), match_.view(referee).reason, p_.seed));
}

// ---------------------------------------------------------------------------
// The match ends without a result.

void room::abandon(const std::string& why) {
  if (match_id_.empty()) spdlog::error("room {}: abandoned before its match was created: {}", p_.id, why);
  else spdlog::error("room {}: match {} abandoned: {}", p_.id, match_id_, why);
  end_without_result("aborted", why);
  linger_after(why);
}

void room::abandon_draft() {
  // A tournament room waits for its players as long as the round lasts: the
  // organiser decides (a game loss, a re-pairing), as for a no-show.
  if (!p_.reserved.empty() || hooks_.finished) return;
  std::string why = "every seat was disconnected for longer than the grace period (";
  why += std::to_string(svc_.cfg.grace_period_sec);
  why += " s) during the draft";
  spdlog::info("room {}: match {} abandoned after {} draft records: {}", p_.id, match_id_, draft_seq_, why);
  end_without_result("abandoned", why);
  publish_summary();
  close_room("the draft was abandoned");
}

// docs/persistence.md, "A match the server stops": the record says how the
// match ended ("aborted", "voided", "abandoned"), so that a restart does not
// bring back a match its players were told had ended. When the store is
// failing this write fails too; the row then stays "playing" and a restart
// resumes the match from its last stored action (nothing accepted is lost
// either way).
void room::end_without_result(const char* reason, const std::string& why) {
  if (match_row_) {
    note(why);
    match_result r;
    r.reason = reason;
    r.ended_ms = svc_.env->wall_ms();
    svc_.store->finish_match(match_id_, r, [id = match_id_, room_id = p_.id, reason](const server::status& st) {
      if (!st)
        spdlog::warn("room {}: match {} stays 'playing' in the store (its end, {}, was not saved): a restart resumes it",
                     room_id, id, reason);
    });
  }
  status_ = status::finished;
  clock_stop(ex_->now_ms());
  cancel_grace_timers();
}

void room::linger_after(const std::string& why) {
  broadcast(pr::make_error(json(), pr::session_errc::internal_error, why));
  publish_summary();
  expire_after(svc_.cfg.finished_room_ttl_sec);
}

// ---------------------------------------------------------------------------
// Timers and closing.

void room::shutdown() {
  ex_->post([self = shared_from_this()] {
    self->stopping_ = true;
    self->cancel_grace_timers();
    if (self->clock_timer_) self->ex_->cancel(std::exchange(self->clock_timer_, 0));
    self->stop_bot_turn();
    if (self->expiry_) self->ex_->cancel(std::exchange(self->expiry_, 0));
  });
}

void room::evict() {
  run(nullptr, {}, [self = shared_from_this()] {
    if (self->expiry_) self->ex_->cancel(std::exchange(self->expiry_, 0));
    self->close_room("evicted: more finished rooms than max_rooms");
  });
}

void room::move_away(std::string why, std::function<void()> then) {
  run(nullptr, {}, [self = shared_from_this(), why = std::move(why), then = std::move(then)] {
    self->do_move_away(why);
    if (then) then();
  });
}

void room::do_move_away(const std::string& why) {
  if (moved_) return;
  moved_ = true;
  stopping_ = true;
  cancel_grace_timers();
  if (clock_timer_) ex_->cancel(std::exchange(clock_timer_, 0));
  stop_bot_turn();
  if (expiry_) ex_->cancel(std::exchange(expiry_, 0));
  // Closing the connection (not `left`): the client reconnects and resumes
  // its seat with its token, as after any dropped connection.
  const auto close = [this](std::weak_ptr<peer>& w) {
    if (auto c = w.lock()) {
      c->detach(this);
      c->close(pr::close_code::going_away, "room moved to another node: reconnect");
    }
  };
  for (auto& s : seats_) close(s.client);
  for (auto& w : spectators_) close(w.client);
  spectators_.clear();
  spdlog::info("room {}: moved away ({})", p_.id, why);
  if (auto reg = registry_.lock()) reg->remove(p_.id, this);
}

void room::creator_left() {
  run(nullptr, {}, [self = shared_from_this()] {
    self->creator_gone_ = true;
    if (self->status_ != status::waiting || self->stopping_) return;
    self->publish_summary();  // it may have become vacant
    for (const auto& s : self->seats_)
      if (s.taken && !s.played_by_server()) return;
    self->expire_after(self->svc_.cfg.unjoined_room_ttl_sec);
    self->unjoined_expiry_ = true;
  });
}

void room::evict_vacant() {
  run(nullptr, {}, [self = shared_from_this()] {
    if (self->status_ != status::waiting || self->stopping_) {
      // Its match started meanwhile (its players came back): it stays, and
      // counts again.
      if (auto reg = self->registry_.lock()) reg->count_again(*self);
      return;
    }
    if (self->expiry_) self->ex_->cancel(std::exchange(self->expiry_, 0));
    self->close_room("its place was given to a new room from the same address (nobody was in it)");
  });
}

bool room::vacant() const {
  if (status_ != status::waiting || !p_.reserved.empty() || !(creator_gone_ || emptied_)) return false;
  for (const auto& s : seats_)
    if (s.taken && !s.played_by_server() && s.conn != 0) return false;
  return true;
}

void room::note_if_emptied() {
  if (status_ != status::waiting || stopping_ || !p_.reserved.empty()) return;
  for (const auto& s : seats_)
    if (s.taken && !s.played_by_server()) return;
  emptied_ = true;
  expire_after(svc_.cfg.unjoined_room_ttl_sec);
  unjoined_expiry_ = true;
}

void room::expire_after(int seconds) {
  if (stopping_) return;
  if (expiry_) ex_->cancel(expiry_);
  std::weak_ptr<room> weak = weak_from_this();
  const auto expected = status_;
  expiry_ = ex_->schedule(std::chrono::seconds(seconds), [weak, expected] {
    if (auto self = weak.lock()) {
      self->run(nullptr, {}, [self, expected] {
        self->expiry_ = 0;
        self->unjoined_expiry_ = false;
        if (self->stopping_ || self->status_ != expected) return;
        self->close_room(expected == status::waiting ? "the match never started" : "finished");
      });
    }
  });
}

void room::close_room(const std::string& why) {
  cancel_grace_timers();
  const auto left = to_message(pr::make_left(json(), p_.id));
  for (auto& s : seats_) {
    if (auto c = s.client.lock()) {
      c->detach(this);
      c->send(left);
    }
  }
  for (auto& w : spectators_) {
    if (auto c = w.client.lock()) {
      c->detach(this);
      c->send(left);
    }
  }
  spectators_.clear();
  if (clock_timer_) ex_->cancel(std::exchange(clock_timer_, 0));
  stop_bot_turn();
  spdlog::info("room {}: closed ({})", p_.id, why);
  if (auto reg = registry_.lock()) reg->remove(p_.id, this);
}

}  // namespace cod::server
