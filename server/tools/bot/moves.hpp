// Moves a client can try, computed from its own view (docs/protocol.md,
// "Views" and "Actions") and the card catalogue: what cod-bot and cod-load
// play. The list is the client's best guess at the legal actions, not the
// engine's legal_actions(): the view hides nothing the seat needs, but a few
// rules (R3.2.5 "leaves only the Stronghold", Cursed or Mercenary targets...)
// are left to the server, which answers a rule error and changes nothing.
// Callers try another candidate then; end_turn is always in the list and is
// always legal on the seat's own turn, so a game always moves on.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cod/engine/catalogue.hpp"

namespace cod::bot {

// Whether the view's viewer may act now: a player view, its own turn, the
// match not over.
bool my_turn(const nlohmann::json& view);

// Every candidate action (wire form, without the seat) for the viewer:
//   - each card of `playable` the seat can pay for (printed mana, 2 less with
//     Lucidity; Price of Blood pays the rest in Stronghold damage):
//     a creature on its upper and on its lower line when that side has room,
//     and, for a Symbiote, on top of each of the seat's creatures that carries
//     no Symbiote; an incantation on every creature in play;
//   - the seat's Champion (R13) while it is ready and in `playable`, on each
//     line with room, when the seat can pay its cost (R13.2: printed mana
//     less 1 per creature in play of exactly that mana cost);
//   - end_turn (always last).
// Empty when it is not the viewer's turn.
std::vector<nlohmann::json> candidate_actions(const nlohmann::json& view, const catalogue& cat);

// A small, fast generator (splitmix64) for picking moves: reproducible from
// a seed, independent of the standard library's distributions.
class move_rng {
 public:
  explicit move_rng(std::uint64_t seed) : s_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (s_ += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }
  // Uniform in [0, n); n > 0.
  std::size_t below(std::size_t n) { return static_cast<std::size_t>(next() % n); }

 private:
  std::uint64_t s_;
};

// Picks moves for one seat over one match: a uniform choice among the
// candidates not yet refused in the current position. refused() drops the
// last pick (the server answered a rule error) and picks again.
class move_picker {
 public:
  explicit move_picker(std::uint64_t seed) : rng_(seed) {}

  // A new position (a state or update came): recompute the candidates.
  void set_view(const nlohmann::json& view, const catalogue& cat);
  // The next action to try, or null when none is left (not the seat's turn).
  const nlohmann::json* pick();
  // The last pick was refused by a rule error: never try it again in this
  // position.
  void refused();
  std::size_t candidates() const { return moves_.size(); }

 private:
  move_rng rng_;
  std::vector<nlohmann::json> moves_;
  std::size_t last_ = 0;
  bool has_last_ = false;
};

// R13.1: a Champion for a seat with `deck`: a random catalogue creature not
// in the deck, a function of `seed`. Returns its catalogue id.
std::string pick_champion(std::uint64_t seed, const catalogue& cat, const std::vector<card_id>& deck);

// Splits a comma-separated card list ("--cards brute,troll,...") into ids.
// Returns "" or an error sentence.
std::string parse_card_list(const std::string& text, std::vector<std::string>& out);

}  // namespace cod::bot
