// R16.2: a seat's view never contains another seat's hand contents or order;
// spectators see no hand. The view is the only way state leaves the engine.
#include <algorithm>
#include <set>
#include <sstream>

#include "fixtures.hpp"

using namespace cod;
using cod::test::id;

namespace {

// Everything in a view, as text, so two views can be compared whole.
std::string dump(const seat_view& v) {
  std::ostringstream o;
  o << int(v.viewer) << ' ' << v.turn << ' ' << v.round << ' ' << int(v.active_seat) << ' '
    << int(v.current_phase) << ' ' << int(v.winners) << '|';
  for (const auto& s : v.seats)
    o << s.hand_size << ',' << s.stronghold_pos << ',' << int(s.side) << ',' << s.health << ',' << s.mana << ';';
  for (const auto& l : v.lines)
    for (const auto& sd : l.sides) {
      o << '[' << int(sd.seat);
      for (const auto& c : sd.creatures)
        o << ' ' << int(c.uid) << ':' << c.card << ':' << c.damage << ':' << c.av << ':' << c.abilities;
      o << ']';
    }
  o << '|';
  for (const auto& c : v.hand) o << int(c.uid) << ':' << c.card << ' ';
  o << '|';
  for (auto u : v.playable) o << int(u) << ' ';
  o << '|' << v.all_hands.size();
  return o.str();
}

}  // namespace

TEST_CASE("R16.2 in random games no seat's view holds the other seat's hand") {
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    match m;
    std::vector<event> ev;
    REQUIRE(match::create(test::shipped(), test::precon_config(1 + int(seed % 4), 1 + int(seed / 4 % 4), seed), m, ev) ==
            rule_error::ok);
    rng player(seed);
    std::vector<action> legal;
    while (!m.over()) {
      const seat_view ref = m.view(referee);
      for (seat_t seat = 0; seat < 2; ++seat) {
        const seat_view v = m.view(seat);
        CHECK(v.all_hands.empty());
        std::set<card_uid> own;
        for (const auto& c : ref.all_hands[seat]) own.insert(c.uid);
        REQUIRE(v.hand.size() == ref.all_hands[seat].size());
        for (const auto& c : v.hand) CHECK(own.count(c.uid) == 1);
        // Only the size and the Stronghold of the other hand are visible.
        CHECK(v.seats[1 - seat].hand_size == static_cast<int>(ref.all_hands[1 - seat].size()));
      }
      const seat_view spec = m.view(spectator);
      CHECK(spec.hand.empty());
      CHECK(spec.all_hands.empty());
      m.legal_actions(legal);
      ev.clear();
      REQUIRE(m.apply(legal[player.below(legal.size())], ev) == rule_error::ok);
      // A played card's hand index reaches only its own seat.
      for (const event& e : ev) {
        if (e.type != event_type::card_played) continue;
        CHECK(redact(e, e.seat).from == e.from);
        CHECK(redact(e, static_cast<seat_t>(1 - e.seat)).from == -1);
        CHECK(redact(e, spectator).from == -1);
      }
    }
  }
}

TEST_CASE("R16.2 two positions that differ only in seat 1's hand look the same to seat 0") {
  auto make = [](std::vector<card_id> hand1) {
    position_setup p;
    p.seats.resize(2);
    p.seats[0].hand = {id("brute"), id("boom"), id("troll")};
    p.seats[0].stronghold_pos = 1;
    p.seats[0].mana = 4;
    p.seats[0].lines[0].resize(1);
    p.seats[0].lines[0][0].card = id("baron");
    p.seats[1].hand = std::move(hand1);
    p.seats[1].stronghold_pos = 2;
    p.seats[1].lines[1].resize(1);
    p.seats[1].lines[1][0].card = id("ogre");
    match m;
    REQUIRE(match::from_position(test::shipped(), p, m) == rule_error::ok);
    return m;
  };
  // Same size and Stronghold index; other cards, other order.
  const match a = make({id("zombie"), id("alpha"), id("gnome"), id("cyclone")});
  const match b = make({id("cyclone"), id("gnome"), id("zombie"), id("alpha")});
  const match c = make({id("microctopus"), id("scribe"), id("carapace"), id("annihilation")});
  // uids are assigned per position, so compare views after normalising seat 1's uids away:
  // seat 0's view must not differ at all.
  CHECK(dump(a.view(0)) == dump(b.view(0)));
  CHECK(dump(a.view(0)) == dump(c.view(0)));
  CHECK(dump(a.view(spectator)) == dump(c.view(spectator)));
  // ...while seat 1 itself does see the difference.
  CHECK(dump(a.view(1)) != dump(b.view(1)));
}
