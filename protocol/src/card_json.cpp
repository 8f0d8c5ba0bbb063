#include "cod/protocol/card_json.hpp"

#include <array>
#include <exception>
#include <limits>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "json_util.hpp"

namespace cod::protocol {
namespace {

using json = nlohmann::json;

constexpr std::array<std::string_view, 13> known_keys = {
    "id",        "name", "pack",    "type",          "mana",   "av",   "hp",
    "abilities", "deck", "name_fr", "name_verified", "number", "note",
};

bool is_known_key(std::string_view key) {
  for (auto k : known_keys)
    if (k == key) return true;
  return false;
}

// Collects the card's name for errors and the first error found; every parse
// step returns false once something is wrong so the caller can stop.
class card_reader {
 public:
  card_reader(const json& j, std::size_t index) : j_(j), who_(detail::index_name(index)) {}

  bool fail(std::string field, std::string message) {
    error_ = catalogue_error{who_, std::move(field), std::move(message)};
    return false;
  }
  void name_card(const std::string& id) { who_ = id; }
  std::optional<catalogue_error> take_error() { return std::move(error_); }

  const json* find(const char* key) const {
    auto it = j_.find(key);
    return it == j_.end() ? nullptr : &*it;
  }

  const json* require(const char* key) {
    const json* v = find(key);
    if (!v) fail(key, "is missing");
    return v;
  }

  // A small integer. The range check here only guards the narrowing into
  // card_stats' int8 fields; catalogue::validate applies the rules' ranges.
  bool read_small_int(const char* key, const json& v, std::int8_t& out) {
    if (!v.is_number_integer()) return fail(key, "must be an integer");
    if (v.is_number_unsigned() ? v.get<std::uint64_t>() > 127U
                               : (v.get<std::int64_t>() < -128 || v.get<std::int64_t>() > 127))
      return fail(key, "is out of range");
    out = static_cast<std::int8_t>(v.get<std::int64_t>());
    return true;
  }

  bool read_string(const char* key, const json& v, std::string& out) {
    if (!v.is_string()) return fail(key, "must be a string");
    out = v.get<std::string>();
    return true;
  }

  bool read_abilities(const json& v, card_stats& stats) {
    if (!v.is_array()) return fail("abilities", "must be an array of {\"ability\", \"aura\"}");
    for (std::size_t i = 0; i < v.size(); ++i) {
      const std::string at = "abilities[" + std::to_string(i) + "]";
      const json& entry = v[i];
      if (!entry.is_object()) return fail(at, "must be an object {\"ability\", \"aura\"}");
      for (auto it = entry.begin(); it != entry.end(); ++it)
        if (it.key() != "ability" && it.key() != "aura")
          return fail(at + "." + it.key(), "unknown field");
      auto name_it = entry.find("ability");
      if (name_it == entry.end()) return fail(at + ".ability", "is missing");
      if (!name_it->is_string()) return fail(at + ".ability", "must be a string");
      const auto& name = name_it->get_ref<const std::string&>();
      const auto a = ability_from_name(name);
      if (!a) return fail(at + ".ability", "unknown ability \"" + name + "\"");
      bool aura = false;
      if (auto aura_it = entry.find("aura"); aura_it != entry.end()) {
        if (!aura_it->is_boolean()) return fail(at + ".aura", "must be true or false");
        aura = aura_it->get<bool>();
      }
      ability_set& set = aura ? stats.auras : stats.abilities;
      if (has(set, *a)) return fail(at, "duplicate ability \"" + name + "\"");
      set |= bit(*a);
    }
    return true;
  }

  // The catalogue's descriptive fields: card_def has no place for them, but a
  // wrong type still means the file is not what its author thinks.
  bool check_descriptive() {
    if (const json* v = find("name_fr"); v && !v->is_string() && !v->is_null())
      return fail("name_fr", "must be a string or null");
    if (const json* v = find("name_verified"); v && !v->is_boolean())
      return fail("name_verified", "must be true or false");
    if (const json* v = find("number"); v && !v->is_number_integer())
      return fail("number", "must be an integer");
    if (const json* v = find("note"); v && !v->is_string()) return fail("note", "must be a string");
    return true;
  }

 private:
  const json& j_;
  std::string who_;
  std::optional<catalogue_error> error_;
};

bool read_card(const json& j, card_reader& r, card_def& def) {
  if (!j.is_object()) return r.fail("card", "must be a JSON object");

  // The id first, so that every later error names the card.
  const json* id = r.require("id");
  if (!id) return false;
  if (!r.read_string("id", *id, def.id)) return false;
  if (def.id.empty()) return r.fail("id", "must not be empty");
  r.name_card(def.id);

  for (auto it = j.begin(); it != j.end(); ++it)
    if (!is_known_key(it.key())) return r.fail(it.key(), "unknown field");

  const json* name = r.require("name");
  if (!name || !r.read_string("name", *name, def.name)) return false;

  def.pack = "custom";
  if (const json* pack = r.find("pack"); pack && !r.read_string("pack", *pack, def.pack))
    return false;

  card_stats& s = def.stats;
  const json* type = r.require("type");
  if (!type) return false;
  if (!type->is_string()) return r.fail("type", "must be a string");
  if (*type == "creature") {
    s.type = card_type::creature;
  } else if (*type == "incantation") {
    s.type = card_type::incantation;
  } else {
    return r.fail("type",
                  "unknown type \"" + type->get<std::string>() + "\" (creature or incantation)");
  }

  const json* mana = r.require("mana");
  if (!mana || !r.read_small_int("mana", *mana, s.mana)) return false;

  // R7: a printed "X" attack value is null; Vulnerability decides the damage.
  const json* av = r.require("av");
  if (!av) return false;
  if (av->is_null()) {
    s.av_is_x = true;
    s.av = 0;
  } else if (!r.read_small_int("av", *av, s.av)) {
    return false;
  }

  // hp is present on every card so a missing one is never mistaken for an
  // incantation's: an integer for a creature, null for an incantation.
  const json* hp = r.require("hp");
  if (!hp) return false;
  if (s.type == card_type::incantation) {
    if (!hp->is_null()) return r.fail("hp", "an incantation has no health (null)");
    s.hp = 0;
  } else {
    if (hp->is_null()) return r.fail("hp", "a creature needs an integer health");
    if (!r.read_small_int("hp", *hp, s.hp)) return false;
  }

  const json* abilities = r.require("abilities");
  if (!abilities || !r.read_abilities(*abilities, s)) return false;

  if (const json* deck = r.find("deck")) {
    std::int8_t d = 0;
    if (!r.read_small_int("deck", *deck, d)) return false;
    def.deck = d;
  }

  return r.check_descriptive();
}

json ability_list(const card_stats& s) {
  json list = json::array();
  for (int i = 0; i < ability_count; ++i) {
    const auto a = static_cast<ability>(i);
    if (has(s.abilities, a)) list.push_back({{"ability", ability_name(a)}, {"aura", false}});
  }
  for (int i = 0; i < ability_count; ++i) {
    const auto a = static_cast<ability>(i);
    if (has(s.auras, a)) list.push_back({{"ability", ability_name(a)}, {"aura", true}});
  }
  return list;
}

}  // namespace

card_result card_from_json(const json& j, std::size_t index) {
  card_result out;
  card_reader r(j, index);
  try {
    if (!read_card(j, r, out.def)) out.error = r.take_error();
  } catch (const std::exception& e) {
    // Every access above is type-checked first; this is a last guard so that
    // nothing escapes the public API (bad_alloc, a missed check).
    out.error = catalogue_error{out.def.id.empty() ? detail::index_name(index) : out.def.id, "card",
                                e.what()};
  }
  return out;
}

json card_to_json(const card_def& def) {
  const card_stats& s = def.stats;
  json j = {
      {"id", def.id},
      {"name", def.name},
      {"pack", def.pack},
      {"type", card_type_name(s.type)},
      {"mana", static_cast<int>(s.mana)},
      {"av", s.av_is_x ? json(nullptr) : json(static_cast<int>(s.av))},
      {"hp", s.type == card_type::incantation ? json(nullptr) : json(static_cast<int>(s.hp))},
      {"abilities", ability_list(s)},
  };
  if (def.deck != 0) j["deck"] = def.deck;
  return j;
}

json catalogue_to_json(const catalogue& cat) {
  json cards = json::array();
  for (std::size_t i = 0; i < cat.size(); ++i)
    cards.push_back(card_to_json(cat.def(static_cast<card_id>(i))));
  return {{"cards", std::move(cards)}};
}

}  // namespace cod::protocol
