// R16.1: same seed + same actions = same match, bit for bit; a recorded
// action log replays to the same digests.
#include "fixtures.hpp"

using namespace cod;

namespace {

std::vector<std::uint64_t> run(const match_config& cfg, std::uint64_t player_seed, std::vector<action>& log) {
  match m;
  std::vector<event> ev;
  REQUIRE(match::create(test::shipped(), cfg, m, ev) == rule_error::ok);
  std::vector<std::uint64_t> digests{m.digest()};
  REQUIRE(test::play_random(m, player_seed, log, 3000, &digests));
  return digests;
}

}  // namespace

TEST_CASE("R16.1 the same seed and actions give the same digest after every action") {
  for (std::uint64_t seed : {1ULL, 2ULL, 99ULL, 123456789ULL}) {
    const match_config cfg = test::precon_config(static_cast<int>(seed % 4) + 1, 2, seed, seed & 1);
    std::vector<action> log1, log2;
    const auto a = run(cfg, seed * 7, log1);
    const auto b = run(cfg, seed * 7, log2);
    CHECK(a == b);
    CHECK(log1 == log2);
    CHECK(a.size() > 5);
  }
}

TEST_CASE("R16.1 replaying a recorded log reproduces the game") {
  for (std::uint64_t seed = 10; seed < 30; ++seed) {
    const match_config cfg = test::precon_config(static_cast<int>(seed % 4) + 1,
                                                 static_cast<int>((seed / 4) % 4) + 1, seed, seed & 1);
    std::vector<action> log;
    const auto digests = run(cfg, seed, log);
    match replayed;
    int failed_at = 0;
    std::vector<std::uint64_t> replay_digests;
    REQUIRE(replay(test::shipped(), cfg, log, replayed, failed_at, &replay_digests) == rule_error::ok);
    CHECK(failed_at == -1);
    CHECK(replay_digests == digests);
    CHECK(replayed.over());
  }
}

TEST_CASE("R16.1 a different seed gives a different match") {
  std::vector<action> l1, l2;
  const auto a = run(test::precon_config(1, 2, 1), 5, l1);
  const auto b = run(test::precon_config(1, 2, 2), 5, l2);
  CHECK(a.front() != b.front());
}

TEST_CASE("R16.1 a log altered by one action fails to replay or diverges") {
  const match_config cfg = test::precon_config(2, 3, 77);
  std::vector<action> log;
  const auto digests = run(cfg, 3, log);
  REQUIRE(log.size() > 4);
  // Swap the acting seat of an action: the replay must reject it.
  std::vector<action> bad = log;
  bad[2].seat = static_cast<seat_t>(1 - bad[2].seat);
  match m;
  int failed_at = -1;
  CHECK(replay(test::shipped(), cfg, bad, m, failed_at) == rule_error::not_your_turn);
  CHECK(failed_at == 2);
}

TEST_CASE("digest covers the state: copies agree, a changed match disagrees") {
  match m;
  std::vector<event> ev;
  REQUIRE(match::create(test::shipped(), test::precon_config(1, 4, 8), m, ev) == rule_error::ok);
  match copy = m;
  CHECK(copy.digest() == m.digest());
  REQUIRE(copy.apply(action::end(copy.active_seat()), ev) == rule_error::ok);
  CHECK(copy.digest() != m.digest());
}
