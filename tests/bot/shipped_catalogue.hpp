// The shipped catalogue, loaded once (as cod-load and cod-bot load it).
#pragma once

#include <stdexcept>

#include "cod/engine/catalogue.hpp"
#include "cod/protocol/catalogue_json.hpp"

namespace cod::bot_test {

inline const catalogue& shipped_catalogue() {
  static const catalogue cat = [] {
    catalogue c;
    if (auto e = protocol::load_catalogue_file(COD_CATALOGUE_PATH, c)) throw std::runtime_error(e->to_string());
    return c;
  }();
  return cat;
}

}  // namespace cod::bot_test
