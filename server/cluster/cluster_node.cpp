#include "cluster/cluster_node.hpp"

#include <algorithm>
#include <chrono>
#include <thread>

#include <spdlog/spdlog.h>

#include "cod/protocol/server_messages.hpp"
#include "room/client_session.hpp"
#include "room/event_lease.hpp"
#include "room/room.hpp"
#include "room/room_registry.hpp"

namespace cod::server {

namespace pr = cod::protocol;
using nlohmann::json;

namespace {

// How long start-up waits for this node's liveness lock while another
// session holds it: a previous process's session, cut off from the store,
// ends within seconds (pg_liveness.cpp's keepalives).
constexpr std::int64_t liveness_wait_ms = 10'000;

std::int64_t steady_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// A room id as nodes make them ("n2-rk7q4"): anything else is nobody's room,
// and costs the store nothing.
bool plausible_room_id(const std::string& id) {
  if (id.empty() || id.size() > 64) return false;
  return std::all_of(id.begin(), id.end(), [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-'; });
}

// What an event id names, for the log: "league n2-l3f0a9c71b2" (a league's
// id is "<node>-l..."), else "tournament n2-t...".
std::string event_label(const std::string& id) { return (is_league_id(id) ? "league " : "tournament ") + id; }

}  // namespace

cluster_node::cluster_node(cluster_options o, room_directory& dir, std::shared_ptr<room_registry> rooms)
    : o_(std::move(o)), dir_(dir), rooms_(std::move(rooms)), remote_(std::make_shared<std::vector<remote_room>>()) {}

cluster_node::~cluster_node() { stop(); }

std::vector<stored_match> cluster_node::claim_own(std::vector<stored_match> unfinished) {
  // The liveness lock first: other nodes take a lockless node's rooms at
  // once. Held by another session, it is this node's previous process cut
  // off from the store (its session ends within seconds: wait) or another
  // process with this node_id (a mistake: say so).
  const std::int64_t give_up = steady_ms() + liveness_wait_ms;
  status live = dir_.hold_liveness(o_.node_id);
  while (live.error_code() == status::code::conflict && steady_ms() < give_up) {
    std::this_thread::sleep_for(std::chrono::milliseconds(250));
    live = dir_.hold_liveness(o_.node_id);
  }
  note_liveness(live);
  const std::string mine = o_.node_id + "-";
  std::vector<stored_match> out;
  std::size_t elsewhere = 0;
  for (auto& sm : unfinished) {
    if (!sm.match.room_id.starts_with(mine)) continue;
    const auto claimed = dir_.claim_room(sm.match.room_id, o_.node_id, o_.lease_ms);
    if (!claimed) {
      spdlog::error("cluster: room {} not resumed here: its lease cannot be taken: {}", sm.match.room_id,
                    claimed.error().message());
      continue;
    }
    if (!*claimed) {
      ++elsewhere;
      continue;
    }
    out.push_back(std::move(sm));
  }
  if (elsewhere > 0)
    spdlog::info("cluster: {} of this node's rooms run on other nodes now (they took them while it was away); "
                 "they come back when the proxy sends their players here",
                 elsewhere);
  return out;
}

status cluster_node::claim_new(const std::string& room_id) {
  const auto claimed = dir_.claim_room(room_id, o_.node_id, o_.lease_ms);
  if (!claimed) return claimed.error();
  if (!*claimed) return status::conflict("room " + room_id + " is held by another node");
  return status::ok();
}

void cluster_node::fetch(const std::string& room_id, bool routed, fetched done) {
  {
    std::lock_guard lk(mu_);
    auto it = fetches_.find(room_id);
    if (!stop_ && plausible_room_id(room_id) && (it != fetches_.end() || fetches_.size() < o_.max_pending_fetches)) {
      auto& w = fetches_[room_id];
      if (w.done.empty()) {
        w.deadline_ms = steady_ms() + o_.fetch_timeout_ms;
        // Served now rather than at the next tick: a dead node's room is
        // claimed at once, and its players wait for nothing else.
        fetch_new_ = true;
      }
      w.routed = w.routed || routed;
      w.done.push_back(std::move(done));
      wake_.notify_one();
      return;
    }
  }
  done(nullptr, false);
}

bool cluster_node::want_event(const std::string& id) {
  if (!plausible_room_id(id) || !events_.adopt) return false;
  std::lock_guard lk(mu_);
  if (stop_) return false;
  if (auto a = absent_.find(id); a != absent_.end()) {
    if (steady_ms() < a->second) return false;
    absent_.erase(a);
  }
  auto it = event_wants_.find(id);
  if (it == event_wants_.end()) {
    if (event_wants_.size() >= o_.max_pending_fetches) return true;  // asked again later
    it = event_wants_.emplace(id, event_wait{}).first;
    it->second.deadline_ms = steady_ms() + o_.fetch_timeout_ms;
    wake_.notify_one();
  }
  return true;
}

void cluster_node::serve(room_services& rooms, lobby_services& lobby, bool fenced) {
  env_ = rooms.env;
  rooms.fenced = fenced;
  rooms.claim_new_room = [this](const std::string& room_id) { return claim_new(room_id); };
  lobby.fetch_room = [this](const std::string& room_id, bool routed, lobby_services::fetched done) {
    fetch(room_id, routed, std::move(done));
  };
  lobby.list_rooms = [this](const pr::list_rooms_msg& q) { return list(q); };
}

void cluster_node::start() {
  thread_ = std::thread([this] { run(); });
}

void cluster_node::stop() {
  {
    std::lock_guard lk(mu_);
    if (stop_ && !thread_.joinable()) return;
    stop_ = true;
    wake_.notify_one();
  }
  if (thread_.joinable()) thread_.join();
  std::map<std::string, fetch_wait> left;
  {
    std::lock_guard lk(mu_);
    left.swap(fetches_);
  }
  for (auto& [id, w] : left)
    for (auto& d : w.done) d(nullptr, false);
}

void cluster_node::release_all() {
  const auto held = dir_.renew_leases(o_.node_id, o_.lease_ms);
  if (!held) {
    spdlog::warn("cluster: leases not released ({}): other nodes take the rooms once they expire",
                 held.error().message());
    return;
  }
  for (const auto& id : *held) dir_.release_room(id, o_.node_id);
  spdlog::info("cluster: {} room leases released: other nodes may take the rooms now", held->size());
}

void cluster_node::run() {
  for (;;) {
    {
      std::unique_lock lk(mu_);
      wake_.wait_for(lk, std::chrono::milliseconds(o_.tick_ms),
                     [this] { return stop_ || !released_.empty() || fetch_new_; });
      if (stop_) return;
      fetch_new_ = false;
    }
    release_moved();
    serve_fetches();
    serve_event_wants();
    if (steady_ms() >= next_renew_ms_) {
      next_renew_ms_ = steady_ms() + o_.renew_every_ms;
      renew();
      hand_over();
      publish();
      sweep();
      if (each_round_) each_round_();
    }
  }
}

std::shared_ptr<room> cluster_node::take(const std::string& room_id, bool* held_elsewhere) {
  const auto claimed = dir_.claim_room(room_id, o_.node_id, o_.lease_ms);
  if (!claimed) {
    spdlog::warn("cluster: room {}: claim failed: {}", room_id, claimed.error().message());
    return nullptr;
  }
  if (!*claimed) {
    if (held_elsewhere) *held_elsewhere = true;
    return nullptr;
  }
  // Running here already (a sweep of a room whose lease lapsed while the
  // store was out of reach): the claim renewed it.
  if (auto r = rooms_->find(room_id)) return r;
  const std::int64_t finished_since = o_.finished_room_ttl_ms > 0 && env_
                                         ? env_->wall_ms() - o_.finished_room_ttl_ms
                                         : room_directory::only_unfinished;
  const auto stored = dir_.load_room_match(room_id, finished_since);
  if (!stored || !*stored) {
    // Nothing to run or show (no such room, or its match ended long ago).
    if (!stored) spdlog::warn("cluster: room {}: its match cannot be read: {}", room_id, stored.error().message());
    dir_.release_room(room_id, o_.node_id);
    return nullptr;
  }
  if ((*stored)->finished()) {
    // Its node died with the match's last action, before every seat saw
    // the end: the room shows the result to those who resume. A finished
    // room writes nothing, so it needs no lease (any node may show it).
    dir_.release_room(room_id, o_.node_id);
    auto r = rooms_->adopt(std::move(**stored));
    if (!r) return rooms_->find(room_id);
    spdlog::info("cluster: room {}: its match had ended; rebuilt as a finished room for the seats that resume",
                 room_id);
    return r;
  }
  const std::size_t actions = (*stored)->actions.size();
  auto r = rooms_->adopt(std::move(**stored));
  if (!r) {
    dir_.release_room(room_id, o_.node_id);
    return rooms_->find(room_id);
  }
  spdlog::info("cluster: room {} taken over ({} actions replayed); its seats may resume with their tokens", room_id,
               actions);
  return r;
}

void cluster_node::serve_fetches() {
  std::vector<std::string> ids;
  {
    // New ones, and the waiting ones once a tick: a burst of new fetches
    // (a dead node's players) does not retry the others' claims with each.
    std::lock_guard lk(mu_);
    const std::int64_t now = steady_ms();
    for (const auto& [id, w] : fetches_)
      if (now >= w.next_try_ms) ids.push_back(id);
  }
  for (const auto& id : ids) {
    bool elsewhere = false;
    auto r = rooms_->find(id);  // taken by an earlier fetch or a sweep meanwhile
    bool known = true;
    if (!r) {
      std::lock_guard lk(mu_);
      auto it = fetches_.find(id);
      known = it != fetches_.end() && it->second.known;
    }
    if (!r && !known) {
      // A read first: an id nobody ever used (a typo, a flood of made-up
      // ids) costs no claim and release, two writes.
      const auto found = dir_.room_known(id);
      if (!found) spdlog::warn("cluster: room {}: cannot be looked up: {}", id, found.error().message());
      known = found && *found;
      std::lock_guard lk(mu_);
      if (auto it = fetches_.find(id); it != fetches_.end()) it->second.known = known;
    }
    if (!r && known) r = take(id, &elsewhere);
    std::vector<fetched> done;
    {
      std::lock_guard lk(mu_);
      auto it = fetches_.find(id);
      if (it == fetches_.end()) continue;
      auto& w = it->second;
      const bool timed_out = steady_ms() >= w.deadline_ms;
      if (!r && elsewhere && w.routed && !timed_out) {
        w.next_try_ms = steady_ms() + o_.tick_ms;
        if (steady_ms() >= w.next_request_ms) {
          w.next_request_ms = steady_ms() + o_.renew_every_ms;
          requests_.push_back(id);
        }
        continue;
      }
      if (!r && elsewhere && w.routed)
        spdlog::warn("cluster: room {}: still held by another node after {} ms; the connection is told room_not_found",
                     id, o_.fetch_timeout_ms);
      done.swap(w.done);
      fetches_.erase(it);
    }
    for (auto& d : done) d(r, !r && elsewhere);
  }
  std::vector<std::string> ask;
  {
    std::lock_guard lk(mu_);
    ask.swap(requests_);
  }
  for (const auto& id : ask) {
    // Its holder hands it over at its next renewal (hand_over, on that node).
    const auto asked = dir_.request_room(id, o_.node_id);
    if (!asked) spdlog::warn("cluster: room {}: handover request failed: {}", id, asked.error().message());
  }
}

cluster_node::taken cluster_node::take_event(const std::string& id) {
  const auto claimed = dir_.claim_room(id, o_.node_id, o_.lease_ms);
  if (!claimed) {
    spdlog::warn("cluster: {}: claim failed: {}", event_label(id), claimed.error().message());
    return taken::failed;
  }
  if (!*claimed) return taken::held_elsewhere;
  if (!events_.adopt(id)) {
    dir_.release_room(id, o_.node_id);  // nothing to run: finished, or gone
    return taken::nothing;
  }
  spdlog::info("cluster: {} taken over: this node runs it now", event_label(id));
  return taken::yes;
}

void cluster_node::serve_event_wants() {
  std::vector<std::string> ids;
  {
    std::lock_guard lk(mu_);
    for (const auto& [id, w] : event_wants_) ids.push_back(id);
  }
  if (ids.empty()) return;
  const auto running_now = events_.running();
  const std::set<std::string> running(running_now.begin(), running_now.end());
  const std::int64_t now = steady_ms();
  for (const auto& id : ids) {
    event_wait w;
    {
      std::lock_guard lk(mu_);
      w = event_wants_[id];
    }
    enum class next { done, absent, wait } what = next::wait;
    if (running.count(id) || rooms_->find(id)) {
      what = next::done;  // here already (or a room's id: never an event's)
    } else {
      if (!w.known) {
        const auto found = dir_.room_known(id);
        if (!found) spdlog::warn("cluster: {}: cannot be looked up: {}", event_label(id), found.error().message());
        w.known = found && *found;
        if (found && !*found) what = next::absent;
      }
      if (w.known) {
        const auto took = take_event(id);
        if (took == taken::yes || took == taken::nothing) {
          what = next::done;
        } else if (took == taken::held_elsewhere && now >= w.next_request_ms) {
          // Its holder hands it over at its next renewal round (hand_over).
          w.next_request_ms = now + o_.renew_every_ms;
          const auto asked = dir_.request_room(id, o_.node_id);
          if (!asked) spdlog::warn("cluster: {}: handover request failed: {}", event_label(id), asked.error().message());
        }
      }
    }
    if (what == next::wait && now >= w.deadline_ms) {
      spdlog::warn("cluster: {}: still not here after {} ms (another node holds it, or the store fails)",
                   id, o_.fetch_timeout_ms);
      what = next::done;
    }
    std::lock_guard lk(mu_);
    if (what == next::absent) {
      if (absent_.size() >= o_.max_pending_fetches) absent_.clear();
      absent_[id] = now + 5'000;
    }
    if (what == next::wait) event_wants_[id] = w;
    else event_wants_.erase(id);
  }
}

void cluster_node::note_liveness(const status& st) {
  if (!st && alive_)
    spdlog::error("cluster: node {} does not hold its liveness lock ({}): it claims no room until it does (tried "
                  "again every {} ms), and other nodes may take its rooms over meanwhile. Check the connection to "
                  "the store, and that no other process runs with node_id {}",
                  o_.node_id, st.message(), o_.renew_every_ms, o_.node_id);
  else if (st && !alive_)
    spdlog::info("cluster: node {} holds its liveness lock again: it claims rooms again", o_.node_id);
  alive_ = st.is_ok();
}

void cluster_node::renew() {
  // Checked first: a lock lost with its connection is taken again before
  // this round's claims (sweeps), and the log says so.
  note_liveness(dir_.hold_liveness(o_.node_id));
  // Read before the renewal: a room created after it is claimed after it too.
  const auto local = rooms_->room_states();
  const std::vector<std::string> events = events_.running ? events_.running() : std::vector<std::string>{};
  const auto held = dir_.renew_leases(o_.node_id, o_.lease_ms);
  if (!held) {
    spdlog::warn("cluster: leases not renewed: {}", held.error().message());
    return;
  }
  const std::set<std::string> held_set(held->begin(), held->end());
  std::set<std::string> running;
  std::set<std::string> lost, idle;
  for (const auto& [id, finished] : local) {
    if (finished) continue;
    running.insert(id);
    if (!held_set.count(id)) lost.insert(id);
  }
  for (const auto& id : events) {
    running.insert(id);
    if (!held_set.count(id)) lost.insert(id);
  }
  for (const auto& id : *held)
    if (!running.count(id)) idle.insert(id);
  // Twice in a row: a room claimed (or closed) while these two reads ran
  // looks lost (or idle) once.
  const std::set<std::string> event_set(events.begin(), events.end());
  for (const auto& id : lost) {
    if (!suspect_lost_.count(id)) continue;
    if (event_set.count(id)) events_.lost(id);
    else if (auto r = rooms_->find(id)) r->move_away("another node holds its lease");
  }
  for (const auto& id : idle)
    if (suspect_idle_.count(id)) dir_.release_room(id, o_.node_id);
  suspect_lost_ = std::move(lost);
  suspect_idle_ = std::move(idle);
}

void cluster_node::hand_over() {
  const auto wanted = dir_.wanted_rooms(o_.node_id);
  if (!wanted) {
    spdlog::warn("cluster: handover requests not read: {}", wanted.error().message());
    return;
  }
  std::set<std::string> events;
  if (events_.running && !wanted->empty())
    for (auto& id : events_.running()) events.insert(std::move(id));
  for (const auto& id : *wanted) {
    if (events.count(id)) {
      events_.give_up(id, [this, id] {
        std::lock_guard lk(mu_);
        released_.push_back(id);
        wake_.notify_one();
      });
      continue;
    }
    auto r = rooms_->find(id);
    if (!r) {
      dir_.release_room(id, o_.node_id);
      continue;
    }
    // Released once the room has stopped (after its pending write), from
    // this thread: the room's executor must not block on the store.
    r->move_away("another node asked for it (the proxy sends its players there)", [this, id] {
      std::lock_guard lk(mu_);
      released_.push_back(id);
      wake_.notify_one();
    });
  }
}

void cluster_node::release_moved() {
  std::vector<std::string> ids;
  {
    std::lock_guard lk(mu_);
    ids.swap(released_);
  }
  for (const auto& id : ids) {
    const status st = dir_.release_room(id, o_.node_id);
    if (st) spdlog::info("cluster: room {} handed over", id);
  }
}

std::vector<std::pair<std::string, std::int64_t>> cluster_node::due_for_sweep(
    const std::vector<std::string>& unheld, std::map<std::string, std::int64_t>& since, std::int64_t now) const {
  std::vector<std::pair<std::string, std::int64_t>> due;
  std::map<std::string, std::int64_t> still;
  for (const auto& id : unheld) {
    auto it = since.find(id);
    const std::int64_t first = it == since.end() ? now : it->second;
    if (now - first < o_.sweep_after_ms) still.emplace(id, first);
    else due.emplace_back(id, now - first);
  }
  since = std::move(still);
  return due;
}

void cluster_node::sweep() {
  const auto unheld = dir_.expired_rooms(256);
  if (!unheld) {
    spdlog::warn("cluster: expired leases not read: {}", unheld.error().message());
    return;
  }
  const std::int64_t now = steady_ms();
  for (const auto& [id, waited] : due_for_sweep(*unheld, unheld_since_, now)) {
    const bool here = rooms_->find(id) != nullptr;
    if (take(id, nullptr) && !here) spdlog::info("cluster: room {} swept: no node held it for {} ms", id, waited);
  }
  if (events_.adopt) sweep_events(now);
  if (now >= next_forget_ms_) {
    next_forget_ms_ = now + o_.forget_every_ms;
    const auto gone = dir_.forget_stale(o_.forget_after_ms);
    if (!gone) spdlog::warn("cluster: stale leases and nodes not forgotten: {}", gone.error().message());
    else if (*gone > 0)
      spdlog::info("cluster: {} stale lease or node rows forgotten (gone {} ms ago or more)", *gone, o_.forget_after_ms);
  }
}

void cluster_node::sweep_events(std::int64_t now) {
  const auto unheld = dir_.expired_events(64);
  if (!unheld) {
    spdlog::warn("cluster: expired tournament and league leases not read: {}", unheld.error().message());
    return;
  }
  for (const auto& [id, waited] : due_for_sweep(*unheld, event_unheld_since_, now))
    if (take_event(id) == taken::yes)
      spdlog::info("cluster: {} swept: no node held it for {} ms", event_label(id), waited);
}

void cluster_node::publish() {
  const auto local = rooms_->summaries();
  std::vector<room_listing> listings;
  listings.reserve(local.size());
  for (const auto& s : local) listings.push_back({s.room, pr::room_summary_to_json(s).dump(), {}, 0});
  if (const status st = dir_.publish_rooms(o_.node_id, listings); !st)
    spdlog::warn("cluster: lobby not published: {}", st.message());
  const auto all = dir_.list_all_rooms(3 * o_.renew_every_ms + o_.lease_ms);
  if (!all) {
    spdlog::warn("cluster: lobby not read: {}", all.error().message());
    return;
  }
  auto remote = std::make_shared<std::vector<remote_room>>();
  for (const auto& l : *all) {
    if (l.node_id == o_.node_id) continue;  // this node's own: read live from the registry
    json j = json::parse(l.summary_json, nullptr, false);
    if (!j.is_object() || !j.contains("status") || !j.contains("mode") || !j.contains("format")) continue;
    const auto status = pr::room_status_from_name(j["status"].get<std::string>());
    const auto mode = game_mode_from_name(j["mode"].get<std::string>());
    const auto format = pr::deck_format_from_name(j["format"].get<std::string>());
    if (!status || !mode || !format) continue;
    remote->push_back({l.room_id, *status, *mode, *format, std::move(j)});
  }
  std::lock_guard lk(lobby_mu_);
  remote_ = std::move(remote);
}

json cluster_node::list(const pr::list_rooms_msg& q) const {
  std::shared_ptr<const std::vector<remote_room>> remote;
  {
    std::lock_guard lk(lobby_mu_);
    remote = remote_;
  }
  const auto local = rooms_->summaries();
  // Both in room id order: merged, this node's own first on a tie (a room
  // in the middle of a handover is listed once).
  struct entry {
    const std::string* room;
    pr::room_status status;
    game_mode mode;
    pr::deck_format format;
    const pr::room_summary* mine;
    const json* theirs;
  };
  std::vector<entry> all;
  all.reserve(local.size() + remote->size());
  for (const auto& s : local) all.push_back({&s.room, s.status, s.mode, s.format, &s, nullptr});
  for (const auto& r : *remote) all.push_back({&r.room, r.status, r.mode, r.format, nullptr, &r.summary});
  std::stable_sort(all.begin(), all.end(), [](const entry& a, const entry& b) { return *a.room < *b.room; });
  all.erase(std::unique(all.begin(), all.end(), [](const entry& a, const entry& b) { return *a.room == *b.room; }),
            all.end());
  const auto limit = static_cast<std::size_t>(std::clamp(q.limit, 1, pr::max_room_page));
  json rooms = json::array();
  std::size_t total = 0;
  std::optional<std::string> next;
  std::string last;
  for (const entry& e : all) {
    if ((q.room && *e.room != *q.room) || (q.status && e.status != *q.status) || (q.mode && e.mode != *q.mode) ||
        (q.format && e.format != *q.format))
      continue;
    ++total;
    if (q.after && *e.room <= *q.after) continue;
    if (rooms.size() < limit) {
      rooms.push_back(e.mine ? pr::room_summary_to_json(*e.mine) : *e.theirs);
      last = *e.room;
    } else if (!next) {
      next = last;
    }
  }
  return pr::make_rooms_json(q.id, std::move(rooms), total, next);
}

}  // namespace cod::server
