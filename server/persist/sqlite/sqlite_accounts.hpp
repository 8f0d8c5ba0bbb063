// Internal to the SQLite store: its account_store (account_store.hpp) on a
// read-write connection of its own, as sqlite_directory has, so that a
// login never waits behind the writer thread's queue (only, briefly, behind
// its transaction: busy_timeout). Every call runs under one mutex; a write
// that reads first (add_session: is there such an account; use_session: is
// the session idle too long) does both in one BEGIN IMMEDIATE transaction.
#pragma once

#include <memory>
#include <string>

#include "persist/account_store.hpp"

namespace cod::server::detail {

// Opens its connection on a migrated database. Throws persist_error.
std::unique_ptr<account_store> open_sqlite_accounts(const std::string& path, int busy_timeout_ms);

}  // namespace cod::server::detail
