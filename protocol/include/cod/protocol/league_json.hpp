// The mutation league (R15; docs/league.md) as JSON: its ops, as the
// store keeps them and as players and organisers send them, each player's
// view, and the organiser's export of the whole league.
//
// An op (seat: the player, 0..3; cards by catalogue id):
//   {"type": "pick", "seat": 0, "card": "brute"}                 R15.1
//   {"type": "choose_deck", "seat": 0, "cards": [8 ids]}         R15.2
//   {"type": "mutate", "seat": 0, "mutations": [mutation, ...]}  R15.4 (mutation_json.hpp)
//   {"type": "pass", "seat": 0}                                  R15.4
//   {"type": "result", "table": 0, "winner": 1}                  R15.3 (winner null: nobody)
// Every function is pure; any thread.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "cod/engine/catalogue.hpp"
#include "cod/engine/league.hpp"

namespace cod::protocol {

// The most mutations a mutate op (or a league_mutations request) may list:
// far more than a phase's 2.5 points buy at the ruling's costs.
inline constexpr std::size_t max_phase_mutations = 32;

nlohmann::json league_op_to_json(const league_op& op, const catalogue& cat);
// nullopt and a sentence naming the field in `error` when `j` is not an op.
// Shape and names only: league::apply checks the rules.
std::optional<league_op> league_op_from_json(const nlohmann::json& j, const catalogue& cat, std::string& error);

// {"error": name, "message": sentence, "detail"?: the draft's or the
// mutation's code, "detail_message"?, "index"?: the mutation at fault}.
nlohmann::json league_refusal_to_json(const league_refusal& r);

// One player's view (`viewer` 0..3), or the public view (no_seat: an
// organiser's or a spectator's). Public: stage, round, the players (name,
// played, won, place, whether each has chosen its deck and acted in this
// phase), the schedule with results, the cost table and the phase's points.
// The viewer's own only (R16.2; E77: picks are secret; R15.2: a lab is
// never shown to another): its packet and picks while drafting, its 16
// drafted cards, its deck as mutated (each card's definition and which
// elements are mutated), its lab (which elements are used), its
// mutations, and while it may act in a mutation phase the mutations its
// deck allows now (legal_mutations, the engine's list). Others' decks
// become public with their duels (state.cards).
nlohmann::json league_view_to_json(const league& l, seat_t viewer, const std::vector<std::string>& names);

// The organiser's and admin's export: everything, secrets included (every
// pick, deck, lab, mutation with its round and points, every result).
nlohmann::json league_export_json(const league& l, const std::vector<std::string>& names);

}  // namespace cod::protocol
