// Which node runs which room, and the lobby of every node: the store side of
// a cluster (docs/cluster.md, "Ownership, leases and failover"; the tables
// room_leases, lobby_nodes and lobby_rooms, docs/persistence.md).
//
// Every store hands out its own (match_store::directory()): pg_directory
// (the cluster: every node on one PostgreSQL), sqlite_directory (one node by
// construction: an SQLite file has one owner process, so only that node ever
// claims; the same semantics all the same, so the tests run on it) and
// memory_store itself (tests, one process).
//
// Every call blocks and may come from any thread, but never from a room's
// strand: the server calls them from a cluster thread of its own. Failures
// are statuses (io_error when the storage fails, invalid for bad arguments),
// never exceptions.
//
// Leases. A room belongs to the node whose lease row names it. A lease lasts
// lease_ms from the last claim or renewal, measured on the store's clock
// (PostgreSQL's clock_timestamp(), not the nodes': their clocks may differ).
// A lease that has expired still names its node until someone else claims
// it: expiry only allows a claim. On pg_store opened with a node_id the
// lease is also the fence: a write for a room whose lease row names another
// node (or no node) is refused with conflict (pg_store.hpp).
//
// Liveness. On pg_directory a node that claims holds a liveness lock naming
// it for as long as its directory lives (hold_liveness, pg_liveness.hpp);
// a holder whose lock is gone is dead (its process died, or it was cut off
// for seconds), and its leases count as expired before they do: claimed,
// swept, never asked for. A node that is only slow keeps its lock and its
// live leases. sqlite_directory and memory_store serve one node (one
// process): no holder is ever dead there, only expired.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/status.hpp"
#include "persist/records.hpp"

namespace cod::server {

// One room of a node's lobby. The summary is the protocol's room summary
// JSON as text: persist/ stores and returns it without reading it.
struct room_listing {
  std::string room_id{};
  std::string summary_json{};
  std::string node_id{};        // read back: the node that lists it (publish_rooms ignores it)
  std::int64_t updated_ms = 0;  // read back: that node's last publish, the store's clock (ms since the epoch)
  bool operator==(const room_listing&) const = default;
};

class room_directory {
 public:
  static constexpr std::int64_t only_unfinished = INT64_MAX;

  virtual ~room_directory() = default;

  // Takes room_id's lease for node_id, atomically, when no node holds it,
  // its lease has expired, its holder is dead (pg_directory: its liveness
  // lock is gone), or node_id holds it already (then it is renewed).
  // true: node_id holds it now, for lease_ms; false: a live node's lease is
  // live. Two nodes claiming at once: exactly one gets true. pg_directory
  // claims only while node_id holds its liveness lock (taken here if need
  // be): else the error of hold_liveness.
  virtual result<bool> claim_room(const std::string& room_id, const std::string& node_id,
                                  std::int64_t lease_ms) = 0;
  // Keeps node_id marked alive while this directory lives, so that other
  // nodes leave its live leases alone: on pg_directory, the session-level
  // advisory lock naming it, on a connection of its own. Call it before the
  // node's first claim and once a round: it checks that connection, and
  // after a lost one takes the lock again on a new one (the old session's
  // lock went with it, and other nodes saw the node dead meanwhile).
  // conflict: another process holds node_id's lock (the same node_id twice,
  // or this node's previous process whose session has not ended yet);
  // io_error: the store is out of reach; invalid: an empty node_id.
  // sqlite_directory and memory_store: ok, nothing to hold (one node).
  virtual status hold_liveness(const std::string& node_id) = 0;
  // Extends every lease node_id holds (expired ones too, unless another node
  // took them), in one statement. Returns the rooms node_id holds now, sorted:
  // a room the caller runs that is not among them was taken over (stop it).
  virtual result<std::vector<std::string>> renew_leases(const std::string& node_id, std::int64_t lease_ms) = 0;
  // Gives room_id's lease up (graceful handover, a room closed), if node_id
  // holds it: another node may claim it at once. conflict when node_id does
  // not hold it (nothing changed).
  virtual status release_room(const std::string& room_id, const std::string& node_id) = 0;
  // Asks the node holding room_id's live lease to hand it over to node_id:
  // marks the lease row as wanted by node_id (a later request replaces an
  // earlier one). true: marked (the holder is another live node with a live
  // lease; it releases the room at its next look at wanted_rooms, then
  // node_id claims it). false: nothing to ask (no row, the lease expired,
  // its holder is dead, or node_id holds it itself): claim it directly. A claim clears the mark (the new
  // holder starts unasked; so does a holder claiming its own room again: the
  // requester asks again); a renewal keeps it. For the node the proxy sends
  // a room's connections to when another node holds it (docs/cluster.md,
  // "Handover requests").
  virtual result<bool> request_room(const std::string& room_id, const std::string& node_id) = 0;
  // The rooms node_id holds that another node asked for (request_room),
  // sorted: the holder stops each and releases it (release_room).
  virtual result<std::vector<std::string>> wanted_rooms(const std::string& node_id) = 0;
  // Whether room_id is any node's room, tournament or league: its lease
  // row, a match of it or a tournament or league of that id is in the store. A read, one round trip: what a node asks before claiming
  // a room a connection named, so that made-up ids cost no writes.
  virtual result<bool> room_known(const std::string& room_id) = 0;
  // Rooms with an unfinished match that no live node holds a live lease on
  // (its lease expired or was released, or was never taken, or its holder
  // is dead): what a sweeper claims and resumes. At most `limit`, by room id.
  virtual result<std::vector<std::string>> expired_rooms(std::size_t limit) = 0;
  // Unfinished tournaments and leagues that no live node holds a live
  // lease on (docs/cluster.md, "Tournaments", "Leagues"): what a sweeper
  // claims and runs. At most `limit`, by id.
  virtual result<std::vector<std::string>> expired_events(std::size_t limit) = 0;
  // The room's unfinished match (its newest, should there be several) with
  // its whole log: what resuming one room needs. When it has none, its
  // newest match that ended at or after finished_since_ms (the stored
  // ended_ms): what a node shows the players of a match that ended with its
  // node's last action (only_unfinished: never). nullopt when it has neither.
  virtual result<std::optional<stored_match>> load_room_match(const std::string& room_id,
                                                              std::int64_t finished_since_ms) = 0;

  // Replaces node_id's lobby listing with `rooms` (all or nothing) and marks
  // the node alive now. invalid when a room id repeats.
  virtual status publish_rooms(const std::string& node_id, const std::vector<room_listing>& rooms) = 0;
  // Every node's listed rooms, by room id, skipping the nodes that have not
  // published for stale_after_ms (a dead node's rooms are listed again by
  // whoever claims them). A room listed by several nodes (the window of a
  // takeover) comes once, from the newest publish.
  virtual result<std::vector<room_listing>> list_all_rooms(std::int64_t stale_after_ms) = 0;

  // Housekeeping, from any node now and then: deletes the lease rows that
  // expired stale_for_ms ago or more, unless their room has an unfinished
  // match or they are an unfinished tournament's or league's (docs/cluster.md,
  // "Tournaments and leagues"): a dead node's waiting rooms, a finished room's lease
  // nobody released. Also the lobby rows of the nodes that have not
  // published for stale_for_ms (a node that comes back publishes anew).
  // Returns how many rows of leases and nodes went.
  virtual result<std::size_t> forget_stale(std::int64_t stale_for_ms) = 0;
};

}  // namespace cod::server
