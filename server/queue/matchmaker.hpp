// cod_queue: the matchmaking queue as a value (docs/queue.md). Tickets go in,
// waves (pass) take matches out; no network, no store, no clock, no
// randomness: the caller passes the time in milliseconds, and the same
// tickets and times always give the same matches.
//
//   matchmaker q;                        // queue_params{} : the tuned numbers
//   q.add(t);                            // a `queue` message
//   q.remove(id); q.remove_account(a);   // `unqueue`, a disconnect
//   if (now >= q.next_wave_due(last)) { auto r = q.pass(now); last = now; ... }
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string_view>
#include <vector>

#include "queue/ticket.hpp"
#include "queue/window.hpp"

namespace cod::queue {

struct queue_params {
  window_params duel{50, 10, 600};          // tuned: docs/queue.md, "Numbers"
  window_params four_players{50, 5, 800};    // a table's spread, free-for-all and 2v2
  wave_policy waves;
  // Last opponents are never paired again until both tickets have waited
  // this long: two players alone in a quiet pool still get a game.
  std::int64_t rematch_after_ms = 60'000;
};

enum class add_error {
  none,
  duplicate_ticket,  // a ticket with this id is queued
  already_queued,    // one of its players has a ticket in this pool already
  bad_party,         // no member, a party outside 2v2, more than two, or one player twice
};
std::string_view to_string(add_error e);

class matchmaker {
 public:
  explicit matchmaker(queue_params p = {});

  add_error add(ticket t);
  // Withdraws one ticket; false when it is not queued.
  bool remove(std::int64_t ticket_id);
  // Withdraws every ticket naming the account (a disconnect), ascending ids.
  std::vector<std::int64_t> remove_account(std::int64_t account);

  // One wave over every pool at now_ms: the matches made (their tickets
  // leave the queue), and the other tickets of the seated players, withdrawn.
  // A player is seated at most once a wave. Pools are matched oldest ticket
  // first, so a player queued in several pools lands where they waited
  // longest.
  wave_result pass(std::int64_t now_ms);

  std::int64_t next_wave_due(std::int64_t last_wave_ms) const;

  std::size_t size() const { return pool_of_.size(); }
  std::size_t size(const pool_key& pool) const;
  std::size_t largest_pool() const;
  const ticket* find(std::int64_t ticket_id) const;
  const queue_params& params() const { return params_; }

 private:
  void erase(std::int64_t ticket_id);

  queue_params params_;
  std::map<pool_key, std::map<std::int64_t, ticket>> pools_;       // ordered: deterministic waves
  std::map<std::int64_t, pool_key> pool_of_;                       // ticket id -> its pool
  std::map<std::int64_t, std::vector<std::int64_t>> tickets_of_;   // account -> its ticket ids
};

}  // namespace cod::queue
