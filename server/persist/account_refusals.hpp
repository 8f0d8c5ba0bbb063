// Internal: what every account_store (account_store.hpp) refuses, and in
// which words, so that the three stores answer alike; and the ASCII case
// folding by which names compare (the memory store's; SQLite's NOCASE and
// PostgreSQL's lower() on ASCII names).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "common/status.hpp"
#include "common/strcat.hpp"

namespace cod::server::detail {

inline status name_taken(const std::string& name) { return status::conflict(cat("the name ", name, " is taken")); }

inline status no_account(std::int64_t account_id) { return status::not_found(cat("no account ", account_id)); }

inline status session_taken(const std::string& session_id) {
  return status::conflict(cat("session ", session_id, " exists already (its id or its token's hash)"));
}

inline status no_session(std::int64_t account_id, const std::string& session_id) {
  return status::not_found(cat("account ", account_id, " has no session ", session_id));
}


}  // namespace cod::server::detail
