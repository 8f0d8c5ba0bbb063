// One connection's protocol state: hello first, then lobby requests
// (list_rooms, create_room, ping) answered here and room requests (join,
// resume, spectate, act, leave) forwarded to the room the connection is in.
// No Asio: the WebSocket session feeds it complete text messages on its
// strand and gives it a peer to send through, so tests drive it directly.
//
// Threading: on_* run on the connection's strand. send() and the room
// attachment (set by rooms from their own executors) are thread-safe.
#pragma once

#include <atomic>
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

#include "cod/protocol/client_messages.hpp"
#include "cod/protocol/session_error.hpp"
#include "common/config.hpp"
#include "common/environment.hpp"
#include "common/rate_limiter.hpp"
#include "room/peer.hpp"

namespace cod::server {

class client_session;
class metrics;
class room;
class room_registry;

// Where an organised event's player has their current game (tournament_join
// with a tournament's or a league's token), as the event's service answers
// it (server/tournament_service, server/league_service).
struct event_seat {
  enum class kind { seated, bad_token, waiting, over };
  kind what = kind::bad_token;
  std::shared_ptr<room> r;  // seated: the room, the seat and the player's name
  int seat = -1;
  std::string name;
  std::string detail;  // waiting, over (and bad_token, optionally): a sentence for the player
};

// What hello.account_token names (docs/accounts.md), as the account service
// answers it.
struct account_check {
  enum class kind { signed_in, bad_session, disabled, unavailable };
  kind what = kind::bad_session;
  std::int64_t account_id = 0;
  std::string name;
  bool guest = false;
};

struct lobby_services {
  std::shared_ptr<room_registry> rooms;
  // tournament_join (a tournament's or a league's token): null when the
  // server runs neither. `routed`: the room the connection's URL named (a
  // cluster's tournament id).
  std::function<event_seat(std::string_view token, const std::string& routed)> find_event_seat;
  // league_join, league_act (R15; docs/league.md): null when the server
  // runs no leagues. follow_league: the reply (a `league` view) and `p`
  // follows the token's league, or nullopt for an unknown token; on a
  // cluster node the league is moving to (`routed`: the id the URL named),
  // an error tournament_waiting.
  // league_act: the reply (`league`, or an error). league_mutations: the
  // reply (`league_mutations`, or an error); it changes nothing.
  std::function<std::optional<nlohmann::json>(std::string_view token, const nlohmann::json& id, std::weak_ptr<peer> p,
                                              const std::string& routed)>
      follow_league;
  std::function<nlohmann::json(std::string_view token, const nlohmann::json& id, const nlohmann::json& op)> league_act;
  std::function<nlohmann::json(std::string_view token, const nlohmann::json& id, const nlohmann::json& staged)>
      league_mutations;
  metrics* stats = nullptr;
  config cfg;
  // The server's one environment (common/environment.hpp): session ids.
  environment* env = nullptr;
  const std::atomic<bool>* shutting_down = nullptr;
  // A cluster node (docs/cluster.md), null otherwise. fetch_room: a room
  // this node does not run (join, resume, spectate): takes it over from the
  // shared store when no other node holds it and calls `done` with it, or
  // with null (no such unfinished room; `elsewhere`: another node runs it).
  // `routed`: the connection named the room in its URL (/ws?room=ID), so
  // the proxy sends the room's connections here: the room's holder is asked
  // to hand it over, and `done` waits for that a while. Without it a room
  // another node runs is not pulled here (two nodes pulling one room back
  // and forth). `done` runs on another thread.
  using fetched = std::function<void(std::shared_ptr<room> r, bool elsewhere)>;
  std::function<void(const std::string& room_id, bool routed, fetched done)> fetch_room;
  // hello.account_token: looks the session up off the I/O threads (the
  // account workers) and calls `done` from there; false when the workers
  // are full (the hello is answered server_busy). Null: the server keeps no
  // accounts (every account_token is bad_session).
  std::function<bool(std::string token, std::function<void(account_check)> done)> authenticate;
  // The matchmaking queue (queue_service): null when the server runs none.
  // queue: a signed-in connection in no room; leave_queue: the connection
  // closed (reason "") or entered a room ("entered_room").
  std::function<void(std::shared_ptr<client_session> who, protocol::queue_msg m)> queue;
  std::function<void(std::shared_ptr<client_session> who, protocol::unqueue_msg m)> unqueue;
  std::function<void(std::uint64_t conn, std::string reason)> leave_queue;
  // list_rooms across every node; null: this node's registry.
  std::function<nlohmann::json(const protocol::list_rooms_msg& query)> list_rooms;
};

// The peer rooms see: sends go through the connection's own peer (the
// WebSocket session), errors counted in metrics by code.
class client_session : public peer, public std::enable_shared_from_this<client_session> {
 public:
  // Runs a function on the connection's strand (after an account check).
  using strand_post = std::function<void(std::function<void()>)>;
  // `address`: the client's IP address ("" when unknown, as in tests).
  // `post`: null runs the function at once (tests).
  client_session(lobby_services& svc, std::weak_ptr<peer> p, std::uint64_t conn_id, std::string address = {},
                 strand_post post = nullptr);

  // A complete text message (at most max_frame_bytes).
  void on_text(std::string_view text);
  // A message longer than max_frame_bytes: error frame_too_large, close 1009.
  void on_oversized();
  // The rate limiter dropped a message: error rate_limited.
  void on_rate_limited();
  // A binary frame: the protocol is JSON text only (docs/protocol.md): error bad_json.
  void on_binary();
  // The connection is gone: rooms mark the seat disconnected; waiting rooms
  // it created that nobody joined close soon.
  void on_closed();
  // hello_timeout_sec passed without a hello: error hello_required, close 1008.
  void on_hello_timeout();
  bool said_hello() const { return hello_; }
  // The room the connection's URL named (/ws?room=ID: a cluster's proxy
  // routed it by that room); set once, before the first message.
  void set_routed_room(std::string room) { routed_room_ = std::move(room); }

  // Thread-safe. Error messages are counted in metrics by code.
  void send(const nlohmann::json& j) override;
  void send(message_ptr m) override;
  void close(std::uint16_t code, std::string reason) override;

  std::uint64_t id() const override { return conn_id_; }
  const std::string& session() const { return session_; }
  // hello.acks: whether an accepted act's update carries its id instead of
  // an `accepted` reply. Set once by hello, before any act this connection
  // sends can reach a room (the room reads it after that, on its strand).
  bool acks_in_update() const override { return acks_in_update_; }
  // hello.legal_actions: set once by hello, like acks_in_update.
  bool wants_legal_actions() const override { return legal_actions_; }
  // hello.account_token: set once by hello's account check, on the strand,
  // before any later message of the connection is read.
  std::int64_t account_id() const override { return account_id_; }
  const std::string& account_name() const { return account_name_; }

  // The room this connection is in (or joining). Thread-safe; rooms call
  // detach() when a join fails or the client leaves.
  std::shared_ptr<room> attached() const;
  void attach(std::shared_ptr<room> r);
  // attach(r) unless the connection is in a room already (false then).
  bool try_attach(std::shared_ptr<room> r);
  const std::string& address() const { return address_; }
  void detach(const room* r) override;
  // The connection has closed (on_closed ran). Thread-safe: the queue asks
  // before it keeps a search whose rating it read meanwhile.
  bool closed() const { return closed_.load(); }

 private:
  void send_error(const nlohmann::json& id, protocol::session_errc code, std::string_view message = {});
  // join, resume or spectate `r` (M: the message); any thread.
  template <class M>
  void enter(const std::shared_ptr<room>& r, const M& m);
  // join, resume or spectate the room m names, wherever it is.
  template <class M>
  void enter_named(const M& m);
  void create_room(const protocol::create_room_msg& m);
  void hello(const protocol::hello_msg& m);
  // The account check of hello `m` came back (on the strand): welcome or
  // the error, then the messages that waited for it.
  void hello_checked(const protocol::hello_msg& m, const account_check& a);
  void read_waiting();
  // join, resume: the account fills what the message left out.
  bool fill_from_account(protocol::join_msg& m);
  bool fill_from_account(const protocol::resume_msg& m);

  lobby_services& svc_;
  std::weak_ptr<peer> peer_;
  std::uint64_t conn_id_;
  std::string address_;
  std::string session_;
  std::string routed_room_;
  // list_rooms has a budget of its own: each costs more than any other request.
  rate_limiter list_budget_;
  // Emotes too (docs/protocol.md, "emote"): a few at once, then one every
  // emote_interval_sec, so that a table cannot be flooded with them.
  rate_limiter emote_budget_;
  std::vector<std::weak_ptr<room>> created_;
  std::string league_token_;  // the last accepted league_join's (on the strand)
  strand_post post_;
  std::atomic<bool> hello_{false};
  // An account check is out: later messages wait here (at most
  // max_waiting_on_hello; past that, rate_limited) and are read after it.
  bool checking_account_ = false;
  std::deque<std::string> waiting_on_hello_;
  std::int64_t account_id_ = 0;
  std::string account_name_;
  std::atomic<bool> closed_{false};
  bool acks_in_update_ = false;
  bool legal_actions_ = false;
  mutable std::mutex mutex_;
  std::shared_ptr<room> room_;
};

}  // namespace cod::server
