// The single-elimination top cut: seeding from the standings, the bracket,
// advancing, byes for missing or dropped players, draws played on.
#include "helpers.hpp"

using namespace cod;
using namespace cod::tournaments;
using namespace cod::tournaments::test;

namespace {

std::vector<player_id> ranking(const tournament& t, bool skip_dropped = true) {
  std::vector<player_id> v;
  for (const standing& s : t.standings())
    if (!skip_dropped || !s.dropped) v.push_back(s.player);
  return v;
}

using pp = std::pair<player_id, player_id>;
std::vector<pp> pairs_of(const round& r) {
  std::vector<pp> v;
  for (const pairing& p : r.pairings) v.emplace_back(p.a, p.b);
  return v;
}

void play_swiss(tournament& t, std::uint64_t seed) {
  rng h(seed);
  for (int r = 0; r < t.settings().swiss_rounds; ++r) {
    REQUIRE(t.start_next_round("server", 0).ok());
    play_round(t, random_results(h));
  }
}

}  // namespace

TEST_CASE("top cut of 8: 1v8, 4v5, 2v7, 3v6, then the bracket") {
  for (int best_of : {1, 3}) {
    tournament t = make(10, make_config(3, best_of, 8, 77));
    play_swiss(t, 5);
    REQUIRE(t.rounds().size() == 3);
    CHECK(t.current_stage() == stage::swiss);
    const auto seed = ranking(t);  // seed[0] is seed 1
    REQUIRE(t.start_next_round("server", 0).ok());
    CHECK(t.current_stage() == stage::top_cut);
    const round& q = t.rounds().back();
    CHECK(q.kind == round_kind::top_cut);
    CHECK(q.number == 4);
    CHECK(pairs_of(q) == std::vector<pp>{{seed[0], seed[7]}, {seed[3], seed[4]}, {seed[1], seed[6]}, {seed[2], seed[5]}});
    for (std::size_t i = 0; i < q.pairings.size(); ++i) CHECK(q.pairings[i].table == static_cast<int>(i) + 1);
    // The top cut does not change the Swiss standings.
    play_round(t, [](const game_slot& g) { return g.b; });  // lower seeds win: 8, 5, 7, 6
    CHECK(ranking(t) == seed);
    REQUIRE(t.start_next_round("server", 0).ok());
    CHECK(pairs_of(t.rounds().back()) == std::vector<pp>{{seed[7], seed[4]}, {seed[6], seed[5]}});
    play_round(t, a_wins());
    REQUIRE(t.start_next_round("server", 0).ok());
    CHECK(pairs_of(t.rounds().back()) == std::vector<pp>{{seed[7], seed[6]}});
    CHECK(!t.champion());
    play_round(t, [](const game_slot& g) { return g.b; });
    CHECK(t.current_stage() == stage::finished);
    CHECK(t.champion() == seed[6]);
    const tournament before = t;
    CHECK(t.start_next_round("server", 0).code == errc::tournament_finished);
    CHECK(t == before);
  }
}

TEST_CASE("top cut of 2 and 4") {
  tournament t = make(6, make_config(3, 1, 4, 9));
  play_swiss(t, 1);
  auto seed = ranking(t);
  REQUIRE(t.start_next_round("server", 0).ok());
  CHECK(pairs_of(t.rounds().back()) == std::vector<pp>{{seed[0], seed[3]}, {seed[1], seed[2]}});
  play_round(t, a_wins());
  REQUIRE(t.start_next_round("server", 0).ok());
  CHECK(pairs_of(t.rounds().back()) == std::vector<pp>{{seed[0], seed[1]}});
  play_round(t, a_wins());
  CHECK(t.champion() == seed[0]);

  tournament u = make(4, make_config(2, 3, 2, 9));
  play_swiss(u, 2);
  seed = ranking(u);
  REQUIRE(u.start_next_round("server", 0).ok());
  CHECK(pairs_of(u.rounds().back()) == std::vector<pp>{{seed[0], seed[1]}});
  play_round(u, [](const game_slot& g) { return g.b; });
  CHECK(u.current_stage() == stage::finished);
  CHECK(u.champion() == seed[1]);
  CHECK(u.rounds().back().pairings[0].games.size() == 2);  // best of three, 2-0
}

TEST_CASE("top cut: a drawn game does not end the match; more games are played") {
  tournament t = make(4, make_config(2, 1, 2, 3));
  play_swiss(t, 3);
  REQUIRE(t.start_next_round("server", 0).ok());
  const pairing f = t.rounds().back().pairings[0];
  REQUIRE(t.attach_match(f.table, "final1").ok());
  REQUIRE(t.report_game("final1", no_player).ok());
  CHECK(!t.round_finished());
  const auto slots = t.games_to_start();
  REQUIRE(slots.size() == 1);
  CHECK(slots[0].game_number == 2);
  REQUIRE(t.attach_match(f.table, "final2").ok());
  REQUIRE(t.report_game("final2", f.b).ok());
  CHECK(t.champion() == f.b);
}

TEST_CASE("top cut: dropped players are skipped at seeding; a drop in the cut gives a bye") {
  tournament t = make(10, make_config(3, 1, 8, 21));
  play_swiss(t, 8);
  const auto full = ranking(t, false);
  REQUIRE(t.drop_player("org", 1, full[0], "went home").ok());
  const auto seed = ranking(t);  // without the dropped first
  CHECK(seed.size() == 9);
  CHECK(seed[0] == full[1]);
  REQUIRE(t.start_next_round("server", 0).ok());
  CHECK(pairs_of(t.rounds().back()) == std::vector<pp>{{seed[0], seed[7]}, {seed[3], seed[4]}, {seed[1], seed[6]}, {seed[2], seed[5]}});
  play_round(t, a_wins());  // seeds 1, 4, 2, 3 advance
  // Seed 4 drops before the semi-finals: seed 1 gets a bye into the final.
  REQUIRE(t.drop_player("org", 2, seed[3], "ill").ok());
  REQUIRE(t.start_next_round("server", 0).ok());
  CHECK(pairs_of(t.rounds().back()) == std::vector<pp>{{seed[0], no_player}, {seed[1], seed[2]}});
  CHECK(t.games_to_start().size() == 1);
  // Seed 2 drops in the middle of the semi-final: the match is conceded to seed 3.
  std::vector<std::string> voided;
  REQUIRE(t.attach_match(2, "semi").ok());
  REQUIRE(t.drop_player("org", 3, seed[1], "ill too", &voided).ok());
  CHECK(voided == std::vector<std::string>{"semi"});
  CHECK(t.round_finished());
  CHECK(t.report_game("semi", seed[1]).code == errc::game_already_decided);
  REQUIRE(t.start_next_round("server", 0).ok());
  CHECK(pairs_of(t.rounds().back()) == std::vector<pp>{{seed[0], seed[2]}});
}

TEST_CASE("top cut: fewer players left than the cut: the top seeds get byes") {
  tournament t = make(5, make_config(2, 1, 4, 4));
  play_swiss(t, 4);
  const auto full = ranking(t);
  REQUIRE(t.drop_player("org", 1, full[4], "").ok());
  REQUIRE(t.drop_player("org", 1, full[3], "").ok());
  REQUIRE(t.start_next_round("server", 0).ok());  // seeds 1-3; seed 4 is missing
  CHECK(pairs_of(t.rounds().back()) == std::vector<pp>{{full[0], no_player}, {full[1], full[2]}});
  play_round(t, a_wins());
  REQUIRE(t.start_next_round("server", 0).ok());
  CHECK(pairs_of(t.rounds().back()) == std::vector<pp>{{full[0], full[1]}});
}
