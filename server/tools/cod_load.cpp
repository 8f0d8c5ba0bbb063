// cod-load: the load driver of scripts/bench-server. From one process, on a
// few threads (async Beast), it opens 2 WebSocket connections per room, plays
// duels with random legal moves as fast as the replies come (bot/moves.hpp),
// and starts a new room whenever a match ends. It measures, for every
// accepted action, the time from sending `act` to receiving the sender's own
// `update` for that action (the server commits the action to its store
// before it sends `accepted` and the updates, so this is action -> durable ->
// broadcast), and prints throughput, latency percentiles, errors by code,
// and the server's memory (VmRSS of --server-pid) and CPU time.
//
// It shares the machine with the server it measures, so its own CPU per
// action lowers the figure it reports: the hot path builds no JSON DOM. An
// update is looked into only on the connection's own turn, and then read
// straight from its text (bot/view_scan.hpp: the few fields the move picker
// needs); the act goes out as text written directly (append_act_text).
// Anything the scanner does not expect falls back to nlohmann's parser, and
// every other message (state, errors, match_over...) takes that path too.
// The moves are the same either way: one candidate list (candidate_moves),
// one generator per connection.
//
// Why it keeps its own move generation rather than the server's list
// (hello.legal_actions, which cod-bot and the web client use): reading the
// list needs a JSON DOM of every own-turn update, which would cost this
// driver CPU on the core it shares with the server; and the benchmark must
// also drive the server without the list, to measure what the list costs
// (--legal-actions asks for it and counts its bytes; the moves stay these).
//
//   cod-load --port 8080 --rooms 1000 --duration-sec 20 --server-pid 1234
//
// --bot-rooms N adds N rooms of one player against a house bot (add_bot, at
// --bot-level) beside the measured rooms: the bots' searches load the
// server's AI pool (docs/ai-server.md) while the figures printed stay those
// of the human-only rooms (the bot rooms' own players are counted apart).
//
// For scripts/soak it also survives the server: a lost connection connects
// again (every 100-400 ms while the server is down), says hello and resumes
// its seat with the token `joined` gave; a room the server lost (a waiting
// room is not stored) is created again. --reconnect-every makes storms of
// such losses on purpose; --ack-file records every acknowledged action for
// the soak's end check. Without --ack-file the hot path pays one branch for
// it; with it, a few appends to a per-connection block written 64 lines at
// a time (no lock or system call per action).
//
// It is a benchmark: it prints numbers and exits 0 unless it could not run
// (no server, no matches started). The server must allow the load:
// --max-connections >= 2 x rooms, --max-rooms above the rooms in play plus
// the finished ones it keeps (finished_room_ttl_sec), and preferably
// --rate-limit-per-sec 0 (else `rate_limited` errors count and the act is
// resent 50 ms later).
#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <unistd.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>
#include <nlohmann/json.hpp>

#include "bot/cli.hpp"
#include "bot/moves.hpp"
#include "bot/view_scan.hpp"
#include "cod/protocol/catalogue_json.hpp"
#include "cod/protocol/messages.hpp"

#ifndef COD_DEFAULT_CATALOGUE
#define COD_DEFAULT_CATALOGUE "config/cards/catalogue.json"
#endif

namespace {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;
namespace pr = cod::protocol;
using tcp = net::ip::tcp;
using nlohmann::json;

// The fallback when bot/view_scan.hpp refuses an update (see the top): keys
// the picker never reads are dropped while parsing.
bool drop_unused_keys(int, json::parse_event_t event, json& parsed) {
  if (event != json::parse_event_t::key) return true;
  const auto& k = parsed.get_ref<const std::string&>();
  static const char* const unused[] = {"events", "chained", "av", "hp", "damage", "bonus_av", "entered_this_turn",
                                       "attacked", "protection_used", "removed", "discard"};
  for (const char* u : unused)
    if (k == u) return false;
  return true;
}
using clock_type = std::chrono::steady_clock;

// A room id's node ("n2" of "n2-rk7q4"; "" for a node without an id).
std::string_view node_of(std::string_view room) {
  const auto dash = room.find('-');
  return dash == std::string_view::npos ? std::string_view() : room.substr(0, dash);
}

struct options {
  std::string host = "127.0.0.1";
  std::uint16_t port = 8080;
  int rooms = 1000;
  double duration_sec = 20;
  int threads = 2;
  int server_pid = 0;
  int connect_concurrency = 64;
  double setup_timeout_sec = 120;
  std::uint64_t seed = 1;
  std::string catalogue = COD_DEFAULT_CATALOGUE;
  bool constructed_exhaustion = false;  // --exhaustion: rooms with the exhaustion rule
  int think_ms = 0;  // --think-ms: a bot waits this long before each action (0: at once, saturating)
  pr::ack_style acks = pr::ack_style::separate;  // --acks: hello.acks (docs/protocol.md)
  bool legal_actions = false;  // --legal-actions: hello.legal_actions (the list is sent, not used)
  std::string ack_file;           // --ack-file: "room seed_hash seq" per accepted action
  double reconnect_every_sec = 0; // --reconnect-every: a storm of drops + resumes every this many s
  double reconnect_fraction = 0.1;  // --reconnect-fraction: the share of seated connections dropped
  int per_address = 0;  // --per-address: connections per source address 127.1.x.y (0: the OS picks 127.0.0.1)
  bool route_by_room = false;  // --route-by-room: name the room in the URL (/ws?room=ID), for a cluster's proxy
  int bot_rooms = 0;  // --bot-rooms: rooms of one player and a house bot, beside the measured ones
  int bot_level = 0;  // --bot-level: their bots' level (0: the server's bot_level)
};

void usage(std::FILE* to) {
  std::fputs(
      "usage: cod-load [--host H] [--port P] [--rooms N] [--duration-sec S] [--threads T]\n"
      "                [--server-pid PID] [--connect-concurrency K] [--setup-timeout-sec S]\n"
      "                [--seed N] [--exhaustion] [--catalogue PATH] [--think-ms MS]\n"
      "                [--acks separate|in_update] [--legal-actions] [--ack-file PATH]\n"
      "                [--reconnect-every SEC] [--reconnect-fraction F] [--per-address K]\n"
      "                [--route-by-room] [--bot-rooms N] [--bot-level L]\n"
      "Plays N concurrent duel rooms (2 N WebSocket connections) of random legal moves against\n"
      "cod-server for S seconds once every room has started, and prints accepted actions/s,\n"
      "act->update latency percentiles, errors by code, and the server's RSS and CPU (--server-pid).\n"
      "--think-ms paces every bot (a player's thinking time, uniform in [MS/2, 3 MS/2]) for\n"
      "latency under a given load;\n"
      "--acks in_update asks (hello.acks) for acts acknowledged by the actor's own update\n"
      "instead of a separate `accepted` reply (default: separate).\n"
      "--legal-actions asks (hello.legal_actions) for each seat's legal actions in its updates\n"
      "(what they cost the server; the bots still choose their own moves).\n"
      "without it the bots act as soon as they can, which measures throughput at saturation.\n"
      "A connection the server drops (or kills: kill -9 and a restart) reconnects and resumes its\n"
      "seat with its token (docs/protocol.md, Reconnecting); a waiting room lost with the server\n"
      "is created again.\n"
      "--ack-file PATH writes one line per accepted action, \"ROOM SEED_HASH SEQ\" (the seed_hash\n"
      "of the match's state tells apart the matches a room id was used for; matches.seed_hash in\n"
      "the store), for checking that every acknowledged action was stored (scripts/soak).\n"
      "--reconnect-every SEC: every SEC seconds of the measured window, a fraction\n"
      "(--reconnect-fraction, default 0.1) of the connections seated in a match drop at once and\n"
      "resume (a reconnect storm).\n"
      "--per-address K: connect from 127.1.x.y, K connections per address (a room's two seats\n"
      "share one), so that the server's per-address limits can stay on for other clients.\n"
      "--route-by-room: behind a cluster's proxy (docs/cluster.md), a connection for a room names\n"
      "it in its URL (/ws?room=ID): the joining seat reconnects so before it joins a room of\n"
      "another node, and a seat resumes so; prints how long seats took to play again after a\n"
      "lost connection (a node killed: the failover time).\n"
      "--bot-rooms N: also N rooms of one player (paced as the others) against a house bot\n"
      "(add_bot, level --bot-level, default the server's bot_level), whose searches run on the\n"
      "server's AI pool; the latency and throughput printed are the human-only rooms' alone.\n",
      to);
}

// ---------------------------------------------------------------------------
// Shared measurement state.

struct stats {
  std::atomic<bool> measuring{false};
  std::atomic<bool> stopping{false};
  std::atomic<long> connected{0};
  std::atomic<long> connect_failures{0};
  std::atomic<long> rooms_started{0};     // first match of each room pair
  std::atomic<long> matches_started{0};   // every match
  std::atomic<long> matches_finished{0};  // in the window
  std::atomic<long> accepted{0};          // in the window
  std::atomic<long> accepted_total{0};
  std::atomic<long> acts_sent{0};         // in the window
  std::atomic<long> update_frames{0};     // updates received in the window
  std::atomic<long> update_bytes{0};      // their text
  std::atomic<long> disconnects{0};       // connections lost (not dropped on purpose)
  std::atomic<long> drops{0};             // dropped on purpose (--reconnect-every)
  std::atomic<long> reconnects{0};        // connections open again after a loss or a drop
  std::atomic<long> reconnect_failures{0};  // connect/handshake attempts that failed (server down)
  std::atomic<long> resumes{0};           // seats taken back with resume
  std::atomic<long> resumes_refused{0};   // resume refused (the room is gone): a new room instead
  std::atomic<long> acks_written{0};      // lines of --ack-file
  std::atomic<long> scan_fallbacks{0};   // own-turn updates bot/view_scan.hpp refused (parsed as JSON)
  // --bot-rooms: counted apart from the measured rooms.
  std::atomic<long> bot_rooms_started{0};
  std::atomic<long> bot_matches_finished{0};  // in the window
  std::atomic<long> bot_room_updates{0};      // updates their players received in the window (bot's and own actions)
  std::atomic<long> bot_room_acts{0};         // their players' acts in the window
  std::mutex mutex;
  std::vector<std::int64_t> back_in_ms;   // lost connection -> the resumed seat's state (under mutex)
  std::map<std::string, long> errors;     // by code, in the window (rule errors included)
  std::vector<std::uint32_t> latencies_us;
  std::string first_disconnect;

  void error(const std::string& code) {
    std::lock_guard lock(mutex);
    ++errors[code];
  }
};

// Finds "key": in a compact JSON text (nlohmann's dump: no spaces) and reads
// the integer after it; false when absent. Used to skip parsing the updates
// a connection does not need to look into.
bool scan_int(std::string_view text, std::string_view key, long& out) {
  const auto at = text.find(key);
  if (at == std::string_view::npos) return false;
  std::size_t i = at + key.size();
  bool neg = false;
  if (i < text.size() && text[i] == '-') {
    neg = true;
    ++i;
  }
  if (i >= text.size() || text[i] < '0' || text[i] > '9') return false;
  long v = 0;
  while (i < text.size() && text[i] >= '0' && text[i] <= '9') v = v * 10 + (text[i++] - '0');
  out = neg ? -v : v;
  return true;
}

struct shared {
  options opt;
  cod::catalogue cat;
  stats st;
  tcp::endpoint endpoint;
  std::mutex ack_mutex;
  std::FILE* ack_file = nullptr;  // --ack-file, written in blocks by the connections

  void write_acks(const std::string& block, long lines) {
    std::lock_guard lock(ack_mutex);
    std::fwrite(block.data(), 1, block.size(), ack_file);
    st.acks_written += lines;
  }
};

// ---------------------------------------------------------------------------
// One connection: a seat of a room pair. Everything runs on its strand.

class conn : public std::enable_shared_from_this<conn> {
 public:
  // `bot_room`: a creator with no partner, which gives the other seat to a
  // house bot (--bot-rooms).
  conn(net::io_context& ioc, shared& sh, int index, bool creator, bool bot_room = false)
      : strand_(net::make_strand(ioc)), ws_(std::make_unique<ws_type>(strand_)), retry_(strand_), sh_(sh),
        index_(index), creator_(creator), bot_room_(bot_room),
        picker_(sh.opt.seed * 1000003ULL + static_cast<std::uint64_t>(index)) {}

  void set_partner(const std::shared_ptr<conn>& p) { partner_ = p; }

  // Connects; `on_open` runs (on this strand) once the WebSocket is open or
  // has failed.
  void start(std::function<void()> on_open) {
    on_open_ = std::move(on_open);
    net::post(strand_, [self = shared_from_this()] { self->do_connect(); });
  }

  // From the partner (any thread): the room to join once this connection is
  // free.
  void offer_room(std::string room) {
    net::post(strand_, [self = shared_from_this(), room = std::move(room)]() mutable {
      self->next_room_ = std::move(room);
      self->try_join();
    });
  }

  void close_now() {
    net::post(strand_, [self = shared_from_this()] {
      beast::error_code ec;
      self->retry_.cancel();
      beast::get_lowest_layer(*self->ws_).socket().close(ec);
    });
  }

  // A reconnect storm: a connection seated in a match drops its TCP
  // connection (no close handshake, as a lost network would) and resumes.
  void drop() {
    net::post(strand_, [self = shared_from_this()] {
      if (!self->open_ || self->token_.empty() || !self->match_counted_ || self->sh_.st.stopping) return;
      self->dropping_ = true;
      beast::error_code ec;
      beast::get_lowest_layer(*self->ws_).socket().close(ec);
    });
  }

  std::vector<std::uint32_t> take_latencies() { return std::move(lat_); }

  // At the end, once closed: what is left of the --ack-file block; `left`
  // is decremented when done.
  void flush_acks_at_end(std::atomic<int>& left) {
    net::post(strand_, [self = shared_from_this(), &left] {
      self->flush_acks();
      left--;
    });
  }

 private:
  void do_connect() {
    if (sh_.opt.per_address > 0) {
      // 127.1.x.y, K connections each (the pair of a room together): the
      // server sees many clients, each within its per-address limits.
      const int k = index_ / sh_.opt.per_address;
      const net::ip::address_v4 from(net::ip::address_v4::bytes_type{
          127, 1, static_cast<unsigned char>(k / 250), static_cast<unsigned char>(k % 250 + 1)});
      beast::error_code ec;
      auto& sock = beast::get_lowest_layer(*ws_).socket();
      sock.open(tcp::v4(), ec);
      if (!ec) sock.bind(tcp::endpoint(from, 0), ec);
      if (ec) return open_failed("bind", ec);
    }
    beast::get_lowest_layer(*ws_).expires_after(std::chrono::seconds(30));
    beast::get_lowest_layer(*ws_).async_connect(
        sh_.endpoint, [self = shared_from_this()](beast::error_code ec) { self->on_connect(ec); });
  }
  void on_connect(beast::error_code ec) {
    if (ec) return open_failed("connect", ec);
    beast::get_lowest_layer(*ws_).socket().set_option(tcp::no_delay(true), ec);
    beast::get_lowest_layer(*ws_).expires_never();
    auto t = websocket::stream_base::timeout::suggested(beast::role_type::client);
    t.handshake_timeout = std::chrono::seconds(30);
    ws_->set_option(t);
    ws_->text(true);
    ws_->auto_fragment(false);
    // Frame masks need not be unpredictable here (RFC 6455 wants them so for
    // browsers behind proxies); the fast generator saves the driver's CPU.
    ws_->secure_prng(false);
    ws_->read_message_max(0);
    std::string host = sh_.opt.host;
    host += ':';
    host += std::to_string(sh_.opt.port);
    // A seat names its room (the proxy sends it to the room's node); a
    // joining seat, the room it is about to join.
    std::string target = "/ws";
    const std::string& room = !token_.empty() ? room_ : route_room_;
    if (sh_.opt.route_by_room && !room.empty()) {
      target += "?room=";
      target += room;
    }
    connected_for_ = sh_.opt.route_by_room ? room : std::string();
    ws_->async_handshake(host, target, [self = shared_from_this()](beast::error_code e) { self->on_handshake(e); });
  }
  void open_failed(const char* what, beast::error_code ec) {
    if (reconnecting_) {
      // The server is down (kill -9, restarting) or refusing: try again.
      sh_.st.reconnect_failures++;
      return schedule_reconnect();
    }
    sh_.st.connect_failures++;
    {
      std::lock_guard lock(sh_.st.mutex);
      if (sh_.st.first_disconnect.empty()) {
        sh_.st.first_disconnect = what;
        sh_.st.first_disconnect += ": ";
        sh_.st.first_disconnect += ec.message();
      }
    }
    if (on_open_) std::exchange(on_open_, nullptr)();
  }
  void on_handshake(beast::error_code ec) {
    if (ec) return open_failed("handshake", ec);
    if (std::exchange(reconnecting_, false)) sh_.st.reconnects++;
    else sh_.st.connected++;
    open_ = true;
    if (on_open_) std::exchange(on_open_, nullptr)();
    send(pr::client_message_to_json(
        pr::hello_msg{json(next_id_++), pr::protocol_version, std::string("cod-load/0.1"), sh_.opt.acks,
                      sh_.opt.legal_actions}));
    do_read();
  }

  // -- writing
  void send(const json& j) { send(j.dump()); }
  void send(std::string text) {
    if (!open_) return;
    outq_.push_back(std::move(text));
    if (!writing_) do_write();
  }
  void do_write() {
    writing_ = true;
    ws_->async_write(net::buffer(outq_.front()),
                    [self = shared_from_this()](beast::error_code ec, std::size_t) { self->on_write(ec); });
  }
  void on_write(beast::error_code ec) {
    writing_ = false;
    if (ec || !open_) return lost("write", ec);
    outq_.pop_front();
    if (!outq_.empty()) do_write();
  }

  // -- reading
  void do_read() {
    reading_ = true;
    ws_->async_read(buffer_, [self = shared_from_this()](beast::error_code ec, std::size_t) { self->on_read(ec); });
  }
  void on_read(beast::error_code ec) {
    reading_ = false;
    if (ec) return lost("read", ec);
    const auto data = buffer_.cdata();
    const std::string_view text(static_cast<const char*>(data.data()), data.size());
    on_text(text);
    buffer_.consume(buffer_.size());
    if (open_) do_read();
  }
  void lost(const char* what, beast::error_code ec) {
    if (open_) {
      open_ = false;
      beast::error_code ignored;
      beast::get_lowest_layer(*ws_).socket().close(ignored);  // ends the other pending operation
      if (!sh_.st.stopping) {
        if (std::exchange(retargeting_, false)) {
        } else if (std::exchange(dropping_, false)) {
          sh_.st.drops++;
        } else {
          note_lost(what, ec);
          if (!token_.empty()) lost_at_ = clock_type::now();
        }
        lost_pending_ = true;
      }
    }
    // The stream is replaced once neither its read nor its write is pending.
    if (lost_pending_ && !reading_ && !writing_) {
      lost_pending_ = false;
      reset_after_loss();
      schedule_reconnect();
    }
  }
  void note_lost(const char* what, beast::error_code ec) {
    sh_.st.disconnects++;
    std::lock_guard lock(sh_.st.mutex);
    if (sh_.st.first_disconnect.empty()) {
      sh_.st.first_disconnect = what;
      sh_.st.first_disconnect += ": ";
      sh_.st.first_disconnect += ec.message();
      if (ec == websocket::error::closed) {
        sh_.st.first_disconnect += " (close code ";
        sh_.st.first_disconnect += std::to_string(ws_->reason().code);
        sh_.st.first_disconnect += ' ';
        sh_.st.first_disconnect += ws_->reason().reason.c_str();
        sh_.st.first_disconnect += ')';
      }
    }
  }

  // What a new connection does not carry over. The seat (room_, token_)
  // stays: the welcome resumes it.
  void reset_after_loss() {
    retry_.cancel();
    thinking_ = thought_ = false;
    welcomed_ = false;
    my_turn_ = false;
    pending_id_ = 0;
    pending_seq_ = 0;
    outq_.clear();
    buffer_.clear();
    if (token_.empty()) {
      // Not seated yet (a create or join in flight): free again.
      in_room_ = false;
      left_ = true;
    }
  }
  void schedule_reconnect() {
    if (sh_.st.stopping) return;
    reconnecting_ = true;
    // 100-400 ms: after a restart 2 N connections come back spread out a little.
    retry_.expires_after(std::chrono::milliseconds(100 + static_cast<int>(picker_rng_.below(300))));
    retry_.async_wait([self = shared_from_this()](beast::error_code ec) {
      if (ec || self->sh_.st.stopping) return;
      self->ws_ = std::make_unique<ws_type>(self->strand_);
      self->do_connect();
    });
  }

  // -- the protocol
  void on_text(std::string_view text) {
    if (sh_.st.measuring && (text.substr(0, 10) == "{\"events\":" || text.substr(0, 9) == "{\"clock\":")) {
      if (bot_room_) {
        sh_.st.bot_room_updates++;
      } else {
        sh_.st.update_frames++;
        sh_.st.update_bytes += static_cast<long>(text.size());
      }
    }
    // Updates are most of the traffic: look inside only when it is our turn.
    // (nlohmann writes keys in order: an update without a clock starts with
    // "events"; anything else takes the general path below.)
    if (text.substr(0, 10) == "{\"events\":") {
      long seq = 0, active = -1, id = 0;
      scan_int(text, "\"seq\":", seq);
      scan_int(text, "\"active_seat\":", active);
      const bool over = text.find("\"phase\":\"game_over\"") != std::string_view::npos;
      // hello.acks in_update: only updates carry a top-level "id" (no view or
      // event key is "id"), the acknowledgement of our act.
      if (scan_int(text, "\"id\":", id)) on_accepted(id, seq);
      on_update_seq(seq);
      if (!over && active == seat_ && !sh_.st.stopping) {
        if (cod::bot::scan_update_view(text, sh_.cat, turn_)) {
          my_turn_ = turn_.my_turn();
          picker_.set_view(turn_, sh_.cat);
        } else {
          sh_.st.scan_fallbacks++;
          json m = json::parse(text, drop_unused_keys, false);
          if (m.is_discarded()) return bad("update is not JSON");
          set_view(m.at("view"));
        }
        maybe_act();
      } else {
        my_turn_ = false;  // not our turn: nothing to look at until the next update
      }
      return;
    }
    json m = json::parse(text, nullptr, false);
    if (m.is_discarded() || !m.is_object()) return bad("not JSON");
    const std::string& type = m.at("type").get_ref<const std::string&>();
    if (type == "update") {
      if (const auto it = m.find("id"); it != m.end() && it->is_number_integer())
        on_accepted(it->get<long>(), m.at("seq").get<long>());
      on_update_seq(m.at("seq").get<long>());
      set_view(m.at("view"));
      maybe_act();
    } else if (type == "welcome") {
      welcomed_ = true;
      if (!token_.empty()) {
        pr::resume_msg r;
        resume_id_ = next_id_++;
        r.id = resume_id_;
        r.room = room_;
        r.token = token_;
        send(pr::client_message_to_json(r));
      } else if (creator_) {
        create_room();
      } else {
        try_join();
      }
    } else if (type == "room_created") {
      join(m.at("room").get<std::string>());
      if (auto p = partner_.lock()) p->offer_room(m.at("room").get<std::string>());
    } else if (type == "joined") {
      seat_ = m.at("seat").get<int>();
      room_ = m.at("room").get<std::string>();
      token_ = m.at("token").get<std::string>();
      if (bot_room_ && !resume_id_) {
        // The other seat to a house bot: the match starts at once.
        pr::add_bot_msg b;
        b.id = next_id_++;
        if (sh_.opt.bot_level > 0) b.level = sh_.opt.bot_level;
        send(pr::client_message_to_json(b));
      }
      if (std::exchange(resume_id_, 0)) {
        sh_.st.resumes++;
        if (lost_at_ != clock_type::time_point{}) {
          const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(clock_type::now() - lost_at_).count();
          lost_at_ = {};
          std::lock_guard lock(sh_.st.mutex);
          sh_.st.back_in_ms.push_back(ms);
        }
      }
    } else if (type == "state") {
      last_seq_ = m.at("seq").get<long>();
      if (!match_counted_) {  // the match's first state (not a resume's)
        match_counted_ = true;
        if (bot_room_) {
          if (first_match_) sh_.st.bot_rooms_started++;
        } else if (creator_) {
          sh_.st.matches_started++;
          if (first_match_) sh_.st.rooms_started++;
        }
        first_match_ = false;
      }
      match_key_ = m.value("seed_hash", "");
      pending_id_ = 0;
      set_view(m.at("view"));
      maybe_act();
    } else if (type == "accepted") {
      const json id = m.value("id", json());
      if (id.is_number_integer() && on_accepted(id.get<long>(), m.at("seq").get<long>())) {
        // The update is expected after this; should it have come first:
        if (last_seq_ >= pending_seq_) {
          on_update_seq(last_seq_);
          maybe_act();
        }
      }
    } else if (type == "match_over") {
      // After a resume of a finished room, match_over may come twice.
      if (creator_ && sh_.st.measuring && !std::exchange(over_seen_, true))
        (bot_room_ ? sh_.st.bot_matches_finished : sh_.st.matches_finished)++;
      pending_id_ = 0;
      in_room_ = false;
      token_.clear();  // nothing to resume any more
      send(pr::client_message_to_json(pr::leave_msg{json(next_id_++)}));
    } else if (type == "left") {
      // The reply to our leave (or the room closed): free for the next one.
      in_room_ = false;
      left_ = true;
      if (creator_) create_room();
      else try_join();
    } else if (type == "error") {
      on_error(m);
    }
    // seat_status, clock, pong: nothing to do.
  }

  void create_room() {
    if (sh_.st.stopping || !left_ || !welcomed_) return;
    left_ = false;
    pr::create_room_msg c;
    c.id = next_id_++;
    c.format = pr::deck_format::preconstructed;
    c.options.exhaustion = sh_.opt.constructed_exhaustion;
    send(pr::client_message_to_json(c));
  }
  void try_join() {
    if (sh_.st.stopping || !welcomed_ || !left_ || next_room_.empty()) return;
    if (sh_.opt.route_by_room && node_of(next_room_) != node_of(connected_for_)) {
      // Another node's room: connect again, through the proxy, to that node.
      route_room_ = next_room_;
      retargeting_ = true;
      beast::error_code ec;
      beast::get_lowest_layer(*ws_).socket().close(ec);
      return;
    }
    join(std::exchange(next_room_, std::string()));
  }
  void join(const std::string& room) {
    left_ = false;
    in_room_ = true;
    match_counted_ = false;
    over_seen_ = false;
    pr::join_msg j;
    join_id_ = next_id_++;
    j.id = join_id_;
    j.room = room;
    j.name = creator_ ? "load-a" : "load-b";
    j.deck.preconstructed = 1 + static_cast<int>(picker_rng_.below(4));
    send(pr::client_message_to_json(j));
  }

  // A view parsed as JSON (a state, or an update the scanner refused).
  void set_view(const json& view) {
    my_turn_ = cod::bot::my_turn(view);
    picker_.set_view(view, sh_.cat);
  }

  void on_update_seq(long seq) {
    last_seq_ = seq;
    if (!pending_id_ || !pending_seq_ || seq < pending_seq_) return;
    const auto us = std::chrono::duration_cast<std::chrono::microseconds>(clock_type::now() - sent_at_).count();
    if (counting_) lat_.push_back(static_cast<std::uint32_t>(std::min<long long>(us, 0xffffffffLL)));
    pending_id_ = 0;
    pending_seq_ = 0;
  }

  // Our pending act `id` was accepted as action `seq` (an `accepted` reply,
  // or our own update with hello.acks in_update). False for another id.
  bool on_accepted(long id, long seq) {
    if (!pending_id_ || id != pending_id_) return false;
    pending_seq_ = seq;
    sh_.st.accepted_total++;
    if (counting_) sh_.st.accepted++;
    if (sh_.ack_file) record_ack(seq);
    return true;
  }

  void maybe_act() {
    if (pending_id_ || sh_.st.stopping || !my_turn_) return;
    if (sh_.opt.think_ms > 0 && !thought_) {
      // Think first; act (with the view as it is then) when the timer fires.
      if (thinking_) return;
      thinking_ = true;
      // Uniform in [think/2, 3 think/2): players do not act in lockstep, and a
      // fixed pause would keep the rooms in the phase the setup gave them.
      const int t = sh_.opt.think_ms;
      retry_.expires_after(std::chrono::milliseconds(t / 2 + static_cast<int>(picker_rng_.below(
                                                                      static_cast<std::uint64_t>(t) + 1))));
      retry_.async_wait([self = shared_from_this()](beast::error_code ec) {
        self->thinking_ = false;
        if (ec) return;
        self->thought_ = true;
        self->maybe_act();
        self->thought_ = false;
      });
      return;
    }
    const cod::bot::move* a = picker_.pick();
    if (!a) return;
    // What parse_action would refuse in move_to_json(*a) (never seen: the
    // uids come from the server's view) counts as refused, as it always did.
    if (!cod::bot::move_on_wire(*a)) {
      picker_.refused();
      return maybe_act();
    }
    pending_action_ = *a;
    send_act();
  }
  // Sends pending_action_ under a new request id.
  void send_act() {
    pending_id_ = next_id_++;
    pending_seq_ = 0;
    // A bot room's player is load, not measured.
    counting_ = sh_.st.measuring.load() && !bot_room_;
    if (counting_) sh_.st.acts_sent++;
    else if (bot_room_ && sh_.st.measuring) sh_.st.bot_room_acts++;
    sent_at_ = clock_type::now();
    std::string text;
    text.reserve(96);
    cod::bot::append_act_text(text, pending_id_, pending_action_);
    send(std::move(text));
  }

  // A block per connection, written when it is full: no lock or system call
  // per action.
  void record_ack(long seq) {
    ack_block_ += room_;
    ack_block_ += ' ';
    ack_block_ += match_key_;
    ack_block_ += ' ';
    ack_block_ += std::to_string(seq);
    ack_block_ += '\n';
    if (++ack_lines_ >= 64) flush_acks();
  }
  void flush_acks() {
    if (!ack_block_.empty()) sh_.write_acks(ack_block_, ack_lines_);
    ack_block_.clear();
    ack_lines_ = 0;
  }

  void on_error(const json& m) {
    const std::string code = m.value("code", "?");
    if (sh_.st.measuring) sh_.st.error(code);
    const json id = m.value("id", json());
    if (resume_id_ && id == resume_id_) {
      // The room is gone (a waiting room does not survive a restart; a
      // finished one closes): free for a new room, as after `left`.
      resume_id_ = 0;
      sh_.st.resumes_refused++;
      token_.clear();
      room_.clear();
      in_room_ = false;
      left_ = true;
      if (creator_) create_room();
      else try_join();
      return;
    }
    if (join_id_ && id == join_id_ && !sh_.st.stopping) {
      // The room offered is gone (lost with the server): wait for the next offer.
      join_id_ = 0;
      in_room_ = false;
      left_ = true;
      if (creator_) create_room();
      else try_join();
      return;
    }
    if (pending_id_ && (id == pending_id_ || (id.is_null() && code == "rate_limited"))) {
      if (code == "rate_limited" || code == "server_busy") {
        // The same act again shortly.
        retry_.expires_after(std::chrono::milliseconds(50));
        retry_.async_wait([self = shared_from_this()](beast::error_code ec) {
          if (ec || !self->pending_id_ || self->sh_.st.stopping) return;
          self->send_act();
        });
        return;
      }
      pending_id_ = 0;
      if (code == "not_your_turn" || code == "game_over") return;  // a stale view
      picker_.refused();
      maybe_act();
      return;
    }
    if ((code == "server_busy" || code == "too_many_rooms") && creator_ && !in_room_) {
      // No room could be created (too many rooms): try again in a while.
      retry_.expires_after(std::chrono::milliseconds(200));
      retry_.async_wait([self = shared_from_this()](beast::error_code ec) {
        if (ec) return;
        self->left_ = true;
        self->create_room();
      });
    }
  }

  void bad(const char* what) {
    if (sh_.st.measuring) sh_.st.error(what);
  }

  using ws_type = websocket::stream<beast::tcp_stream>;
  net::strand<net::io_context::executor_type> strand_;
  std::unique_ptr<ws_type> ws_;  // a new one for each reconnection
  net::steady_timer retry_;
  bool reading_ = false;
  bool reconnecting_ = false;   // connecting again after a loss
  bool lost_pending_ = false;   // lost; reconnect once the pending operations have ended
  bool dropping_ = false;       // drop(): a storm, not a failure
  bool retargeting_ = false;    // --route-by-room: reconnecting to another room's node
  std::string route_room_;      // --route-by-room: the room to name in the URL when not seated
  std::string connected_for_;   // --route-by-room: the room the current connection named
  clock_type::time_point lost_at_{};  // a seated connection lost (for back_in_ms)
  std::string room_;            // the seat to resume: room and token from `joined`
  std::string token_;
  std::string match_key_;       // the match's seed_hash (state): with room_, names the stored match
  bool match_counted_ = false;  // the match's first state has come
  bool over_seen_ = false;      // its match_over has come
  std::int64_t resume_id_ = 0;  // our resume in flight
  std::int64_t join_id_ = 0;    // our last join
  std::string ack_block_;       // --ack-file lines not yet written
  long ack_lines_ = 0;
  bool thinking_ = false;  // --think-ms timer running
  bool thought_ = false;   // acting now, the thinking done
  beast::flat_buffer buffer_;
  std::deque<std::string> outq_;
  bool writing_ = false;
  bool open_ = false;
  bool welcomed_ = false;
  bool left_ = true;      // free to create or join a room
  bool in_room_ = false;
  bool first_match_ = true;
  std::function<void()> on_open_;
  shared& sh_;
  int index_;
  bool creator_;
  bool bot_room_ = false;
  std::weak_ptr<conn> partner_;
  std::string next_room_;
  cod::bot::move_picker picker_;
  cod::bot::move_rng picker_rng_{0x5EED ^ static_cast<std::uint64_t>(index_)};
  bool my_turn_ = false;        // the last view said we may act
  cod::bot::turn_view turn_;    // scan_update_view's, reused (no allocation once warm)
  int seat_ = -1;
  std::int64_t next_id_ = 1;
  std::int64_t pending_id_ = 0;
  long pending_seq_ = 0;
  long last_seq_ = -1;
  cod::bot::move pending_action_;
  bool counting_ = false;
  clock_type::time_point sent_at_;
  std::vector<std::uint32_t> lat_;
};

// ---------------------------------------------------------------------------
// The server process, from /proc.

long rss_kb(int pid) {
  if (pid <= 0) return -1;
  std::string path = "/proc/";
  path += std::to_string(pid);
  path += "/status";
  std::ifstream f(path);
  std::string line;
  while (std::getline(f, line)) {
    if (line.rfind("VmRSS:", 0) == 0) return std::strtol(line.c_str() + 6, nullptr, 10);
  }
  return -1;
}

// utime + stime in seconds (of `pid`, or of this process when 0).
double cpu_seconds(int pid) {
  std::string path = "/proc/";
  path += pid > 0 ? std::to_string(pid) : std::string("self");
  path += "/stat";
  std::ifstream f(path);
  std::string all((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  const auto close = all.rfind(')');
  if (close == std::string::npos) return -1;
  std::istringstream in(all.substr(close + 2));
  std::string field;
  unsigned long long utime = 0, stime = 0;
  for (int i = 3; i <= 15 && in >> field; ++i) {
    if (i == 14) utime = std::strtoull(field.c_str(), nullptr, 10);
    if (i == 15) stime = std::strtoull(field.c_str(), nullptr, 10);
  }
  return static_cast<double>(utime + stime) / static_cast<double>(sysconf(_SC_CLK_TCK));
}

double percentile(const std::vector<std::uint32_t>& sorted, double p) {
  if (sorted.empty()) return 0;
  const auto i = static_cast<std::size_t>(p / 100.0 * static_cast<double>(sorted.size() - 1) + 0.5);
  return sorted[std::min(i, sorted.size() - 1)] / 1000.0;
}

}  // namespace

int main(int argc, char** argv) {
  shared sh;
  options& o = sh.opt;
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    if (a == "--help" || a == "-h") {
      usage(stdout);
      return 0;
    }
    if (a == "--exhaustion") {
      o.constructed_exhaustion = true;
      continue;
    }
    if (a == "--route-by-room") {
      o.route_by_room = true;
      continue;
    }
    if (a == "--legal-actions") {
      o.legal_actions = true;
      continue;
    }
    if (i + 1 >= argc) {
      std::fprintf(stderr, "cod-load: %s needs a value (see --help)\n", argv[i]);
      return 2;
    }
    const char* v = argv[++i];
    long n = 0;
    bool ok = true;
    if (a == "--host") o.host = v;
    else if (a == "--port") ok = cod::bot::parse_long(v, 1, 65535, n) && (o.port = static_cast<std::uint16_t>(n), true);
    else if (a == "--rooms") ok = cod::bot::parse_long(v, 1, 100000, n) && (o.rooms = static_cast<int>(n), true);
    else if (a == "--duration-sec") ok = cod::bot::parse_long(v, 1, 86400, n) && (o.duration_sec = static_cast<double>(n), true);
    else if (a == "--threads") ok = cod::bot::parse_long(v, 1, 64, n) && (o.threads = static_cast<int>(n), true);
    else if (a == "--server-pid") ok = cod::bot::parse_long(v, 1, 1L << 30, n) && (o.server_pid = static_cast<int>(n), true);
    else if (a == "--connect-concurrency") ok = cod::bot::parse_long(v, 1, 10000, n) && (o.connect_concurrency = static_cast<int>(n), true);
    else if (a == "--setup-timeout-sec") ok = cod::bot::parse_long(v, 1, 3600, n) && (o.setup_timeout_sec = static_cast<double>(n), true);
    else if (a == "--seed") ok = cod::bot::parse_long(v, 0, 1L << 62, n) && (o.seed = static_cast<std::uint64_t>(n), true);
    else if (a == "--think-ms") ok = cod::bot::parse_long(v, 0, 600000, n) && (o.think_ms = static_cast<int>(n), true);
    else if (a == "--catalogue") o.catalogue = v;
    else if (a == "--ack-file") o.ack_file = v;
    else if (a == "--reconnect-every") ok = cod::bot::parse_long(v, 1, 86400, n) && (o.reconnect_every_sec = static_cast<double>(n), true);
    else if (a == "--reconnect-fraction") {
      char* e = nullptr;
      o.reconnect_fraction = std::strtod(v, &e);
      ok = e != v && *e == '\0' && o.reconnect_fraction > 0 && o.reconnect_fraction <= 1;
    }
    else if (a == "--bot-rooms") ok = cod::bot::parse_long(v, 0, 100000, n) && (o.bot_rooms = static_cast<int>(n), true);
    else if (a == "--bot-level") ok = cod::bot::parse_long(v, 1, 5, n) && (o.bot_level = static_cast<int>(n), true);
    else if (a == "--per-address") ok = cod::bot::parse_long(v, 1, 100000, n) && (o.per_address = static_cast<int>(n), true);
    else if (a == "--acks" && (std::string_view(v) == "separate" || std::string_view(v) == "in_update"))
      o.acks = std::string_view(v) == "in_update" ? pr::ack_style::in_update : pr::ack_style::separate;
    else {
      std::fprintf(stderr, "cod-load: unknown option %s (see --help)\n", argv[i - 1]);
      return 2;
    }
    if (!ok) {
      std::fprintf(stderr, "cod-load: bad value for %s: %s\n", argv[i - 1], v);
      return 2;
    }
  }
  if (auto e = pr::load_catalogue_file(o.catalogue, sh.cat)) {
    std::fprintf(stderr, "cod-load: catalogue %s: %s\n", o.catalogue.c_str(), e->to_string().c_str());
    return 2;
  }
  boost::system::error_code ec;
  const auto addr = net::ip::make_address(o.host, ec);
  if (ec) {
    std::fprintf(stderr, "cod-load: --host must be an IP address: %s\n", o.host.c_str());
    return 2;
  }
  sh.endpoint = tcp::endpoint(addr, o.port);
  if (o.per_address > 0 && (2 * static_cast<long>(o.rooms) + o.per_address - 1) / o.per_address > 250L * 250) {
    std::fprintf(stderr, "cod-load: --per-address %d needs more than 62,500 source addresses\n", o.per_address);
    return 2;
  }
  if (!o.ack_file.empty()) {
    sh.ack_file = std::fopen(o.ack_file.c_str(), "w");
    if (!sh.ack_file) {
      std::fprintf(stderr, "cod-load: cannot write %s: %s\n", o.ack_file.c_str(), std::strerror(errno));
      return 2;
    }
  }

  net::io_context ioc(o.threads);
  auto work = net::make_work_guard(ioc);
  std::vector<std::thread> threads;
  for (int i = 0; i < o.threads; ++i) threads.emplace_back([&ioc] { ioc.run(); });

  const long rss_idle = rss_kb(o.server_pid);
  const double server_cpu_0 = o.server_pid ? cpu_seconds(o.server_pid) : 0;

  // Connections: 2 per room, opened at most connect_concurrency at a time.
  // and one per bot room.
  const int n_conns = 2 * o.rooms + o.bot_rooms;
  std::vector<std::shared_ptr<conn>> conns;
  conns.reserve(static_cast<std::size_t>(n_conns));
  for (int r = 0; r < o.rooms; ++r) {
    auto a = std::make_shared<conn>(ioc, sh, 2 * r, true);
    auto b = std::make_shared<conn>(ioc, sh, 2 * r + 1, false);
    a->set_partner(b);
    b->set_partner(a);
    conns.push_back(a);
    conns.push_back(b);
  }
  for (int r = 0; r < o.bot_rooms; ++r) conns.push_back(std::make_shared<conn>(ioc, sh, 2 * o.rooms + r, true, true));
  const auto t_setup = clock_type::now();
  std::atomic<int> next_conn{0};
  std::function<void()> launch = [&] {
    const int i = next_conn++;
    if (i < n_conns) conns[static_cast<std::size_t>(i)]->start(launch);
  };
  for (int i = 0; i < std::min(o.connect_concurrency, n_conns); ++i) launch();

  // Setup: until every room has started its first match.
  const auto setup_deadline = t_setup + std::chrono::duration<double>(o.setup_timeout_sec);
  while ((sh.st.rooms_started < o.rooms || sh.st.bot_rooms_started < o.bot_rooms) &&
         clock_type::now() < setup_deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    if (sh.st.connect_failures > 0 && sh.st.connected + sh.st.connect_failures >= n_conns) break;
  }
  const double setup_s = std::chrono::duration<double>(clock_type::now() - t_setup).count();
  std::printf("setup: %ld of %d connections open, %ld of %d rooms playing after %.1f s\n", sh.st.connected.load(),
              n_conns, sh.st.rooms_started.load(), o.rooms, setup_s);
  if (o.bot_rooms > 0)
    std::printf("setup: %ld of %d rooms against a house bot (level %s) playing\n", sh.st.bot_rooms_started.load(),
                o.bot_rooms, o.bot_level > 0 ? std::to_string(o.bot_level).c_str() : "bot_level");
  if (sh.st.connect_failures > 0)
    std::printf("setup: %ld connections failed (first: %s)\n", sh.st.connect_failures.load(),
                sh.st.first_disconnect.c_str());
  std::fflush(stdout);
  if (sh.st.rooms_started == 0) {
    std::fprintf(stderr, "cod-load: no match started; is cod-server running on %s:%u?\n", o.host.c_str(), o.port);
    sh.st.stopping = true;
    for (auto& c : conns) c->close_now();
    work.reset();
    ioc.stop();
    for (auto& t : threads) t.join();
    return 1;
  }

  // The measured window.
  const double server_cpu_1 = o.server_pid ? cpu_seconds(o.server_pid) : 0;
  const double self_cpu_1 = cpu_seconds(0);
  const long accepted_before = sh.st.accepted_total;
  sh.st.measuring = true;
  const auto t0 = clock_type::now();
  long rss_peak = rss_kb(o.server_pid);
  const auto end = t0 + std::chrono::duration<double>(o.duration_sec);
  auto next_storm = t0 + std::chrono::duration<double>(o.reconnect_every_sec);
  cod::bot::move_rng storm_rng(o.seed ^ 0x570a3ULL);
  long storms = 0;
  while (clock_type::now() < end) {
    std::this_thread::sleep_for(std::chrono::milliseconds(250));
    rss_peak = std::max(rss_peak, rss_kb(o.server_pid));
    if (o.reconnect_every_sec > 0 && clock_type::now() >= next_storm) {
      // Each connection drops with probability F (only one seated in a match does).
      next_storm += std::chrono::duration<double>(o.reconnect_every_sec);
      ++storms;
      const auto f = static_cast<std::uint64_t>(o.reconnect_fraction * 1000000.0);
      for (auto& c : conns)
        if (storm_rng.below(1000000) < f) c->drop();
    }
  }
  sh.st.measuring = false;
  const double window_s = std::chrono::duration<double>(clock_type::now() - t0).count();
  const double server_cpu_2 = o.server_pid ? cpu_seconds(o.server_pid) : 0;
  const double self_cpu_2 = cpu_seconds(0);
  const long rss_end = rss_kb(o.server_pid);
  const long accepted_window_total = sh.st.accepted_total - accepted_before;
  (void)accepted_window_total;

  sh.st.stopping = true;
  // Let in-flight replies land (their latencies are not counted), then stop.
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  std::vector<std::uint32_t> lat;
  {
    // Each connection's samples, read on its own strand.
    std::mutex m;
    std::atomic<int> left{n_conns};
    for (auto& c : conns) {
      net::post(ioc, [&, c] {
        auto v = c->take_latencies();
        {
          std::lock_guard lock(m);
          lat.insert(lat.end(), v.begin(), v.end());
        }
        left--;
      });
    }
    while (left > 0) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  for (auto& c : conns) c->close_now();
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  if (sh.ack_file) {
    // Closed: no acknowledgement comes after this.
    std::atomic<int> left{n_conns};
    for (auto& c : conns) c->flush_acks_at_end(left);
    while (left > 0) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  work.reset();
  ioc.stop();
  for (auto& t : threads) t.join();

  std::sort(lat.begin(), lat.end());
  const long accepted = sh.st.accepted;
  std::printf("rooms: %d (%d WebSocket connections), load driver threads: %d\n", o.rooms, n_conns, o.threads);
  std::printf("duration: %.1f s measured (after %.1f s of setup)\n", window_s, setup_s);
  std::printf("accepted actions: %ld = %.0f/s (each committed to the store before its update is sent)\n", accepted,
              static_cast<double>(accepted) / window_s);
  std::printf("updates received: %ld, %.0f bytes each on average%s\n", sh.st.update_frames.load(),
              sh.st.update_frames ? static_cast<double>(sh.st.update_bytes) / static_cast<double>(sh.st.update_frames) : 0.0,
              o.legal_actions ? " (with legal_actions)" : "");
  std::printf("acts sent: %ld; matches finished: %ld (%.1f/s)\n", sh.st.acts_sent.load(), sh.st.matches_finished.load(),
              static_cast<double>(sh.st.matches_finished) / window_s);
  std::printf("latency act -> own update (ms, %zu samples): p50 %.3f  p90 %.3f  p99 %.3f  max %.3f\n", lat.size(),
              percentile(lat, 50), percentile(lat, 90), percentile(lat, 99), lat.empty() ? 0.0 : lat.back() / 1000.0);
  if (o.bot_rooms > 0)
    std::printf("bot rooms: %d (not in the figures above): %ld updates to their players (%.0f/s), %ld acts of "
                "their players, %ld matches finished\n",
                o.bot_rooms, sh.st.bot_room_updates.load(), static_cast<double>(sh.st.bot_room_updates) / window_s,
                sh.st.bot_room_acts.load(), sh.st.bot_matches_finished.load());
  {
    std::lock_guard lock(sh.st.mutex);
    if (sh.st.errors.empty()) {
      std::printf("errors by code: none\n");
    } else {
      std::printf("errors by code:");
      for (const auto& [code, n] : sh.st.errors) std::printf(" %s=%ld", code.c_str(), n);
      std::printf("\n");
    }
  }
  // Should stay 0 against this server: a refused update costs a DOM again.
  if (sh.st.scan_fallbacks > 0)
    std::printf("own-turn updates parsed as JSON (the scanner refused them): %ld\n", sh.st.scan_fallbacks.load());
  std::printf("disconnects: %ld%s%s\n", sh.st.disconnects.load(), sh.st.first_disconnect.empty() ? "" : " (first: ",
              sh.st.first_disconnect.empty() ? "" : (sh.st.first_disconnect + ")").c_str());
  if (sh.st.drops > 0 || sh.st.reconnects > 0 || sh.st.resumes > 0 || sh.st.resumes_refused > 0)
    std::printf("reconnects: %ld storms dropped %ld connections; %ld reconnected (%ld failed attempts); %ld seats "
                "resumed, %ld resumes refused (room gone: a new room)\n",
                storms, sh.st.drops.load(), sh.st.reconnects.load(), sh.st.reconnect_failures.load(),
                sh.st.resumes.load(), sh.st.resumes_refused.load());
  {
    std::vector<std::int64_t> back;
    {
      std::lock_guard lock(sh.st.mutex);
      back = sh.st.back_in_ms;
    }
    if (!back.empty()) {
      std::sort(back.begin(), back.end());
      const auto at = [&back](double p) {
        return back[std::min(back.size() - 1, static_cast<std::size_t>(p / 100.0 * static_cast<double>(back.size() - 1) + 0.5))];
      };
      std::printf("back in play after a lost connection (ms, %zu seats): p50 %lld  p90 %lld  p99 %lld  max %lld\n",
                  back.size(), static_cast<long long>(at(50)), static_cast<long long>(at(90)),
                  static_cast<long long>(at(99)), static_cast<long long>(back.back()));
    }
  }
  if (sh.ack_file) {
    const bool ok = std::fclose(sh.ack_file) == 0;
    std::printf("acknowledged actions written to %s: %ld (all accepted: %ld)%s\n", o.ack_file.c_str(),
                sh.st.acks_written.load(), sh.st.accepted_total.load(), ok ? "" : " WRITE FAILED");
    if (!ok) return 1;
  }
  if (o.server_pid) {
    std::printf("server RSS: idle %.1f MB, end %.1f MB, peak %.1f MB; per room: %.1f KB (peak / rooms), %.1f KB "
                "((peak - idle) / rooms)\n",
                rss_idle / 1024.0, rss_end / 1024.0, rss_peak / 1024.0, static_cast<double>(rss_peak) / o.rooms,
                static_cast<double>(rss_peak - rss_idle) / o.rooms);
    std::printf("cpu during the window: server %.2f s (%.0f%% of one core), load driver %.2f s (%.0f%%); setup: server "
                "%.2f s\n",
                server_cpu_2 - server_cpu_1, 100.0 * (server_cpu_2 - server_cpu_1) / window_s, self_cpu_2 - self_cpu_1,
                100.0 * (self_cpu_2 - self_cpu_1) / window_s, server_cpu_1 - server_cpu_0);
    if (accepted > 0)
      std::printf("server cpu per accepted action: %.1f us\n", 1e6 * (server_cpu_2 - server_cpu_1) / static_cast<double>(accepted));
  }
  std::fflush(stdout);
  return 0;
}
