#include "arena/deal.hpp"

#include "self_play.hpp"

namespace cod::arena {

dealer::dealer(const catalogue& cat, const deal_options& o) : cat_(&cat), o_(o) {
  for (int d = 0; d < 4; ++d) precon_[d] = cat.preconstructed_deck(d + 1);
  pool_ = self_play::all_cards(cat);
}

// As cod-bench deals (self_play.hpp), with the group in place of the game:
// the preconstructed decks in their 16 duel pairings or rotated over the four
// seats, or random catalogue decks and Champions from the match seed.
match_config dealer::deal(std::uint64_t group) const {
  match_config cfg;
  cfg.mode = o_.mode;
  cfg.seat_count = seats_of(o_.mode);
  cfg.seed = o_.seed + group;
  if (o_.catalogue_decks) {
    self_play::random_decks(cfg.seed, pool_, cfg.decks.data(), cfg.seat_count);
  } else if (cfg.seat_count == 2) {
    cfg.decks[0] = precon_[group % 4];
    cfg.decks[1] = precon_[(group / 4) % 4];
  } else {
    for (int s = 0; s < 4; ++s) cfg.decks[s] = precon_[(group + static_cast<std::uint64_t>(s)) % 4];
  }
  if (o_.champions)
    self_play::random_champions(cfg.seed, *cat_, pool_, cfg.decks.data(), cfg.champions.data(), cfg.seat_count);
  cfg.exhaustion_rule = o_.exhaustion == 1 || (o_.exhaustion == 2 && (group & 1));
  return cfg;
}

search::table dealer::table_of(const match_config& cfg) {
  search::table t;
  for (int s = 0; s < cfg.seat_count; ++s) t.decks[s] = cfg.decks[s];
  return t;
}

}  // namespace cod::arena
