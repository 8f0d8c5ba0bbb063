// What the fuzz targets share: the shipped catalogue, loaded once, and the
// check that stops a run. (tests/shared/catalogue.hpp is the doctest
// fixture; a fuzz target has no doctest to report through.)
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "cod/engine/catalogue.hpp"
#include "cod/protocol/catalogue_json.hpp"

namespace cod::fuzz {

// A broken property: print it and abort, which libFuzzer reports as a crash
// (and saves the input) and the replay main turns into a failed test.
[[noreturn]] inline void fail(std::string_view what) {
  std::fprintf(stderr, "fuzz check failed: %.*s\n", static_cast<int>(what.size()), what.data());
  std::abort();
}

inline void check(bool ok, std::string_view what) {
  if (!ok) fail(what);
}

inline const catalogue& shipped() {
  static const catalogue cat = [] {
    catalogue c;
    if (auto e = protocol::load_catalogue_file(COD_CATALOGUE_PATH, c)) fail("the shipped catalogue failed to load");
    return c;
  }();
  return cat;
}

}  // namespace cod::fuzz
