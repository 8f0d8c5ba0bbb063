// The readers of room options and deck choices, for the client parser, which
// reads them inside create_room, join and tournament_join (private to
// cod_protocol). `prefix` names the object in error fields ("options.",
// "deck."). Unlike the public room_options_from_json and deck_from_json they
// do not catch: the parser has its own last guard.
#pragma once

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "cod/protocol/protocol_error.hpp"
#include "cod/protocol/room_config.hpp"

namespace cod::protocol::detail {

std::optional<protocol_error> options_from(const nlohmann::json& j, const std::string& prefix, room_options& out);
std::optional<protocol_error> deck_from(const nlohmann::json& j, const std::string& prefix, deck_choice& out);

}  // namespace cod::protocol::detail
