// Why the server refused a well-formed message: the session's state (no hello
// yet, no such room, seat taken, ...) rather than the message's shape
// (protocol_errc) or the rules (cod::rule_error). The names are part of the
// wire protocol (docs/protocol.md, "Errors"): never rename one, only add.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace cod::protocol {

enum class session_errc : std::uint8_t {
  hello_required,        // a message other than hello came first
  unsupported_version,   // hello asked for a protocol version this server lacks (then close 1002)
  frame_too_large,       // the frame exceeded max_frame_bytes (then close 1009)
  rate_limited,          // over rate_limit_per_sec: this message was dropped
  room_not_found,        // no room has that id
  room_full,             // join: every seat is taken (or the match is over)
  seat_taken,            // join: the requested seat is taken
  bad_token,             // resume: the token matches no seat of that room; tournament_join: no player has it
  not_seated,            // act: this connection holds no seat
  spectator_cannot_act,  // act: this connection is spectating
  match_not_started,     // act, history: the room still waits for players (or drafts)
  bad_deck,              // join: the deck is refused ("reason" says why)
  server_busy,           // the server is at capacity (rooms or connections)
  shutting_down,         // the server is stopping (then close 1001)
  internal_error,        // a bug: the request had no effect (then maybe close 1011)
  // Added in v1 beyond the design notes' list (docs/protocol-design.md):
  duplicate_hello,       // hello after hello
  already_in_room,       // join/spectate/resume while seated or spectating: leave first
  not_in_room,           // leave, history while in no room
  no_such_seat,          // join: "seat" is beyond the room's seats
  // Added with the four-player modes and the Champion module:
  bad_champion_choice,   // join: the Champion is refused ("reason" says why)
  // Added with solo and co-op:
  ai_seat,               // join: "seat" is an AI's (solo: 1; coop: 1 and 3)
  // Added with tournaments (tournament_join):
  tournament_waiting,    // no game of the player's is open yet: ask again later
  tournament_over,       // the tournament has finished, or the player was dropped
  // Added with the drafted formats (R14):
  not_drafting,          // draft_pick: the room is not drafting (still waiting, or the match has started)
  // Added with the limits on abuse:
  too_many_rooms,        // create_room: this address already has max_waiting_rooms_per_address rooms waiting
  // Added with the legal actions on the wire:
  stale_action,          // act, draft_pick: its "seq" is not the room's current one (something happened since)
  // Added with the mutation league (R15; league_join, league_act):
  not_in_league,         // league_act, league_mutations before a league_join on this connection
  league_refused,        // league_act: the league refused the op ("refusal" says which rule); league_mutations: it would
  // Added with the house bots (add_bot):
  bot_refused,           // add_bot: this room takes no bot (tournament/league, drafted, or no longer waiting)
  // Added with player accounts (docs/accounts.md):
  bad_session,           // hello: the account_token is unknown, expired or revoked (or the server keeps no accounts)
  not_signed_in,         // join without a name, resume without a token: only a signed-in connection may
  account_seated,        // join: the connection's account already holds a seat of that room
  account_disabled,      // hello: an admin disabled the account
  // Added with the matchmaking queue (docs/queue.md):
  already_queued,        // queue: the account already searches in that pool (same mode, format, rated)
  not_queued,            // unqueue: no such ticket of this connection
};

inline constexpr int session_errc_count = static_cast<int>(session_errc::not_queued) + 1;

// "room_full" etc.: the code as it appears on the wire.
std::string_view session_errc_name(session_errc c);
// The default message: one sentence a person can read.
std::string_view session_errc_message(session_errc c);
std::optional<session_errc> session_errc_from_name(std::string_view name);

}  // namespace cod::protocol
