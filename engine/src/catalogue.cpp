#include "cod/engine/catalogue.hpp"

namespace cod {

std::string catalogue_error::to_string() const {
  return "card '" + card + "', field '" + field + "': " + message;
}

std::optional<catalogue_error> catalogue::validate(const card_def& d) {
  auto fail = [&](std::string field, std::string msg) {
    return catalogue_error{d.id.empty() ? std::string("?") : d.id, std::move(field), std::move(msg)};
  };
  const card_stats& s = d.stats;
  if (d.id.empty()) return fail("id", "must not be empty");
  if (d.name.empty()) return fail("name", "must not be empty");
  // Printed values are single digits; 0..15 leaves room for house rules.
  if (s.mana < 0 || s.mana > 15) return fail("mana", "must be 0..15");
  if (s.av < 0 || s.av > 15) return fail("av", "must be 0..15");
  if (d.deck < 0 || d.deck > 4) return fail("deck", "must be 0 (none) or 1..4");
  const ability_set all = (ability_set{1} << ability_count) - 1;
  if ((s.abilities & ~all) || (s.auras & ~all)) return fail("abilities", "unknown ability bit");
  // R7: an X attack value is the Vulnerability rule. A card with Vulnerability
  // prints X; a card printing X has Vulnerability itself or as an Aura
  // (DRIPPING NIGHTMARE).
  if (has(s.abilities, ability::vulnerability) && !s.av_is_x)
    return fail("av", "a card with Vulnerability prints \"X\" (null) as its attack value");
  if (s.av_is_x && !has(s.abilities | s.auras, ability::vulnerability))
    return fail("av", "\"X\" (null) attack value goes only with Vulnerability");
  if (s.type == card_type::creature) {
    if (s.hp < 1 || s.hp > 15) return fail("hp", "a creature's health must be 1..15");
  } else {
    if (s.hp != 0) return fail("hp", "an incantation has no health (null)");
    if (s.auras) return fail("abilities", "an incantation cannot have an Aura (it never stays in play)");
  }
  return std::nullopt;
}

std::optional<catalogue_error> catalogue::add(card_def def) {
  if (auto e = validate(def)) return e;
  if (by_id_.count(def.id)) return catalogue_error{def.id, "id", "already in the catalogue"};
  if (defs_.size() >= no_card) return catalogue_error{def.id, "id", "catalogue is full"};
  const auto id = static_cast<card_id>(defs_.size());
  by_id_.emplace(def.id, id);
  stats_.push_back(def.stats);
  defs_.push_back(std::move(def));
  return std::nullopt;
}

std::optional<catalogue_error> catalogue::replace(card_def def) {
  if (auto e = validate(def)) return e;
  const auto it = by_id_.find(def.id);
  if (it == by_id_.end()) return catalogue_error{def.id, "id", "not in the catalogue"};
  stats_[it->second] = def.stats;
  defs_[it->second] = std::move(def);
  return std::nullopt;
}

std::optional<card_id> catalogue::find(std::string_view id) const {
  auto it = by_id_.find(std::string(id));
  if (it == by_id_.end()) return std::nullopt;
  return it->second;
}

std::vector<card_id> catalogue::preconstructed_deck(int deck) const {
  std::vector<card_id> out;
  for (std::size_t i = 0; i < defs_.size(); ++i)
    if (defs_[i].deck == deck) out.push_back(static_cast<card_id>(i));
  return out;
}

}  // namespace cod
