// Every room of the server, by id. Thread-safe (a mutex around the map; the
// rooms themselves run on their own executors).
#pragma once

#include <atomic>
#include <cstddef>
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

  // A new waiting room with a fresh seed, or null when max_rooms are open.
  // `reserved`: a tournament room's seats (room::params::reserved).
  std::shared_ptr<room> create(game_mode mode, protocol::deck_format format, const protocol::room_options& options,
                               std::vector<std::string> reserved = {});
  // A drafted format's pool (R14.8): bad_field_value naming options.packs
  // (or format) when the engine refuses it; nullopt otherwise.
  std::optional<protocol::protocol_error> check_pool(game_mode mode, protocol::deck_format format,
                                                     const protocol::room_options& options) const;
  std::shared_ptr<room> find(std::string_view id) const;
  std::vector<protocol::room_summary> list() const;
  std::size_t size() const;
  void remove(const std::string& id);

  // Start-up: rebuilds a room for each unfinished match (its log replayed);
  // a match that does not replay is finished in the store as
  // "recovery_failed". A finished match gets a finished room (its result
  // for resumes; room::recover) when the game ended it, else none.
  // Returns the number of rooms recovered.
  std::size_t recover(const std::vector<stored_match>& matches);

  // Server stopping: no room concedes anyone or expires from now on.
  void shutdown();

 private:
  room_services& svc_;
  executor_factory make_executor_;
  mutable std::mutex mutex_;
  std::unordered_map<std::string, std::shared_ptr<room>> rooms_;
  bool stopping_ = false;
};

}  // namespace cod::server
