// A seat's legal actions on the wire (docs/protocol.md, "Legal actions"):
// what `state` and `update` carry for a connection whose hello asked for
// them. The list is the engine's match::legal_actions, only regrouped by
// card: no rule is decided here.
//
//   {"plays": [{"card": uid, "lines": ["upper", "lower"],
//               "hosts": [{"host": uid, "line": "upper"}], "targets": [uid, ...],
//               "after": {"mana": n, "health": n, "line" | "host" | "target": the option}}, ...],
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
#include "cod/engine/match.hpp"
#include "cod/engine/types.hpp"

namespace cod::protocol {

// A play's preview ("after"): the seat's mana and health once one option of
// the card has resolved (match::outcome), and which option: a creature's
// first listed one (a line, else a host), an incantation's first target
// that is not the seat's own creature (one of its own, destroyed, would
// come back to its hand), else its first.
struct play_preview {
  card_uid card = no_uid;
  int mana = 0;
  int health = 0;
  int line = -1;             // the option's line (a creature, a Symbiote's host's)
  card_uid host = no_uid;    // a Symbiote's host
  card_uid target = no_uid;  // an incantation's target
};
// Each card of `seat`'s plays in `legal`, previewed on `m` (whose list it is).
std::vector<play_preview> play_previews(const match& m, std::span<const action> legal, seat_t seat);

// `legal` is match::legal_actions(): the active seat's list. For any other
// `seat` the result is the empty list. `previews`: each play's "after".
nlohmann::json legal_actions_to_json(std::span<const action> legal, seat_t seat,
                                     std::span<const play_preview> previews = {});
// The same as text, exactly legal_actions_to_json(legal, seat, previews).dump(),
// with no DOM built (the server's per-update path).
std::string legal_actions_text(std::span<const action> legal, seat_t seat,
                               std::span<const play_preview> previews = {});

// The client's side: every action the list allows, for `seat` (each one's
// wire form is action_to_json). nullopt when `j` is not such a list.
std::optional<std::vector<action>> legal_actions_from_json(const nlohmann::json& j, seat_t seat);

}  // namespace cod::protocol
