// R17.25 the stall guard: without R9, exhaustion (R9.2, R9.3) begins at the
// first player's 40th turn (match_config::stall_exhaustion_turn; 0 = never),
// in every mode. Games where every player only ends their turns: nothing but
// exhaustion can end them.
#include <vector>

#include "fixtures.hpp"

using namespace cod;
using cod::test::shipped;

namespace {

struct stalled_game {
  bool over = false;
  int round = 0;            // the round the game ended in (or was stopped at)
  int first_removal = 0;    // the round of the first card_removed event (0: none)
  int removed = 0;          // card_removed events
  std::uint8_t winners = 0;
  seat_t loser = no_seat;
  end_reason reason = end_reason::none;
};

// Every seat only ends its turn, until the game ends or `max_rounds` rounds.
stalled_game only_end_turns(const match_config& cfg, int max_rounds) {
  match m;
  std::vector<event> ev;
  REQUIRE(match::create(shipped(), cfg, m, ev) == rule_error::ok);
  stalled_game g;
  while (!m.over() && m.view(referee).round <= max_rounds) {
    ev.clear();
    REQUIRE(m.apply({action_type::end_turn, m.active_seat()}, ev) == rule_error::ok);
    for (const event& e : ev)
      if (e.type == event_type::card_removed) {
        ++g.removed;
        if (g.first_removal == 0) g.first_removal = m.view(referee).round;
      }
  }
  const seat_view v = m.view(referee);
  g.over = m.over();
  g.round = v.round;
  g.winners = v.winners;
  g.loser = v.loser;
  g.reason = v.reason;
  CHECK(m.check_invariants() == "");
  return g;
}

match_config four_players(game_mode mode) {
  match_config cfg;
  cfg.mode = mode;
  cfg.seat_count = 4;
  cfg.seed = 3;
  for (int s = 0; s < 4; ++s) cfg.decks[s] = shipped().preconstructed_deck(s + 1);
  cfg.first_seat = 0;
  return cfg;
}

}  // namespace

TEST_CASE("R17.25 the default: a match without R9 starts exhaustion at the first player's 40th turn") {
  CHECK(match_config{}.stall_exhaustion_turn == 40);
  CHECK(position_setup{}.stall_exhaustion_turn == 40);
}

TEST_CASE("R17.25 a duel where both players only end their turns ends under exhaustion after turn 40") {
  match_config cfg = test::precon_config(1, 2, 5);
  cfg.first_seat = 0;
  const stalled_game g = only_end_turns(cfg, 200);
  REQUIRE(g.over);
  // Nothing leaves a hand before the first player's 40th turn; from then on
  // each player loses its rightmost card at the start of each turn (R9.2):
  // the first player's 8 cards (R1.2) are gone at its 47th turn, the
  // Stronghold is alone (R4.6) and the other player wins (R10, R4.6).
  CHECK(g.first_removal == 40);
  CHECK(g.round == 47);
  CHECK(g.removed == 8 + 7);
  CHECK(g.reason == end_reason::stronghold_alone);
  CHECK(g.loser == 0);
  CHECK(winner_seats(g.winners) == std::vector<int>{1});
}

TEST_CASE("R17.25 the room's own turn: 12 starts exhaustion at the first player's 12th turn") {
  match_config cfg = test::precon_config(3, 4, 9);
  cfg.first_seat = 1;
  cfg.stall_exhaustion_turn = 12;
  const stalled_game g = only_end_turns(cfg, 200);
  REQUIRE(g.over);
  CHECK(g.first_removal == 12);
  CHECK(g.round == 19);
  CHECK(g.loser == 1);  // the first player is exhausted first
  CHECK(winner_seats(g.winners) == std::vector<int>{0});
}

TEST_CASE("R17.25 0 means never: the game goes far past turn 40 with no exhaustion") {
  match_config cfg = test::precon_config(1, 2, 5);
  cfg.first_seat = 0;
  cfg.stall_exhaustion_turn = 0;
  const stalled_game g = only_end_turns(cfg, 200);
  CHECK_FALSE(g.over);
  CHECK(g.round == 201);
  CHECK(g.removed == 0);
}

TEST_CASE("R17.25 with R9 on, R9.2's own turn 8 applies, whatever the stall turn") {
  for (const int stall : {0, 8, 40, 1000}) {
    CAPTURE(stall);
    match_config cfg = test::precon_config(1, 2, 5, true);
    cfg.first_seat = 0;
    cfg.stall_exhaustion_turn = stall;
    const stalled_game g = only_end_turns(cfg, 200);
    REQUIRE(g.over);
    CHECK(g.first_removal == 8);
    CHECK(g.round == 15);
    CHECK(g.loser == 0);
  }
}

TEST_CASE("R17.25 in every mode: free-for-all and 2v2 stalls end under exhaustion after turn 40 (R11.4)") {
  {
    const stalled_game g = only_end_turns(four_players(game_mode::ffa), 200);
    REQUIRE(g.over);
    CHECK(g.first_removal == 40);
    CHECK(g.round == 47);
    CHECK(g.loser == 0);
    // R11.4: a loss by the player's own exhaustion: every other player wins jointly.
    CHECK(winner_seats(g.winners) == std::vector<int>{1, 2, 3});
  }
  {
    const stalled_game g = only_end_turns(four_players(game_mode::two_vs_two), 200);
    REQUIRE(g.over);
    CHECK(g.first_removal == 40);
    CHECK(g.round == 47);
    CHECK(g.loser == 0);
    CHECK(winner_seats(g.winners) == std::vector<int>{1, 3});  // R11.4, R11.6: the other team
  }
  {
    match_config cfg = four_players(game_mode::ffa);
    cfg.stall_exhaustion_turn = 0;
    const stalled_game g = only_end_turns(cfg, 100);
    CHECK_FALSE(g.over);
    CHECK(g.removed == 0);
  }
}

TEST_CASE("R17.25 a stall turn out of range is refused as bad_setup") {
  match m;
  std::vector<event> ev;
  match_config cfg = test::precon_config(1, 2, 5);
  cfg.stall_exhaustion_turn = -1;
  CHECK(match::create(shipped(), cfg, m, ev) == rule_error::bad_setup);
  cfg.stall_exhaustion_turn = max_stall_exhaustion_turn + 1;
  CHECK(match::create(shipped(), cfg, m, ev) == rule_error::bad_setup);
  position_setup p;
  p.seats.resize(2);
  p.seats[0].hand = {test::id("brute")};
  p.seats[1].hand = {test::id("troll")};
  REQUIRE(match::from_position(shipped(), p, m) == rule_error::ok);
  p.stall_exhaustion_turn = -1;
  CHECK(match::from_position(shipped(), p, m) == rule_error::bad_setup);
}

TEST_CASE("R17.25 the stall turn shows in the digest from the turn it acts, not before") {
  // The digest hashes the state, not the setting: games that never reach the
  // stall turn keep the digests they had before R17.25, and a replay with
  // the wrong setting diverges at the action that starts the first
  // player's stall turn (the first card removed).
  match_config cfg = test::precon_config(2, 3, 17);
  cfg.first_seat = 1;
  match with, without;
  std::vector<event> ev;
  cfg.stall_exhaustion_turn = 40;
  REQUIRE(match::create(shipped(), cfg, with, ev) == rule_error::ok);
  cfg.stall_exhaustion_turn = 0;
  REQUIRE(match::create(shipped(), cfg, without, ev) == rule_error::ok);
  int first_difference = -1;
  for (int n = 0; n < 100 && first_difference < 0; ++n) {
    CHECK(with.digest() == without.digest());
    REQUIRE(with.apply({action_type::end_turn, with.active_seat()}, ev) == rule_error::ok);
    REQUIRE(without.apply({action_type::end_turn, without.active_seat()}, ev) == rule_error::ok);
    if (with.digest() != without.digest()) first_difference = n;
  }
  // Action n ends turn n + 1 and starts turn n + 2; the first player's 40th
  // turn is turn 2 * 39 + 1 = 79.
  CHECK(first_difference == 77);
  CHECK(with.view(referee).round == 40);
  CHECK(with.view(referee).exhausted);
  CHECK_FALSE(without.view(referee).exhausted);
}
