// Every room of the server, by id. Thread-safe (a mutex around the map; the
// rooms themselves run on their own executors).
//
// The lobby reads a snapshot of every room's summary, shared by all askers
// and rebuilt only after a room's summary changed (rooms tell the registry),
// so a busy lobby costs one page of JSON per request, not a walk of every
// room (a walk of 1,000 rooms made a 387 KB reply and took ~5 ms).
#pragma once

#include <atomic>
#include <cstddef>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "cod/protocol/messages.hpp"
#include "room/executor.hpp"
#include "room/room.hpp"

namespace cod::server {

class room_registry : public std::enable_shared_from_this<room_registry> {
 public:
  // `services` must outlive the registry and every room.
  room_registry(room_services& services, executor_factory make_executor);

  enum class refusal { none, full, address_busy, unavailable };
  // A new waiting room with a fresh seed, or null with the reason: `full`
  // when max_rooms rooms are not finished, `address_busy` when
  // `creator_address` already has max_waiting_rooms_per_address rooms
  // waiting for players and none of them is vacant (room::vacant: a vacant
  // one is closed to make place, so that people who closed their tabs in
  // waiting rooms can create again at once), `unavailable` when a cluster node cannot take the
  // new room's lease (room_services::claim_new_room: the store is down).
  // Finished rooms stay a while for their players but
  // hold no place: past max_rooms of them, the one that finished first is
  // closed to make room.
  // `reserved`: a tournament room's seats (room::params::reserved).
  // `cards`: the match's own card definitions (room::params::cards, R15).
  std::shared_ptr<room> create(game_mode mode, protocol::deck_format format, const protocol::room_options& options,
                               std::vector<std::string> reserved = {}, std::string creator_address = {},
                               refusal* why = nullptr, std::vector<card_def> cards = {});
  // The same from a room's whole parameters (id and, without `seed`, the
  // seed are drawn here): a league duel's fixed decks and seed (R15, E80).
  std::shared_ptr<room> create_with(room::params p, std::optional<std::uint64_t> seed, refusal* why = nullptr);
  // A drafted format's pool (R14.8): bad_field_value naming options.packs
  // (or format) when the engine refuses it; nullopt otherwise.
  std::optional<protocol::protocol_error> check_pool(game_mode mode, protocol::deck_format format,
                                                     const protocol::room_options& options) const;
  std::shared_ptr<room> find(std::string_view id) const;
  // One page of the rooms a list_rooms asks for.
  struct page {
    std::vector<protocol::room_summary> rooms;
    std::size_t total = 0;            // rooms matching the filters, on every page
    std::optional<std::string> next;  // "after" for the next page
  };
  page list(const protocol::list_rooms_msg& query) const;
  // A room's summary changed (room::publish_summary): the next list rebuilds.
  void summary_changed() { generation_.fetch_add(1, std::memory_order_relaxed); }
  // `r`'s status is now `status`, and whether it is vacant (room::vacant)
  // (room::publish_summary): keeps the counts create() checks. A room no
  // longer registered is ignored.
  void status_is(const room* r, protocol::room_status status, bool vacant = false);
  // A room whose place create() gave away but which did not close after all
  // (room::evict_vacant) is counted again.
  void count_again(const room& r);
  std::size_t size() const;
  // `r`'s match has ended (once per room): it may be evicted from now on.
  void finished(const std::shared_ptr<room>& r);
  // `r` leaves the registry (it closed); another room that has taken its id
  // since is left alone.
  void remove(const std::string& id, const room* r);

  // Start-up: rebuilds a room for each unfinished match (its log replayed);
  // a match that does not replay is finished in the store as
  // "recovery_failed". A finished match gets a finished room (its result
  // for resumes; room::recover) when the game ended it, else none.
  // At most max_rooms finished matches get a room (the newest). With a
  // node_id (a cluster on a shared store) only the matches of this node's
  // rooms (room ids "<node_id>-...") are taken; the others are left alone.
  // Returns the number of rooms recovered.
  std::size_t recover(std::vector<stored_match> matches);
  // A cluster node took over another node's room (its lease claimed): its
  // unfinished match is rebuilt as recover() does, whatever its room id's
  // prefix. The room, or null when the match does not replay (it is then
  // finished as "recovery_failed") or its id is taken here already.
  std::shared_ptr<room> adopt(stored_match match);
  // Every room's id and whether its match is finished, as they are now.
  std::vector<std::pair<std::string, bool>> room_states() const;
  // Every room's summary, in room id order (the lobby's snapshot).
  std::vector<protocol::room_summary> summaries() const;

  // Server stopping: no room concedes anyone or expires from now on.
  void shutdown();

 private:
  room_services& svc_;
  executor_factory make_executor_;
  mutable std::mutex mutex_;
  std::unordered_map<std::string, std::shared_ptr<room>> rooms_;
  bool stopping_ = false;
  // Rooms in the order their matches ended: the next to evict first.
  std::deque<std::weak_ptr<room>> finished_;
  // What create() checks, kept as rooms change (under mutex_) rather than
  // counted from every room's summary: a room is created for each match, so
  // a walk of every room there cost more than the match's moves at 1,000
  // rooms (perf: room_registry::snapshot ~8% of the server's CPU).
  struct counted {
    protocol::room_status status;
    std::string creator_address;
    std::string id;
    bool vacant = false;  // room::vacant(): create() may give its place away
  };
  std::unordered_map<const room*, counted> counted_;
  std::size_t unfinished_ = 0;
  std::unordered_map<std::string, std::size_t> waiting_by_address_;
  // recover() and adopt(), once the matches are chosen.
  std::size_t rebuild(const std::vector<stored_match>& matches);
  // Under mutex_: counts `r` in (or out of) the totals above.
  void count_in(const room& r, protocol::room_status status, bool vacant = false);
  void count_out(const room* r);
  void count(const counted& c, int delta);
  // Under mutex_: `address`'s oldest-listed vacant waiting room, counted out
  // (its place is the new room's), or null when it has none.
  std::shared_ptr<room> take_vacant_place(const std::string& address);

  struct listed {
    protocol::room_summary summary;
    std::string creator_address;
  };
  using snapshot_t = std::vector<listed>;  // in room id order
  // The snapshot, rebuilt first if a summary changed since it was taken.
  std::shared_ptr<const snapshot_t> snapshot() const;
  std::atomic<std::uint64_t> generation_{0};
  mutable std::mutex snapshot_mutex_;  // one rebuild at a time; taken before mutex_
  mutable std::shared_ptr<const snapshot_t> snapshot_;
  mutable std::uint64_t snapshot_generation_ = 0;
};

}  // namespace cod::server
