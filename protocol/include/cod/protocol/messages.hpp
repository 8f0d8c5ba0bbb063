// The WebSocket protocol's messages (docs/protocol.md is the client's
// reference; docs/protocol-design.md the design notes): every client message
// as a plain struct, a strict parser for them, and builders for every server
// message. The payloads inside (actions, events, views) are json_codec.hpp's.
//
//   auto r = protocol::parse_client_message(frame_text, cfg.max_frame_bytes);
//   if (!r.ok()) {
//     send(protocol::make_error(r.id, *r.error));       // echoes the id when readable
//     if (r.oversized) close(protocol::close_code::message_too_big);
//     return;
//   }
//   std::visit(overloaded{
//       [&](const protocol::join_msg& m) { ... send(protocol::make_joined(m.id, room, seat, token)); },
//       [&](const protocol::act_msg& m) { cod::action a = m.for_seat(my_seat); ... },
//       ...}, *r.message);
//
// Every builder returns the message as a JSON object; send j.dump(). A reply
// echoes the request's id (pass the message's `id`; a null id adds no "id"
// field); server-initiated messages (state, update, seat_status, match_over,
// clock) take no id.
//
// Thread-safety: every function here is pure; call them from any thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

// The full header: message structs hold JSON ids, and the server serialises
// what the builders return.
#include <nlohmann/json.hpp>

#include "cod/engine/action.hpp"
#include "cod/engine/catalogue.hpp"
#include "cod/engine/draft.hpp"
#include "cod/engine/error.hpp"
#include "cod/engine/event.hpp"
#include "cod/engine/setup.hpp"
#include "cod/engine/state.hpp"
#include "cod/engine/types.hpp"
#include "cod/protocol/json_codec.hpp"
#include "cod/protocol/protocol_error.hpp"
#include "cod/protocol/session_error.hpp"

namespace cod::protocol {

// ---------------------------------------------------------------------------
// Limits (docs/protocol.md, "Limits"). Violations are bad_field_value unless
// noted.

inline constexpr std::size_t default_max_message_bytes = 65536;  // config max_frame_bytes
inline constexpr int max_message_depth = 6;        // nested objects/arrays; deeper: bad_json
inline constexpr std::size_t max_id_chars = 64;    // a string request id
inline constexpr std::size_t max_client_chars = 64;   // hello.client
inline constexpr std::size_t max_room_chars = 32;     // room ids: [A-Za-z0-9_-]{1,32}
inline constexpr std::size_t max_name_chars = 32;     // join.name, in characters (code points)
inline constexpr std::size_t token_chars = 32;        // tokens: 32 lowercase hex digits
inline constexpr std::size_t max_card_id_chars = 64;  // one entry of deck.cards
inline constexpr std::size_t max_deck_entries = 64;   // deck.cards (8 is the only legal size: bad_deck)
inline constexpr std::int64_t min_bank_ms = 1000;         // options.turn_clock.bank_ms
inline constexpr std::int64_t max_bank_ms = 86'400'000;   // one day
inline constexpr std::int64_t max_increment_ms = 3'600'000;
inline constexpr int preconstructed_deck_count = 4;   // {"preconstructed": 1..4}
inline constexpr std::size_t max_packs = 32;          // options.packs
inline constexpr std::size_t max_pack_chars = 64;     // one entry of options.packs

inline constexpr std::string_view server_software = "cod-server/0.1";

// WebSocket close codes the server uses (docs/protocol.md, "Transport").
namespace close_code {
inline constexpr std::uint16_t normal = 1000;            // the client left / asked to
inline constexpr std::uint16_t going_away = 1001;        // server shutting down
inline constexpr std::uint16_t protocol_error = 1002;    // after unsupported_version
inline constexpr std::uint16_t policy_violation = 1008;  // flooding, slow consumer
inline constexpr std::uint16_t message_too_big = 1009;   // after frame_too_large
inline constexpr std::uint16_t internal_error = 1011;
}  // namespace close_code

// ---------------------------------------------------------------------------
// Shared values.

// How the seats get their decks (R14). preconstructed and constructed come
// with join; instant_constructed and draft are played through the server
// once every seat is taken (the room's drafting phase, draft_codec.hpp).
enum class deck_format : std::uint8_t { preconstructed, constructed, instant_constructed, draft };
// "preconstructed" | "constructed" | "instant_constructed" | "draft"
std::string_view deck_format_name(deck_format f);
std::optional<deck_format> deck_format_from_name(std::string_view name);
// The formats whose decks are built in the room, before the match (R14.2-R14.7).
constexpr bool is_drafted(deck_format f) {
  return f == deck_format::instant_constructed || f == deck_format::draft;
}
// The engine's table for a mode: duel, four players (ffa, 2v2), solo, co-op.
draft_table draft_table_of(game_mode m);

struct turn_clock {
  std::int64_t bank_ms = 0;       // each seat's time bank
  std::int64_t increment_ms = 0;  // added to a seat's bank at the start of each of its turns
  bool operator==(const turn_clock&) const = default;
};

// create_room's "options". On the wire: {"exhaustion": bool, "turn_clock":
// {bank_ms, increment_ms} | null, "seats": 2 | 4, "champions": bool,
// "share_team_hands": bool, "difficulty": 0..10, "ai": {"fixed_mana": 6..10,
// "double_variable": bool, "ai_first": bool, "resistance": bool,
// "abilities": [ability names]}}; every key optional in create_room.
// difficulty and ai are for solo and coop rooms (R12.8).
struct room_options {
  bool exhaustion = false;                // R9, the exhaustion rule
  std::optional<turn_clock> clock;        // "turn_clock"; none: untimed
  int seats = 2;                          // implied by the mode (seats_of); a duel has 2
  bool champions = false;                 // R13 Champion module: each seat picks one at join
  bool share_team_hands = false;          // R11.6, 2v2 only: teammates see each other's hand
  int difficulty = 0;                     // R12.8: 0 quick play, 1..10 custom play (solo, coop)
  ai_settings ai{};                       // R12.8: the custom settings ("ai"); defaults: quick play
  // R14.8, drafted formats only: the packs the pool is made of (every
  // catalogue card of them, once); empty: every card. "packs" on the wire,
  // written only when not empty.
  std::vector<std::string> packs{};
  bool operator==(const room_options&) const = default;
};

// The JSON above, every key of the mode written: "difficulty" and "ai" only
// for a mode with AI seats (solo, coop). (Persistence stores this.)
nlohmann::json room_options_to_json(const room_options& o, game_mode mode);
// Strict; errors name fields as "options.turn_clock.bank_ms". Never throws.
// Checks each option alone (seats 2..4); check_room_config checks them
// against the mode and format.
std::optional<protocol_error> room_options_from_json(const nlohmann::json& j, room_options& out);

// join's "deck": {"preconstructed": 1..4} or {"cards": ["id", ...]}.
struct deck_choice {
  int preconstructed = 0;           // 1..4; 0 when `cards` is given
  std::vector<std::string> cards;   // catalogue ids (8 for a legal deck)
  bool is_preconstructed() const { return preconstructed != 0; }
  bool operator==(const deck_choice&) const = default;
};

// {"preconstructed": n} or {"cards": [...]}. (Persistence stores this.)
nlohmann::json deck_to_json(const deck_choice& d);
// Strict; errors name fields as "deck.cards". Never throws.
std::optional<protocol_error> deck_from_json(const nlohmann::json& j, deck_choice& out);

// A join's deck resolved against the catalogue, the room's format and the
// engine's deck rules (match::check_deck).
struct deck_result {
  std::vector<card_id> cards;  // the deck, when ok()
  // "" when ok; else an engine rule_error name (bad_deck_size, duplicate_card,
  // unknown_card, not_a_deck_card, unsupported_card) or "wrong_format" (a
  // "cards" deck in a preconstructed room).
  std::string reason;
  std::string message;
  bool ok() const { return reason.empty(); }
};
deck_result resolve_deck(const deck_choice& d, deck_format format, const catalogue& cat);

// ---------------------------------------------------------------------------
// Room configurations the server offers (room_config.cpp). create_room
// accepts exactly these modes; recovery reads stored records with the same
// checks. To offer a new mode (solo, co-op), add its row to the table there.

struct room_mode_info {
  game_mode mode = game_mode::duel;
  int seats = 2;                     // seats_of(mode): players who join, and AI seats
  bool teams = false;                // 2v2: teams A+C and B+D (share_team_hands allowed)
  bool ai = false;                   // solo, coop: seats 1 (and 3) are the AI's (is_ai_seat)
};
// The offered modes, in the order docs/protocol.md lists them.
std::span<const room_mode_info> offered_modes();
const room_mode_info* find_offered_mode(game_mode m);
const room_mode_info* find_offered_mode(std::string_view name);
// `"duel", "ffa" or "2v2"`: for error messages.
std::string offered_mode_names();

// The options checked against the mode and format: options.seats is the
// mode's seat count; share_team_hands only in a team mode; champions in every
// offered mode and format (R13.1; with preconstructed decks as custom play),
// except solo and coop quick play. Solo and coop (R2.1, R12.8): preconstructed
// only; difficulty 0 with the default ai, or 1..10 with ai spending exactly
// that many points (match::check_ai_options's verdict; each human Champion
// gives 2). Other modes: no difficulty or ai.
// bad_field_value naming the option; nullopt when the room can be created.
std::optional<protocol_error> check_room_config(game_mode mode, deck_format format, const room_options& o);

// R11.6: a seat's team in a team mode (0: A+C = seats 0 and 2, 1: B+D = seats
// 1 and 3); R11.7 co-op: 0 the humans A+C, 1 the AIs B+D; none otherwise.
// (Persistence stores it.)
std::optional<int> seat_team(game_mode mode, int seat);

// RULING E41: an AI seat's deck in a preconstructed solo or coop room, from
// the deck number its human picked: solo, the AI (seat 1) gets the three
// decks seat 0 did not pick; coop, AI B (1) those of A's (seat 0) pack and AI
// D (3) those of C's (seat 2). The human seat whose pick decides `ai_seat`.
int ai_deck_owner(game_mode mode, int ai_seat);

// The name AI seats have in summaries and the match history.
inline constexpr std::string_view ai_seat_name = "AI";

// A join's Champion (R13.1) checked for the room: required when the room has
// champions, refused when it has none; a catalogue creature that is not in
// the seat's deck.
struct champion_result {
  card_id card = no_card;  // no_card: the seat plays without one (room without champions)
  // "" when ok; else champion_required, champions_off, unknown_card,
  // not_a_creature or in_deck.
  std::string reason;
  std::string message;
  bool ok() const { return reason.empty(); }
};
champion_result resolve_champion(const std::optional<std::string>& champion, const room_options& o,
                                 const std::vector<card_id>& deck, const catalogue& cat);

// ---------------------------------------------------------------------------
// Client -> server. Every message carries the request's `id`: null (absent),
// an integer or a string, echoed in the reply.

// How an accepted `act` is acknowledged (hello.acks, docs/protocol.md "hello"):
// `separate`, the default: an `accepted` reply, then the actor's `update`;
// `in_update`: no `accepted`; the actor's `update` carries the act's `id`
// (one frame fewer per action).
enum class ack_style { separate, in_update };
std::string_view ack_style_name(ack_style a);

struct hello_msg {
  nlohmann::json id;
  int version = protocol_version;     // >= 1; the server answers unsupported_version unless 1
  std::optional<std::string> client;  // e.g. "cod-bot/0.1": <= 64 bytes, no control characters
  ack_style acks = ack_style::separate;
  bool operator==(const hello_msg&) const = default;
};

// drafting: every seat is taken and the decks are being drafted (R14).
enum class room_status : std::uint8_t { waiting, playing, finished, drafting };
// "waiting" | "playing" | "finished" | "drafting"
std::string_view room_status_name(room_status s);
std::optional<room_status> room_status_from_name(std::string_view name);

// The lobby, one page at a time: a server with many rooms never answers with
// all of them (docs/protocol.md#list_rooms). Every filter is optional.
inline constexpr int default_room_page = 50;
inline constexpr int max_room_page = 100;
struct list_rooms_msg {
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
  nlohmann::json id;
  game_mode mode = game_mode::duel;
  deck_format format = deck_format::preconstructed;
  room_options options;
  bool operator==(const create_room_msg&) const = default;
};

struct join_msg {
  nlohmann::json id;
  std::string room;
  std::string name;         // 1..32 characters, no control characters
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
  nlohmann::json id;
  std::string room;
  std::string token;  // 32 lowercase hex digits, as `joined` gave it
  bool operator==(const resume_msg&) const = default;
};

// A tournament player asks for their seat (docs/tournaments.md, "The
// player's side"): the server finds the room of their current game and seats
// them there under their tournament name. The reply is `joined` (its token
// is the tournament token, good for resume), or an error: bad_token,
// tournament_waiting (no game for them yet: ask again later), tournament_over.
struct tournament_join_msg {
  nlohmann::json id;
  std::string token;  // the tournament join token: 32 lowercase hex digits
  deck_choice deck;
  std::optional<std::string> champion{};  // as join's (tournament rooms have no Champions: refused)
  bool operator==(const tournament_join_msg&) const = default;
};

struct spectate_msg {
  nlohmann::json id;
  std::string room;
  bool operator==(const spectate_msg&) const = default;
};

struct act_msg {
  nlohmann::json id;
  // The action as parse_action read it, with seat == no_seat: the wire never
  // names the seat; the server knows it from the connection. Use for_seat().
  cod::action action;
  cod::action for_seat(seat_t s) const {
    cod::action a = action;
    a.seat = s;
    return a;
  }
  bool operator==(const act_msg&) const = default;
};

struct leave_msg {
  nlohmann::json id;
  bool operator==(const leave_msg&) const = default;
};

struct ping_msg {
  nlohmann::json id;
  bool operator==(const ping_msg&) const = default;
};

// A seat's pick in the room's drafting phase (R14): {"type": "draft_pick",
// "pick": "take" | "ban" | "submit" | "choose_deck", "cards": [ids], "deck":
// 1..4}. The seat comes from the connection, never the wire; the cards are
// catalogue ids, resolved by the room (unknown ones: unknown_card).
struct draft_pick_msg {
  nlohmann::json id;
  draft_pick_type pick = draft_pick_type::take;
  std::vector<std::string> cards{};  // take, ban, submit
  int deck = 0;                      // choose_deck: 1..4
  bool operator==(const draft_pick_msg&) const = default;
};

using client_message = std::variant<hello_msg, list_rooms_msg, create_room_msg, join_msg,
                                    resume_msg, spectate_msg, act_msg, leave_msg, ping_msg,
                                    tournament_join_msg, draft_pick_msg>;

// "hello", "join", ...: the message's "type".
std::string_view message_type(const client_message& m);
const nlohmann::json& message_id(const client_message& m);

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

// ---------------------------------------------------------------------------
// Server -> client.

// {"type": "welcome", "version": 1, "server", "session", "max_frame_bytes", "rate_limit_per_sec"}
nlohmann::json make_welcome(const nlohmann::json& id, std::string_view session,
                            std::size_t max_frame_bytes, int rate_limit_per_sec,
                            std::string_view server = server_software);

struct seat_summary {
  int seat = 0;
  bool taken = false;  // an AI seat is always taken (and connected): never free to join
  bool connected = false;
  std::string name;  // "" when free: null on the wire
  // R13.1: the seat's Champion (catalogue id), revealed once the match has
  // started; "" before that or without champions: null on the wire.
  std::string champion{};
  bool ai = false;  // solo, coop: the AI's seat; on the wire "ai": true, only on those
};

struct room_summary {
  std::string room;
  game_mode mode = game_mode::duel;
  deck_format format = deck_format::preconstructed;
  room_options options;
  room_status status = room_status::waiting;
  std::vector<seat_summary> seats;
  int spectators = 0;
};
nlohmann::json room_summary_to_json(const room_summary& r);

// {"type": "rooms", "rooms": [room_summary...], "total", "next"}: one page of
// the rooms a list_rooms asked for; `total` counts every room that matched,
// `next` is the id to pass as "after" for the next page (null on the last).
nlohmann::json make_rooms(const nlohmann::json& id, std::span<const room_summary> rooms, std::size_t total,
                          std::optional<std::string_view> next);
// {"type": "room_created", "room", "seed_hash"}
nlohmann::json make_room_created(const nlohmann::json& id, std::string_view room,
                                 std::string_view seed_hash);
// {"type": "joined", "room", "seat", "token"}: reply to join and to resume.
nlohmann::json make_joined(const nlohmann::json& id, std::string_view room, int seat,
                           std::string_view token);
// {"type": "spectating", "room"}
nlohmann::json make_spectating(const nlohmann::json& id, std::string_view room);

// The clock as state and update carry it: {"remaining_ms": [per seat],
// "running_seat": seat | null}.
struct clock_snapshot {
  std::vector<std::int64_t> remaining_ms;  // indexed by seat
  seat_t running_seat = no_seat;           // whose bank is running; none when over
};
nlohmann::json clock_to_json(const clock_snapshot& c);

// {"type": "state", "room", "seq", "seed_hash", "view", "clock"?, "events"?}.
// `view` is view_to_json(m.view(recipient), cat). `events` (events_to_json),
// in solo and coop only, in the state sent when the match starts: the opening
// events of match::create (the AI's first turn with ai_first).
nlohmann::json make_state(std::string_view room, std::int64_t seq, std::string_view seed_hash,
                          nlohmann::json view, const std::optional<clock_snapshot>& clock = {},
                          const std::optional<nlohmann::json>& events = {});

// The events of one accepted action for one recipient, each redacted
// (event_to_json). uid_cards: uid_cards_from_view(m.view(cod::referee)).
nlohmann::json events_to_json(std::span<const event> events, seat_t viewer, const catalogue& cat,
                              std::span<const card_id> uid_cards);
// {"type": "update", "room", "seq", "events", "view", "clock"?}
nlohmann::json make_update(std::string_view room, std::int64_t seq, nlohmann::json events,
                           nlohmann::json view, const std::optional<clock_snapshot>& clock = {});

// The same update as text, exactly make_update(...).dump(), with the view
// written straight from `view` (write_view): what the server sends each
// recipient of each accepted action. `events` is events_to_json's result.
// `ack_id`: the actor's copy when its hello asked for acks in_update: the
// act's request id (null ids are written as null).
std::string update_text(std::string_view room, std::int64_t seq, const nlohmann::json& events,
                        const seat_view& view, const catalogue& cat,
                        const std::optional<clock_snapshot>& clock = {}, const nlohmann::json* ack_id = nullptr);

// {"type": "accepted", "seq"}
nlohmann::json make_accepted(const nlohmann::json& id, std::int64_t seq);
// {"type": "left", "room"}
nlohmann::json make_left(const nlohmann::json& id, std::string_view room);
// {"type": "pong"}
nlohmann::json make_pong(const nlohmann::json& id);
// {"type": "seat_status", "room", "seat", "connected"}
nlohmann::json make_seat_status(std::string_view room, int seat, bool connected);
// {"type": "match_over", "room", "winners": [seats], "reason", "seed": "<decimal>"}.
// `winners` is a seat bit mask (match::winners()). The seed is a decimal
// string: JSON numbers lose precision above 2^53 in JavaScript.
nlohmann::json make_match_over(std::string_view room, std::uint8_t winners, end_reason reason,
                               std::uint64_t seed);
// {"type": "clock", "room", "seat", "remaining_ms"}
nlohmann::json make_clock(std::string_view room, int seat, std::int64_t remaining_ms);

// {"type": "error", "id"?, "code", "message", "field"?}
nlohmann::json make_error(const nlohmann::json& id, const protocol_error& e);
// `message` "" means session_errc_message(code).
nlohmann::json make_error(const nlohmann::json& id, session_errc code,
                          std::string_view message = {});
// A rejected action: code error_name(e), message error_message(e).
nlohmann::json make_error(const nlohmann::json& id, rule_error e);
// A rejected draft pick: code draft_error_name(e), message draft_error_message(e).
nlohmann::json make_error(const nlohmann::json& id, draft_error e);
// bad_deck with "reason" (deck_result::reason) and its message.
nlohmann::json make_deck_error(const nlohmann::json& id, const deck_result& d);
// bad_champion_choice with "reason" (champion_result::reason) and its message.
nlohmann::json make_champion_error(const nlohmann::json& id, const champion_result& c);

// The seed commitment (room_created.seed_hash, state.seed_hash) is the
// SHA-256 hex of the seed's decimal text: cod::server::seed_commitment
// (server/persist/sha256.hpp). match_over reveals the seed.

}  // namespace cod::protocol
