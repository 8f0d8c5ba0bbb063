// The mutation league's values as JSON (docs/league.md): the cost table an
// organiser may give (R15.6) and one mutation a player sends (R15.4).
//
// Points are numbers, halves allowed (the engine counts half points, RULING E70).
//
// A cost table, every element and every ability named (R15.6: "every ability
// and element has a cost"); `cover` lists the abilities that cost extra to
// cover, any other costs nothing more:
//   {"hp": 0.5, "av": 1, "mana": 1.5,
//    "abilities": {"aerial": 2, ..., "vulnerability": 2.5},   all 27
//    "cover": {"defender": 1.5, "blackmail": 1.5, "mercenary": 1.5, "cursed": 1}}
//
// A mutation, cards by catalogue id:
//   {"target": "troll", "source": "scourge_of_the_ramparts", "element": "hp"}
//   {"target": "troll", "source": "scourge_of_the_ramparts", "element": "ability",
//    "ability": "aerial", "aura": false, "covers": ["berserk"], "covers_aura": false}
// element: "mana" | "av" | "hp" | "ability". An ability element needs ability
// and covers; aura and covers_aura default to false. Any other key is an error.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "cod/engine/catalogue.hpp"
#include "cod/engine/mutation.hpp"

namespace cod::protocol {

struct mutation_costs_result {
  mutation_costs costs;
  std::string error;  // "" when ok; else "abilities.rage: ..." (the field, then why)
  bool ok() const { return error.empty(); }
};
mutation_costs_result mutation_costs_from_json(const nlohmann::json& j);
nlohmann::json mutation_costs_to_json(const mutation_costs& c);

struct mutation_result {
  mutation m;
  std::string error;  // "" when ok; else "covers[1]: ..."
  bool ok() const { return error.empty(); }
};
// Shape and names only: apply_mutations checks the rules (R15.5).
mutation_result mutation_from_json(const nlohmann::json& j, const catalogue& cat);
nlohmann::json mutation_to_json(const mutation& m, const catalogue& cat);
// A list of mutations, each as mutation_to_json, in the list's order (a
// player's menu: the league view's you.legal_mutations, league_mutations).
nlohmann::json mutations_to_json(const std::vector<mutation>& ms, const catalogue& cat);

}  // namespace cod::protocol
