// Scenario files: the rules' executable specification (docs/scenarios.md).
//
// A scenario sets up a position (or a match from decks), applies actions and
// asserts on errors, events and the resulting state. Files are JSON; one file
// holds one scenario object or {"scenarios": [...]}.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "cod/engine/catalogue.hpp"

namespace cod::scenario {

struct result {
  std::string file;
  std::string name;
  std::vector<std::string> rules;     // rule ids the scenario cites
  std::vector<std::string> failures;  // empty: passed
};

// Runs every scenario in `path` against `base` (plus the file's inline cards).
// Never throws: a malformed file is one failed result that says why.
std::vector<result> run_file(const std::string& path, const catalogue& base);

// The same on a file's text already read; `file` names it in the results
// (tests/fuzz feeds scenario documents this way, without files).
std::vector<result> run_text(std::string_view text, const std::string& file, const catalogue& base);

// Every *.json below `path` (or `path` itself), sorted.
std::vector<std::string> collect(const std::string& path);

}  // namespace cod::scenario
