// Writes every match of a cod-server database as a seed of the stored-log
// fuzz target (stored_match_json.hpp): DIR/match-<match_id>.json, one line.
// scripts/fuzz-seeds records real games (cod-server and cod-bot) and runs it.
//
// usage: fuzz_seed_matches DB DIR   (exit 1 if the database cannot be read)
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "persist/sqlite/sqlite_store.hpp"
#include "stored_match_json.hpp"
#include "../shared/store_reads.hpp"

using cod::server::test::read_ok;

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s DB DIR\n", argv[0]);
    return 2;
  }
  auto opened = cod::server::sqlite_reader::open(argv[1]);
  if (!opened) {
    std::fprintf(stderr, "%s: %s\n", argv[1], opened.error().message().c_str());
    return 1;
  }
  auto reader = std::move(*opened);
  std::filesystem::create_directories(argv[2]);
  cod::server::match_query q;
  q.limit = 1000;
  int written = 0;
  for (const auto& summary : read_ok(reader->list_matches(q))) {
    const auto sm = read_ok(reader->load_match(summary.match_id));
    if (!sm) continue;
    std::ofstream(std::filesystem::path(argv[2]) / ("match-" + summary.match_id + ".json"))
        << cod::fuzz::stored_match_to_json(*sm).dump() << '\n';
    ++written;
  }
  std::printf("%d matches written to %s\n", written, argv[2]);
  return 0;
}
