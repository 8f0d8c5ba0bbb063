// R13 Champion module: setup validation (R13.1, E40), the uid and generator
// guarantees that keep matches without Champions unchanged, determinism and
// replays with Champions (R16.1), legal actions against check() with a
// Champion (R13.2), and the invariants in random games.
#include <algorithm>

#include "fixtures.hpp"

using namespace cod;
using cod::test::id;
using cod::test::shipped;

namespace {

match_config with_champions(int deck_a, int deck_b, std::uint64_t seed, const char* a, const char* b) {
  match_config cfg = test::precon_config(deck_a, deck_b, seed, seed & 1);
  if (a) cfg.champions[0] = id(a);
  if (b) cfg.champions[1] = id(b);
  return cfg;
}

std::vector<std::uint64_t> run(const match_config& cfg, std::uint64_t player_seed, std::vector<action>& log) {
  match m;
  std::vector<event> ev;
  REQUIRE(match::create(shipped(), cfg, m, ev) == rule_error::ok);
  std::vector<std::uint64_t> digests{m.digest()};
  REQUIRE(test::play_random(m, player_seed, log, 3000, &digests));
  CHECK(m.check_invariants() == "");
  return digests;
}

}  // namespace

TEST_CASE("R13.1 check_champion: none, a creature outside the deck; else bad_champion or unknown_card") {
  const auto deck = shipped().preconstructed_deck(1);  // baron, brute, carapace, troll, ...
  CHECK(match::check_champion(shipped(), no_card, deck) == rule_error::ok);
  CHECK(match::check_champion(shipped(), id("ogre"), deck) == rule_error::ok);
  CHECK(match::check_champion(shipped(), id("brute"), deck) == rule_error::bad_champion);  // in the deck
  CHECK(match::check_champion(shipped(), id("mental_strike"), deck) == rule_error::bad_champion);  // an incantation
  CHECK(match::check_champion(shipped(), static_cast<card_id>(shipped().size()), deck) == rule_error::unknown_card);
  CHECK(error_name(rule_error::bad_champion) == "bad_champion");
  CHECK(error_name(rule_error::champion_exhausted) == "champion_exhausted");
  CHECK(!error_message(rule_error::bad_champion).empty());
}

TEST_CASE("R13.1 match::create refuses a bad Champion, and one for a seat not at the table") {
  match m;
  std::vector<event> ev;
  CHECK(match::create(shipped(), with_champions(1, 2, 1, "brute", nullptr), m, ev) == rule_error::bad_champion);
  CHECK(match::create(shipped(), with_champions(1, 2, 1, nullptr, "ogre"), m, ev) == rule_error::bad_champion);
  CHECK(match::create(shipped(), with_champions(1, 2, 1, "boom", nullptr), m, ev) == rule_error::bad_champion);
  match_config cfg = with_champions(1, 2, 1, "ogre", "brute");
  cfg.champions[0] = static_cast<card_id>(shipped().size() + 3);
  CHECK(match::create(shipped(), cfg, m, ev) == rule_error::unknown_card);
  cfg = with_champions(1, 2, 1, "ogre", "brute");
  cfg.champions[2] = id("titan");  // a duel has 2 seats
  CHECK(match::create(shipped(), cfg, m, ev) == rule_error::bad_setup);
  // Four players: each seat's deck is checked against its own Champion.
  cfg = match_config{};
  cfg.mode = game_mode::ffa;
  cfg.seat_count = 4;
  for (int s = 0; s < 4; ++s) cfg.decks[s] = shipped().preconstructed_deck(s + 1);
  cfg.champions = {id("ogre"), id("brute"), id("titan"), id("titan")};
  CHECK(match::create(shipped(), cfg, m, ev) == rule_error::ok);
  cfg.champions[3] = id("zombie");  // in deck 4
  CHECK(match::create(shipped(), cfg, m, ev) == rule_error::bad_champion);
}

TEST_CASE("E40 Champions take uids after every deck card and draw nothing: hands, first seat and deck uids are unchanged") {
  for (std::uint64_t seed = 1; seed <= 30; ++seed) {
    match plain, champ;
    std::vector<event> ev1, ev2;
    REQUIRE(match::create(shipped(), with_champions(3, 4, seed, nullptr, nullptr), plain, ev1) == rule_error::ok);
    REQUIRE(match::create(shipped(), with_champions(3, 4, seed, "titan", "brute"), champ, ev2) == rule_error::ok);
    const seat_view a = plain.view(referee), b = champ.view(referee);
    CHECK(a.all_hands == b.all_hands);
    CHECK(a.first_seat == b.first_seat);
    CHECK(ev1 == ev2);
    CHECK(b.seats[0].champion.uid == 16);
    CHECK(b.seats[1].champion.uid == 17);
    CHECK(b.seats[0].champion.card == id("titan"));
    CHECK(b.seats[0].champion.state == champion_status::ready);
    CHECK(a.seats[0].champion.uid == no_uid);
    CHECK(a.seats[0].champion.state == champion_status::none);
    // The Champion is public: every viewer sees it (R13.1, R16.2).
    for (seat_t v : {seat_t{0}, seat_t{1}, spectator})
      CHECK(champ.view(v).seats[1].champion.card == id("brute"));
    // Only the Champions' own words differ in the digest.
    CHECK(plain.digest() != champ.digest());
    CHECK(plain.check_invariants() == "");
    CHECK(champ.check_invariants() == "");
  }
}

TEST_CASE("R16.1 with Champions: the same seed and actions give the same digests; a log replays") {
  for (std::uint64_t seed = 40; seed < 60; ++seed) {
    const match_config cfg = with_champions(1 + int(seed % 4), 1 + int(seed / 4 % 4), seed, "titan", "giant");
    std::vector<action> log1, log2;
    const auto a = run(cfg, seed * 3, log1);
    const auto b = run(cfg, seed * 3, log2);
    CHECK(a == b);
    CHECK(log1 == log2);
    match replayed;
    int failed_at = 0;
    std::vector<std::uint64_t> digests;
    REQUIRE(replay(shipped(), cfg, log1, replayed, failed_at, &digests) == rule_error::ok);
    CHECK(failed_at == -1);
    CHECK(digests == a);
  }
}

TEST_CASE("R13.2 a ready Champion is listed after the hand's plays, check() agrees, and an exhausted one is not") {
  // Seat 0: BRUTE as a ready Champion, four playable hand cards and a fifth.
  position_setup p;
  p.seats.resize(2);
  p.seats[0].hand = {id("zombie"), id("baron"), id("treant"), id("lantern_fish"), id("fresh_recruit")};
  p.seats[0].mana = 20;
  p.seats[0].champion = id("brute");
  p.seats[1].hand = {id("troll"), id("boom")};
  match m;
  REQUIRE(match::from_position(shipped(), p, m) == rule_error::ok);
  const card_uid brute = m.view(0).seats[0].champion.uid;
  CHECK(brute == 7);  // after the 5 + 2 hand cards
  std::vector<action> legal;
  m.legal_actions(legal);
  // 4 hand creatures x 2 lines, then BRUTE x 2 lines, then end_turn.
  REQUIRE(legal.size() == 4 * 2 + 2 + 1);
  CHECK(legal[8] == action::play_creature(0, brute, 0));
  CHECK(legal[9] == action::play_creature(0, brute, 1));
  CHECK(legal[10] == action::end(0));
  for (const action& a : legal) CHECK(m.check(a) == rule_error::ok);
  CHECK(m.view(0).playable == std::vector<card_uid>{0, 1, 2, 3, brute});
  CHECK(m.check(action::play_creature(1, brute, 0)) == rule_error::not_your_turn);
  CHECK(m.check(action::play_incantation(0, brute, no_uid)) == rule_error::bad_line);

  // Exhausted: not listed, refused with its own code, not playable in the view.
  p.seats[0].champion_exhausted = true;
  REQUIRE(match::from_position(shipped(), p, m) == rule_error::ok);
  m.legal_actions(legal);
  CHECK(legal.size() == 4 * 2 + 1);
  CHECK(m.check(action::play_creature(0, brute, 0)) == rule_error::champion_exhausted);
  CHECK(m.view(0).playable == std::vector<card_uid>{0, 1, 2, 3});
  CHECK(m.check_invariants() == "");

  // Not enough mana for its reduced cost: not listed either.
  p.seats[0].champion_exhausted = false;
  p.seats[0].mana = 3;
  REQUIRE(match::from_position(shipped(), p, m) == rule_error::ok);
  m.legal_actions(legal);
  CHECK(std::find(legal.begin(), legal.end(), action::play_creature(0, brute, 0)) == legal.end());
  CHECK(m.check(action::play_creature(0, brute, 0)) == rule_error::insufficient_mana);
}

TEST_CASE("R13 random games with Champions: every listed action applies; check() refuses the rest unchanged; invariants hold") {
  std::vector<action> legal;
  std::vector<event> ev;
  long exhausted = 0, readied = 0, played = 0;
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    match m;
    REQUIRE(match::create(shipped(), with_champions(1 + int(seed % 4), 1 + int(seed / 4 % 4), seed, "titan", "giant"),
                          m, ev) == rule_error::ok);
    const card_uid champions[2] = {m.view(0).seats[0].champion.uid, m.view(0).seats[1].champion.uid};
    rng player(seed + 1000);
    while (!m.over()) {
      m.legal_actions(legal);
      REQUIRE(!legal.empty());
      for (seat_t seat = 0; seat < 2; ++seat)
        for (int line = 0; line < 2; ++line) {
          const action a = action::play_creature(seat, champions[seat], line);
          const bool listed = std::find(legal.begin(), legal.end(), a) != legal.end();
          CHECK(listed == (m.check(a) == rule_error::ok));
        }
      ev.clear();
      const action a = legal[player.below(legal.size())];
      REQUIRE(m.apply(a, ev) == rule_error::ok);
      REQUIRE(m.check_invariants() == "");
      for (const event& e : ev) {
        exhausted += e.type == event_type::champion_exhausted;
        readied += e.type == event_type::champion_readied;
        played += e.type == event_type::card_played && (e.uid == champions[0] || e.uid == champions[1]);
      }
    }
  }
  CHECK(played > 20);
  CHECK(exhausted > 5);
  CHECK(readied > 2);
}
