// The mutation league's stable names: wire strings, never renamed (mutation.hpp).
#include <iterator>

#include "cod/engine/mutation.hpp"
#include "name_tables.hpp"

namespace cod {

namespace {

using detail::error_text;

constexpr error_text mutation_error_texts[] = {
    {"ok", "ok"},
    {"wrong_count", "a deck is 8 of your 16 drafted cards; the other 8 are your lab (R15.2)"},
    {"duplicate_card", "the same card twice: a deck holds 8 different cards (R15.2)"},
    {"card_not_drafted", "that card is not one you drafted (R15.2)"},
    {"not_in_deck", "only a creature of your deck mutates (R15.4)"},
    {"not_in_lab", "an element is cut from one of your own lab cards (R15.4)"},
    {"incantation_never_mutates", "incantations in the deck never mutate (R15.5)"},
    {"no_such_element",
     "that lab card has no such element: an incantation has no HP, an X attack value is no number, and an "
     "ability must be printed on it (as an Aura if you name an Aura) (R15.4)"},
    {"element_used", "that lab element was already used; each is used once in the whole league (R15.4)"},
    {"already_mutated", "that element of the creature was already mutated and cannot be covered again (R15.5)"},
    {"value_lowered", "AV and HP are never lowered (R15.5)"},
    {"above_nine", "AV and HP are at most 9 (R15.5)"},
    {"attack_value_is_x",
     "the creature's attack value is X (Vulnerability decides its damage): it takes no AV (RULING E72)"},
    {"nothing_to_cover",
     "a new ability is pasted over an ability the creature has; a creature with no ability gains none (R15.5)"},
    {"wrong_cover",
     "an ability covers exactly one ability (or an Aura); an Aura covers two other abilities or another Aura "
     "(R15.5, R15.6)"},
    {"same_ability_twice", "a creature never has the same ability twice (R15.5, R6.2)"},
    {"second_aura", "a creature has at most one Aura (R15.5)"},
    {"over_budget", "a mutation phase has 2.5 points; these mutations cost more (R15.4, R15.6)"},
};
static_assert(std::size(mutation_error_texts) == static_cast<std::size_t>(mutation_error::over_budget) + 1);

constexpr std::string_view element_names[] = {"mana", "av", "hp", "ability"};

}  // namespace

std::string_view mutation_error_name(mutation_error e) { return detail::error_name_in(mutation_error_texts, e); }
std::string_view mutation_error_message(mutation_error e) { return detail::error_message_in(mutation_error_texts, e); }
std::string_view mutation_element_name(mutation_element e) { return detail::name_in(element_names, e); }

std::optional<mutation_element> mutation_element_from_name(std::string_view name) {
  for (std::size_t i = 0; i < std::size(element_names); ++i)
    if (element_names[i] == name) return static_cast<mutation_element>(i);
  return std::nullopt;
}

}  // namespace cod
