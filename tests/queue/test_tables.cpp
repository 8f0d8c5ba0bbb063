// Four-player tables (docs/queue.md, "Tables"): free-for-all spreads, 2v2
// team balance, parties kept together.
#include <doctest/doctest.h>

#include <algorithm>

#include "helpers.hpp"
#include "queue/pairing.hpp"

using namespace queue_test;

namespace {

queue_params table_params() {
  queue_params p;
  p.four_players = {100, 10, 500};
  return p;
}

double team_sum(const match& m, int team) {
  double s = 0;
  for (const seat& x : m.seats)
    if (x.team == team) s += x.rating;
  return s;
}

}  // namespace

TEST_CASE("ffa: two clusters make two tables, each of its own cluster") {
  matchmaker q(table_params());
  const double ratings[] = {1500, 1900, 1510, 1905, 1520, 1910, 1530, 1915};
  for (int i = 0; i < 8; ++i) q.add(solo(i + 1, ratings[i], 0, ffa_pool));
  const wave_result r = q.pass(0);
  REQUIRE(r.matches.size() == 2);
  CHECK(r.matches[0].tickets == std::vector<std::int64_t>{1, 3, 5, 7});
  CHECK(r.matches[1].tickets == std::vector<std::int64_t>{2, 4, 6, 8});
  CHECK(r.matches[0].spread == 30);
  CHECK(r.matches[1].spread == 15);
  REQUIRE(r.matches[0].seats.size() == 4);
  for (int s = 0; s < 4; ++s) CHECK(r.matches[0].seats[s].team == s);
}

TEST_CASE("ffa: a table waits until the widest window covers its spread") {
  matchmaker q(table_params());
  const double ratings[] = {1500, 1600, 1700, 1800};
  for (int i = 0; i < 4; ++i) q.add(solo(i + 1, ratings[i], i == 0 ? 0 : 15'000, ffa_pool));
  CHECK(q.pass(15'000).matches.empty());  // the oldest's window: 100 + 150 = 250 < 300
  CHECK(q.pass(19'999).matches.empty());
  const wave_result r = q.pass(20'000);   // 300
  REQUIRE(r.matches.size() == 1);
  CHECK(r.matches[0].spread == 300);
}

TEST_CASE("ffa: the tightest table around the oldest ticket") {
  matchmaker q(table_params());
  q.add(solo(1, 1500, 0, ffa_pool));
  q.add(solo(2, 1440, 1000, ffa_pool));
  q.add(solo(3, 1520, 1000, ffa_pool));
  q.add(solo(4, 1530, 1000, ffa_pool));
  q.add(solo(5, 1545, 1000, ffa_pool));
  const wave_result r = q.pass(1000);
  REQUIRE(r.matches.size() == 1);
  CHECK(r.matches[0].tickets == std::vector<std::int64_t>{1, 3, 4, 5});  // spread 45, not 90 with 2
  CHECK(r.matches[0].spread == 45);
  CHECK(q.find(2) != nullptr);
}

TEST_CASE("ffa: a last opponent is stepped over for the next tightest table") {
  matchmaker q(table_params());
  ticket a = solo(1, 1500, 0, ffa_pool);
  a.last_opponents = {3};
  q.add(a);
  for (int i = 2; i <= 5; ++i) q.add(solo(i, 1500 + 10 * i, 0, ffa_pool));
  const wave_result r = q.pass(0);
  REQUIRE(r.matches.size() == 1);
  CHECK(r.matches[0].tickets == std::vector<std::int64_t>{1, 2, 4, 5});
}

TEST_CASE("2v2: the best of the three splits of four players") {
  std::vector<ticket> t = {solo(1, 1000, 0, team_pool), solo(2, 1100, 0, team_pool), solo(3, 1300, 0, team_pool),
                           solo(4, 1900, 0, team_pool)};
  std::vector<const ticket*> p;
  for (const ticket& x : t) p.push_back(&x);
  std::vector<int> team;
  // {1000, 1900} against {1100, 1300}: 500 (the others: 1000 and 700).
  CHECK(cod::queue::detail::best_split(p, team) == 500);
  CHECK(team == std::vector<int>{0, 1, 1, 0});

  matchmaker q(table_params());
  const double ratings[] = {1500, 1520, 1560, 1600};
  for (int i = 0; i < 4; ++i) q.add(solo(i + 1, ratings[i], 0, team_pool));
  const wave_result r = q.pass(0);
  REQUIRE(r.matches.size() == 1);
  const match& m = r.matches[0];
  REQUIRE(m.seats.size() == 4);
  // Teams sit A+C against B+D.
  CHECK(m.seats[0].team == 0);
  CHECK(m.seats[2].team == 0);
  CHECK(m.seats[1].team == 1);
  CHECK(m.seats[3].team == 1);
  CHECK(m.imbalance == 20);  // {1500, 1600} against {1520, 1560}
  CHECK(team_sum(m, 0) == 3100);
  CHECK(team_sum(m, 1) == 3080);
}

TEST_CASE("2v2: a party stays together, whatever would balance better") {
  matchmaker q(table_params());
  q.add(party(1, 11, 1400, 12, 1640));  // mean 1520
  q.add(solo(2, 1480, 0, team_pool));
  q.add(solo(3, 1550, 0, team_pool));
  const wave_result r = q.pass(0);
  REQUIRE(r.matches.size() == 1);
  const match& m = r.matches[0];
  REQUIRE(m.seats.size() == 4);
  int team_of_11 = -1, team_of_12 = -2;
  for (const seat& s : m.seats) {
    if (s.account == 11) team_of_11 = s.team;
    if (s.account == 12) team_of_12 = s.team;
  }
  CHECK(team_of_11 == team_of_12);
  CHECK(m.imbalance == 10);  // 3040 against 3030
  CHECK(m.tickets.size() == 3);

  // Two parties: one table of two tickets, one team each.
  matchmaker two(table_params());
  two.add(party(1, 11, 1500, 12, 1500));
  two.add(party(2, 21, 1450, 22, 1600));
  const wave_result r2 = two.pass(0);
  REQUIRE(r2.matches.size() == 1);
  CHECK(r2.matches[0].imbalance == 50);
  CHECK(r2.matches[0].seats[0].account == 11);
  CHECK(r2.matches[0].seats[2].account == 12);
}

TEST_CASE("2v2: a party alone with one single waits (three players are no table)") {
  matchmaker q(table_params());
  q.add(party(1, 11, 1500, 12, 1500));
  q.add(solo(2, 1500, 0, team_pool));
  CHECK(q.pass(60'000).matches.empty());
  CHECK(q.size() == 2);
}
