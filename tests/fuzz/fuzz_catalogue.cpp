// Fuzz target: the catalogue loader (protocol/catalogue_json.hpp), what reads
// the shipped catalogue, a --catalogue file and a scenario's inline cards.
// Checks: load_catalogue_json never throws or crashes, whatever the document;
// it is all or nothing (a refused document leaves the catalogue as it was);
// a loaded catalogue serialises (catalogue_to_json) and loads again to the
// same cards.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include <nlohmann/json.hpp>

#include "cod/protocol/card_json.hpp"
#include "cod/protocol/catalogue_json.hpp"
#include "fuzz_common.hpp"

namespace proto = cod::protocol;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  cod::catalogue cat;
  if (proto::load_catalogue_json(text, cat)) {
    cod::fuzz::check(cat.size() == 0, "a refused catalogue left cards behind");
    return 0;
  }
  const auto j = proto::catalogue_to_json(cat);
  cod::catalogue again;
  cod::fuzz::check(!proto::load_catalogue_json(j.dump(), again), "a loaded catalogue does not load again");
  cod::fuzz::check(again.size() == cat.size() && proto::catalogue_to_json(again) == j,
                   "a loaded catalogue does not round-trip");
  return 0;
}
