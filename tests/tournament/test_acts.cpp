// Games, results and the organiser's acts: what each does, each error, the
// state unchanged on error, and the log.
#include <algorithm>

#include "helpers.hpp"

using namespace cod;
using namespace cod::tournaments;
using namespace cod::tournaments::test;

namespace {

// Runs the act on `t`; on error checks that t did not change.
template <class F>
errc attempt(tournament& t, F act) {
  const tournament before = t;
  const status s = act(t);
  if (!s.ok()) {
    CHECK_MESSAGE(t == before, "an act that failed (" << errc_name(s.code) << ") changed the tournament");
    CHECK(!s.detail.empty());
  }
  return s.code;
}

}  // namespace

TEST_CASE("games: attach and report, and their errors") {
  tournament t = make(5, make_config(3, 3));
  CHECK(attempt(t, [](tournament& x) { return x.attach_match(1, "m"); }) == errc::not_started);
  CHECK(attempt(t, [](tournament& x) { return x.report_game("m", 0); }) == errc::not_started);
  CHECK(t.games_to_start().empty());
  REQUIRE(t.start_next_round("server", 10).ok());
  const round r = t.rounds()[0];
  REQUIRE(r.pairings.size() == 3);
  const pairing p = r.pairings[0];
  const pairing bye = r.pairings[2];
  REQUIRE(bye.is_bye());

  // Two tables need their first game; the bye needs none.
  auto slots = t.games_to_start();
  REQUIRE(slots.size() == 2);
  CHECK(slots[0] == game_slot{1, 1, 1, p.a, p.b});

  CHECK(attempt(t, [](tournament& x) { return x.attach_match(9, "m"); }) == errc::unknown_table);
  CHECK(attempt(t, [&](tournament& x) { return x.attach_match(bye.table, "m"); }) == errc::bye);
  CHECK(attempt(t, [](tournament& x) { return x.attach_match(1, ""); }) == errc::invalid_match_id);
  REQUIRE(t.attach_match(1, "m1").ok());
  CHECK(t.games_to_start().size() == 1);  // table 1 is playing
  CHECK(attempt(t, [](tournament& x) { return x.attach_match(1, "m2"); }) == errc::match_already_running);
  CHECK(attempt(t, [](tournament& x) { return x.attach_match(2, "m1"); }) == errc::match_id_in_use);

  CHECK(attempt(t, [](tournament& x) { return x.report_game("nope", 0); }) == errc::unknown_match);
  CHECK(attempt(t, [&](tournament& x) { return x.report_game("m1", bye.a); }) == errc::not_in_match);
  REQUIRE(t.report_game("m1", p.b).ok());
  CHECK(attempt(t, [&](tournament& x) { return x.report_game("m1", p.b); }) == errc::game_already_decided);
  // 0-1 in a best of three: game 2 is next.
  slots = t.games_to_start();
  REQUIRE(slots.size() == 2);
  CHECK(slots[0].game_number == 2);
  CHECK(attempt(t, [](tournament& x) { return x.start_next_round("server", 11); }) == errc::round_not_finished);
  REQUIRE(t.attach_match(1, "m1b").ok());
  REQUIRE(t.report_game("m1b", p.b).ok());
  CHECK(t.score(t.rounds()[0].pairings[0], round_kind::swiss).winner == p.b);
  CHECK(attempt(t, [](tournament& x) { return x.attach_match(1, "m1c"); }) == errc::pairing_finished);
  play_round(t, a_wins());
  CHECK(t.round_finished());
  REQUIRE(t.start_next_round("server", 12).ok());
  // A game of a finished round is not reported again.
  CHECK(attempt(t, [&](tournament& x) { return x.report_game("m1", p.a); }) == errc::game_already_decided);
}

TEST_CASE("give_game_loss: the running game, else the next one; errors") {
  tournament t = make(5, make_config(3, 3));
  CHECK(attempt(t, [](tournament& x) { return x.give_game_loss("org", 1, 0, "late"); }) == errc::not_started);
  REQUIRE(t.start_next_round("server", 0).ok());
  const pairing p = t.rounds()[0].pairings[0];
  const pairing bye = t.rounds()[0].pairings[2];
  CHECK(attempt(t, [](tournament& x) { return x.give_game_loss("org", 1, 7, "?"); }) == errc::unknown_player);
  CHECK(attempt(t, [](tournament& x) { return x.give_game_loss("org", 1, -1, "?"); }) == errc::unknown_player);
  CHECK(attempt(t, [&](tournament& x) { return x.give_game_loss("org", 1, bye.a, "?"); }) == errc::bye);

  // No game running: the next game is decided without a match.
  std::string voided = "unchanged";
  REQUIRE(t.give_game_loss("judge", 100, p.a, "deck registration", &voided).ok());
  CHECK(voided == "unchanged");
  const auto& g1 = t.rounds()[0].pairings[0].games;
  REQUIRE(g1.size() == 1);
  CHECK(g1[0].decided);
  CHECK(g1[0].penalty);
  CHECK(g1[0].winner == p.b);
  CHECK(g1[0].match_id.empty());
  // A game running: it is decided, and its match id comes back to be ended.
  REQUIRE(t.attach_match(1, "g2").ok());
  REQUIRE(t.give_game_loss("judge", 200, p.a, "slow play", &voided).ok());
  CHECK(voided == "g2");
  CHECK(attempt(t, [](tournament& x) { return x.report_game("g2", 0); }) == errc::game_already_decided);
  CHECK(t.score(t.rounds()[0].pairings[0], round_kind::swiss).winner == p.b);  // 0-2
  CHECK(attempt(t, [&](tournament& x) { return x.give_game_loss("org", 1, p.b, "?"); }) == errc::pairing_finished);

  REQUIRE(t.log().size() == 3);
  CHECK(t.log()[1].what == act::game_loss);
  CHECK(t.log()[1].actor == "judge");
  CHECK(t.log()[1].at_ms == 100);
  CHECK(t.log()[1].player == p.a);
  CHECK(t.log()[1].round == 1);
  CHECK(t.log()[1].note == "deck registration");
  CHECK(t.log()[2].note == "slow play");
}

TEST_CASE("drop_player: concedes the current match, is never paired again, keeps the standing") {
  tournament t = make(6, make_config(3, 3));
  CHECK(attempt(t, [](tournament& x) { return x.drop_player("org", 1, 6, ""); }) == errc::unknown_player);
  REQUIRE(t.start_next_round("server", 0).ok());
  const pairing p = t.rounds()[0].pairings[1];
  REQUIRE(t.attach_match(p.table, "x1").ok());
  REQUIRE(t.report_game("x1", p.a).ok());  // a leads 1-0
  REQUIRE(t.attach_match(p.table, "x2").ok());
  std::vector<std::string> voided;
  REQUIRE(t.drop_player("org", 50, p.a, "family emergency", &voided).ok());
  CHECK(voided == std::vector<std::string>{"x2"});
  // 1-2: the running game and one more went to b.
  const match_score m = t.score(t.rounds()[0].pairings[1], round_kind::swiss);
  CHECK(m.finished);
  CHECK(m.winner == p.b);
  CHECK(m.a_wins == 1);
  CHECK(m.b_wins == 2);
  CHECK(t.players()[static_cast<std::size_t>(p.a)].dropped_in_round == 1);
  CHECK(attempt(t, [&](tournament& x) { return x.drop_player("org", 1, p.a, ""); }) == errc::player_dropped);

  play_round(t, a_wins());
  for (int r = 2; r <= 3; ++r) {
    REQUIRE(t.start_next_round("server", 0).ok());
    for (const pairing& x : t.rounds().back().pairings) {
      CHECK(x.a != p.a);
      CHECK(x.b != p.a);
    }
    CHECK(attempt(t, [&](tournament& x) { return x.give_game_loss("org", 1, p.a, ""); }) == errc::not_in_round);
    play_round(t, a_wins());
  }
  CHECK(t.current_stage() == stage::finished);
  CHECK(attempt(t, [&](tournament& x) { return x.drop_player("org", 1, p.b, ""); }) == errc::tournament_finished);
  const auto st = t.standings();
  const auto it = std::find_if(st.begin(), st.end(), [&](const standing& s) { return s.player == p.a; });
  REQUIRE(it != st.end());
  CHECK(it->dropped);
  CHECK(it->losses == 1);
  CHECK(it->games == 3);
}

TEST_CASE("drop_player: before the first round, and down to one player") {
  tournament t = make(3, make_config(2));
  REQUIRE(t.drop_player("org", 1, 0, "no show").ok());
  CHECK(t.players()[0].dropped_in_round == 0);
  CHECK(t.log()[0].round == 0);
  REQUIRE(t.start_next_round("server", 0).ok());
  CHECK(t.rounds()[0].pairings.size() == 1);  // the two others, no bye
  REQUIRE(t.drop_player("org", 2, 1, "").ok());
  // 1's match was conceded to 2: the round is over, but one player cannot be paired.
  CHECK(t.round_finished());
  CHECK(attempt(t, [](tournament& x) { return x.start_next_round("server", 0); }) == errc::not_enough_players);
}

TEST_CASE("repair_round: a new seeded pairing while no game has a result") {
  tournament t = make(8, make_config(3, 1, 0, 5));
  CHECK(attempt(t, [](tournament& x) { return x.repair_round("org", 1, "x"); }) == errc::not_started);
  REQUIRE(t.start_next_round("server", 0).ok());
  REQUIRE(t.attach_match(1, "a1").ok());
  REQUIRE(t.attach_match(2, "a2").ok());
  const round first = t.rounds()[0];
  std::vector<std::string> abandoned;
  REQUIRE(t.repair_round("org", 30, "wrong players list", &abandoned).ok());
  CHECK(abandoned == std::vector<std::string>{"a1", "a2"});
  const round& again = t.rounds()[0];
  CHECK(again.attempt == 1);
  CHECK(again.number == 1);
  CHECK(again.pairings != first.pairings);  // another seeded order (checked for this seed)
  for (const pairing& p : again.pairings) CHECK(p.games.empty());
  CHECK(t.log().back().what == act::repair);
  CHECK(t.log().back().note == "wrong players list");
  CHECK(t.log().back().round == 1);
  // The old match ids are gone: reports for them are refused.
  CHECK(attempt(t, [](tournament& x) { return x.report_game("a1", 0); }) == errc::unknown_match);

  // Reproducible: another tournament from the same seed re-paired the same way.
  tournament u = make(8, make_config(3, 1, 0, 5));
  REQUIRE(u.start_next_round("server", 0).ok());
  REQUIRE(u.repair_round("org", 30, "", nullptr).ok());
  CHECK(u.rounds()[0].pairings == t.rounds()[0].pairings);

  // After a drop, the re-pair leaves the player out.
  REQUIRE(t.drop_player("org", 31, t.rounds()[0].pairings[0].a, "").ok());  // concedes: a result
  CHECK(attempt(t, [](tournament& x) { return x.repair_round("org", 32, ""); }) == errc::round_has_results);

  tournament v = make(7, make_config(3, 1, 0, 6));
  REQUIRE(v.drop_player("org", 1, 3, "").ok());
  REQUIRE(v.start_next_round("server", 0).ok());
  REQUIRE(v.repair_round("org", 2, "").ok());
  for (const pairing& p : v.rounds()[0].pairings) {
    CHECK(p.a != 3);
    CHECK(p.b != 3);
    CHECK(!p.is_bye());  // six left: no bye
  }
}

TEST_CASE("repair_round: not in the top cut") {
  tournament t = make(4, make_config(1, 1, 2, 2));
  REQUIRE(t.start_next_round("server", 0).ok());
  play_round(t, a_wins());
  REQUIRE(t.start_next_round("server", 0).ok());
  CHECK(attempt(t, [](tournament& x) { return x.repair_round("org", 1, ""); }) == errc::not_swiss);
}

TEST_CASE("the organiser log: every act in order with who, when, what") {
  tournament t = make(4, make_config(2));
  REQUIRE(t.start_next_round("server", 1000).ok());
  const pairing p = t.rounds()[0].pairings[0];
  REQUIRE(t.repair_round("alice", 2000, "typo").ok());
  const pairing q = t.rounds()[0].pairings[0];
  REQUIRE(t.give_game_loss("bob", 3000, q.a, "late").ok());
  play_round(t, a_wins());
  REQUIRE(t.drop_player("alice", 4000, q.a, "left").ok());
  REQUIRE(t.start_next_round("server", 5000).ok());
  // Failed acts are not logged.
  CHECK(!t.drop_player("alice", 6000, q.a, "again").ok());
  const auto& log = t.log();
  REQUIRE(log.size() == 5);
  const act what[] = {act::start_round, act::repair, act::game_loss, act::drop, act::start_round};
  const char* who[] = {"server", "alice", "bob", "alice", "server"};
  const int rounds[] = {1, 1, 1, 1, 2};
  for (std::size_t i = 0; i < log.size(); ++i) {
    CHECK(log[i].seq == static_cast<int>(i) + 1);
    CHECK(log[i].at_ms == static_cast<std::int64_t>(i + 1) * 1000);
    CHECK(log[i].what == what[i]);
    CHECK(log[i].actor == who[i]);
    CHECK(log[i].round == rounds[i]);
  }
  CHECK(log[0].note == "swiss");
  CHECK(log[2].player == q.a);
  CHECK(log[3].player == q.a);
  CHECK(log[1].player == no_player);
  (void)p;
  for (act a : what) CHECK(act_from_name(act_name(a)) == a);
  CHECK(!act_from_name("nonsense"));
}
