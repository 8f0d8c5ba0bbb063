#include "queue_service/queue_service.hpp"

#include <algorithm>
#include <utility>

#include <spdlog/spdlog.h>

#include "cod/protocol/messages.hpp"
#include "common/sha256.hpp"
#include "room/room.hpp"

namespace cod::server {

namespace pr = cod::protocol;
using nlohmann::json;

std::optional<pr::protocol_error> queue_pool_problem(const pr::queue_msg& m) {
  if (m.mode != game_mode::duel && m.mode != game_mode::ffa && m.mode != game_mode::two_vs_two)
    return pr::protocol_error{pr::protocol_errc::bad_field_value, "mode",
                              "the queue has \"duel\", \"ffa\" and \"2v2\": solo and co-op are played from the lobby"};
  if (m.format != pr::deck_format::preconstructed && m.format != pr::deck_format::constructed)
    return pr::protocol_error{pr::protocol_errc::bad_field_value, "format",
                              "the queue has \"preconstructed\" and \"constructed\": drafts are played from the lobby"};
  return std::nullopt;
}

std::optional<pr::protocol_error> partner_problem(const pr::queue_msg& m, const std::string& own_name) {
  if (!m.partner.empty() && queue::fold_name(m.partner) == queue::fold_name(own_name))
    return pr::protocol_error{pr::protocol_errc::bad_field_value, "partner",
                              "\"partner\" is your own name: name the friend you queue with"};
  return std::nullopt;
}

queue::pool_key pool_of(const pr::queue_msg& m) {
  queue::pool_key k;
  k.mode = m.mode == game_mode::duel ? queue::mode::duel
           : m.mode == game_mode::ffa ? queue::mode::ffa
                                      : queue::mode::two_v_two;
  k.format = std::string(pr::deck_format_name(m.format));
  k.rated = m.rated;
  return k;
}

namespace {

pr::queue_ticket_info info_of(std::int64_t ticket, const pr::queue_msg& m) {
  return {ticket, m.mode, m.format, m.rated};
}

}  // namespace

queue_service::queue_service(queue_services s, queue::queue_params p) : s_(std::move(s)), params_(p) {}

void queue_service::start() {
  s_.ex->post([self = shared_from_this()] {
    self->last_wave_ms_ = self->s_.ex->now_ms();
    self->schedule_tick();
  });
}

void queue_service::stop() {
  s_.ex->post([self = shared_from_this()] {
    self->stopped_ = true;
    std::map<std::uint64_t, std::vector<std::int64_t>> conns;
    conns.swap(self->by_conn_);
    for (auto& [conn, tickets] : conns) {
      std::shared_ptr<client_session> who;
      for (std::int64_t t : tickets) {
        if (auto it = self->entries_.find(t); it != self->entries_.end()) who = it->second.who.lock();
        self->forget(t);
      }
      if (who) who->send(pr::make_unqueued(json(), tickets, "shutting_down"));
    }
    self->count();
  });
}

void read_rating_then(const queue_services& s, std::shared_ptr<client_session> who, pr::queue_msg m,
                      std::function<void(std::shared_ptr<client_session>, pr::queue_msg, double)> then) {
  if (auto e = queue_pool_problem(m)) return who->send(pr::make_error(m.id, *e));
  if (auto e = partner_problem(m, who->account_name())) return who->send(pr::make_error(m.id, *e));
  // The deck is checked now, so that a match found never fails on it.
  auto deck = pr::resolve_deck(m.deck, m.format, *s.cat);
  if (!deck.ok()) return who->send(pr::make_deck_error(m.id, deck));
  const std::int64_t account = who->account_id();
  const auto mode = pool_of(m).mode;
  auto added = [who, m, then = std::move(then)](double rating) mutable { then(std::move(who), std::move(m), rating); };
  if (s.rating_of) s.rating_of(account, mode, std::move(added));
  else added(1500);
}

void queue_service::enqueue(std::shared_ptr<client_session> who, pr::queue_msg m) {
  read_rating_then(s_, std::move(who), std::move(m),
                   [self = shared_from_this()](std::shared_ptr<client_session> who, pr::queue_msg m, double rating) {
                     self->s_.ex->post([self, who = std::move(who), m = std::move(m), rating]() mutable {
                       self->add(std::move(who), std::move(m), rating);
                     });
                   });
}

void queue_service::add(std::shared_ptr<client_session> who, pr::queue_msg m, double rating) {
  if (stopped_) return who->send(pr::make_error(m.id, pr::session_errc::shutting_down));
  if (entries_.size() >= s_.max_tickets) {
    spdlog::warn("queue: full ({} tickets, config queue_max_tickets): a queue from connection {} refused",
                 entries_.size(), who->id());
    return who->send(pr::make_error(m.id, pr::session_errc::server_busy, "the queue is full: try again in a moment"));
  }
  // The connection may have closed (its leave has gone by already) or
  // entered a room while its rating was read.
  if (who->closed()) return;
  if (who->attached()) return who->send(pr::make_error(m.id, pr::session_errc::already_in_room));
  queue::ticket t;
  t.id = next_ticket_;
  t.pool = pool_of(m);
  t.members = {queue::member{who->account_id(), rating, 0}};
  t.enqueued_ms = s_.ex->now_ms();
  t.address = who->address();
  // One search a pool an account (any of its connections).
  for (const auto& [id, e] : entries_)
    if (e.ticket.pool == t.pool && e.ticket.members.front().account == who->account_id())
      return who->send(pr::make_error(m.id, pr::session_errc::already_queued));
  ++next_ticket_;
  const std::size_t searching = ++pool_sizes_[t.pool];
  const auto info = info_of(t.id, m);
  entries_[t.id] = entry{who, who->id(), who->account_name(), m, std::move(t)};
  by_conn_[who->id()].push_back(info.ticket);
  count();
  spdlog::debug("queue: ticket {} for account {} ({} {} {}, rating {:.0f}{}{})", info.ticket, who->account_id(),
                game_mode_name(m.mode), pr::deck_format_name(m.format), m.rated ? "rated" : "casual", rating,
                m.partner.empty() ? "" : ", with ", m.partner);
  who->send(pr::make_queued(m.id, info, searching));
}

void queue_service::unqueue(std::shared_ptr<client_session> who, pr::unqueue_msg m) {
  s_.ex->post([self = shared_from_this(), who = std::move(who), m = std::move(m)] {
    auto it = self->by_conn_.find(who->id());
    std::vector<std::int64_t> gone;
    if (it != self->by_conn_.end()) {
      for (std::int64_t t : it->second)
        if (!m.ticket || *m.ticket == t) gone.push_back(t);
    }
    if (gone.empty()) return who->send(pr::make_error(m.id, pr::session_errc::not_queued));
    for (std::int64_t t : gone) self->forget(t);
    self->count();
    who->send(pr::make_unqueued(m.id, gone, "unqueued"));
  });
}

void queue_service::leave(std::uint64_t conn, std::string reason) {
  s_.ex->post([self = shared_from_this(), conn, reason = std::move(reason)] {
    auto it = self->by_conn_.find(conn);
    if (it == self->by_conn_.end()) return;
    const std::vector<std::int64_t> gone = it->second;
    std::shared_ptr<client_session> who;
    for (std::int64_t t : gone) {
      if (auto e = self->entries_.find(t); e != self->entries_.end()) who = e->second.who.lock();
      self->forget(t);
    }
    self->count();
    if (who && !reason.empty()) who->send(pr::make_unqueued(json(), gone, reason));
  });
}

void queue_service::forget(std::int64_t ticket) {
  auto it = entries_.find(ticket);
  if (it == entries_.end()) return;
  if (auto n = pool_sizes_.find(it->second.ticket.pool); n != pool_sizes_.end() && --n->second == 0)
    pool_sizes_.erase(n);
  auto c = by_conn_.find(it->second.conn);
  if (c != by_conn_.end()) {
    std::erase(c->second, ticket);
    if (c->second.empty()) by_conn_.erase(c);
  }
  entries_.erase(it);
}

void queue_service::count() { waiting_.store(entries_.size()); }

// ---------------------------------------------------------------------------
// Waves.

void queue_service::tick() {
  if (stopped_) return;
  const std::int64_t now = s_.ex->now_ms();
  std::size_t largest = 0;
  for (const auto& [pool, n] : pool_sizes_) largest = std::max(largest, n);
  if (!entries_.empty() && now >= queue::next_wave_due(params_.waves, last_wave_ms_, largest)) {
    last_wave_ms_ = now;
    // The wave's matchmaker, from the searches as they are now: 2v2
    // partners who named each other become parties (queue/parties.hpp).
    std::vector<queue::search> searches;
    searches.reserve(entries_.size());
    for (const auto& [id, e] : entries_) {
      queue::search sr{e.ticket, e.name, e.msg.partner};
      if (auto it = last_opponents_.find(e.ticket.members.front().account); it != last_opponents_.end())
        sr.t.last_opponents = it->second.accounts;
      searches.push_back(std::move(sr));
    }
    const auto plan = queue::plan_parties(searches);
    queue::matchmaker mm(params_);
    for (const auto& t : plan.tickets) mm.add(t);
    auto wave = mm.pass(now);
    // The other searches of the players seated: they leave those pools.
    std::map<std::uint64_t, std::vector<std::int64_t>> dropped;
    for (std::int64_t t : queue::searches_of(plan, wave.dropped))
      if (auto it = entries_.find(t); it != entries_.end()) dropped[it->second.conn].push_back(t);
    for (const auto& [conn, tickets] : dropped) {
      std::shared_ptr<client_session> who;
      for (std::int64_t t : tickets) {
        if (auto it = entries_.find(t); it != entries_.end()) who = it->second.who.lock();
        forget(t);
      }
      if (who) who->send(pr::make_unqueued(json(), tickets, "matched"));
    }
    for (const auto& m : wave.matches) seat(m, plan);
    count();
  }
  // Once a minute: forget the opponents of matches older than the memory.
  if (now - last_prune_ms_ >= 60'000) {
    last_prune_ms_ = now;
    std::erase_if(last_opponents_, [&](const auto& kv) { return now - kv.second.at_ms > s_.remember_opponents_ms; });
  }
  schedule_tick();
}

// The timer holds the queue weakly: the executor keeps its timers, and the
// queue keeps the executor, so a strong hold would keep both alive forever.
void queue_service::schedule_tick() {
  s_.ex->schedule(s_.tick, [weak = weak_from_this()] {
    if (auto self = weak.lock()) self->tick();
  });
}

void queue_service::seat(const queue::match& m, const queue::party_plan& plan) {
  // Each seat's search (a party's seat: its member's own).
  std::vector<std::int64_t> tickets;
  for (const auto& s : m.seats) tickets.push_back(queue::search_of(plan, s));
  // Every player of the table must still be there and free: a connection
  // that closed or entered a room since leaves the others queued, as they
  // were (their searches stay for the next wave).
  std::vector<std::shared_ptr<client_session>> who;
  for (std::int64_t t : tickets) {
    auto it = entries_.find(t);
    auto c = it == entries_.end() ? nullptr : it->second.who.lock();
    if (c && !c->closed() && !c->attached()) who.push_back(std::move(c));
    else forget(t);
  }
  if (who.size() != m.seats.size()) return;

  const auto& first = entries_.at(tickets[0]).msg;
  std::vector<std::string> tokens, reserved, names;
  std::vector<room::params::reserved_player> players;
  for (std::size_t i = 0; i < m.seats.size(); ++i) {
    tokens.push_back(s_.env->random_hex(pr::token_chars));
    reserved.push_back(sha256_hex(tokens.back()));
    const entry& e = entries_.at(tickets[i]);
    names.push_back(e.name);
    players.push_back({e.name, e.msg.deck, m.seats[i].account});
  }
  room::params p;
  p.mode = first.mode;
  p.format = first.format;
  p.options.seats = static_cast<int>(m.seats.size());  // the mode's (check_room_config)
  p.rated = first.rated;  // the store rates it as the match ends (docs/ratings.md)
  p.reserved = reserved;
  p.reserved_players = std::move(players);
  room_registry::refusal why{};
  auto r = s_.rooms->create_with(std::move(p), std::nullopt, &why);
  if (!r) {
    spdlog::warn("queue: no room for a {} match ({}): its {} players stay queued", game_mode_name(first.mode),
                 why == room_registry::refusal::full ? "max_rooms reached" : "the store is unavailable",
                 m.seats.size());
    return;
  }
  // Each connection is claimed for the room at once (a join it sends now
  // meets already_in_room); one already elsewhere sends the rest back.
  std::size_t claimed = 0;
  for (; claimed < who.size(); ++claimed)
    if (!who[claimed]->try_attach(r)) break;
  if (claimed != who.size()) {
    for (std::size_t i = 0; i < claimed; ++i) who[i]->detach(r.get());
    forget(tickets[claimed]);
    r->retire("its queued players were not all free");
    return;
  }
  ++matches_;
  spdlog::info("queue: room {} for {} ({} {}, spread {:.0f}): {}", r->id(), game_mode_name(first.mode),
               pr::deck_format_name(first.format), first.rated ? "rated" : "casual", m.spread,
               [&] {
                 std::string s;
                 for (std::size_t i = 0; i < names.size(); ++i) s += (i ? ", " : "") + names[i];
                 return s;
               }());
  for (std::size_t i = 0; i < m.seats.size(); ++i) {
    const entry& e = entries_.at(tickets[i]);
    std::vector<std::int64_t> opponents;
    for (const auto& o : m.seats)
      if (o.account != m.seats[i].account) opponents.push_back(o.account);
    last_opponents_[m.seats[i].account] = met{std::move(opponents), s_.ex->now_ms()};
    who[i]->send(pr::make_matched(info_of(e.ticket.id, e.msg), r->id(), static_cast<int>(i), tokens[i], names));
    pr::join_msg j;
    j.room = r->id();
    j.name = e.name;
    j.seat = static_cast<int>(i);
    j.deck = e.msg.deck;
    r->join_reserved(who[i], std::move(j), tokens[i]);
  }
  for (std::int64_t t : tickets) forget(t);
}

}  // namespace cod::server
