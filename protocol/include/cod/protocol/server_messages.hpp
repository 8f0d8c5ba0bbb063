// What the server sends (docs/protocol.md, "Server messages"): a builder for
// every server message, the room summaries of `rooms`, the clock, and the
// WebSocket close codes. The payloads inside (events, views) are
// json_codec.hpp's; the room settings room_config.hpp's.
//
// Every builder returns the message as a JSON object; send j.dump(). A reply
// echoes the request's id (pass the message's `id`; a null id adds no "id"
// field); server-initiated messages (state, update, seat_status, match_over,
// clock, notice) take no id.
//
// Thread-safety: every function here is pure; call them from any thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

// The full header: the server serialises what the builders return.
#include <nlohmann/json.hpp>

#include "cod/engine/catalogue.hpp"
#include "cod/engine/draft.hpp"
#include "cod/engine/error.hpp"
#include "cod/engine/event.hpp"
#include "cod/engine/state.hpp"
#include "cod/engine/types.hpp"
#include "cod/engine/view.hpp"
#include "cod/protocol/json_codec.hpp"
#include "cod/protocol/protocol_error.hpp"
#include "cod/protocol/room_config.hpp"
#include "cod/protocol/session_error.hpp"

namespace cod::protocol {

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

// A signed-in connection's account (hello.account_token), as welcome says it.
struct welcome_account {
  std::int64_t id = 0;
  std::string name;
  bool guest = false;
};
// {"type": "welcome", "version": 1, "server", "session", "max_frame_bytes",
// "rate_limit_per_sec"}, and "account": {"id", "name", "guest"} when the
// hello signed in.
nlohmann::json make_welcome(const nlohmann::json& id, std::string_view session,
                            std::size_t max_frame_bytes, int rate_limit_per_sec,
                            std::string_view server = server_software,
                            const welcome_account* account = nullptr);

// ---------------------------------------------------------------------------
// The lobby and the room.

struct seat_summary {
  int seat = 0;
  bool taken = false;  // an AI seat is always taken (and connected): never free to join
  bool connected = false;
  std::string name;  // "" when free: null on the wire
  // R13.1: the seat's Champion (catalogue id), revealed once the match has
  // started; "" before that or without champions: null on the wire.
  std::string champion{};
  bool ai = false;  // solo, coop: the AI's seat; on the wire "ai": true, only on those
  bool bot = false;  // a house bot's seat (add_bot); on the wire "bot": true, only on those
  // A searching house bot's level (add_bot's level, 1..5); 0: none (a free
  // or human seat, or a co-op room's bot, which plays random legal actions).
  // On the wire "level": n, only on those.
  int level = 0;
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
// The same, with the rooms already in their wire form (room_summary_to_json):
// a cluster's lobby lists other nodes' rooms as they published them.
nlohmann::json make_rooms_json(const nlohmann::json& id, nlohmann::json rooms, std::size_t total,
                               std::optional<std::string_view> next);
// {"type": "room_created", "room", "seed_hash"}
nlohmann::json make_room_created(const nlohmann::json& id, std::string_view room,
                                 std::string_view seed_hash);
// {"type": "joined", "room", "seat", "token"}: reply to join and to resume.
// `token` "": a resume by the connection's account (the seat token is
// stored only as a hash, so the server cannot say it again): no "token".
nlohmann::json make_joined(const nlohmann::json& id, std::string_view room, int seat,
                           std::string_view token);
// {"type": "spectating", "room"}
nlohmann::json make_spectating(const nlohmann::json& id, std::string_view room);

// ---------------------------------------------------------------------------
// The match.

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
// `legal_actions`: the recipient seat's legal actions (legal_actions.hpp),
// when its connection's hello asked for them.
nlohmann::json make_state(std::string_view room, std::int64_t seq, std::string_view seed_hash,
                          nlohmann::json view, const std::optional<clock_snapshot>& clock = {},
                          const std::optional<nlohmann::json>& events = {},
                          const std::optional<nlohmann::json>& legal_actions = {});

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
// act's request id (null ids are written as null). `legal_actions`: the
// recipient seat's legal actions as text (legal_actions_text), when its
// connection's hello asked for them.
std::string update_text(std::string_view room, std::int64_t seq, const nlohmann::json& events,
                        const seat_view& view, const catalogue& cat,
                        const std::optional<clock_snapshot>& clock = {}, const nlohmann::json* ack_id = nullptr,
                        const std::string* legal_actions = nullptr);

// {"type": "accepted", "seq"}
nlohmann::json make_accepted(const nlohmann::json& id, std::int64_t seq);
// The queue (docs/protocol.md, "The queue").
struct queue_ticket_info {
  std::int64_t ticket = 0;
  game_mode mode = game_mode::duel;
  deck_format format = deck_format::preconstructed;
  bool rated = true;
};
// {"type": "queued", "ticket", "mode", "format", "rated", "searching"}: reply
// to queue; `searching`: the tickets in that pool now, this one included.
nlohmann::json make_queued(const nlohmann::json& id, const queue_ticket_info& t, std::size_t searching);
// {"type": "unqueued", "tickets": [...], "reason"}: reply to unqueue
// (reason "unqueued"), or pushed without an id when the queue withdrew
// tickets: "matched" (the player was seated from another pool), "entered_room"
// (the connection joined, resumed or spectated a room), "shutting_down".
nlohmann::json make_unqueued(const nlohmann::json& id, const std::vector<std::int64_t>& tickets,
                             std::string_view reason);
// {"type": "matched", "ticket", "room", "seat", "token", "mode", "format",
// "rated", "players"[, "connect"]}: pushed when the ticket's table is found.
// Without `connect` the seat is taken already (`joined` follows, then
// `state` once every player is there). With it (a cluster: the room runs on
// another node), the client opens a connection with that path and takes
// the seat with `resume` (room, token).
nlohmann::json make_matched(const queue_ticket_info& t, std::string_view room, int seat, std::string_view token,
                            const std::vector<std::string>& players, std::string_view connect = {});

// {"type": "bot_added", "room", "seat", "name", "level"}: reply to add_bot.
// `level` 0 (a co-op room's random bot): no "level" on the wire.
nlohmann::json make_bot_added(const nlohmann::json& id, std::string_view room, int seat, std::string_view name,
                              int level = 0);
// {"type": "left", "room"}
nlohmann::json make_left(const nlohmann::json& id, std::string_view room);
// {"type": "pong"}
nlohmann::json make_pong(const nlohmann::json& id);
// {"type": "emote", "room", "seat", "name", "emote"}: a seat's emote, pushed to
// every seat and spectator of the room; the sender's copy is the reply to its
// emote request (with its id).
nlohmann::json make_emote(const nlohmann::json& id, std::string_view room, int seat, std::string_view name,
                          std::string_view emote);

// R15 (docs/league.md): a league player's view, as league_json's
// league_view_to_json gives it: league_join's and an accepted league_act's
// reply (with the request's id), then pushed (without) on every change.
nlohmann::json make_league(const nlohmann::json& id, std::string_view league, nlohmann::json view);
// R15.4: reply to league_mutations: {"type": "league_mutations", "league",
// "round", "points_left", "legal_mutations"}: what the player may add after
// the mutations it asked about (mutations_to_json's list, the engine's
// order), and the phase's points they leave (half points here).
nlohmann::json make_league_mutations(const nlohmann::json& id, std::string_view league, int round,
                                     int points_left_halves, nlohmann::json legal_mutations);
// A league_act (or league_mutations) the league's rules refused: error league_refused, its
// "refusal" as league_refusal_to_json gives it (the message is its sentence).
nlohmann::json make_league_refusal(const nlohmann::json& id, nlohmann::json refusal);
// One entry of a history reply: the events of the action `seq` (0: the
// match's setup) as events_to_json wrote them for the recipient.
struct history_entry {
  std::int64_t seq = 0;
  nlohmann::json events;
};
// {"type": "history", "room", "seq", "first_seq", "entries": [{"seq", "events"}]}.
// `seq`: the last action the recipient has seen (the entries end there);
// `first_seq`: the first entry's seq (higher than asked when older ones were
// left out).
nlohmann::json make_history(const nlohmann::json& id, std::string_view room, std::int64_t seq,
                            std::vector<history_entry> entries);
// {"type": "seat_status", "room", "seat", "connected"}
nlohmann::json make_seat_status(std::string_view room, int seat, bool connected);
// {"type": "match_over", "room", "winners": [seats], "reason", "seed": "<decimal>"}.
// `winners` is a seat bit mask (match::winners()). The seed is a decimal
// string: JSON numbers lose precision above 2^53 in JavaScript.
nlohmann::json make_match_over(std::string_view room, std::uint8_t winners, end_reason reason,
                               std::uint64_t seed);
// {"type": "clock", "room", "seat", "remaining_ms"}
nlohmann::json make_clock(std::string_view room, int seat, std::int64_t remaining_ms);
// {"type": "notice", "room", "code", "message"}: pushed to a room's clients.
// code: "store_waiting" (the room's write waits for the database; the room
// is paused), "store_resumed" (it is stored; the room goes on).
nlohmann::json make_notice(std::string_view room, std::string_view code, std::string_view message);

// The seed commitment (room_created.seed_hash, state.seed_hash) is the
// SHA-256 hex of the seed's decimal text: cod::server::seed_commitment (the
// server's sha256.hpp). match_over reveals the seed.

// ---------------------------------------------------------------------------
// Errors.

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

}  // namespace cod::protocol
