// The store's reads as the tests use them: the store hands out its reader
// (match_store::reader()), whose reads return result<T>; a test that reads
// what it has just queued flushes first. A read that fails throws (the
// test fails, saying why).
#pragma once

#include <stdexcept>
#include <vector>

#include "persist/match_store.hpp"

namespace cod::server::test {

template <class T>
T read_ok(result<T> r) {
  if (!r) throw std::runtime_error("the store could not be read: " + r.error().message());
  return std::move(*r);
}

// Every stored tournament, after every write queued before.
inline std::vector<stored_tournament> read_tournaments(match_store& s) {
  s.flush();
  return read_ok(s.reader().load_tournaments());
}

// Every stored league, after every write queued before.
inline std::vector<stored_league> read_leagues(match_store& s) {
  s.flush();
  return read_ok(s.reader().load_leagues());
}

}  // namespace cod::server::test
