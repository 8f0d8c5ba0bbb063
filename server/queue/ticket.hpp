// What the queue holds and what a wave hands back (docs/queue.md). Plain
// values: the caller (the server's queue service) builds the tickets from
// `queue` messages and the players' ratings, and turns each match into a room.
#pragma once

#include <compare>
#include <cstdint>
#include <string>
#include <vector>

namespace cod::queue {

enum class mode : std::uint8_t { duel, ffa, two_v_two };

// Seats at a table of the mode: 2 for a duel, 4 for free-for-all and 2v2.
constexpr int seats_of(mode m) { return m == mode::duel ? 2 : 4; }

// One pool: tickets are matched only with tickets of the same pool. The
// format is the caller's name for it ("preconstructed", "constructed"...):
// the queue compares it and nothing else.
struct pool_key {
  queue::mode mode = mode::duel;
  std::string format;
  bool rated = false;
  auto operator<=>(const pool_key&) const = default;
};

// A player on a ticket. The rating is on the duel ladder's scale (Glicko-2,
// 1500 for a new player); four-player pools take the OpenSkill rating brought
// to the same scale by the caller (docs/queue.md, "Ratings"), so one set of
// window numbers fits every pool. The deviation is informative only: the
// windows do not use it (a provisional player is matched like any other, as
// lichess does).
struct member {
  std::int64_t account = 0;
  double rating = 1500;
  double deviation = 0;  // 0: unknown
};

// One search: a player (or, in 2v2, two friends queueing as a party) in one
// pool. A player may hold tickets in several pools at once.
struct ticket {
  std::int64_t id = 0;
  pool_key pool;
  std::vector<member> members;        // one; two for a 2v2 party (always teammates)
  std::int64_t enqueued_ms = 0;       // the caller's clock; only differences matter
  std::string address;                // the client's address ("" : unknown, never a clash)
  std::vector<std::int64_t> last_opponents;  // accounts met in the members' last match
};

// A ticket's rating for ordering and spreads: its members' mean.
double ticket_rating(const ticket& t);

// One seat of a match, in seat order (seat i is seats[i]).
struct seat {
  std::int64_t ticket = 0;
  std::int64_t account = 0;
  int team = 0;  // duel and free-for-all: the seat's own index; 2v2: 0 (seats 0, 2) or 1 (seats 1, 3)
  double rating = 0;
  std::int64_t waited_ms = 0;  // the ticket's time in the queue (the server's time-to-match metric)
};

struct match {
  pool_key pool;
  std::vector<std::int64_t> tickets;  // the tickets seated, oldest first
  std::vector<seat> seats;
  double spread = 0;     // highest minus lowest ticket rating at the table (a duel: the gap)
  double imbalance = 0;  // 2v2: |team 0's rating sum - team 1's|; 0 otherwise
};

// What a wave did: the matches, and the other tickets of their players that
// were withdrawn because those players are now seated (the caller tells
// them they left those pools).
struct wave_result {
  std::vector<match> matches;
  std::vector<std::int64_t> dropped;  // ticket ids, ascending
};

}  // namespace cod::queue
