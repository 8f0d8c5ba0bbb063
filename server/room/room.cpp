// The room's core: construction, the request queue that holds requests back
// while a store write is pending, and what every part of the room sends
// (states, broadcasts, the lobby summary). The parts are listed in room.hpp.
#include "room/room.hpp"

#include <algorithm>
#include <utility>

#include "cod/protocol/json_codec.hpp"
#include "cod/protocol/legal_actions.hpp"
#include "common/sha256.hpp"
#include "replay/match_cards.hpp"
#include "room/room_registry.hpp"

namespace cod::server {

namespace pr = cod::protocol;
using nlohmann::json;

namespace {
pr::room_status wire_status(int s) {
  // waiting, starting, playing, finished, drafting
  if (s == 0) return pr::room_status::waiting;
  if (s == 3) return pr::room_status::finished;
  if (s == 4) return pr::room_status::drafting;
  return pr::room_status::playing;
}
}  // namespace

room::room(room_services& svc, std::shared_ptr<serial_executor> ex, params p)
    : svc_(svc), ex_(std::move(ex)), p_(std::move(p)), seed_hash_(seed_commitment(p_.seed)), bot_rng_(svc.env->random_u64()) {
  seats_.resize(static_cast<std::size_t>(std::clamp(p_.options.seats, 1, max_seats)));
  for (std::size_t i = 0; i < seats_.size(); ++i)
    if (is_ai_seat(p_.mode, static_cast<seat_t>(i))) make_ai_seat(seats_[i]);
  clock_ = turn_clock(seats_.size(), p_.options.clock ? p_.options.clock->increment_ms : 0);
  if (!p_.cards.empty()) {
    cards_json_ = match_cards_json(p_.cards);
    if (auto own = match_catalogue(*svc_.cat, cards_json_)) own_cards_ = std::move(*own);
    else cards_error_ = own.error().message();
    cards_shown_ = json::parse(cards_json_, nullptr, false);
  }
  publish_summary();
}

room::~room() = default;

// ---------------------------------------------------------------------------
// Requests: posted to the executor, held back while a store write is pending.

void room::run(std::shared_ptr<peer> c, json id, task t) {
  ex_->post([self = shared_from_this(), c = std::move(c), id = std::move(id), t = std::move(t)]() mutable {
    if (self->moved_) {
      // Another node runs the room: the client reconnects through the proxy.
      if (c) c->close(pr::close_code::going_away, "room moved to another node: reconnect");
      return;
    }
    if (!self->busy_) {
      t();
      return;
    }
    if (c && self->backlog_.size() >= static_cast<std::size_t>(self->svc_.cfg.max_room_backlog)) {
      c->send(pr::make_error(id, pr::session_errc::server_busy));
      return;
    }
    self->backlog_.push_back(std::move(t));
  });
}

void room::drain() {
  if (moved_) backlog_.clear();  // its clients' connections are closed
  while (!busy_ && !backlog_.empty()) {
    task t = std::move(backlog_.front());
    backlog_.pop_front();
    t();
  }
}

void room::join(std::shared_ptr<peer> c, pr::join_msg m) {
  auto id = m.id;
  run(c, std::move(id), [self = shared_from_this(), c, m = std::move(m)] { self->do_join(c, m); });
}
void room::resume(std::shared_ptr<peer> c, pr::resume_msg m) {
  auto id = m.id;
  run(c, std::move(id), [self = shared_from_this(), c, m = std::move(m)] { self->do_resume(c, m); });
}
void room::spectate(std::shared_ptr<peer> c, pr::spectate_msg m) {
  auto id = m.id;
  run(c, std::move(id), [self = shared_from_this(), c, m = std::move(m)] { self->do_spectate(c, m); });
}
void room::act(std::shared_ptr<peer> c, pr::act_msg m) {
  auto id = m.id;
  run(c, std::move(id), [self = shared_from_this(), c, m = std::move(m)] { self->do_act(c, m); });
}
void room::leave(std::shared_ptr<peer> c, pr::leave_msg m) {
  auto id = m.id;
  run(c, std::move(id), [self = shared_from_this(), c, m = std::move(m)] { self->do_leave(c, m); });
}
void room::history(std::shared_ptr<peer> c, pr::history_msg m) {
  auto id = m.id;
  run(c, std::move(id), [self = shared_from_this(), c, m = std::move(m)] { self->do_history(c, m); });
}
void room::disconnected(std::shared_ptr<peer> c) {
  run(nullptr, {}, [self = shared_from_this(), c] { self->do_disconnected(c); });
}

// ---------------------------------------------------------------------------
// What every part sends.

std::optional<json> room::legal_actions_for(int seat, const peer* to) const {
  if (!to || !to->wants_legal_actions() || seat < 0 || seat >= static_cast<int>(seats_.size())) return std::nullopt;
  std::vector<action> legal;
  match_.legal_actions(legal);
  const auto previews = pr::play_previews(match_, legal, static_cast<seat_t>(seat));
  return pr::legal_actions_to_json(legal, static_cast<seat_t>(seat), previews);
}

message_ptr room::state_for(seat_t viewer, const peer* to) const {
  json s = pr::make_state(p_.id, seq_, seed_hash_, pr::view_to_json(match_.view(viewer), cards()),
                          clock_snapshot(ex_->now_ms()), std::nullopt,
                          viewer == spectator ? std::nullopt : legal_actions_for(viewer, to));
  // R14.6, RULING E82: every seat's deck list is public once the match
  // starts, in every format; a client that reconnects or arrives later must
  // see them too, so every state of the match carries them (a constructed
  // seat's join list as stored; otherwise the seat's deck as the match has
  // it). The lists stay secret while the room waits for players.
  json decks = json::array();
  for (std::size_t i = 0; i < seats_.size(); ++i) {
    if (seats_[i].deck.empty()) continue;  // an AI seat of solo/co-op: the engine's own deck (E66)
    const json d = json::parse(seats_[i].deck_json, nullptr, false);
    json ids = json::array();
    if (d.is_object() && d.contains("cards")) ids = d["cards"];
    else
      for (card_id c : seats_[i].deck) ids.push_back(cards().def(c).id);
    decks.push_back({{"seat", i}, {"cards", std::move(ids)}});
  }
  if (!decks.empty()) s["decks"] = std::move(decks);
  add_own_cards(s);
  return to_message(s);
}

// R15: a match with its own (mutated) cards shows their definitions to
// everyone from the first state on, as R14.6 reveals constructed lists.
void room::add_own_cards(json& state) const {
  if (cards_shown_.is_array()) state["cards"] = cards_shown_;
}

void room::broadcast(const json& j, std::uint64_t except_conn) {
  auto m = to_message(j);
  for (auto& s : seats_)
    if (s.conn != except_conn)
      if (auto c = s.client.lock()) c->send(m);
  for (auto& w : spectators_)
    if (w.conn != except_conn)
      if (auto c = w.client.lock()) c->send(m);
}

void room::send_seats(const message_ptr& m) {
  for (auto& s : seats_)
    if (auto c = s.client.lock()) c->send(m);
}

void room::send_spectators(const message_ptr& m) {
  for (auto& w : spectators_)
    if (auto c = w.client.lock()) c->send(m);
}

void room::note(const std::string& text) {
  if (!match_id_.empty()) svc_.store->append_note(match_id_, svc_.env->wall_ms(), text);
}

// ---------------------------------------------------------------------------
// The lobby's view of the room.

void room::publish_summary() {
  pr::room_summary r;
  r.room = p_.id;
  r.mode = p_.mode;
  r.format = p_.format;
  r.options = p_.options;
  r.status = wire_status(static_cast<int>(status_));
  // R13.1: Champions are revealed together, once the match has started; in
  // a drafted room when the draft starts, without them in the pool (RULING E67).
  const bool reveal = status_ == status::playing || status_ == status::finished || status_ == status::drafting;
  for (std::size_t i = 0; i < seats_.size(); ++i)
    r.seats.push_back({static_cast<int>(i), seats_[i].taken, seats_[i].played_by_server() || seats_[i].conn != 0,
                       seats_[i].name, reveal ? seats_[i].champion_id : std::string(), seats_[i].ai, seats_[i].bot,
                       seats_[i].bot ? seats_[i].level : 0});
  r.spectators = static_cast<int>(spectators_.size());
  {
    std::lock_guard lock(summary_mutex_);
    summary_ = std::move(r);
  }
  if (auto reg = registry_.lock()) {
    reg->status_is(this, wire_status(static_cast<int>(status_)), vacant());
    reg->summary_changed();
    if (status_ == status::finished && !reported_finished_) {
      reported_finished_ = true;
      reg->finished(shared_from_this());
    }
  }
}

pr::room_summary room::summary() const {
  std::lock_guard lock(summary_mutex_);
  return summary_;
}

}  // namespace cod::server
