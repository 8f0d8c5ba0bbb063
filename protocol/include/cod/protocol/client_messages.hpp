// What clients send (docs/protocol.md, "Client messages"): every client
// message as a plain struct, a strict parser for them, and their wire form
// (for clients and bots). The room settings inside (options, deck) are
// room_config.hpp's; the action inside `act` is json_codec.hpp's.
//
// Every message carries the request's `id`: null (absent), an integer or a
// string, echoed in the reply.
//
// Thread-safety: every function here is pure; call them from any thread.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>
#include <vector>

// The full header: the message structs hold JSON ids.
#include <nlohmann/json.hpp>

#include "cod/engine/action.hpp"
#include "cod/engine/draft.hpp"
#include "cod/engine/types.hpp"
#include "cod/protocol/json_codec.hpp"
#include "cod/protocol/protocol_error.hpp"
#include "cod/protocol/room_config.hpp"

namespace cod::protocol {

// ---------------------------------------------------------------------------
// Limits (docs/protocol.md, "Limits"); the room options' and the deck's are
// in room_config.hpp. Violations are bad_field_value unless noted.

inline constexpr std::size_t default_max_message_bytes = 65536;  // config max_frame_bytes
inline constexpr int max_message_depth = 6;        // nested objects/arrays; deeper: bad_json
inline constexpr std::size_t max_id_chars = 64;    // a string request id
inline constexpr std::size_t max_client_chars = 64;   // hello.client
inline constexpr std::size_t max_room_chars = 32;     // room ids: [A-Za-z0-9_-]{1,32}
inline constexpr std::size_t max_name_chars = 32;     // join.name, in characters (code points)
inline constexpr std::size_t token_chars = 32;        // tokens: 32 lowercase hex digits
// A tournament's or league's join token names its event: "ID.HEX", ID the
// event's id (a room id), HEX 32 lowercase hex digits; a token without "ID."
// (a tournament created before tokens named it) names none. Accepted by
// tournament_join, league_join and resume.
inline constexpr std::size_t max_event_token_chars = max_room_chars + 1 + token_chars;
// The event an event token names: its ID, or "" for a plain token.
std::string_view event_of_token(std::string_view token);
inline constexpr std::int64_t max_seq = (std::int64_t{1} << 53) - 1;  // act.seq, draft_pick.seq: exact in JavaScript

// ---------------------------------------------------------------------------
// The messages.

// How an accepted `act` is acknowledged (hello.acks, docs/protocol.md "hello"):
// `separate`, the default: an `accepted` reply, then the actor's `update`;
// `in_update`: no `accepted`; the actor's `update` carries the act's `id`
// (one frame fewer per action).
enum class ack_style { separate, in_update };
std::string_view ack_style_name(ack_style a);

struct hello_msg {
  static constexpr std::string_view type = "hello";
  nlohmann::json id;
  int version = protocol_version;     // >= 1; the server answers unsupported_version unless 1
  std::optional<std::string> client;  // e.g. "cod-bot/0.1": <= 64 bytes, no control characters
  ack_style acks = ack_style::separate;
  // hello.legal_actions: each `state` and `update` to this connection's seat
  // carries the seat's legal actions (docs/protocol.md, "Legal actions"), and
  // each `draft` push its legal picks.
  bool legal_actions = false;
  // hello.account_token: a session token from /api/login, /api/register or
  // /api/guest (docs/accounts.md): the connection is then that account, its
  // joins take the account's name and bind the seat to it, and a resume
  // without a seat token finds the account's seat.
  std::optional<std::string> account_token{};
  bool operator==(const hello_msg&) const = default;
};

// The lobby, one page at a time: a server with many rooms never answers with
// all of them (docs/protocol.md#list_rooms). Every filter is optional.
// history: at most this many entries a reply (the newest), about 100 turns.
inline constexpr int max_history_entries = 200;
inline constexpr int default_room_page = 50;
inline constexpr int max_room_page = 100;
struct list_rooms_msg {
  static constexpr std::string_view type = "list_rooms";
  nlohmann::json id;
  std::optional<std::string> room{};       // just that room (or none)
  std::optional<room_status> status{};     // rooms in that status
  std::optional<game_mode> mode{};
  std::optional<deck_format> format{};
  int limit = default_room_page;           // 1..max_room_page rooms per reply
  std::optional<std::string> after{};      // the previous reply's "next": rooms after that id
  bool operator==(const list_rooms_msg&) const = default;
};

struct create_room_msg {
  static constexpr std::string_view type = "create_room";
  nlohmann::json id;
  game_mode mode = game_mode::duel;
  deck_format format = deck_format::preconstructed;
  room_options options;
  bool operator==(const create_room_msg&) const = default;
};

struct join_msg {
  static constexpr std::string_view type = "join";
  nlohmann::json id;
  std::string room;
  std::string name;         // 1..32 characters, no control characters; "" when absent (a signed-in connection: the account's)
  std::optional<int> seat;  // 0..3; none: the lowest free seat
  deck_choice deck;
  // R13.1: the seat's Champion, a catalogue id (1..64 characters); required
  // in a room with champions, refused in one without (resolve_champion).
  std::optional<std::string> champion{};
  // The join came without "deck": required in a drafted room (the deck is
  // built there), refused elsewhere (the room answers missing_field).
  bool no_deck{false};
  bool operator==(const join_msg&) const = default;
};

struct resume_msg {
  static constexpr std::string_view type = "resume";
  nlohmann::json id;
  std::string room;
  std::string token;  // as `joined` gave it: 32 lowercase hex digits ([ID.] before them for a tournament seat); "" when absent (a signed-in connection: its account's seat)
  bool operator==(const resume_msg&) const = default;
};

// A tournament player asks for their seat (docs/tournaments.md, "The
// player's side"): the server finds the room of their current game and seats
// them there under their tournament name. The reply is `joined` (its token
// is the tournament token, good for resume), or an error: bad_token,
// tournament_waiting (no game for them yet: ask again later), tournament_over.
struct tournament_join_msg {
  static constexpr std::string_view type = "tournament_join";
  nlohmann::json id;
  std::string token;  // the tournament (or league) join token: [ID.]32 lowercase hex digits
  deck_choice deck;
  std::optional<std::string> champion{};  // as join's (tournament rooms have no Champions: refused)
  bool operator==(const tournament_join_msg&) const = default;
};

struct spectate_msg {
  static constexpr std::string_view type = "spectate";
  nlohmann::json id;
  std::string room;
  bool operator==(const spectate_msg&) const = default;
};

struct act_msg {
  static constexpr std::string_view type = "act";
  nlohmann::json id;
  // The action as parse_action read it, with seat == no_seat: the wire never
  // names the seat; the server knows it from the connection. Use for_seat().
  cod::action action;
  // The `seq` of the state or update the client chose the action in
  // (optional): the server refuses it with stale_action unless it is the
  // room's current seq (another action came first), and changes nothing.
  std::optional<std::int64_t> seq{};
  cod::action for_seat(seat_t s) const {
    cod::action a = action;
    a.seat = s;
    return a;
  }
  bool operator==(const act_msg&) const = default;
};

struct leave_msg {
  static constexpr std::string_view type = "leave";
  nlohmann::json id;
  bool operator==(const leave_msg&) const = default;
};

struct ping_msg {
  static constexpr std::string_view type = "ping";
  nlohmann::json id;
  bool operator==(const ping_msg&) const = default;
};

// The room's match so far as this connection may see it (a page reloaded
// or reconnected rebuilds its log): {"type": "history", "from_seq": N}.
// from_seq: the first seq wanted (0: from the match's setup; the default);
// only the newest max_history_entries come back.
struct history_msg {
  static constexpr std::string_view type = "history";
  nlohmann::json id;
  std::int64_t from_seq = 0;
  bool operator==(const history_msg&) const = default;
};

// A seat's pick in the room's drafting phase (R14): {"type": "draft_pick",
// "pick": "take" | "ban" | "submit" | "choose_deck", "cards": [ids], "deck":
// 1..4}. The seat comes from the connection, never the wire; the cards are
// catalogue ids, resolved by the room (unknown ones: unknown_card).
struct draft_pick_msg {
  static constexpr std::string_view type = "draft_pick";
  nlohmann::json id;
  draft_pick_type pick = draft_pick_type::take;
  std::vector<std::string> cards{};  // take, ban, submit
  int deck = 0;                      // choose_deck: 1..4
  std::optional<std::int64_t> seq{};  // the `draft` push's seq it was chosen in: stale_action otherwise
  bool operator==(const draft_pick_msg&) const = default;
};

// A mutation league player follows their league (R15; docs/league.md): the
// reply is `league` (their view), pushed again on every change until the
// connection closes or follows another league. Errors: bad_token.
struct league_join_msg {
  static constexpr std::string_view type = "league_join";
  nlohmann::json id;
  std::string token;  // the league join token: [ID.]32 lowercase hex digits
  bool operator==(const league_join_msg&) const = default;
};

// A followed league's player acts: {"type": "league_act", "op": {"type":
// "pick" | "choose_deck" | "mutate" | "pass", ...}} as in league_json.hpp,
// without "seat" (the connection's league_join says whose). The op stays
// JSON here: it names cards of the league's catalogue, read by the server.
struct league_act_msg {
  static constexpr std::string_view type = "league_act";
  nlohmann::json id;
  nlohmann::json op;  // an object with a string "type"
  bool operator==(const league_act_msg&) const = default;
};

// A followed league's player asks what it may add to its mutation phase's
// list (R15.4): {"type": "league_mutations", "mutations": [the mutations it
// has chosen, not yet sent, in order]}. The reply (league_mutations) lists
// the engine's legal mutations of its deck as those leave it, within the
// points they leave; nothing changes. The mutations stay JSON here, as
// league_act's op: they name cards of the league's catalogue.
struct league_mutations_msg {
  static constexpr std::string_view type = "league_mutations";
  nlohmann::json id;
  nlohmann::json mutations = nlohmann::json::array();  // an array (maybe empty)
  bool operator==(const league_mutations_msg&) const = default;
};

// A seated player of a waiting room fills a free seat with the server's own
// player (a house bot; docs/protocol.md, "add_bot"):
// {"type": "add_bot", "seat": n, "level": l} (both optional: the lowest free
// seat; the server's configured level, bot_level).
// The levels a house bot plays at: cod::search's min_level..max_level (the
// server checks they agree; the protocol does not link the search).
inline constexpr int min_bot_level = 1;
inline constexpr int max_bot_level = 5;
struct add_bot_msg {
  static constexpr std::string_view type = "add_bot";
  nlohmann::json id;
  std::optional<int> seat{};
  std::optional<int> level{};  // min_bot_level..max_bot_level
  bool operator==(const add_bot_msg&) const = default;
};

// The matchmaking queue (docs/protocol.md, "The queue"; docs/queue.md): a
// signed-in player searches for a game of `mode` (duel, ffa, 2v2) and
// `format` (preconstructed, constructed), rated or casual, with `deck`; the
// reply is `queued` with the ticket, and `matched` is pushed when a table is
// found. A player may hold tickets in several pools at once.
struct queue_msg {
  static constexpr std::string_view type = "queue";
  nlohmann::json id;
  game_mode mode = game_mode::duel;
  deck_format format = deck_format::preconstructed;
  bool rated = true;
  deck_choice deck;
  // 2v2 only: the account name of a friend to play with, as teammates. The
  // two are matched together once each has queued naming the other
  // (docs/queue.md, "Parties"). "": alone.
  std::string partner{};
  bool operator==(const queue_msg&) const = default;
};

// Leaves the queue: one ticket, or (without "ticket") every ticket of the connection.
struct unqueue_msg {
  static constexpr std::string_view type = "unqueue";
  nlohmann::json id;
  std::optional<std::int64_t> ticket{};
  bool operator==(const unqueue_msg&) const = default;
};

// A seated player's emote, pushed to the room's seats and spectators
// (docs/protocol.md, "emote"): {"type": "emote", "emote": one of
// emote_names}. A closed set instead of free chat: nothing to moderate, and
// every client can show it in its own words. Rate-limited per connection.
inline constexpr std::array<std::string_view, 4> emote_names = {"well_played", "good_game", "thinking", "oops"};
// Each connection's emote budget (a token bucket): emote_burst at once, then
// emotes_per_sec. Over it: rate_limited, nothing sent.
inline constexpr int emotes_per_sec = 1;
inline constexpr int emote_burst = 3;
struct emote_msg {
  static constexpr std::string_view type = "emote";
  nlohmann::json id;
  std::string emote;  // one of emote_names
  bool operator==(const emote_msg&) const = default;
};

// The list of client messages. Each alternative carries its "type" (which is
// also its schema's name, protocol/schema/v1/client/<type>.json), and the
// compiler holds everything else to this list, so that adding a message is
// one line here and the errors show what is missing:
//   - its parser and wire form: client_messages.cpp has one parse_fields and
//     one write_fields overload per message, dispatched over this list;
//   - its handler: visit_client_message (below) takes one handler per message;
//   - its schema and its line in docs/protocol.md's index:
//     tests/protocol/test_message_index.cpp.
// The order is the wire's "known types" order in an unknown_type error.
using client_message = std::variant<hello_msg, list_rooms_msg, create_room_msg, join_msg,
                                    resume_msg, spectate_msg, act_msg, leave_msg, ping_msg,
                                    tournament_join_msg, draft_pick_msg, history_msg,
                                    league_join_msg, league_act_msg, add_bot_msg, league_mutations_msg,
                                    queue_msg, unqueue_msg, emote_msg>;

namespace detail {
template <class... Ms>
constexpr std::array<std::string_view, sizeof...(Ms)> message_types_of(const std::variant<Ms...>*) {
  return {Ms::type...};
}
constexpr bool all_different(std::span<const std::string_view> names) {
  for (std::size_t i = 0; i < names.size(); ++i)
    for (std::size_t j = i + 1; j < names.size(); ++j)
      if (names[i] == names[j]) return false;
  return true;
}
}  // namespace detail

// Every client message's "type", in the variant's order: read from the
// alternatives themselves, so the two cannot drift apart.
inline constexpr auto client_message_types = detail::message_types_of(static_cast<const client_message*>(nullptr));
static_assert(client_message_types.size() == std::variant_size_v<client_message>);
static_assert(detail::all_different(client_message_types), "two client messages share a \"type\"");

// "hello", "join", ...: the message's "type".
std::string_view message_type(const client_message& m);
const nlohmann::json& message_id(const client_message& m);

// ---------------------------------------------------------------------------
// Handling: one handler per message, checked at compile time.

// std::visit(overloaded{[](const hello_msg&) {...}, ...}, m): lambdas as one
// overload set.
template <class... Fs>
struct overloaded : Fs... {
  using Fs::operator()...;
};

namespace detail {
template <class Handlers, class... Ms>
constexpr bool handles_each(const std::variant<Ms...>*) {
  return (std::is_invocable_v<const Handlers&, const Ms&> && ...);
}
struct not_a_message {};
}  // namespace detail

// Calls the handler of m's alternative. `handlers` must take each message of
// the list by its own type and nothing else: a catch-all (`const auto&`)
// would let a new message compile and be silently ignored, so it is refused
// here (it either accepts not_a_message or fails to compile on it).
template <class Handlers>
decltype(auto) visit_client_message(const client_message& m, const Handlers& handlers) {
  static_assert(detail::handles_each<Handlers>(static_cast<const client_message*>(nullptr)),
                "a client message has no handler: give it one (a lambda taking it by its own type)");
  static_assert(!std::is_invocable_v<const Handlers&, const detail::not_a_message&>,
                "no catch-all handler: each client message needs a handler of its own");
  return std::visit(handlers, m);
}

// ---------------------------------------------------------------------------
// Parsing and the wire form.

struct client_parse_result {
  std::optional<client_message> message;  // set when ok()
  std::optional<protocol_error> error;
  // The request's id: echo it in the error. Null when absent or unreadable
  // (not JSON, not an object, or "id" itself is the error).
  nlohmann::json id;
  // The text was longer than max_bytes (error is bad_json): the server replies
  // frame_too_large instead, if its WebSocket layer has not already refused
  // the frame, and closes with close_code::message_too_big.
  bool oversized = false;
  bool ok() const { return message.has_value(); }
};

// Parses one frame. Strict: unknown_type, unknown_field, missing_field,
// bad_field_type, bad_field_value (protocol_error.hpp), with `field` naming
// the offending field as a path ("deck.cards", "action.line",
// "options.turn_clock.bank_ms"); bad_json when the text is not a JSON object,
// is longer than max_bytes, or nests deeper than max_message_depth.
// Never throws.
client_parse_result parse_client_message(std::string_view text,
                                         std::size_t max_bytes = default_max_message_bytes);
// The same checks on an already-parsed value (no size or depth limit).
client_parse_result parse_client_json(const nlohmann::json& j);

// The wire form: parse_client_json(client_message_to_json(m)) gives back m.
// (For clients and bots; the server only parses these.)
nlohmann::json client_message_to_json(const client_message& m);

}  // namespace cod::protocol
