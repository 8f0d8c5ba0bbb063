// Events and views on the wire: exact shapes for hand-made values, then a real
// match (vanilla custom cards, so any engine version supports them) projected
// and serialised for each kind of viewer.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cod/engine/match.hpp"
#include "cod/protocol/card_json.hpp"
#include "cod/protocol/catalogue_json.hpp"
#include "cod/protocol/json_codec.hpp"

using nlohmann::json;
namespace proto = cod::protocol;

namespace {

// "v" + to_string(i), spelled so g++ 12 raises no false -Wrestrict.
std::string vanilla_id(int i) { return std::string("v") + std::to_string(i); }

// 16 vanilla creatures "v0".."v15" (mana 1, av 1, hp 2) and an incantation "zap".
const cod::catalogue& vanilla() {
  static const cod::catalogue cat = [] {
    json cards = json::array();
    for (int i = 0; i < 16; ++i)
      cards.push_back({{"id", vanilla_id(i)},
                       {"name", std::string("V") + std::to_string(i)},
                       {"type", "creature"},
                       {"mana", 1},
                       {"av", 1},
                       {"hp", 2},
                       {"abilities", json::array()}});
    cards.push_back({{"id", "zap"},
                     {"name", "ZAP"},
                     {"type", "incantation"},
                     {"mana", 1},
                     {"av", 1},
                     {"hp", nullptr},
                     {"abilities", json::array()}});
    cod::catalogue c;
    if (auto e = proto::load_catalogue_json(cards.dump(), c)) FAIL(e->to_string());
    return c;
  }();
  return cat;
}

cod::card_id id_of(const std::string& id) { return *vanilla().find(id); }

// uid 3 is v3, uid 10 is v10, uid 12 is zap; the rest unknown.
std::vector<cod::card_id> some_uids() {
  std::vector<cod::card_id> uids(cod::max_uids, cod::no_card);
  uids[3] = id_of("v3");
  uids[10] = id_of("v10");
  uids[12] = id_of("zap");
  return uids;
}

json ev(const cod::event& e, cod::seat_t viewer = cod::referee) {
  return proto::event_to_json(e, viewer, vanilla(), some_uids());
}

cod::event make(cod::event_type t) {
  cod::event e;
  e.type = t;
  return e;
}

}  // namespace

TEST_CASE("event shapes") {
  using cod::event_type;
  SUBCASE("damage_dealt names both cards") {
    auto e = make(event_type::damage_dealt);
    e.uid = 3;
    e.target = 10;
    e.amount = 2;
    CHECK(ev(e) == json{{"type", "damage_dealt"},
                        {"source", 3},
                        {"source_id", "v3"},
                        {"target", 10},
                        {"target_id", "v10"},
                        {"amount", 2}});
  }
  SUBCASE("attack on a creature and on a Stronghold") {
    auto e = make(event_type::attack);
    e.uid = 3;
    e.line = 1;
    e.target = 10;
    CHECK(ev(e) == json{{"type", "attack"},
                        {"attacker", 3},
                        {"attacker_id", "v3"},
                        {"line", 1},
                        {"target", 10},
                        {"target_id", "v10"}});
    e.target = cod::no_uid;
    e.seat = 1;
    CHECK(ev(e) == json{{"type", "attack"},
                        {"attacker", 3},
                        {"attacker_id", "v3"},
                        {"line", 1},
                        {"stronghold_of", 1}});
  }
  SUBCASE("card_played: a creature on a line, an incantation on a target") {
    auto e = make(event_type::card_played);
    e.seat = 0;
    e.uid = 3;
    e.line = 0;
    e.from = 2;
    CHECK(ev(e) == json{{"type", "card_played"},
                        {"seat", 0},
                        {"card", 3},
                        {"card_id", "v3"},
                        {"line", 0},
                        {"hand_index", 2}});
    e.uid = 12;
    e.line = -1;
    e.target = 10;
    e.from = -1;
    CHECK(ev(e) == json{{"type", "card_played"},
                        {"seat", 0},
                        {"card", 12},
                        {"card_id", "zap"},
                        {"target", 10},
                        {"target_id", "v10"}});
  }
  SUBCASE("the hand index is the playing seat's secret (R16.2)") {
    auto e = make(event_type::card_played);
    e.seat = 0;
    e.uid = 3;
    e.line = 1;
    e.from = 2;
    CHECK(ev(e, 0).contains("hand_index"));
    CHECK_FALSE(ev(e, 1).contains("hand_index"));
    CHECK_FALSE(ev(e, cod::spectator).contains("hand_index"));
  }
  SUBCASE("an unknown uid has no card_id") {
    auto e = make(event_type::card_returned);
    e.uid = 4;
    e.seat = 1;
    e.to = 7;
    CHECK(ev(e) == json{{"type", "card_returned"}, {"card", 4}, {"seat", 1}, {"hand_index", 7}});
    CHECK(proto::event_to_json(e, cod::referee, vanilla()) ==
          json{{"type", "card_returned"}, {"card", 4}, {"seat", 1}, {"hand_index", 7}});
  }
  SUBCASE("creature_entered and creature_moved") {
    auto e = make(event_type::creature_entered);
    e.seat = 1;
    e.uid = 10;
    e.line = 0;
    e.side = 1;
    e.to = 2;
    CHECK(ev(e) == json{{"type", "creature_entered"},
                        {"seat", 1},
                        {"card", 10},
                        {"card_id", "v10"},
                        {"line", 0},
                        {"side", 1},
                        {"position", 2}});
    e.type = event_type::creature_moved;
    e.from = 2;
    e.to = 1;
    CHECK(ev(e) == json{{"type", "creature_moved"},
                        {"card", 10},
                        {"card_id", "v10"},
                        {"line", 0},
                        {"side", 1},
                        {"from", 2},
                        {"to", 1}});
  }
  SUBCASE("Stronghold events") {
    auto e = make(event_type::stronghold_flipped);
    e.seat = 1;
    e.amount = 1;
    CHECK(ev(e) == json{{"type", "stronghold_flipped"}, {"seat", 1}, {"side", "fort"}});
    e = make(event_type::stronghold_damaged);
    e.seat = 1;
    e.uid = 3;
    e.amount = 4;
    CHECK(ev(e) == json{{"type", "stronghold_damaged"},
                        {"seat", 1},
                        {"source", 3},
                        {"source_id", "v3"},
                        {"amount", 4}});
    e = make(event_type::stronghold_moved);
    e.seat = 1;
    e.from = 0;
    e.to = 4;
    CHECK(ev(e) == json{{"type", "stronghold_moved"}, {"seat", 1}, {"from", 0}, {"to", 4}});
  }
  SUBCASE("turn events") {
    auto e = make(event_type::turn_started);
    e.seat = 1;
    e.amount = 4;
    e.to = 2;
    CHECK(ev(e) == json{{"type", "turn_started"}, {"seat", 1}, {"turn", 4}, {"round", 2}});
    e = make(event_type::mana_gained);
    e.seat = 1;
    e.amount = 9;
    CHECK(ev(e) == json{{"type", "mana_gained"}, {"seat", 1}, {"mana", 9}});
    e = make(event_type::match_started);
    e.seat = 0;
    CHECK(ev(e) == json{{"type", "match_started"}, {"first_seat", 0}});
  }
  SUBCASE("game_over") {
    auto e = make(event_type::game_over);
    e.amount = 0b01;
    e.seat = 1;
    e.to = static_cast<std::int16_t>(cod::end_reason::fort_destroyed);
    CHECK(ev(e) == json{{"type", "game_over"},
                        {"winners", json::array({0})},
                        {"loser", 1},
                        {"reason", "fort_destroyed"}});
  }
}

TEST_CASE("view shape for a hand-made view") {
  cod::seat_view v;
  v.viewer = 0;
  v.turn = 3;
  v.round = 2;
  v.active_seat = 1;
  v.seats.resize(2);
  v.seats[1].side = cod::stronghold_side::fort;
  v.lines.resize(2);
  v.lines[0].sides[0].seat = 0;
  v.lines[0].sides[1].seat = 1;
  cod::creature_view c;
  c.uid = 3;
  c.card = id_of("v3");
  c.av = 1;
  c.hp = 2;
  c.abilities = cod::bit(cod::ability::rage) | cod::bit(cod::ability::aerial);
  v.lines[0].sides[1].creatures.push_back(c);
  v.hand = {{10, id_of("v10")}};
  v.playable = {10};

  const json j = proto::view_to_json(v, vanilla());
  CHECK(j["role"] == "player");
  CHECK(j["viewer"] == 0);
  CHECK(j["phase"] == "summoning");
  CHECK(j["reason"] == "none");
  CHECK(j["loser"].is_null());
  CHECK(j["winners"] == json::array());
  CHECK(j["seats"][1]["side"] == "fort");
  CHECK(j["seats"][1]["seat"] == 1);
  const json& creature = j["lines"][0]["sides"][1]["creatures"][0];
  CHECK(creature["card_id"] == "v3");
  CHECK(creature["abilities"] == json::array({"aerial", "rage"}));
  CHECK(j["lines"][0]["sides"][1]["seat"] == 1);
  CHECK(j["hand"] == json::array({json{{"uid", 10}, {"card_id", "v10"}}}));
  CHECK(j["playable"] == json::array({10}));
  CHECK_FALSE(j.contains("all_hands"));
}

TEST_CASE("a real match: views and events for every kind of viewer") {
  const auto& cat = vanilla();
  cod::match_config cfg;
  cfg.seed = 42;
  cfg.first_seat = 0;
  for (int i = 0; i < 8; ++i) {
    cfg.decks[0].push_back(id_of(vanilla_id(i)));
    cfg.decks[1].push_back(id_of(vanilla_id(i + 8)));
  }
  cod::match m;
  std::vector<cod::event> events;
  REQUIRE(cod::match::create(cat, cfg, m, events) == cod::rule_error::ok);

  const auto uids = proto::uid_cards_from_view(m.view(cod::referee));
  for (const auto& e : events) {
    const json j = proto::event_to_json(e, 0, cat, uids);
    CHECK(j["type"] == std::string(cod::event_type_name(e.type)));
  }

  const json mine = proto::view_to_json(m.view(0), cat);
  CHECK(mine["role"] == "player");
  CHECK(mine["viewer"] == 0);
  CHECK(mine["phase"] == "summoning");
  CHECK(mine["seats"].size() == 2);
  CHECK(mine["lines"].size() == 2);
  REQUIRE(mine["hand"].size() == 8);
  for (const auto& card : mine["hand"]) {
    const std::string id = card["card_id"];
    CHECK(cat.def(*cat.find(id)).id == id);
    CHECK(uids[card["uid"].get<int>()] == *cat.find(id));
  }
  CHECK(mine["playable"].size() == 4);  // R3.2.1
  CHECK_FALSE(mine.contains("all_hands"));

  const json spectator = proto::view_to_json(m.view(cod::spectator), cat);
  CHECK(spectator["role"] == "spectator");
  CHECK(spectator["viewer"].is_null());
  CHECK(spectator["hand"].empty());

  const json referee = proto::view_to_json(m.view(cod::referee), cat);
  CHECK(referee["role"] == "referee");
  REQUIRE(referee.contains("all_hands"));
  CHECK(referee["all_hands"].size() == 2);

  // Seat 0 plays its first playable card on its upper line.
  const cod::card_uid card = static_cast<cod::card_uid>(mine["playable"][0].get<int>());
  const std::string card_id = cat.def(uids[card]).id;
  const auto parsed = proto::parse_action_text(
      std::string(R"({"type":"play","card":)") + std::to_string(card) + R"(,"line":"upper"})", 0);
  REQUIRE(parsed.ok());
  events.clear();
  REQUIRE(m.apply(parsed.value, events) == cod::rule_error::ok);
  bool saw_play = false;
  for (const auto& e : events) {
    if (e.type != cod::event_type::card_played) continue;
    saw_play = true;
    const json own = proto::event_to_json(e, 0, cat, uids);
    const json other = proto::event_to_json(e, 1, cat, uids);
    CHECK(own["card"] == card);
    CHECK(own["card_id"] == card_id);
    CHECK(own.contains("hand_index"));
    CHECK_FALSE(other.contains("hand_index"));
    CHECK(other["card_id"] == own["card_id"]);
  }
  CHECK(saw_play);

  const json after = proto::view_to_json(m.view(1), cat);
  const int upper = after["seats"][0]["upper_line"];
  bool on_board = false;
  for (const auto& side : after["lines"][upper]["sides"])
    for (const auto& c : side["creatures"])
      if (c["uid"] == card) on_board = c["card_id"] == card_id && c["abilities"].empty();
  CHECK(on_board);
}
