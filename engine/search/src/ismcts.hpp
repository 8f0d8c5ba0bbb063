// Single-observer Information Set MCTS (Cowling, Powley & Whitehouse 2012;
// docs/ai.md): one tree over the searching seat's information sets, a fresh
// world (determinization) every iteration, a child's chances counted only in
// the worlds where its action is legal.
#pragma once

#include <functional>

#include "cod/engine/match.hpp"
#include "cod/engine/rng.hpp"
#include "cod/search/player.hpp"

namespace cod::search::detail {

// Fills the match with the world an iteration searches; false if it could not.
using world_source = std::function<bool(rng&, match&)>;

struct search_result {
  action chosen;
  int iterations = 0;
};

// The most visited action of `me` at the root after the budget (or a stop).
search_result run_ismcts(const world_source& next_world, seat_t me, const settings& s, rng& r,
                         const stop_check& stop);

// A uniformly random playout from `m` until the game ends or `cap` actions
// have been played; returns the actions played. Nobody reads a playout's
// events, so none are recorded (match::apply_legal(a)).
int random_playout(match& m, rng& r, int cap);

}  // namespace cod::search::detail
