// The matchmaking queue of a cluster, in the store (docs/queue.md, "In a
// cluster"; the tables queue_tickets, queue_nodes, queue_matcher and
// queue_recent, migration 0015). Every node writes the tickets of the
// players it holds; one node at a time, the holder of the matcher's lease,
// reads them all, matches them and marks the matched ones with their room
// and seat; each node reads its own matched tickets back and tells its
// players. The store is the queue's only truth: a matching node that dies
// loses nothing, the next holder of the lease reads the same tickets.
//
// Every store hands out its own (match_store::queue()): pg (the cluster),
// sqlite and memory (one node, tests: the same semantics). Every call
// blocks and may come from any thread, never from a room's strand or an
// I/O thread. Times are the store's clock (PostgreSQL's clock_timestamp()),
// never a node's. Failures are statuses, never exceptions.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/status.hpp"

namespace cod::server {

// One search of one player. The store keeps every field as given and reads
// none but the ids, the node and the pool: the queue service encodes and
// decodes the rest.
struct queue_ticket_row {
  std::int64_t ticket = 0;  // the store's id (add_ticket sets it)
  std::string node_id{};    // the node holding the player's connection
  std::int64_t account_id = 0;
  std::string pool{};  // one pool's key, for example "duel/preconstructed/rated"
  double rating = 1500;
  std::string address{};    // the client's address (two clients of one address: docs/queue.md)
  std::string name{};       // the account's name, for the seat
  std::string seat_hash{};  // SHA-256 hex of the seat token the node keeps for the player
  std::string deck{};       // the `queue` message's deck, as JSON text, checked
  std::string partner{};    // 2v2: the friend's account name it names ("" alone)
  std::int64_t enqueued_ms = 0;  // the store's clock at add_ticket
  // waiting_tickets: the accounts of this account's last queue match, when
  // it was made within the remembered time (no immediate rematch).
  std::vector<std::int64_t> last_opponents{};
  // Matched (matched_tickets): the room and the seat taken for the player.
  std::string room_id{};
  int seat = -1;
  std::string players{};  // the seats' names, in seat order, as a JSON array (match_tickets' text)
  bool operator==(const queue_ticket_row&) const = default;
};

// What the matching node reads for one wave.
struct queue_snapshot {
  std::int64_t now_ms = 0;  // the store's clock, the wave's "now"
  std::vector<queue_ticket_row> tickets{};  // waiting, by ticket id
};

struct queue_seating {
  std::int64_t ticket = 0;
  int seat = 0;
};

class queue_board {
 public:
  virtual ~queue_board() = default;

  // Adds a waiting ticket and returns it with its id and enqueued_ms.
  // nullopt: the account has a waiting ticket in that pool already, on a
  // node alive within alive_within_ms; nothing changed. One on a node
  // silent longer (it died with its connection: the player came back
  // through another node) is replaced. invalid: no node, account or pool.
  virtual result<std::optional<queue_ticket_row>> add_ticket(queue_ticket_row t, std::int64_t alive_within_ms) = 0;
  // Withdraws those of `tickets` that are node_id's and still waiting (an
  // unqueue, a player gone); returns the ids withdrawn. A ticket matched
  // meanwhile stays: its player is told by matched_tickets.
  virtual result<std::vector<std::int64_t>> withdraw_tickets(const std::string& node_id,
                                                             const std::vector<std::int64_t>& tickets) = 0;
  // Deletes those of `tickets` that are node_id's, waiting or matched (its
  // players were told), and returns how many went.
  virtual result<std::size_t> forget_tickets(const std::string& node_id, const std::vector<std::int64_t>& tickets) = 0;
  // Deletes every ticket of node_id: at start-up, those of its earlier life
  // (its connections died with it).
  virtual status drop_node_tickets(const std::string& node_id) = 0;
  // node_id is alive now: its tickets are matched. A node that has not said
  // so for alive_within_ms (waiting_tickets) is dead, and its tickets wait
  // for nobody.
  virtual status heartbeat(const std::string& node_id) = 0;

  // The matcher's lease: node_id runs the matching for lease_ms, taken when
  // no node holds it, it expired, or node_id holds it (then renewed).
  // Two nodes claiming at once: exactly one gets true.
  virtual result<bool> claim_matcher(const std::string& node_id, std::int64_t lease_ms) = 0;
  // Gives it up, if node_id holds it (a graceful stop): another node takes
  // it at its next claim.
  virtual status release_matcher(const std::string& node_id) = 0;

  // Every waiting ticket of the nodes alive within alive_within_ms, by id,
  // with its account's last opponents of the last remember_ms.
  virtual result<queue_snapshot> waiting_tickets(std::int64_t alive_within_ms, std::int64_t remember_ms) = 0;
  // Seats one match, all or nothing: each ticket gets the room, its seat
  // and `players` (the seats' names, stored as given); the players' other
  // waiting tickets (other pools) are withdrawn, so that no later wave
  // seats them twice; and each account remembers the others as its last
  // opponents. false, with nothing changed: matcher_node does not hold a
  // live matcher lease (another node took it: it matches now), or a ticket
  // is no longer waiting (withdrawn, matched, forgotten). The lease is the
  // fence: a claim waits for a match in flight, and a match after a lost
  // lease changes nothing.
  virtual result<bool> match_tickets(const std::string& matcher_node, const std::string& room_id,
                                     const std::vector<queue_seating>& seats, const std::string& players) = 0;
  // node_id's matched tickets, by id: its players to tell (forget_tickets
  // once told).
  virtual result<std::vector<queue_ticket_row>> matched_tickets(const std::string& node_id) = 0;
  // Housekeeping, from the matching node now and then: the tickets of the
  // nodes not alive for stale_for_ms (their connections died with them), the
  // nodes themselves, and the last opponents older than remember_ms. Returns
  // how many tickets went.
  virtual result<std::size_t> forget_stale_tickets(std::int64_t stale_for_ms, std::int64_t remember_ms) = 0;
};

}  // namespace cod::server
