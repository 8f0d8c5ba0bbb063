// The mutation league's JSON (R15.4, R15.6; RULING E70): cost tables and
// mutations, their round trips and their errors.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "../shared/catalogue.hpp"
#include "cod/protocol/mutation_json.hpp"

using namespace cod;
using json = nlohmann::json;
using cod::test::shipped;

TEST_CASE("R15.6 cost table: the ruling's table round-trips; halves kept exactly") {
  const json j = protocol::mutation_costs_to_json(mutation_costs::ruling());
  CHECK(j["hp"] == 0.5);
  CHECK(j["mana"] == 1.5);
  CHECK(j["abilities"]["berserk"] == 2.5);
  CHECK(j["abilities"]["cursed"] == 0.5);
  CHECK(j["cover"] == json{{"blackmail", 1.5}, {"cursed", 1.0}, {"defender", 1.5}, {"mercenary", 1.5}});
  const auto back = protocol::mutation_costs_from_json(j);
  REQUIRE(back.ok());
  CHECK(back.costs == mutation_costs::ruling());
}

TEST_CASE("R15.6 an organiser's table: every element and ability costs 0 or more, in halves") {
  json j = protocol::mutation_costs_to_json(mutation_costs::ruling());
  auto error_of = [](const json& t) { return protocol::mutation_costs_from_json(t).error; };
  json t = j;
  t["abilities"].erase("vanish");
  CHECK(error_of(t) == "abilities.vanish: missing (every ability has a cost, R15.6)");
  t = j;
  t["hp"] = -0.5;
  CHECK(error_of(t) == "hp: must be 0 to 100 points, in steps of 0.5");
  t = j;
  t["av"] = 0.3;
  CHECK(error_of(t) == "av: must be 0 to 100 points, in steps of 0.5");
  t = j;
  t["cover"]["flying"] = 1;
  CHECK(error_of(t) == "cover.flying: unknown ability");
  t = j;
  t["bonus"] = 1;
  CHECK(error_of(t) == "bonus: unknown field");
  t = j;
  t.erase("mana");
  CHECK(error_of(t) == "mana: missing");
  t = j;
  t["abilities"]["rage"] = "2";
  CHECK(error_of(t) == "abilities.rage: must be a number of points (0.5 steps)");
  CHECK(error_of(json::array()) == "costs: must be an object {hp, av, mana, abilities, cover}");
  // A free table (all zero, no surcharges) is allowed.
  t = j;
  t["hp"] = t["av"] = t["mana"] = 0;
  for (auto& [k, v] : t["abilities"].items()) v = 0;
  t["cover"] = json::object();
  const auto free = protocol::mutation_costs_from_json(t);
  REQUIRE(free.ok());
  CHECK(free.costs.paste[static_cast<int>(ability::berserk)] == 0);
  CHECK(free.costs.cover[static_cast<int>(ability::defender)] == 0);
}

TEST_CASE("R15.4 a mutation: stat and ability elements round-trip; errors name the field") {
  const auto& cat = shipped();
  const json hp = {{"target", "troll"}, {"source", "titan"}, {"element", "hp"}};
  auto r = protocol::mutation_from_json(hp, cat);
  REQUIRE(r.ok());
  CHECK(r.m.target == *cat.find("troll"));
  CHECK(r.m.element == mutation_element::hp);
  CHECK(protocol::mutation_to_json(r.m, cat) == hp);

  const json aura = {{"target", "aberration"}, {"source", "vortex"},       {"element", "ability"},
                     {"ability", "sprint"},    {"aura", true},            {"covers", {"rage", "berserk"}},
                     {"covers_aura", false}};
  r = protocol::mutation_from_json(aura, cat);
  REQUIRE(r.ok());
  CHECK(r.m.aura);
  CHECK(r.m.covers == std::vector<ability>{ability::rage, ability::berserk});
  CHECK(protocol::mutation_to_json(r.m, cat) == aura);

  auto error_of = [&](json j) { return protocol::mutation_from_json(j, cat).error; };
  CHECK(error_of({{"target", "nobody"}, {"source", "titan"}, {"element", "hp"}}) ==
        "target: no card \"nobody\" in the catalogue");
  CHECK(error_of({{"target", "troll"}, {"element", "hp"}}) == "source: missing");
  CHECK(error_of({{"target", "troll"}, {"source", "titan"}, {"element", "colour"}}) ==
        "element: must be \"mana\", \"av\", \"hp\" or \"ability\"");
  CHECK(error_of({{"target", "troll"}, {"source", "titan"}, {"element", "hp"}, {"covers", {"rage"}}}) ==
        "covers: only an \"ability\" element has it");
  CHECK(error_of({{"target", "troll"}, {"source", "titan"}, {"element", "ability"}, {"covers", {"rage"}}}) ==
        "ability: missing (the lab card's ability to paste)");
  CHECK(error_of({{"target", "troll"}, {"source", "titan"}, {"element", "ability"}, {"ability", "rage"}}) ==
        "covers: missing (the creature's abilities the new one is pasted over)");
  CHECK(error_of({{"target", "troll"},
                  {"source", "titan"},
                  {"element", "ability"},
                  {"ability", "rage"},
                  {"covers", {"rage", 3}}}) == "covers[1]: must be an ability's name");
  CHECK(error_of({{"target", "troll"}, {"source", "titan"}, {"element", "hp"}, {"points", 1}}) ==
        "points: unknown field");
  CHECK(error_of({{"target", "troll"}, {"source", "titan"}, {"element", "ability"}, {"ability", "rage"},
                  {"covers", {"rage"}}, {"aura", "yes"}}) == "aura: must be true or false");
}
