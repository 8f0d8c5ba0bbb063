// R15.2, R15.4–R15.6: deck and lab, every mutation limit, the cost table, and
// mutated cards in play (a match with its own card definitions).
#include <algorithm>

#include "cod/engine/mutation.hpp"
#include "fixtures.hpp"

using namespace cod;
using test::id;

namespace {

// Deck: brute (no ability), troll (rage berserk), scribe (rage indestructible),
// machine (Aura protection, indestructible), gladiator (defender vanish),
// boom (incantation), aberration (sprint rage berserk perforation
// indestructible), toxic_thrasher (X: sprint vulnerability rage).
// Lab: scourge_of_the_ramparts (7 mana, 9/3, aerial indestructible instinct),
// titan (7, 8/8), vortex (Aura sprint), shaman (Aura rage), eternal_shambler
// (0, 1/3, defender), meteorite (incantation 5, 4, perforation),
// veteran (4, 4/4, defender sharpening), dripping_nightmare (4, X/3, Aura vulnerability).
std::vector<card_id> deck_ids() {
  return {id("brute"), id("troll"), id("scribe"), id("machine"),
          id("gladiator"), id("boom"), id("aberration"), id("toxic_thrasher")};
}
std::vector<card_id> lab_ids() {
  return {id("scourge_of_the_ramparts"), id("titan"), id("vortex"), id("shaman"),
          id("eternal_shambler"), id("meteorite"), id("veteran"), id("dripping_nightmare")};
}

std::vector<card_id> drafted() {
  // Interleaved, as a draft would leave them: the lab keeps this order.
  std::vector<card_id> all;
  const auto d = deck_ids(), l = lab_ids();
  for (std::size_t i = 0; i < d.size(); ++i) {
    all.push_back(l[i]);
    all.push_back(d[i]);
  }
  return all;
}

league_deck fresh() {
  league_deck d;
  REQUIRE(make_league_deck(test::shipped(), drafted(), deck_ids(), d) == mutation_error::ok);
  return d;
}

const league_card& card(const league_deck& d, const char* name) {
  auto it = std::find_if(d.deck.begin(), d.deck.end(), [&](const league_card& c) { return c.id == id(name); });
  REQUIRE(it != d.deck.end());
  return *it;
}

mutation stat(mutation_element e, card_id target, card_id source) {
  mutation m;
  m.target = target;
  m.source = source;
  m.element = e;
  return m;
}
mutation stat(mutation_element e, const char* target, const char* source) { return stat(e, id(target), id(source)); }

mutation paste(const char* target, const char* source, ability a, std::vector<ability> covers, bool aura = false,
               bool covers_aura = false) {
  mutation m = stat(mutation_element::ability, target, source);
  m.pasted = a;
  m.aura = aura;
  m.covers = std::move(covers);
  m.covers_aura = covers_aura;
  return m;
}

// One mutation alone on a fresh deck: its refusal (ok when accepted).
mutation_error alone(const mutation& m) {
  league_deck d = fresh();
  const league_deck before = d;
  const auto r = apply_mutations(mutation_costs::ruling(), d, {m});
  if (!r.ok()) CHECK(d == before);  // a refusal changes nothing
  return r.error;
}

}  // namespace

TEST_CASE("R15.2 deck and lab: 8 different drafted cards; the other 8 are the lab, in draft order") {
  const catalogue& cat = test::shipped();
  league_deck d;
  auto seven = deck_ids();
  seven.pop_back();
  CHECK(make_league_deck(cat, drafted(), seven, d) == mutation_error::wrong_count);
  auto twice = deck_ids();
  twice[7] = twice[0];
  CHECK(make_league_deck(cat, drafted(), twice, d) == mutation_error::duplicate_card);
  auto foreign = deck_ids();
  foreign[7] = id("ogre");
  CHECK(make_league_deck(cat, drafted(), foreign, d) == mutation_error::card_not_drafted);
  CHECK(d.deck.empty());  // nothing built on a refusal

  d = fresh();
  REQUIRE(d.deck.size() == 8);
  REQUIRE(d.lab.size() == 8);
  for (std::size_t i = 0; i < 8; ++i) {
    CHECK(d.deck[i].id == deck_ids()[i]);
    CHECK(d.deck[i].stats == cat.stats(deck_ids()[i]));
    CHECK(d.lab[i].id == lab_ids()[i]);
  }
}

TEST_CASE("R15.6 the ruling's cost table, in half points") {
  const mutation_costs c = mutation_costs::ruling();
  CHECK(c.check() == "");
  CHECK(mutation_cost(c, stat(mutation_element::hp, "brute", "titan")) == 1);    // 0.5
  CHECK(mutation_cost(c, stat(mutation_element::av, "brute", "titan")) == 2);    // 1
  CHECK(mutation_cost(c, stat(mutation_element::mana, "brute", "titan")) == 3);  // 1.5
  auto cost_of = [&](ability a, std::vector<ability> covers = {ability::rage}, bool aura = false) {
    return mutation_cost(c, paste("troll", "scourge_of_the_ramparts", a, std::move(covers), aura));
  };
  for (ability a : {ability::aerial, ability::aquatic, ability::backfire, ability::counterorder, ability::immolation,
                    ability::instinct, ability::lucidity, ability::perforation, ability::price_of_blood, ability::rage,
                    ability::splash, ability::sprint, ability::symbiote, ability::vanish, ability::chain,
                    ability::reinforcement})
    CHECK(cost_of(a) == 4);  // 2
  for (ability a : {ability::berserk, ability::catalyst, ability::indestructible, ability::protection,
                    ability::regeneration, ability::sharpening, ability::vulnerability})
    CHECK(cost_of(a) == 5);  // 2.5
  for (ability a : {ability::defender, ability::blackmail, ability::mercenary, ability::cursed})
    CHECK(cost_of(a) == 1);  // 0.5 pasted
  // Covering Defender, Blackmail or Mercenary: 1.5 more; Cursed: 1 more.
  CHECK(cost_of(ability::rage, {ability::defender}) == 4 + 3);
  CHECK(cost_of(ability::rage, {ability::blackmail}) == 4 + 3);
  CHECK(cost_of(ability::rage, {ability::mercenary}) == 4 + 3);
  CHECK(cost_of(ability::rage, {ability::cursed}) == 4 + 2);
  // An Aura costs its bound ability's points; covering two pays each surcharge (E73).
  CHECK(cost_of(ability::sprint, {ability::rage, ability::berserk}, true) == 4);
  CHECK(cost_of(ability::berserk, {ability::defender, ability::rage}, true) == 5 + 3);

  mutation_costs bad = c;
  bad.paste[static_cast<int>(ability::sprint)] = -1;
  CHECK(bad.check() == "abilities.sprint: a cost is 0 to 100 points");
  bad = c;
  bad.hp = -2;
  CHECK(bad.check() == "hp: a cost is 0 to 100 points");
  bad = c;
  bad.cover[static_cast<int>(ability::cursed)] = 201;
  CHECK(bad.check() == "cover.cursed: a cost is 0 to 100 points");
}

TEST_CASE("R15.4 R15.5 each limit refused with its own code, nothing changed") {
  using E = mutation_error;
  using M = mutation_element;
  // Who and from where.
  CHECK(alone(stat(M::hp, "titan", "scourge_of_the_ramparts")) == E::not_in_deck);
  CHECK(alone(stat(M::hp, "troll", "brute")) == E::not_in_lab);
  CHECK(alone(stat(M::hp, "boom", "titan")) == E::incantation_never_mutates);
  // Elements the lab card does not have.
  CHECK(alone(stat(M::hp, "brute", "meteorite")) == E::no_such_element);          // an incantation: no HP
  CHECK(alone(stat(M::av, "brute", "dripping_nightmare")) == E::no_such_element); // X is no number
  CHECK(alone(paste("troll", "titan", ability::protection, {ability::rage})) == E::no_such_element);
  CHECK(alone(paste("troll", "vortex", ability::sprint, {ability::rage})) == E::no_such_element);  // its Aura only
  CHECK(alone(paste("troll", "veteran", ability::sharpening, {ability::rage, ability::berserk}, true)) ==
        E::no_such_element);  // not an Aura on the veteran
  // AV and HP: never lowered, at most 9; an X attack value takes none (E72).
  CHECK(alone(stat(M::av, "brute", "eternal_shambler")) == E::value_lowered);  // 1 < 5
  CHECK(alone(stat(M::hp, "brute", "scourge_of_the_ramparts")) == E::value_lowered);  // 3 < 5
  CHECK(alone(stat(M::av, "toxic_thrasher", "titan")) == E::attack_value_is_x);
  // Abilities: "a creature with no ability gains none"; the covered ability must be there.
  CHECK(alone(paste("brute", "scourge_of_the_ramparts", ability::aerial, {})) == E::nothing_to_cover);
  CHECK(alone(paste("troll", "scourge_of_the_ramparts", ability::aerial, {ability::protection})) ==
        E::nothing_to_cover);
  CHECK(alone(paste("troll", "scourge_of_the_ramparts", ability::aerial, {ability::rage}, false, true)) ==
        E::nothing_to_cover);  // the troll has no Aura of Rage
  // What an ability covers: one; an Aura two abilities or one Aura.
  CHECK(alone(paste("troll", "scourge_of_the_ramparts", ability::aerial, {ability::rage, ability::berserk})) ==
        E::wrong_cover);
  CHECK(alone(paste("troll", "scourge_of_the_ramparts", ability::aerial, {})) == E::wrong_cover);
  CHECK(alone(paste("troll", "vortex", ability::sprint, {ability::rage}, true)) == E::wrong_cover);
  CHECK(alone(paste("troll", "vortex", ability::sprint, {ability::rage, ability::rage}, true)) == E::wrong_cover);
  // Never the same ability twice; at most one Aura.
  CHECK(alone(paste("scribe", "scourge_of_the_ramparts", ability::indestructible, {ability::rage})) ==
        E::same_ability_twice);
  CHECK(alone(paste("scribe", "scourge_of_the_ramparts", ability::indestructible, {ability::indestructible})) ==
        E::ok);  // covering it and pasting it again leaves it once
  CHECK(alone(paste("machine", "vortex", ability::sprint, {ability::protection}, true, true)) == E::ok);

  league_deck d = fresh();
  const auto costs = mutation_costs::ruling();
  // An Aura over two abilities, then a second Aura over two others: refused.
  REQUIRE(apply_mutations(costs, d, {paste("aberration", "vortex", ability::sprint, {ability::rage, ability::berserk}, true)})
              .ok());
  const league_deck after_one = d;
  auto r = apply_mutations(
      costs, d, {paste("aberration", "shaman", ability::rage, {ability::perforation, ability::indestructible}, true)});
  CHECK(r.error == E::second_aura);
  CHECK(r.index == 0);
  CHECK(d == after_one);
  // The pasted Aura is never covered again, in a later phase either.
  r = apply_mutations(costs, d, {paste("aberration", "shaman", ability::rage, {ability::sprint}, true, true)});
  CHECK(r.error == E::already_mutated);
  // A lab element is used once in the whole league.
  r = apply_mutations(costs, d, {paste("troll", "vortex", ability::sprint, {ability::rage, ability::berserk}, true)});
  CHECK(r.error == E::element_used);
}

TEST_CASE("R15.4 a phase is all or nothing: in order, each element once, 2.5 points") {
  using E = mutation_error;
  using M = mutation_element;
  const auto costs = mutation_costs::ruling();
  league_deck d = fresh();
  const league_deck before = d;
  // The same lab element twice in one phase: the second is refused, the first undone.
  auto r = apply_mutations(costs, d, {stat(M::hp, "brute", "titan"), stat(M::hp, "troll", "titan")});
  CHECK(r.error == E::element_used);
  CHECK(r.index == 1);
  CHECK(d == before);
  // 0.5 + 1 + 1.5 = 3 points > 2.5: over budget at the third, nothing applied.
  r = apply_mutations(costs, d,
                      {stat(M::hp, "brute", "titan"), stat(M::av, "brute", "titan"), stat(M::mana, "troll", "titan")});
  CHECK(r.error == E::over_budget);
  CHECK(r.index == 2);
  CHECK(d == before);
  // 2.5 exactly: accepted and applied permanently.
  half_points spent = -1;
  r = apply_mutations(costs, d,
                      {stat(M::hp, "brute", "titan"), stat(M::av, "brute", "titan"), stat(M::hp, "scribe", "veteran")},
                      &spent);
  REQUIRE(r.ok());
  CHECK(spent == 1 + 2 + 1);
  CHECK(card(d, "brute").stats.hp == 8);
  CHECK(card(d, "brute").stats.av == 8);
  CHECK(card(d, "scribe").stats.hp == 4);
  CHECK(card(d, "brute").hp_mutated);
  // Permanent: a later phase cannot cover a mutated element again.
  r = apply_mutations(costs, d, {stat(M::hp, "brute", "dripping_nightmare")});
  CHECK(r.error == E::already_mutated);
  // Mana, higher or lower (R15.6): the gladiator (4) takes the eternal shambler's 0.
  REQUIRE(apply_mutations(costs, d, {stat(M::mana, "gladiator", "eternal_shambler")}).ok());
  CHECK(card(d, "gladiator").stats.mana == 0);
}

TEST_CASE("R15.5 E72 Vulnerability and X: pasting it makes AV X; covering a printed one leaves AV 0") {
  const auto costs = mutation_costs::ruling();
  league_deck d = fresh();
  // The toxic thrasher prints X for its Vulnerability; covered, it attacks for its printed number (none: 0).
  REQUIRE(apply_mutations(costs, d,
                          {paste("toxic_thrasher", "scourge_of_the_ramparts", ability::instinct,
                                 {ability::vulnerability})})
              .ok());
  const card_stats& t = card(d, "toxic_thrasher").stats;
  CHECK_FALSE(t.av_is_x);
  CHECK(t.av == 0);
  CHECK(has(t.abilities, ability::instinct));
  CHECK_FALSE(has(t.abilities, ability::vulnerability));
  // It takes an AV now (0 -> 1 is not lowering).
  REQUIRE(apply_mutations(costs, d, {stat(mutation_element::av, "toxic_thrasher", "eternal_shambler")}).ok());
  CHECK(card(d, "toxic_thrasher").stats.av == 1);
  // Every mutated card stays a valid card definition.
  for (const league_card& c : d.deck) CHECK_FALSE(catalogue::validate(mutated_def(test::shipped(), c)).has_value());
}

TEST_CASE("R15.4 legal_mutations: every one offered is accepted alone, within the points left") {
  const auto costs = mutation_costs::ruling();
  league_deck d = fresh();
  std::vector<mutation> offered;
  legal_mutations(costs, d, mutation_budget, offered);
  CHECK(offered.size() > 50);
  bool aura_over_two = false;
  for (const mutation& m : offered) {
    league_deck copy = d;
    CHECK(apply_mutations(costs, copy, {m}).ok());
    CHECK(mutation_cost(costs, m) <= mutation_budget);
    CHECK(m.target != id("boom"));
    if (m.aura && m.covers.size() == 2) aura_over_two = true;
    for (const league_card& c : copy.deck) CHECK_FALSE(catalogue::validate(mutated_def(test::shipped(), c)).has_value());
  }
  CHECK(aura_over_two);
  legal_mutations(costs, d, 1, offered);  // 0.5 point: HP, or pasting Defender (eternal shambler, veteran)
  for (const mutation& m : offered) CHECK(mutation_cost(costs, m) <= 1);
  CHECK(std::any_of(offered.begin(), offered.end(), [](const mutation& m) { return m.element == mutation_element::hp; }));
  legal_mutations(costs, d, 0, offered);
  CHECK(offered.empty());
}

namespace {

creature_setup creature(card_id c) {
  creature_setup s;
  s.card = c;
  return s;
}

// A duel position: seat 0 has `mine` on its upper line, seat 1 `theirs` facing it.
match duel_with(const catalogue& cat, card_id mine, std::vector<card_id> theirs, card_id beside = no_card) {
  position_setup p;
  p.seats.resize(2);
  const card_id filler = id("boom");
  for (auto& s : p.seats) {
    s.hand = {filler, id("baron"), id("zombie"), id("grrr")};
    s.stronghold_pos = 2;
  }
  p.seats[0].lines[0].push_back(creature(mine));
  if (beside != no_card) p.seats[0].lines[0].push_back(creature(beside));
  for (card_id c : theirs) p.seats[1].lines[0].push_back(creature(c));
  match m;
  REQUIRE(match::from_position(cat, p, m) == rule_error::ok);
  return m;
}

std::vector<event> end_turn(match& m) {
  std::vector<event> ev;
  REQUIRE(m.apply(action::end(m.active_seat()), ev) == rule_error::ok);
  return ev;
}

catalogue with_mutations(const league_deck& d) {
  catalogue cat = test::shipped();
  for (const league_card& c : d.deck) REQUIRE_FALSE(cat.replace(mutated_def(test::shipped(), c)).has_value());
  return cat;
}

}  // namespace

TEST_CASE("R15 in play: a pasted ability works (Aerial over the ogre's Berserk)") {
  league_deck d = fresh();
  // The troll (rage berserk): Aerial from the scourge over its Berserk.
  REQUIRE(apply_mutations(mutation_costs::ruling(), d,
                          {paste("troll", "scourge_of_the_ramparts", ability::aerial, {ability::berserk})})
              .ok());
  const catalogue cat = with_mutations(d);
  CHECK(has(cat.stats(id("troll")).abilities, ability::aerial));
  CHECK_FALSE(has(cat.stats(id("troll")).abilities, ability::berserk));
  CHECK(cat.def(id("troll")).name == "TROLL");
  // The printed troll attacks the titan in front of it; the mutated one, Aerial on
  // the upper line, attacks the Stronghold directly (R7 Aerial).
  auto attacks_stronghold = [](const std::vector<event>& ev) {
    for (const event& e : ev)
      if (e.type == event_type::attack) return e.target == no_uid;
    FAIL("no attack");
    return false;
  };
  match printed = duel_with(test::shipped(), id("troll"), {id("titan")});
  CHECK_FALSE(attacks_stronghold(end_turn(printed)));
  match mutated = duel_with(cat, id("troll"), {id("titan")});
  CHECK(attacks_stronghold(end_turn(mutated)));
}

TEST_CASE("R15 in play: an Aura pasted over two abilities gives its neighbour the ability") {
  league_deck d = fresh();
  // The aberration: Aura Sprint (vortex) over Rage and Berserk.
  REQUIRE(apply_mutations(mutation_costs::ruling(), d,
                          {paste("aberration", "vortex", ability::sprint, {ability::rage, ability::berserk}, true)})
              .ok());
  const catalogue cat = with_mutations(d);
  match m = duel_with(cat, id("aberration"), {id("titan")}, id("brute"));
  const seat_view v = m.view(0);
  const auto& mine = v.lines[0].sides[0].creatures;
  REQUIRE(mine.size() == 2);
  CHECK_FALSE(has(mine[0].abilities, ability::rage));     // covered
  CHECK_FALSE(has(mine[0].abilities, ability::berserk));  // covered
  CHECK(card(d, "aberration").stats.auras == bit(ability::sprint));
  CHECK(has(mine[0].abilities, ability::perforation));
  CHECK(has(mine[1].abilities, ability::sprint));          // the brute beside it does
  match printed = duel_with(test::shipped(), id("aberration"), {id("titan")}, id("brute"));
  CHECK_FALSE(has(printed.view(0).lines[0].sides[0].creatures[1].abilities, ability::sprint));
}

TEST_CASE("R15.5 in play: AV 9, never more") {
  league_deck d = fresh();
  // The brute (5/5) takes the scourge's AV 9 and deals 9.
  REQUIRE(apply_mutations(mutation_costs::ruling(), d, {stat(mutation_element::av, "brute", "scourge_of_the_ramparts")})
              .ok());
  catalogue cat = with_mutations(d);
  card_def wall;
  wall.id = "test_wall";
  wall.name = "TEST WALL";
  wall.pack = "test";
  wall.stats = {card_type::creature, 9, 10, 12, false, 0, 0};  // AV 10 and HP 12: house-rule values
  REQUIRE_FALSE(cat.add(wall).has_value());
  match m = duel_with(cat, id("brute"), {*cat.find("test_wall")});
  int dealt = -1;
  for (const event& e : end_turn(m))
    if (e.type == event_type::damage_dealt) dealt = e.amount;
  CHECK(dealt == 9);
  // A lab card printing more than 9 gives no AV or HP past 9.
  league_deck big;
  std::vector<card_id> drafted16 = drafted();
  drafted16[0] = *cat.find("test_wall");  // replaces the scourge in the lab
  REQUIRE(make_league_deck(cat, drafted16, deck_ids(), big) == mutation_error::ok);
  auto r = apply_mutations(mutation_costs::ruling(), big,
                           {stat(mutation_element::av, id("brute"), *cat.find("test_wall"))});
  CHECK(r.error == mutation_error::above_nine);
  r = apply_mutations(mutation_costs::ruling(), big,
                      {stat(mutation_element::hp, id("brute"), *cat.find("test_wall"))});
  CHECK(r.error == mutation_error::above_nine);
}
