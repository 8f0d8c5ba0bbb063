// One room: its seats, spectators and, once every seat is taken, one match.
//
// Threading: everything a room owns (the cod::match, seats, clocks) is touched
// only by tasks on its serial executor (an Asio strand in the server), so
// there is no mutex around game state. The public request functions may be
// called from any thread: they post to that executor. Clients are reached
// through their peer (room/peer.hpp), whose send is thread-safe.
//
// The room's parts, each in its own file: requests, summaries and the
// messages every part sends (room.cpp); seats, spectators and the grace
// period (room_seating.cpp); the action pipeline and "persist then continue"
// (room_actions.cpp); the turn clock's timer and messages (room_clock.cpp,
// the banks in turn_clock); start, finish, ending without a result and
// closing (room_lifecycle.cpp); rebuilding from the store (room_recovery.cpp);
// organised events' rooms, tournaments' and leagues' (room_event.cpp);
// drafting (room_draft.cpp); house bots (room_bots.cpp).
//
// Persistence: an accepted action is applied to the match, then appended to
// the store; `accepted` and the `update`s go out only from the store's done
// callback (posted back to this executor). While a write is pending the room
// holds further requests in a bounded backlog and runs them, in order, once
// the write is durable, so clients never see state the store has not kept.
// A write pending over store_wait_notice gets every seat and spectator a
// notice (store_waiting), and store_resumed once it is stored.
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "cod/engine/draft.hpp"
#include "cod/engine/match.hpp"
#include "cod/engine/rng.hpp"
#include "cod/protocol/messages.hpp"
#include "common/config.hpp"
#include "common/environment.hpp"
#include "common/status.hpp"
#include "persist/match_store.hpp"
#include "room/executor.hpp"
#include "room/peer.hpp"
#include "room/spectator_feed.hpp"
#include "room/turn_clock.hpp"

namespace cod::server {

class ai_pool;
class metrics;
class room_registry;

// What every room shares; outlives the rooms.
struct room_services {
  const catalogue* cat = nullptr;
  match_store* store = nullptr;
  metrics* stats = nullptr;
  config cfg;
  // The server's one clock and random source (common/environment.hpp): the
  // stored created, ended and action times; room ids, seeds, seat tokens,
  // match ids, the bots' draws.
  environment* env = nullptr;
  // A cluster node (docs/cluster.md): the store refuses a room's writes
  // (conflict) once another node holds its lease, and a room refused so
  // moves away (move_away) instead of ending its match.
  bool fenced = false;
  // A cluster node: takes a new room's lease before the room starts (a
  // fenced store refuses the writes of a room without one). Null: one node.
  std::function<status(const std::string& room_id)> claim_new_room;
  // The house bots' decisions run there (room/ai_pool.hpp), never on a
  // room's strand. Null: every bot plays random legal actions.
  ai_pool* ai = nullptr;
};

// What an organised event's room tells its event (server/tournament_service,
// server/league_service), and how it shows its match. Set once, right after the room is created or
// recovered. The callbacks run on the room's executor: they must not block.
struct room_hooks {
  std::function<void(const std::string& room_id, const std::string& match_id)> started;
  // The match ended with a result (not when it was voided).
  std::function<void(const std::string& room_id, const std::string& match_id, const std::vector<int>& winners)>
      finished;
  int spectator_delay = 0;  // in accepted actions; 0: live
};

// A store write pending this long (the database locked by another process:
// the SQLite store waits up to store_busy_max_sec) is announced to the
// room's seats and spectators (notice store_waiting), its end too
// (store_resumed): docs/protocol.md, "notice".
inline constexpr std::chrono::milliseconds store_wait_notice{2000};

// The docs/rules.md revision stored with each match (match_record::rules_version).
inline constexpr const char* rules_version = "rules.md/engine-2";

// A house bot's seat in the store (match_seats.token_hash): never the SHA-256
// of a token (64 hex digits), so no resume matches it; a restart reads the
// seat back as the bot's. A searching bot's is followed by its level,
// "house-bot:3" (bot_token_hash), so that the restart gives the seat back at
// its level with no column of its own; a bare "house-bot" is a random bot's
// (a co-op room's) or one stored before levels, which comes back at bot_level.
inline constexpr const char* house_bot_token_hash = "house-bot";
std::string bot_token_hash(int level);
// The level a stored token_hash gives its bot: 0 for a bare house_bot_token_hash,
// -1 when it is no bot's.
int bot_level_of(std::string_view token_hash);
// Whether a house bot of a `mode` room searches (cod::search plays duel,
// free-for-all and 2v2; a co-op room's bot plays random legal actions).
bool bot_searches(game_mode mode);

class room : public std::enable_shared_from_this<room> {
 public:
  struct params {
    std::string id;
    game_mode mode = game_mode::duel;
    protocol::deck_format format = protocol::deck_format::preconstructed;
    protocol::room_options options;
    std::uint64_t seed = 0;  // the match's seed; only its hash is public until the end
    // An event's room (a tournament's, a league's): seat i is reserved for
    // the token whose SHA-256 hex is reserved[i] (tournament_join); plain
    // join is refused. Empty: open.
    std::vector<std::string> reserved{};
    // A queue's room (docs/queue.md): seat i's player, who may be connected
    // to another node of a cluster, takes the seat with a `resume` carrying
    // its seat token (the one reserved[i] hashes), signed in as account_id;
    // the seat is joined with this name and deck. Empty: reserved seats are
    // taken only through join_reserved.
    struct reserved_player {
      std::string name;
      protocol::deck_choice deck;
      std::int64_t account_id = 0;
    };
    std::vector<reserved_player> reserved_players{};
    // The IP address of the connection that created it ("" for tournament
    // and recovered rooms): the registry limits waiting rooms per address.
    std::string creator_address{};
    // R15 (the mutation league): the match's own card definitions, which
    // replace the catalogue's cards of the same id for this match only; they
    // are stored with the match (cards_json) and sent in every state
    // (`cards`). Empty: the catalogue's cards.
    std::vector<card_def> cards{};
    // R15.2 (a league duel): seat i plays exactly this deck; a join naming
    // other cards is refused (bad_deck, reason not_league_deck). Empty: the
    // join's deck, as in any room.
    std::array<std::vector<card_id>, max_seats> fixed_decks{};
    // A rated match (the rated queue's rooms; docs/ratings.md): stored in its
    // record (match_record::rated), so the store writes the seats' rating
    // changes with its result; a recovered or taken-over room keeps it.
    bool rated = false;
  };

  room(room_services& svc, std::shared_ptr<serial_executor> ex, params p);
  ~room();

  // Rebuilds a room from an unfinished stored match (server start-up): seats
  // with their token hashes, the match replayed from its log, every seat
  // disconnected (each has the grace period to resume). invalid, with a
  // sentence, when the record cannot be read or the log does not replay.
  // A finished match (one that ended by the game) gets a finished room: no
  // grace, no clock, only its final state and match_over for whoever resumes
  // or spectates, until finished_room_ttl_sec after its stored end.
  static result<std::shared_ptr<room>> recover(room_services& svc, std::shared_ptr<serial_executor> ex,
                                               const stored_match& stored);

  // Starts the room's timers (waiting-room expiry, recovered seats' grace).
  // Call once, after the registry holds the room.
  void start(std::weak_ptr<room_registry> registry);

  const std::string& id() const { return p_.id; }
  const std::string& seed_hash() const { return seed_hash_; }
  const std::string& creator_address() const { return p_.creator_address; }
  // Thread-safe snapshot for list_rooms.
  protocol::room_summary summary() const;

  // Requests from a client (any thread). Replies go to `c`.
  void join(std::shared_ptr<peer> c, protocol::join_msg m);
  void resume(std::shared_ptr<peer> c, protocol::resume_msg m);
  void spectate(std::shared_ptr<peer> c, protocol::spectate_msg m);
  void act(std::shared_ptr<peer> c, protocol::act_msg m);
  // A seat's pick while the room drafts (room_draft.cpp).
  void draft_pick(std::shared_ptr<peer> c, protocol::draft_pick_msg m);
  void leave(std::shared_ptr<peer> c, protocol::leave_msg m);
  // The match so far as `c` may see it (room_history.cpp).
  void history(std::shared_ptr<peer> c, protocol::history_msg m);
  // A seated player gives a free seat of this waiting room to a house bot
  // (room_bots.cpp).
  void add_bot(std::shared_ptr<peer> c, protocol::add_bot_msg m);
  // A seated player's emote, pushed to every seat and spectator (the
  // session has rate-limited it).
  void emote(std::shared_ptr<peer> c, protocol::emote_msg m);
  // The connection closed.
  void disconnected(std::shared_ptr<peer> c);
  // The connection that created the room closed: if nobody has joined, the
  // room closes after unjoined_room_ttl_sec (unless someone joins first).
  void creator_left();
  // The registry gives this vacant waiting room's place (vacant(): its
  // creator gone, nobody connected in a seat) to a new room from the same
  // address: it closes, its seats' grace periods with it.
  void evict_vacant();

  // ---- an organised event's rooms: a tournament's, a league's (any thread; each posts to the executor)
  void set_hooks(room_hooks h);
  // tournament_join: `m.seat` is the reserved seat, `token` the player's
  // tournament token (it becomes the seat token). A seat already taken is
  // resumed with it instead.
  void join_reserved(std::shared_ptr<peer> c, protocol::join_msg m, std::string token);
  // An organiser act: `seat` concedes the running match (a drop, a game loss).
  void concede_seat(int seat, std::string why);
  // The game this room was for no longer needs it: a waiting room closes; a
  // running match ends without a result (stored with reason "voided").
  void retire(std::string why);
  // The server is stopping: cancel timers, never concede anyone from now on.
  void shutdown();
  // The registry needs this finished room's place (it is already out of the
  // registry): its clients are told it closed.
  void evict();
  // Another node runs this room from now on (a cluster: its lease was
  // handed over or lost). After any pending store write: the room stops
  // (no timer, no write), leaves the registry, and closes its clients'
  // connections (going_away) so that they reconnect through the proxy to
  // the new owner; later requests get the same. Then `then` runs, on the
  // room's executor (the caller releases the lease there).
  void move_away(std::string why, std::function<void()> then = {});

 private:
  struct seat_state {
    bool taken = false;
    // Solo, coop (R12, R11.7): the AI's seat, taken from the start, never
    // joined, never connected, never on a clock; the engine plays it.
    bool ai = false;
    // A house bot's seat (add_bot): a seat like a human's for the engine,
    // whose actions the room chooses (random legal ones); never connected,
    // never on a grace period. Stored with token_hash house_bot_token_hash.
    bool bot = false;
    // A bot's level (1..5): it searches (cod::search, on svc_.ai). 0: it
    // plays random legal actions (a co-op room's bot: the search plays duel,
    // free-for-all and 2v2 only).
    int level = 0;
    int preconstructed = 0;  // a human's deck number (1..4): the AI's decks follow it (RULING E41)
    std::string name;
    std::string token_hash;
    // The account a signed-in connection took the seat with (0: none): its
    // sessions may resume the seat without the token (docs/accounts.md).
    std::int64_t account_id = 0;
    std::string deck_json;
    std::vector<card_id> deck;
    card_id champion = no_card;  // R13.1, in a room with champions
    std::string champion_id;     // its catalogue id ("" without)
    std::weak_ptr<peer> client;
    std::uint64_t conn = 0;  // the client's connection id; 0: nobody connected
    serial_executor::timer_id grace = 0;
    // The AI or a house bot: nobody connects to it, nobody resumes it.
    bool played_by_server() const { return ai || bot; }
  };
  struct watcher {
    std::weak_ptr<peer> client;
    std::uint64_t conn = 0;
  };
  // drafting (drafted formats, R14): every seat taken, the decks being
  // drafted; the match is created when the draft finishes.
  enum class status { waiting, starting, playing, finished, drafting };

  using task = std::function<void()>;

  // ---- room.cpp: requests, and what every part sends
  // Runs `t` on the executor, after any pending store write; `c` gets
  // server_busy when the backlog is full.
  void run(std::shared_ptr<peer> c, nlohmann::json id, task t);
  void drain();
  // `to`: the recipient, when it is the seat's client (its hello may ask for
  // the seat's legal actions).
  message_ptr state_for(seat_t viewer, const peer* to = nullptr) const;
  // The seat's legal actions (legal_actions.hpp) for its client `to`, when
  // that client asked for them; nullopt otherwise.
  std::optional<nlohmann::json> legal_actions_for(int seat, const peer* to) const;
  void broadcast(const nlohmann::json& j, std::uint64_t except_conn = 0);
  // One message to every connected seat; to every spectator.
  void send_seats(const message_ptr& m);
  void send_spectators(const message_ptr& m);
  void note(const std::string& text);
  void publish_summary();

  // ---- room_seating.cpp: seats, spectators, the grace period
  void do_join(const std::shared_ptr<peer>& c, const protocol::join_msg& m,
               const std::string* reserved_token = nullptr);
  // A join refused with `error`: the connection is free again first.
  void refuse_join(peer& c, const nlohmann::json& error);
  // The seat `m` asks for, or the first free one; -1 and `refused` set when
  // there is none to give.
  int choose_seat(const protocol::join_msg& m, protocol::session_errc& refused) const;
  // `c` takes `seat` with its checked deck and Champion; `token` is its
  // secret (a tournament player's own, else a new one).
  void take_seat(const std::shared_ptr<peer>& c, const protocol::join_msg& m, int seat, std::vector<card_id> deck,
                 card_id champion, const std::string& token);
  void do_resume(const std::shared_ptr<peer>& c, const protocol::resume_msg& m);
  void do_spectate(const std::shared_ptr<peer>& c, const protocol::spectate_msg& m);
  void do_leave(const std::shared_ptr<peer>& c, const protocol::leave_msg& m);
  void do_history(const std::shared_ptr<peer>& c, const protocol::history_msg& m);
  void do_disconnected(const std::shared_ptr<peer>& c);
  // Removes connection `conn` from the spectators; false if it was none.
  bool drop_spectator(std::uint64_t conn);
  void seat_left(int seat, bool keep_seat);
  void on_grace_expired(int seat);
  void cancel_grace_timers();
  int seat_of(std::uint64_t conn) const;
  // The seat account `account_id` holds here (a human's), or -1 (always for 0).
  int account_seat(std::int64_t account_id) const;
  bool is_spectator(std::uint64_t conn) const;
  int seats_taken() const;
  // Solo, coop: fills an AI seat (always taken, named ai_seat_name).
  static void make_ai_seat(seat_state& s);
  void send_seat_status(int seat);

  // ---- room_actions.cpp: the action pipeline
  struct outgoing;
  // What a store write that fails does (persist): it is always counted and
  // logged ("persistence error: " + what). With `abandon_why` the match then
  // ends without a result (abandon), the actor first told `reply`, and the
  // write's continuation never runs; without, the room goes on.
  struct write_failure {
    std::string what;
    const char* abandon_why = nullptr;
    std::weak_ptr<peer> actor;
    nlohmann::json id;
    const char* reply = nullptr;
  };
  using store_write = std::function<void(match_store::done_fn)>;
  // Persist then continue: `write` starts one store write with the callback
  // it is given; requests wait in the backlog until the store answers, then
  // `then` runs on the executor (see write_failure) and the backlog drains.
  void persist(const store_write& write, write_failure failed, task then);
  void on_stored(const cod::server::status& st, const write_failure& failed, const task& then);
  // A write pending for store_wait_notice: every seat and spectator gets a
  // notice (store_waiting), and store_resumed once it is stored.
  void on_store_waiting();
  void do_act(const std::shared_ptr<peer>& c, const protocol::act_msg& m);
  void do_emote(const std::shared_ptr<peer>& c, const protocol::emote_msg& m);
  // act and draft_pick: the sender's seat, or -1 once it has been told why
  // it may not act (a spectator; a connection with no seat is detached).
  int acting_seat(const std::shared_ptr<peer>& c, const nlohmann::json& id);
  // act and draft_pick: false, with stale_action sent, when the request was
  // chosen at another seq than `current` of `subject` ("the match").
  bool fresh(const std::shared_ptr<peer>& c, const nlohmann::json& id, const std::optional<std::int64_t>& chosen,
             std::int64_t current, std::string_view request, std::string_view subject, std::string_view newest);
  // Applies `a` (validated by the engine), persists it, then broadcasts.
  // `c`/`id`: the actor to answer, if the action came from a client.
  void submit(const action& a, const std::shared_ptr<peer>& c, const nlohmann::json& id);
  // Every seat's update and the spectators' for the action just applied;
  // `ack_seat` (-1: none) gets the actor's id in its update (hello.acks).
  void build_updates(outgoing& out, int ack_seat, std::int64_t now) const;
  void on_action_stored(const std::shared_ptr<outgoing>& out);
  // A seat concedes for the room (its clock ran out, its grace period ended,
  // the organiser): `why` goes to the log and the match's notes.
  void concede_for(int seat, const std::string& why);
  // An accepted action's spectator update, through the delay if any.
  void send_spectator_update(const message_ptr& update, const message_ptr& state_after);

  // ---- room_clock.cpp: the turn clock's timer and messages (banks: clock_)
  // The active seat's turn starts (with its increment unless `resumed`):
  // returns the clock message to send.
  std::optional<nlohmann::json> clock_turn_started(std::int64_t now, bool resumed = false);
  void clock_stop(std::int64_t now);
  void announce_clock(const nlohmann::json& msg);
  void on_clock_expired(int seat, int turn);
  std::optional<protocol::clock_snapshot> clock_snapshot(std::int64_t now) const;

  // ---- room_lifecycle.cpp: start, finish, end without a result, close
  // A recovered room's start: grace periods, the clock, a result not stored.
  void start_recovered();
  void start_match();
  // The match's stored record (seats, decks as joined, options).
  match_record make_record() const;
  match_config base_match_config(std::uint64_t seed) const;
  bool create_engine_match(const match_config& cfg);
  // The match row is stored (or, drafted, the draft finished): it begins.
  void on_match_created();
  void send_first_states(std::int64_t now);
  void finish_match();
  void on_match_finished();
  // Someone arriving after the end gets the match_over the others got.
  void send_result_if_over(peer& c) const;
  // The server cannot go on with the match: it ends without a result
  // (reason "aborted") and everyone is told `why`.
  void abandon(const std::string& why);
  // Drafting, every human seat away past its grace period: the match row is
  // finished without a result (reason "abandoned") and the room closes.
  void abandon_draft();
  // The match ends with no result: its row finished with `reason` (once it
  // exists), `why` in its notes, the room finished, its timers stopped.
  void end_without_result(const char* reason, const std::string& why);
  // After end_without_result: everyone is told `why` (an internal_error);
  // the room stays as a finished room does.
  void linger_after(const std::string& why);
  void expire_after(int seconds);
  void close_room(const std::string& why);
  // A waiting room whose seats are all free again after someone sat in one
  // is emptied: it closes unjoined_room_ttl_sec later unless someone joins,
  // and is vacant meanwhile.
  void note_if_emptied();
  // A waiting open room nobody is in: no connected person in a seat (seats
  // within their grace period may be held), and its creator's connection
  // gone or every seat left after someone sat in one. It holds no place of
  // its creator's address: the registry gives its place to the address's
  // next new room (evict_vacant).
  bool vacant() const;
  // move_away's work, on the executor.
  void do_move_away(const std::string& why);

  // ---- room_bots.cpp: house bots
  void do_add_bot(const std::shared_ptr<peer>& c, const protocol::add_bot_msg& m);
  // When the seat to act is a bot's: its action no sooner than bot_move_ms
  // after the position arose (the pace people follow), and a searching
  // bot's decision asked of the AI pool at once, so the two overlap.
  void schedule_bot_move();
  // The pool is given the seat's view and the deck lists (do_bot_think); its
  // decision comes back (on_bot_decided) and is played once paced
  // (on_bot_paced), both only while the position is still `seq`.
  void do_bot_think(int seat);
  void on_bot_paced(std::int64_t seq);
  void on_bot_decided(std::int64_t seq, const action& chosen, int iterations, int legal, std::int64_t think_ms);
  void play_bot_choice();
  // A random legal action (a co-op bot's; or when no decision came).
  void bot_move();
  // An action was applied: a decision for the position before, on its way
  // or back and waiting for its pace, is stale.
  void bot_position_moved();
  // Stops the bot's turn: its timer, and any decision on its way is stale.
  void stop_bot_turn();
  // Every seat's deck list for the search (R14.6: public), from the seats'
  // decks, or their stored deck_json in a recovered room.
  std::array<std::vector<card_id>, max_seats> bot_table();
  // A waiting room whose people have all gone frees its bots' seats too.
  void free_bots_without_players();
  // The bot's deck number and Champion for `seat` (random; a deck no other
  // seat took when there is one).
  int bot_deck_number(int seat);
  card_id bot_champion(const std::vector<card_id>& deck);

  // ---- room_recovery.cpp
  // The record's seats (names, token hashes, decks, Champions) taken.
  // invalid when a seat number is out of range.
  cod::server::status seats_from_record(const match_record& rec);

  // ---- room_event.cpp
  bool take_reserved_seat(const std::shared_ptr<peer>& c, const protocol::resume_msg& m);
  void do_join_reserved(const std::shared_ptr<peer>& c, const protocol::join_msg& m,
                        const std::string& token);
  void do_retire(const std::string& why);

  // ---- room_draft.cpp: the drafting phase. The match row and the draft's
  // first reveals are stored, then every pick is applied, stored, and
  // broadcast like an action; the finished draft deals the match's decks.
  struct draft_outgoing;
  void start_draft();
  void do_draft_pick(const std::shared_ptr<peer>& c, const protocol::draft_pick_msg& m);
  void store_draft_rows(std::vector<draft_event_record> rows, const std::shared_ptr<draft_outgoing>& out);
  void on_draft_stored(const std::shared_ptr<draft_outgoing>& out);
  void start_drafted_match();
  // A checked pick (the engine's error to `c` otherwise), stored then
  // broadcast; `c` null: a bot's.
  void apply_draft_pick(const cod::draft_pick& p, const std::shared_ptr<peer>& c, const nlohmann::json& id);
  // room_bots.cpp: a bot's turn in the draft, bot_move_ms after it came.
  void schedule_bot_draft_pick();
  void bot_draft_pick();
  // The `draft` message for `viewer` (a seat or spectator).
  // `to`: the recipient when it is the seat's client (hello.legal_actions: its legal picks).
  message_ptr draft_message_for(seat_t viewer, const nlohmann::json& events, const peer* to = nullptr) const;

  room_services& svc_;
  std::shared_ptr<serial_executor> ex_;
  params p_;
  std::string seed_hash_;
  // The match's own cards (params::cards, or cards_json when recovered):
  // null plays the shared catalogue. cards() is what this room reads.
  std::shared_ptr<const catalogue> own_cards_;
  std::string cards_json_;
  nlohmann::json cards_shown_;  // cards_json_ parsed once, for every state
  std::string cards_error_;  // params::cards that do not make a catalogue: the match never starts
  const catalogue& cards() const { return own_cards_ ? *own_cards_ : *svc_.cat; }
  void add_own_cards(nlohmann::json& state) const;
  bool is_fixed_deck(int seat, std::vector<card_id> deck) const;
  std::weak_ptr<room_registry> registry_;

  // Executor-only state.
  status status_ = status::waiting;
  bool stopping_ = false;
  bool moved_ = false;  // move_away: another node runs the room
  bool busy_ = false;  // a store write is pending
  serial_executor::timer_id store_wait_timer_ = 0;  // the pending write's store_wait_notice
  bool store_wait_told_ = false;                    // its store_waiting was sent
  // The pending write's start (executor time), and whether the turn clock
  // was stopped for its wait: nobody's bank runs while the room is paused
  // (the next seat has not even seen the move), from the write's start.
  std::int64_t write_started_ms_ = 0;
  bool clock_paused_ = false;
  std::deque<task> backlog_;
  std::vector<seat_state> seats_;
  std::vector<watcher> spectators_;
  match match_;
  // Drafted formats: the draft (from the drafting phase on) and the last
  // seq of its stored log (draft_events).
  std::optional<draft> draft_;
  std::int64_t draft_seq_ = 0;
  std::string match_id_;
  std::int64_t seq_ = 0;
  std::vector<card_id> uid_cards_;
  std::vector<event> events_;
  // Solo, coop: what match::create did (the AI's opening turn with
  // ai_first), sent with the first state, then cleared.
  std::vector<event> opening_events_;
  // For history (room_history.cpp): the match as created, what creating it
  // did, and every action applied since, in order (seq i is applied_[i-1]).
  // The events of any past action are replayed from these on request, so
  // the room keeps no event log.
  std::optional<match> start_;
  std::vector<event> start_events_;
  std::vector<action> applied_;
  serial_executor::timer_id expiry_ = 0;
  // The connection that created the room has closed (creator_left).
  bool creator_gone_ = false;
  // Every seat was left after someone sat in one (note_if_emptied).
  bool emptied_ = false;
  bool unjoined_expiry_ = false;    // expiry_ is creator_left's, not the waiting room's
  bool reported_finished_ = false;  // the registry knows the match ended
  // Turn clock (when options.clock is set): the banks, and the timer that
  // concedes the running seat when its bank runs out.
  turn_clock clock_;
  serial_executor::timer_id clock_timer_ = 0;
  // House bots: the timer of the next bot action, and their choices' source
  // (seeded from the OS: a bot's choice is never part of a replay, its
  // action is, as any seat's).
  serial_executor::timer_id bot_timer_ = 0;
  serial_executor::timer_id bot_draft_timer_ = 0;  // a drafting bot's next pick
  rng bot_rng_;
  // The bot's turn at the position seq_ == bot_turn_.seq: paced once
  // bot_move_ms has passed since, `chosen` once its decision came back.
  struct bot_turn_state {
    std::int64_t seq = -1;  // -1: none
    bool paced = false;
    bool thinking = false;  // a decision is on the AI pool
    std::optional<action> chosen;
  };
  bot_turn_state bot_turn_;
  // Shared with the decision on the AI pool: the seq the room still wants
  // one for (-1: none), so a stale job is skipped before it searches, and
  // without reaching into the room from a worker thread.
  std::shared_ptr<std::atomic<std::int64_t>> bot_wanted_ = std::make_shared<std::atomic<std::int64_t>>(-1);
  bool recovered_ = false;  // rebuilt from the store at start-up
  std::int64_t ended_ms_ = 0;  // recovered finished: the match's stored end (wall clock)
  // The match row is in the store (its create was acknowledged, or the room
  // was rebuilt from it): ending without a result then records how it ended.
  bool match_row_ = false;
  room_hooks hooks_;
  std::optional<spectator_feed> feed_;  // tournament rooms with a spectator delay

  mutable std::mutex summary_mutex_;
  protocol::room_summary summary_;
};

}  // namespace cod::server
