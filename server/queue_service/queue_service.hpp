// The matchmaking queue as the server runs it (docs/queue.md, docs/protocol.md
// "The queue"): `queue` and `unqueue` from signed-in connections become
// tickets of the matchmaker (server/queue, pure), waves run on the queue's
// own serial executor, and each match found becomes a room whose seats are
// taken for its players at once (`matched`, then `joined`, then `state`
// when every player is there).
//
// Threading: every public call is thread-safe and returns at once; the
// work runs on the queue's executor, which alone touches the tickets.
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <optional>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "cod/engine/catalogue.hpp"
#include "cod/protocol/client_messages.hpp"
#include "common/environment.hpp"
#include "queue/matchmaker.hpp"
#include "queue/parties.hpp"
#include "room/client_session.hpp"
#include "room/executor.hpp"
#include "room/room_registry.hpp"

namespace cod::server {

struct queue_services {
  std::shared_ptr<room_registry> rooms;
  std::shared_ptr<serial_executor> ex;  // the queue's own
  const catalogue* cat = nullptr;
  environment* env = nullptr;  // the seats' tokens
  // The account's rating on the pool's ladder, on the duel scale
  // (docs/queue.md, "Ratings"): `done` may run on any thread. Null: every
  // player counts as 1500.
  std::function<void(std::int64_t account, queue::mode m, std::function<void(double)> done)> rating_of;
  // How many tickets the queue holds at most (config queue_max_tickets).
  std::size_t max_tickets = 10000;
  // How often the queue looks whether a wave is due.
  std::chrono::milliseconds tick{250};
  // How long a player's last opponents are remembered (no immediate rematch).
  std::int64_t remember_opponents_ms = 3'600'000;
};

class queue_service : public std::enable_shared_from_this<queue_service> {
 public:
  explicit queue_service(queue_services s, queue::queue_params p = {});

  // Starts the waves. Call once.
  void start();
  // Withdraws every ticket (unqueued, "shutting_down") and stops the waves.
  void stop();

  // A `queue` from a signed-in connection that holds no room (client_session
  // checked both): `queued` or an error goes back to `who`.
  void enqueue(std::shared_ptr<client_session> who, protocol::queue_msg m);
  void unqueue(std::shared_ptr<client_session> who, protocol::unqueue_msg m);
  // The connection closed (reason "": nothing is sent) or entered a room
  // ("entered_room"): its tickets go.
  void leave(std::uint64_t conn, std::string reason);

  // Tests and metrics: tickets waiting, matches made. Thread-safe.
  std::size_t waiting() const { return waiting_.load(); }
  std::uint64_t matches_made() const { return matches_.load(); }

 private:
  struct entry {
    std::weak_ptr<client_session> who;
    std::uint64_t conn = 0;
    std::string name;
    protocol::queue_msg msg;
    queue::ticket ticket;
  };

  void add(std::shared_ptr<client_session> who, protocol::queue_msg m, double rating);
  void tick();
  void schedule_tick();
  void seat(const queue::match& m, const queue::party_plan& plan);
  void forget(std::int64_t ticket);
  void count();

  queue_services s_;
  queue::queue_params params_;
  // The waiting searches of each pool (when a wave is due, `searching`).
  std::map<queue::pool_key, std::size_t> pool_sizes_;
  std::map<std::int64_t, entry> entries_;
  std::map<std::uint64_t, std::vector<std::int64_t>> by_conn_;
  // account -> the accounts of its last match, and when it was made. Kept
  // an hour (remember_opponents_ms): a rematch after that is not "immediate",
  // and the map stays as small as the last hour's players.
  struct met {
    std::vector<std::int64_t> accounts;
    std::int64_t at_ms = 0;
  };
  std::map<std::int64_t, met> last_opponents_;
  std::int64_t last_prune_ms_ = 0;
  std::int64_t next_ticket_ = 1;
  std::int64_t last_wave_ms_ = 0;
  bool stopped_ = false;
  std::atomic<std::size_t> waiting_{0};
  std::atomic<std::uint64_t> matches_{0};
};

// The queue's pool of a `queue` message, or the field it refuses ("mode":
// solo and co-op are not queued; "format": drafted formats are not yet).
std::optional<protocol::protocol_error> queue_pool_problem(const protocol::queue_msg& m);
queue::pool_key pool_of(const protocol::queue_msg& m);
// The checks of a `queue` (its pool, its partner, its deck), then its
// player's rating read (queue_services::rating_of): `then` gets them, on
// any thread. A refusal goes to `who` and `then` is never called.
void read_rating_then(const queue_services& s, std::shared_ptr<client_session> who, protocol::queue_msg m,
                      std::function<void(std::shared_ptr<client_session>, protocol::queue_msg, double)> then);
// A `queue` naming its own player as partner: bad_field_value.
std::optional<protocol::protocol_error> partner_problem(const protocol::queue_msg& m, const std::string& own_name);

}  // namespace cod::server
