// The matchmaking queue of a cluster (docs/queue.md, "In a cluster"): the
// same messages as queue_service (queue, unqueue, queued, unqueued,
// matched), with the tickets in the store (queue_board.hpp) so that the
// players of every node meet, and the matching done by one node at a time,
// the holder of the matcher's lease, which any other node takes over at its
// next heartbeat once the holder's liveness lock is gone (its process died),
// or once the lease expires.
//
// - A `queue` becomes a row of the store, with the SHA-256 of a fresh seat
//   token this node keeps for the player (the token itself is never stored).
// - The matching node reads every live node's waiting rows, runs a wave
//   (server/queue, the same matchmaker as a single node's), creates each
//   table's room here with its seats reserved for those tokens, and marks
//   the rows matched, all or nothing, fenced by its lease.
// - Each node reads its own matched rows back: a player whose room runs on
//   this node is seated at once (`matched`, `joined`, then `state`); one
//   whose room runs on another node gets `matched` with `connect`
//   ("/ws?room=ID"), and takes the seat there with `resume` and its token.
//
// Threading: the public calls are thread-safe and return at once. Every
// store call runs on the queue's own thread (step(), every tick_ms), never
// on an I/O thread or a room's strand.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <variant>
#include <vector>

#include "persist/queue_board.hpp"
#include "queue_service/queue_service.hpp"

namespace cod::server {

struct cluster_queue_options {
  std::string node_id;
  std::int64_t tick_ms = 250;              // store rounds: requests, matched rows, waves
  std::int64_t heartbeat_every_ms = 1000;  // "alive" and the matcher's lease renewed
  std::int64_t matcher_lease_ms = 3000;    // a matching node cut off is replaced within this + heartbeat_every_ms
  std::int64_t alive_within_ms = 5000;     // a node silent longer is dead: its tickets wait for nobody
  std::int64_t housekeeping_every_ms = 60'000;
};

class cluster_queue : public std::enable_shared_from_this<cluster_queue> {
 public:
  cluster_queue(queue_services s, queue_board& board, cluster_queue_options o, queue::queue_params p = {});
  ~cluster_queue();
  cluster_queue(const cluster_queue&) = delete;
  cluster_queue& operator=(const cluster_queue&) = delete;

  // Forgets this node's tickets of an earlier life, then starts the thread.
  void start();
  // Stops the thread, withdraws every ticket (unqueued, "shutting_down")
  // and gives the matcher's lease up. Idempotent.
  void stop();

  void enqueue(std::shared_ptr<client_session> who, protocol::queue_msg m);
  void unqueue(std::shared_ptr<client_session> who, protocol::unqueue_msg m);
  void leave(std::uint64_t conn, std::string reason);

  // One round: the requests waiting, the heartbeat and the lease, a wave if
  // this node matches and one is due, this node's matched tickets. The
  // thread's loop; tests call it directly (without start()).
  void step();

  std::size_t waiting() const { return waiting_.load(); }
  std::uint64_t matches_made() const { return matches_.load(); }
  bool matching() const { return matching_.load(); }

 private:
  struct entry {
    std::weak_ptr<client_session> who;
    std::uint64_t conn = 0;
    std::string token;  // the seat token; the store has its hash
    protocol::queue_msg msg;
  };
  struct add_op {
    std::shared_ptr<client_session> who;
    protocol::queue_msg msg;
    double rating = 1500;
  };
  struct unqueue_op {
    std::shared_ptr<client_session> who;
    protocol::unqueue_msg msg;
  };
  struct leave_op {
    std::uint64_t conn = 0;
    std::string reason;
  };
  using op = std::variant<add_op, unqueue_op, leave_op>;

  void push(op o);
  void run();
  void apply(add_op& o);
  void apply(unqueue_op& o);
  void apply(leave_op& o);
  void keep_alive(std::int64_t now);
  void wave();
  void seat(const queue::match& m, const queue::party_plan& plan, const std::map<std::int64_t, queue_ticket_row>& rows);
  void deliver();
  void forget(std::int64_t ticket);
  void count() { waiting_.store(entries_.size()); }

  queue_services s_;
  queue_board& board_;
  cluster_queue_options o_;
  queue::queue_params params_;

  std::mutex mu_;  // guards inbox_ and stop_
  std::condition_variable wake_;
  std::vector<op> inbox_;
  bool stop_ = false;
  bool stopped_ = false;  // stop() ran (under mu_)
  std::thread thread_;

  // The thread's own (step()).
  std::map<std::int64_t, entry> entries_;
  std::map<std::uint64_t, std::vector<std::int64_t>> by_conn_;
  std::int64_t next_heartbeat_ms_ = 0;
  std::int64_t next_housekeeping_ms_ = 0;
  std::int64_t last_wave_ms_ = 0;
  bool holds_lease_ = false;

  std::atomic<std::size_t> waiting_{0};
  std::atomic<std::uint64_t> matches_{0};
  std::atomic<bool> matching_{false};
};

// A pool as the store keeps it ("duel/preconstructed/rated") and back.
std::string pool_text(const protocol::queue_msg& m);

}  // namespace cod::server
