// What a mutation league player (R15) does next, from its `league` view
// (docs/protocol.md, "league"): a random pick from its packet, 8 random
// drafted cards as its deck, random mutations the engine allows
// (legal_mutations) within the phase's points, or nothing. cod-bot plays a
// league with it; the rules stay the server's (a refused op changes
// nothing and the bot passes instead).
#pragma once

#include <optional>
#include <random>

#include <nlohmann/json.hpp>

#include "cod/engine/catalogue.hpp"

namespace cod::bot {

// The op to send in a league_act ({"type": "pick", "card": ...}, ...), or
// nullopt when the league waits for nobody's act of this player's.
std::optional<nlohmann::json> league_next_op(const nlohmann::json& view, const catalogue& cat, std::mt19937_64& rng);

// The player's deck as card ids (view.you.deck), for tournament_join; empty before its choice.
std::vector<std::string> league_deck_ids(const nlohmann::json& view);

}  // namespace cod::bot
