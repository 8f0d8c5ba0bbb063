// Standings against values computed by hand (docs/tournaments.md, "Standings").
#include "helpers.hpp"

using namespace cod;
using namespace cod::tournaments;
using namespace cod::tournaments::test;

namespace {

game won_by(player_id p) {
  game g;
  g.match_id = "m";
  g.decided = true;
  g.winner = p;
  return g;
}
game drawn() { return won_by(no_player); }

pairing pair_of(int table, player_id a, player_id b, std::vector<game> games) {
  pairing p;
  p.table = table;
  p.a = a;
  p.b = b;
  p.games = std::move(games);
  return p;
}

round swiss_round(int number, std::vector<pairing> ps) {
  round r;
  r.number = number;
  r.pairings = std::move(ps);
  return r;
}

std::vector<player> six_players() {
  std::vector<player> v;
  for (int i = 0; i < 6; ++i) {
    player p;
    p.name = std::string(1, static_cast<char>('A' + i));
    p.seed_order = i;
    v.push_back(p);
  }
  return v;
}

const standing& of(const std::vector<standing>& st, player_id p) {
  for (const standing& s : st)
    if (s.player == p) return s;
  FAIL("no standing");
  return st.front();
}

}  // namespace

// Six players A-F (ids 0-5), best of three, three rounds:
//   R1  A beats B 2-0    C beats D 2-1    E draws F (E, F, drawn game: 1-1-1)
//   R2  A beats C 2-1    E beats B 2-0    F beats D 2-0
//   R3  A beats E 2-1    C beats F 2-0    D beats B 2-1
//
// Match points (3 win, 1 draw) and MW% = MP / (3 x matches), floored at 1/3:
//   A 9 -> 9/9 = 1        B 0 -> 0, floored 1/3    C 6 -> 6/9 = 2/3
//   D 3 -> 3/9 = 1/3      E 4 -> 4/9               F 4 -> 4/9
// Game points (3 per game won, 1 per drawn game) and GW% = GP / (3 x games):
//   A won 6 lost 2        -> 18/24 = 3/4
//   B won 1 lost 6        ->  3/21 = 1/7, floored 1/3
//   C won 5 lost 3        -> 15/24 = 5/8
//   D won 3 lost 5        ->  9/24 = 3/8
//   E won 4 lost 3 drew 1 -> 13/24
//   F won 3 lost 3 drew 1 -> 10/21
// OMW% = mean of the opponents' MW%; OGW% = mean of their GW%:
//   A (B, C, E)  OMW (1/3 + 2/3 + 4/9)/3 = 13/27   OGW (1/3 + 5/8 + 13/24)/3 = 1/2
//   B (A, E, D)  OMW (1 + 4/9 + 1/3)/3   = 16/27   OGW (3/4 + 13/24 + 3/8)/3 = 5/9
//   C (D, A, F)  OMW (1/3 + 1 + 4/9)/3   = 16/27   OGW (3/8 + 3/4 + 10/21)/3 = 269/504
//   D (C, F, B)  OMW (2/3 + 4/9 + 1/3)/3 = 13/27   OGW (5/8 + 10/21 + 1/3)/3 = 241/504
//   E (F, B, A)  OMW (4/9 + 1/3 + 1)/3   = 16/27   OGW (10/21 + 1/3 + 3/4)/3 = 262/504
//   F (E, D, C)  OMW (4/9 + 1/3 + 2/3)/3 = 13/27   OGW (13/24 + 3/8 + 5/8)/3 = 37/72
// Order: A 9, C 6, then E and F on 4 where E's OMW 16/27 beats F's 13/27,
// then D 3, B 0.
TEST_CASE("standings: a three-round, six-player example computed by hand") {
  enum : player_id { A, B, C, D, E, F };
  std::vector<round> rounds;
  rounds.push_back(swiss_round(1, {pair_of(1, A, B, {won_by(A), won_by(A)}),
                                   pair_of(2, C, D, {won_by(C), won_by(D), won_by(C)}),
                                   pair_of(3, E, F, {won_by(E), won_by(F), drawn()})}));
  rounds.push_back(swiss_round(2, {pair_of(1, A, C, {won_by(C), won_by(A), won_by(A)}),
                                   pair_of(2, E, B, {won_by(E), won_by(E)}),
                                   pair_of(3, F, D, {won_by(F), won_by(F)})}));
  rounds.push_back(swiss_round(3, {pair_of(1, A, E, {won_by(A), won_by(E), won_by(A)}),
                                   pair_of(2, C, F, {won_by(C), won_by(C)}),
                                   pair_of(3, D, B, {won_by(B), won_by(D), won_by(D)})}));
  const tournament t = tournament::from_parts(make_config(3, 3), six_players(), rounds, {});
  REQUIRE(t.round_finished());
  CHECK(t.current_stage() == stage::finished);
  CHECK(t.score(t.rounds()[0].pairings[2], round_kind::swiss).winner == no_player);  // the drawn match

  const auto st = t.standings();
  std::vector<player_id> order;
  for (const standing& s : st) order.push_back(s.player);
  CHECK(order == std::vector<player_id>{A, C, E, F, D, B});
  for (std::size_t i = 0; i < st.size(); ++i) CHECK(st[i].rank == static_cast<int>(i) + 1);
  CHECK(t.champion() == A);

  struct expected {
    player_id p;
    int mp, w, l, d, gp, games;
    double mwp, gwp, omwp, ogwp;
  };
  const expected want[] = {
      {A, 9, 3, 0, 0, 18, 8, 1.0, 3.0 / 4, 13.0 / 27, 1.0 / 2},
      {B, 0, 0, 3, 0, 3, 7, 1.0 / 3, 1.0 / 3, 16.0 / 27, 5.0 / 9},
      {C, 6, 2, 1, 0, 15, 8, 2.0 / 3, 5.0 / 8, 16.0 / 27, 269.0 / 504},
      {D, 3, 1, 2, 0, 9, 8, 1.0 / 3, 3.0 / 8, 13.0 / 27, 241.0 / 504},
      {E, 4, 1, 1, 1, 13, 8, 4.0 / 9, 13.0 / 24, 16.0 / 27, 262.0 / 504},
      {F, 4, 1, 1, 1, 10, 7, 4.0 / 9, 10.0 / 21, 13.0 / 27, 37.0 / 72},
  };
  for (const expected& e : want) {
    CAPTURE(e.p);
    const standing& s = of(st, e.p);
    CHECK(s.match_points == e.mp);
    CHECK(s.wins == e.w);
    CHECK(s.losses == e.l);
    CHECK(s.draws == e.d);
    CHECK(s.byes == 0);
    CHECK(s.game_points == e.gp);
    CHECK(s.games == e.games);
    CHECK(s.mwp == doctest::Approx(e.mwp).epsilon(1e-12));
    CHECK(s.gwp == doctest::Approx(e.gwp).epsilon(1e-12));
    CHECK(s.omwp == doctest::Approx(e.omwp).epsilon(1e-12));
    CHECK(s.ogwp == doctest::Approx(e.ogwp).epsilon(1e-12));
  }
}

// Four players, best of three, two rounds: R1 W beats X 2-0, Y beats Z 2-1;
// R2 W beats Y 2-0, X beats Z 2-x. X and Y end on 3 points with the same
// opponents (W: MW 1; Z: MW 0 floored to 1/3), so OMW is 2/3 for both.
//   X beats Z 2-0: X's games 2 won 2 lost = 6/12 = 1/2, Y's 2 won 3 lost =
//     6/15 = 2/5: GW% puts X ahead although Y comes first in seed order.
//   X beats Z 2-1: both 6/15, and OGW% is equal (same opponents): the seed
//     order decides, either way round.
TEST_CASE("standings: GW% and then the seed order break ties") {
  enum : player_id { W, X, Y, Z };
  for (int z_games : {0, 1}) {
    for (int y_first : {0, 1}) {
      std::vector<match_record> recs = {{W, X, 2, 0, 0}, {Y, Z, 2, 1, 0}, {W, Y, 2, 0, 0}, {X, Z, 2, z_games, 0}};
      const std::vector<int> seed_order = y_first ? std::vector<int>{0, 2, 1, 3} : std::vector<int>{0, 1, 2, 3};
      const auto st = compute_standings(recs, seed_order, {false, false, false, false});
      CAPTURE(z_games);
      CAPTURE(y_first);
      REQUIRE(st.size() == 4);
      CHECK(st[0].player == W);
      CHECK(st[3].player == Z);
      CHECK(st[1].omwp == doctest::Approx(2.0 / 3));
      CHECK(st[2].omwp == doctest::Approx(2.0 / 3));
      const player_id second = z_games == 0 ? X : (y_first ? Y : X);
      CHECK(st[1].player == second);
    }
  }
}

// Eight players, equal on points, OMW% and GW%, different OGW%:
//   X beat P 2-0 and lost to S 0-2;  Y beat R 2-0 and lost to T 0-2.
//   P also beat Q 2-1: MW 1/2, GW 6/15 = 2/5.  R also beat U 2-0: MW 1/2, GW 6/12 = 1/2.
//   S, T: one match won 2-0: MW 1, GW 1.
//   X and Y: 3 points, OMW (1/2 + 1)/2 = 3/4, GW 6/12 = 1/2.
//   OGW: X (2/5 + 1)/2 = 7/10, Y (1/2 + 1)/2 = 3/4: Y ahead of X, although X
//   comes first in seed order.
TEST_CASE("standings: OGW% breaks a tie that MP, OMW% and GW% leave") {
  enum : player_id { X, Y, P, R, S, T, Q, U };
  const std::vector<match_record> recs = {{X, P, 2, 0, 0}, {S, X, 2, 0, 0}, {Y, R, 2, 0, 0}, {T, Y, 2, 0, 0},
                                          {P, Q, 2, 1, 0}, {R, U, 2, 0, 0}};
  const auto st = compute_standings(recs, {0, 1, 2, 3, 4, 5, 6, 7}, std::vector<bool>(8, false));
  int x_at = -1, y_at = -1;
  for (const standing& s : st) {
    if (s.player == X) {
      x_at = s.rank;
      CHECK(s.omwp == doctest::Approx(3.0 / 4));
      CHECK(s.gwp == doctest::Approx(1.0 / 2));
      CHECK(s.ogwp == doctest::Approx(7.0 / 10));
    }
    if (s.player == Y) {
      y_at = s.rank;
      CHECK(s.omwp == doctest::Approx(3.0 / 4));
      CHECK(s.gwp == doctest::Approx(1.0 / 2));
      CHECK(s.ogwp == doctest::Approx(3.0 / 4));
    }
  }
  CHECK(y_at < x_at);
}

// Three players, best of three, two rounds. Round 1 is one match and a bye.
// The bye counts as a 2-0 match win for its player (3 points, 2 games won:
// GW% 6/6 = 1), and is no opponent: OMW% and OGW% stay 0 with no real one.
TEST_CASE("standings: a bye is a 2-0 win (1-0 in best of one) and not an opponent") {
  for (int best_of : {1, 3}) {
    tournament t = make(3, make_config(2, best_of));
    REQUIRE(t.start_next_round("test", 0).ok());
    const pairing bye = t.rounds()[0].pairings.back();
    REQUIRE(bye.is_bye());
    play_round(t, a_wins());
    auto st = t.standings();
    const standing& s = of(st, bye.a);
    CHECK(s.match_points == 3);
    CHECK(s.wins == 1);
    CHECK(s.byes == 1);
    CHECK(s.games == (best_of == 3 ? 2 : 1));
    CHECK(s.game_points == 3 * s.games);
    CHECK(s.gwp == doctest::Approx(1.0));
    CHECK(s.omwp == 0);
    CHECK(s.ogwp == 0);

    // Round 2: the bye player meets someone; its OMW% is that one's MW% alone.
    REQUIRE(t.start_next_round("test", 0).ok());
    const auto& r2 = t.rounds()[1].pairings;
    player_id opponent = no_player;
    for (const pairing& p : r2)
      if (!p.is_bye() && (p.a == bye.a || p.b == bye.a)) opponent = p.a == bye.a ? p.b : p.a;
    REQUIRE(opponent != no_player);
    play_round(t, a_wins());
    st = t.standings();
    CHECK(of(st, bye.a).omwp == doctest::Approx(of(st, opponent).mwp));
    CHECK(of(st, bye.a).byes == 1);
  }
}

TEST_CASE("standings: unfinished matches do not count; dropped players keep their standing") {
  tournament t = make(4, make_config(2, 3));
  REQUIRE(t.start_next_round("test", 0).ok());
  const pairing p = t.rounds()[0].pairings[0];
  REQUIRE(t.attach_match(p.table, "g1").ok());
  REQUIRE(t.report_game("g1", p.a).ok());  // 1-0 in a best of three: not finished
  CHECK(of(t.standings(), p.a).match_points == 0);
  CHECK(of(t.standings(), p.a).games == 0);
  play_round(t, a_wins());
  CHECK(of(t.standings(), p.a).match_points == 3);
  REQUIRE(t.drop_player("org", 5, p.a, "left").ok());
  CHECK(of(t.standings(), p.a).match_points == 3);
  CHECK(of(t.standings(), p.a).dropped);
}
