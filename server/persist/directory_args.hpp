// Internal: the arguments every room_directory refuses alike (invalid), so
// the three stores answer the same.
#pragma once

#include <cstdint>
#include <exception>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "common/status.hpp"
#include "common/strcat.hpp"
#include "persist/room_directory.hpp"

namespace cod::server::detail {

inline status check_node(const std::string& node_id) {
  return node_id.empty() ? status::invalid("a lease needs a node_id") : status{};
}

inline status check_lease(const std::string& room_id, const std::string& node_id, std::int64_t lease_ms) {
  if (room_id.empty()) return status::invalid("a lease needs a room_id");
  if (lease_ms <= 0) return status::invalid(cat("a lease of ", lease_ms, " ms"));
  return check_node(node_id);
}

inline status check_request(const std::string& room_id, const std::string& node_id) {
  if (room_id.empty()) return status::invalid("a handover request needs a room_id");
  return check_node(node_id);
}

inline status check_listings(const std::string& node_id, const std::vector<room_listing>& rooms) {
  std::set<std::string> seen;
  for (const room_listing& r : rooms)
    if (r.room_id.empty() || !seen.insert(r.room_id).second)
      return status::invalid(cat("node ", node_id, " lists room '", r.room_id, "' twice, or without an id"));
  return check_node(node_id);
}

inline status not_held(const std::string& room_id, const std::string& node_id) {
  return status::conflict(cat("node ", node_id, " does not hold the lease of room ", room_id));
}

// load_room_match of the SQL directories: the directory finds the room's match,
// the reader loads it whole; a match that finished in between is none when
// finished matches are not asked for.
template <class Directory, class Reader>
result<std::optional<stored_match>> load_room_match_through(Directory& d, Reader& r, const std::string& room_id,
                                                    std::int64_t finished_since_ms) {
  const result<std::optional<std::string>> id = d.room_match_id(room_id, finished_since_ms);
  if (!id) return id.error();
  if (!*id) return std::optional<stored_match>{};
  result<std::optional<stored_match>> sm = r.load_match(**id);
  if (!sm) return status::io_error(cat("loading room ", room_id, "'s match ", **id, ": ", sm.error().message()));
  if (*sm && (*sm)->finished() && (*sm)->result->ended_ms < finished_since_ms) sm->reset();
  return sm;
}

}  // namespace cod::server::detail
