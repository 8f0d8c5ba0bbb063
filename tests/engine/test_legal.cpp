// Legal-action generation agrees with validation: every listed action
// applies; every action not listed is rejected and changes nothing (R3.2).
#include <algorithm>

#include "fixtures.hpp"

using namespace cod;

namespace {

// Every action shape over every uid, line and target, both seats.
std::vector<action> candidates(const match& m) {
  std::vector<action> out;
  const seat_view ref = m.view(referee);
  std::vector<card_uid> creatures;
  for (const auto& l : ref.lines)
    for (const auto& s : l.sides)
      for (const auto& c : s.creatures) creatures.push_back(c.uid);
  for (seat_t seat = 0; seat < 2; ++seat) {
    out.push_back(action::end(seat));
    for (int u = 0; u < 17; ++u) {  // 16 cards in a duel, plus one that does not exist
      const auto uid = static_cast<card_uid>(u);
      for (int line = -1; line <= 2; ++line) out.push_back(action::play_creature(seat, uid, line));
      for (card_uid t : creatures) out.push_back(action::play_incantation(seat, uid, t));
      out.push_back(action::play_incantation(seat, uid, no_uid));
    }
  }
  out.push_back(action::end(5));
  return out;
}

}  // namespace

TEST_CASE("R3.2 check() accepts exactly the listed legal actions; rejections change nothing") {
  std::vector<action> legal;
  std::vector<event> ev;
  long checked = 0;
  for (std::uint64_t seed = 1; seed <= 12; ++seed) {
    match m;
    REQUIRE(match::create(test::shipped(), test::precon_config(1 + int(seed % 4), 1 + int(seed / 4 % 4), seed), m, ev) ==
            rule_error::ok);
    rng player(seed + 100);
    while (!m.over()) {
      m.legal_actions(legal);
      REQUIRE(!legal.empty());
      for (const action& a : candidates(m)) {
        const bool listed = std::find(legal.begin(), legal.end(), a) != legal.end();
        const rule_error e = m.check(a);
        CHECK_MESSAGE(listed == (e == rule_error::ok), "seed ", seed, " error ", error_name(e));
        if (!listed) {
          match copy = m;
          std::vector<event> none;
          CHECK(copy.apply(a, none) == e);
          CHECK(none.empty());
          CHECK(copy.digest() == m.digest());
        }
        ++checked;
      }
      ev.clear();
      REQUIRE(m.apply(legal[player.below(legal.size())], ev) == rule_error::ok);
    }
  }
  CHECK(checked > 10000);
}

TEST_CASE("R3.2.6 a play's outcome: the seat's mana and health after it, the match unchanged") {
  std::vector<action> legal;
  std::vector<event> ev;
  int right_of = 0, left_of = 0, incantations = 0;
  for (std::uint64_t seed = 1; seed <= 6; ++seed) {
    match m;
    REQUIRE(match::create(test::shipped(), test::precon_config(1 + int(seed % 4), 1 + int(seed / 4 % 4), seed), m, ev) ==
            rule_error::ok);
    rng player(seed + 7);
    while (!m.over()) {
      m.legal_actions(legal);
      const seat_view before = m.view(referee);
      const seat_t me = m.active_seat();
      const auto& my = before.seats[me];
      for (const action& a : legal) {
        const std::uint64_t digest = m.digest();
        const auto o = m.outcome(a);
        CHECK(m.digest() == digest);
        REQUIRE(o);
        // The outcome is what applying it does.
        match copy = m;
        std::vector<event> none;
        REQUIRE(copy.apply(a, none) == rule_error::ok);
        const seat_view after = copy.view(referee);
        CHECK(o->mana == after.seats[me].mana);
        CHECK(o->health == after.seats[me].health);
        if (a.type != action_type::play) continue;
        // R3.2.6 for a creature of the hand: right of the Stronghold costs 1 health,
        // left of it none (unless Price of Blood or Immolation took more).
        const auto hand = m.view(me).hand;
        const auto at = std::find_if(hand.begin(), hand.end(), [&](const card_ref& h) { return h.uid == a.card; });
        if (at == hand.end()) continue;  // the Champion
        const bool right = (at - hand.begin()) >= my.stronghold_pos;
        const card_stats& st = test::shipped().stats(at->card);
        if (st.type == card_type::incantation) {
          ++incantations;
          continue;
        }
        if (has(st.abilities, ability::price_of_blood)) continue;
        if (right) {
          ++right_of;
          CHECK(o->health <= my.health - 1);
        } else {
          ++left_of;
          CHECK(o->health <= my.health);
        }
      }
      // A refused action has no outcome.
      CHECK_FALSE(m.outcome(action::play_creature(me, 200, 0)));
      ev.clear();
      REQUIRE(m.apply(legal[player.below(legal.size())], ev) == rule_error::ok);
    }
  }
  CHECK(right_of > 0);
  CHECK(left_of > 0);
  CHECK(incantations > 0);
}

TEST_CASE("R16.3 concede is legal for any seat at any time, then the game is over") {
  match m;
  std::vector<event> ev;
  REQUIRE(match::create(test::shipped(), test::precon_config(1, 2, 3), m, ev) == rule_error::ok);
  const seat_t idle = static_cast<seat_t>(1 - m.active_seat());
  CHECK(m.apply(action::concede_by(idle), ev) == rule_error::ok);
  CHECK(m.over());
  CHECK(m.winners() == (1u << m.active_seat()));
  CHECK(winner_seats(m.winners()) == std::vector<int>{m.active_seat()});
  CHECK(m.apply(action::end(m.active_seat()), ev) == rule_error::game_over);
  CHECK(m.apply(action::concede_by(m.active_seat()), ev) == rule_error::game_over);
  std::vector<action> legal;
  m.legal_actions(legal);
  CHECK(legal.empty());
}

TEST_CASE("winner_seats lists the seats of a winners mask, lowest first") {
  CHECK(winner_seats(0).empty());
  CHECK(winner_seats(0b0001) == std::vector<int>{0});
  CHECK(winner_seats(0b0010) == std::vector<int>{1});
  CHECK(winner_seats(0b0101) == std::vector<int>{0, 2});  // a 2v2 team: seats 0 and 2
  CHECK(winner_seats(0b1010) == std::vector<int>{1, 3});
  CHECK(winner_seats(0b1111) == std::vector<int>{0, 1, 2, 3});
}
