// Seats and spectators: join, resume, spectate, leave, a dropped connection,
// and the grace period a seat keeps its place for (docs/protocol.md,
// "Reconnecting").
#include <algorithm>
#include <utility>

#include <spdlog/spdlog.h>

#include "common/constant_time.hpp"
#include "common/sha256.hpp"
#include "room/room.hpp"

namespace cod::server {

namespace pr = cod::protocol;
using nlohmann::json;

// ---------------------------------------------------------------------------
// Joining.

void room::do_join(const std::shared_ptr<peer>& c, const pr::join_msg& m, const std::string* reserved_token) {
  if (seat_of(c->id()) >= 0 || is_spectator(c->id())) {
    c->send(pr::make_error(m.id, pr::session_errc::already_in_room));
    return;
  }
  if (!p_.reserved.empty() && !reserved_token)
    return refuse_join(*c, pr::make_error(m.id, pr::session_errc::room_full,
                                          "this room's seats are reserved for tournament players (tournament_join)"));
  if (status_ != status::waiting) return refuse_join(*c, pr::make_error(m.id, pr::session_errc::room_full));
  // One seat an account in a room: a player cannot sit on both sides.
  if (const int held = account_seat(c->account_id()); held >= 0)
    return refuse_join(*c, pr::make_error(m.id, pr::session_errc::account_seated,
                                          "your account already holds seat " + std::to_string(held) +
                                              " of this room: resume it"));
  pr::session_errc refused{};
  const int seat = choose_seat(m, refused);
  if (seat < 0) return refuse_join(*c, pr::make_error(m.id, refused));
  // R14: a drafted room deals the decks; every other room takes one at join.
  if (pr::is_drafted(p_.format) != m.no_deck)
    return refuse_join(*c, pr::make_error(m.id, m.no_deck
                                                    ? pr::protocol_error{pr::protocol_errc::missing_field, "deck",
                                                                         "a \"join\" message needs \"deck\" in this room"}
                                                    : pr::protocol_error{pr::protocol_errc::bad_field_value, "deck",
                                                                         "this room drafts its decks: join without \"deck\""}));
  auto deck = m.no_deck ? pr::deck_result{} : pr::resolve_deck(m.deck, p_.format, cards());
  if (!deck.ok()) return refuse_join(*c, pr::make_deck_error(m.id, deck));
  if (!is_fixed_deck(seat, deck.cards)) {
    deck.reason = "not_league_deck";
    deck.message = "this seat plays its player's league deck (R15.2), these 8 cards in any order:";
    for (card_id id : p_.fixed_decks[seat]) deck.message += " " + cards().def(id).id;
    return refuse_join(*c, pr::make_deck_error(m.id, deck));
  }
  // R13.1: the Champion, checked against this seat's deck; it stays hidden
  // until the match starts, when every seat's is revealed at once.
  // Drafted (RULING E67): no deck yet; the Champion is withheld from the pool.
  const auto champion = pr::resolve_champion(m.champion, p_.options, deck.cards, cards());
  if (!champion.ok()) return refuse_join(*c, pr::make_champion_error(m.id, champion));
  take_seat(c, m, seat, std::move(deck.cards), champion.card,
            reserved_token ? *reserved_token : svc_.env->random_hex(pr::token_chars));
  if (seats_taken() == static_cast<int>(seats_.size())) {
    if (pr::is_drafted(p_.format)) start_draft();
    else start_match();
  }
}

// R15.2: a seat with a fixed deck (a league duel) takes only those cards.
bool room::is_fixed_deck(int seat, std::vector<card_id> deck) const {
  std::vector<card_id> fixed = p_.fixed_decks[static_cast<std::size_t>(seat)];
  if (fixed.empty()) return true;
  std::sort(fixed.begin(), fixed.end());
  std::sort(deck.begin(), deck.end());
  return fixed == deck;
}

// A refused join leaves the connection free: detached before the reply goes
// out, since a client may send its next join as soon as it reads it (else
// that join could meet already_in_room).
void room::refuse_join(peer& c, const json& error) {
  c.detach(this);
  c.send(error);
}

int room::choose_seat(const pr::join_msg& m, pr::session_errc& refused) const {
  const int n = static_cast<int>(seats_.size());
  if (m.seat) {
    const int s = *m.seat;
    if (s < 0 || s >= n) refused = pr::session_errc::no_such_seat;
    else if (seats_[s].ai) refused = pr::session_errc::ai_seat;
    else if (seats_[s].taken) refused = pr::session_errc::seat_taken;
    else return s;
    return -1;
  }
  for (int s = 0; s < n; ++s)
    if (!seats_[s].taken) return s;
  refused = pr::session_errc::room_full;
  return -1;
}

void room::take_seat(const std::shared_ptr<peer>& c, const pr::join_msg& m, int seat, std::vector<card_id> deck,
                     card_id champion, const std::string& token) {
  auto& s = seats_[seat];
  s = seat_state{};
  s.taken = true;
  s.name = m.name;
  s.token_hash = sha256_hex(token);
  s.account_id = c->account_id();
  // Drafted: the deck is in the draft log (docs/persistence.md, "Drafts").
  s.deck_json = m.no_deck ? std::string(R"({"draft":true})") : pr::deck_to_json(m.deck).dump();
  s.deck = std::move(deck);
  s.preconstructed = m.deck.preconstructed;
  s.champion = champion;
  if (m.champion && champion != no_card) s.champion_id = *m.champion;
  s.client = c;
  s.conn = c->id();
  // The lobby first: a client that lists the rooms as soon as it reads
  // `joined` sees its seat taken.
  emptied_ = false;
  publish_summary();
  c->send(pr::make_joined(m.id, p_.id, seat, token));
  spdlog::info("room {}: seat {} joined by '{}' (connection {})", p_.id, seat, s.name, c->id());
  send_seat_status(seat);
  if (unjoined_expiry_) {
    // Someone came: the room waits the usual time again.
    unjoined_expiry_ = false;
    expire_after(svc_.cfg.waiting_room_ttl_sec);
  }
}

// ---------------------------------------------------------------------------
// Coming back, watching, going.

void room::do_resume(const std::shared_ptr<peer>& c, const pr::resume_msg& m) {
  // No token: the signed-in connection's account finds its seat
  // (client_session lets no other resume without one through).
  const bool by_account = m.token.empty();
  int seat = -1;
  if (by_account) {
    seat = account_seat(c->account_id());
  } else {
    const std::string hash = sha256_hex(m.token);
    for (int s = 0; s < static_cast<int>(seats_.size()); ++s)
      if (seats_[s].taken && !seats_[s].played_by_server() && constant_time_equal(seats_[s].token_hash, hash)) seat = s;
  }
  if (seat < 0 && !by_account && take_reserved_seat(c, m)) return;
  if (seat < 0) {
    spdlog::info("room {}: resume with {} refused (connection {})", p_.id,
                 by_account ? "an account that holds no seat here" : "a bad token", c->id());
    c->send(by_account ? pr::make_error(m.id, pr::session_errc::bad_token,
                                        "your account holds no seat of this room")
                       : pr::make_error(m.id, pr::session_errc::bad_token));
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
  if (status_ == status::playing || status_ == status::finished) c->send(state_for(static_cast<seat_t>(seat), c.get()));
  send_result_if_over(*c);
  if (status_ == status::drafting && draft_)
    c->send(draft_message_for(static_cast<seat_t>(seat), json::array(), c.get()));
  spdlog::info("room {}: seat {} ('{}') reconnected (connection {})", p_.id, seat, s.name, c->id());
  if (!was_connected) send_seat_status(seat);
  publish_summary();
}

// A queue's player who was told `matched` on another node comes with its
// seat token (docs/queue.md, "In a cluster"): the seat reserved for that
// token is joined for it, with the name and deck it queued with. false: no
// untaken seat is reserved for that token.
bool room::take_reserved_seat(const std::shared_ptr<peer>& c, const pr::resume_msg& m) {
  if (p_.reserved_players.size() != seats_.size() || p_.reserved.size() != seats_.size()) return false;
  const std::string hash = sha256_hex(m.token);
  for (int s = 0; s < static_cast<int>(seats_.size()); ++s) {
    if (seats_[s].taken || !constant_time_equal(p_.reserved[static_cast<std::size_t>(s)], hash)) continue;
    const auto& player = p_.reserved_players[static_cast<std::size_t>(s)];
    if (c->account_id() != player.account_id) {
      spdlog::info("room {}: seat {} is reserved for account {}; connection {} (account {}) refused", p_.id, s,
                   player.account_id, c->id(), c->account_id());
      c->send(pr::make_error(m.id, pr::session_errc::bad_token,
                             "this seat is reserved for the account that queued: sign in as it (hello account_token)"));
      if (seat_of(c->id()) < 0 && !is_spectator(c->id())) c->detach(this);
      return true;
    }
    pr::join_msg j;
    j.id = m.id;
    j.room = p_.id;
    j.name = player.name;
    j.seat = s;
    j.deck = player.deck;
    do_join(c, j, &m.token);
    return true;
  }
  return false;
}

void room::do_spectate(const std::shared_ptr<peer>& c, const pr::spectate_msg& m) {
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

void room::do_leave(const std::shared_ptr<peer>& c, const pr::leave_msg& m) {
  const int seat = seat_of(c->id());
  // Detached before `left` is sent: a client that reads `left` and at once
  // joins another room (a tournament's next game) must find its connection
  // free, whichever thread reads its next message.
  if (seat >= 0) {
    c->detach(this);
    spdlog::info("room {}: seat {} ('{}') left", p_.id, seat, seats_[seat].name);
    seat_left(seat, status_ != status::waiting);
    // After the seat is freed: a client that reads `left` and at once
    // creates a room finds this one already counted as vacant.
    c->send(pr::make_left(m.id, p_.id));
    return;
  }
  if (drop_spectator(c->id())) {
    c->detach(this);
    c->send(pr::make_left(m.id, p_.id));
    publish_summary();
    return;
  }
  c->send(pr::make_error(m.id, pr::session_errc::not_in_room));
  c->detach(this);
}

void room::do_disconnected(const std::shared_ptr<peer>& c) {
  const int seat = seat_of(c->id());
  if (seat >= 0) {
    spdlog::info("room {}: seat {} ('{}') disconnected", p_.id, seat, seats_[seat].name);
    seat_left(seat, true);
    return;
  }
  if (drop_spectator(c->id())) publish_summary();
}

bool room::drop_spectator(std::uint64_t conn) {
  auto it = std::find_if(spectators_.begin(), spectators_.end(), [&](const watcher& w) { return w.conn == conn; });
  if (it == spectators_.end()) return false;
  spectators_.erase(it);
  return true;
}

// ---------------------------------------------------------------------------
// The grace period.

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
    free_bots_without_players();
    note_if_emptied();
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
    free_bots_without_players();
    note_if_emptied();
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
  concede_for(seat, text);
}

void room::cancel_grace_timers() {
  for (auto& s : seats_)
    if (s.grace) ex_->cancel(std::exchange(s.grace, 0));
}

// ---------------------------------------------------------------------------
// Who is where.

int room::account_seat(std::int64_t account_id) const {
  if (account_id == 0) return -1;
  for (int s = 0; s < static_cast<int>(seats_.size()); ++s)
    if (seats_[s].taken && !seats_[s].played_by_server() && seats_[s].account_id == account_id) return s;
  return -1;
}

int room::seat_of(std::uint64_t conn) const {
  for (std::size_t i = 0; i < seats_.size(); ++i)
    if (seats_[i].taken && seats_[i].conn == conn && conn != 0) return static_cast<int>(i);
  return -1;
}

bool room::is_spectator(std::uint64_t conn) const {
  return std::any_of(spectators_.begin(), spectators_.end(), [&](const watcher& w) { return w.conn == conn; });
}

int room::seats_taken() const {
  return static_cast<int>(std::count_if(seats_.begin(), seats_.end(), [](const seat_state& s) { return s.taken; }));
}

void room::make_ai_seat(seat_state& s) {
  s = seat_state{};
  s.taken = true;
  s.ai = true;
  s.name = std::string(pr::ai_seat_name);
}

void room::send_seat_status(int seat) {
  broadcast(pr::make_seat_status(p_.id, seat, seats_[seat].played_by_server() || seats_[seat].conn != 0),
            seats_[seat].conn);
}

}  // namespace cod::server
