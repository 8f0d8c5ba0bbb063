// R15.2, R15.4–R15.6: deck and lab, the mutation limits and their points.
// Rulings E70–E76 (docs/rulings.md).
#include "cod/engine/mutation.hpp"

#include <algorithm>
#include <bit>

namespace cod {

namespace {

constexpr half_points max_cost = 200;  // 100 points: a table past this is a typo

bool is_creature(const card_stats& s) { return s.type == card_type::creature; }

// R7: a card whose own abilities include Vulnerability prints X; an X stays
// while an Aura of Vulnerability explains it (DRIPPING NIGHTMARE). E72:
// covering the Vulnerability behind a printed X leaves its printed number.
bool attack_is_x(bool was_x, ability_set own, ability_set auras) {
  return has(own, ability::vulnerability) || (was_x && has(auras, ability::vulnerability));
}

const league_card* find_target(const league_deck& d, card_id id) {
  for (const auto& c : d.deck)
    if (c.id == id) return &c;
  return nullptr;
}

const lab_card* find_source(const league_deck& d, card_id id) {
  for (const auto& c : d.lab)
    if (c.id == id) return &c;
  return nullptr;
}

ability_set covered_set(const mutation& m) {
  ability_set s = 0;
  for (ability a : m.covers)
    if (a < ability::count) s |= bit(a);
  return s;
}

// R15.5 for an ability element: what it covers, and what the creature is after.
mutation_error check_ability(const league_card& t, const lab_card& src, const mutation& m) {
  if (m.pasted >= ability::count) return mutation_error::no_such_element;
  if (m.aura ? !has(src.stats.auras, m.pasted) : !has(src.stats.abilities, m.pasted))
    return mutation_error::no_such_element;
  if (m.aura ? has(src.used_auras, m.pasted) : has(src.used, m.pasted)) return mutation_error::element_used;
  const ability_set own = t.stats.abilities;
  const ability_set auras = t.stats.auras;
  if (own == 0 && auras == 0) return mutation_error::nothing_to_cover;  // "gains none"
  const ability_set cover = covered_set(m);
  const int count = static_cast<int>(m.covers.size());
  if (std::popcount(cover) != count) return mutation_error::wrong_cover;  // an unknown or repeated ability
  // R15.5: an ability covers one ability (E73: an Aura too); an Aura covers
  // two abilities or another Aura.
  if (m.covers_aura ? count != 1 : count != (m.aura ? 2 : 1)) return mutation_error::wrong_cover;
  if (m.covers_aura ? (auras & cover) != cover : (own & cover) != cover) return mutation_error::nothing_to_cover;
  if ((m.covers_aura ? t.pasted_auras : t.pasted) & cover) return mutation_error::already_mutated;
  const ability_set own_after = m.covers_aura ? own : own & ~cover;
  const ability_set auras_after = m.covers_aura ? auras & ~cover : auras;
  if (m.aura) {
    if (auras_after != 0) return mutation_error::second_aura;
  } else if (has(own_after, m.pasted)) {
    return mutation_error::same_ability_twice;  // R6.2; E74: an Aura of it beside is allowed
  }
  return mutation_error::ok;
}

mutation_error check_one(const league_deck& d, const mutation& m) {
  const league_card* t = find_target(d, m.target);
  if (!t) return mutation_error::not_in_deck;
  const lab_card* src = find_source(d, m.source);
  if (!src) return mutation_error::not_in_lab;
  if (!is_creature(t->stats)) return mutation_error::incantation_never_mutates;
  switch (m.element) {
    case mutation_element::mana:
      if (src->mana_used) return mutation_error::element_used;
      if (t->mana_mutated) return mutation_error::already_mutated;
      return mutation_error::ok;  // R15.6: higher or lower
    case mutation_element::av:
      if (src->stats.av_is_x) return mutation_error::no_such_element;
      if (src->av_used) return mutation_error::element_used;
      if (t->av_mutated) return mutation_error::already_mutated;
      if (t->stats.av_is_x) return mutation_error::attack_value_is_x;
      if (src->stats.av > mutation_stat_cap) return mutation_error::above_nine;
      if (src->stats.av < t->stats.av) return mutation_error::value_lowered;
      return mutation_error::ok;
    case mutation_element::hp:
      if (!is_creature(src->stats)) return mutation_error::no_such_element;
      if (src->hp_used) return mutation_error::element_used;
      if (t->hp_mutated) return mutation_error::already_mutated;
      if (src->stats.hp > mutation_stat_cap) return mutation_error::above_nine;
      if (src->stats.hp < t->stats.hp) return mutation_error::value_lowered;
      return mutation_error::ok;
    case mutation_element::ability:
      return check_ability(*t, *src, m);
  }
  return mutation_error::no_such_element;
}

// Applies a mutation check_one accepted.
void apply_one(league_deck& d, const mutation& m) {
  league_card& t = *std::find_if(d.deck.begin(), d.deck.end(), [&](const league_card& c) { return c.id == m.target; });
  lab_card& src = *std::find_if(d.lab.begin(), d.lab.end(), [&](const lab_card& c) { return c.id == m.source; });
  switch (m.element) {
    case mutation_element::mana:
      t.stats.mana = src.stats.mana;
      t.mana_mutated = src.mana_used = true;
      return;
    case mutation_element::av:
      t.stats.av = src.stats.av;
      t.av_mutated = src.av_used = true;
      return;
    case mutation_element::hp:
      t.stats.hp = src.stats.hp;
      t.hp_mutated = src.hp_used = true;
      return;
    case mutation_element::ability: {
      const ability_set cover = covered_set(m);
      const bool was_x = t.stats.av_is_x;
      (m.covers_aura ? t.stats.auras : t.stats.abilities) &= ~cover;
      if (m.aura) {
        t.stats.auras |= bit(m.pasted);
        t.pasted_auras |= bit(m.pasted);
        src.used_auras |= bit(m.pasted);
      } else {
        t.stats.abilities |= bit(m.pasted);
        t.pasted |= bit(m.pasted);
        src.used |= bit(m.pasted);
      }
      t.stats.av_is_x = attack_is_x(was_x, t.stats.abilities, t.stats.auras);
      return;
    }
  }
}

}  // namespace

mutation_costs mutation_costs::ruling() {
  mutation_costs c;
  for (auto& p : c.paste) p = 4;  // 2 points: the second tier
  for (ability a : {ability::berserk, ability::catalyst, ability::indestructible, ability::protection,
                    ability::regeneration, ability::sharpening, ability::vulnerability})
    c.paste[static_cast<int>(a)] = 5;  // 2.5
  for (ability a : {ability::defender, ability::blackmail, ability::mercenary, ability::cursed})
    c.paste[static_cast<int>(a)] = 1;  // 0.5
  for (ability a : {ability::defender, ability::blackmail, ability::mercenary})
    c.cover[static_cast<int>(a)] = 3;  // 1.5 more
  c.cover[static_cast<int>(ability::cursed)] = 2;  // 1 more
  return c;
}

std::string mutation_costs::check() const {
  auto bad = [](half_points p) { return p < 0 || p > max_cost; };
  if (bad(mana)) return "mana: a cost is 0 to 100 points";
  if (bad(av)) return "av: a cost is 0 to 100 points";
  if (bad(hp)) return "hp: a cost is 0 to 100 points";
  for (int i = 0; i < ability_count; ++i) {
    const auto name = std::string(ability_name(static_cast<ability>(i)));
    if (bad(paste[i])) return "abilities." + name + ": a cost is 0 to 100 points";
    if (bad(cover[i])) return "cover." + name + ": a cost is 0 to 100 points";
  }
  return "";
}

mutation_error make_league_deck(const catalogue& cat, const std::vector<card_id>& drafted,
                                const std::vector<card_id>& deck, league_deck& out) {
  if (static_cast<int>(deck.size()) != league_deck_size) return mutation_error::wrong_count;
  for (std::size_t i = 0; i < deck.size(); ++i) {
    if (std::find(drafted.begin(), drafted.end(), deck[i]) == drafted.end() || deck[i] >= cat.size())
      return mutation_error::card_not_drafted;
    if (std::find(deck.begin(), deck.begin() + static_cast<std::ptrdiff_t>(i), deck[i]) !=
        deck.begin() + static_cast<std::ptrdiff_t>(i))
      return mutation_error::duplicate_card;
  }
  league_deck d;
  for (card_id id : deck) {
    league_card c;
    c.id = id;
    c.stats = cat.stats(id);
    d.deck.push_back(c);
  }
  for (card_id id : drafted)
    if (id < cat.size() && std::find(deck.begin(), deck.end(), id) == deck.end() && !find_source(d, id)) {
      lab_card c;
      c.id = id;
      c.stats = cat.stats(id);
      d.lab.push_back(c);
    }
  out = std::move(d);
  return mutation_error::ok;
}

half_points mutation_cost(const mutation_costs& costs, const mutation& m) {
  switch (m.element) {
    case mutation_element::mana: return costs.mana;
    case mutation_element::av: return costs.av;
    case mutation_element::hp: return costs.hp;
    case mutation_element::ability: break;
  }
  half_points p = m.pasted < ability::count ? costs.paste[static_cast<int>(m.pasted)] : 0;
  for (ability a : m.covers)  // E73: covering an Aura pays its bound ability's surcharge
    if (a < ability::count) p += costs.cover[static_cast<int>(a)];
  return p;
}

mutation_refusal apply_mutations(const mutation_costs& costs, league_deck& d, const std::vector<mutation>& ms,
                                 half_points* spent) {
  league_deck next = d;
  half_points total = 0;
  for (std::size_t i = 0; i < ms.size(); ++i) {
    const int index = static_cast<int>(i);
    if (auto e = check_one(next, ms[i]); e != mutation_error::ok) return {e, index};
    total += mutation_cost(costs, ms[i]);
    if (total > mutation_budget) return {mutation_error::over_budget, index};
    apply_one(next, ms[i]);
  }
  d = std::move(next);
  if (spent) *spent = total;
  return {};
}

void legal_mutations(const mutation_costs& costs, const league_deck& d, half_points points_left,
                     std::vector<mutation>& out) {
  out.clear();
  auto offer = [&](const mutation& m) {
    if (check_one(d, m) == mutation_error::ok && mutation_cost(costs, m) <= points_left) out.push_back(m);
  };
  for (const league_card& t : d.deck) {
    if (!is_creature(t.stats)) continue;
    std::vector<ability> own, auras;
    for (int i = 0; i < ability_count; ++i) {
      if (has(t.stats.abilities, static_cast<ability>(i))) own.push_back(static_cast<ability>(i));
      if (has(t.stats.auras, static_cast<ability>(i))) auras.push_back(static_cast<ability>(i));
    }
    for (const lab_card& src : d.lab) {
      mutation m;
      m.target = t.id;
      m.source = src.id;
      for (auto e : {mutation_element::mana, mutation_element::av, mutation_element::hp}) {
        m.element = e;
        offer(m);
      }
      m.element = mutation_element::ability;
      for (int i = 0; i < ability_count; ++i) {
        const auto a = static_cast<ability>(i);
        for (bool aura : {false, true}) {
          if (!has(aura ? src.stats.auras : src.stats.abilities, a)) continue;
          m.pasted = a;
          m.aura = aura;
          for (ability c : auras) {
            m.covers = {c};
            m.covers_aura = true;
            offer(m);
          }
          m.covers_aura = false;
          if (aura) {
            for (std::size_t x = 0; x < own.size(); ++x)
              for (std::size_t y = x + 1; y < own.size(); ++y) {
                m.covers = {own[x], own[y]};
                offer(m);
              }
          } else {
            for (ability c : own) {
              m.covers = {c};
              offer(m);
            }
          }
        }
      }
    }
  }
}

card_def mutated_def(const catalogue& cat, const league_card& c) {
  card_def def = cat.def(c.id);
  def.stats = c.stats;
  def.deck = 0;
  return def;
}

}  // namespace cod
