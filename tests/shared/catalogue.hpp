// The shipped catalogue (COD_CATALOGUE_PATH), loaded once per test binary:
// one fixture for the engine, protocol, persistence, server and bot tests, which include
// it by its relative path ("../shared/catalogue.hpp").
#pragma once

#include <doctest/doctest.h>

#include <string>

#include "cod/engine/catalogue.hpp"
#include "cod/protocol/catalogue_json.hpp"

namespace cod::test {

inline const catalogue& shipped() {
  static const catalogue cat = [] {
    catalogue c;
    auto e = protocol::load_catalogue_file(COD_CATALOGUE_PATH, c);
    REQUIRE_MESSAGE(!e, "the shipped catalogue failed to load: " << (e ? e->to_string() : std::string()));
    return c;
  }();
  return cat;
}

}  // namespace cod::test
