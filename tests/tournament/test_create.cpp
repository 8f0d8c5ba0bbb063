// Creating a tournament: validation, join tokens, the seed order.
#include <set>

#include "common/sha256.hpp"
#include "helpers.hpp"

using namespace cod;
using namespace cod::tournaments;
using namespace cod::tournaments::test;

namespace {

status try_create(const config& c, int n) {
  tournament t;
  std::vector<std::string> tokens;
  const status s = tournament::create(c, names(n), seeded_random(1), t, tokens);
  if (!s.ok()) {
    CHECK(t == tournament{});
    CHECK(tokens.empty());
  }
  return s;
}

}  // namespace

TEST_CASE("create: defaults are a best-of-one duel with the exhaustion rule") {
  const config c;
  CHECK(c.mode == "duel");
  CHECK(c.best_of == 1);
  CHECK(c.exhaustion);
  CHECK(!c.clock);
  CHECK(c.top_cut == 0);
}

TEST_CASE("create: every invalid configuration is refused with its field") {
  struct bad {
    const char* what;
    std::function<void(config&)> change;
    int players;
    errc code;
  };
  const bad cases[] = {
      {"name", [](config& c) { c.name = ""; }, 8, errc::invalid_config},
      {"name", [](config& c) { c.name = std::string(65, 'x'); }, 8, errc::invalid_config},
      {"name", [](config& c) { c.name = "a\nb"; }, 8, errc::invalid_config},
      {"mode", [](config& c) { c.mode = "ffa"; }, 8, errc::invalid_config},
      {"format", [](config& c) { c.format = ""; }, 8, errc::invalid_config},
      {"format", [](config& c) { c.format = "Bad Format"; }, 8, errc::invalid_config},
      {"best_of", [](config& c) { c.best_of = 2; }, 8, errc::invalid_config},
      {"swiss_rounds", [](config& c) { c.swiss_rounds = 0; }, 8, errc::invalid_config},
      {"swiss_rounds", [](config& c) { c.swiss_rounds = 8; }, 8, errc::invalid_config},
      {"swiss_rounds", [](config& c) { c.swiss_rounds = 2; }, 2, errc::invalid_config},
      {"top_cut", [](config& c) { c.top_cut = 3; }, 8, errc::invalid_config},
      {"top_cut", [](config& c) { c.top_cut = 16; }, 20, errc::invalid_config},
      {"top_cut", [](config& c) { c.top_cut = 8; c.swiss_rounds = 3; }, 6, errc::invalid_config},
      {"clock.bank_ms", [](config& c) { c.clock = clock_settings{999, 0}; }, 8, errc::invalid_config},
      {"clock.increment_ms", [](config& c) { c.clock = clock_settings{60000, -1}; }, 8, errc::invalid_config},
      {"players", [](config& c) { c.swiss_rounds = 1; }, 1, errc::invalid_players},
      {"players", [](config& c) { c.swiss_rounds = 1; }, 513, errc::invalid_players},
  };
  for (const bad& b : cases) {
    config c = make_config(3);
    b.change(c);
    const status s = try_create(c, b.players);
    CAPTURE(b.what);
    CHECK(s.code == b.code);
    CHECK(s.detail.find(b.what) != std::string::npos);
  }
  config ok = make_config(7, 3, 8);
  ok.clock = clock_settings{600000, 5000};
  CHECK(try_create(ok, 8).ok());
  CHECK(try_create(make_config(1), 2).ok());
}

TEST_CASE("create: player names must be present, short, and distinct ignoring case") {
  const config c = make_config(1);
  const std::vector<std::vector<std::string>> bad = {
      {"Ann", ""}, {"Ann", "ann"}, {"Ann", " Bob"}, {"Ann", "Bob "}, {"Ann", std::string(33, 'b')}, {"Ann", "B\tb"}};
  for (const auto& v : bad) {
    tournament t;
    std::vector<std::string> tokens;
    CHECK(tournament::create(c, v, seeded_random(1), t, tokens).code == errc::invalid_players);
  }
  tournament t;
  std::vector<std::string> tokens;
  // 32 characters of UTF-8 (64 bytes) is fine.
  std::string long_utf8;
  for (int i = 0; i < 32; ++i) long_utf8 += "\xc3\xa9";
  REQUIRE(tournament::create(c, {"Ann", long_utf8}, seeded_random(1), t, tokens).ok());
  CHECK(t.find_player("ANN") == 0);
  CHECK(t.find_player(long_utf8) == 1);
  CHECK(!t.find_player("Bob"));
}

TEST_CASE("create: join tokens are 32 hex digits from the random source; only hashes are kept") {
  std::vector<std::string> tokens;
  tournament t = make(6, make_config(3), &tokens);
  REQUIRE(tokens.size() == 6);
  std::set<std::string> distinct(tokens.begin(), tokens.end());
  CHECK(distinct.size() == 6);
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    CHECK(tokens[i].size() == token_chars);
    CHECK(tokens[i].find_first_not_of("0123456789abcdef") == std::string::npos);
    CHECK(t.players()[i].token_hash == server::sha256_hex(tokens[i]));
    CHECK(t.players()[i].token_hash != tokens[i]);
    CHECK(t.find_player_by_token(tokens[i]) == static_cast<player_id>(i));
  }
  CHECK(!t.find_player_by_token("0123456789abcdef0123456789abcdef"));
  CHECK(!t.find_player_by_token(""));
  // The same source gives the same tokens; the tournament seed does not.
  std::vector<std::string> again;
  make(6, make_config(3), &again);
  CHECK(again == tokens);
  tournament u;
  std::vector<std::string> other;
  REQUIRE(tournament::create(make_config(3), names(6), seeded_random(99), u, other).ok());
  CHECK(other != tokens);
  CHECK(u.players()[0].seed_order == t.players()[0].seed_order);
}

TEST_CASE("create: with the tournament's id, each token names it (ID.HEX); the players are found by it") {
  std::vector<std::string> plain, named;
  tournament a, b;
  REQUIRE(tournament::create(make_config(3), names(4), seeded_random(5), a, plain).ok());
  REQUIRE(tournament::create(make_config(3), names(4), seeded_random(5), b, named, "n2-t0123456789").ok());
  REQUIRE(named.size() == 4);
  for (std::size_t i = 0; i < named.size(); ++i) {
    // The secret part is what a plain token would have been; the id is in front.
    CHECK(named[i] == "n2-t0123456789." + plain[i]);
    CHECK(b.find_player_by_token(named[i]) == static_cast<player_id>(i));
    // Only the whole token is the player's: its secret alone, or another id, is not.
    CHECK(!b.find_player_by_token(plain[i]));
    CHECK(!b.find_player_by_token("n3-t0123456789." + plain[i]));
  }
}

TEST_CASE("create: the seed order is a permutation drawn from the seed") {
  std::set<std::vector<int>> seen;
  for (std::uint64_t seed = 0; seed < 20; ++seed) {
    tournament t = make(8, make_config(3, 1, 0, seed));
    std::vector<int> order;
    for (const player& p : t.players()) order.push_back(p.seed_order);
    std::vector<int> sorted = order;
    std::sort(sorted.begin(), sorted.end());
    CHECK(sorted == std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7});
    seen.insert(order);
    // Documented: rng(seed) shuffles the ids; a player's seed_order is its position.
    std::vector<int> ids{0, 1, 2, 3, 4, 5, 6, 7};
    rng g(seed);
    g.shuffle(ids.data(), 8);
    for (int pos = 0; pos < 8; ++pos) CHECK(order[static_cast<std::size_t>(ids[static_cast<std::size_t>(pos)])] == pos);
  }
  CHECK(seen.size() == 20);
}

TEST_CASE("warnings: too few rounds, a very large cut") {
  CHECK(tournament::warnings(make_config(3), 8).empty());
  CHECK(tournament::warnings(make_config(2), 8).size() == 1);
  CHECK(tournament::warnings(make_config(4, 1, 8), 9).size() == 1);  // the cut only
  CHECK(tournament::warnings(make_config(4, 1, 8), 16).empty());
}

TEST_CASE("create: player and tournament names get the join's check (bidi, C1, invisible-only), saying why") {
  const config c = make_config(1);
  const struct {
    std::string name;
    const char* says;
  } bad[] = {
      {"Ann\xE2\x80\xAEgnp", "player 2: the name contains a bidirectional control character (U+202E)"},
      {"a\xE2\x81\xA6" "b", "player 2: the name contains a bidirectional control character (U+2066)"},
      {"a\xD8\x9C", "player 2: the name contains a bidirectional control character (U+061C)"},
      {"a\xC2\x85" "b", "player 2: the name contains a C1 control character (U+0085)"},
      {"\xE2\x80\x8B\xE2\x80\x8D", "player 2: the name has no visible character"},
      {"\xEF\xBB\xBF", "player 2: the name has no visible character"},
      {"\xCC\x81\xCC\x81", "player 2: the name has no visible character"},
      {"\xC3", "player 2: the name is not valid UTF-8"},
      {" Bob", "player 2: the name starts or ends with a space"},
  };
  for (const auto& b : bad) {
    CAPTURE(b.name);
    tournament t;
    std::vector<std::string> tokens;
    const status s = tournament::create(c, {"Ann", b.name}, seeded_random(1), t, tokens);
    CHECK(s.code == errc::invalid_players);
    CHECK(s.detail.find(b.says) == 0);
  }
  config named = make_config(1);
  named.name = "Cup\xE2\x80\xAE";
  const status s = try_create(named, 2);
  CHECK(s.code == errc::invalid_config);
  CHECK(s.detail.find("name: the tournament's name contains a bidirectional control character (U+202E)") == 0);
}
