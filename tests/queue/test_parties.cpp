// 2v2 parties from single searches (queue/parties.hpp): two searches that
// name each other become one party ticket, seated as teammates; a search
// whose partner has not named it back waits.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>

#include "helpers.hpp"
#include "queue/parties.hpp"

using namespace queue_test;

namespace {

search searching(std::int64_t id, double rating, const std::string& name, const std::string& partner = "",
                 std::int64_t at_ms = 0) {
  search s;
  s.t = solo(id, rating, at_ms, team_pool);
  s.name = name;
  s.partner = partner;
  return s;
}

}  // namespace

TEST_CASE("parties: two searches naming each other (ignoring case) become one party; a one-sided one waits") {
  std::vector<search> all = {searching(1, 1500, "Ada", "bob", 100), searching(2, 1600, "Bob", "ADA", 300),
                             searching(3, 1550, "Cid", "Dot"), searching(4, 1450, "Eve"),
                             searching(5, 1700, "Dot", "Fay")};
  const party_plan plan = plan_parties(all);
  REQUIRE(plan.tickets.size() == 2);  // Ada+Bob, Eve
  const ticket& p = plan.tickets[0];
  CHECK(p.id == 1);
  REQUIRE(p.members.size() == 2);
  CHECK(p.members[0].account == 1);
  CHECK(p.members[1].account == 2);
  CHECK(p.enqueued_ms == 300);  // the party exists from the later search
  CHECK(plan.tickets[1].id == 4);
  CHECK(plan.waiting_for_partner == std::vector<std::int64_t>{3, 5});  // Cid names Dot, Dot names Fay
  CHECK(plan.parties.at(1) == std::vector<std::pair<std::int64_t, std::int64_t>>{{1, 1}, {2, 2}});
  CHECK(searches_of(plan, {4, 1}) == std::vector<std::int64_t>{1, 2, 4});
}

TEST_CASE("parties: another pool's search does not pair; nor does naming oneself") {
  search ada = searching(1, 1500, "Ada", "Bob");
  search bob = searching(2, 1500, "Bob", "Ada");
  bob.t.pool.rated = false;
  search me = searching(3, 1500, "Me", "me");
  const party_plan plan = plan_parties({ada, bob, me});
  CHECK(plan.tickets.empty());
  CHECK(plan.waiting_for_partner == std::vector<std::int64_t>{1, 2, 3});
}

TEST_CASE("parties: a wave seats a party with two others, the friends as teammates; each seat maps to its search") {
  std::vector<search> all = {searching(1, 1500, "Ada", "Bob"), searching(2, 1520, "Bob", "Ada"),
                             searching(3, 1490, "Cid"), searching(4, 1530, "Dot")};
  const party_plan plan = plan_parties(all);
  matchmaker mm;
  for (const auto& t : plan.tickets) REQUIRE(mm.add(t) == add_error::none);
  const auto wave = mm.pass(60'000);
  REQUIRE(wave.matches.size() == 1);
  const match& m = wave.matches[0];
  REQUIRE(m.seats.size() == 4);
  std::map<std::int64_t, int> team_of;  // search -> team
  std::vector<std::int64_t> searches;
  for (const auto& s : m.seats) {
    searches.push_back(search_of(plan, s));
    team_of[search_of(plan, s)] = s.team;
  }
  std::sort(searches.begin(), searches.end());
  CHECK(searches == std::vector<std::int64_t>{1, 2, 3, 4});
  CHECK(team_of[1] == team_of[2]);
  CHECK(team_of[3] == team_of[4]);
  CHECK(team_of[1] != team_of[3]);
}
