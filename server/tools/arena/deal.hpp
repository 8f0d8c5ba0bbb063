// The deal of the arena's group `g` (docs/ai-arena.md, "Pairing"): every
// game of a group starts from this same match configuration; only who sits
// where changes. A function of the base seed and g alone.
#pragma once

#include <cstdint>
#include <vector>

#include "cod/engine/catalogue.hpp"
#include "cod/engine/setup.hpp"
#include "cod/search/player.hpp"

namespace cod::arena {

struct deal_options {
  game_mode mode = game_mode::duel;
  bool catalogue_decks = false;  // random legal 8-card decks (R14.6) instead of the preconstructed ones
  bool champions = false;        // R13: a random Champion per seat, outside its deck
  int exhaustion = 2;            // R9: 0 off, 1 on, 2 mixed (odd groups on)
  std::uint64_t seed = 1;
};

class dealer {
 public:
  dealer(const catalogue& cat, const deal_options& o);
  match_config deal(std::uint64_t group) const;
  // The deck lists every seat knows (R14.6: they are public).
  static search::table table_of(const match_config& cfg);

 private:
  const catalogue* cat_;
  deal_options o_;
  std::vector<card_id> precon_[4];
  std::vector<card_id> pool_;
};

}  // namespace cod::arena
