// Every card of the catalogue plays by its printed abilities. Two
// complementary checks:
//   1. each card, scripted: played into a position built so that its
//      when-played abilities trigger, then through both players' assaults;
//      never rejected, the state stays well formed, and each when-played
//      ability shows its effect;
//   2. thousands of random games with random catalogue decks: every card gets
//      played and every triggered ability fires somewhere, the state well
//      formed after every action.
#include <set>

#include "fixtures.hpp"

using namespace cod;

namespace {

// The shipped catalogue plus vanilla fillers the scripted positions use.
const catalogue& with_fillers() {
  static const catalogue cat = [] {
    catalogue c = test::shipped();
    auto add = [&](const char* id, card_type t, int mana, int av, int hp) {
      card_def d;
      d.id = id;
      d.name = id;
      d.pack = "test";
      d.stats = {t, static_cast<std::int8_t>(mana), static_cast<std::int8_t>(av), static_cast<std::int8_t>(hp),
                 false, 0, 0};
      REQUIRE(!c.add(d));
    };
    add("test_wall", card_type::creature, 9, 0, 9);     // never dies: keeps its line busy
    add("test_poker", card_type::creature, 9, 1, 9);    // pokes for 1: survivors trigger Vanish/Instinct
    add("test_spare", card_type::creature, 9, 1, 2);    // filler in hands
    add("test_spell", card_type::incantation, 9, 1, 0); // filler in hands
    return c;
  }();
  return cat;
}

card_id fid(const char* id) { return *with_fillers().find(id); }

struct observed {
  std::set<ability> triggered;
  std::set<event_type> types;
  void note(const std::vector<event>& ev) {
    for (const event& e : ev) {
      types.insert(e.type);
      if (e.type == event_type::ability_triggered) triggered.insert(static_cast<ability>(e.amount));
    }
  }
};

}  // namespace

TEST_CASE("R7 every catalogue card plays: accepted, well formed, when-played abilities show") {
  const catalogue& cat = with_fillers();
  int cards = 0;
  for (std::size_t i = 0; i < test::shipped().size(); ++i) {
    const card_id card = static_cast<card_id>(i);
    const card_stats& st = cat.stats(card);
    const std::string name = cat.def(card).id;
    CAPTURE(name);
    // Seat 0: the card leftmost (Lucidity), cards left of the Stronghold
    // (Backfire), a wall on each line (a Symbiote host, something to pass for
    // Sprint and Vanish). Seat 1: pokers on both lines, cards in hand (Chain).
    position_setup p;
    p.seats.resize(2);
    seat_setup& me = p.seats[0];
    me.hand = {card, fid("test_spare"), fid("test_spell"), fid("test_spare"), fid("test_spare")};
    me.stronghold_pos = 3;
    me.mana = has(st.abilities, ability::price_of_blood) ? 0 : 30;
    me.lines[0].resize(1);
    me.lines[0][0].card = fid("test_wall");
    me.lines[1].resize(1);
    me.lines[1][0].card = fid("test_wall");
    seat_setup& foe = p.seats[1];
    foe.hand = {fid("test_spare"), fid("test_spell"), fid("test_spare"), fid("test_spare")};
    foe.stronghold_pos = 1;
    foe.lines[0].resize(2);
    foe.lines[0][0].card = fid("test_poker");
    foe.lines[0][1].card = fid("test_poker");
    foe.lines[1].resize(1);
    foe.lines[1][0].card = fid("test_poker");
    match m;
    REQUIRE(match::from_position(cat, p, m) == rule_error::ok);
    const seat_view before = m.view(0);
    const card_uid u = before.hand[0].uid;
    const card_uid wall = before.lines[0].sides[0].creatures[0].uid;
    const card_uid enemy = before.lines[0].sides[1].creatures[0].uid;

    action a;
    if (st.type == card_type::incantation) a = action::play_incantation(0, u, enemy);
    else if (has(st.abilities, ability::symbiote)) a = action::play_symbiote(0, u, 0, wall);
    else a = action::play_creature(0, u, 0);
    REQUIRE(m.check(a) == rule_error::ok);
    std::vector<event> ev;
    observed seen;
    REQUIRE(m.apply(a, ev) == rule_error::ok);
    seen.note(ev);
    CHECK_MESSAGE(m.check_invariants() == "", m.check_invariants());

    // The when-played abilities (R5.2) show at once.
    if (!m.over()) {
      if (has(st.abilities, ability::lucidity)) CHECK(seen.triggered.count(ability::lucidity));
      if (has(st.abilities, ability::price_of_blood)) {
        CHECK(seen.triggered.count(ability::price_of_blood));
        if (st.mana > 0) CHECK(seen.types.count(event_type::stronghold_damaged));
      }
      if (has(st.abilities, ability::backfire)) {
        CHECK(seen.triggered.count(ability::backfire));
        CHECK(seen.types.count(event_type::damage_dealt));
      }
      if (has(st.abilities, ability::counterorder)) CHECK(seen.types.count(event_type::hand_reordered));
      if (has(st.abilities, ability::chain)) CHECK(seen.types.count(event_type::card_chained));
      if (has(st.abilities, ability::symbiote)) CHECK(seen.types.count(event_type::creature_stacked));
      if (st.type == card_type::incantation) {
        // (CYCLE OF LIFE deals 0: it only goes back to the rightmost position.)
        if (st.av > 0 || st.av_is_x)
          CHECK((seen.types.count(event_type::damage_dealt) || seen.types.count(event_type::damage_prevented)));
        CHECK(seen.types.count(event_type::card_returned));
      } else if (!has(st.abilities, ability::symbiote)) {
        CHECK(seen.types.count(event_type::creature_entered));
      }
    }
    // Then three assaults: ours, theirs (their pokers hit our creatures), ours.
    for (int k = 0; k < 3 && !m.over(); ++k) {
      ev.clear();
      REQUIRE(m.apply(action::end(m.active_seat()), ev) == rule_error::ok);
      seen.note(ev);
      CHECK_MESSAGE(m.check_invariants() == "", m.check_invariants());
    }
    if (st.type == card_type::creature && !m.over()) {
      if (has(st.abilities, ability::catalyst)) CHECK(seen.triggered.count(ability::catalyst));
    }
    ++cards;
  }
  CHECK(cards == 352);
}

TEST_CASE("R7 random catalogue games: every card played, every trigger seen, state well formed") {
  const catalogue& cat = test::shipped();
  std::set<card_id> played;
  std::set<ability> triggered;
  std::set<event_type> types;
  std::vector<action> legal;
  std::vector<event> ev;
  for (std::uint64_t seed = 1; seed <= 1500; ++seed) {
    // Random constructed decks (R14.6) drawn without the bench's helper, from the seed.
    rng deck_rng(seed * 7919);
    match_config cfg;
    cfg.seed = seed;
    cfg.exhaustion_rule = seed % 2;
    for (int seat = 0; seat < 2; ++seat)
      while (cfg.decks[seat].size() < 8) {
        const auto c = static_cast<card_id>(deck_rng.below(cat.size()));
        bool dup = false;
        for (card_id d : cfg.decks[seat]) dup |= d == c;
        if (!dup) cfg.decks[seat].push_back(c);
      }
    match m;
    ev.clear();
    REQUIRE(match::create(cat, cfg, m, ev) == rule_error::ok);
    rng player(seed);
    for (int n = 0; n < 3000 && !m.over(); ++n) {
      m.legal_actions(legal);
      ev.clear();
      REQUIRE(m.apply(legal[player.below(legal.size())], ev) == rule_error::ok);
      for (const event& e : ev) {
        types.insert(e.type);
        // uids follow the deck lists (R2.3): uid 8s+i is seat s's i-th card.
        if (e.type == event_type::card_played) played.insert(cfg.decks[e.uid / 8][e.uid % 8]);
        if (e.type == event_type::ability_triggered) triggered.insert(static_cast<ability>(e.amount));
      }
      const std::string bad = m.check_invariants();
      REQUIRE_MESSAGE(bad.empty(), "seed ", seed, ": ", bad);
    }
  }
  CHECK(played.size() == cat.size());  // every one of the 352 cards was played somewhere
  for (ability a : {ability::backfire, ability::chain, ability::counterorder, ability::lucidity,
                    ability::price_of_blood, ability::catalyst, ability::immolation, ability::regeneration,
                    ability::sharpening, ability::instinct, ability::reinforcement})
    CHECK_MESSAGE(triggered.count(a), ability_name(a));
  for (event_type t : {event_type::creature_stacked, event_type::creature_vanished, event_type::card_chained,
                       event_type::hand_reordered, event_type::creature_moved, event_type::stronghold_flipped})
    CHECK_MESSAGE(types.count(t), event_type_name(t));
}
