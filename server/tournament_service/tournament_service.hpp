// The server's tournaments (docs/tournaments.md): each a
// cod::tournaments::tournament value, run by organiser acts (organiser_api)
// and by the matches of its rooms. For every game to start it opens a room
// reserved for the two players; their tournament_join finds it
// (find_seat); the room tells us when the match starts (attach_match) and
// ends (report_game). Every change is saved through the store
// (match_store::save_tournament), in order with the matches' own writes: a
// game's match is stored before the tournament that names it.
//
// Threading: one mutex around every tournament. Called from the admin
// thread (organiser acts), connection strands (find_seat) and room
// executors (the hooks); it only posts to rooms, never waits on them.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "common/environment.hpp"
#include "persist/match_store.hpp"
#include "room/client_session.hpp"
#include "room/event_lease.hpp"
#include "tournament/tournament.hpp"

namespace cod::server {

class room;
class room_registry;

// tournament_extras (what the server keeps beside the tournament value) is
// the store's record: persist/records.hpp.
inline constexpr int max_spectator_delay = 1000;

// A room open for one game of the current round.
struct tournament_room {
  int round = 0, table = 0, game = 0;
  tournaments::player_id a = tournaments::no_player, b = tournaments::no_player;  // seats 0, 1
  std::string room_id;
  std::string match_id;  // once its match started
  // The room object given the tournament's hooks: a room that moved to
  // another node and back is another object, without them (poll_store).
  std::weak_ptr<room> hooked;
};

// A copy of one tournament, for the API's answers.
struct tournament_snapshot {
  std::string id;
  tournaments::tournament t;
  tournament_extras extras;
  std::int64_t created_ms = 0;
  std::vector<tournament_room> rooms;
};

class tournament_service {
 public:
  // A cluster node's side (event_cluster: its id, lease claims, wants and
  // routed room fetches; docs/cluster.md, "Tournaments"): an organiser act
  // that ends a game (drop, game loss, re-pair) reaches the game's room
  // through fetch_room when the room plays on another node.
  struct deps : event_cluster {
    std::shared_ptr<room_registry> rooms;
    match_store* store = nullptr;
    // The server's one clock and random source (common/environment.hpp):
    // created and round times; join tokens, seeds and ids.
    environment* env = nullptr;
  };
  explicit tournament_service(deps d);

  // Start-up, after room recovery and before the io threads run: reads the
  // stored tournaments (blocking, through the writer), gives the recovered
  // rooms of their games back their hooks, reports matches that ended while
  // nobody listened, opens rooms for the games still to start.
  void load();

  // ---- organiser acts: each logged (spdlog and the tournament's log) and saved.
  struct created {
    std::string id;
    std::vector<std::string> tokens;  // by player id: the only time they exist in clear
    std::vector<std::string> warnings;
  };
  // Each act answers ok, or a refusal whose reason is the tournament's errc
  // name (invalid, not_found or conflict), not_found "no_such_tournament"
  // for an unknown id, or (create, on a cluster node that cannot take the
  // new tournament's lease) unavailable "store_unavailable": nothing done.
  // `seed_given` false: the seed is drawn from the random source.
  status create(tournaments::config c, const std::vector<std::string>& names, tournament_extras x,
                             std::string_view actor, created& out, bool seed_given = true);
  status start_next_round(const std::string& id, std::string_view actor);
  status drop(const std::string& id, std::string_view actor, tournaments::player_id p, std::string_view reason);
  status game_loss(const std::string& id, std::string_view actor, tournaments::player_id p, std::string_view reason);
  status repair(const std::string& id, std::string_view actor, std::string_view reason);

  // This node's tournaments.
  std::optional<tournament_snapshot> get(const std::string& id) const;
  // A cluster node's, for a tournament it does not run (get() nullopt): the
  // stored copy, without its rooms (blocking: the admin thread's), after
  // asking for the tournament to move here (deps::want) when it is not
  // finished. `moving` says whether it was asked to.
  std::optional<tournament_snapshot> stored_copy(const std::string& id, bool& moving) const;
  bool clustered() const { return d_.clustered(); }
  // Every tournament: a cluster node's own, and the others' as the store has
  // them (blocking: the admin thread's).
  std::vector<tournament_snapshot> list() const;

  // tournament_join: where the token's player plays now. `routed`: the
  // tournament the connection named (/ws?room=ID): on a cluster node that
  // does not run it, it is asked to move here (tournament_waiting meanwhile).
  event_seat find_seat(std::string_view token, const std::string& routed = {});

  // ---- a cluster node's tournament leases (cluster_node's event_hooks),
  // on the cluster thread.
  // The unfinished tournaments this node runs.
  std::vector<std::string> running() const;
  // This node just took tournament `id`'s lease: runs it as load() does at
  // start-up. false: no such tournament, or it has finished.
  bool adopt(const std::string& id);
  // Another node asked for it: its waiting rooms close (their games open on
  // the new node), its running matches play on here and report to the
  // store; `saved` runs once the last save is stored.
  void give_up(const std::string& id, std::function<void()> saved);
  // Another node took its lease: forgotten, as give_up, without saving.
  void lost(const std::string& id);

  // A cluster node's, every second or so, off the rooms' strands: the games
  // whose room runs on another node (taken over while this node was away)
  // report their results from the store, as load() does at start-up.
  void poll_store();

 private:
  struct entry {
    tournaments::tournament t;
    tournament_extras x;
    std::int64_t created_ms = 0;
    std::vector<tournament_room> rooms;
  };
  // All under mu_.
  void save(const std::string& id, const entry& e, std::function<void()> then = nullptr);
  // Runs a stored tournament here: hooks its games' rooms that run on this
  // node, counts the results of those that ended (`matches`: the stored
  // matches of its undecided games, read beforehand outside the lock),
  // opens the rooms of the games to start. Under mu_.
  void restore(stored_tournament l, const std::map<std::string, stored_match>& matches);
  // The rooms of this node whose match has not finished (room_registry::room_states).
  std::set<std::string> live_rooms() const;
  // The stored matches of the undecided games of `l`'s current round whose
  // room does not play on here.
  std::map<std::string, stored_match> undecided_matches(const stored_tournament& l) const;
  // Drops a tournament this node stops running; its waiting rooms close.
  void forget(const std::string& id, const char* why);
  // A game's match ended as the store says: counts it (its room may be gone,
  // or on another node). True when it changed the tournament.
  bool report_stored(const std::string& id, entry& e, const std::string& match_id, int table,
                     tournaments::player_id a, tournaments::player_id b, const stored_match& sm);
  void open_rooms(const std::string& id, entry& e);
  void after_result(const std::string& id, entry& e);
  // Gives the room its hooks; the room, or null when it is not here.
  std::shared_ptr<room> hook(const std::string& id, const std::string& room_id);
  void retire_room(const tournament_room& r, const std::string& why);
  // Runs `f` on the room of `match_id`'s game: at once when it runs here,
  // else (a cluster node) once it has moved here (deps::fetch_room).
  void with_match_room(const std::string& id, const std::string& match_id, const char* act,
                       std::function<void(room&)> f);
  void concede_in(const std::string& id, const entry& e, const std::string& match_id, tournaments::player_id p,
                  const std::string& why);
  // The tournament and room a room hook reports on; nullopt for a report no
  // longer expected (the room was retired meanwhile, or an unknown tournament).
  struct hooked_room {
    entry& e;
    std::vector<tournament_room>::iterator room;
  };
  std::optional<hooked_room> find_hooked(const std::string& id, const std::string& room_id);

  void on_started(const std::string& id, const std::string& room_id, const std::string& match_id);
  void on_finished(const std::string& id, const std::string& room_id, const std::string& match_id,
                   const std::vector<int>& winners);

  deps d_;
  mutable std::mutex mu_;
  std::map<std::string, entry> entries_;
};

}  // namespace cod::server
