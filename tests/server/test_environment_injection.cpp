// The one environment (common/environment.hpp) reaches where the server
// gives it: a session id comes from the lobby's environment; a room's id,
// seed, seat tokens, match id and stored time from the rooms'; an audit
// row's time from the admin API's. A test environment with a fixed clock and a fixed random value
// makes each of them a value the test can name.
#include <doctest/doctest.h>

#include "admin/admin_api.hpp"
#include "room_harness.hpp"
#include "../shared/store_reads.hpp"

namespace cod::server::test {
namespace {

constexpr std::int64_t fixed_wall_ms = 1'234'567'890'000;
// Its hex digits, low nibble first, are 0 to f: random_hex gives "0123...".
constexpr std::uint64_t fixed_random = 0xfedcba9876543210ULL;

TEST_CASE("environment: session id, room id, seed, seat token, match id, stored and audit times come from it") {
  harness h;
  h.env.wall = [] { return fixed_wall_ms; };
  h.env.random = [] { return fixed_random; };
  // The lobby's: a connection's session id.
  auto creator = h.connect(false);
  creator.say({{"type", "hello"}, {"version", 1}, {"client", "test"}});
  CHECK(creator.expect("welcome").at("session") == "0123456789abcdef");

  const std::string room_id = h.create_room(creator);
  CHECK(room_id == "r0kgx");  // fixed_random's four low base-36 digits
  auto [a, b] = h.start_duel(room_id);
  CHECK(a.token == "0123456789abcdef0123456789abcdef");
  CHECK(b.token == a.token);

  h.store->flush();
  const auto unfinished = read_ok(h.store->reader().load_unfinished());
  REQUIRE(unfinished.size() == 1);
  const match_record& rec = unfinished[0].match;
  CHECK(rec.room_id == room_id);
  CHECK(rec.match_id == room_id + "-01234567");
  CHECK(rec.seed == fixed_random);
  CHECK(rec.created_ms == fixed_wall_ms);

  // An audit row of the live match: the admin API's environment stamps it.
  test_environment admin_env;
  admin_env.wall = [] { return fixed_wall_ms + 5; };
  admin_env.random = [] { return fixed_random; };
  const std::string token = "environment-test-token-0123";
  admin::api api{token, shipped(), *h.store, admin_env};
  admin::request r;
  r.method = "GET";
  r.target = "/admin/api/matches/" + rec.match_id + "/state?step=0";
  r.authorization = "Bearer " + token;
  r.remote = "10.0.0.1:1";
  REQUIRE(api.handle(r).status == 200);
  const auto audit = read_ok(h.store->reader().list_audit(rec.match_id));
  REQUIRE(audit.size() == 1);
  CHECK(audit[0].at_ms == fixed_wall_ms + 5);
}

}  // namespace
}  // namespace cod::server::test
