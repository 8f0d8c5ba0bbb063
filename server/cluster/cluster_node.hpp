// One node of a cluster (docs/cluster.md): the rooms this node runs, kept
// in step with the room leases of the shared store (room_directory.hpp).
//
// A thread of its own makes every store call (they block; none runs on a
// room's strand or an io thread, except claim_new's one round trip):
//   - every renew_every_ms: renews this node's leases; stops (move_away) a
//     room whose lease another node took; releases the leases of rooms it no
//     longer runs (closed, finished); hands over the rooms other nodes ask
//     for (request_room); publishes its lobby and reads every node's;
//   - every tick: serves fetch(), the rooms connections ask for that this
//     node does not run: claims the room (asking its holder to hand it over
//     while another node holds a live lease) and rebuilds it from the log;
//   - sweeps: claims and rebuilds the rooms no node holds (their node died)
//     once nobody has come for them for sweep_after_ms; the same for the
//     tournaments and leagues (event_hooks).
#pragma once

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "cod/protocol/client_messages.hpp"
#include "common/status.hpp"
#include "persist/records.hpp"
#include "persist/room_directory.hpp"

namespace cod::server {

class room;
class room_registry;
struct room_services;
class environment;
struct lobby_services;

struct cluster_options {
  std::string node_id;
  std::int64_t lease_ms = 3000;        // a lease lasts this long after its last renewal
  std::int64_t renew_every_ms = 1000;  // renewals, handovers, the lobby
  std::int64_t tick_ms = 100;          // fetches waiting for a room's holder retry this often
  std::int64_t fetch_timeout_ms = 8000;
  // A room no node holds is swept (claimed without a connection asking)
  // after this long: a connection that comes for it first takes it to the
  // node the proxy sends it to.
  std::int64_t sweep_after_ms = 2000;
  std::size_t max_pending_fetches = 1024;
  // Housekeeping (room_directory::forget_stale): every forget_every_ms, the
  // lease rows and lobby rows of rooms and nodes gone forget_after_ms ago.
  std::int64_t forget_every_ms = 60'000;
  std::int64_t forget_after_ms = 600'000;
  // A room whose match ended within this long (finished_room_ttl_sec) and
  // that no node runs is rebuilt as a finished room when a connection asks
  // for it, as a restart does: the seats that had not seen the end (their
  // node died with the last action) resume to its result. 0: never.
  std::int64_t finished_room_ttl_ms = 0;
};

// The tournaments and leagues a node runs (docs/cluster.md, "Tournaments and
// leagues"), the events: each holds a lease like a room's, a row of the same
// table named by its id, renewed, handed over and taken over with the
// rooms'. The organiser services' side (both, through one set of hooks),
// called on the cluster thread.
struct event_hooks {
  // The unfinished tournaments and leagues this node runs now.
  std::function<std::vector<std::string>()> running;
  // This node just took the event's lease: run it from the store.
  // false: nothing to run (no such event, or it has finished).
  std::function<bool(const std::string& id)> adopt;
  // Another node asked for it: stop running it; `saved` runs once its last
  // save is stored (then its lease is released).
  std::function<void(const std::string& id, std::function<void()> saved)> give_up;
  // Another node holds its lease now: forget it.
  std::function<void(const std::string& id)> lost;
};

class cluster_node {
 public:
  cluster_node(cluster_options o, room_directory& dir, std::shared_ptr<room_registry> rooms);
  ~cluster_node();  // stop()
  cluster_node(const cluster_node&) = delete;
  cluster_node& operator=(const cluster_node&) = delete;

  // Start-up, before start(): of this node's rooms' unfinished matches (room
  // ids "<node_id>-..."), those whose lease this node takes (none of them
  // taken over by a live node meanwhile). The others are left to their
  // holders (they hand them back if the proxy sends their players here).
  std::vector<stored_match> claim_own(std::vector<stored_match> unfinished);
  // A new room's lease, before it starts (room_services::claim_new_room).
  // Blocks for one round trip.
  status claim_new(const std::string& room_id);
  // lobby_services::fetch_room. Any thread; `done` runs on the cluster thread.
  using fetched = std::function<void(std::shared_ptr<room> r, bool elsewhere)>;
  void fetch(const std::string& room_id, bool routed, fetched done);
  // lobby_services::list_rooms: this node's rooms as they are now, and the
  // other nodes' as they last published them (at most renew_every_ms old).
  nlohmann::json list(const protocol::list_rooms_msg& q) const;

  // Makes the rooms and lobby of `rooms`' node this cluster node's: new
  // rooms claim their lease (claim_new), unknown rooms are fetched, the
  // lobby lists every node, and the store's conflicts move rooms away
  // (room_services::fenced, when `fenced`). Before the server runs.
  void serve(room_services& rooms, lobby_services& lobby, bool fenced);

  // Tournaments and leagues hold leases too (event_hooks). Before start().
  void serve_events(event_hooks h) { events_ = std::move(h); }
  // A request for tournament or league `id` reached this node (the proxy sends its
  // traffic here): it is claimed and adopted when no node holds it, else its
  // holder is asked to hand it over, retried for fetch_timeout_ms. Any
  // thread; never blocks. false: the store has no such id (looked up
  // within the last few seconds), or a made-up id.
  bool want_event(const std::string& id);

  // Runs `f` on the cluster thread after each round of renewals (every
  // renew_every_ms): the tournaments' poll_store. Before start().
  void each_round(std::function<void()> f) { each_round_ = std::move(f); }

  void start();
  // Stops the thread; pending fetches get null.
  void stop();
  // Graceful stop, after the store flushed (nothing of these rooms is left
  // to write): gives up every lease, so that other nodes take the rooms at
  // once instead of after lease_ms.
  void release_all();

 private:
  struct fetch_wait {
    std::int64_t deadline_ms = 0;
    std::int64_t next_request_ms = 0;  // the next handover request to the room's holder
    std::int64_t next_try_ms = 0;      // the next claim while another node holds it (0: new, now)
    bool routed = false;               // a connection named the room: ask its holder for it
    bool known = false;                // the store has a lease or a match of it (room_known)
    std::vector<fetched> done;
  };
  // A remote room of the lobby, read back from the store.
  struct remote_room {
    std::string room;
    protocol::room_status status;
    game_mode mode;
    protocol::deck_format format;
    nlohmann::json summary;
  };

  struct event_wait {
    std::int64_t deadline_ms = 0;
    std::int64_t next_request_ms = 0;
    bool known = false;  // the store has it (room_known)
  };

  void run();
  void serve_event_wants();
  // Claims event `id` and has it adopted here.
  enum class taken { yes, held_elsewhere, nothing, failed };
  taken take_event(const std::string& id);
  void sweep_events(std::int64_t now);
  // Of `unheld` (no live lease), the ids unheld for sweep_after_ms, with how
  // long; `since` keeps when each other one was first seen unheld.
  std::vector<std::pair<std::string, std::int64_t>> due_for_sweep(const std::vector<std::string>& unheld,
                                                                  std::map<std::string, std::int64_t>& since,
                                                                  std::int64_t now) const;
  // Logs a change of the liveness lock (room_directory::hold_liveness).
  void note_liveness(const status& st);
  void renew();
  void serve_fetches();
  void hand_over();
  void release_moved();
  void sweep();
  void publish();
  // Claims room_id and rebuilds its match here (an unfinished one, or one
  // that ended within finished_room_ttl_ms as a finished room). The room,
  // or null: held by another node (`held_elsewhere` set), no such match, or
  // the store failed.
  std::shared_ptr<room> take(const std::string& room_id, bool* held_elsewhere);

  cluster_options o_;
  room_directory& dir_;
  std::shared_ptr<room_registry> rooms_;
  environment* env_ = nullptr;  // the rooms' (serve): its clock, for finished_room_ttl_ms
  std::function<void()> each_round_;
  event_hooks events_;
  std::thread thread_;

  std::mutex mu_;  // guards what follows, up to thread_state
  std::condition_variable wake_;
  bool stop_ = false;
  std::map<std::string, fetch_wait> fetches_;
  bool fetch_new_ = false;  // a fetch arrived: serve it before the tick
  std::vector<std::string> requests_;  // handover requests to send
  std::vector<std::string> released_;  // rooms moved away: their leases to release
  std::map<std::string, event_wait> event_wants_;
  std::map<std::string, std::int64_t> absent_;  // ids the store does not have -> until when that is believed

  mutable std::mutex lobby_mu_;
  std::shared_ptr<const std::vector<remote_room>> remote_;

  // The cluster thread's own.
  std::int64_t next_renew_ms_ = 0;
  std::int64_t next_forget_ms_ = 0;
  bool alive_ = true;  // this node held its liveness lock at the last look
  std::map<std::string, std::int64_t> unheld_since_;  // sweep: room -> first seen with no live lease
  std::map<std::string, std::int64_t> event_unheld_since_;  // the same for tournaments and leagues
  std::set<std::string> suspect_lost_;  // renew: running here, lease not held (last round)
  std::set<std::string> suspect_idle_;  // renew: lease held, not running here (last round)
};

}  // namespace cod::server
