#include "cod/protocol/mutation_json.hpp"

#include <cmath>
#include <initializer_list>
#include <string_view>

#include <nlohmann/json.hpp>

namespace cod::protocol {

namespace {

using json = nlohmann::json;

std::string unknown_key(const json& j, std::initializer_list<std::string_view> known) {
  for (auto it = j.begin(); it != j.end(); ++it) {
    bool ok = false;
    for (auto k : known) ok = ok || it.key() == k;
    if (!ok) return it.key() + ": unknown field";
  }
  return "";
}

// Points as a number of halves: 0 to 100 points, a multiple of 0.5.
std::string read_points(const json& v, const std::string& field, half_points& out) {
  if (!v.is_number()) return field + ": must be a number of points (0.5 steps)";
  const double d = v.get<double>() * 2;
  if (!(d >= 0 && d <= 200) || std::floor(d) != d) return field + ": must be 0 to 100 points, in steps of 0.5";
  out = static_cast<half_points>(d);
  return "";
}

double as_points(half_points p) { return p / 2.0; }

std::string read_ability_map(const json& j, const char* field, bool every,
                             std::array<half_points, ability_count>& out) {
  auto it = j.find(field);
  if (it == j.end()) return std::string(field) + ": missing";
  if (!it->is_object()) return std::string(field) + ": must be an object {ability: points}";
  for (auto e = it->begin(); e != it->end(); ++e)
    if (!ability_from_name(e.key())) return std::string(field) + "." + e.key() + ": unknown ability";
  for (int i = 0; i < ability_count; ++i) {
    const std::string name(ability_name(static_cast<ability>(i)));
    auto v = it->find(name);
    if (v == it->end()) {
      if (every) return std::string(field) + "." + name + ": missing (every ability has a cost, R15.6)";
      out[i] = 0;
      continue;
    }
    if (auto e = read_points(*v, std::string(field) + "." + name, out[i]); !e.empty()) return e;
  }
  return "";
}

std::string read_card(const json& j, const char* field, const catalogue& cat, card_id& out) {
  auto it = j.find(field);
  if (it == j.end()) return std::string(field) + ": missing";
  if (!it->is_string()) return std::string(field) + ": must be a card id (a string)";
  auto id = cat.find(it->get_ref<const std::string&>());
  if (!id) return std::string(field) + ": no card \"" + it->get<std::string>() + "\" in the catalogue";
  out = *id;
  return "";
}

std::string read_bool(const json& j, const char* field, bool& out) {
  auto it = j.find(field);
  if (it == j.end()) return "";
  if (!it->is_boolean()) return std::string(field) + ": must be true or false";
  out = it->get<bool>();
  return "";
}

}  // namespace

mutation_costs_result mutation_costs_from_json(const json& j) {
  mutation_costs_result r;
  if (!j.is_object()) {
    r.error = "costs: must be an object {hp, av, mana, abilities, cover}";
    return r;
  }
  if ((r.error = unknown_key(j, {"hp", "av", "mana", "abilities", "cover"})).empty())
    for (auto [field, out] : {std::pair{"hp", &r.costs.hp}, {"av", &r.costs.av}, {"mana", &r.costs.mana}}) {
      auto it = j.find(field);
      r.error = it == j.end() ? std::string(field) + ": missing" : read_points(*it, field, *out);
      if (!r.error.empty()) break;
    }
  if (r.error.empty()) r.error = read_ability_map(j, "abilities", true, r.costs.paste);
  if (r.error.empty()) r.error = read_ability_map(j, "cover", false, r.costs.cover);
  if (r.error.empty()) r.error = r.costs.check();
  return r;
}

json mutation_costs_to_json(const mutation_costs& c) {
  json paste = json::object(), cover = json::object();
  for (int i = 0; i < ability_count; ++i) {
    const std::string name(ability_name(static_cast<ability>(i)));
    paste[name] = as_points(c.paste[i]);
    if (c.cover[i] != 0) cover[name] = as_points(c.cover[i]);
  }
  return json{{"hp", as_points(c.hp)}, {"av", as_points(c.av)}, {"mana", as_points(c.mana)},
              {"abilities", std::move(paste)}, {"cover", std::move(cover)}};
}

mutation_result mutation_from_json(const json& j, const catalogue& cat) {
  mutation_result r;
  mutation& m = r.m;
  auto fail = [&](std::string e) {
    r.error = std::move(e);
    return r;
  };
  if (!j.is_object()) return fail("mutation: must be an object {target, source, element, ...}");
  if (auto e = unknown_key(j, {"target", "source", "element", "ability", "aura", "covers", "covers_aura"}); !e.empty())
    return fail(e);
  if (auto e = read_card(j, "target", cat, m.target); !e.empty()) return fail(e);
  if (auto e = read_card(j, "source", cat, m.source); !e.empty()) return fail(e);
  auto el = j.find("element");
  if (el == j.end()) return fail("element: missing");
  if (!el->is_string() || !mutation_element_from_name(el->get_ref<const std::string&>()))
    return fail("element: must be \"mana\", \"av\", \"hp\" or \"ability\"");
  m.element = *mutation_element_from_name(el->get_ref<const std::string&>());
  if (m.element != mutation_element::ability) {
    for (const char* k : {"ability", "aura", "covers", "covers_aura"})
      if (j.contains(k)) return fail(std::string(k) + ": only an \"ability\" element has it");
    return r;
  }
  auto ab = j.find("ability");
  if (ab == j.end()) return fail("ability: missing (the lab card's ability to paste)");
  if (!ab->is_string() || !ability_from_name(ab->get_ref<const std::string&>()))
    return fail("ability: must be an ability's name, e.g. \"rage\"");
  m.pasted = *ability_from_name(ab->get_ref<const std::string&>());
  if (auto e = read_bool(j, "aura", m.aura); !e.empty()) return fail(e);
  if (auto e = read_bool(j, "covers_aura", m.covers_aura); !e.empty()) return fail(e);
  auto cv = j.find("covers");
  if (cv == j.end()) return fail("covers: missing (the creature's abilities the new one is pasted over)");
  if (!cv->is_array() || cv->size() > 2) return fail("covers: must be an array of one or two abilities");
  for (std::size_t i = 0; i < cv->size(); ++i) {
    const json& a = (*cv)[i];
    if (!a.is_string() || !ability_from_name(a.get_ref<const std::string&>()))
      return fail("covers[" + std::to_string(i) + "]: must be an ability's name");
    m.covers.push_back(*ability_from_name(a.get_ref<const std::string&>()));
  }
  return r;
}

json mutation_to_json(const mutation& m, const catalogue& cat) {
  json j{{"target", cat.def(m.target).id}, {"source", cat.def(m.source).id},
         {"element", mutation_element_name(m.element)}};
  if (m.element == mutation_element::ability) {
    j["ability"] = ability_name(m.pasted);
    j["aura"] = m.aura;
    json covers = json::array();
    for (ability a : m.covers) covers.push_back(ability_name(a));
    j["covers"] = std::move(covers);
    j["covers_aura"] = m.covers_aura;
  }
  return j;
}

json mutations_to_json(const std::vector<mutation>& ms, const catalogue& cat) {
  json out = json::array();
  for (const mutation& m : ms) out.push_back(mutation_to_json(m, cat));
  return out;
}

}  // namespace cod::protocol
