#include <doctest/doctest.h>

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "common/metrics.hpp"
#include "common/rate_limiter.hpp"
#include "net/connection_limits.hpp"
#include "net/forwarded_for.hpp"
#include "net/refusal_log.hpp"
#include "net/send_queue.hpp"

using namespace cod::server;
using namespace std::chrono_literals;

TEST_CASE("rate limiter: a burst, then the refill rate") {
  const auto t0 = rate_limiter::clock::time_point{} + 1000s;
  rate_limiter rl(20, 40, 10, t0);
  int allowed = 0, limited = 0;
  for (int i = 0; i < 50; ++i) {
    auto v = rl.on_message(t0);
    allowed += v == rate_limiter::verdict::allow;
    limited += v == rate_limiter::verdict::limited;
  }
  CHECK(allowed == 40);
  CHECK(limited == 10);
  // 20 per second: after 100 ms two more tokens.
  CHECK(rl.on_message(t0 + 100ms) == rate_limiter::verdict::allow);
  CHECK(rl.on_message(t0 + 100ms) == rate_limiter::verdict::allow);
  CHECK(rl.on_message(t0 + 100ms) == rate_limiter::verdict::limited);
  // The bucket never holds more than the burst.
  const auto later = t0 + 1h;
  allowed = 0;
  for (int i = 0; i < 100; ++i) allowed += rl.on_message(later + std::chrono::microseconds(i)) == rate_limiter::verdict::allow;
  CHECK(allowed == 40);
}

TEST_CASE("rate limiter: a steady client under the rate is never limited") {
  auto t = rate_limiter::clock::time_point{} + 5s;
  rate_limiter rl(20, 40, 10, t);
  for (int i = 0; i < 1000; ++i) {
    t += 60ms;  // ~16.7 per second
    REQUIRE(rl.on_message(t) == rate_limiter::verdict::allow);
  }
}

TEST_CASE("rate limiter: flooding (over factor x rate in one second) is detected") {
  const auto t0 = rate_limiter::clock::time_point{} + 7s;
  rate_limiter rl(20, 40, 10, t0);
  int i = 0;
  rate_limiter::verdict v = rate_limiter::verdict::allow;
  for (; i < 1000; ++i) {
    v = rl.on_message(t0 + std::chrono::microseconds(i * 100));
    if (v == rate_limiter::verdict::flood) break;
  }
  CHECK(v == rate_limiter::verdict::flood);
  CHECK(i == 200);  // message 201 within the second
  // A new second starts a new count.
  rate_limiter rl2(20, 40, 10, t0);
  for (int s = 0; s < 5; ++s)
    for (int k = 0; k < 150; ++k)
      CHECK(rl2.on_message(t0 + std::chrono::seconds(s) + std::chrono::microseconds(k)) != rate_limiter::verdict::flood);
}

TEST_CASE("rate limiter: 0 disables it") {
  rate_limiter rl(0, 1, 1);
  for (int i = 0; i < 10000; ++i) REQUIRE(rl.on_message() == rate_limiter::verdict::allow);
}

TEST_CASE("send queue: capped; overflow refused; messages shared") {
  send_queue q(3, 1 << 20);
  auto m = std::make_shared<const std::string>("x");
  CHECK(q.push(m));
  CHECK(q.push(m));
  CHECK(q.push(m));
  CHECK_FALSE(q.push(m));  // full: the connection is closed, memory stays bounded
  CHECK(q.size() == 3);
  CHECK(m.use_count() == 4);  // one string, queued three times
  q.pop();
  CHECK(q.push(std::make_shared<const std::string>("y")));
  q.drop_pending();  // keeps the message being written
  CHECK(q.size() == 1);
  CHECK(q.front() == "x");
  CHECK_FALSE(q.push(nullptr));
  send_queue one(0, 1 << 20);  // at least one slot
  CHECK(one.push(m));
  CHECK_FALSE(one.push(m));
}

TEST_CASE("send queue: capped in bytes; one large message alone still goes") {
  // A few large replies must not hold megabytes per connection (256 lobby
  // lists of 387 KB would be 97 MiB a connection).
  send_queue q(256, 1000);
  const auto big = std::make_shared<const std::string>(std::string(600, 'b'));
  const auto small = std::make_shared<const std::string>(std::string(100, 's'));
  CHECK(q.push(big));
  CHECK(q.push(small));
  CHECK(q.push(small));
  CHECK(q.push(small));
  CHECK(q.bytes() == 900);
  CHECK_FALSE(q.push(big));  // 1500 > 1000
  CHECK(q.push(small));      // exactly 1000
  CHECK_FALSE(q.push(std::make_shared<const std::string>("x")));
  q.pop();
  CHECK(q.bytes() == 400);
  q.drop_pending();
  CHECK(q.bytes() == 100);
  q.clear();
  CHECK(q.bytes() == 0);
  const auto huge = std::make_shared<const std::string>(std::string(5000, 'h'));
  CHECK(q.push(huge));  // alone: sent, however large (a full state of a big match)
  CHECK_FALSE(q.push(small));
}

TEST_CASE("metrics: Prometheus text names every metric") {
  metrics m;
  m.connections = 3;
  m.rooms = 2;
  m.action();
  m.action();
  m.error("bad_json");
  m.error("bad_json");
  m.error("not_your_turn");
  const auto text = m.prometheus(5, 7);
  CHECK(text.find("cod_rooms 2\n") != std::string::npos);
  CHECK(text.find("cod_connections 3\n") != std::string::npos);
  CHECK(text.find("cod_actions_total 2\n") != std::string::npos);
  CHECK(text.find("cod_actions_per_second ") != std::string::npos);
  CHECK(text.find("cod_errors_total{code=\"bad_json\"} 2\n") != std::string::npos);
  CHECK(text.find("cod_errors_total{code=\"not_your_turn\"} 1\n") != std::string::npos);
  CHECK(text.find("cod_persistence_pending 5\n") != std::string::npos);
  CHECK(text.find("cod_persistence_commits_total 7\n") != std::string::npos);
  CHECK(text.find("# TYPE cod_actions_total counter") != std::string::npos);
}

TEST_CASE("metrics: actions per second over the last whole seconds") {
  metrics m;
  const auto t = metrics::clock::now();
  for (int i = 0; i < 30; ++i) m.action(t);
  CHECK(m.actions_per_second(t) == doctest::Approx(0.0));  // the current second is still filling
  // Three seconds later: 30 actions over the window of min(10, elapsed) seconds.
  const double rate = m.actions_per_second(t + 3s);
  CHECK(rate > 0.0);
  CHECK(rate <= 30.0);
  CHECK(m.actions_per_second(t + 60s) == doctest::Approx(0.0));
}

TEST_CASE("trusted proxies: the client is X-Forwarded-For's last entry, only from a trusted proxy") {
  const auto trusted = cod::server::parse_trusted_proxies(" 127.0.0.1, ::1 ,,10.0.0.5");
  CHECK(trusted.size() == 3);
  CHECK(trusted.count("::1") == 1);
  using cod::server::client_address;
  // From the proxy: the entry the proxy appended (the last), not the client's own.
  CHECK(client_address("127.0.0.1", "203.0.113.7", trusted) == "203.0.113.7");
  CHECK(client_address("127.0.0.1", "1.2.3.4, 203.0.113.7", trusted) == "203.0.113.7");
  CHECK(client_address("10.0.0.5", "6.6.6.6,2001:db8::1", trusted) == "2001:db8::1");
  // From anyone else, or with no usable entry: the TCP peer.
  CHECK(client_address("198.51.100.2", "203.0.113.7", trusted) == "198.51.100.2");
  CHECK(client_address("127.0.0.1", "", trusted) == "127.0.0.1");
  CHECK(client_address("127.0.0.1", "1.2.3.4, not an address", trusted) == "127.0.0.1");
  CHECK(client_address("127.0.0.1", "1.2.3.4 ; rm -rf", trusted) == "127.0.0.1");
  CHECK(client_address("127.0.0.1", "203.0.113.7", {}) == "127.0.0.1");
}

TEST_CASE("trusted proxies: their connections are not counted against max_connections_per_address") {
  cod::server::connection_limits limits(2, 100, 100, {"127.0.0.1"});
  cod::server::connection_limits::refusal why{};
  std::vector<std::unique_ptr<cod::server::admission>> held;
  for (int i = 0; i < 10; ++i) {
    held.push_back(limits.admit("127.0.0.1", why));
    REQUIRE(held.back() != nullptr);
  }
  held.push_back(limits.admit("192.0.2.1", why));
  held.push_back(limits.admit("192.0.2.1", why));
  CHECK(held.back() != nullptr);
  CHECK(limits.admit("192.0.2.1", why) == nullptr);
  CHECK(why == cod::server::connection_limits::refusal::per_address);
}

TEST_CASE("refusal log: the first refusal of an interval at once, the rest as one summary line") {
  std::vector<std::string> lines;
  const auto t0 = refusal_log::clock::time_point{} + 100s;
  {
    refusal_log log("upgrade", 10s, [&](const std::string& l) { lines.push_back(l); });
    // 600 clients retrying every 100 ms for 20 s.
    for (int ms = 0; ms < 20000; ms += 100)
      for (int c = 0; c < 600; ++c) log.refused("10.0.0." + std::to_string(c % 3), "full", t0 + std::chrono::milliseconds(ms));
    CHECK(log.total() == 200u * 600u);
    // Two intervals: each has its first line; the first's summary came with
    // the second's first refusal; the second's is pending.
    REQUIRE(lines.size() == 3);
    CHECK(lines[0] == "upgrade: refused from 10.0.0.0: full (further refusals are summarised every 10 s)");
    CHECK(lines[1] == "upgrade: 59999 more refused in 10 s from 3 addresses; latest from 10.0.0.2: full");
    CHECK(lines[2].starts_with("upgrade: refused from 10.0.0.0"));
  }  // destroyed: the pending summary is written
  REQUIRE(lines.size() == 4);
  CHECK(lines[3] == "upgrade: 59999 more refused in 10 s from 3 addresses; latest from 10.0.0.2: full");
}

TEST_CASE("refusal log: a lone refusal is one line; one after a quiet interval starts a new one") {
  std::vector<std::string> lines;
  const auto t0 = refusal_log::clock::time_point{} + 100s;
  refusal_log log("accept", 10s, [&](const std::string& l) { lines.push_back(l); });
  log.refused("a", "x", t0);
  log.flush();
  CHECK(lines.size() == 1);  // nothing to summarise
  log.refused("b", "y", t0 + 60s);
  CHECK(lines.size() == 2);
  CHECK(lines[1].starts_with("accept: refused from b: y"));
}
