// The matching inside one pool, on plain candidates (docs/queue.md,
// "Pairing" and "Tables"). Internal to cod_queue: matchmaker.cpp builds the
// candidates of a pool and turns the groups into matches.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "queue/ticket.hpp"

namespace cod::queue::detail {

struct candidate {
  const ticket* t = nullptr;
  double rating = 0;        // ticket_rating(*t)
  double window = 0;        // the accepted gap after this ticket's wait
  std::int64_t waited_ms = 0;
  int players = 1;          // t->members.size()
};

struct pairing_rules {
  std::int64_t rematch_after_ms = 0;  // both waited this long: last opponents may meet again
};

// A rematch is refused while either ticket has waited less than
// rematch_after_ms: one of them met a member of the other in its last match.
bool rematch_blocked(const candidate& a, const candidate& b, const pairing_rules& r);

// Two tickets from one client address (never when the address is unknown).
bool same_address(const candidate& a, const candidate& b);

// The waiting tickets of a pool in rating order (ties: ticket id), as a
// doubly linked list: a matched ticket is unlinked, so the next search
// from any ticket meets only tickets still waiting.
struct rating_list {
  static constexpr std::size_t npos = static_cast<std::size_t>(-1);
  explicit rating_list(const std::vector<candidate>& c);
  std::size_t at(std::size_t k) const { return by_rating[k]; }   // the candidate at a position
  std::size_t left_of(std::size_t i) const { return prev[rank[i]]; }   // positions, npos at the ends
  std::size_t right_of(std::size_t i) const { return next[rank[i]]; }
  void unlink(std::size_t i);
  std::vector<std::size_t> by_rating, rank, prev, next;
};

// The candidates' indices, longest wait first (ties: ticket id): the order
// in which they pick.
std::vector<std::size_t> oldest_first(const std::vector<candidate>& c);

// The widest window of the pool: no group's spread can pass it.
double widest_window(const std::vector<candidate>& c);

// The pairs of a duel pool, as indices into c, each oldest ticket first.
std::vector<std::vector<std::size_t>> pair_duels(const std::vector<candidate>& c, const pairing_rules& r);

// The tables of a four-player pool: groups of tickets whose players sum to
// `seats` (parties count for two), as indices into c, oldest ticket first.
// two_teams: score the tables by their best team split too (2v2).
std::vector<std::vector<std::size_t>> form_tables(const std::vector<candidate>& c, const pairing_rules& r, int seats,
                                                  bool two_teams);

// The split of a 2v2 table's tickets into two teams of two players that
// balances the teams' rating sums best: team[i] is ticket i's team (0 or 1),
// the first ticket's team is 0, a party's two players stay together.
// Returns |sum(team 0) - sum(team 1)|.
double best_split(const std::vector<const ticket*>& tickets, std::vector<int>& team);

}  // namespace cod::queue::detail
