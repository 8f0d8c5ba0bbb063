// Computer players that decide from a seat's view only (docs/ai.md).
//
//   cod::search::table t;             // each seat's deck list (public, R14.6)
//   cod::search::settings s = cod::search::level_settings(3);
//   cod::search::decision d = cod::search::decide(cat, m.view(seat), t, s, seed);
//   m.apply(d.chosen, events);
//
// Pure and deterministic, as engine/ is: the same view, table, settings, seed
// and iteration budget give the same action. The cards a seat cannot see
// (others' hands and their order) are sampled afresh in each iteration from
// what the view and the deck lists allow, so two worlds that show a seat the
// same view get the same decision from it: the player cannot peek.
// Duel, free-for-all and 2v2 (with or without Champions); the solo and co-op
// AI seats are the rulebook's automaton (R12), played inside the engine.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <string_view>
#include <vector>

#include "cod/engine/action.hpp"
#include "cod/engine/catalogue.hpp"
#include "cod/engine/match.hpp"
#include "cod/engine/view.hpp"

namespace cod::search {

// What every seat knows besides its view: each seat's deck list, public at
// the start (R14.6: a constructed or drafted deck's list is shown; a
// preconstructed deck is printed). An empty list: not known; that seat's
// hidden cards are then drawn from the whole catalogue. Champions are in the
// view (R13.1).
struct table {
  std::array<std::vector<card_id>, max_seats> decks{};
};

enum class policy : std::uint8_t {
  random,      // uniform over the legal actions (the house bot of old)
  greedy,      // one ply: the action whose resulting position scores best (evaluate)
  search,      // Information Set MCTS over sampled worlds (docs/ai.md)
  all_seeing,  // the same search on the true world: measures what hidden cards are worth. Never in a room.
};
std::string_view policy_name(policy p);

struct settings {
  policy kind = policy::search;
  int iterations = 2000;    // search: iterations per decision (the budget tests and benchmarks give)
  int noise_permille = 0;   // chance (in 1/1000) of playing a uniformly random legal action instead
  int exploration_permille = 700;  // UCB's exploration constant, in 1/1000
  int playout_cap = 400;    // actions a playout may take before it is scored by evaluate()
  // The time a server gives one decision at this level (its stop_check; the
  // library itself never reads a clock). The iteration budget still caps it.
  int think_ms = 50;
  bool operator==(const settings&) const = default;
};

// Difficulty levels 1..max_level (docs/ai.md, "Levels": each measured
// stronger than the one below). default_level is the lobby's.
inline constexpr int min_level = 1;
inline constexpr int max_level = 5;
inline constexpr int default_level = 3;
settings level_settings(int level);

struct decision {
  action chosen;
  int iterations = 0;  // search: iterations run (the budget, or fewer if stopped)
  int legal = 0;       // legal actions there were to choose from
};

// Called between iterations by a search: true ends it with the best action so
// far (the server's time budget; at least one iteration always runs).
// Empty: the iteration budget alone decides, and the result is reproducible.
using stop_check = std::function<bool()>;

// The action `view.viewer` plays. The view must be that seat's (not a
// spectator's or the referee's), its turn, the game not over. Never concede.
decision decide(const catalogue& cat, const seat_view& view, const table& t, const settings& s,
                std::uint64_t seed, const stop_check& stop = {});

// The all-seeing variant's decision for the active seat of `m` (it searches
// the true world, hidden cards included). For measuring only.
decision decide_all_seeing(const match& m, const settings& s, std::uint64_t seed, const stop_check& stop = {});

// A position's worth for `seat`, in [-1, 1]: the simple material and health
// heuristic the greedy player maximises and a cut playout is scored by.
double evaluate(const catalogue& cat, const seat_view& v, int seat);

}  // namespace cod::search
