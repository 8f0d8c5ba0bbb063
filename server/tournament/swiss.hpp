// Swiss pairing of one round (docs/tournaments.md, "Pairing"): a pure
// function of the pairing order, the bye preference and who has played whom.
// The tournament builds those from its standings and seed; tests call it
// directly.
#pragma once

#include <cstddef>
#include <functional>
#include <utility>
#include <vector>

#include "tournament/types.hpp"

namespace cod::tournaments {

struct swiss_request {
  // Every player to pair, best first: by match points, ties in the round's
  // seeded random order. Pairing is top-down in this order.
  std::vector<player_id> order;
  // With an odd count, who should get the bye, most preferred first (the
  // lowest-ranked players without a bye, then the lowest-ranked with one).
  // Must hold the same players as `order`.
  std::vector<player_id> bye_preference;
  // Whether two players have already met (in any earlier round).
  std::function<bool(player_id, player_id)> played;
  // Search nodes allowed per (rematch count, bye candidate) attempt: a guard
  // for huge fields; small fields are always searched exhaustively.
  std::size_t node_budget = 200'000;
};

struct swiss_result {
  std::vector<std::pair<player_id, player_id>> pairs;  // (higher in order, lower), top pair first
  player_id bye = no_player;
  int rematches = 0;        // pairs whose players had met: 0 whenever avoidable
  bool exhaustive = true;   // false: a budget ran out, so "avoidable" was not proven
};

// Finds, in this priority: the fewest rematches; then the bye to the
// earliest candidate of bye_preference that allows that; then the first
// pairing in top-down order (each player, from the top, takes the highest
// remaining opponent that still lets the rest be paired).
swiss_result pair_swiss(const swiss_request& r);

}  // namespace cod::tournaments
