#include "cod/protocol/session_error.hpp"

#include <array>

namespace cod::protocol {
namespace {

struct errc_text {
  std::string_view name;
  std::string_view message;
};

// Indexed by session_errc.
constexpr std::array<errc_text, session_errc_count> texts = {{
    {"hello_required", "the first message on a connection must be hello"},
    {"unsupported_version", "this server speaks protocol version 1 only"},
    {"frame_too_large", "the message is larger than max_frame_bytes"},
    {"rate_limited", "too many messages: this one was dropped"},
    {"room_not_found", "there is no room with that id"},
    {"room_full", "every seat of that room is taken"},
    {"seat_taken", "that seat is taken"},
    {"bad_token", "that token matches no seat of that room"},
    {"not_seated", "only a seated player can act"},
    {"spectator_cannot_act", "a spectator cannot act"},
    {"match_not_started", "the match has not started: the room is waiting for players"},
    {"bad_deck", "the deck is refused"},
    {"server_busy", "the server is at capacity; try again later"},
    {"shutting_down", "the server is shutting down"},
    {"internal_error", "internal server error: the request had no effect"},
    {"duplicate_hello", "hello was already received on this connection"},
    {"already_in_room", "this connection is already in a room: leave it first"},
    {"not_in_room", "this connection is not in a room"},
    {"no_such_seat", "the room has no such seat"},
    {"bad_champion_choice", "the Champion is refused"},
    {"ai_seat", "that seat is played by the AI: join a human seat"},
    {"tournament_waiting", "no game of yours is open yet: ask again in a moment"},
    {"tournament_over", "the tournament has no further game for you (finished, or you were dropped)"},
    {"not_drafting", "the room is not drafting: picks are made after every seat is taken, before the match"},
    {"too_many_rooms", "rooms created from your address are still waiting for players: join one, or wait until "
                       "they start or close"},
    {"stale_action", "the game moved on since the state your request names (its \"seq\"): nothing was done; "
                     "choose again from the newest state"},
    {"not_in_league", "this connection follows no league: send league_join with your league token first"},
    {"league_refused", "the league refused that: see \"refusal\" for the rule"},
    {"bot_refused", "this room takes no bot: only a waiting room of a format without a draft, not a tournament's "
                    "or a league's"},
    {"bad_session", "that account_token is no session (signed out, revoked, or unused too long): sign in again, "
                    "or say hello without it"},
    {"not_signed_in", "join needs a \"name\" and resume a \"token\" unless the connection is signed in (hello's "
                      "account_token)"},
    {"account_seated", "your account already holds a seat in that room: resume it"},
    {"account_disabled", "an admin disabled this account"},
    {"already_queued", "you already search for that game (same mode, format and rating): one ticket a pool"},
    {"not_queued", "this connection has no such ticket in the queue"},
}};

}  // namespace

std::string_view session_errc_name(session_errc c) {
  const auto i = static_cast<std::size_t>(c);
  return i < texts.size() ? texts[i].name : std::string_view{"?"};
}

std::string_view session_errc_message(session_errc c) {
  const auto i = static_cast<std::size_t>(c);
  return i < texts.size() ? texts[i].message : std::string_view{"?"};
}

std::optional<session_errc> session_errc_from_name(std::string_view name) {
  for (std::size_t i = 0; i < texts.size(); ++i)
    if (texts[i].name == name) return static_cast<session_errc>(i);
  return std::nullopt;
}

}  // namespace cod::protocol
