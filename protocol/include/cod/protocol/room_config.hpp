// What a room is made of, as the protocol states it (docs/protocol.md,
// "create_room", "join", "Formats and drafts"): its deck format, options,
// status and mode, the rooms the server offers (check_room_config), each
// seat's team, and a join's deck and Champion checked against the room.
// create_room, join and the room summaries carry these; persistence stores
// them in the same JSON, and recovery reads them back with the same checks.
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

// The full header: persistence serialises what these return.
#include <nlohmann/json.hpp>

#include "cod/engine/catalogue.hpp"
#include "cod/engine/draft.hpp"
#include "cod/engine/setup.hpp"
#include "cod/engine/types.hpp"
#include "cod/protocol/protocol_error.hpp"

namespace cod::protocol {

// ---------------------------------------------------------------------------
// Limits of the room options and the deck choice (docs/protocol.md,
// "Limits"). Violations are bad_field_value.

inline constexpr std::int64_t min_bank_ms = 1000;         // options.turn_clock.bank_ms
inline constexpr std::int64_t max_bank_ms = 86'400'000;   // one day
inline constexpr std::int64_t max_increment_ms = 3'600'000;
inline constexpr std::size_t max_packs = 32;          // options.packs
inline constexpr std::size_t max_pack_chars = 64;     // one entry of options.packs
inline constexpr int preconstructed_deck_count = 4;   // {"preconstructed": 1..4}
inline constexpr std::size_t max_card_id_chars = 64;  // one entry of deck.cards
inline constexpr std::size_t max_deck_entries = 64;   // deck.cards (8 is the only legal size: bad_deck)
// options.stall_exhaustion_turn (R17.25): 0 (never) or min..max; absent in
// create_room: default_stall_exhaustion_turn (40, engine setup.hpp).
inline constexpr int min_stall_exhaustion_turn = 8;     // R9.2's own turn: never earlier than R9
inline constexpr int max_stall_exhaustion_turn_option = 1000;

// ---------------------------------------------------------------------------
// Formats, options, status.

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

// create_room's "options". On the wire: {"exhaustion": bool,
// "stall_exhaustion_turn": 0 | 8..1000, "turn_clock":
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
  // R17.25 stall guard ("stall_exhaustion_turn"): without R9, exhaustion from
  // the first player's turn of this number; 0 = never. Ignored while
  // `exhaustion` is on (R9.2's 8). Last, so positional initialisers still fit.
  int stall_exhaustion_turn = default_stall_exhaustion_turn;
  // A chosen deal ("seed", decimal text on the wire), solo rooms only: the
  // match's seed (R16.1) is this one instead of a fresh one, so the shuffles
  // are known in advance (the web client's guided first game deals a hand it
  // can teach with). The seed commitment still holds: seed_hash is its hash.
  // Written only when set.
  std::optional<std::uint64_t> seed{};
  bool operator==(const room_options&) const = default;
};

// The JSON above, every key of the mode written: "difficulty" and "ai" only
// for a mode with AI seats (solo, coop). (Persistence stores this.)
nlohmann::json room_options_to_json(const room_options& o, game_mode mode);
// Strict; errors name fields as "options.turn_clock.bank_ms". Never throws.
// Checks each option alone (seats 2..4); check_room_config checks them
// against the mode and format.
std::optional<protocol_error> room_options_from_json(const nlohmann::json& j, room_options& out);
// The same for options a match record stored (persistence's options_json):
// a record written before R17.25 has no "stall_exhaustion_turn" and was
// played without the stall guard, so it reads as 0 (never) and the match
// replays as it was played. (Absent from create_room it is the default, 40.)
std::optional<protocol_error> stored_room_options_from_json(const nlohmann::json& j, room_options& out);

// drafting: every seat is taken and the decks are being drafted (R14).
enum class room_status : std::uint8_t { waiting, playing, finished, drafting };
// "waiting" | "playing" | "finished" | "drafting"
std::string_view room_status_name(room_status s);
std::optional<room_status> room_status_from_name(std::string_view name);

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

// ---------------------------------------------------------------------------
// Seats.

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

}  // namespace cod::protocol
