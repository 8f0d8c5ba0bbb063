// Solo (R12) and co-op (R11.7): the AI's turns run inside the engine, its deck
// order never leaves it (R16.2), setups are checked (R12.8, R13.1), and games
// are deterministic and replayable (R16.1).
#include <algorithm>
#include <set>
#include <sstream>

#include "fixtures.hpp"

using namespace cod;
using cod::test::id;

namespace {

match_config solo_config(int human_deck, std::uint64_t seed) {
  match_config cfg;
  cfg.mode = game_mode::solo;
  cfg.seat_count = 2;
  cfg.seed = seed;
  cfg.decks[0] = test::shipped().preconstructed_deck(human_deck);
  cfg.decks[1] = solo_ai_deck(test::shipped(), human_deck);
  return cfg;
}

match_config coop_config(int deck_a, int deck_c, std::uint64_t seed) {
  match_config cfg;
  cfg.mode = game_mode::coop;
  cfg.seat_count = 4;
  cfg.seed = seed;
  cfg.decks[0] = test::shipped().preconstructed_deck(deck_a);
  cfg.decks[1] = solo_ai_deck(test::shipped(), deck_a);  // RULING E41
  cfg.decks[2] = test::shipped().preconstructed_deck(deck_c);
  cfg.decks[3] = solo_ai_deck(test::shipped(), deck_c);
  return cfg;
}

// Every uid a view shows anywhere.
std::set<card_uid> uids_in(const seat_view& v) {
  std::set<card_uid> out;
  for (const auto& c : v.hand) out.insert(c.uid);
  for (const auto& c : v.teammate_hand) out.insert(c.uid);
  for (const auto& c : v.removed) out.insert(c.uid);
  for (const auto& s : v.seats) {
    if (s.champion.uid != no_uid) out.insert(s.champion.uid);
    for (const auto& c : s.discard) out.insert(c.uid);
  }
  for (const auto& l : v.lines)
    for (const auto& sd : l.sides)
      for (const auto& c : sd.creatures) {
        out.insert(c.uid);
        if (c.top.uid != no_uid) out.insert(c.top.uid);
        for (const auto& h : c.chained) out.insert(h.uid);
      }
  return out;
}

std::string dump(const seat_view& v) {
  std::ostringstream o;
  o << int(v.viewer) << ' ' << v.turn << ' ' << int(v.active_seat) << '|';
  for (const auto& s : v.seats) {
    o << s.hand_size << ',' << s.stronghold_pos << ',' << int(s.side) << ',' << s.health << ',' << s.ai << ','
      << s.deck_size << ':';
    for (const auto& c : s.discard) o << int(c.uid) << '/' << c.card << ' ';
    o << ';';
  }
  for (const auto& l : v.lines)
    for (const auto& sd : l.sides)
      for (const auto& c : sd.creatures) o << int(c.uid) << ':' << c.card << ' ';
  o << '|';
  for (const auto& c : v.hand) o << int(c.uid) << ':' << c.card << ' ';
  o << '|' << v.all_hands.size() << ' ' << v.ai_decks.size();
  return o.str();
}

}  // namespace

TEST_CASE("R12, R11.7: modes, seats and AI seats") {
  CHECK(game_mode_name(game_mode::solo) == "solo");
  CHECK(game_mode_name(game_mode::coop) == "coop");
  CHECK(game_mode_from_name("solo") == game_mode::solo);
  CHECK(game_mode_from_name("coop") == game_mode::coop);
  CHECK(seats_of(game_mode::solo) == 2);
  CHECK(seats_of(game_mode::coop) == 4);
  CHECK(!is_ai_seat(game_mode::solo, 0));
  CHECK(is_ai_seat(game_mode::solo, 1));
  CHECK(!is_ai_seat(game_mode::solo, 3));
  CHECK(!is_ai_seat(game_mode::coop, 0));
  CHECK(is_ai_seat(game_mode::coop, 1));
  CHECK(!is_ai_seat(game_mode::coop, 2));
  CHECK(is_ai_seat(game_mode::coop, 3));
  CHECK(!is_ai_seat(game_mode::two_vs_two, 1));
  CHECK(!is_ai_seat(game_mode::duel, 1));
  CHECK(solo_ai_deck(test::shipped(), 1).size() == 24);
}

TEST_CASE("R12.8: points of the AI options") {
  ai_settings ai;
  CHECK(ai_points(ai, 0) == 0);
  ai.fixed_mana = 10;
  CHECK(ai_points(ai, 0) == 4);
  ai.double_variable = true;
  ai.ai_first = true;
  ai.resistance = true;
  CHECK(ai_points(ai, 0) == 9);
  ai.granted = bit(ability::rage) | bit(ability::sprint);
  CHECK(ai_points(ai, 0) == 11);
  CHECK(ai_points(ai, 1) == 9);  // E45: a human Champion gives 2 points
  CHECK(ai_points(ai, 2) == 7);
  ai.granted = bit(ability::chain);  // not one of the 11
  CHECK(ai_points(ai, 0) < 0);
  ai = ai_settings{};
  ai.fixed_mana = 5;
  CHECK(ai_points(ai, 0) < 0);
}

TEST_CASE("R12.8, R13.1: setup checks return their codes and create nothing") {
  match m;
  std::vector<event> ev;
  match_config cfg = solo_config(1, 1);
  cfg.difficulty = 3;  // no options: 0 points
  CHECK(match::create(test::shipped(), cfg, m, ev) == rule_error::bad_difficulty);
  cfg.ai.fixed_mana = 9;  // 3 points
  CHECK(match::create(test::shipped(), cfg, m, ev) == rule_error::ok);
  cfg.champions[0] = id("ogre");  // 3 - 2 = 1 point for level 3
  CHECK(match::create(test::shipped(), cfg, m, ev) == rule_error::bad_difficulty);
  cfg.difficulty = 1;
  CHECK(match::create(test::shipped(), cfg, m, ev) == rule_error::ok);
  cfg.champions[1] = id("zombie");
  CHECK(match::create(test::shipped(), cfg, m, ev) == rule_error::champion_not_allowed);
  cfg = solo_config(1, 1);
  cfg.champions[0] = id("ogre");  // quick play
  CHECK(match::create(test::shipped(), cfg, m, ev) == rule_error::champion_not_allowed);
  cfg = solo_config(1, 1);
  cfg.decks[1].pop_back();
  CHECK(match::create(test::shipped(), cfg, m, ev) == rule_error::bad_deck_size);
  cfg = solo_config(1, 1);
  cfg.decks[1] = test::shipped().preconstructed_deck(2);  // an 8-card AI deck
  CHECK(match::create(test::shipped(), cfg, m, ev) == rule_error::bad_deck_size);
  match_config duel = test::precon_config(1, 2, 1);
  duel.difficulty = 1;
  duel.ai.ai_first = true;
  CHECK(match::create(test::shipped(), duel, m, ev) == rule_error::bad_difficulty);
  cfg = solo_config(1, 1);
  cfg.first_seat = 1;  // no coin toss and no choice in solo (R2.4, E42)
  CHECK(match::create(test::shipped(), cfg, m, ev) == rule_error::bad_setup);
}

TEST_CASE("E42: after create() and every apply() the active seat is a human's, or the game is over") {
  for (std::uint64_t seed = 1; seed <= 60; ++seed) {
    const bool coop = seed % 2 == 0;
    match_config cfg = coop ? coop_config(1 + int(seed % 4), 1 + int(seed / 4 % 4), seed)
                            : solo_config(1 + int(seed % 4), seed);
    if (seed % 3 == 0) {  // R12.8: the AI first
      cfg.difficulty = 1;
      cfg.ai.ai_first = true;
    }
    match m;
    std::vector<event> ev;
    REQUIRE(match::create(test::shipped(), cfg, m, ev) == rule_error::ok);
    CHECK(m.check_invariants() == "");
    CHECK(!is_ai_seat(cfg.mode, m.active_seat()));
    if (cfg.ai.ai_first) {
      // The AI's opening turn is reported by create().
      int ai_reveals = 0;
      for (const event& e : ev) ai_reveals += e.type == event_type::ai_revealed && e.seat == 1;
      CHECK(ai_reveals >= 1);
      CHECK(ev.front().type == event_type::match_started);
      CHECK(ev.front().seat == 1);
    }
    rng player(seed);
    std::vector<action> legal;
    for (int n = 0; n < 3000 && !m.over(); ++n) {
      m.legal_actions(legal);
      REQUIRE(!legal.empty());
      ev.clear();
      REQUIRE(m.apply(legal[player.below(legal.size())], ev) == rule_error::ok);
      REQUIRE(m.check_invariants() == "");
      if (!m.over()) CHECK(!is_ai_seat(cfg.mode, m.active_seat()));
      // An AI seat never acts through apply().
      CHECK(m.check(action::end(1)) == (m.over() ? rule_error::game_over : rule_error::bad_action));
    }
    CHECK(m.over());
  }
}

TEST_CASE("R16.1: solo and co-op games are deterministic and replay to the same digests") {
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    const match_config cfg = seed % 2 ? solo_config(1 + int(seed % 4), seed) : coop_config(2, 3, seed);
    match a, b;
    std::vector<event> ev;
    REQUIRE(match::create(test::shipped(), cfg, a, ev) == rule_error::ok);
    REQUIRE(match::create(test::shipped(), cfg, b, ev) == rule_error::ok);
    std::vector<action> log_a, log_b;
    std::vector<std::uint64_t> dig_a, dig_b;
    REQUIRE(test::play_random(a, seed * 7, log_a, 3000, &dig_a));
    REQUIRE(test::play_random(b, seed * 7, log_b, 3000, &dig_b));
    CHECK(log_a == log_b);
    CHECK(dig_a == dig_b);
    match r;
    int failed_at = 0;
    std::vector<std::uint64_t> dig_r;
    REQUIRE(replay(test::shipped(), cfg, log_a, r, failed_at, &dig_r) == rule_error::ok);
    CHECK(failed_at == -1);
    REQUIRE(dig_r.size() == dig_a.size() + 1);
    CHECK(std::equal(dig_a.begin(), dig_a.end(), dig_r.begin() + 1));
    CHECK(r.digest() == a.digest());
  }
  // Another seed shuffles the AI deck differently (and the digest says so).
  match x, y;
  std::vector<event> ev;
  REQUIRE(match::create(test::shipped(), solo_config(1, 1), x, ev) == rule_error::ok);
  REQUIRE(match::create(test::shipped(), solo_config(1, 2), y, ev) == rule_error::ok);
  CHECK(x.digest() != y.digest());
  CHECK(x.view(referee).ai_decks[1] != y.view(referee).ai_decks[1]);
}

TEST_CASE("R16.2: nobody but the referee sees the AI deck; everyone sees its size, discard pile and Stronghold") {
  for (std::uint64_t seed = 1; seed <= 30; ++seed) {
    const bool coop = seed % 2 == 0;
    const match_config cfg = coop ? coop_config(1, 4, seed) : solo_config(1 + int(seed % 4), seed);
    match m;
    std::vector<event> ev;
    REQUIRE(match::create(test::shipped(), cfg, m, ev) == rule_error::ok);
    rng player(seed);
    std::vector<action> legal;
    while (!m.over()) {
      const seat_view ref = m.view(referee);
      for (seat_t viewer : {seat_t{0}, seat_t{1}, seat_t{2}, spectator}) {
        if (viewer >= m.seat_count()) continue;
        const seat_view v = m.view(viewer);
        CHECK(v.ai_decks.empty());
        CHECK(v.all_hands.empty());
        const std::set<card_uid> seen = uids_in(v);
        for (int seat = 1; seat < m.seat_count(); seat += 2) {
          REQUIRE(v.seats[seat].ai);
          CHECK(v.seats[seat].deck_size == static_cast<int>(ref.ai_decks[seat].size()));
          CHECK(v.seats[seat].health == v.seats[seat].deck_size);
          CHECK(v.seats[seat].hand_size == 0);
          CHECK(v.seats[seat].side == ref.seats[seat].side);
          CHECK(v.seats[seat].discard == ref.seats[seat].discard);
          for (const card_ref& c : ref.ai_decks[seat]) CHECK(seen.count(c.uid) == 0);
        }
        if (viewer == 1) CHECK(v.hand.empty());  // an AI seat has no hand to show
      }
      m.legal_actions(legal);
      ev.clear();
      REQUIRE(m.apply(legal[player.below(legal.size())], ev) == rule_error::ok);
    }
  }
}

TEST_CASE("R16.2: two positions that differ only in the AI deck's order look the same to every player") {
  position_setup p;
  p.mode = game_mode::solo;
  seat_setup human;
  human.hand = {id("zombie"), id("boom"), id("baron"), id("partisan")};
  human.mana = 6;
  seat_setup ai;
  ai.deck = {id("troll"), id("brute"), id("ogre"), id("martyr"), id("scribe")};
  ai.discard = {id("grrr")};
  p.seats = {human, ai};
  position_setup q = p;
  q.seats[1].deck = {id("scribe"), id("martyr"), id("ogre"), id("brute"), id("troll")};
  match a, b;
  REQUIRE(match::from_position(test::shipped(), p, a) == rule_error::ok);
  REQUIRE(match::from_position(test::shipped(), q, b) == rule_error::ok);
  CHECK(dump(a.view(0)) == dump(b.view(0)));
  CHECK(dump(a.view(spectator)) == dump(b.view(spectator)));
  CHECK(a.view(referee).ai_decks != b.view(referee).ai_decks);
  CHECK(a.digest() != b.digest());
  // The same holds once the human has played a card (the AI's reveals differ only after end_turn).
  std::vector<event> ev;
  const action play = action::play_creature(0, a.view(0).hand[0].uid, 0);
  REQUIRE(a.apply(play, ev) == rule_error::ok);
  REQUIRE(b.apply(play, ev) == rule_error::ok);
  CHECK(dump(a.view(0)) == dump(b.view(0)));
}

TEST_CASE("A position never has an AI seat active, nor a hand for an AI") {
  position_setup p;
  p.mode = game_mode::solo;
  seat_setup human;
  human.hand = {id("zombie"), id("boom")};
  seat_setup ai;
  ai.deck = {id("troll")};
  p.seats = {human, ai};
  match m;
  p.active_seat = 1;
  CHECK(match::from_position(test::shipped(), p, m) == rule_error::bad_setup);
  p.active_seat = 0;
  p.seats[1].hand = {id("brute")};
  CHECK(match::from_position(test::shipped(), p, m) == rule_error::bad_setup);
  p.seats[1].hand.clear();
  p.seats[1].deck.clear();  // an empty deck: R12.5/R12.6 would have acted
  CHECK(match::from_position(test::shipped(), p, m) == rule_error::bad_setup);
}
