#include "room/room_registry.hpp"

#include <algorithm>

#include <spdlog/spdlog.h>

#include "common/metrics.hpp"

namespace cod::server {

room_registry::room_registry(room_services& services, executor_factory make_executor)
    : svc_(services), make_executor_(std::move(make_executor)) {}

std::shared_ptr<room> room_registry::create(game_mode mode, protocol::deck_format format,
                                            const protocol::room_options& options,
                                            std::vector<std::string> reserved, std::string creator_address,
                                            refusal* why, std::vector<card_def> cards) {
  room::params p;
  p.mode = mode;
  p.format = format;
  p.options = options;
  p.reserved = std::move(reserved);
  p.creator_address = std::move(creator_address);
  p.cards = std::move(cards);
  // A solo room's chosen deal (options.seed); otherwise a fresh seed.
  return create_with(std::move(p), options.seed, why);
}

std::shared_ptr<room> room_registry::create_with(room::params p, std::optional<std::uint64_t> seed, refusal* why) {
  refusal ignored;
  if (!why) why = &ignored;
  *why = refusal::full;
  // Capacity counts rooms not finished: a finished room stays a while for
  // its players but holds no place.
  const auto max_rooms = static_cast<std::size_t>(svc_.cfg.max_rooms);
  std::shared_ptr<room> r;
  std::shared_ptr<room> evicted;
  std::shared_ptr<room> replaced;  // a vacant waiting room of the same address
  {
    std::lock_guard lock(mutex_);
    if (stopping_) return nullptr;
    if (svc_.cfg.max_waiting_rooms_per_address > 0 && !p.creator_address.empty()) {
      auto it = waiting_by_address_.find(p.creator_address);
      if (it != waiting_by_address_.end() &&
          it->second >= static_cast<std::size_t>(svc_.cfg.max_waiting_rooms_per_address)) {
        replaced = take_vacant_place(p.creator_address);
        if (!replaced) {
          *why = refusal::address_busy;
          return nullptr;
        }
      }
    }
    if (unfinished_ >= max_rooms) {
      if (replaced) count_in(*replaced, protocol::room_status::waiting, true);
      return nullptr;
    }
    // Finished rooms are kept up to max_rooms of them (memory stays bounded
    // however fast matches end): past that, the first seen finished goes.
    if (rooms_.size() >= 2 * max_rooms) {
      while (!evicted && !finished_.empty()) {
        auto candidate = finished_.front().lock();
        finished_.pop_front();
        if (!candidate) continue;
        auto it = rooms_.find(candidate->id());
        if (it == rooms_.end() || it->second != candidate) continue;  // closed already
        rooms_.erase(it);
        count_out(candidate.get());
        evicted = std::move(candidate);
      }
      if (!evicted) {
        if (replaced) count_in(*replaced, protocol::room_status::waiting, true);
        return nullptr;
      }
    }
    // A cluster's node names its rooms: the proxy routes them by it.
    const std::string prefix = svc_.cfg.node_id.empty() ? std::string() : svc_.cfg.node_id + "-";
    std::string id = prefix + svc_.env->random_room_id();
    while (rooms_.count(id)) id = prefix + svc_.env->random_room_id();
    p.id = id;
    p.seed = seed ? *seed : svc_.env->random_u64();
    r = std::make_shared<room>(svc_, make_executor_(), std::move(p));
    rooms_.emplace(id, r);
    count_in(*r, protocol::room_status::waiting);
    svc_.stats->rooms = static_cast<std::int64_t>(rooms_.size());
  }
  if (svc_.claim_new_room) {
    // Outside the mutex: a round trip to the shared store.
    if (const status st = svc_.claim_new_room(r->id()); !st) {
      spdlog::error("room {}: not created: its lease cannot be taken: {}", r->id(), st.message());
      remove(r->id(), r.get());
      if (evicted) evicted->evict();
      if (replaced) replaced->evict_vacant();  // counted out already; nobody was in it
      *why = refusal::unavailable;
      return nullptr;
    }
  }
  summary_changed();
  if (evicted) evicted->evict();
  if (replaced) {
    spdlog::info("room {}: vacant, closed to make place for room {} from the same address ({})", replaced->id(),
                 r->id(), r->creator_address());
    replaced->evict_vacant();
  }
  *why = refusal::none;
  r->start(weak_from_this());
  return r;
}

std::optional<protocol::protocol_error> room_registry::check_pool(game_mode mode, protocol::deck_format format,
                                                                  const protocol::room_options& options) const {
  if (!protocol::is_drafted(format)) return std::nullopt;
  draft_config cfg;
  cfg.format = format == protocol::deck_format::draft ? draft_format::draft : draft_format::instant_constructed;
  cfg.table = protocol::draft_table_of(mode);
  cfg.packs = options.packs;
  draft d;
  std::vector<draft_event> events;
  auto e = draft::create(*svc_.cat, cfg, d, events);
  if (e == draft_error::ok && options.champions) {
    // R13.1, RULING E67: each human seat's Champion will be withheld from
    // the pool: it must still be large enough without as many cards.
    for (int s = 0; s < seats_of(mode); ++s)
      if (!is_ai_seat(mode, static_cast<seat_t>(s)))
        cfg.withheld.push_back(d.state().pool[static_cast<std::size_t>(s)]);
    draft fewer;
    events.clear();
    e = draft::create(*svc_.cat, cfg, fewer, events);
  }
  if (e == draft_error::ok) return std::nullopt;
  std::string message(draft_error_message(e));
  message += " (";
  message += draft_error_name(e);
  message += ", R14.8)";
  if (e == draft_error::pool_too_small && options.champions)
    message += ": the seats' Champions are withheld from the pool (R13.1, RULING E67)";
  return protocol::protocol_error{protocol::protocol_errc::bad_field_value,
                                  e == draft_error::format_not_allowed ? "format" : "options.packs", message};
}

std::shared_ptr<room> room_registry::find(std::string_view id) const {
  std::lock_guard lock(mutex_);
  auto it = rooms_.find(std::string(id));
  return it == rooms_.end() ? nullptr : it->second;
}

std::shared_ptr<const room_registry::snapshot_t> room_registry::snapshot() const {
  std::lock_guard snap_lock(snapshot_mutex_);
  // Read before the walk: a change during it makes the next call rebuild.
  const auto generation = generation_.load(std::memory_order_relaxed);
  if (snapshot_ && snapshot_generation_ == generation) return snapshot_;
  std::vector<std::shared_ptr<room>> rooms;
  {
    std::lock_guard lock(mutex_);
    rooms.reserve(rooms_.size());
    for (const auto& [id, r] : rooms_) rooms.push_back(r);
  }
  auto fresh = std::make_shared<snapshot_t>();
  fresh->reserve(rooms.size());
  for (const auto& r : rooms) fresh->push_back({r->summary(), r->creator_address()});
  std::sort(fresh->begin(), fresh->end(), [](const listed& a, const listed& b) { return a.summary.room < b.summary.room; });
  snapshot_ = std::move(fresh);
  snapshot_generation_ = generation;
  return snapshot_;
}

room_registry::page room_registry::list(const protocol::list_rooms_msg& q) const {
  const auto snap = snapshot();
  const auto matches = [&q](const protocol::room_summary& s) {
    return (!q.room || s.room == *q.room) && (!q.status || s.status == *q.status) && (!q.mode || s.mode == *q.mode) &&
           (!q.format || s.format == *q.format);
  };
  page out;
  const auto limit = static_cast<std::size_t>(std::clamp(q.limit, 1, protocol::max_room_page));
  for (const listed& l : *snap) {
    if (!matches(l.summary)) continue;
    ++out.total;
    if (q.after && l.summary.room <= *q.after) continue;
    if (out.rooms.size() < limit) out.rooms.push_back(l.summary);
    else if (!out.next) out.next = out.rooms.back().room;
  }
  return out;
}

std::size_t room_registry::size() const {
  std::lock_guard lock(mutex_);
  return rooms_.size();
}

void room_registry::finished(const std::shared_ptr<room>& r) {
  std::lock_guard lock(mutex_);
  finished_.push_back(r);
  // A room that closed (its time was up) stays here as an expired entry,
  // and keeps its memory: make_shared put the room in the same block as the
  // count the weak_ptr holds. Drop them once they outnumber the rooms.
  if (finished_.size() > 2 * rooms_.size() + 64)
    std::erase_if(finished_, [](const std::weak_ptr<room>& w) { return w.expired(); });
}

void room_registry::remove(const std::string& id, const room* r) {
  {
    std::lock_guard lock(mutex_);
    auto it = rooms_.find(id);
    if (it == rooms_.end() || it->second.get() != r) return;
    rooms_.erase(it);
    count_out(r);
    svc_.stats->rooms = static_cast<std::int64_t>(rooms_.size());
  }
  summary_changed();
}

void room_registry::status_is(const room* r, protocol::room_status status, bool vacant) {
  std::lock_guard lock(mutex_);
  auto it = counted_.find(r);
  if (it == counted_.end()) return;
  it->second.vacant = vacant;
  if (it->second.status == status) return;
  count(it->second, -1);
  it->second.status = status;
  count(it->second, +1);
}

void room_registry::count_in(const room& r, protocol::room_status status, bool vacant) {
  auto [it, added] = counted_.emplace(&r, counted{status, r.creator_address(), r.id(), vacant});
  if (added) count(it->second, +1);
}

void room_registry::count_again(const room& r) {
  const auto status = r.summary().status;
  std::lock_guard lock(mutex_);
  auto it = rooms_.find(r.id());
  if (it == rooms_.end() || it->second.get() != &r) return;
  count_in(r, status);
}

std::shared_ptr<room> room_registry::take_vacant_place(const std::string& address) {
  // The room listed first (lowest id) among the address's vacant ones: any
  // would do, and an order that does not depend on the hash map's keeps the
  // choice reproducible in tests.
  const room* chosen = nullptr;
  const std::string* chosen_id = nullptr;
  for (const auto& [r, c] : counted_) {
    if (!c.vacant || c.status != protocol::room_status::waiting || c.creator_address != address) continue;
    if (!chosen || c.id < *chosen_id) {
      chosen = r;
      chosen_id = &c.id;
    }
  }
  if (!chosen) return nullptr;
  auto it = rooms_.find(*chosen_id);
  if (it == rooms_.end() || it->second.get() != chosen) return nullptr;
  auto victim = it->second;
  count_out(chosen);
  return victim;
}

void room_registry::count_out(const room* r) {
  auto it = counted_.find(r);
  if (it == counted_.end()) return;
  count(it->second, -1);
  counted_.erase(it);
}

void room_registry::count(const counted& c, int delta) {
  if (c.status != protocol::room_status::finished) unfinished_ += static_cast<std::size_t>(delta);
  if (c.status != protocol::room_status::waiting || c.creator_address.empty()) return;
  auto& n = waiting_by_address_[c.creator_address];
  n += static_cast<std::size_t>(delta);
  if (n == 0) waiting_by_address_.erase(c.creator_address);
}

std::size_t room_registry::recover(std::vector<stored_match> matches) {
  // A cluster's node takes back its own rooms only (their ids carry its
  // node_id): another node's matches in the shared store are that node's.
  if (!svc_.cfg.node_id.empty()) {
    const std::string mine = svc_.cfg.node_id + "-";
    const auto others = std::erase_if(matches, [&](const stored_match& m) { return !m.match.room_id.starts_with(mine); });
    if (others > 0) spdlog::info("recovery: {} stored matches of other nodes' rooms left to them", others);
  }
  // Finished matches: as many as a running server keeps (max_rooms finished
  // rooms; past that the first finished closes), the newest. At 30 matches
  // ending a second, finished_room_ttl_sec's worth would otherwise multiply
  // the memory after each restart. Oldest first: the order of eviction.
  const auto ended = [](const stored_match& m) { return m.finished() ? m.result.value().ended_ms : 0; };
  std::stable_sort(matches.begin(), matches.end(), [&](const stored_match& a, const stored_match& b) {
    return a.finished() == b.finished() ? ended(a) < ended(b) : !a.finished();
  });
  const auto keep = static_cast<std::size_t>(std::max(svc_.cfg.max_rooms, 0));
  const auto first_finished = std::find_if(matches.begin(), matches.end(), [](const stored_match& m) {
    return m.finished();
  });
  const auto finished = static_cast<std::size_t>(matches.end() - first_finished);
  if (finished > keep) {
    spdlog::info("recovery: {} finished matches to show; the newest {} (max_rooms) are kept", finished, keep);
    matches.erase(first_finished, matches.end() - static_cast<std::ptrdiff_t>(keep));
  }
  return rebuild(matches);
}

std::shared_ptr<room> room_registry::adopt(stored_match match) {
  const std::string id = match.match.room_id;
  {
    std::lock_guard lock(mutex_);
    if (rooms_.count(id)) return nullptr;
  }
  if (rebuild({std::move(match)}) == 0) return nullptr;
  return find(id);
}

std::vector<std::pair<std::string, bool>> room_registry::room_states() const {
  std::lock_guard lock(mutex_);
  std::vector<std::pair<std::string, bool>> out;
  out.reserve(rooms_.size());
  for (const auto& [id, r] : rooms_) {
    auto it = counted_.find(r.get());
    out.emplace_back(id, it != counted_.end() && it->second.status == protocol::room_status::finished);
  }
  return out;
}

std::vector<protocol::room_summary> room_registry::summaries() const {
  const auto snap = snapshot();
  std::vector<protocol::room_summary> out;
  out.reserve(snap->size());
  for (const listed& l : *snap) out.push_back(l.summary);
  return out;
}

std::size_t room_registry::rebuild(const std::vector<stored_match>& matches) {
  std::size_t n = 0;
  for (const auto& sm : matches) {
    auto recovered = room::recover(svc_, make_executor_(), sm);
    const std::string error = recovered.error().message();
    if (!recovered && sm.finished()) {
      // Only its result was to be shown; the match itself is settled.
      spdlog::info("recovery: finished match {} (room {}) gets no room back: {}", sm.match.match_id,
                   sm.match.room_id, error);
      continue;
    }
    if (!recovered) {
      spdlog::error("recovery: match {} (room {}) cannot be rebuilt: {}; finished as recovery_failed",
                    sm.match.match_id, sm.match.room_id, error);
      match_result res;
      res.reason = "recovery_failed";
      res.ended_ms = svc_.env->wall_ms();
      svc_.store->finish_match(sm.match.match_id, res, [](const server::status&) {});
      continue;
    }
    const std::shared_ptr<room> r = std::move(*recovered);
    {
      std::lock_guard lock(mutex_);
      if (rooms_.count(r->id())) {
        spdlog::error("recovery: match {}: room {} is already taken by another unfinished match; skipped",
                      sm.match.match_id, r->id());
        continue;
      }
      rooms_.emplace(r->id(), r);
      count_in(*r, r->summary().status);
      svc_.stats->rooms = static_cast<std::int64_t>(rooms_.size());
    }
    summary_changed();
    r->start(weak_from_this());
    if (sm.finished())
      spdlog::info("recovery: room {} shows the result of match {} (finished, {} actions) to seats resuming with "
                   "their tokens",
                   r->id(), sm.match.match_id, sm.actions.size());
    else
      spdlog::info("recovery: room {} rebuilt from match {} ({} actions); seats may resume with their tokens",
                   r->id(), sm.match.match_id, sm.actions.size());
    ++n;
  }
  return n;
}

void room_registry::shutdown() {
  std::vector<std::shared_ptr<room>> rooms;
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
    for (const auto& [id, r] : rooms_) rooms.push_back(r);
  }
  for (const auto& r : rooms) r->shutdown();
}

}  // namespace cod::server
