// The sums of an arena run, in game order (so that they never depend on the
// thread count), and the report printed from them (docs/ai-arena.md).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "arena/play.hpp"

namespace cod::arena {

struct tally {
  game_mode mode = game_mode::duel;
  long games = 0, wins = 0, losses = 0, draws = 0, cut = 0;
  double score = 0;                // A's shares summed
  long long actions = 0;
  std::uint64_t checksum = 0;      // of the final digests, in game order
  std::vector<float> ms[2];        // every decision's time: A's, B's
  double cpu_ms[2] = {};           // their CPU time summed
  double pairs[5] = {};            // duel: pairs by their score 0, 1/2, 1, 3/2, 2 (pentanomial)
  std::map<double, double> groups; // four-player: groups by their mean score

  // One group (a pair, or four games) of consecutive games.
  void add_group(const std::vector<game_record>& records, std::size_t first, int size);
  // The SPRT's LLR for mean scores s0 against s1 (stats.hpp).
  double llr(double s0, double s1) const;
};

struct report_header {
  std::string a, b;        // the players as given
  std::string setting;     // mode, decks, Champions...
  int group_size = 2;
  int max_actions = 0;
  int time_ms = 0;
  int threads = 1;
  double wall_seconds = 0;
};

void print_report(const tally& t, const report_header& h);

}  // namespace cod::arena
