// Fuzz target: the scenario loader (server/tools/scenario), which reads rule
// scenario files (docs/scenarios.md): a position or decks, actions, expected
// events and state, inline cards. Checks: run_text never throws or crashes,
// whatever the document: "never throws: a malformed file is one failed
// result that says why" (scenario.hpp), and every result names its file.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz_common.hpp"
#include "scenario/scenario.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  for (const auto& r : cod::scenario::run_text(text, "fuzz.json", cod::fuzz::shipped()))
    cod::fuzz::check(r.file == "fuzz.json", "a scenario result without its file");
  return 0;
}
