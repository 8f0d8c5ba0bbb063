// The mutation league (R15.2, R15.4–R15.6): a player's deck and lab, and the
// mutations that cut an element from a lab card and paste it onto a deck
// creature, as plain values.
//
//   league_deck d;
//   if (auto e = make_league_deck(cat, drafted, chosen_deck, d); e != mutation_error::ok) ...
//   mutation_refusal r = apply_mutations(costs, d, phase_mutations);  // all or nothing
//   card_def def = mutated_def(cat, d.deck[i]);   // what a match plays with
//
// Points are counted in half points: the rulebook's tiers are halves (R15.6)
// and a phase has 2.5 points (R15.4), so integers keep every sum exact.
// Rulings E70–E76 (docs/rulings.md) settle what the rulebook leaves open.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cod/engine/catalogue.hpp"
#include "cod/engine/types.hpp"

namespace cod {

using half_points = int;
// R15.4: the points of one mutation phase (2.5); unused points are lost.
inline constexpr half_points mutation_budget = 5;
// R15.2: deck and lab are 8 cards each, out of 16 drafted (R15.1).
inline constexpr int league_deck_size = 8;
inline constexpr int league_drafted = 16;
// R15.5: mutated AV and HP never exceed 9.
inline constexpr int mutation_stat_cap = 9;

// R15.4: the elements a lab card offers.
enum class mutation_element : std::uint8_t { mana, av, hp, ability };
std::string_view mutation_element_name(mutation_element e);
std::optional<mutation_element> mutation_element_from_name(std::string_view name);

// R15.6: the point costs, the ruling's table by default; an organiser may
// replace it (every cost >= 0).
struct mutation_costs {
  half_points mana = 3;
  half_points av = 2;
  half_points hp = 1;
  std::array<half_points, ability_count> paste{};  // pasting the ability (an Aura: its bound ability's)
  std::array<half_points, ability_count> cover{};  // extra for covering (removing) it
  // The R15.6 ruling's table.
  static mutation_costs ruling();
  // "" or what is wrong (a negative cost, or one over 100 points).
  std::string check() const;
  bool operator==(const mutation_costs&) const = default;
};

// Stable codes for a refused mutation or deck choice. The names are wire
// strings: never renumber or rename one, only add.
enum class mutation_error : std::uint8_t {
  ok = 0,
  wrong_count,           // R15.2: a deck is 8 of the 16 drafted cards
  duplicate_card,        // the same card twice in a deck choice
  card_not_drafted,      // R15.2: a deck card the player did not draft
  not_in_deck,           // the target is not one of the player's deck cards
  not_in_lab,            // the source is not one of the player's lab cards
  incantation_never_mutates,  // R15.5
  no_such_element,       // the lab card has no such element (no HP, an X attack value, not that ability)
  element_used,          // R15.4: each lab element is used once
  already_mutated,       // R15.5: a mutated element is never covered again
  value_lowered,         // R15.5: AV and HP are never lowered
  above_nine,            // R15.5: AV and HP are at most 9
  attack_value_is_x,     // E72: an X attack value (Vulnerability) takes no AV
  nothing_to_cover,      // R15.5: a creature with no ability gains none; or the covered ability is not on it
  wrong_cover,           // R15.5: an ability covers one ability; an Aura two abilities or one Aura
  same_ability_twice,    // R15.5, R6.2
  second_aura,           // R15.5: at most one Aura
  over_budget,           // R15.4: 2.5 points a phase
};
std::string_view mutation_error_name(mutation_error e);
std::string_view mutation_error_message(mutation_error e);

// One element cut from a lab card (source) and pasted onto a deck creature
// (target). An ability element names the source's ability and whether it is
// the source's Aura, and the target's abilities it covers (R15.5): one; for
// an Aura, two of its own abilities or its Aura (covers_aura).
struct mutation {
  card_id target = no_card;
  card_id source = no_card;
  mutation_element element = mutation_element::hp;
  ability pasted = ability::count;
  bool aura = false;
  std::vector<ability> covers;
  bool covers_aura = false;
  bool operator==(const mutation&) const = default;
};

// A deck card as mutated so far, and which of its elements are mutated
// (R15.5: never covered again).
struct league_card {
  card_id id = no_card;
  card_stats stats;
  bool mana_mutated = false;
  bool av_mutated = false;
  bool hp_mutated = false;
  ability_set pasted = 0;        // own abilities pasted by a mutation
  ability_set pasted_auras = 0;  // an Aura pasted by a mutation
  bool operator==(const league_card&) const = default;
};

// A lab card and which of its elements are used (R15.4: once each).
struct lab_card {
  card_id id = no_card;
  card_stats stats;  // as printed: a lab card never mutates
  bool mana_used = false;
  bool av_used = false;
  bool hp_used = false;
  ability_set used = 0;
  ability_set used_auras = 0;
  bool operator==(const lab_card&) const = default;
};

// R15.2: one player's deck (8 cards, the same all league) and lab (the other 8).
struct league_deck {
  std::vector<league_card> deck;
  std::vector<lab_card> lab;
  bool operator==(const league_deck&) const = default;
};

// R15.2: checks `deck` is 8 different cards of the 16 `drafted` and builds
// the league deck (the lab is the drafted cards not chosen, in draft order).
// Changes nothing in `out` on an error.
mutation_error make_league_deck(const catalogue& cat, const std::vector<card_id>& drafted,
                                const std::vector<card_id>& deck, league_deck& out);

// R15.6: what one mutation costs (pasting plus any covering surcharge).
half_points mutation_cost(const mutation_costs& costs, const mutation& m);

// A refusal: which mutation (its index in the list: for over_budget, the
// one whose points went past the phase's) and why.
struct mutation_refusal {
  mutation_error error = mutation_error::ok;
  int index = -1;
  bool ok() const { return error == mutation_error::ok; }
};

// One mutation phase (R15.4): checks the mutations in order, each against
// the deck as the earlier ones left it, and their total against the budget.
// All are applied or none (`d` unchanged on a refusal). `spent`: the points
// used when accepted.
mutation_refusal apply_mutations(const mutation_costs& costs, league_deck& d, const std::vector<mutation>& ms,
                                 half_points* spent = nullptr);

// Every single mutation `d` allows now within `points_left` (a bot's menu,
// and the tests' check that each one is accepted). Clears `out` first.
void legal_mutations(const mutation_costs& costs, const league_deck& d, half_points points_left,
                     std::vector<mutation>& out);

// The card a match plays with: the catalogue's definition with the league
// card's stats (id, name and pack unchanged, no preconstructed deck).
card_def mutated_def(const catalogue& cat, const league_card& c);

}  // namespace cod
