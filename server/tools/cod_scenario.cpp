// cod-scenario FILE|DIR...: runs scenario files (docs/scenarios.md), prints one
// line per failure and a final "N passed, N failed" line. Exit 1 on any failure.
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "cod/protocol/catalogue_json.hpp"
#include "scenario/scenario.hpp"

#ifndef COD_DEFAULT_CATALOGUE
#define COD_DEFAULT_CATALOGUE "config/cards/catalogue.json"
#endif

int main(int argc, char** argv) {
  std::string catalogue_path = COD_DEFAULT_CATALOGUE;
  std::vector<std::string> paths;
  bool verbose = false;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--catalogue") && i + 1 < argc) {
      catalogue_path = argv[++i];
    } else if (!std::strcmp(argv[i], "-v") || !std::strcmp(argv[i], "--verbose")) {
      verbose = true;
    } else if (!std::strcmp(argv[i], "--help") || !std::strcmp(argv[i], "-h")) {
      std::printf("usage: cod-scenario [--catalogue PATH] [-v] FILE|DIR...\n"
                  "Runs scenario files; prints each failure and a final 'N passed, N failed'.\n");
      return 0;
    } else {
      paths.emplace_back(argv[i]);
    }
  }
  if (paths.empty()) {
    std::fprintf(stderr, "cod-scenario: no scenario file or directory given (--help)\n");
    return 2;
  }
  cod::catalogue cat;
  if (auto e = cod::protocol::load_catalogue_file(catalogue_path, cat)) {
    std::fprintf(stderr, "cod-scenario: catalogue %s: %s\n", catalogue_path.c_str(), e->to_string().c_str());
    return 2;
  }
  int passed = 0, failed = 0;
  for (const std::string& p : paths)
    for (const std::string& file : cod::scenario::collect(p))
      for (const auto& r : cod::scenario::run_file(file, cat)) {
        if (r.failures.empty()) {
          ++passed;
          if (verbose) std::printf("ok   %s: %s\n", r.file.c_str(), r.name.c_str());
        } else {
          ++failed;
          for (const auto& f : r.failures)
            std::printf("FAIL %s: %s: %s\n", r.file.c_str(), r.name.c_str(), f.c_str());
        }
      }
  std::printf("%d passed, %d failed\n", passed, failed);
  return failed == 0 && passed > 0 ? 0 : 1;
}
