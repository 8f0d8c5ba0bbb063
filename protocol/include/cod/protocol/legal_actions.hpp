// A seat's legal actions on the wire (docs/protocol.md, "Legal actions"):
// what `state` and `update` carry for a connection whose hello asked for
// them. The list is the engine's match::legal_actions, only regrouped by
// card: no rule is decided here.
//
//   {"plays": [{"card": uid, "lines": ["upper", "lower"],
//               "hosts": [{"host": uid, "line": "upper"}], "targets": [uid, ...]}, ...],
//    "end_turn": bool}
//
// One entry per card (the hand's cards left to right, then a ready
// Champion), each with only its non-empty options: a creature's "lines"
// (alone on that line) and a Symbiote's "hosts" (on that creature, `line`
// being the host's), an incantation's "targets". Empty "plays" and
// "end_turn" false when the seat may not act (not its turn, the match over).
// Concede is always allowed and never listed.
//
// Thread-safety: every function here is pure; call them from any thread.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "cod/engine/action.hpp"
#include "cod/engine/types.hpp"

namespace cod::protocol {

// `legal` is match::legal_actions(): the active seat's list. For any other
// `seat` the result is the empty list.
nlohmann::json legal_actions_to_json(std::span<const action> legal, seat_t seat);
// The same as text, exactly legal_actions_to_json(legal, seat).dump(), with
// no DOM built (the server's per-update path).
std::string legal_actions_text(std::span<const action> legal, seat_t seat);

// The client's side: every action the list allows, for `seat` (each one's
// wire form is action_to_json). nullopt when `j` is not such a list.
std::optional<std::vector<action>> legal_actions_from_json(const nlohmann::json& j, seat_t seat);

}  // namespace cod::protocol
