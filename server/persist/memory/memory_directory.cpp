// memory_store's room_directory (room_directory.hpp): leases and the lobby in
// maps under the store's mutex, on the system clock (there is one process,
// so its clock is the store's).
#include <algorithm>
#include <chrono>

#include "persist/directory_args.hpp"
#include "persist/memory/memory_store.hpp"

namespace cod::server {

namespace {

std::int64_t now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace

result<bool> memory_store::claim_room(const std::string& room_id, const std::string& node_id, std::int64_t lease_ms) {
  if (status st = detail::check_lease(room_id, node_id, lease_ms); !st) return st;
  std::lock_guard lk(mu_);
  const std::int64_t now = now_ms();
  auto [it, added] = leases_.try_emplace(room_id, lease{node_id, now + lease_ms, std::nullopt});
  if (added) return true;
  if (it->second.node_id != node_id && it->second.expires_ms > now) return false;
  it->second = {node_id, now + lease_ms, std::nullopt};
  return true;
}

result<std::vector<std::string>> memory_store::renew_leases(const std::string& node_id, std::int64_t lease_ms) {
  if (status st = detail::check_lease("-", node_id, lease_ms); !st) return st;
  std::lock_guard lk(mu_);
  const std::int64_t now = now_ms();
  std::vector<std::string> held;
  for (auto& [room, l] : leases_)
    if (l.node_id == node_id) {
      l.expires_ms = now + lease_ms;
      held.push_back(room);
    }
  return held;  // sorted: a std::map
}

// One process: nothing to hold, and no holder is ever dead.
status memory_store::hold_liveness(const std::string& node_id) { return detail::check_node(node_id); }

status memory_store::release_room(const std::string& room_id, const std::string& node_id) {
  std::lock_guard lk(mu_);
  auto it = leases_.find(room_id);
  if (it == leases_.end() || it->second.node_id != node_id) return detail::not_held(room_id, node_id);
  leases_.erase(it);
  return {};
}

result<bool> memory_store::request_room(const std::string& room_id, const std::string& node_id) {
  if (status st = detail::check_request(room_id, node_id); !st) return st;
  std::lock_guard lk(mu_);
  auto it = leases_.find(room_id);
  if (it == leases_.end() || it->second.node_id == node_id || it->second.expires_ms <= now_ms()) return false;
  it->second.wanted_by = node_id;
  return true;
}

result<std::vector<std::string>> memory_store::wanted_rooms(const std::string& node_id) {
  if (status st = detail::check_node(node_id); !st) return st;
  std::lock_guard lk(mu_);
  std::vector<std::string> out;
  for (const auto& [room, l] : leases_)
    if (l.node_id == node_id && l.wanted_by) out.push_back(room);
  return out;  // sorted: a std::map
}

result<std::vector<std::string>> memory_store::expired_events(std::size_t limit) {
  std::lock_guard lk(mu_);
  const std::int64_t now = now_ms();
  std::set<std::string> ids;
  for (const auto& [id, t] : tournaments_)
    if (t.t.current_stage() != tournaments::stage::finished) ids.insert(id);
  for (const auto& [id, l] : leagues_)
    if (!l.finished) ids.insert(id);
  std::vector<std::string> out;
  for (const auto& id : ids) {
    auto l = leases_.find(id);
    if ((l == leases_.end() || l->second.expires_ms <= now) && out.size() < limit) out.push_back(id);
  }
  return out;
}

result<std::vector<std::string>> memory_store::expired_rooms(std::size_t limit) {
  std::lock_guard lk(mu_);
  const std::int64_t now = now_ms();
  std::set<std::string> rooms;
  for (const auto& [id, sm] : matches_) {
    if (sm.finished()) continue;
    auto l = leases_.find(sm.match.room_id);
    if (l == leases_.end() || l->second.expires_ms <= now) rooms.insert(sm.match.room_id);
  }
  std::vector<std::string> out(rooms.begin(), rooms.end());
  if (out.size() > limit) out.resize(limit);
  return out;
}

result<std::size_t> memory_store::forget_stale(std::int64_t stale_for_ms) {
  std::lock_guard lk(mu_);
  const std::int64_t before = now_ms() - stale_for_ms;
  std::size_t gone = 0;
  gone += std::erase_if(leases_, [&](const auto& l) {
    const auto t = tournaments_.find(l.first);
    const bool running_tournament =
        t != tournaments_.end() && t->second.t.current_stage() != tournaments::stage::finished;
    const auto g = leagues_.find(l.first);
    const bool running_league = g != leagues_.end() && !g->second.finished;
    return l.second.expires_ms <= before && !running_tournament && !running_league &&
           std::none_of(matches_.begin(), matches_.end(), [&](const auto& m) {
             return m.second.match.room_id == l.first && !m.second.finished();
           });
  });
  gone += std::erase_if(lobby_, [&](const auto& n) { return n.second.published_ms <= before; });
  return gone;
}

result<bool> memory_store::room_known(const std::string& room_id) {
  std::lock_guard lk(mu_);
  if (leases_.count(room_id) || tournaments_.count(room_id) || leagues_.count(room_id)) return true;
  return std::any_of(matches_.begin(), matches_.end(),
                     [&](const auto& m) { return m.second.match.room_id == room_id; });
}

result<std::optional<stored_match>> memory_store::load_room_match(const std::string& room_id,
                                                                 std::int64_t finished_since_ms) {
  std::lock_guard lk(mu_);
  const stored_match* newest = nullptr;
  const stored_match* newest_finished = nullptr;
  for (const auto& [id, sm] : matches_) {
    if (sm.match.room_id != room_id) continue;
    // By id within a created_ms: the map's order.
    if (!sm.finished() && (!newest || sm.match.created_ms >= newest->match.created_ms)) newest = &sm;
    if (sm.finished() && sm.result->ended_ms >= finished_since_ms &&
        (!newest_finished || sm.match.created_ms >= newest_finished->match.created_ms))
      newest_finished = &sm;
  }
  if (!newest) newest = newest_finished;
  if (!newest) return std::optional<stored_match>{};
  return std::optional<stored_match>{*newest};
}

status memory_store::publish_rooms(const std::string& node_id, const std::vector<room_listing>& rooms) {
  if (status st = detail::check_listings(node_id, rooms); !st) return st;
  std::lock_guard lk(mu_);
  node_listing& n = lobby_[node_id];
  n.published_ms = now_ms();
  n.rooms = rooms;
  return {};
}

result<std::vector<room_listing>> memory_store::list_all_rooms(std::int64_t stale_after_ms) {
  std::lock_guard lk(mu_);
  const std::int64_t now = now_ms();
  std::map<std::string, room_listing> by_room;
  for (const auto& [node, n] : lobby_) {
    if (n.published_ms <= now - stale_after_ms) continue;
    for (const room_listing& r : n.rooms) {
      auto it = by_room.find(r.room_id);
      if (it != by_room.end() && it->second.updated_ms >= n.published_ms) continue;
      by_room[r.room_id] = {r.room_id, r.summary_json, node, n.published_ms};
    }
  }
  std::vector<room_listing> out;
  for (auto& [id, r] : by_room) out.push_back(std::move(r));
  return out;
}

}  // namespace cod::server
