// Internal to the PostgreSQL store: its account_store (account_store.hpp) on
// a connection of its own (application name cod-store-accounts), as
// pg_directory has, so a login never waits behind the writer's queue.
// Thread-safe (one connection behind a mutex); a lost connection fails that
// call (io_error) and is opened again for the next one. Every node of a
// cluster sees the same accounts and sessions: the database's unique
// indexes, not this process, keep names and tokens unique.
#pragma once

#include <memory>
#include <string>

#include "persist/account_store.hpp"

namespace cod::server::detail {

// Connects. Throws persist_error (the password never shown).
std::unique_ptr<account_store> open_pg_accounts(std::string uri);

}  // namespace cod::server::detail
