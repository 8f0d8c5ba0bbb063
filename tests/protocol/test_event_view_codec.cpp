// Events and views on the wire: exact shapes for hand-made values, then a real
// match (vanilla custom cards) projected and serialised for each kind of
// viewer, then a scripted position of shipped cards that plays the R7
// abilities with wire vocabulary of their own (Symbiote, Chain, Counterorder,
// Vanish).
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "../shared/catalogue.hpp"
#include "cod/engine/match.hpp"
#include "cod/engine/rng.hpp"
#include "cod/protocol/card_json.hpp"
#include "cod/protocol/catalogue_json.hpp"
#include "cod/protocol/json_codec.hpp"
#include "cod/protocol/server_messages.hpp"

using nlohmann::json;
namespace proto = cod::protocol;
using cod::test::shipped;

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
    e.amount = 1;
    e.from = 2;
    CHECK(ev(e) == json{{"type", "card_played"},
                        {"seat", 0},
                        {"card", 3},
                        {"card_id", "v3"},
                        {"line", 0},
                        {"mana_paid", 1},
                        {"hand_index", 2}});
    e.uid = 12;
    e.line = -1;
    e.target = 10;
    e.amount = 0;  // a free play (R7 Reinforcement) pays nothing
    e.from = -1;
    CHECK(ev(e) == json{{"type", "card_played"},
                        {"seat", 0},
                        {"card", 12},
                        {"card_id", "zap"},
                        {"target", 10},
                        {"target_id", "v10"},
                        {"mana_paid", 0}});
  }
  SUBCASE("the mana paid is public") {
    auto e = make(event_type::card_played);
    e.seat = 0;
    e.uid = 3;
    e.line = 1;
    e.amount = 3;
    e.from = 0;
    CHECK(ev(e, 1)["mana_paid"] == 3);
    CHECK(ev(e, cod::spectator)["mana_paid"] == 3);
  }
  SUBCASE("creature_stacked: a Symbiote on its host (R7)") {
    auto e = make(event_type::creature_stacked);
    e.seat = 1;
    e.uid = 3;
    e.target = 10;
    e.line = 0;
    e.side = 1;
    e.to = 2;
    CHECK(ev(e) == json{{"type", "creature_stacked"},
                        {"seat", 1},
                        {"card", 3},
                        {"card_id", "v3"},
                        {"host", 10},
                        {"host_id", "v10"},
                        {"line", 0},
                        {"side", 1},
                        {"position", 2}});
    CHECK(ev(e, 0) == ev(e));  // public
  }
  SUBCASE("creature_vanished (R7 Vanish)") {
    auto e = make(event_type::creature_vanished);
    e.uid = 10;
    e.line = 1;
    e.side = 0;
    e.from = 0;
    e.to = 3;
    CHECK(ev(e) == json{{"type", "creature_vanished"},
                        {"card", 10},
                        {"card_id", "v10"},
                        {"line", 1},
                        {"side", 0},
                        {"from", 0},
                        {"to", 3}});
  }
  SUBCASE("card_chained names the chainer, the card taken and whose hand (R7 Chain)") {
    auto e = make(event_type::card_chained);
    e.seat = 1;
    e.uid = 3;
    e.target = 10;
    const json want{{"type", "card_chained"},
                    {"chainer", 3},
                    {"chainer_id", "v3"},
                    {"card", 10},
                    {"card_id", "v10"},
                    {"from_seat", 1}};
    CHECK(ev(e) == want);
    // Chain reveals the card: every viewer sees it.
    CHECK(ev(e, 0) == want);
    CHECK(ev(e, 1) == want);
    CHECK(ev(e, cod::spectator) == want);
  }
  SUBCASE("hand_reordered: which card moved is the seat's secret (R7 Counterorder, R16.2)") {
    auto e = make(event_type::hand_reordered);
    e.seat = 0;
    e.uid = 10;
    e.from = 0;
    e.to = 5;
    CHECK(ev(e, 0) == json{{"type", "hand_reordered"},
                           {"seat", 0},
                           {"card", 10},
                           {"card_id", "v10"},
                           {"from", 0},
                           {"to", 5}});
    CHECK(ev(e, cod::referee) == ev(e, 0));
    const json redacted{{"type", "hand_reordered"}, {"seat", 0}, {"from", 0}, {"to", 5}};
    CHECK(ev(e, 1) == redacted);
    CHECK(ev(e, cod::spectator) == redacted);
  }
  SUBCASE("ability_triggered, with and without a card") {
    auto e = make(event_type::ability_triggered);
    e.seat = 1;
    e.uid = 3;
    e.amount = static_cast<std::int16_t>(cod::ability::immolation);
    CHECK(ev(e, 0) == json{{"type", "ability_triggered"},
                           {"seat", 1},
                           {"card", 3},
                           {"card_id", "v3"},
                           {"ability", "immolation"}});
    e.uid = cod::no_uid;
    e.amount = static_cast<std::int16_t>(cod::ability::catalyst);
    CHECK(ev(e, 0) == json{{"type", "ability_triggered"}, {"seat", 1}, {"ability", "catalyst"}});
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
  // A pair (R7 Symbiote: v5 on v4) holding a chained card.
  cod::creature_view pair;
  pair.uid = 4;
  pair.card = id_of("v4");
  pair.top = {5, id_of("v5")};
  pair.chained = {{9, id_of("v9")}};
  pair.av = 2;
  pair.hp = 4;
  v.lines[0].sides[1].creatures.push_back(pair);
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
  CHECK(creature["top"].is_null());
  CHECK(creature["chained"] == json::array());
  const json& stacked = j["lines"][0]["sides"][1]["creatures"][1];
  CHECK(stacked["uid"] == 4);
  CHECK(stacked["top"] == json{{"uid", 5}, {"card_id", "v5"}});
  CHECK(stacked["chained"] == json::array({json{{"uid", 9}, {"card_id", "v9"}}}));
  CHECK(stacked["av"] == 2);
  CHECK(stacked["hp"] == 4);
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

namespace {

cod::card_id shipped_id(const char* id) {
  const auto c = shipped().find(id);
  REQUIRE_MESSAGE(c.has_value(), id);
  return *c;
}

// Applies an action given in its wire form, for `seat`; returns its events.
std::vector<cod::event> play(cod::match& m, cod::seat_t seat, const std::string& text) {
  CAPTURE(text);
  const auto a = proto::parse_action_text(text, seat);
  REQUIRE(a.ok());
  std::vector<cod::event> events;
  REQUIRE(m.apply(a.value, events) == cod::rule_error::ok);
  return events;
}

// A duel at turn 3 (round 2), seat 0 to act with 10 mana after two turns,
// seat 1 after one; the test deals the cards.
cod::position_setup third_turn() {
  cod::position_setup p;
  p.first_seat = 0;
  p.active_seat = 0;
  p.turn = 3;
  p.round = 2;
  p.seats.resize(2);
  p.seats[0].mana = 10;
  p.seats[0].turns_taken = 2;
  p.seats[1].turns_taken = 1;
  return p;
}

const json* find_creature(const json& view, int uid) {
  for (const auto& line : view["lines"])
    for (const auto& side : line["sides"])
      for (const auto& c : side["creatures"])
        if (c["uid"] == uid) return &c;
  return nullptr;
}

}  // namespace

TEST_CASE("R7 abilities on the wire: a Symbiote's host, Chain, Counterorder, Vanish (shipped cards)") {
  const auto& cat = shipped();
  auto creature = [](const char* id) {
    cod::creature_setup cs;
    cs.card = shipped_id(id);
    return cs;
  };
  cod::position_setup p = third_turn();
  // uids: seat 0's hand 0..5, its upper line 6; seat 1's hand 7..10, its
  // upper line 11, 12.
  p.seats[0].hand = {shipped_id("cunning_spirit"), shipped_id("moving_slime"), shipped_id("emissary"),
                     shipped_id("boom"), shipped_id("baron"), shipped_id("zombie")};
  p.seats[0].lines[0] = {creature("brute")};
  p.seats[1].hand = {shipped_id("troll"), shipped_id("revenant"), shipped_id("combustion"), shipped_id("ogre")};
  p.seats[1].lines[0] = {creature("growler"), creature("baron")};
  cod::match m;
  REQUIRE(cod::match::from_position(cat, p, m) == cod::rule_error::ok);
  const auto uids = proto::uid_cards_from_view(m.view(cod::referee));
  auto wire = [&](const std::vector<cod::event>& events, cod::seat_t viewer) {
    return proto::events_to_json(events, viewer, cat, uids);
  };

  SUBCASE("a host that is not the seat's own creature is bad_host") {
    const auto a = proto::parse_action_text(R"({"type":"play","card":0,"line":"upper","host":11})", 0);
    REQUIRE(a.ok());
    CHECK(a.value.host == 11);
    CHECK(m.check(a.value) == cod::rule_error::bad_host);
    const json err = proto::error_to_json(m.check(a.value));
    CHECK(err["code"] == "bad_host");
    // A non-Symbiote with a host is bad_host too.
    const auto b = proto::parse_action_text(R"({"type":"play","card":1,"line":"upper","host":6})", 0);
    REQUIRE(b.ok());
    CHECK(m.check(b.value) == cod::rule_error::bad_host);
  }

  // The Symbiote goes on BRUTE: the pair is one creature with "top".
  auto events = play(m, 0, R"({"type":"play","card":0,"line":"upper","host":6})");
  json seen = wire(events, 1);
  REQUIRE(seen.size() == 2);
  CHECK(seen[0] == json{{"type", "card_played"}, {"seat", 0}, {"card", 0}, {"card_id", "cunning_spirit"},
                        {"line", 0}, {"mana_paid", 4}});
  CHECK(seen[1] == json{{"type", "creature_stacked"}, {"seat", 0}, {"card", 0}, {"card_id", "cunning_spirit"},
                        {"host", 6}, {"host_id", "brute"}, {"line", 0}, {"side", 0}, {"position", 0}});
  CHECK(wire(events, 0)[0]["hand_index"] == 0);
  for (cod::seat_t v : {cod::seat_t{0}, cod::seat_t{1}, cod::spectator}) {
    const json view = proto::view_to_json(m.view(v), cat);
    const json* pair = find_creature(view, 6);
    REQUIRE(pair);
    CHECK((*pair)["top"] == json{{"uid", 0}, {"card_id", "cunning_spirit"}});
    CHECK((*pair)["av"] == 5 + 3);  // BRUTE 5/5 + CUNNING SPIRIT 3/3
    CHECK((*pair)["hp"] == 5 + 3);
    CHECK((*pair)["chained"] == json::array());
    CHECK(find_creature(view, 0) == nullptr);  // the Symbiote is not a creature of its own
  }

  // MOVING SLIME (Chain) takes seat 1's leftmost card, TROLL: public.
  events = play(m, 0, R"({"type":"play","card":1,"line":"lower"})");
  seen = wire(events, 1);
  CHECK(seen.back() == json{{"type", "card_chained"}, {"chainer", 1}, {"chainer_id", "moving_slime"},
                            {"card", 7}, {"card_id", "troll"}, {"from_seat", 1}});
  CHECK(seen[seen.size() - 2] == json{{"type", "ability_triggered"}, {"seat", 0}, {"card", 1},
                                      {"card_id", "moving_slime"}, {"ability", "chain"}});
  CHECK(wire(events, cod::spectator) == seen);
  for (cod::seat_t v : {cod::seat_t{0}, cod::seat_t{1}, cod::spectator}) {
    const json view = proto::view_to_json(m.view(v), cat);
    const json* slime = find_creature(view, 1);
    REQUIRE(slime);
    CHECK((*slime)["chained"] == json::array({json{{"uid", 7}, {"card_id", "troll"}}}));
    CHECK((*slime)["top"].is_null());
    CHECK(view["seats"][1]["hand_size"] == 3);
  }

  // EMISSARY (Counterorder) moves seat 0's leftmost card, BOOM, rightmost:
  // which card is seat 0's secret.
  events = play(m, 0, R"({"type":"play","card":2,"line":"lower"})");
  CHECK(wire(events, 0).back() == json{{"type", "hand_reordered"}, {"seat", 0}, {"card", 3},
                                       {"card_id", "boom"}, {"from", 0}, {"to", 2}});
  CHECK(wire(events, 1).back() == json{{"type", "hand_reordered"}, {"seat", 0}, {"from", 0}, {"to", 2}});
  CHECK(wire(events, cod::spectator).back() == wire(events, 1).back());
  CHECK(proto::view_to_json(m.view(0), cat)["hand"].back() == json{{"uid", 3}, {"card_id", "boom"}});

  // BOOM on GROWLER (Vanish): 1 damage, it survives and goes to the back.
  events = play(m, 0, R"({"type":"play","card":3,"target":11})");
  seen = wire(events, 1);
  CHECK(seen.back() == json{{"type", "creature_vanished"}, {"card", 11}, {"card_id", "growler"},
                            {"line", 0}, {"side", 1}, {"from", 0}, {"to", 1}});
  const json after = proto::view_to_json(m.view(1), cat);
  CHECK(after["lines"][0]["sides"][1]["creatures"][1]["uid"] == 11);
  CHECK(after["lines"][0]["sides"][1]["creatures"][1]["damage"] == 1);
}

TEST_CASE("R13 Champions on the wire: public in every view, played, readied, exhausted (shipped cards)") {
  const auto& cat = shipped();
  cod::position_setup p = third_turn();
  // uids: seat 0's hand 0..2, seat 1's hand 3..4, then the Champions: seat
  // 0's BRUTE (4 mana, ready) 5, seat 1's OGRE (4 mana, exhausted) 6.
  p.seats[0].hand = {shipped_id("annihilation"), shipped_id("baron"), shipped_id("zombie")};
  p.seats[0].champion = shipped_id("brute");
  p.seats[1].hand = {shipped_id("troll"), shipped_id("revenant")};
  p.seats[1].champion = shipped_id("ogre");
  p.seats[1].champion_exhausted = true;
  cod::match m;
  REQUIRE(cod::match::from_position(cat, p, m) == cod::rule_error::ok);
  const auto uids = proto::uid_cards_from_view(m.view(cod::referee));
  CHECK(uids[5] == shipped_id("brute"));  // the Champions are named for events too
  auto wire = [&](const std::vector<cod::event>& events, cod::seat_t viewer) {
    return proto::events_to_json(events, viewer, cat, uids);
  };
  const json brute = {{"uid", 5}, {"card_id", "brute"}, {"state", "ready"}};
  for (cod::seat_t v : {cod::seat_t{0}, cod::seat_t{1}, cod::spectator}) {
    const json view = proto::view_to_json(m.view(v), cat);
    CHECK(view["seats"][0]["champion"] == brute);
    CHECK(view["seats"][1]["champion"] == json{{"uid", 6}, {"card_id", "ogre"}, {"state", "exhausted"}});
  }
  // A ready Champion is among its owner's playable cards (E34); an exhausted one is not.
  CHECK(proto::view_to_json(m.view(0), cat)["playable"] == json::array({0, 1, 2, 5}));
  CHECK(proto::view_to_json(m.view(1), cat)["playable"] == json::array({3, 4}));
  const cod::action exhausted_play = cod::action::play_creature(1, 6, 0);
  CHECK(m.check(exhausted_play) == cod::rule_error::not_your_turn);

  // BRUTE played from beside the play area: no hand index for anyone (it was
  // not in the hand); OGRE, of the same cost, is readied (R13.3).
  auto events = play(m, 0, R"({"type":"play","card":5,"line":"upper"})");
  for (cod::seat_t v : {cod::seat_t{0}, cod::seat_t{1}, cod::spectator}) {
    const json seen = wire(events, v);
    CHECK(seen[0] == json{{"type", "card_played"}, {"seat", 0}, {"card", 5}, {"card_id", "brute"}, {"line", 0},
                          {"mana_paid", 4}});
    CHECK(seen[1] == json{{"type", "champion_readied"}, {"seat", 1}, {"card", 6}, {"card_id", "ogre"},
                          {"by_card", 5}, {"by_card_id", "brute"}, {"mana_cost", 4}});
    const json view = proto::view_to_json(m.view(v), cat);
    CHECK(view["seats"][0]["champion"]["state"] == "in_play");
    CHECK(view["seats"][1]["champion"]["state"] == "ready");
    REQUIRE(find_creature(view, 5));
  }
  CHECK(proto::view_to_json(m.view(0), cat)["playable"] == json::array({0, 1, 2}));

  // ANNIHILATION (6) destroys BRUTE: exhausted, to no hand.
  events = play(m, 0, R"({"type":"play","card":0,"target":5})");
  const json seen = wire(events, 1);
  CHECK(std::find(seen.begin(), seen.end(),
                  json{{"type", "champion_exhausted"}, {"seat", 0}, {"card", 5}, {"card_id", "brute"}}) != seen.end());
  for (const json& e : seen) {
    const bool brute_returned = e["type"] == "card_returned" && e["card"] == 5;
    CHECK_FALSE(brute_returned);
  }
  const json view = proto::view_to_json(m.view(1), cat);
  CHECK(view["seats"][0]["champion"]["state"] == "exhausted");
  CHECK(view["seats"][0]["hand_size"] == 3);
  CHECK(find_creature(view, 5) == nullptr);
  // An exhausted Champion cannot be summoned (R13.3, E39).
  CHECK(m.check(cod::action::play_creature(0, 5, 0)) == cod::rule_error::champion_exhausted);
  const json err = proto::make_error(1, cod::rule_error::champion_exhausted);
  CHECK(err["code"] == "champion_exhausted");
}

// The server writes views and updates straight to text (json_writer). That
// text must be JSON in nlohmann's canonical form (keys in order), so the
// bytes a client gets equal view_to_json(v).dump(), and update_text equals
// make_update(...).dump(), for every kind of viewer, in random catalogue
// matches of every mode (AI piles included), with Champions and the clock.
TEST_CASE("views and updates written as text are canonical JSON, byte for byte") {
  cod::catalogue cat;
  REQUIRE(!proto::load_catalogue_file(COD_CATALOGUE_PATH, cat));
  std::uint64_t views = 0;
  for (int g = 0; g < 80; ++g) {
    cod::rng r(static_cast<std::uint64_t>(g) * 7919 + 1);
    cod::match_config cfg;
    const cod::game_mode modes[] = {cod::game_mode::duel, cod::game_mode::ffa, cod::game_mode::two_vs_two,
                                    cod::game_mode::solo, cod::game_mode::coop};
    cfg.mode = modes[g % 5];
    cfg.seat_count = cod::seats_of(cfg.mode);
    cfg.share_team_hands = cfg.mode == cod::game_mode::two_vs_two && (g / 5) % 2 == 1;
    cfg.exhaustion_rule = (g / 10) % 2 == 1;
    cfg.seed = static_cast<std::uint64_t>(g);
    const bool ai_mode = cfg.mode == cod::game_mode::solo || cfg.mode == cod::game_mode::coop;
    for (int s = 0; s < cfg.seat_count; ++s) {
      auto& deck = cfg.decks[static_cast<std::size_t>(s)];
      const bool ai = cod::is_ai_seat(cfg.mode, static_cast<cod::seat_t>(s));
      // R12.1: an AI's deck pile is 24 different cards (E41).
      while (deck.size() < (ai ? 24U : 8U)) {
        const auto c = static_cast<cod::card_id>(r.below(cat.size()));
        if (std::find(deck.begin(), deck.end(), c) == deck.end()) deck.push_back(c);
      }
      if ((g / 20) % 2 == 1 && !ai_mode) {
        for (;;) {
          const auto c = static_cast<cod::card_id>(r.below(cat.size()));
          if (cat.stats(c).type != cod::card_type::creature) continue;
          if (std::find(deck.begin(), deck.end(), c) != deck.end()) continue;
          cfg.champions[static_cast<std::size_t>(s)] = c;
          break;
        }
      }
    }
    cod::match m;
    std::vector<cod::event> events;
    REQUIRE(cod::match::create(cat, cfg, m, events) == cod::rule_error::ok);
    const auto uid_cards = proto::uid_cards_from_view(m.view(cod::referee));
    std::vector<cod::action> legal;
    for (int step = 0; step < 300 && !m.over(); ++step) {
      legal.clear();
      m.legal_actions(legal);
      events.clear();
      REQUIRE(m.apply(legal[static_cast<std::size_t>(r.below(legal.size()))], events) == cod::rule_error::ok);
      std::vector<cod::seat_t> viewers{cod::spectator, cod::referee};
      for (int s = 0; s < cfg.seat_count; ++s) viewers.push_back(static_cast<cod::seat_t>(s));
      for (cod::seat_t v : viewers) {
        const cod::seat_view view = m.view(v);
        std::string text;
        proto::write_view(text, view, cat);
        const json parsed = json::parse(text);
        REQUIRE(parsed.dump() == text);
        ++views;
        std::optional<proto::clock_snapshot> clock;
        if (step % 2 == 1) clock = proto::clock_snapshot{{1000, 2000}, 1};
        const json ev = proto::events_to_json(events, v, cat, uid_cards);
        REQUIRE(proto::update_text("r-1", step, ev, view, cat, clock) ==
                proto::make_update("r-1", step, ev, parsed, clock).dump());
        if (step % 5 == 0) {
          // The actor's copy under hello.acks in_update: the act's id, in key order.
          const json id = step % 10 == 0 ? json("a-" + std::to_string(step)) : json(step);
          json with_id = proto::make_update("r-1", step, ev, parsed, clock);
          with_id["id"] = id;
          REQUIRE(proto::update_text("r-1", step, ev, view, cat, clock, &id) == with_id.dump());
        }
      }
    }
  }
  CHECK(views > 10000);
}

TEST_CASE("Solo on the wire (R12, R16.2): the AI's deck size, discard pile and Stronghold side; never its deck") {
  const auto& cat = shipped();
  cod::position_setup p;
  p.mode = cod::game_mode::solo;
  p.seats.resize(2);
  // uids: seat 0's hand 0..3, its BRUTE 4; the AI's deck (top first) 5..7, its discard 8.
  p.seats[0].hand = {shipped_id("zombie"), shipped_id("boom"), shipped_id("baron"), shipped_id("partisan")};
  p.seats[0].lines[0].push_back(cod::creature_setup{});
  p.seats[0].lines[0][0].card = shipped_id("brute");
  p.seats[1].deck = {shipped_id("troll"), shipped_id("ogre"), shipped_id("martyr")};
  p.seats[1].discard = {shipped_id("grrr")};
  cod::match m;
  REQUIRE(cod::match::from_position(cat, p, m) == cod::rule_error::ok);
  for (cod::seat_t v : {cod::seat_t{0}, cod::spectator}) {
    const json view = proto::view_to_json(m.view(v), cat);
    CHECK(view["mode"] == "solo");
    CHECK(view["seats"][1]["ai"] == true);
    CHECK(view["seats"][1]["deck_size"] == 3);
    CHECK(view["seats"][1]["health"] == 3);
    CHECK(view["seats"][1]["side"] == "bastion");
    CHECK(view["seats"][1]["discard"] == json::array({json{{"uid", 8}, {"card_id", "grrr"}}}));
    CHECK(!view["seats"][0].contains("ai"));
    CHECK(!view.contains("ai_decks"));
    // No AI deck card anywhere in what a player or spectator is sent.
    const std::string text = view.dump();
    for (const char* hidden : {"troll", "ogre", "martyr"}) CHECK(text.find(hidden) == std::string::npos);
  }
  const json ref = proto::view_to_json(m.view(cod::referee), cat);
  REQUIRE(ref.contains("ai_decks"));
  CHECK(ref["ai_decks"][1][0]["card_id"] == "troll");  // top first
  CHECK(ref["ai_decks"][0] == json::array());

  // BRUTE hits the AI for 5: 3 cards milled, the Bastion revealed, the discard
  // pile (4 cards) reshuffled into a new deck; then the AI's turn.
  const auto uids = proto::uid_cards_from_view(m.view(cod::referee));
  auto events = play(m, 0, R"({"type":"end_turn"})");
  const json seen = proto::events_to_json(events, 0, cat, uids);
  std::vector<std::string> types;
  for (const json& e : seen) types.push_back(e["type"].get<std::string>());
  REQUIRE(types.size() > 8);
  CHECK(seen[1] == json{{"type", "stronghold_damaged"}, {"seat", 1}, {"source", 4}, {"source_id", "brute"}, {"amount", 5}});
  CHECK(seen[2] == json{{"type", "card_milled"}, {"seat", 1}, {"card", 5}, {"card_id", "troll"}, {"source", 4},
                        {"source_id", "brute"}, {"deck_size", 2}});
  CHECK(seen[5] == json{{"type", "stronghold_flipped"}, {"seat", 1}, {"side", "fort"}});
  CHECK(seen[6] == json{{"type", "deck_reshuffled"}, {"seat", 1}, {"deck_size", 4}});
  CHECK(std::count(types.begin(), types.end(), "ai_revealed") >= 1);
  for (const json& e : seen)
    if (e["type"] == "ai_revealed") {
      CHECK(e["seat"] == 1);
      CHECK(e.contains("card_id"));
      CHECK(e.contains("deck_size"));
    }
}
