// What the organiser services (tournaments, mutation leagues) share of
// their events' leases in a cluster (docs/cluster.md, "Tournaments and
// leagues"): an event runs on one node at a time, named by its id's prefix,
// held by a lease the node's cluster thread renews, hands over and takes
// over through one set of hooks (cluster_node's event_hooks). The services
// keep their own state; this is the part that is the same for both.
#pragma once

#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <utility>

#include "common/status.hpp"

namespace cod::server {

class room;

// A cluster node's side, given to an organiser service; all empty on a
// single server.
struct event_cluster {
  // The node's id. A node prefixes the ids of the events it creates with
  // "<node_id>-" (so that the proxy sends their players and organisers to
  // it) and runs those whose lease it holds: the ones it created, and those
  // it took over while their node was away.
  std::string node_id;
  // Takes an event's lease (cluster_node::claim_new; conflict: another node
  // holds it). Blocks for one round trip.
  std::function<status(const std::string& id)> claim;
  // A request for an event this node does not run came here: move it here
  // (cluster_node::want_event). false: the store has no such event.
  std::function<bool(const std::string& id)> want;
  // Brings a room another node runs here (a routed cluster_node::fetch: its
  // holder hands it over), then runs `then` with it on the cluster thread;
  // null when it could not be moved: an organiser act on a game played
  // elsewhere, a league's duel whose room failed over with its node.
  using room_reached = std::function<void(std::shared_ptr<room>)>;
  std::function<void(const std::string& room_id, room_reached then)> fetch_room;

  bool clustered() const { return !node_id.empty(); }
  // What a new event's id starts with: "<node_id>-", or nothing.
  std::string id_prefix() const { return clustered() ? node_id + "-" : std::string(); }
  // Whether event `id` is this node's own (every event on a single server).
  bool named_here(const std::string& id) const { return !clustered() || id.starts_with(node_id + "-"); }
};

// Whether an event id is a league's ("n2-l3f0a9c71b2", "l3f0a9c71b2" on a
// single server) rather than a tournament's ("n2-t...", "t...").
inline bool is_league_id(const std::string& id) {
  const auto dash = id.find('-');
  const std::size_t first = dash == std::string::npos ? 0 : dash + 1;
  return first < id.size() && id[first] == 'l';
}

// The cluster thread's give_up and lost (event_hooks), the same for every
// service: `entries` maps ids to the events the service runs, under `mu`;
// `save(id, entry, then)` stores one and runs `then` once it is stored;
// `forget(id, why)` stops running one (under `mu`).
template <class Entries, class Save, class Forget>
void give_event_up(std::mutex& mu, Entries& entries, const std::string& id, std::function<void()> saved, Save&& save,
                   Forget&& forget) {
  std::lock_guard lock(mu);
  auto it = entries.find(id);
  if (it == entries.end()) return saved();
  save(id, it->second, std::move(saved));
  forget(id, "another node asked for it (the proxy sends its players there)");
}

template <class Forget>
void lose_event(std::mutex& mu, const std::string& id, Forget&& forget) {
  std::lock_guard lock(mu);
  forget(id, "another node holds its lease");
}

}  // namespace cod::server
