// Tickets for the queue's tests, built in one line each.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "queue/matchmaker.hpp"

namespace queue_test {

using namespace cod::queue;

inline const pool_key duel_pool{mode::duel, "preconstructed", true};
inline const pool_key ffa_pool{mode::ffa, "preconstructed", true};
inline const pool_key team_pool{mode::two_v_two, "preconstructed", true};

// Ticket `id` of account `id` (unless the members say otherwise), from its own address.
inline ticket solo(std::int64_t id, double rating, std::int64_t at_ms = 0, const pool_key& pool = duel_pool) {
  ticket t;
  t.id = id;
  t.pool = pool;
  t.members = {{id, rating, 0}};
  t.enqueued_ms = at_ms;
  t.address = "10.0.0." + std::to_string(id);
  return t;
}

inline ticket party(std::int64_t id, std::int64_t a, double ra, std::int64_t b, double rb, std::int64_t at_ms = 0) {
  ticket t = solo(id, 0, at_ms, team_pool);
  t.members = {{a, ra, 0}, {b, rb, 0}};
  return t;
}

// The ticket ids of each match, in the order the wave gives them.
inline std::vector<std::vector<std::int64_t>> groups(const wave_result& r) {
  std::vector<std::vector<std::int64_t>> g;
  for (const match& m : r.matches) g.push_back(m.tickets);
  return g;
}

}  // namespace queue_test
