#include "queue_service/cluster_queue.hpp"

#include <algorithm>
#include <chrono>
#include <utility>

#include <spdlog/spdlog.h>

#include "cod/protocol/messages.hpp"
#include "common/sha256.hpp"
#include "room/room.hpp"

namespace cod::server {

namespace pr = cod::protocol;
using nlohmann::json;

std::string pool_text(const pr::queue_msg& m) {
  return std::string(game_mode_name(m.mode)) + "/" + std::string(pr::deck_format_name(m.format)) + "/" +
         (m.rated ? "rated" : "casual");
}

namespace {

// A stored pool back as the `queue` message's fields; nullopt: not a pool
// this server knows (a row written by hand, or by a newer server).
std::optional<pr::queue_msg> pool_from_text(const std::string& text) {
  const auto a = text.find('/');
  const auto b = a == std::string::npos ? a : text.find('/', a + 1);
  if (b == std::string::npos) return std::nullopt;
  const auto mode = game_mode_from_name(text.substr(0, a));
  const auto format = pr::deck_format_from_name(text.substr(a + 1, b - a - 1));
  const std::string rated = text.substr(b + 1);
  if (!mode || !format || (rated != "rated" && rated != "casual")) return std::nullopt;
  pr::queue_msg m;
  m.mode = *mode;
  m.format = *format;
  m.rated = rated == "rated";
  if (queue_pool_problem(m)) return std::nullopt;
  return m;
}

pr::queue_ticket_info info_of(std::int64_t ticket, const pr::queue_msg& m) {
  return {ticket, m.mode, m.format, m.rated};
}

std::int64_t steady_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

const char* const store_down = "the queue's store is unavailable: try again in a moment";

}  // namespace

cluster_queue::cluster_queue(queue_services s, queue_board& board, cluster_queue_options o, queue::queue_params p)
    : s_(std::move(s)), board_(board), o_(std::move(o)), params_(p) {}

cluster_queue::~cluster_queue() { stop(); }

void cluster_queue::start() {
  // The connections of this node's earlier life died with it.
  if (status st = board_.drop_node_tickets(o_.node_id); !st)
    spdlog::warn("queue: the tickets of node {}'s earlier life were not dropped: {}", o_.node_id, st.message());
  thread_ = std::thread([this] { run(); });
}

void cluster_queue::run() {
  for (;;) {
    {
      std::unique_lock lk(mu_);
      wake_.wait_for(lk, std::chrono::milliseconds(o_.tick_ms), [this] { return stop_ || !inbox_.empty(); });
      if (stop_) return;
    }
    step();
  }
}

void cluster_queue::stop() {
  {
    std::lock_guard lk(mu_);
    if (stopped_) return;
    stopped_ = stop_ = true;
    wake_.notify_all();
  }
  if (thread_.joinable()) thread_.join();
  // The requests still waiting are refused; every ticket is withdrawn.
  std::vector<op> left;
  {
    std::lock_guard lk(mu_);
    left.swap(inbox_);
  }
  for (auto& o : left)
    if (auto* a = std::get_if<add_op>(&o)) a->who->send(pr::make_error(a->msg.id, pr::session_errc::shutting_down));
  std::vector<std::int64_t> all;
  for (const auto& [id, e] : entries_) all.push_back(id);
  if (!all.empty()) {
    if (auto gone = board_.forget_tickets(o_.node_id, all); !gone)
      spdlog::warn("queue: {} tickets not withdrawn at shutdown (they go with this node's heartbeat): {}", all.size(),
                   gone.error().message());
  }
  std::map<std::uint64_t, std::vector<std::int64_t>> conns;
  conns.swap(by_conn_);
  for (auto& [conn, tickets] : conns) {
    std::shared_ptr<client_session> who;
    for (std::int64_t t : tickets)
      if (auto it = entries_.find(t); it != entries_.end()) who = it->second.who.lock();
    if (who) who->send(pr::make_unqueued(json(), tickets, "shutting_down"));
  }
  entries_.clear();
  count();
  if (holds_lease_) board_.release_matcher(o_.node_id);
  holds_lease_ = false;
  matching_.store(false);
}

void cluster_queue::push(op o) {
  std::lock_guard lk(mu_);
  if (stop_) {
    if (auto* a = std::get_if<add_op>(&o)) a->who->send(pr::make_error(a->msg.id, pr::session_errc::shutting_down));
    return;
  }
  inbox_.push_back(std::move(o));
  wake_.notify_one();
}

void cluster_queue::enqueue(std::shared_ptr<client_session> who, pr::queue_msg m) {
  read_rating_then(s_, std::move(who), std::move(m),
                   [self = shared_from_this()](std::shared_ptr<client_session> who, pr::queue_msg m, double rating) {
                     self->push(add_op{std::move(who), std::move(m), rating});
                   });
}

void cluster_queue::unqueue(std::shared_ptr<client_session> who, pr::unqueue_msg m) {
  push(unqueue_op{std::move(who), std::move(m)});
}

void cluster_queue::leave(std::uint64_t conn, std::string reason) { push(leave_op{conn, std::move(reason)}); }

void cluster_queue::step() {
  std::vector<op> ops;
  {
    std::lock_guard lk(mu_);
    ops.swap(inbox_);
  }
  for (auto& o : ops) std::visit([this](auto& x) { apply(x); }, o);
  count();
  const std::int64_t now = steady_ms();
  keep_alive(now);
  if (holds_lease_) wave();
  deliver();
  if (holds_lease_ && now >= next_housekeeping_ms_) {
    next_housekeeping_ms_ = now + o_.housekeeping_every_ms;
    if (auto n = board_.forget_stale_tickets(o_.alive_within_ms * 2, s_.remember_opponents_ms); !n)
      spdlog::warn("queue: housekeeping failed: {}", n.error().message());
    else if (*n > 0)
      spdlog::info("queue: {} tickets of nodes silent for {} ms forgotten", *n, o_.alive_within_ms * 2);
  }
}

void cluster_queue::keep_alive(std::int64_t now) {
  if (now < next_heartbeat_ms_) return;
  next_heartbeat_ms_ = now + o_.heartbeat_every_ms;
  if (status st = board_.heartbeat(o_.node_id); !st) spdlog::warn("queue: heartbeat failed: {}", st.message());
  const auto held = board_.claim_matcher(o_.node_id, o_.matcher_lease_ms);
  const bool now_holds = held && *held;
  if (!held) spdlog::warn("queue: the matcher's lease could not be claimed: {}", held.error().message());
  if (now_holds != holds_lease_) {
    if (now_holds) spdlog::info("queue: node {} matches the cluster's queue now (the matcher's lease)", o_.node_id);
    else spdlog::info("queue: node {} no longer matches the cluster's queue (another node holds the lease)", o_.node_id);
    // A new matching node starts its waves afresh.
    last_wave_ms_ = 0;
  }
  holds_lease_ = now_holds;
  matching_.store(now_holds);
}

// ---------------------------------------------------------------------------
// Requests.

void cluster_queue::apply(add_op& o) {
  auto& who = o.who;
  const auto& m = o.msg;
  // Closed while its rating was read: its leave has gone by already.
  if (who->closed()) return;
  if (entries_.size() >= s_.max_tickets) {
    spdlog::warn("queue: full ({} tickets on this node, config queue_max_tickets): a queue from connection {} refused",
                 entries_.size(), who->id());
    return who->send(pr::make_error(m.id, pr::session_errc::server_busy, "the queue is full: try again in a moment"));
  }
  // The connection may have entered a room while its rating was read.
  if (who->attached()) return who->send(pr::make_error(m.id, pr::session_errc::already_in_room));
  queue_ticket_row row;
  row.node_id = o_.node_id;
  row.account_id = who->account_id();
  row.pool = pool_text(m);
  row.rating = o.rating;
  row.address = who->address();
  row.name = who->account_name();
  std::string token = s_.env->random_hex(pr::token_chars);
  row.seat_hash = sha256_hex(token);
  row.deck = pr::deck_to_json(m.deck).dump();
  row.partner = m.partner;
  auto added = board_.add_ticket(row, o_.alive_within_ms);
  if (!added) {
    spdlog::warn("queue: a ticket for account {} not stored: {}", row.account_id, added.error().message());
    return who->send(pr::make_error(m.id, pr::session_errc::server_busy, store_down));
  }
  if (!*added) return who->send(pr::make_error(m.id, pr::session_errc::already_queued));
  const std::int64_t id = (*added)->ticket;
  std::size_t searching = 0;
  for (const auto& [t, e] : entries_)
    if (pool_text(e.msg) == row.pool) ++searching;
  entries_[id] = entry{who, who->id(), std::move(token), m};
  by_conn_[who->id()].push_back(id);
  spdlog::debug("queue: ticket {} for account {} ({}, rating {:.0f})", id, row.account_id, row.pool, o.rating);
  who->send(pr::make_queued(m.id, info_of(id, m), searching + 1));
}

void cluster_queue::apply(unqueue_op& o) {
  std::vector<std::int64_t> mine;
  if (auto it = by_conn_.find(o.who->id()); it != by_conn_.end())
    for (std::int64_t t : it->second)
      if (!o.msg.ticket || *o.msg.ticket == t) mine.push_back(t);
  if (mine.empty()) return o.who->send(pr::make_error(o.msg.id, pr::session_errc::not_queued));
  auto gone = board_.withdraw_tickets(o_.node_id, mine);
  if (!gone) {
    spdlog::warn("queue: an unqueue of connection {} failed: {}", o.who->id(), gone.error().message());
    return o.who->send(pr::make_error(o.msg.id, pr::session_errc::server_busy, store_down));
  }
  // A ticket matched meanwhile stays: its `matched` follows.
  if (gone->empty())
    return o.who->send(pr::make_error(o.msg.id, pr::session_errc::not_queued,
                                      "that search has just been matched: matched follows"));
  for (std::int64_t t : *gone) forget(t);
  o.who->send(pr::make_unqueued(o.msg.id, *gone, "unqueued"));
}

void cluster_queue::apply(leave_op& o) {
  auto it = by_conn_.find(o.conn);
  if (it == by_conn_.end()) return;
  const std::vector<std::int64_t> mine = it->second;
  std::shared_ptr<client_session> who;
  for (std::int64_t t : mine)
    if (auto e = entries_.find(t); e != entries_.end()) who = e->second.who.lock();
  // Matched ones too: a player who has gone takes no seat (the room waits
  // the grace period for it, then closes, and the others queue again).
  if (auto gone = board_.forget_tickets(o_.node_id, mine); !gone)
    spdlog::warn("queue: connection {}'s tickets not withdrawn (they go with the next matched read or this node's "
                 "restart): {}",
                 o.conn, gone.error().message());
  for (std::int64_t t : mine) forget(t);
  if (who && !o.reason.empty()) who->send(pr::make_unqueued(json(), mine, o.reason));
}

void cluster_queue::forget(std::int64_t ticket) {
  auto it = entries_.find(ticket);
  if (it == entries_.end()) return;
  auto c = by_conn_.find(it->second.conn);
  if (c != by_conn_.end()) {
    std::erase(c->second, ticket);
    if (c->second.empty()) by_conn_.erase(c);
  }
  entries_.erase(it);
}

// ---------------------------------------------------------------------------
// The matching node's waves.

void cluster_queue::wave() {
  auto snap = board_.waiting_tickets(o_.alive_within_ms, s_.remember_opponents_ms);
  if (!snap) {
    spdlog::warn("queue: the waiting tickets could not be read: {}", snap.error().message());
    return;
  }
  if (snap->tickets.empty()) return;
  std::map<std::int64_t, queue_ticket_row> rows;
  std::vector<queue::search> searches;
  std::size_t largest = 0;
  std::map<std::string, std::size_t> pool_sizes;
  for (auto& r : snap->tickets) {
    const auto pool = pool_from_text(r.pool);
    if (!pool) {
      spdlog::warn("queue: ticket {} names a pool this server does not know ('{}'): skipped", r.ticket, r.pool);
      continue;
    }
    queue::search sr;
    sr.t.id = r.ticket;
    sr.t.pool = pool_of(*pool);
    sr.t.members = {queue::member{r.account_id, r.rating, 0}};
    sr.t.enqueued_ms = r.enqueued_ms;
    sr.t.address = r.address;
    sr.t.last_opponents = r.last_opponents;
    sr.name = r.name;
    sr.partner = r.partner;
    searches.push_back(std::move(sr));
    largest = std::max(largest, ++pool_sizes[r.pool]);
    rows.emplace(r.ticket, std::move(r));
  }
  if (last_wave_ms_ == 0) {
    // A new matching node waits one wave's time: the first wave sees the
    // tickets its predecessor had not matched, as a wave would.
    last_wave_ms_ = snap->now_ms;
    return;
  }
  if (snap->now_ms < queue::next_wave_due(params_.waves, last_wave_ms_, largest)) return;
  last_wave_ms_ = snap->now_ms;
  // 2v2 partners who named each other are one party (queue/parties.hpp).
  const auto plan = queue::plan_parties(searches);
  queue::matchmaker mm(params_);
  for (const auto& t : plan.tickets) mm.add(t);  // the store keeps one search a pool an account
  const auto result = mm.pass(snap->now_ms);
  for (const auto& m : result.matches) seat(m, plan, rows);
}

void cluster_queue::seat(const queue::match& m, const queue::party_plan& plan,
                         const std::map<std::int64_t, queue_ticket_row>& rows) {
  std::vector<std::string> names, reserved;
  std::vector<room::params::reserved_player> players;
  std::vector<queue_seating> seating;
  for (std::size_t i = 0; i < m.seats.size(); ++i) {
    const auto& row = rows.at(queue::search_of(plan, m.seats[i]));
    room::params::reserved_player p;
    p.name = row.name;
    p.account_id = row.account_id;
    json deck = json::parse(row.deck, nullptr, false);
    if (deck.is_discarded() || pr::deck_from_json(deck, p.deck)) {
      // A row no server of this version wrote: it goes, so that it does
      // not hold its table back in every wave.
      spdlog::warn("queue: ticket {} of node {} has an unreadable deck: withdrawn, its table not seated", row.ticket,
                   row.node_id);
      board_.forget_tickets(row.node_id, {row.ticket});
      return;
    }
    names.push_back(row.name);
    reserved.push_back(row.seat_hash);
    players.push_back(std::move(p));
    seating.push_back({row.ticket, static_cast<int>(i)});
  }
  const auto pool = *pool_from_text(rows.at(seating[0].ticket).pool);
  room::params p;
  p.mode = pool.mode;
  p.format = pool.format;
  p.options.seats = static_cast<int>(m.seats.size());
  p.rated = pool.rated;
  p.reserved = std::move(reserved);
  p.reserved_players = std::move(players);
  room_registry::refusal why{};
  auto r = s_.rooms->create_with(std::move(p), std::nullopt, &why);
  if (!r) {
    spdlog::warn("queue: no room for a {} match ({}): its {} players stay queued", pool_text(pool),
                 why == room_registry::refusal::full ? "max_rooms reached" : "the store is unavailable",
                 m.seats.size());
    return;
  }
  auto done = board_.match_tickets(o_.node_id, r->id(), seating, json(names).dump());
  if (!done || !*done) {
    if (!done) spdlog::warn("queue: room {}'s players not marked matched: {}", r->id(), done.error().message());
    else spdlog::info("queue: room {} given up: a ticket left meanwhile, or another node matches now", r->id());
    r->retire("its queued players were not all there");
    return;
  }
  ++matches_;
  std::string who;
  for (std::size_t i = 0; i < names.size(); ++i) who += (i ? ", " : "") + names[i];
  spdlog::info("queue: room {} for {} (spread {:.0f}): {}", r->id(), pool_text(pool), m.spread, who);
}

// ---------------------------------------------------------------------------
// This node's players, matched.

void cluster_queue::deliver() {
  auto matched = board_.matched_tickets(o_.node_id);
  if (!matched) {
    spdlog::warn("queue: the matched tickets could not be read: {}", matched.error().message());
    return;
  }
  if (matched->empty()) return;
  std::vector<std::int64_t> told;
  for (const auto& row : *matched) {
    told.push_back(row.ticket);
    auto it = entries_.find(row.ticket);
    if (it == entries_.end()) continue;  // its player left meanwhile
    const entry e = it->second;
    auto who = e.who.lock();
    // The player's other searches went with the match (match_tickets).
    std::vector<std::int64_t> others;
    if (auto c = by_conn_.find(e.conn); c != by_conn_.end())
      for (std::int64_t t : c->second)
        if (t != row.ticket) others.push_back(t);
    for (std::int64_t t : others) forget(t);
    forget(row.ticket);
    if (!who || who->closed() || who->attached()) {
      spdlog::info("queue: the player of ticket {} left before its match in room {}: seat {} stays empty",
                   row.ticket, row.room_id, row.seat);
      continue;
    }
    std::vector<std::string> names;
    json players = json::parse(row.players, nullptr, false);
    if (players.is_array())
      for (const auto& n : players)
        if (n.is_string()) names.push_back(n.get<std::string>());
    auto r = s_.rooms->find(row.room_id);
    if (r && who->try_attach(r)) {
      who->send(pr::make_matched(info_of(row.ticket, e.msg), row.room_id, row.seat, e.token, names));
      pr::join_msg j;
      j.room = row.room_id;
      j.name = who->account_name();
      j.seat = row.seat;
      j.deck = e.msg.deck;
      r->join_reserved(who, std::move(j), e.token);
    } else {
      who->send(pr::make_matched(info_of(row.ticket, e.msg), row.room_id, row.seat, e.token, names,
                                 "/ws?room=" + row.room_id));
    }
    if (!others.empty()) who->send(pr::make_unqueued(json(), others, "matched"));
  }
  count();
  if (auto gone = board_.forget_tickets(o_.node_id, told); !gone)
    spdlog::warn("queue: {} matched tickets not forgotten (told again at the next read): {}", told.size(),
                 gone.error().message());
}

}  // namespace cod::server
