// Views read back: the inverse of view_to_json (json_codec.hpp, "Views"), for
// clients that think in the engine's terms (cod-bot's computer players,
// engine/search, decide from a seat_view).
//
//   cod::seat_view v;
//   if (auto e = protocol::view_from_json(msg["view"], cat, v)) ... e->field, e->message
//
// view_from_json(view_to_json(v)) == v for every view project() makes
// (tests/protocol/test_view_decode.cpp). Card ids become catalogue indices
// through the catalogue's string ids (a null card_id: no_card); enum names
// the engine's values. Keys it does not know are ignored (the wire only
// grows: json_codec.hpp), keys it needs are checked for type and range.
//
// Fields a view from an older server may lack get these defaults:
//   stall_exhaustion_turn   `stall_exhaustion_turn` below (the room's option
//                           when the caller knows it; else the rooms' default,
//                           cod::default_stall_exhaustion_turn)
//   chained_from            the seat across the creature's line, for each
//                           chained card (R7 Chain takes from that hand)
//   sharpening_spent        false
//   share_team_hands        false; teammate: none; teammate_hand: empty
//   ai                      false; deck_size 0; discard: empty
//   all_hands, ai_decks     empty (a referee's only)
//
// Thread-safety: pure; never throws.
#pragma once

#include <optional>

#include <nlohmann/json_fwd.hpp>

#include "cod/engine/catalogue.hpp"
#include "cod/engine/setup.hpp"
#include "cod/engine/view.hpp"
#include "cod/protocol/protocol_error.hpp"

namespace cod::protocol {

// Fills `out` from a view's JSON. On error returns it (missing_field,
// bad_field_type or bad_field_value, its field a path such as
// "lines[0].sides[1].creatures[2].card_id") and leaves `out` unspecified.
std::optional<protocol_error> view_from_json(const nlohmann::json& j, const catalogue& cat, seat_view& out,
                                             int stall_exhaustion_turn = default_stall_exhaustion_turn);

}  // namespace cod::protocol
