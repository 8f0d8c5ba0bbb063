// One arena game: A's policy at the seats `a_seats` says, B's at the others,
// every decision timed (docs/ai-arena.md). Deterministic but for the times
// (and for the moves, when a time budget stops the search).
#pragma once

#include <cstdint>
#include <vector>

#include "arena/player_spec.hpp"
#include "cod/engine/catalogue.hpp"
#include "cod/engine/setup.hpp"

namespace cod::arena {

enum class result : std::uint8_t { win, loss, draw };

struct game_record {
  double score = 0;          // A's share of the win, in [0, 1] (stats.hpp)
  result outcome = result::draw;
  bool cut = false;          // stopped by the action cap: a draw
  int actions = 0;
  std::uint64_t digest = 0;  // the final state's (match::digest)
  std::vector<float> ms[2];  // each decision's time in ms: A's, then B's
  double cpu_ms[2] = {};     // the thread's CPU time in them (a shared machine's wall time includes waiting)
};

struct play_options {
  int max_actions = 2000;  // a longer game is cut and counted as a draw
  int time_ms = 0;         // > 0: each decision's time budget, instead of the iteration budget
};

// The parties a game is won between: seats, or 2v2's two teams (R11.6).
int sides_of(game_mode mode);

// `a_seats`: a bit per seat that A plays. `policy_seed`: every decision's
// seed derives from it and the action count.
game_record play_game(const catalogue& cat, const match_config& cfg, unsigned a_seats, const player_spec& a,
                      const player_spec& b, std::uint64_t policy_seed, const play_options& o);

}  // namespace cod::arena
