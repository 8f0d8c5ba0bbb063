// The wire vocabulary: actions in, events and views out, as JSON. This is the
// WebSocket protocol's payload; keep it stable (add fields, never rename).
//
// Conventions:
//   - Cards are named by uid (an int, fixed for the match: action.hpp, types.hpp)
//     and, where the receiver may know it, by "card_id", the catalogue's string id.
//   - Seats are ints 0..3; "no seat" is null.
//   - Lines in events and views are absolute line indices (the index into the
//     view's "lines"); sides are 0 or 1 (the index into a line's "sides").
//     Actions instead name the acting seat's own lines "upper" / "lower", which
//     the view maps to absolute lines through seats[s].upper_line / lower_line.
//   - Enum values are the engine's snake_case names (cod::event_type_name,
//     ability_name, error_name, ...).
//
// Thread-safety: every function here is pure; call them from any thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "cod/engine/action.hpp"
#include "cod/engine/catalogue.hpp"
#include "cod/engine/event.hpp"
#include "cod/engine/view.hpp"
#include "cod/protocol/protocol_error.hpp"

namespace cod::protocol {

// Bump when a change would break an existing client.
inline constexpr int protocol_version = 1;

// ---------------------------------------------------------------------------
// Actions (client -> server). The seat is not on the wire: it comes from the
// connection, and is passed in here.
//
//   {"type": "play", "card": <uid>, "line": "upper" | "lower"}   a creature
//   {"type": "play", "card": <uid>, "target": <uid>}             an incantation
//   {"type": "end_turn"}
//   {"type": "concede"}
//
// Any other field is an error (unknown_field). Whether the action is legal is
// the engine's business (match::apply); this only checks its shape.

struct action_result {
  action value;  // meaningful only when ok()
  std::optional<protocol_error> error;
  bool ok() const { return !error.has_value(); }
};

// Longest action text parse_action_text accepts; a real action is < 100 bytes.
inline constexpr std::size_t max_action_bytes = 1024;

// Never throws.
action_result parse_action(const nlohmann::json& j, seat_t seat);
// From message text: bad_json when it is not JSON or longer than max_action_bytes.
action_result parse_action_text(std::string_view text, seat_t seat);

// The wire form of `a` (its seat dropped). parse_action(action_to_json(a), a.seat) == a.
nlohmann::json action_to_json(const action& a);

// ---------------------------------------------------------------------------
// Events (server -> client). Always {"type": cod::event_type_name, ...} plus
// only the fields meaningful for that type:
//
//   match_started       first_seat
//   turn_started        seat, turn, round
//   card_removed        seat, card
//   mana_gained         seat, mana                (the seat's mana for this turn)
//   card_played         seat, card, line (creature) | target (incantation),
//                       hand_index (only for the seat that played it)
//   creature_entered    seat, card, line, side, position (0 = next to the Bridge)
//   creature_moved      card, line, side, from, to (positions on the line)
//   attack              attacker, line, target | stronghold_of (a seat)
//   damage_dealt        source, target, amount
//   damage_prevented    source, target, amount    (amount prevented)
//   creature_destroyed  card, seat (its owner), line, side
//   card_returned       card, seat (whose hand), hand_index
//   stronghold_damaged  seat, source, amount
//   stronghold_moved    seat, from, to            (indices in the hand row)
//   stronghold_flipped  seat, side ("bastion" | "fort")
//   turn_ended          seat
//   conceded            seat
//   game_over           winners ([seats]), loser (seat | null), reason
//
// Each card-valued field (card, target, source, attacker) is a uid and comes
// with a sibling "<field>_id" (card_id, target_id, ...) holding the catalogue
// id when `uid_cards` knows it. Every card an event names is public by then
// (played, on the board or removed), so the ids reveal nothing hidden.

// uid -> catalogue card, indexed by uid; no_card (or beyond the end) = unknown.
// Every card of a match appears in its referee view, so
// uid_cards_from_view(m.view(referee)) names them all; uids never change.
std::vector<card_id> uid_cards_from_view(const seat_view& v);

// `e` as `viewer` may see it: applies cod::redact first (pass cod::referee for
// the unredacted event, e.g. for logs).
nlohmann::json event_to_json(const event& e, seat_t viewer, const catalogue& cat,
                             std::span<const card_id> uid_cards = {});

// ---------------------------------------------------------------------------
// Views (server -> client): everything in a seat_view.
//
//   {"role": "player" | "spectator" | "referee", "viewer": seat | null,
//    "mode": "duel", "exhaustion_rule": bool, "exhausted": bool,
//    "stall_exhaustion_turn": int (R17.25, the room's option; 0: never),
//    "turn": int, "round": int, "first_seat": seat, "active_seat": seat,
//    "phase": "summoning" | "game_over",
//    "winners": [seats], "loser": seat | null, "reason": "none" | "fort_destroyed" | ...,
//    "seats": [{"seat", "hand_size", "stronghold_pos", "side": "bastion" | "fort",
//               "health", "mana", "upper_line", "lower_line"}],
//    "lines": [{"sides": [{"seat": seat | null, "creatures": [creature...]}, {...}]}],
//    "removed": [card], "hand": [card], "playable": [uid],
//    "all_hands": [[card]...]}                  (referee only: present when non-empty)
//
//   card:     {"uid": int, "card_id": string | null}
//   creature: {"uid", "card_id", "av", "hp", "damage", "bonus_av",
//              "abilities": [names], "entered_this_turn", "attacked", "protection_used",
//              "top": card | null, "chained": [card], "chained_from": [seat] (one per
//              chained card: whose hand it was taken from), "sharpening_spent"}
//
// "lines" and "sides" are indexed by absolute line and side; creatures run from
// the Bridge outwards. "abilities" is the effective set (own + neighbours' Auras).
// The view holds everything in a seat_view: view_decode.hpp reads it back.
nlohmann::json view_to_json(const seat_view& v, const catalogue& cat);
// The same view appended to `out` as JSON text, exactly view_to_json(v).dump()
// (the server's per-recipient path: no DOM is built).
void write_view(std::string& out, const seat_view& v, const catalogue& cat);

// An ability set as an array of names, in the engine's ability order.
nlohmann::json abilities_to_json(ability_set s);

}  // namespace cod::protocol
