// The heuristic the greedy player maximises and a cut playout is scored by:
// life (R1.5, R4.5: a Bastion's cards to the right, then the Fort's whole
// hand) and the board's attack and health, mine against the others'.
#include <cmath>

#include "cod/search/player.hpp"

namespace cod::search {

namespace {

// R1.5, R4.5: the hits a seat can still take: the cards right of its
// Stronghold, and while it is a Bastion a second life to come (the Fort then
// stands leftmost, its whole hand to its right: about a deck's 8 cards, since
// cards in play come back to the hand, R4.2).
double life_of(const seat_public& p) { return p.side == stronghold_side::bastion ? p.health + 8 : p.health; }

struct seat_worth {
  double life = 0;
  double board = 0;
};

}  // namespace

double evaluate(const catalogue&, const seat_view& v, int seat) {
  const int n = static_cast<int>(v.seats.size());
  if (seat < 0 || seat >= n) return 0;
  if (v.current_phase == phase::game_over) return (v.winners >> seat) & 1 ? 1.0 : -1.0;
  seat_worth w[max_seats];
  for (int s = 0; s < n; ++s) w[s].life = life_of(v.seats[s]);
  for (const line_view& l : v.lines)
    for (const side_view& sv : l.sides) {
      if (sv.seat < 0 || sv.seat >= n) continue;
      for (const creature_view& c : sv.creatures) w[sv.seat].board += c.av + 1.0 * (c.hp - c.damage);
    }
  // Mine (with my teammate's in 2v2, R11.6) against the others' on average.
  const bool teams = v.mode == game_mode::two_vs_two;
  double mine = 0, theirs = 0;
  int mine_n = 0, theirs_n = 0;
  for (int s = 0; s < n; ++s) {
    const double x = 4.0 * w[s].life + w[s].board;
    if (s == seat || (teams && s % 2 == seat % 2)) {
      mine += x;
      ++mine_n;
    } else {
      theirs += x;
      ++theirs_n;
    }
  }
  const double diff = mine / mine_n - theirs / theirs_n;
  return diff / (std::abs(diff) + 20.0);
}

}  // namespace cod::search
