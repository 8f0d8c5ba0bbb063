// R12.8 custom difficulty: what the AI's options cost, and the setup checks
// of solo and co-op (R12.7, R12.8, R13.1, R14.1, R14.4, R14.5; RULINGs E41, E45).
#include <bit>

#include "cod/engine/match.hpp"
#include "internal.hpp"

namespace cod {

int ai_points(const ai_settings& ai, int human_champions) {
  if (ai.fixed_mana < 6 || ai.fixed_mana > 10 || (ai.granted & ~ai_grantable) != 0) return -1000;
  int points = ai.fixed_mana - 6;              // 7/8/9/10: 1/2/3/4
  if (ai.double_variable) points += 2;         // +2 per human creature
  if (ai.ai_first) points += 1;
  if (ai.resistance) points += 2;
  points += std::popcount(ai.granted);         // 1 per ability given to every AI creature
  return points - 2 * human_champions;         // RULING E45: each human Champion gives 2 points
}

rule_error match::check_ai_deck(const catalogue& cat, const std::vector<card_id>& deck) {
  // R12.7, R14.1, R14.4, R14.5: 24 cards; R14.8: no card twice (RULING E41).
  if (deck.size() != static_cast<std::size_t>(ai_deck_size)) return rule_error::bad_deck_size;
  for (std::size_t i = 0; i < deck.size(); ++i) {
    if (deck[i] >= cat.size()) return rule_error::unknown_card;
    for (std::size_t j = 0; j < i; ++j)
      if (deck[j] == deck[i]) return rule_error::duplicate_card;
    if (cat.stats(deck[i]).type != card_type::creature && cat.stats(deck[i]).type != card_type::incantation)
      return rule_error::not_a_deck_card;
  }
  return rule_error::ok;
}

rule_error match::check_ai_options(const match_config& cfg) {
  const bool ai_mode = cfg.mode == game_mode::solo || cfg.mode == game_mode::coop;
  if (!ai_mode) return cfg.difficulty == 0 && cfg.ai == ai_settings{} ? rule_error::ok : rule_error::bad_difficulty;
  int human_champions = 0;
  for (int seat = 0; seat < seats_of(cfg.mode); ++seat) {
    if (cfg.champions[seat] == no_card) continue;
    // R13.1: a Champion is the human's choice; the AI never has one.
    if (is_ai_seat(cfg.mode, static_cast<seat_t>(seat))) return rule_error::champion_not_allowed;
    ++human_champions;
  }
  if (cfg.difficulty == 0) {
    // Quick play (R12.2): the default AI, and no Champion (R13.1).
    if (human_champions > 0) return rule_error::champion_not_allowed;
    return cfg.ai == ai_settings{} ? rule_error::ok : rule_error::bad_difficulty;
  }
  // R12.8: levels 1..10, exactly that many points.
  if (cfg.difficulty < 1 || cfg.difficulty > 10) return rule_error::bad_difficulty;
  return ai_points(cfg.ai, human_champions) == cfg.difficulty ? rule_error::ok : rule_error::bad_difficulty;
}

std::vector<card_id> solo_ai_deck(const catalogue& cat, int human_deck) {
  // R12.7, R14.1: the three preconstructed decks the human did not pick.
  std::vector<card_id> out;
  for (int d = 1; d <= 4; ++d) {
    if (d == human_deck) continue;
    for (card_id c : cat.preconstructed_deck(d)) out.push_back(c);
  }
  return out;
}

}  // namespace cod
