#include "room/room.hpp"

#include <algorithm>
#include <utility>

#include <spdlog/spdlog.h>

#include "cod/protocol/json_codec.hpp"
#include "cod/protocol/wire_names.hpp"
#include "common/constant_time.hpp"
#include "common/metrics.hpp"
#include "common/random.hpp"
#include "common/sha256.hpp"
#include "replay/recovery.hpp"
#include "room/client_session.hpp"
#include "room/room_registry.hpp"

namespace cod::server {

namespace pr = cod::protocol;
using nlohmann::json;
using std::chrono::milliseconds;

// The messages of one accepted action, built when it is applied (each
// recipient's view after exactly this action) and sent once it is durable.
struct room::outgoing {
  std::weak_ptr<client_session> actor;
  json id;
  std::int64_t seq = 0;
  std::vector<message_ptr> seat_updates;  // by seat
  message_ptr spectator_update;           // one string for every spectator
  message_ptr spectator_state;            // with a spectator delay: the state after it
  std::optional<json> clock;              // a new turn's clock message
  bool acked_in_update = false;           // the actor's update carries its id: no `accepted`
};

namespace {
message_ptr to_message(const json& j) { return std::make_shared<const std::string>(j.dump()); }

pr::room_status wire_status(int s) {
  // waiting, starting, playing, finished, drafting
  if (s == 0) return pr::room_status::waiting;
  if (s == 3) return pr::room_status::finished;
  if (s == 4) return pr::room_status::drafting;
  return pr::room_status::playing;
}
}  // namespace

room::room(room_services& svc, std::shared_ptr<serial_executor> ex, params p)
    : svc_(svc), ex_(std::move(ex)), p_(std::move(p)), seed_hash_(seed_commitment(p_.seed)) {
  seats_.resize(static_cast<std::size_t>(std::clamp(p_.options.seats, 1, max_seats)));
  for (std::size_t i = 0; i < seats_.size(); ++i)
    if (is_ai_seat(p_.mode, static_cast<seat_t>(i))) make_ai_seat(seats_[i]);
  publish_summary();
}

room::~room() = default;

void room::start(std::weak_ptr<room_registry> registry) {
  run(nullptr, {}, [self = shared_from_this(), registry = std::move(registry)] {
    self->registry_ = registry;
    self->publish_summary();  // a recovered finished room becomes evictable
    // A tournament room waits for its players as long as the round lasts
    // (a no-show is the organiser's call: a game loss).
    if (self->status_ == status::waiting && self->p_.reserved.empty())
      self->expire_after(self->svc_.cfg.waiting_room_ttl_sec);
    if (!self->recovered_) return;
    if (self->status_ == status::finished) {
      // A match that had ended before the restart: it stays for resumes as
      // long as a finished room would have (counted from its stored end).
      const std::int64_t left_ms =
          std::int64_t{self->svc_.cfg.finished_room_ttl_sec} * 1000 - (self->svc_.wall_ms() - self->ended_ms_);
      self->expire_after(static_cast<int>(
          std::clamp<std::int64_t>((left_ms + 999) / 1000, 1, std::max(1, self->svc_.cfg.finished_room_ttl_sec))));
      return;
    }
    // A recovered match: every seat has the grace period to resume; the
    // clock restarts for the seat whose turn it is.
    for (std::size_t i = 0; i < self->seats_.size(); ++i)
      if (!self->seats_[i].ai) self->seat_left(static_cast<int>(i), true);
    if (self->status_ == status::drafting) return;  // the draft waits for its seats to resume
    if (self->match_.over()) {
      // The last action ended the match but its result was not stored.
      self->finish_match();
    } else if (self->p_.options.clock) {
      self->clock_turn_started(self->ex_->now_ms(), true);
    }
  });
}

std::shared_ptr<room> room::recover(room_services& svc, std::shared_ptr<serial_executor> ex,
                                   const stored_match& sm, std::string& error) {
  const auto& rec = sm.match;
  params p;
  p.id = rec.room_id;
  if (auto mode = game_mode_from_name(rec.mode)) {
    p.mode = *mode;
  } else {
    error = "unknown mode ";
    error += rec.mode;
    return nullptr;
  }
  if (auto f = pr::deck_format_from_name(rec.format)) {
    p.format = *f;
  } else {
    error = "unknown format ";
    error += rec.format;
    return nullptr;
  }
  const auto options = json::parse(rec.options_json, nullptr, false);
  if (options.is_discarded()) {
    error = "options_json is not JSON";
    return nullptr;
  }
  if (auto e = pr::room_options_from_json(options, p.options)) {
    error = "options_json: ";
    error += e->message;
    return nullptr;
  }
  p.options.seats = static_cast<int>(rec.seats.size());
  p.seed = rec.seed;
  if (seed_commitment(rec.seed) != rec.seed_hash) {
    error = "the seed does not match its commitment";
    return nullptr;
  }
  auto rb = rebuild(*svc.cat, sm);
  if (!rb.ok) {
    error = rb.error;
    return nullptr;
  }

  auto r = std::make_shared<room>(svc, std::move(ex), std::move(p));
  for (const auto& s : rec.seats) {
    if (s.seat < 0 || s.seat >= static_cast<int>(r->seats_.size())) {
      error = "bad seat number";
      return nullptr;
    }
    auto& seat = r->seats_[static_cast<std::size_t>(s.seat)];
    seat.taken = true;
    seat.name = s.name;
    seat.token_hash = s.token_hash;
    seat.deck_json = s.deck_json;
    seat.champion_id = s.champion;
    if (auto id = svc.cat->find(s.champion)) seat.champion = *id;
  }
  r->match_id_ = rec.match_id;
  r->recovered_ = true;
  r->match_row_ = true;
  if (rb.drafted) {
    r->draft_ = std::move(rb.draft);
    r->draft_seq_ = static_cast<std::int64_t>(sm.draft.size());
  }
  if (rb.drafting && sm.finished()) {
    error = "its draft never finished (reason ";
    error += sm.result->reason;
    error += ")";
    return nullptr;
  }
  if (rb.drafting) {
    // Stopped mid-draft: the draft goes on from its last stored pick.
    r->status_ = status::drafting;
    r->publish_summary();
    return r;
  }
  r->match_ = std::move(rb.m);
  r->seq_ = rb.seq;
  r->uid_cards_ = pr::uid_cards_from_view(r->match_.view(referee));
  r->status_ = status::playing;

  // The turn clock: each seat's bank as the log's timestamps leave it (the
  // time the server was down is not charged to anyone).
  if (r->p_.options.clock) {
    match_config cfg;
    std::string e;
    match m;
    std::vector<event> ev;
    const bool configured = config_from_record(*svc.cat, rec, cfg, e);
    if (configured && r->draft_) {
      for (std::size_t i = 0; i < r->seats_.size(); ++i) cfg.decks[i] = r->draft_->decks()[i];
      cfg.seed = r->draft_->match_seed();  // RULING E62
    }
    if (configured && match::create(*svc.cat, cfg, m, ev) == rule_error::ok) {
      const auto bank = r->p_.options.clock->bank_ms, inc = r->p_.options.clock->increment_ms;
      for (auto& s : r->seats_) s.bank_ms = bank;
      seat_t running = m.active_seat();
      int turn = m.turn();
      std::int64_t since = rec.created_ms;
      r->seats_[static_cast<std::size_t>(running)].bank_ms += inc;
      for (const auto& a : sm.actions) {
        auto parsed = pr::parse_action_text(a.action_json, static_cast<seat_t>(a.seat));
        ev.clear();
        if (!parsed.ok() || m.apply(parsed.value, ev) != rule_error::ok) break;
        if (m.over() || m.active_seat() != running || m.turn() != turn) {
          auto& b = r->seats_[static_cast<std::size_t>(running)].bank_ms;
          b = std::max<std::int64_t>(0, b - (a.at_ms - since));
          if (m.over()) break;
          running = m.active_seat();
          turn = m.turn();
          since = a.at_ms;
          r->seats_[static_cast<std::size_t>(running)].bank_ms += inc;
        }
      }
      if (!m.over() && !sm.actions.empty()) {
        auto& b = r->seats_[static_cast<std::size_t>(running)].bank_ms;
        b = std::max<std::int64_t>(0, b - (sm.actions.back().at_ms - since));
      }
    }
  }
  if (sm.finished()) {
    // Ended before the restart (docs/protocol.md, "Reconnecting"): a finished
    // room, as the match left it, that resumes and spectators find with
    // their final state and match_over (the seed revealed). Only a match the
    // game ended: one stopped by the server (aborted, voided, abandoned,
    // recovery_failed) has no match_over to show.
    if (!r->match_.over()) {
      error = "it ended without a game over (reason ";
      error += sm.result->reason;
      error += ")";
      return nullptr;
    }
    r->status_ = status::finished;
    r->ended_ms_ = sm.result->ended_ms;
  }
  r->publish_summary();
  return r;
}

// ---------------------------------------------------------------------------
// Requests: posted to the executor, held back while a store write is pending.

void room::run(std::shared_ptr<client_session> c, json id, task t) {
  ex_->post([self = shared_from_this(), c = std::move(c), id = std::move(id), t = std::move(t)]() mutable {
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
  while (!busy_ && !backlog_.empty()) {
    task t = std::move(backlog_.front());
    backlog_.pop_front();
    t();
  }
}

void room::join(std::shared_ptr<client_session> c, pr::join_msg m) {
  auto id = m.id;
  run(c, std::move(id), [self = shared_from_this(), c, m = std::move(m)] { self->do_join(c, m); });
}
void room::resume(std::shared_ptr<client_session> c, pr::resume_msg m) {
  auto id = m.id;
  run(c, std::move(id), [self = shared_from_this(), c, m = std::move(m)] { self->do_resume(c, m); });
}
void room::spectate(std::shared_ptr<client_session> c, pr::spectate_msg m) {
  auto id = m.id;
  run(c, std::move(id), [self = shared_from_this(), c, m = std::move(m)] { self->do_spectate(c, m); });
}
void room::act(std::shared_ptr<client_session> c, pr::act_msg m) {
  auto id = m.id;
  run(c, std::move(id), [self = shared_from_this(), c, m = std::move(m)] { self->do_act(c, m); });
}
void room::leave(std::shared_ptr<client_session> c, pr::leave_msg m) {
  auto id = m.id;
  run(c, std::move(id), [self = shared_from_this(), c, m = std::move(m)] { self->do_leave(c, m); });
}
void room::disconnected(std::shared_ptr<client_session> c) {
  run(nullptr, {}, [self = shared_from_this(), c] { self->do_disconnected(c); });
}

void room::shutdown() {
  ex_->post([self = shared_from_this()] {
    self->stopping_ = true;
    for (auto& s : self->seats_) {
      if (s.grace) self->ex_->cancel(std::exchange(s.grace, 0));
    }
    if (self->clock_timer_) self->ex_->cancel(std::exchange(self->clock_timer_, 0));
    if (self->expiry_) self->ex_->cancel(std::exchange(self->expiry_, 0));
  });
}

// ---------------------------------------------------------------------------

void room::do_join(const std::shared_ptr<client_session>& c, const pr::join_msg& m,
                   const std::string* reserved_token) {
  if (seat_of(c->id()) >= 0 || is_spectator(c->id())) {
    c->send(pr::make_error(m.id, pr::session_errc::already_in_room));
    return;
  }
  // A refused join leaves the connection free: detached before the reply
  // goes out, since a client may send its next join as soon as it reads it
  // (else that join could meet already_in_room).
  auto refuse = [&](pr::session_errc code) {
    c->detach(this);
    c->send(pr::make_error(m.id, code));
  };
  if (!p_.reserved.empty() && !reserved_token) {
    c->detach(this);
    c->send(pr::make_error(m.id, pr::session_errc::room_full,
                           "this room's seats are reserved for tournament players (tournament_join)"));
    return;
  }
  if (status_ != status::waiting) return refuse(pr::session_errc::room_full);
  const int n = static_cast<int>(seats_.size());
  int seat = -1;
  if (m.seat) {
    if (*m.seat < 0 || *m.seat >= n) return refuse(pr::session_errc::no_such_seat);
    if (seats_[*m.seat].ai) return refuse(pr::session_errc::ai_seat);
    if (seats_[*m.seat].taken) return refuse(pr::session_errc::seat_taken);
    seat = *m.seat;
  } else {
    for (int s = 0; s < n && seat < 0; ++s)
      if (!seats_[s].taken) seat = s;
    if (seat < 0) return refuse(pr::session_errc::room_full);
  }
  // R14: a drafted room deals the decks; every other room takes one at join.
  if (pr::is_drafted(p_.format) != m.no_deck) {
    c->detach(this);
    c->send(pr::make_error(m.id, m.no_deck ? pr::protocol_error{pr::protocol_errc::missing_field, "deck",
                                                                "a \"join\" message needs \"deck\" in this room"}
                                           : pr::protocol_error{pr::protocol_errc::bad_field_value, "deck",
                                                                "this room drafts its decks: join without \"deck\""}));
    return;
  }
  auto deck = m.no_deck ? pr::deck_result{} : pr::resolve_deck(m.deck, p_.format, *svc_.cat);
  if (!deck.ok()) {
    c->detach(this);
    c->send(pr::make_deck_error(m.id, deck));
    return;
  }
  // R13.1: the Champion, checked against this seat's deck; it stays hidden
  // until the match starts, when every seat's is revealed at once.
  // Drafted (RULING E67): no deck yet; the Champion is withheld from the pool.
  const auto champion = pr::resolve_champion(m.champion, p_.options, deck.cards, *svc_.cat);
  if (!champion.ok()) {
    c->detach(this);
    c->send(pr::make_champion_error(m.id, champion));
    return;
  }
  const std::string token = reserved_token ? *reserved_token : random_hex(pr::token_chars);
  auto& s = seats_[seat];
  s = seat_state{};
  s.taken = true;
  s.name = m.name;
  s.token_hash = sha256_hex(token);
  // Drafted: the deck is in the draft log (docs/persistence.md, "Drafts").
  s.deck_json = m.no_deck ? std::string(R"({"draft":true})") : pr::deck_to_json(m.deck).dump();
  s.deck = std::move(deck.cards);
  s.preconstructed = m.deck.preconstructed;
  s.champion = champion.card;
  if (m.champion && champion.card != no_card) s.champion_id = *m.champion;
  s.client = c;
  s.conn = c->id();
  c->send(pr::make_joined(m.id, p_.id, seat, token));
  spdlog::info("room {}: seat {} joined by '{}' (connection {})", p_.id, seat, s.name, c->id());
  send_seat_status(seat);
  publish_summary();
  if (unjoined_expiry_) {
    // Someone came: the room waits the usual time again.
    unjoined_expiry_ = false;
    expire_after(svc_.cfg.waiting_room_ttl_sec);
  }
  if (seats_taken() == n) {
    if (pr::is_drafted(p_.format)) start_draft();
    else start_match();
  }
}

void room::do_resume(const std::shared_ptr<client_session>& c, const pr::resume_msg& m) {
  const std::string hash = sha256_hex(m.token);
  int seat = -1;
  for (int s = 0; s < static_cast<int>(seats_.size()); ++s)
    if (seats_[s].taken && !seats_[s].ai && constant_time_equal(seats_[s].token_hash, hash)) seat = s;
  if (seat < 0) {
    spdlog::info("room {}: resume with a bad token refused (connection {})", p_.id, c->id());
    c->send(pr::make_error(m.id, pr::session_errc::bad_token));
    // A refused request changes nothing: a connection already seated or
    // spectating here stays; only one that came just for this resume leaves.
    if (seat_of(c->id()) < 0 && !is_spectator(c->id())) c->detach(this);
    return;
  }
  if (is_spectator(c->id()) || (seat_of(c->id()) >= 0 && seat_of(c->id()) != seat)) {
    c->send(pr::make_error(m.id, pr::session_errc::already_in_room));
    return;
  }
  auto& s = seats_[seat];
  if (s.conn != 0 && s.conn != c->id()) {
    // The same token from a second connection: the newest one holds the seat.
    if (auto old = s.client.lock()) {
      old->detach(this);
      old->send(pr::make_left(json(), p_.id));
    }
    spdlog::info("room {}: seat {} taken over by connection {} (was {})", p_.id, seat, c->id(), s.conn);
  }
  if (s.grace) ex_->cancel(std::exchange(s.grace, 0));
  const bool was_connected = s.conn != 0;
  s.client = c;
  s.conn = c->id();
  c->send(pr::make_joined(m.id, p_.id, seat, m.token));
  if (status_ == status::playing || status_ == status::finished) c->send(state_for(static_cast<seat_t>(seat)));
  send_result_if_over(*c);
  if (status_ == status::drafting && draft_) c->send(draft_message_for(static_cast<seat_t>(seat), json::array()));
  spdlog::info("room {}: seat {} ('{}') reconnected (connection {})", p_.id, seat, s.name, c->id());
  if (!was_connected) send_seat_status(seat);
  publish_summary();
}

void room::do_spectate(const std::shared_ptr<client_session>& c, const pr::spectate_msg& m) {
  if (seat_of(c->id()) >= 0 || is_spectator(c->id())) {
    c->send(pr::make_error(m.id, pr::session_errc::already_in_room));
    return;
  }
  spectators_.push_back({c, c->id()});
  c->send(pr::make_spectating(m.id, p_.id));
  if (status_ == status::playing || status_ == status::finished)
    c->send(feed_ && feed_->state() ? feed_->state() : state_for(spectator));
  send_result_if_over(*c);
  if (status_ == status::drafting && draft_) c->send(draft_message_for(spectator, json::array()));
  spdlog::debug("room {}: spectator joined (connection {})", p_.id, c->id());
  publish_summary();
}

void room::do_act(const std::shared_ptr<client_session>& c, const pr::act_msg& m) {
  const int seat = seat_of(c->id());
  if (seat < 0) {
    if (is_spectator(c->id())) {
      c->send(pr::make_error(m.id, pr::session_errc::spectator_cannot_act));
    } else {
      c->send(pr::make_error(m.id, pr::session_errc::not_seated));
      c->detach(this);
    }
    return;
  }
  if (status_ == status::waiting || status_ == status::starting || status_ == status::drafting) {
    c->send(pr::make_error(m.id, pr::session_errc::match_not_started));
    return;
  }
  if (status_ == status::finished && !match_.over()) {
    c->send(pr::make_error(m.id, pr::session_errc::internal_error, "this match was abandoned"));
    return;
  }
  submit(m.for_seat(static_cast<seat_t>(seat)), c, m.id);
}

void room::do_leave(const std::shared_ptr<client_session>& c, const pr::leave_msg& m) {
  const int seat = seat_of(c->id());
  if (seat >= 0) {
    c->send(pr::make_left(m.id, p_.id));
    c->detach(this);
    spdlog::info("room {}: seat {} ('{}') left", p_.id, seat, seats_[seat].name);
    seat_left(seat, status_ != status::waiting);
    return;
  }
  auto it = std::find_if(spectators_.begin(), spectators_.end(), [&](const watcher& w) { return w.conn == c->id(); });
  if (it != spectators_.end()) {
    spectators_.erase(it);
    c->send(pr::make_left(m.id, p_.id));
    c->detach(this);
    publish_summary();
    return;
  }
  c->send(pr::make_error(m.id, pr::session_errc::not_in_room));
  c->detach(this);
}

void room::do_disconnected(const std::shared_ptr<client_session>& c) {
  const int seat = seat_of(c->id());
  if (seat >= 0) {
    spdlog::info("room {}: seat {} ('{}') disconnected", p_.id, seat, seats_[seat].name);
    seat_left(seat, true);
    return;
  }
  auto it = std::find_if(spectators_.begin(), spectators_.end(), [&](const watcher& w) { return w.conn == c->id(); });
  if (it != spectators_.end()) {
    spectators_.erase(it);
    publish_summary();
  }
}

// A seat's connection is gone. In a waiting room a seat that left is freed at
// once; one whose connection dropped is kept for the grace period. In a match
// the seat is kept for the grace period, then concedes. While drafting the
// seat is kept; once every human seat has been away longer than the grace
// period the draft is abandoned (abandon_draft).
void room::seat_left(int seat, bool keep_seat) {
  auto& s = seats_[seat];
  s.client.reset();
  s.conn = 0;
  if (!keep_seat && status_ == status::waiting) {
    if (s.grace) ex_->cancel(s.grace);
    s = seat_state{};
  } else if (!stopping_ && (status_ == status::waiting || status_ == status::playing || status_ == status::drafting) &&
             !s.grace) {
    std::weak_ptr<room> weak = weak_from_this();
    s.grace = ex_->schedule(std::chrono::seconds(svc_.cfg.grace_period_sec), [weak, seat] {
      if (auto self = weak.lock()) self->run(nullptr, {}, [self, seat] { self->on_grace_expired(seat); });
    });
  }
  send_seat_status(seat);
  publish_summary();
}

void room::on_grace_expired(int seat) {
  auto& s = seats_[seat];
  s.grace = 0;
  if (stopping_ || !s.taken || s.conn != 0) return;
  if (status_ == status::waiting) {
    spdlog::info("room {}: seat {} ('{}') freed: not back within {} s", p_.id, seat, s.name,
                 svc_.cfg.grace_period_sec);
    s = seat_state{};
    send_seat_status(seat);
    publish_summary();
    return;
  }
  if (status_ == status::drafting) {
    // The draft waits for its seats: it goes on while anyone is there (or
    // still within a grace period); the last seat's grace ends it.
    for (const auto& other : seats_)
      if (!other.ai && (other.conn != 0 || other.grace)) return;
    abandon_draft();
    return;
  }
  if (status_ != status::playing || match_.over()) return;
  std::string text = "seat ";
  text += std::to_string(seat);
  text += " (";
  text += s.name;
  text += ") conceded: disconnected for longer than the grace period (";
  text += std::to_string(svc_.cfg.grace_period_sec);
  text += " s)";
  spdlog::info("room {}: {}", p_.id, text);
  note(text);
  submit(action::concede_by(static_cast<seat_t>(seat)), nullptr, {});
}

// ---------------------------------------------------------------------------
// The match.

// The room's options as the engine takes them; the decks are the caller's.
match_config room::base_match_config(std::uint64_t seed) const {
  match_config cfg;
  cfg.mode = p_.mode;
  cfg.seat_count = static_cast<int>(seats_.size());
  cfg.exhaustion_rule = p_.options.exhaustion;
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
  if (auto e = match::create(*svc_.cat, cfg, match_, opening_events_); e != rule_error::ok) {
    spdlog::error("room {}: the engine refused to start the match: {}", p_.id, error_name(e));
    abandon("the match could not be set up");
    return false;
  }
  uid_cards_ = pr::uid_cards_from_view(match_.view(referee));
  return true;
}

void room::start_match() {
  status_ = status::starting;
  match_config cfg = base_match_config(p_.seed);
  for (std::size_t i = 0; i < seats_.size(); ++i) {
    if (seats_[i].ai) {
      // RULING E41: the preconstructed decks its human did not pick; kept in
      // the seat's deck_json so that the record alone rebuilds the match.
      const auto& owner = seats_[static_cast<std::size_t>(pr::ai_deck_owner(p_.mode, static_cast<int>(i)))];
      seats_[i].deck = solo_ai_deck(*svc_.cat, owner.preconstructed);
      json ids = json::array();
      for (card_id c : seats_[i].deck) ids.push_back(svc_.cat->def(c).id);
      seats_[i].deck_json = json{{"cards", std::move(ids)}}.dump();
    }
    cfg.decks[i] = seats_[i].deck;
    cfg.champions[i] = seats_[i].champion;
  }
  if (!create_engine_match(cfg)) return;
  match_id_ = p_.id;
  match_id_ += '-';
  match_id_ += random_hex(8);
  const match_record rec = make_record();
  busy_ = true;
  publish_summary();
  svc_.store->create_match(rec, [self = shared_from_this()](const server::status& st) {
    self->ex_->post([self, ok = st.is_ok()] { self->on_match_created(ok); });
  });
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
  rec.created_ms = svc_.wall_ms();
  for (std::size_t i = 0; i < seats_.size(); ++i) {
    seat_record sr;
    sr.seat = static_cast<int>(i);
    sr.name = seats_[i].name;
    sr.token_hash = seats_[i].token_hash;
    sr.deck_json = seats_[i].deck_json;
    sr.team = pr::seat_team(p_.mode, sr.seat);
    sr.champion = seats_[i].champion_id;
    sr.ai = seats_[i].ai;  // no token: nobody can resume it
    rec.seats.push_back(std::move(sr));
  }
  return rec;
}

void room::on_match_created(bool ok) {
  busy_ = false;
  if (!ok) {
    svc_.stats->persistence_errors_total++;
    spdlog::error("room {}: persistence error: match {} could not be created", p_.id, match_id_);
    abandon("the match could not be saved");
    drain();
    return;
  }
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
    for (auto& s : seats_) s.bank_ms = p_.options.clock->bank_ms;
    clock_msg = clock_turn_started(now);
  }
  // Solo, coop: the state at match start carries create()'s events (the
  // AI's opening turn with ai_first), each recipient's redaction; later
  // states (resume, spectate) have only the view.
  const auto* mode_info = pr::find_offered_mode(p_.mode);
  const bool opening = mode_info && mode_info->ai;
  auto first_state = [&](seat_t viewer) {
    if (!opening) return state_for(viewer);
    return to_message(pr::make_state(p_.id, seq_, seed_hash_, pr::view_to_json(match_.view(viewer), *svc_.cat),
                                     clock_snapshot(now),
                                     pr::events_to_json(opening_events_, viewer, *svc_.cat, uid_cards_)));
  };
  for (std::size_t i = 0; i < seats_.size(); ++i) {
    if (auto c = seats_[i].client.lock()) c->send(first_state(static_cast<seat_t>(i)));
  }
  if (!spectators_.empty() || feed_) {
    auto m = first_state(spectator);
    if (feed_) feed_->start(m);
    for (auto& w : spectators_)
      if (auto c = w.client.lock()) c->send(m);
  }
  opening_events_.clear();
  if (clock_msg) announce_clock(*clock_msg);
  if (hooks_.started) hooks_.started(p_.id, match_id_);
  // Seats that dropped while the match was being created get their grace now.
  for (std::size_t i = 0; i < seats_.size(); ++i)
    if (!seats_[i].ai && seats_[i].conn == 0 && !seats_[i].grace) seat_left(static_cast<int>(i), true);
  publish_summary();
  drain();
}

void room::submit(const action& a, const std::shared_ptr<client_session>& c, const json& id) {
  events_.clear();
  if (auto e = match_.apply(a, events_); e != rule_error::ok) {
    if (c) {
      c->send(pr::make_error(id, e));
      spdlog::info("room {}: seat {} action rejected: {}", p_.id, static_cast<int>(a.seat), error_name(e));
    }
    return;
  }
  const auto now = ex_->now_ms();
  auto out = std::make_shared<outgoing>();
  out->actor = c;
  out->id = id;
  out->seq = ++seq_;

  if (p_.options.clock) {
    if (match_.over()) {
      clock_stop(now);
    } else if (match_.active_seat() != clock_seat_ || match_.turn() != clock_turn_) {
      clock_stop(now);
      out->clock = clock_turn_started(now);
    }
  }
  const auto clock = clock_snapshot(now);
  // hello.acks in_update: the actor's own update is its acknowledgement.
  const int ack_seat = c && c->acks_in_update() ? seat_of(c->id()) : -1;
  out->acked_in_update = ack_seat >= 0;
  for (std::size_t i = 0; i < seats_.size(); ++i) {
    const auto viewer = static_cast<seat_t>(i);
    out->seat_updates.push_back(std::make_shared<const std::string>(
        pr::update_text(p_.id, out->seq, pr::events_to_json(events_, viewer, *svc_.cat, uid_cards_),
                        match_.view(viewer), *svc_.cat, clock,
                        static_cast<int>(i) == ack_seat ? &out->id : nullptr)));
  }
  if (!spectators_.empty() || feed_) {
    out->spectator_update = std::make_shared<const std::string>(
        pr::update_text(p_.id, out->seq, pr::events_to_json(events_, spectator, *svc_.cat, uid_cards_),
                        match_.view(spectator), *svc_.cat, clock));
    if (feed_) out->spectator_state = state_for(spectator);
  }

  action_record rec;
  rec.seq = out->seq;
  rec.seat = a.seat;
  rec.action_json = pr::action_to_json(a).dump();
  rec.digest = match_.digest();
  rec.at_ms = svc_.wall_ms();
  busy_ = true;
  svc_.store->append_action(match_id_, rec, [self = shared_from_this(), out](const server::status& st) {
    self->ex_->post([self, out, ok = st.is_ok()] { self->on_action_stored(ok, out); });
  });
}

void room::on_action_stored(bool ok, const std::shared_ptr<outgoing>& out) {
  busy_ = false;
  if (!ok) {
    svc_.stats->persistence_errors_total++;
    spdlog::error("room {}: persistence error: action {} of match {} was not saved", p_.id, out->seq, match_id_);
    if (auto c = out->actor.lock())
      c->send(pr::make_error(out->id, pr::session_errc::internal_error, "the action could not be saved"));
    abandon("an action could not be saved");
    drain();
    return;
  }
  svc_.stats->action();
  if (!out->acked_in_update)
    if (auto c = out->actor.lock()) c->send(pr::make_accepted(out->id, out->seq));
  for (std::size_t i = 0; i < seats_.size(); ++i)
    if (auto c = seats_[i].client.lock()) c->send(out->seat_updates[i]);
  // Spectators cannot arrive or go while the write is pending (their requests
  // wait in the backlog), so these are the ones the update was built for.
  if (out->spectator_update) send_spectators(out->spectator_update, out->spectator_state);
  if (out->clock) announce_clock(*out->clock);
  if (match_.over()) finish_match();
  drain();
}

void room::finish_match() {
  const auto v = match_.view(referee);
  match_result r;
  for (int s = 0; s < match_.seat_count(); ++s)
    if (match_.winners() & (1u << s)) r.winners.push_back(s);
  r.reason = std::string(pr::end_reason_name(v.reason));
  r.ended_ms = svc_.wall_ms();
  busy_ = true;
  svc_.store->finish_match(match_id_, r, [self = shared_from_this()](const server::status& st) {
    self->ex_->post([self, ok = st.is_ok()] { self->on_match_finished(ok); });
  });
}

void room::on_match_finished(bool ok) {
  busy_ = false;
  if (!ok) {
    svc_.stats->persistence_errors_total++;
    spdlog::error("room {}: persistence error: the result of match {} was not saved", p_.id, match_id_);
  }
  status_ = status::finished;
  svc_.stats->matches_finished_total++;
  clock_stop(ex_->now_ms());
  for (auto& s : seats_)
    if (s.grace) ex_->cancel(std::exchange(s.grace, 0));
  const auto v = match_.view(referee);
  std::string winners;
  for (int s = 0; s < match_.seat_count(); ++s) {
    if (!(match_.winners() & (1u << s))) continue;
    if (!winners.empty()) winners += ", ";
    winners += std::to_string(s);
  }
  spdlog::info("room {}: match {} ended after {} actions: winners [{}], reason {}", p_.id, match_id_, seq_,
               winners, pr::end_reason_name(v.reason));
  broadcast(pr::make_match_over(p_.id, match_.winners(), v.reason, p_.seed));
  publish_summary();
  expire_after(svc_.cfg.finished_room_ttl_sec);
  if (hooks_.finished) {
    std::vector<int> w;
    for (int s = 0; s < match_.seat_count(); ++s)
      if (match_.winners() & (1u << s)) w.push_back(s);
    hooks_.finished(p_.id, match_id_, w);
  }
  drain();
}

// Someone arriving after the end (a reload, a late spectator) gets the
// match_over the others got, with the revealed seed to verify the match by.
void room::send_result_if_over(client_session& c) const {
  if (status_ != status::finished || !match_.over()) return;
  c.send(pr::make_match_over(p_.id, match_.winners(), match_.view(referee).reason, p_.seed));
}

void room::abandon_draft() {
  // A tournament room waits for its players as long as the round lasts: the
  // organiser decides (a game loss, a re-pairing), as for a no-show.
  if (!p_.reserved.empty() || hooks_.finished) return;
  std::string why = "every seat was disconnected for longer than the grace period (";
  why += std::to_string(svc_.cfg.grace_period_sec);
  why += " s) during the draft";
  spdlog::info("room {}: match {} abandoned after {} draft records: {}", p_.id, match_id_, draft_seq_, why);
  note(why);
  status_ = status::finished;
  // The match row ends without a result, as a voided match does.
  match_result r;
  r.reason = "abandoned";
  r.ended_ms = svc_.wall_ms();
  svc_.store->finish_match(match_id_, r, [](const server::status&) {});
  publish_summary();
  close_room("the draft was abandoned");
}

void room::abandon(const std::string& why) {
  spdlog::error("room {}: match {} abandoned: {}", p_.id, match_id_, why);
  if (match_row_) {
    // docs/persistence.md, "A match the server stops": the record says the
    // server stopped the match (reason "aborted"), so that a restart does not
    // bring back a match its players were told had ended. When the store is
    // failing this write fails too; the row then stays "playing" and a
    // restart resumes the match from its last stored action (nothing
    // accepted is lost either way).
    note(why);
    match_result r;
    r.reason = "aborted";
    r.ended_ms = svc_.wall_ms();
    const std::string id = match_id_;
    const std::string room_id = p_.id;
    svc_.store->finish_match(match_id_, r, [id, room_id](const server::status& st) {
      if (!st)
        spdlog::warn("room {}: match {} stays 'playing' in the store (the abort was not saved): a restart resumes it",
                     room_id, id);
    });
  }
  status_ = status::finished;
  clock_stop(ex_->now_ms());
  for (auto& s : seats_)
    if (s.grace) ex_->cancel(std::exchange(s.grace, 0));
  broadcast(pr::make_error(json(), pr::session_errc::internal_error, why));
  publish_summary();
  expire_after(svc_.cfg.finished_room_ttl_sec);
}

// ---------------------------------------------------------------------------
// Turn clock: each seat's bank runs during its turns; increment_ms is added
// at the start of each of its turns; an empty bank concedes.

std::optional<json> room::clock_turn_started(std::int64_t now, bool resumed) {
  if (!p_.options.clock || match_.over() || stopping_) return std::nullopt;
  const seat_t s = match_.active_seat();
  auto& seat = seats_[static_cast<std::size_t>(s)];
  if (!resumed) seat.bank_ms += p_.options.clock->increment_ms;
  clock_seat_ = s;
  clock_turn_ = match_.turn();
  clock_since_ = now;
  if (clock_timer_) ex_->cancel(clock_timer_);
  std::weak_ptr<room> weak = weak_from_this();
  const int turn = clock_turn_;
  clock_timer_ = ex_->schedule(milliseconds(std::max<std::int64_t>(seat.bank_ms, 0)), [weak, s, turn] {
    if (auto self = weak.lock()) self->run(nullptr, {}, [self, s, turn] { self->on_clock_expired(s, turn); });
  });
  return pr::make_clock(p_.id, s, seat.bank_ms);
}

void room::clock_stop(std::int64_t now) {
  if (clock_seat_ == no_seat) return;
  auto& seat = seats_[static_cast<std::size_t>(clock_seat_)];
  seat.bank_ms = std::max<std::int64_t>(0, seat.bank_ms - (now - clock_since_));
  clock_seat_ = no_seat;
  if (clock_timer_) ex_->cancel(std::exchange(clock_timer_, 0));
}

void room::on_clock_expired(int seat, int turn) {
  if (stopping_ || status_ != status::playing || match_.over()) return;
  if (clock_seat_ != seat || clock_turn_ != turn) return;
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
  note(text);
  submit(action::concede_by(static_cast<seat_t>(seat)), nullptr, {});
}

// A turn started under the clock: everyone gets the clock message; the match's
// notes and the log keep it.
void room::announce_clock(const json& msg) {
  if (!feed_) {
    broadcast(msg);
  } else {
    // Delayed spectators get it behind the update that ended the last turn.
    auto m = to_message(msg);
    for (auto& s : seats_)
      if (auto c = s.client.lock()) c->send(m);
    if (auto now = feed_->after(m))
      for (auto& w : spectators_)
        if (auto c = w.client.lock()) c->send(now);
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
  for (std::size_t i = 0; i < seats_.size(); ++i) {
    auto ms = seats_[i].bank_ms;
    if (static_cast<seat_t>(i) == clock_seat_) ms = std::max<std::int64_t>(0, ms - (now - clock_since_));
    c.remaining_ms.push_back(ms);
  }
  c.running_seat = clock_seat_;
  return c;
}

// ---------------------------------------------------------------------------
// Tournament rooms.

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

void room::join_reserved(std::shared_ptr<client_session> c, pr::join_msg m, std::string token) {
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
    self->note(why);
    self->submit(action::concede_by(static_cast<seat_t>(seat)), nullptr, {});
  });
}

void room::retire(std::string why) {
  run(nullptr, {}, [self = shared_from_this(), why = std::move(why)] { self->do_retire(why); });
}

void room::do_join_reserved(const std::shared_ptr<client_session>& c, const pr::join_msg& m, const std::string& token) {
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
  note(why);
  status_ = status::finished;
  clock_stop(ex_->now_ms());
  for (auto& s : seats_)
    if (s.grace) ex_->cancel(std::exchange(s.grace, 0));
  match_result r;
  r.reason = "voided";
  r.ended_ms = svc_.wall_ms();
  svc_.store->finish_match(match_id_, r, [](const server::status&) {});
  broadcast(pr::make_error(json(), pr::session_errc::internal_error, why));
  publish_summary();
  expire_after(svc_.cfg.finished_room_ttl_sec);
}

void room::send_spectators(const message_ptr& update, const message_ptr& state_after) {
  auto send_all = [this](const message_ptr& m) {
    for (auto& w : spectators_)
      if (auto c = w.client.lock()) c->send(m);
  };
  if (!feed_) return send_all(update);
  for (const auto& m : feed_->push(update, state_after)) send_all(m);
  // The match is over: nothing is left to hide.
  if (match_.over())
    for (const auto& m : feed_->flush()) send_all(m);
}

// ---------------------------------------------------------------------------
// Helpers.

int room::seat_of(std::uint64_t conn) const {
  for (std::size_t i = 0; i < seats_.size(); ++i)
    if (seats_[i].taken && seats_[i].conn == conn && conn != 0) return static_cast<int>(i);
  return -1;
}

bool room::is_spectator(std::uint64_t conn) const {
  return std::any_of(spectators_.begin(), spectators_.end(), [&](const watcher& w) { return w.conn == conn; });
}

void room::make_ai_seat(seat_state& s) {
  s = seat_state{};
  s.taken = true;
  s.ai = true;
  s.name = std::string(pr::ai_seat_name);
}

int room::seats_taken() const {
  return static_cast<int>(std::count_if(seats_.begin(), seats_.end(), [](const seat_state& s) { return s.taken; }));
}

message_ptr room::state_for(seat_t viewer) const {
  json s = pr::make_state(p_.id, seq_, seed_hash_, pr::view_to_json(match_.view(viewer), *svc_.cat),
                          clock_snapshot(ex_->now_ms()));
  // R14.6: each constructed list is revealed to all before the shuffle; a
  // client that reconnects or arrives later must see them too, so every
  // state of the match carries them (the seats' join lists, as stored).
  if (p_.format == pr::deck_format::constructed) {
    json decks = json::array();
    for (std::size_t i = 0; i < seats_.size(); ++i) {
      const json d = json::parse(seats_[i].deck_json, nullptr, false);
      decks.push_back({{"seat", i}, {"cards", d.is_object() && d.contains("cards") ? d["cards"] : json::array()}});
    }
    s["decks"] = std::move(decks);
  }
  return to_message(s);
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

void room::send_seat_status(int seat) {
  broadcast(pr::make_seat_status(p_.id, seat, seats_[seat].conn != 0), seats_[seat].conn);
}

void room::note(const std::string& text) {
  if (!match_id_.empty()) svc_.store->append_note(match_id_, svc_.wall_ms(), text);
}

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
    r.seats.push_back({static_cast<int>(i), seats_[i].taken, seats_[i].ai || seats_[i].conn != 0, seats_[i].name,
                       reveal ? seats_[i].champion_id : std::string(), seats_[i].ai});
  r.spectators = static_cast<int>(spectators_.size());
  {
    std::lock_guard lock(summary_mutex_);
    summary_ = std::move(r);
  }
  if (auto reg = registry_.lock()) {
    reg->status_is(this, wire_status(static_cast<int>(status_)));
    reg->summary_changed();
    if (status_ == status::finished && !reported_finished_) {
      reported_finished_ = true;
      reg->finished(shared_from_this());
    }
  }
}

void room::evict() {
  run(nullptr, {}, [self = shared_from_this()] {
    if (self->expiry_) self->ex_->cancel(std::exchange(self->expiry_, 0));
    self->close_room("evicted: more finished rooms than max_rooms");
  });
}

void room::creator_left() {
  run(nullptr, {}, [self = shared_from_this()] {
    if (self->status_ != status::waiting || self->stopping_) return;
    for (const auto& s : self->seats_)
      if (s.taken && !s.ai) return;
    self->expire_after(self->svc_.cfg.unjoined_room_ttl_sec);
    self->unjoined_expiry_ = true;
  });
}

pr::room_summary room::summary() const {
  std::lock_guard lock(summary_mutex_);
  return summary_;
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
  const auto left = to_message(pr::make_left(json(), p_.id));
  for (auto& s : seats_) {
    if (s.grace) ex_->cancel(std::exchange(s.grace, 0));
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
  spdlog::info("room {}: closed ({})", p_.id, why);
  if (auto reg = registry_.lock()) reg->remove(p_.id, this);
}

}  // namespace cod::server
