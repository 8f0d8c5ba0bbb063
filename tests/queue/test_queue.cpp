// The queue's bookkeeping (docs/queue.md, "The queue"): refused tickets,
// removal, one player in several pools, determinism.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <set>

#include "helpers.hpp"

using namespace queue_test;

TEST_CASE("queue: refused tickets change nothing") {
  matchmaker q;
  REQUIRE(q.add(solo(1, 1500)) == add_error::none);
  CHECK(q.add(solo(1, 1600, 0, ffa_pool)) == add_error::duplicate_ticket);
  ticket again = solo(2, 1500);
  again.members[0].account = 1;  // account 1 is in the duel pool already
  CHECK(q.add(again) == add_error::already_queued);
  CHECK(q.add(party(3, 7, 1500, 8, 1500)) == add_error::none);
  CHECK(q.add(party(4, 8, 1500, 9, 1500)) == add_error::already_queued);  // 8 is on ticket 3
  ticket duel_party = party(5, 20, 1500, 21, 1500);
  duel_party.pool = duel_pool;
  CHECK(q.add(duel_party) == add_error::bad_party);
  CHECK(q.add(party(6, 30, 1500, 30, 1500)) == add_error::bad_party);
  ticket nobody = solo(7, 1500);
  nobody.members.clear();
  CHECK(q.add(nobody) == add_error::bad_party);
  CHECK(to_string(add_error::already_queued) == "already_queued");
  CHECK(q.size() == 2);
  CHECK(q.size(duel_pool) == 1);
  CHECK(q.size(team_pool) == 1);
  // The same account in another pool is fine.
  CHECK(q.add(solo(8, 1500, 0, ffa_pool)) == add_error::none);
  ticket other = solo(9, 1500, 0, ffa_pool);
  other.members[0].account = 1;
  CHECK(q.add(other) == add_error::none);
}

TEST_CASE("queue: a removed ticket is never matched; a disconnect removes every ticket of the account") {
  matchmaker q;
  q.add(solo(1, 1500));
  q.add(solo(2, 1501));
  q.add(solo(3, 1502));
  CHECK(q.remove(1));
  CHECK_FALSE(q.remove(1));
  CHECK(q.find(1) == nullptr);
  ticket ffa = solo(4, 1500, 0, ffa_pool);
  ffa.members[0].account = 2;
  q.add(ffa);
  CHECK(q.remove_account(2) == std::vector<std::int64_t>{2, 4});
  CHECK(q.size() == 1);
  CHECK(q.pass(100'000).matches.empty());  // 3 is alone
  // The account may queue again in the same pool once its ticket is gone.
  ticket back = solo(5, 1500);
  back.members[0].account = 2;
  CHECK(q.add(back) == add_error::none);
  const wave_result r = q.pass(100'000);
  REQUIRE(r.matches.size() == 1);
  CHECK(r.matches[0].tickets == std::vector<std::int64_t>{3, 5});
}

TEST_CASE("queue: a player in several pools is seated once, their other tickets dropped") {
  // Account 1 in the duel pool (ticket 1) and free-for-all (ticket 101);
  // both could match in this wave.
  auto fill = [](matchmaker& q, std::int64_t duel_at, std::int64_t ffa_at) {
    q.add(solo(1, 1500, duel_at));
    q.add(solo(2, 1510, duel_at));
    ticket f = solo(101, 1500, ffa_at, ffa_pool);
    f.members[0].account = 1;
    q.add(f);
    for (int i = 102; i <= 104; ++i) q.add(solo(i, 1500 + i - 100, ffa_at, ffa_pool));
  };

  matchmaker duel_first;  // the duel ticket waited longer: the duel pool goes first
  fill(duel_first, 0, 1000);
  wave_result r = duel_first.pass(2000);
  REQUIRE(r.matches.size() == 1);
  CHECK(r.matches[0].tickets == std::vector<std::int64_t>{1, 2});
  CHECK(r.dropped == std::vector<std::int64_t>{101});
  CHECK(duel_first.find(101) == nullptr);
  CHECK(duel_first.size(ffa_pool) == 3);

  matchmaker ffa_first;
  fill(ffa_first, 1000, 0);
  r = ffa_first.pass(2000);
  REQUIRE(r.matches.size() == 1);
  CHECK(r.matches[0].tickets == std::vector<std::int64_t>{101, 102, 103, 104});
  CHECK(r.dropped == std::vector<std::int64_t>{1});
  CHECK(ffa_first.size(duel_pool) == 1);
  CHECK(ffa_first.find(2) != nullptr);
}

TEST_CASE("queue: a party member queued alone elsewhere is seated once") {
  matchmaker q;
  q.add(party(1, 11, 1500, 12, 1500, 0));
  q.add(party(2, 21, 1500, 22, 1500, 0));
  q.add(solo(12, 1500, 1000));  // account 12 also searches a duel
  q.add(solo(13, 1500, 1000));
  const wave_result r = q.pass(1000);
  REQUIRE(r.matches.size() == 1);
  CHECK(r.matches[0].pool == team_pool);
  CHECK(r.dropped == std::vector<std::int64_t>{12});
  CHECK(q.size() == 1);
}

namespace {

// A busy queue from a fixed sequence: three pools, shared addresses, last
// opponents, parties, players in two pools.
std::vector<ticket> busy_queue() {
  std::uint64_t x = 88172645463325252ull;
  auto next = [&x] {  // xorshift64: the same numbers on every platform
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return x;
  };
  std::vector<ticket> out;
  const pool_key pools[] = {duel_pool, ffa_pool, team_pool};
  std::set<std::pair<int, std::int64_t>> used;  // (pool, account): one ticket each
  for (std::int64_t id = 1; id <= 600; ++id) {
    const int p = static_cast<int>(next() % 3);
    const std::int64_t account = static_cast<std::int64_t>(next() % 400) + 1;
    if (!used.insert({p, account}).second) continue;
    ticket t = solo(id, 1000 + static_cast<double>(next() % 1000), static_cast<std::int64_t>(next() % 20'000),
                    pools[p]);
    t.members[0].account = account;
    t.address = "10.0.0." + std::to_string(next() % 50);
    t.last_opponents = {static_cast<std::int64_t>(next() % 400) + 1};
    if (p == 2 && next() % 4 == 0) {
      const std::int64_t friend_account = 1000 + id;
      used.insert({p, friend_account});
      t.members.push_back({friend_account, 1000 + static_cast<double>(next() % 1000), 0});
    }
    out.push_back(t);
  }
  return out;
}

}  // namespace

TEST_CASE("queue: the same tickets and times give the same waves, whatever the order they came in") {
  const std::vector<ticket> tickets = busy_queue();
  matchmaker forward, backward;
  for (const ticket& t : tickets) REQUIRE(forward.add(t) == add_error::none);
  for (auto it = tickets.rbegin(); it != tickets.rend(); ++it) REQUIRE(backward.add(*it) == add_error::none);
  std::size_t matched = 0, dropped = 0;
  std::set<std::int64_t> seated_once;
  for (std::int64_t now = 20'000; now <= 80'000; now += 2000) {
    const wave_result a = forward.pass(now), b = backward.pass(now);
    REQUIRE(a.matches.size() == b.matches.size());
    for (std::size_t i = 0; i < a.matches.size(); ++i) {
      CHECK(a.matches[i].tickets == b.matches[i].tickets);
      REQUIRE(a.matches[i].seats.size() == b.matches[i].seats.size());
      for (std::size_t s = 0; s < a.matches[i].seats.size(); ++s) {
        CHECK(a.matches[i].seats[s].account == b.matches[i].seats[s].account);
        CHECK(a.matches[i].seats[s].team == b.matches[i].seats[s].team);
      }
    }
    CHECK(a.dropped == b.dropped);
    std::set<std::int64_t> in_wave;
    for (const match& m : a.matches)
      for (const seat& s : m.seats) CHECK(in_wave.insert(s.account).second);  // nobody twice in a wave
    matched += a.matches.size();
    dropped += a.dropped.size();
  }
  CHECK(matched > 50);  // the scenario exercises the queue, not an empty pass
  CHECK(dropped > 0);
  CHECK(forward.size() == backward.size());
}
