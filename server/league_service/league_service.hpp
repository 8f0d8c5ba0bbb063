// The server's mutation leagues (R15; docs/league.md): each a cod::league
// value run by its players' ops (league_join, league_act), its duels'
// results and the organiser's acts (league_api). Every change is saved whole
// (match_store::save_league: the settings, the players with their token
// hashes, every op in order, every duel's room and match), so a restart
// replays it and carries on. When a round's duels are due it opens a room
// for each, reserved to its two players, with their decks as mutated
// (room::params::cards, fixed_decks) and the duel's seed (E80); a room's
// hooks report the result.
//
// Threading: one mutex around every league. Called from the admin thread
// (organiser acts, tick), connection strands (join, act, find_seat) and room
// executors (the hooks); it only posts to rooms and peers, never waits.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "cod/engine/league.hpp"
#include "cod/protocol/room_config.hpp"
#include "common/environment.hpp"
#include "persist/match_store.hpp"
#include "room/client_session.hpp"
#include "room/event_lease.hpp"
#include "room/peer.hpp"

namespace cod::server {

class room_registry;

// What the organiser chose (docs/league.md, "Creating a league").
struct league_settings {
  std::string name;
  std::vector<std::string> packs;  // R15.1: two different packs
  bool exhaustion = false;         // R11, in every duel
  std::optional<protocol::turn_clock> clock;  // every duel's turn clock
  // The step clock: a player who has not acted this long after a step
  // began (a pick of the draft, the deck choice, a mutation phase) gets the
  // default: the first card of their packet, their first 8 drafted cards,
  // a pass (R15.4). 0: no clock (the league waits).
  int phase_clock_sec = 600;
  mutation_costs costs = mutation_costs::ruling();  // R15.6
  std::uint64_t seed = 0;
};
inline constexpr int max_phase_clock_sec = 7 * 24 * 3600;

// One duel's room (R15.3): a table of a round may need several when a room
// ends without a result (nobody came, the server voided it).
struct league_game {
  int round = 0, table = 0;
  std::string room_id;
  std::string match_id;  // once its match started
  bool operator==(const league_game&) const = default;
};

class league_service {
 public:
  // A cluster node's side (event_cluster: its id, lease claims, wants and
  // routed room fetches; docs/cluster.md, "Leagues"): a duel whose room
  // runs elsewhere (it failed over with its node) comes to the league's
  // node through fetch_room, where the league sends its players.
  struct deps : event_cluster {
    std::shared_ptr<room_registry> rooms;
    match_store* store = nullptr;
    const catalogue* cards = nullptr;  // the server's catalogue: the packs' cards
    // The server's one clock and random source (common/environment.hpp):
    // created and step times; ids, seeds and the players' tokens.
    environment* env = nullptr;
  };
  explicit league_service(deps d);

  // Start-up, after room recovery: reads the stored leagues (blocking),
  // replays each, gives its recovered duel rooms their hooks.
  void load();
  // About every second, off the io threads (it reads the store): the step
  // clock (absent players get the default op), and the duels whose room is gone:
  // counted from the store when their match ended, else given a new room.
  void tick();

  // ---- the organiser's acts (league_api).
  struct created {
    std::string id;
    std::vector<std::string> tokens;  // by seat: the only time they exist in clear
  };
  // `seed_given` false: drawn from deps::env.
  status create(league_settings s, const std::vector<std::string>& names, bool seed_given,
                                       std::string_view actor, created& out);
  // R15.3: the organiser records a duel's result (a duel that cannot be
  // played); its room, if any, is retired. winner: a seat of the duel, or
  // no_seat (nobody won).
  status record_result(const std::string& id, int table, seat_t winner, std::string_view actor,
                                              std::string_view reason);

  // The organiser's reads; nullopt: no such league. On a cluster node, a
  // league another node runs is read from the store as last saved (blocking:
  // the admin thread's) and, unfinished, asked to move here (deps::want):
  // `moving` (when given) says so; its acts wait until it is here.
  std::optional<nlohmann::json> summary(const std::string& id, bool* moving = nullptr) const;  // public view, settings, rooms
  std::optional<nlohmann::json> export_json(const std::string& id) const;  // everything (league_export_json)
  std::vector<std::string> match_ids(const std::string& id) const;
  nlohmann::json list() const;
  bool clustered() const { return d_.clustered(); }

  // ---- the players.
  // league_join: follows the token's league (the view now and on every
  // change). The reply message (an error tournament_waiting on a cluster
  // node the league is moving to: `routed`, the id the connection's URL
  // named, is the token's league), or nullopt for an unknown token.
  std::optional<nlohmann::json> follow(std::string_view token, const nlohmann::json& msg_id,
                                       std::weak_ptr<peer> p, const std::string& routed = {});
  // league_act: the token's player's op. The reply (league or an error).
  nlohmann::json act(std::string_view token, const nlohmann::json& msg_id, const nlohmann::json& op);
  // league_mutations: what the token's player may add to its phase's list
  // after `staged` (its mutations chosen, not yet sent; a JSON array),
  // from league::legal_mutations_after. The reply (league_mutations, or
  // the error league_act would give for a mutate op of `staged`). Changes
  // nothing.
  nlohmann::json legal_mutations(std::string_view token, const nlohmann::json& msg_id, const nlohmann::json& staged);
  // tournament_join with a league token: the room of the player's duel now.
  // bad_token when the token is no league player's.
  event_seat find_seat(std::string_view token);

  // ---- a cluster node's league leases (cluster_node's event_hooks), on the
  // cluster thread.
  // The unfinished leagues this node runs.
  std::vector<std::string> running() const;
  // This node just took league `id`'s lease: runs it from the store as
  // load() does, its duels' rooms that run elsewhere brought here
  // (deps::fetch_room). false: no such league, or it has finished.
  bool adopt(const std::string& id);
  // Another node asked for it: saved (then `saved` runs), its waiting rooms
  // close, its followers' connections close (they come back through the
  // proxy to its new node); its running duels play on here and report to
  // the store.
  void give_up(const std::string& id, std::function<void()> saved);
  // Another node took its lease: forgotten, as give_up, without saving.
  void lost(const std::string& id);

 private:
  struct player {
    std::string name;
    std::string token_hash;
  };
  struct entry {
    league_settings s;
    std::vector<player> players;
    league l;
    std::vector<league_game> games;
    std::int64_t created_ms = 0;
    std::int64_t phase_started_ms = 0;  // the current step's start (the step clock)
    std::vector<std::pair<std::weak_ptr<peer>, seat_t>> followers;
  };

  std::string record_json(const entry& e) const;
  // A stored league back; nullopt (logged) when its record does not replay.
  std::optional<entry> restore(const stored_league& sl) const;
  void save(const std::string& id, const entry& e, std::function<void()> then = nullptr);
  // A stored league, replayed (nullopt: none, or it cannot be read). Blocking.
  std::optional<std::pair<stored_league, entry>> read_stored(const std::string& id) const;
  // Runs a restored league here (under mu_): hooks the duel rooms that run
  // here, brings the others here, opens the missing ones.
  void place(const std::string& id, entry e);
  // Brings the duel room `room_id` of league `id` here (deps::fetch_room)
  // and hooks it.
  void bring_room(const std::string& id, const std::string& room_id);
  // Drops a league this node stops running (under mu_).
  void forget(const std::string& id, const char* why);
  nlohmann::json summary_of(const std::string& id, const entry& e) const;
  // After every change: saved, followers told, rooms opened, logged.
  void changed(const std::string& id, entry& e, int round_before, league_stage stage_before);
  nlohmann::json view_of(const entry& e, seat_t seat) const;
  nlohmann::json ops_json(const entry& e) const;
  static std::vector<std::string> names_of(const entry& e);
  void push(const std::string& id, entry& e);
  void act_for_absent(const std::string& id, entry& e);
  void open_rooms(const std::string& id, entry& e);
  // A room for duel `t` of the current round (another attempt when it had
  // one): its seed counts the attempts before it.
  void open_room(const std::string& id, entry& e, int t);
  std::shared_ptr<room> hook(const std::string& id, const std::string& room_id);
  league_refusal apply(const std::string& id, entry& e, const league_op& op);
  // The token's league and seat, under mu_.
  std::pair<std::string, seat_t> find_player(std::string_view token) const;
  void on_started(const std::string& id, const std::string& room_id, const std::string& match_id);
  void on_finished(const std::string& id, const std::string& room_id, const std::vector<int>& winners);

  deps d_;
  mutable std::mutex mu_;
  std::map<std::string, entry> entries_;
};

}  // namespace cod::server
