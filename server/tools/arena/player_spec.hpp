// A player of the arena as written on the command line (docs/ai-arena.md):
//   random | greedy | search:L | search:iters=N | all_seeing:L | all_seeing:iters=N
// each optionally followed by :noise=P (P in [0, 1]: the chance of a random
// legal action instead).
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "cod/search/player.hpp"

namespace cod::arena {

struct player_spec {
  std::string name;         // as given, for the report
  search::settings settings;
  bool all_seeing = false;  // decide_all_seeing on the true match (measuring only)
};

std::optional<player_spec> parse_player(std::string_view text);

}  // namespace cod::arena
