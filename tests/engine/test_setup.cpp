// R2 setup, R14.1 preconstructed decks, R1.2/R14.6 deck checks, R3.1 first mana.
#include <algorithm>
#include <set>

#include "fixtures.hpp"

using namespace cod;
using cod::test::id;
using cod::test::shipped;

TEST_CASE("R14.1 the four preconstructed decks have 8 different cards each") {
  std::set<card_id> all;
  for (int d = 1; d <= 4; ++d) {
    const auto deck = shipped().preconstructed_deck(d);
    CHECK(deck.size() == 8);
    CHECK(match::check_deck(shipped(), deck) == rule_error::ok);
    all.insert(deck.begin(), deck.end());
  }
  CHECK(all.size() == 32);
}

TEST_CASE("R2.3 each hand is the seat's 8 cards shuffled, Stronghold leftmost, Bastion up") {
  match m;
  std::vector<event> ev;
  REQUIRE(match::create(shipped(), test::precon_config(1, 2, 11), m, ev) == rule_error::ok);
  const seat_view v = m.view(referee);
  for (int seat = 0; seat < 2; ++seat) {
    const auto& h = v.all_hands[seat];
    CHECK(h.size() == 8);
    CHECK(v.seats[seat].stronghold_pos == 0);
    CHECK(v.seats[seat].side == stronghold_side::bastion);
    CHECK(v.seats[seat].health == 8);
    std::vector<card_id> got, want = shipped().preconstructed_deck(seat + 1);
    for (const auto& c : h) got.push_back(c.card);
    std::sort(got.begin(), got.end());
    std::sort(want.begin(), want.end());
    CHECK(got == want);
  }
  CHECK(v.turn == 1);
  CHECK(v.round == 1);
  CHECK(ev.front().type == event_type::match_started);
}

TEST_CASE("R2.3 the shuffle depends on the seed; uids follow the deck list, not the shuffle") {
  std::set<std::vector<card_uid>> orders;
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    match m;
    std::vector<event> ev;
    REQUIRE(match::create(shipped(), test::precon_config(3, 4, seed), m, ev) == rule_error::ok);
    const seat_view v = m.view(referee);
    std::vector<card_uid> order;
    for (const auto& c : v.all_hands[0]) order.push_back(c.uid);
    orders.insert(order);
    // uid i of seat 0 is the i-th card of its deck list, whatever the shuffle.
    const auto deck = shipped().preconstructed_deck(3);
    for (const auto& c : v.all_hands[0]) CHECK(c.card == deck[c.uid]);
  }
  CHECK(orders.size() >= 19);  // 8! orders: 20 seeds all but surely differ
}

TEST_CASE("R2.4 the coin toss picks either seat; R3.1 the first player gets 6 mana") {
  int first[2] = {0, 0};
  for (std::uint64_t seed = 0; seed < 200; ++seed) {
    match m;
    std::vector<event> ev;
    REQUIRE(match::create(shipped(), test::precon_config(1, 1, seed), m, ev) == rule_error::ok);
    const seat_view v = m.view(referee);
    ++first[v.first_seat];
    CHECK(v.active_seat == v.first_seat);
    CHECK(v.seats[v.first_seat].mana == 6);
  }
  CHECK(first[0] > 60);
  CHECK(first[1] > 60);
}

TEST_CASE("R2.4 a fixed first seat is honoured; R3.1 the second player's first turn is hand + 1") {
  match_config cfg = test::precon_config(1, 2, 5);
  cfg.first_seat = 1;
  match m;
  std::vector<event> ev;
  REQUIRE(match::create(shipped(), cfg, m, ev) == rule_error::ok);
  CHECK(m.active_seat() == 1);
  REQUIRE(m.apply(action::end(1), ev) == rule_error::ok);
  CHECK(m.active_seat() == 0);
  CHECK(m.view(0).seats[0].mana == 9);  // 8 cards + Stronghold
}

TEST_CASE("R1.2 / R14.6 deck checks: size, duplicates, unknown cards") {
  auto deck = shipped().preconstructed_deck(1);
  CHECK(match::check_deck(shipped(), {deck.begin(), deck.begin() + 7}) == rule_error::bad_deck_size);
  auto dup = deck;
  dup[7] = dup[0];
  CHECK(match::check_deck(shipped(), dup) == rule_error::duplicate_card);
  auto unknown = deck;
  unknown[3] = static_cast<card_id>(shipped().size());
  CHECK(match::check_deck(shipped(), unknown) == rule_error::unknown_card);
  // A constructed deck (R14.6) of 8 different Initiation cards from several decks is fine.
  std::vector<card_id> mixed = {id("brute"), id("troll"), id("alpha"), id("ogre"),
                                id("parasite"), id("gnome"), id("mutant"), id("cyclone")};
  CHECK(match::check_deck(shipped(), mixed) == rule_error::ok);
  // Every card of the catalogue is playable (R7 is implemented in full).
  auto later = mixed;
  later[0] = id("dripping_nightmare");
  CHECK(match::check_deck(shipped(), later) == rule_error::ok);

  match m;
  std::vector<event> ev;
  match_config cfg = test::precon_config(1, 2, 1);
  cfg.decks[1] = dup;
  CHECK(match::create(shipped(), cfg, m, ev) == rule_error::duplicate_card);
  cfg = test::precon_config(1, 2, 1);
  cfg.seat_count = 3;
  CHECK(match::create(shipped(), cfg, m, ev) == rule_error::bad_setup);
}

TEST_CASE("catalogue::validate names the field at fault") {
  card_def d;
  d.id = "test_card";
  d.name = "TEST";
  d.stats = {card_type::creature, 3, 2, 2, false, 0, 0};
  CHECK(!catalogue::validate(d));
  auto field_of = [](card_def c) { return catalogue::validate(c)->field; };
  card_def bad = d;
  bad.stats.mana = -1;
  CHECK(field_of(bad) == "mana");
  bad = d;
  bad.stats.hp = 0;
  CHECK(field_of(bad) == "hp");
  bad = d;
  bad.stats.type = card_type::incantation;  // an incantation with health
  CHECK(field_of(bad) == "hp");
  bad = d;
  bad.stats.abilities = bit(ability::vulnerability);  // Vulnerability prints X
  CHECK(field_of(bad) == "av");
  bad = d;
  bad.id.clear();
  CHECK(field_of(bad) == "id");

  catalogue cat;
  CHECK(!cat.add(d));
  auto again = cat.add(d);
  REQUIRE(again);
  CHECK(again->field == "id");
  CHECK(cat.size() == 1);
}
