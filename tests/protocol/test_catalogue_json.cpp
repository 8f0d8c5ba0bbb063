// Loading the card catalogue: the shipped file, custom cards, and every way a
// card can be wrong (each error must name the card and the field).
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "../shared/catalogue.hpp"
#include "cod/protocol/card_json.hpp"
#include "cod/protocol/catalogue_json.hpp"

using nlohmann::json;
namespace proto = cod::protocol;
using cod::test::shipped;

namespace {

json read_json_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return json::parse(text.str());
}

const cod::card_def& def(const cod::catalogue& cat, const char* id) {
  const auto c = cat.find(id);
  REQUIRE(c.has_value());
  return cat.def(*c);
}

// A valid creature to break one field at a time.
json good_card(const char* id = "test_card") {
  return {{"id", id},         {"name", "TEST CARD"},
          {"pack", "custom"}, {"type", "creature"},
          {"mana", 3},        {"av", 2},
          {"hp", 4},          {"abilities", json::array({{{"ability", "rage"}, {"aura", false}}})}};
}

// Loads `cards` (a JSON array of cards) into an empty catalogue.
std::optional<cod::catalogue_error> load_cards(const json& cards) {
  cod::catalogue cat;
  return proto::load_catalogue_json(json{{"cards", cards}}.dump(), cat);
}

void check_rejected(const json& card, const std::string& who, const std::string& field) {
  const auto e = load_cards(json::array({card}));
  REQUIRE(e.has_value());
  CHECK(e->card == who);
  CHECK(e->field == field);
  CHECK_FALSE(e->message.empty());
}

// good_card() with one field set to `value` is rejected, naming that field.
void check_field_rejected(const std::string& field, const json& value) {
  CAPTURE(value.dump());
  json c = good_card();
  c[field] = value;
  check_rejected(c, "test_card", field);
}

}  // namespace

TEST_CASE("the shipped catalogue loads: 352 cards, 307 creatures, 45 incantations") {
  const auto& cat = shipped();
  REQUIRE(cat.size() == 352);
  int creatures = 0, incantations = 0;
  for (std::size_t i = 0; i < cat.size(); ++i) {
    const auto& s = cat.stats(static_cast<cod::card_id>(i));
    (s.type == cod::card_type::creature ? creatures : incantations)++;
  }
  CHECK(creatures == 307);
  CHECK(incantations == 45);
}

TEST_CASE("R14.1 the four preconstructed decks have 8 cards matching preconstructed_decks") {
  const auto& cat = shipped();
  const json doc = read_json_file(COD_CATALOGUE_PATH);
  for (int deck = 1; deck <= 4; ++deck) {
    CAPTURE(deck);
    const auto ids = cat.preconstructed_deck(deck);
    REQUIRE(ids.size() == 8);
    std::set<std::string> got, listed;
    for (auto c : ids) got.insert(cat.def(c).id);
    for (const auto& id : doc["preconstructed_decks"][std::to_string(deck)])
      listed.insert(id.get<std::string>());
    CHECK(got == listed);
  }
}

TEST_CASE("spot values from the printed cards") {
  const auto& cat = shipped();
  const auto& brute = def(cat, "brute");
  CHECK(brute.name == "BRUTE");
  CHECK(brute.pack == "initiation");
  CHECK(brute.deck == 1);
  CHECK(brute.stats.type == cod::card_type::creature);
  CHECK(brute.stats.mana == 4);
  CHECK(brute.stats.av == 5);
  CHECK(brute.stats.hp == 5);
  CHECK(brute.stats.abilities == 0);
  CHECK(brute.stats.auras == 0);

  // SHAMAN gives Rage to its neighbours but has no ability itself.
  const auto& shaman = def(cat, "shaman");
  CHECK(shaman.stats.auras == cod::bit(cod::ability::rage));
  CHECK(shaman.stats.abilities == 0);

  const auto& meteorite = def(cat, "meteorite");
  CHECK(meteorite.stats.type == cod::card_type::incantation);
  CHECK(meteorite.stats.av == 4);
  CHECK(meteorite.stats.hp == 0);
  CHECK(meteorite.stats.abilities == cod::bit(cod::ability::perforation));

  // R7: a printed X is av null.
  const auto& thrasher = def(cat, "toxic_thrasher");
  CHECK(thrasher.stats.av_is_x);
  CHECK(thrasher.stats.av == 0);
  CHECK(cod::has(thrasher.stats.abilities, cod::ability::vulnerability));
  CHECK(def(cat, "transformutton").stats.av_is_x);

  // Not an Initiation card: no preconstructed deck.
  CHECK(def(cat, "venenous_lord").deck == 0);
}

TEST_CASE("catalogue_to_json loads back into the same cards") {
  const auto& cat = shipped();
  cod::catalogue again;
  REQUIRE_FALSE(proto::load_catalogue_json(proto::catalogue_to_json(cat).dump(), again));
  REQUIRE(again.size() == cat.size());
  for (std::size_t i = 0; i < cat.size(); ++i) {
    const auto& a = cat.def(static_cast<cod::card_id>(i));
    const auto& b = again.def(static_cast<cod::card_id>(i));
    CAPTURE(a.id);
    CHECK(a.id == b.id);
    CHECK(a.name == b.name);
    CHECK(a.pack == b.pack);
    CHECK(a.deck == b.deck);
    CHECK(a.stats.type == b.stats.type);
    CHECK(a.stats.mana == b.stats.mana);
    CHECK(a.stats.av == b.stats.av);
    CHECK(a.stats.hp == b.stats.hp);
    CHECK(a.stats.av_is_x == b.stats.av_is_x);
    CHECK(a.stats.abilities == b.stats.abilities);
    CHECK(a.stats.auras == b.stats.auras);
  }
}

TEST_CASE("a valid custom card loads, with defaults for the optional fields") {
  json card = good_card();
  card.erase("pack");
  cod::catalogue cat;
  REQUIRE_FALSE(proto::load_catalogue_json(json::array({card}).dump(), cat));
  const auto& d = def(cat, "test_card");
  CHECK(d.pack == "custom");
  CHECK(d.deck == 0);
  CHECK(d.stats.abilities == cod::bit(cod::ability::rage));
}

TEST_CASE("bad cards are rejected, naming the card and the field") {
  SUBCASE("negative mana") { check_field_rejected("mana", -1); }
  SUBCASE("mana beyond what an int8 holds") { check_field_rejected("mana", 1000); }
  SUBCASE("mana of the wrong JSON type") {
    check_field_rejected("mana", "4");
    check_field_rejected("mana", 4.5);
    check_field_rejected("mana", true);
  }
  SUBCASE("hp on an incantation") {
    json c = good_card();
    c["type"] = "incantation";
    c["abilities"] = json::array();
    c["hp"] = 3;
    check_rejected(c, "test_card", "hp");
  }
  SUBCASE("a creature without health") {
    check_field_rejected("hp", nullptr);
    check_field_rejected("hp", 0);
  }
  SUBCASE("unknown ability") {
    json c = good_card();
    c["abilities"].push_back({{"ability", "flight"}, {"aura", false}});
    check_rejected(c, "test_card", "abilities[1].ability");
  }
  SUBCASE("the same ability twice") {
    json c = good_card();
    c["abilities"].push_back({{"ability", "rage"}});
    check_rejected(c, "test_card", "abilities[1]");
  }
  SUBCASE("an ability entry with a bad aura flag") {
    json c = good_card();
    c["abilities"][0]["aura"] = "yes";
    check_rejected(c, "test_card", "abilities[0].aura");
  }
  SUBCASE("unknown type") { check_field_rejected("type", "spell"); }
  SUBCASE("missing fields") {
    for (const char* field : {"name", "type", "mana", "av", "hp", "abilities"}) {
      CAPTURE(field);
      json c = good_card();
      c.erase(field);
      check_rejected(c, "test_card", field);
    }
  }
  SUBCASE("unknown field") { check_field_rejected("abilites", json::array()); }
  SUBCASE("X attack value without Vulnerability (catalogue::validate)") { check_field_rejected("av", nullptr); }
  SUBCASE("a deck number out of range (catalogue::validate)") { check_field_rejected("deck", 5); }
  SUBCASE("missing id: named by its index") {
    json c = good_card();
    c.erase("id");
    const auto e = load_cards(json::array({good_card("first"), c}));
    REQUIRE(e.has_value());
    CHECK(e->card == "#1");
    CHECK(e->field == "id");
  }
  SUBCASE("id of the wrong type or empty") {
    json c = good_card();
    c["id"] = 7;
    check_rejected(c, "#0", "id");
    c["id"] = "";
    check_rejected(c, "#0", "id");
  }
  SUBCASE("a card that is not an object") { check_rejected(json(42), "#0", "card"); }
  SUBCASE("duplicate id") {
    const auto e = load_cards(json::array({good_card("twin"), good_card("twin")}));
    REQUIRE(e.has_value());
    CHECK(e->card == "twin");
    CHECK(e->field == "id");
  }
}

TEST_CASE("document-level errors") {
  cod::catalogue cat;
  SUBCASE("malformed JSON") {
    const auto e = proto::load_catalogue_json("{\"cards\": [", cat);
    REQUIRE(e.has_value());
    CHECK(e->card == "");
    CHECK(e->field == "json");
  }
  SUBCASE("neither an array nor an object with cards") {
    for (const char* text : {"42", "{\"about\": \"no cards\"}", "{\"cards\": {}}"}) {
      CAPTURE(text);
      const auto e = proto::load_catalogue_json(text, cat);
      REQUIRE(e.has_value());
      CHECK(e->field == "cards");
    }
  }
  SUBCASE("a file that cannot be read") {
    const auto e = proto::load_catalogue_file("/nonexistent/cards.json", cat);
    REQUIRE(e.has_value());
    CHECK(e->card == "");
    CHECK(e->field == "file");
  }
  CHECK(cat.size() == 0);
}

TEST_CASE("preconstructed_decks must agree with the cards' deck fields") {
  json a = good_card("a");
  a["deck"] = 1;
  cod::catalogue cat;
  SUBCASE("a card whose deck field says 1 but is not listed") {
    const auto e = proto::load_catalogue_json(
        json{{"cards", json::array({a})}, {"preconstructed_decks", {{"1", json::array()}}}}.dump(),
        cat);
    REQUIRE(e.has_value());
    CHECK(e->card == "a");
    CHECK(e->field == "deck");
  }
  SUBCASE("a listed card that is not in the catalogue") {
    const auto e = proto::load_catalogue_json(
        json{{"cards", json::array({a})},
             {"preconstructed_decks", {{"1", json::array({"a", "ghost"})}}}}
            .dump(),
        cat);
    REQUIRE(e.has_value());
    CHECK(e->card == "ghost");
  }
  SUBCASE("agreeing lists load") {
    CHECK_FALSE(proto::load_catalogue_json(
        json{{"cards", json::array({a})}, {"preconstructed_decks", {{"1", json::array({"a"})}}}}
            .dump(),
        cat));
  }
}

TEST_CASE("loading is all or nothing") {
  cod::catalogue cat = shipped();
  const auto e =
      proto::load_catalogue_json(json::array({good_card("fine"), good_card("brute")}).dump(), cat);
  REQUIRE(e.has_value());
  CHECK(e->card == "brute");
  CHECK(e->field == "id");
  CHECK(cat.size() == 352);
  CHECK_FALSE(cat.find("fine").has_value());
}

TEST_CASE("a custom card file adds its cards beside the shipped ones") {
  const auto path = std::filesystem::temp_directory_path() / "cod_protocol_custom_cards.json";
  json spell = good_card("test_bolt");
  spell["type"] = "incantation";
  spell["hp"] = nullptr;
  spell["abilities"] = json::array();
  {
    std::ofstream out(path);
    out << json::array({good_card("test_wall"), spell}).dump(2);
  }
  cod::catalogue cat = shipped();
  const auto e = proto::load_catalogue_file(path.string(), cat);
  std::filesystem::remove(path);
  REQUIRE_FALSE(e.has_value());
  CHECK(cat.size() == 354);
  CHECK(def(cat, "test_wall").stats.hp == 4);
  CHECK(def(cat, "test_bolt").stats.type == cod::card_type::incantation);
  CHECK(def(cat, "brute").stats.av == 5);
}

TEST_CASE("card_from_json parses one inline card (scenario files)") {
  const auto r = proto::card_from_json(good_card("inline"), 3);
  REQUIRE(r.ok());
  CHECK(r.def.id == "inline");
  CHECK(r.def.stats.mana == 3);

  json bad = good_card();
  bad.erase("id");
  const auto e = proto::card_from_json(bad, 3);
  REQUIRE_FALSE(e.ok());
  CHECK(e.error->card == "#3");
  CHECK(e.error->field == "id");
}
