// A tournament of nine through every kind of step, as the stores see it:
// created, Swiss rounds with a re-pair, a drop, a game loss, a game in
// progress, a drawn game, then the top cut to the end. Each snapshot is a
// stored_tournament "t1" (a clock, no exhaustion, server options set).
#pragma once

#include <vector>

#include "../tournament/helpers.hpp"
#include "persist/records.hpp"

namespace cod::server::test {

inline std::vector<stored_tournament> tournament_steps() {
  namespace tn = cod::tournaments;
  using namespace cod::tournaments::test;
  tn::config c = make_config(3, 3, 4, 1234567890123456789ULL);
  c.clock = tn::clock_settings{60000, 2000};
  c.exhaustion = false;
  tn::tournament t = make(9, c);
  cod::rng h(3);
  std::vector<stored_tournament> out;
  const auto snap = [&] { out.push_back({"t1", t, {3, true}, 111}); };
  snap();
  for (int step = 0; t.current_stage() != tn::stage::finished; ++step) {
    REQUIRE(t.start_next_round("server", step).ok());
    if (step == 0) REQUIRE(t.repair_round("org", step, "again, it's 'fair'").ok());
    if (step == 1) REQUIRE(t.drop_player("org", step, t.rounds().back().pairings[0].a, "left").ok());
    if (step == 2) {
      const tn::pairing& p = t.rounds().back().pairings[0];
      REQUIRE(t.give_game_loss("judge", step, p.b, "late").ok());
      REQUIRE(t.attach_match(p.table, "running").ok());
      snap();
      REQUIRE(t.report_game("running", tn::no_player).ok());  // a drawn game
    }
    play_round(t, random_results(h, 5));
    snap();
  }
  REQUIRE(t.rounds().size() == 5);  // 3 Swiss + semi-finals + final
  return out;
}

}  // namespace cod::server::test
