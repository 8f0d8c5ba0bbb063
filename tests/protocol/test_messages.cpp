// Client messages (client_messages.hpp): round trips of every message, and a
// clean error with the right code and field for every way a frame can be
// wrong, hostile input included. The schemas get the same cases through
// protocol_samples (validate_examples.py).
#include <doctest/doctest.h>

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "cod/engine/rng.hpp"
#include "cod/protocol/client_messages.hpp"
#include "cod/protocol/names.hpp"
#include "cod/protocol/room_config.hpp"

using nlohmann::json;
namespace proto = cod::protocol;
using proto::protocol_errc;

namespace {

proto::client_parse_result parse(const std::string& text) { return proto::parse_client_message(text); }

void check_error(const std::string& text, protocol_errc code, const std::string& field,
                 const json& id = nullptr) {
  const std::string shown = text.size() > 200 ? text.substr(0, 200) + "..." : text;
  CAPTURE(shown);
  const auto r = parse(text);
  REQUIRE_FALSE(r.ok());
  REQUIRE(r.error.has_value());
  CHECK(r.error->name() == proto::protocol_errc_name(code));
  CHECK(r.error->field == field);
  CHECK_FALSE(r.error->message.empty());
  CHECK(r.id == id);
  CHECK_FALSE(r.oversized);
}

template <class Msg>
Msg parse_as(const std::string& text) {
  CAPTURE(text);
  const auto r = parse(text);
  if (!r.ok()) FAIL(r.error->message);
  REQUIRE(std::holds_alternative<Msg>(*r.message));
  return std::get<Msg>(*r.message);
}

std::vector<proto::client_message> every_message() {
  const std::vector<std::string> cards = {"baron", "brute",    "carapace",     "troll",
                                          "revenant", "partisan", "annihilation", "boom"};
  return {
      proto::hello_msg{1, 1, "cod-bot/0.1"},
      proto::hello_msg{nullptr, 7, std::nullopt},
      proto::list_rooms_msg{"lr"},
      proto::create_room_msg{3, cod::game_mode::duel, proto::deck_format::preconstructed, {}},
      proto::create_room_msg{json(-4), cod::game_mode::duel, proto::deck_format::constructed,
                             proto::room_options{true, proto::turn_clock{60000, 2000}, 2}},
      proto::join_msg{5, "r7k2", "Ada", std::nullopt, proto::deck_choice{3, {}}},
      proto::join_msg{6, "R_7-k", "Zoë the ⚔", 1, proto::deck_choice{0, cards}},
      proto::join_msg{"c", "r7k2", "Cy", 3, proto::deck_choice{2, {}}, std::string("brute")},
      proto::create_room_msg{"f", cod::game_mode::ffa, proto::deck_format::constructed,
                             proto::room_options{false, std::nullopt, 4, true, false}},
      proto::create_room_msg{"t", cod::game_mode::two_vs_two, proto::deck_format::preconstructed,
                             proto::room_options{true, std::nullopt, 4, false, true}},
      proto::resume_msg{7, "r7k2", "00112233445566778899aabbccddeeff"},
      proto::spectate_msg{nullptr, "r7k2"},
      proto::tournament_join_msg{12, "00112233445566778899aabbccddeeff", proto::deck_choice{2, {}}},
      proto::act_msg{8, cod::action::play_creature(cod::no_seat, 5, 1)},
      proto::act_msg{9, cod::action::play_incantation(cod::no_seat, 7, 12)},
      proto::act_msg{10, cod::action::end(cod::no_seat)},
      proto::act_msg{"c", cod::action::concede_by(cod::no_seat)},
      proto::leave_msg{11},
      proto::ping_msg{json(9007199254740993ULL)},
      proto::history_msg{13},
      proto::history_msg{"h", 41},
      proto::add_bot_msg{14},
      proto::add_bot_msg{"b", 3},
      proto::add_bot_msg{"l", std::nullopt, 1},
      proto::add_bot_msg{"m", 2, 5},
      proto::emote_msg{16, "well_played"},
      proto::emote_msg{"g", "good_game"},
      proto::emote_msg{nullptr, "thinking"},
      proto::emote_msg{"o", "oops"},
      proto::league_mutations_msg{15, json::array()},
      proto::league_mutations_msg{"m", json::array({{{"target", "troll"}, {"source", "brute"}, {"element", "hp"}}})},
  };
}

}  // namespace

TEST_CASE("every client message round trips through its wire form") {
  std::vector<std::string> types;
  for (const auto& m : every_message()) {
    const json j = proto::client_message_to_json(m);
    CAPTURE(j.dump());
    CHECK(j.at("type") == proto::message_type(m));
    CHECK(j.contains("id") == !proto::message_id(m).is_null());
    const auto r = parse(j.dump());
    REQUIRE(r.ok());
    CHECK(*r.message == m);
    CHECK(r.id == proto::message_id(m));
    const auto again = proto::parse_client_json(j);
    REQUIRE(again.ok());
    CHECK(*again.message == m);
    types.emplace_back(proto::message_type(m));
  }
  for (const char* t : {"hello", "list_rooms", "create_room", "join", "resume", "spectate", "act",
                        "leave", "ping", "tournament_join", "history", "add_bot", "league_mutations", "emote"})
    CHECK(std::find(types.begin(), types.end(), t) != types.end());
}

TEST_CASE("fields as the server reads them") {
  SUBCASE("tokens that name their tournament or league (ID.HEX), and plain ones") {
    const std::string hex = "00112233445566778899aabbccddeeff";
    CHECK(parse_as<proto::tournament_join_msg>(R"({"type":"tournament_join","token":"n2-t0a1b2c3d4e.)" + hex +
                                               R"(","deck":{"preconstructed":1}})")
              .token == "n2-t0a1b2c3d4e." + hex);
    CHECK(parse_as<proto::league_join_msg>(R"({"type":"league_join","token":"l0123456789.)" + hex + R"("})").token ==
          "l0123456789." + hex);
    CHECK(parse_as<proto::resume_msg>(R"({"type":"resume","room":"r","token":"n2-t0a1b2c3d4e.)" + hex + R"("})")
              .token == "n2-t0a1b2c3d4e." + hex);
    CHECK(proto::event_of_token("n2-t0a1b2c3d4e." + hex) == "n2-t0a1b2c3d4e");
    CHECK(proto::event_of_token("l0123456789." + hex) == "l0123456789");
    CHECK(proto::event_of_token(hex).empty());
    CHECK(proto::event_of_token("." + hex).empty());
    CHECK(proto::event_of_token("a b." + hex).empty());
    CHECK(proto::event_of_token(std::string(33, 'a') + "." + hex).empty());
    CHECK(proto::event_of_token(std::string(32, 'a') + "." + hex) == std::string(32, 'a'));
    CHECK(proto::event_of_token("n2.x").empty());
  }
  SUBCASE("list_rooms: one page, filters") {
    const auto plain = parse_as<proto::list_rooms_msg>(R"({"type":"list_rooms"})");
    CHECK(plain.limit == proto::default_room_page);
    CHECK_FALSE(plain.status);
    const auto m = parse_as<proto::list_rooms_msg>(
        R"({"type":"list_rooms","status":"waiting","mode":"2v2","format":"draft","limit":100,"after":"b0Qx"})");
    CHECK(m.status == proto::room_status::waiting);
    CHECK(m.mode == cod::game_mode::two_vs_two);
    CHECK(m.format == proto::deck_format::draft);
    CHECK(m.limit == 100);
    CHECK(m.after == "b0Qx");
    CHECK(parse_as<proto::list_rooms_msg>(R"({"type":"list_rooms","room":"r7k2"})").room == "r7k2");
    check_error(R"({"type":"list_rooms","limit":101})", protocol_errc::bad_field_value, "limit");
    check_error(R"({"type":"list_rooms","limit":"5"})", protocol_errc::bad_field_type, "limit");
    check_error(R"({"type":"list_rooms","status":"open"})", protocol_errc::bad_field_value, "status");
    check_error(R"({"type":"list_rooms","after":""})", protocol_errc::bad_field_value, "after");
  }
  SUBCASE("hello") {
    const auto m = parse_as<proto::hello_msg>(R"({"type":"hello","version":1,"client":"web/2"})");
    CHECK(m.version == 1);
    CHECK(m.client == "web/2");
    CHECK(m.id.is_null());
    // A later version parses: the server answers unsupported_version.
    CHECK(parse_as<proto::hello_msg>(R"({"type":"hello","version":2})").version == 2);
  }
  SUBCASE("create_room defaults") {
    const auto m = parse_as<proto::create_room_msg>(
        R"({"type":"create_room","mode":"duel","format":"constructed"})");
    CHECK(m.format == proto::deck_format::constructed);
    CHECK(m.options == proto::room_options{});
    const auto n = parse_as<proto::create_room_msg>(
        R"({"type":"create_room","mode":"duel","format":"preconstructed",
            "options":{"turn_clock":{"bank_ms":1000}}})");
    REQUIRE(n.options.clock.has_value());
    CHECK(n.options.clock->bank_ms == 1000);
    CHECK(n.options.clock->increment_ms == 0);
    const auto o = parse_as<proto::create_room_msg>(
        R"({"type":"create_room","mode":"duel","format":"preconstructed",
            "options":{"turn_clock":null,"exhaustion":true,"seats":2}})");
    CHECK_FALSE(o.options.clock.has_value());
    CHECK(o.options.exhaustion);
    // R17.25: the stall turn, 40 unless the room sets another (0: never).
    CHECK(m.options.stall_exhaustion_turn == 40);
    CHECK(o.options.stall_exhaustion_turn == 40);
    for (const int stall : {0, 8, 25, 1000}) {
      const auto s = parse_as<proto::create_room_msg>(
          R"({"type":"create_room","mode":"ffa","format":"preconstructed","options":{"stall_exhaustion_turn":)" +
          std::to_string(stall) + "}}");
      CHECK(s.options.stall_exhaustion_turn == stall);
    }
  }
  SUBCASE("join") {
    const auto m = parse_as<proto::join_msg>(
        R"({"id":"j1","type":"join","room":"r7k2","name":"Ada","seat":1,"deck":{"preconstructed":4}})");
    CHECK(m.id == "j1");
    CHECK(m.room == "r7k2");
    CHECK(m.name == "Ada");
    CHECK(m.seat == 1);
    CHECK(m.deck.is_preconstructed());
    CHECK(m.deck.preconstructed == 4);
    // 32 characters of 2 bytes each is a legal name.
    std::string name;
    for (int i = 0; i < 32; ++i) name += "é";
    CHECK(parse_as<proto::join_msg>(std::string(R"({"type":"join","room":"r","name":")") + name +
                                    R"(","deck":{"cards":[]}})")
              .name == name);
  }
  SUBCASE("act leaves the seat to the server") {
    const auto m = parse_as<proto::act_msg>(
        R"({"type":"act","id":3,"action":{"type":"play","card":4,"line":"lower"}})");
    CHECK(m.action.seat == cod::no_seat);
    CHECK(m.for_seat(1) == cod::action::play_creature(1, 4, 1));
    CHECK(m.action.seat == cod::no_seat);
  }
}

TEST_CASE("request ids") {
  CHECK(parse(R"({"type":"ping","id":0})").id == 0);
  CHECK(parse(R"({"type":"ping","id":-5})").id == -5);
  CHECK(parse(R"({"type":"ping","id":18446744073709551615})").id == json(18446744073709551615ULL));
  CHECK(parse(R"({"type":"ping","id":"abc"})").id == "abc");
  CHECK(parse(R"({"type":"ping","id":null})").id.is_null());
  CHECK(parse(R"({"type":"ping"})").id.is_null());
  CHECK(parse(std::string(R"({"type":"ping","id":")") + std::string(64, 'x') + "\"}").ok());

  // A bad id is the error, and is not echoed.
  check_error(R"({"type":"ping","id":1.5})", protocol_errc::bad_field_type, "id");
  check_error(R"({"type":"ping","id":true})", protocol_errc::bad_field_type, "id");
  check_error(R"({"type":"ping","id":{"a":1}})", protocol_errc::bad_field_type, "id");
  check_error(R"({"type":"ping","id":[1]})", protocol_errc::bad_field_type, "id");
  check_error(R"({"type":"ping","id":1e400})", protocol_errc::bad_json, "");
  check_error(R"({"type":"ping","id":100000000000000000000})", protocol_errc::bad_field_type, "id");
  check_error(std::string(R"({"type":"ping","id":")") + std::string(65, 'x') + "\"}",
              protocol_errc::bad_field_value, "id");

  // A good id is echoed with every later error.
  check_error(R"({"id":7})", protocol_errc::missing_field, "type", 7);
  check_error(R"({"id":"q","type":"nope"})", protocol_errc::unknown_type, "type", "q");
  check_error(R"({"id":8,"type":"join","name":"A"})", protocol_errc::missing_field, "room", 8);
  check_error(R"({"type":"act","action":{"type":"play"},"id":9})", protocol_errc::missing_field,
              "action.card", 9);
}

TEST_CASE("malformed frames") {
  for (const char* text : {"", " ", "{", "}", "{\"type\":\"ping\"", "{\"type\":\"ping\",}",
                           "{'type':'ping'}", "{\"type\":\"ping\"} {}", "ping", "NaN",
                           "{\"type\":\"ping\",\"id\":NaN}", "{\"type\":\"ping\",\"id\":Infinity}",
                           "{\"type\":\"ping\",\"id\":-Infinity}", "{\"type\":\"ping\",\"id\":0x10}",
                           "{\"type\":\"ping\",\"id\":01}", "\xff\xfe{}", "{\"type\":\"p\xc3\"}"})
    check_error(text, protocol_errc::bad_json, "");
  check_error(std::string("{\"type\":\"ping\"}\0", 16), protocol_errc::bad_json, "");
  check_error(std::string("{\"type\":\"ping\"}\0{\"x\":[", 22), protocol_errc::bad_json, "");
  check_error(std::string("{\"type\":\"pi\0ng\"}", 16), protocol_errc::bad_json, "");
  // Not an object.
  for (const char* text : {"[]", "[{\"type\":\"ping\"}]", "null", "true", "1", "\"ping\"", "1e999"})
    check_error(text, protocol_errc::bad_json, "");
  check_error("{}", protocol_errc::missing_field, "type");
  check_error(R"({"type":null})", protocol_errc::bad_field_type, "type");
  check_error(R"({"type":1})", protocol_errc::bad_field_type, "type");
  check_error(R"({"type":["ping"]})", protocol_errc::bad_field_type, "type");
  check_error(R"({"type":""})", protocol_errc::unknown_type, "type");
  check_error(R"({"type":"PING"})", protocol_errc::unknown_type, "type");
  check_error(R"({"type":"welcome"})", protocol_errc::unknown_type, "type");
  // Duplicate keys: the last wins (nlohmann); still strict about its value.
  CHECK(parse(R"({"type":"hello","type":"ping"})").ok());
}

TEST_CASE("unknown fields") {
  check_error(R"({"type":"ping","x":1})", protocol_errc::unknown_field, "x");
  check_error(R"({"type":"list_rooms","seat":0})", protocol_errc::unknown_field, "seat");
  check_error(R"({"type":"leave","room":"r"})", protocol_errc::unknown_field, "room");
  check_error(R"({"type":"hello","version":1,"Version":1})", protocol_errc::unknown_field, "Version");
  check_error(R"({"type":"create_room","mode":"duel","format":"constructed","options":{"clock":1}})",
              protocol_errc::unknown_field, "options.clock");
  check_error(R"({"type":"create_room","mode":"duel","format":"constructed",
                  "options":{"turn_clock":{"bank_ms":1000,"inc":1}}})",
              protocol_errc::unknown_field, "options.turn_clock.inc");
  check_error(R"({"type":"join","room":"r","name":"A","deck":{"preconstructed":1,"x":0}})",
              protocol_errc::unknown_field, "deck.x");
  check_error(R"({"type":"act","action":{"type":"end_turn","seat":0}})", protocol_errc::unknown_field,
              "action.seat");
  check_error(R"({"type":"act","seat":0,"action":{"type":"end_turn"}})", protocol_errc::unknown_field,
              "seat");
  check_error(R"({"type":"spectate","room":"r","token":"x"})", protocol_errc::unknown_field, "token");
}

// Drafted formats (R14): a join without a deck parses (the room decides
// whether it needs one), and draft_pick's fields are checked one by one.
TEST_CASE("join without a deck; draft_pick") {
  auto j = proto::parse_client_message(R"({"type":"join","room":"r","name":"A"})");
  REQUIRE(j.ok());
  CHECK(std::get<proto::join_msg>(*j.message).no_deck);
  CHECK_FALSE(proto::client_message_to_json(*j.message).contains("deck"));
  auto with = proto::parse_client_message(R"({"type":"join","room":"r","name":"A","deck":{"preconstructed":1}})");
  REQUIRE(with.ok());
  CHECK_FALSE(std::get<proto::join_msg>(*with.message).no_deck);

  auto p = proto::parse_client_message(R"({"type":"draft_pick","id":3,"pick":"ban","cards":["brute","troll"]})");
  REQUIRE(p.ok());
  const auto& m = std::get<proto::draft_pick_msg>(*p.message);
  CHECK(m.pick == cod::draft_pick_type::ban);
  CHECK(m.cards == std::vector<std::string>{"brute", "troll"});
  CHECK(proto::parse_client_json(proto::client_message_to_json(*p.message)).message == p.message);
  auto d = proto::parse_client_message(R"({"type":"draft_pick","pick":"choose_deck","deck":4})");
  REQUIRE(d.ok());
  CHECK(std::get<proto::draft_pick_msg>(*d.message).deck == 4);

  struct bad {
    const char* text;
    protocol_errc code;
    const char* field;
  };
  const bad cases[] = {
      {R"({"type":"draft_pick"})", protocol_errc::missing_field, "pick"},
      {R"({"type":"draft_pick","pick":1,"cards":[]})", protocol_errc::bad_field_type, "pick"},
      {R"({"type":"draft_pick","pick":"keep","cards":[]})", protocol_errc::bad_field_value, "pick"},
      {R"({"type":"draft_pick","pick":"take"})", protocol_errc::missing_field, "cards"},
      {R"({"type":"draft_pick","pick":"take","cards":"brute"})", protocol_errc::bad_field_type, "cards"},
      {R"({"type":"draft_pick","pick":"take","cards":[7]})", protocol_errc::bad_field_type, "cards[0]"},
      {R"({"type":"draft_pick","pick":"take","cards":[""]})", protocol_errc::bad_field_value, "cards[0]"},
      {R"({"type":"draft_pick","pick":"take","cards":["a"],"deck":1})", protocol_errc::bad_field_value, "deck"},
      {R"({"type":"draft_pick","pick":"choose_deck"})", protocol_errc::missing_field, "deck"},
      {R"({"type":"draft_pick","pick":"choose_deck","deck":5})", protocol_errc::bad_field_value, "deck"},
      {R"({"type":"draft_pick","pick":"choose_deck","deck":1,"cards":[]})", protocol_errc::bad_field_value, "cards"},
      {R"({"type":"draft_pick","pick":"take","cards":[],"seat":0})", protocol_errc::unknown_field, "seat"},
      {R"({"type":"create_room","mode":"duel","format":"draft","options":{"packs":["a","a"]}})",
       protocol_errc::bad_field_value, "options.packs[1]"},
      {R"({"type":"create_room","mode":"duel","format":"constructed","options":{"packs":["a"]}})",
       protocol_errc::bad_field_value, "options.packs"},
      {R"({"type":"create_room","mode":"ffa","format":"instant_constructed"})", protocol_errc::bad_field_value,
       "format"},
      // R13.1: Champions in a draft, but not in solo quick play (RULING E67).
      {R"({"type":"create_room","mode":"solo","format":"draft","options":{"champions":true}})",
       protocol_errc::bad_field_value, "options.champions"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.text);
    const auto r = proto::parse_client_message(c.text);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error->code == c.code);
    CHECK(r.error->field == c.field);
  }
}

TEST_CASE("missing fields and wrong types, field by field") {
  using E = protocol_errc;
  struct bad {
    const char* text;
    E code;
    const char* field;
  };
  const bad cases[] = {
      {R"({"type":"history","from_seq":-1})", E::bad_field_value, "from_seq"},
      {R"({"type":"history","from_seq":9007199254740992})", E::bad_field_value, "from_seq"},
      {R"({"type":"history","from_seq":"2"})", E::bad_field_type, "from_seq"},
      {R"({"type":"history","from_seq":null})", E::bad_field_type, "from_seq"},
      {R"({"type":"add_bot","seat":4})", E::bad_field_value, "seat"},
      {R"({"type":"add_bot","seat":"1"})", E::bad_field_type, "seat"},
      {R"({"type":"add_bot","deck":1})", E::unknown_field, "deck"},
      {R"({"type":"emote"})", E::missing_field, "emote"},
      {R"({"type":"emote","emote":"hello"})", E::bad_field_value, "emote"},
      {R"({"type":"emote","emote":"Well played"})", E::bad_field_value, "emote"},
      {R"({"type":"emote","emote":3})", E::bad_field_type, "emote"},
      {R"({"type":"emote","emote":"oops","text":"hi"})", E::unknown_field, "text"},
      {R"({"type":"league_mutations"})", E::missing_field, "mutations"},
      {R"({"type":"league_mutations","mutations":{}})", E::bad_field_type, "mutations"},
      {R"({"type":"league_mutations","mutations":[],"seat":1})", E::unknown_field, "seat"},
      {R"({"type":"hello"})", E::missing_field, "version"},
      {R"({"type":"hello","version":"1"})", E::bad_field_type, "version"},
      {R"({"type":"hello","version":1.0})", E::bad_field_type, "version"},
      {R"({"type":"hello","version":null})", E::bad_field_type, "version"},
      {R"({"type":"hello","version":0})", E::bad_field_value, "version"},
      {R"({"type":"hello","version":-1})", E::bad_field_value, "version"},
      {R"({"type":"hello","version":4294967296})", E::bad_field_value, "version"},
      {R"({"type":"hello","version":18446744073709551615})", E::bad_field_value, "version"},
      {R"({"type":"hello","version":1,"client":null})", E::bad_field_type, "client"},
      {R"({"type":"create_room","format":"constructed"})", E::missing_field, "mode"},
      {R"({"type":"create_room","mode":"duel"})", E::missing_field, "format"},
      {R"({"type":"create_room","mode":1,"format":"constructed"})", E::bad_field_type, "mode"},
      {R"({"type":"create_room","mode":"Duel","format":"constructed"})", E::bad_field_value, "mode"},
      {R"({"type":"create_room","mode":"duel","format":false})", E::bad_field_type, "format"},
      {R"({"type":"create_room","mode":"duel","format":"sealed"})", E::bad_field_value, "format"},
      {R"({"type":"create_room","mode":"duel","format":"constructed","options":null})", E::bad_field_type, "options"},
      {R"({"type":"create_room","mode":"duel","format":"constructed","options":{"exhaustion":"yes"}})", E::bad_field_type, "options.exhaustion"},
      {R"({"type":"create_room","mode":"duel","format":"constructed","options":{"seats":3}})", E::bad_field_value, "options.seats"},
      {R"({"type":"create_room","mode":"duel","format":"constructed","options":{"stall_exhaustion_turn":"40"}})", E::bad_field_type, "options.stall_exhaustion_turn"},
      {R"({"type":"create_room","mode":"duel","format":"constructed","options":{"stall_exhaustion_turn":40.5}})", E::bad_field_type, "options.stall_exhaustion_turn"},
      {R"({"type":"create_room","mode":"duel","format":"constructed","options":{"stall_exhaustion_turn":null}})", E::bad_field_type, "options.stall_exhaustion_turn"},
      {R"({"type":"create_room","mode":"duel","format":"constructed","options":{"stall_exhaustion_turn":-1}})", E::bad_field_value, "options.stall_exhaustion_turn"},
      {R"({"type":"create_room","mode":"duel","format":"constructed","options":{"stall_exhaustion_turn":1}})", E::bad_field_value, "options.stall_exhaustion_turn"},
      {R"({"type":"create_room","mode":"duel","format":"constructed","options":{"stall_exhaustion_turn":7}})", E::bad_field_value, "options.stall_exhaustion_turn"},
      {R"({"type":"create_room","mode":"duel","format":"constructed","options":{"stall_exhaustion_turn":1001}})", E::bad_field_value, "options.stall_exhaustion_turn"},
      {R"({"type":"create_room","mode":"duel","format":"constructed","options":{"stall_exhaustion_turn":18446744073709551615}})", E::bad_field_value, "options.stall_exhaustion_turn"},
      {R"({"type":"create_room","mode":"duel","format":"constructed","options":{"seats":"2"}})", E::bad_field_type, "options.seats"},
      {R"({"type":"create_room","mode":"duel","format":"constructed","options":{"turn_clock":5}})", E::bad_field_type, "options.turn_clock"},
      {R"({"type":"create_room","mode":"duel","format":"constructed","options":{"turn_clock":{}}})", E::missing_field, "options.turn_clock.bank_ms"},
      {R"({"type":"create_room","mode":"duel","format":"constructed","options":{"turn_clock":{"bank_ms":999}}})", E::bad_field_value, "options.turn_clock.bank_ms"},
      {R"({"type":"create_room","mode":"duel","format":"constructed","options":{"turn_clock":{"bank_ms":86400001}}})", E::bad_field_value, "options.turn_clock.bank_ms"},
      {R"({"type":"create_room","mode":"duel","format":"constructed","options":{"turn_clock":{"bank_ms":5000,"increment_ms":-1}}})", E::bad_field_value, "options.turn_clock.increment_ms"},
      {R"({"type":"create_room","mode":"duel","format":"constructed","options":{"turn_clock":{"bank_ms":5e3}}})", E::bad_field_type, "options.turn_clock.bank_ms"},
      {R"({"type":"join","name":"A","deck":{"preconstructed":1}})", E::missing_field, "room"},
      {R"({"type":"join","room":7,"name":"A","deck":{"preconstructed":1}})", E::bad_field_type, "room"},
      {R"({"type":"join","room":"","name":"A","deck":{"preconstructed":1}})", E::bad_field_value, "room"},
      {R"({"type":"join","room":"a/b","name":"A","deck":{"preconstructed":1}})", E::bad_field_value, "room"},
      {R"({"type":"join","room":"123456789012345678901234567890123","name":"A","deck":{"preconstructed":1}})", E::bad_field_value, "room"},
      {R"({"type":"hello","version":1,"account_token":"0123456789ABCDEF0123456789ABCDEF"})", E::bad_field_value,
       "account_token"},
      {R"({"type":"join","room":"r","name":["A"],"deck":{"preconstructed":1}})", E::bad_field_type, "name"},
      {R"({"type":"join","room":"r","name":"","deck":{"preconstructed":1}})", E::bad_field_value, "name"},
      {R"({"type":"join","room":"r","name":"   ","deck":{"preconstructed":1}})", E::bad_field_value, "name"},
      {R"({"type":"join","room":"r","name":"a\nb","deck":{"preconstructed":1}})", E::bad_field_value, "name"},
      {R"({"type":"join","room":"r","name":"a\u007fb","deck":{"preconstructed":1}})", E::bad_field_value, "name"},
      {R"({"type":"join","room":"r","name":"123456789012345678901234567890123","deck":{"preconstructed":1}})", E::bad_field_value, "name"},
      {R"({"type":"join","room":"r","name":"A","seat":"0","deck":{"preconstructed":1}})", E::bad_field_type, "seat"},
      {R"({"type":"join","room":"r","name":"A","seat":null,"deck":{"preconstructed":1}})", E::bad_field_type, "seat"},
      {R"({"type":"join","room":"r","name":"A","seat":-1,"deck":{"preconstructed":1}})", E::bad_field_value, "seat"},
      {R"({"type":"join","room":"r","name":"A","seat":4,"deck":{"preconstructed":1}})", E::bad_field_value, "seat"},
      {R"({"type":"join","room":"r","name":"A","seat":0.5,"deck":{"preconstructed":1}})", E::bad_field_type, "seat"},
      {R"({"type":"join","room":"r","name":"A","deck":1})", E::bad_field_type, "deck"},
      {R"({"type":"join","room":"r","name":"A","deck":[1]})", E::bad_field_type, "deck"},
      {R"({"type":"join","room":"r","name":"A","deck":{}})", E::missing_field, "deck.preconstructed"},
      {R"({"type":"join","room":"r","name":"A","deck":{"preconstructed":1,"cards":[]}})", E::bad_field_value, "deck"},
      {R"({"type":"join","room":"r","name":"A","deck":{"preconstructed":"1"}})", E::bad_field_type, "deck.preconstructed"},
      {R"({"type":"join","room":"r","name":"A","deck":{"preconstructed":0}})", E::bad_field_value, "deck.preconstructed"},
      {R"({"type":"join","room":"r","name":"A","deck":{"preconstructed":5}})", E::bad_field_value, "deck.preconstructed"},
      {R"({"type":"join","room":"r","name":"A","deck":{"cards":"brute"}})", E::bad_field_type, "deck.cards"},
      {R"({"type":"join","room":"r","name":"A","deck":{"cards":{"0":"brute"}}})", E::bad_field_type, "deck.cards"},
      {R"({"type":"join","room":"r","name":"A","deck":{"cards":["brute",1]}})", E::bad_field_type, "deck.cards[1]"},
      {R"({"type":"join","room":"r","name":"A","deck":{"cards":["brute",null]}})", E::bad_field_type, "deck.cards[1]"},
      {R"({"type":"join","room":"r","name":"A","deck":{"cards":["brute",["troll"]]}})", E::bad_field_type, "deck.cards[1]"},
      {R"({"type":"join","room":"r","name":"A","deck":{"cards":[""]}})", E::bad_field_value, "deck.cards[0]"},
      {R"({"type":"resume","room":"r","token":5})", E::bad_field_type, "token"},
      {R"({"type":"tournament_join","deck":{"preconstructed":1}})", E::missing_field, "token"},
      {R"({"type":"tournament_join","token":"00112233445566778899aabbccddeeff"})", E::missing_field, "deck"},
      {R"({"type":"tournament_join","token":"00112233445566778899AABBCCDDEEFF","deck":{"preconstructed":1}})",
       E::bad_field_value, "token"},
      {R"({"type":"tournament_join","token":"00112233445566778899aabbccddeeff","deck":{"preconstructed":1},"room":"r"})",
       E::unknown_field, "room"},
      {R"({"type":"resume","token":"00112233445566778899aabbccddeeff"})", E::missing_field, "room"},
      {R"({"type":"resume","room":"r","token":1})", E::bad_field_type, "token"},
      {R"({"type":"resume","room":"r","token":"00112233445566778899AABBCCDDEEFF"})", E::bad_field_value, "token"},
      {R"({"type":"resume","room":"r","token":"00112233445566778899aabbccddeef"})", E::bad_field_value, "token"},
      {R"({"type":"resume","room":"r","token":"00112233445566778899aabbccddeeff0"})", E::bad_field_value, "token"},
      {R"({"type":"resume","room":"r","token":"00112233445566778899aabbccddeefg"})", E::bad_field_value, "token"},
      // A token that names its tournament or league: "ID." with ID a room id, then the 32 hex digits.
      {R"({"type":"resume","room":"r","token":"n1-t01.00112233445566778899AABBCCDDEEFF"})", E::bad_field_value, "token"},
      {R"({"type":"resume","room":"r","token":"n1 t01.00112233445566778899aabbccddeeff"})", E::bad_field_value, "token"},
      {R"({"type":"resume","room":"r","token":".00112233445566778899aabbccddeeff"})", E::bad_field_value, "token"},
      {R"({"type":"league_join","token":"l0123456789.00112233445566778899aabbccddeef"})", E::bad_field_value, "token"},
      {R"({"type":"tournament_join","token":"123456789012345678901234567890123.00112233445566778899aabbccddeeff","deck":{"preconstructed":1}})",
       E::bad_field_value, "token"},
      {R"({"type":"hello","version":1,"account_token":"n1.00112233445566778899aabbccddeeff"})", E::bad_field_value, "account_token"},
      {R"({"type":"spectate"})", E::missing_field, "room"},
      {R"({"type":"spectate","room":null})", E::bad_field_type, "room"},
      {R"({"type":"act"})", E::missing_field, "action"},
      {R"({"type":"act","action":null})", E::bad_field_type, "action"},
      {R"({"type":"act","action":"end_turn"})", E::bad_field_type, "action"},
      {R"({"type":"act","action":[{"type":"end_turn"}]})", E::bad_field_type, "action"},
      {R"({"type":"act","action":{}})", E::missing_field, "action.type"},
      {R"({"type":"act","action":{"type":7}})", E::bad_field_type, "action.type"},
      {R"({"type":"act","action":{"type":"attack"}})", E::unknown_type, "action.type"},
      {R"({"type":"act","action":{"type":"play","line":"upper"}})", E::missing_field, "action.card"},
      {R"({"type":"act","action":{"type":"play","card":"5","line":"upper"}})", E::bad_field_type, "action.card"},
      {R"({"type":"act","action":{"type":"play","card":5.5,"line":"upper"}})", E::bad_field_type, "action.card"},
      {R"({"type":"act","action":{"type":"play","card":128,"line":"upper"}})", E::bad_field_value, "action.card"},
      {R"({"type":"act","action":{"type":"play","card":-1,"line":"upper"}})", E::bad_field_value, "action.card"},
      {R"({"type":"act","action":{"type":"play","card":5}})", E::missing_field, "action.line"},
      {R"({"type":"act","action":{"type":"play","card":5,"line":0}})", E::bad_field_type, "action.line"},
      {R"({"type":"act","action":{"type":"play","card":5,"line":"left"}})", E::bad_field_value, "action.line"},
      {R"({"type":"act","action":{"type":"play","card":5,"line":"upper","target":3}})", E::bad_field_value, "action"},
      {R"({"type":"act","action":{"type":"play","card":5,"target":300}})", E::bad_field_value, "action.target"},
  };
  for (const bad& b : cases) check_error(b.text, b.code, b.field);
}

TEST_CASE("hostile input is bounded") {
  SUBCASE("over the size limit") {
    const std::string big = std::string(R"({"type":"ping","id":")") + std::string(70000, 'x') + "\"}";
    const auto r = proto::parse_client_message(big);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error->code == protocol_errc::bad_json);
    CHECK(r.oversized);
    CHECK(r.id.is_null());
    // A caller's smaller limit.
    const auto s = proto::parse_client_message(R"({"type":"ping"})", 10);
    CHECK(s.oversized);
    CHECK(proto::parse_client_message(R"({"type":"ping"})", 15).ok());
  }
  SUBCASE("deep nesting is refused before parsing") {
    const std::string deep = std::string(30000, '[') + std::string(30000, ']');
    check_error(deep, protocol_errc::bad_json, "");
    const std::string deeper = std::string(1'000'000, '{');
    const auto r = proto::parse_client_message(deeper, 2'000'000);
    CHECK(r.error->message.find("deeper") != std::string::npos);
    const std::string deep_obj = [] {
      std::string s = R"({"type":"ping","x":)";
      for (int i = 0; i < 50; ++i) s += R"({"a":)";
      s += "1";
      for (int i = 0; i < 50; ++i) s += "}";
      return s + "}";
    }();
    check_error(deep_obj, protocol_errc::bad_json, "");
    // Brackets inside strings do not count; the depth limit allows every real message.
    CHECK(parse(R"({"type":"join","room":"r","name":"[[[[[[[[[[{{{{{{","deck":{"cards":["x"]}})").ok());
    std::string at_limit = R"({"type":"ping","x":)";
    for (int i = 1; i < proto::max_message_depth; ++i) at_limit += "[";
    for (int i = 1; i < proto::max_message_depth; ++i) at_limit += "]";
    check_error(at_limit + "}", protocol_errc::unknown_field, "x");
    check_error(R"({"type":"ping","x":[)" + at_limit + "]}", protocol_errc::bad_json, "");
  }
  SUBCASE("huge values") {
    check_error(std::string(R"({"type":"join","room":"r","name":")") + std::string(60000, 'n') +
                    R"(","deck":{"preconstructed":1}})",
                protocol_errc::bad_field_value, "name");
    check_error(std::string(R"({"type":"spectate","room":")") + std::string(60000, 'r') + "\"}",
                protocol_errc::bad_field_value, "room");
    check_error(std::string(R"({"type":"hello","version":1,"client":")") + std::string(65, 'c') + "\"}",
                protocol_errc::bad_field_value, "client");
    std::string many = R"({"type":"join","room":"r","name":"A","deck":{"cards":[)";
    for (int i = 0; i < 65; ++i) many += i ? ",\"c\"" : "\"c\"";
    check_error(many + "]}}", protocol_errc::bad_field_value, "deck.cards");
    check_error(R"({"type":"hello","version":1e308})", protocol_errc::bad_field_type, "version");
    check_error(R"({"type":"hello","version":-0.0})", protocol_errc::bad_field_type, "version");
    check_error(R"({"type":"hello","version":123456789012345678901234567890})",
                protocol_errc::bad_field_type, "version");
    check_error(R"({"type":"act","action":{"type":"play","card":1e2,"line":"upper"}})",
                protocol_errc::bad_field_type, "action.card");
    // Many unknown keys: the first (in key order) is named.
    std::string keys = R"({"type":"ping")";
    for (int i = 0; i < 2000; ++i) keys += ",\"k" + std::to_string(i) + "\":0";
    check_error(keys + "}", protocol_errc::unknown_field, "k0");
  }
  SUBCASE("random mutations never throw and always explain") {
    std::vector<std::string> seeds;
    for (const auto& m : every_message()) seeds.push_back(proto::client_message_to_json(m).dump());
    cod::rng r(42);
    int accepted = 0;
    for (int i = 0; i < 20000; ++i) {
      std::string s = seeds[r.below(seeds.size())];
      const int edits = 1 + static_cast<int>(r.below(4));
      for (int e = 0; e < edits && !s.empty(); ++e) {
        const auto pos = r.below(s.size());
        switch (r.below(4)) {
          case 0: s[pos] = static_cast<char>(r.below(256)); break;
          case 1: s.erase(pos, 1 + r.below(5)); break;
          case 2: s.insert(pos, 1, "{}[]\",:0a-e\\"[r.below(13)]); break;
          default: s.resize(pos); break;
        }
      }
      const auto res = parse(s);
      if (res.ok()) {
        ++accepted;
        // Whatever parses, round trips.
        const auto again = proto::parse_client_json(proto::client_message_to_json(*res.message));
        REQUIRE(again.ok());
        CHECK(*again.message == *res.message);
      } else {
        REQUIRE(res.error.has_value());
        CHECK_FALSE(res.error->message.empty());
      }
    }
    CHECK(accepted < 20000);
  }
}

TEST_CASE("options and decks as persistence stores them") {
  const proto::room_options opts{true, proto::turn_clock{90000, 1000}, 2};
  proto::room_options back;
  CHECK_FALSE(proto::room_options_from_json(proto::room_options_to_json(opts, cod::game_mode::duel), back));
  CHECK(back == opts);
  CHECK(proto::room_options_to_json({}, cod::game_mode::duel) == json{{"exhaustion", false},
                                                {"stall_exhaustion_turn", 40},
                                                {"seats", 2},
                                                {"turn_clock", nullptr},
                                                {"champions", false},
                                                {"share_team_hands", false}});
  const proto::room_options four{false, std::nullopt, 4, true, true};
  CHECK_FALSE(proto::room_options_from_json(proto::room_options_to_json(four, cod::game_mode::ffa), back));
  CHECK(back == four);
  // Solo and co-op (R12.8): the difficulty and AI settings are written for
  // those modes only, and read back.
  proto::room_options solo;
  solo.difficulty = 4;
  solo.ai.fixed_mana = 8;
  solo.ai.ai_first = true;
  solo.ai.granted = cod::bit(cod::ability::splash);
  const json sj = proto::room_options_to_json(solo, cod::game_mode::solo);
  CHECK(sj.at("difficulty") == 4);
  CHECK(sj.at("ai") == json{{"fixed_mana", 8}, {"double_variable", false}, {"ai_first", true},
                            {"resistance", false}, {"abilities", {"splash"}}});
  CHECK_FALSE(proto::room_options_from_json(sj, back));
  CHECK(back == solo);
  CHECK_FALSE(proto::room_options_to_json(solo, cod::game_mode::duel).contains("ai"));
  CHECK(proto::room_options_to_json({}, cod::game_mode::coop).at("ai").at("abilities") == json::array());
  // A record written before the four-player modes: the new options' defaults.
  CHECK_FALSE(proto::room_options_from_json(json{{"exhaustion", true}, {"seats", 2}, {"turn_clock", nullptr}}, back));
  CHECK(back == proto::room_options{true, std::nullopt, 2, false, false});

  // R17.25: the stall turn round-trips (0 = never, 8..1000); absent from
  // create_room it is 40, absent from a stored record (written before the
  // rule, played without it) 0, so the record replays as it was played.
  for (const int stall : {0, 8, 40, 1000}) {
    proto::room_options o;
    o.stall_exhaustion_turn = stall;
    const json oj = proto::room_options_to_json(o, cod::game_mode::duel);
    CHECK(oj.at("stall_exhaustion_turn") == stall);
    CHECK_FALSE(proto::room_options_from_json(oj, back));
    CHECK(back == o);
    CHECK_FALSE(proto::stored_room_options_from_json(oj, back));
    CHECK(back == o);
  }
  const json before = json{{"exhaustion", false}, {"seats", 2}, {"turn_clock", nullptr}};
  CHECK_FALSE(proto::room_options_from_json(before, back));
  CHECK(back.stall_exhaustion_turn == 40);
  CHECK_FALSE(proto::stored_room_options_from_json(before, back));
  CHECK(back.stall_exhaustion_turn == 0);
  CHECK(proto::stored_room_options_from_json(json{{"stall_exhaustion_turn", 5}}, back));

  const proto::deck_choice pre{2, {}};
  const proto::deck_choice cards{0, {"a", "b"}};
  CHECK(proto::deck_to_json(pre) == json{{"preconstructed", 2}});
  CHECK(proto::deck_to_json(cards) == json{{"cards", {"a", "b"}}});
  for (const auto& d : {pre, cards}) {
    proto::deck_choice out;
    CHECK_FALSE(proto::deck_from_json(proto::deck_to_json(d), out));
    CHECK(out == d);
  }
  proto::deck_choice out;
  const auto e = proto::deck_from_json(json{{"preconstructed", 9}}, out);
  REQUIRE(e);
  CHECK(e->field == "deck.preconstructed");
}

// Display names (cod/protocol/names.hpp): bidirectional controls,
// C1 controls and names with nothing visible are refused on the name field,
// and the message says which character class and which character.
TEST_CASE("join names: bidi and C1 controls and invisible-only names are refused, saying why") {
  const auto refused = [](const std::string& name_json, const std::string& says) {
    const std::string text = R"({"id":3,"type":"join","room":"r","name":")" + name_json +
                             R"(","deck":{"preconstructed":1}})";
    check_error(text, protocol_errc::bad_field_value, "name", 3);
    const auto r = parse(text);
    REQUIRE(r.error);
    CAPTURE(r.error->message);
    CHECK(r.error->message.find(says) != std::string::npos);
  };
  // Bidirectional controls: overrides, embeddings, isolates, marks.
  refused(R"(Ann\u202Egnp.exe)", "\"name\" contains a bidirectional control character (U+202E)");
  refused(R"(\u202Aa)", "bidirectional control character (U+202A)");
  refused(R"(a\u2066b\u2069)", "bidirectional control character (U+2066)");
  refused(R"(a\u2069)", "bidirectional control character (U+2069)");
  refused(R"(a\u200E)", "bidirectional control character (U+200E)");
  refused(R"(\u200Fa)", "bidirectional control character (U+200F)");
  refused(R"(a\u061C)", "bidirectional control character (U+061C)");
  // C1 controls (U+0080..U+009F); C0 and DEL as before.
  refused(R"(a\u0085b)", "contains a C1 control character (U+0085)");
  refused(R"(\u0080)", "C1 control character (U+0080)");
  refused(R"(a\u009Fb)", "C1 control character (U+009F)");
  refused(R"(a\u0007b)", "contains a control character (U+0007)");
  refused(R"(a\u007Fb)", "contains a control character (U+007F)");
  // Nothing visible: zero-width characters, spaces of any kind, combining marks.
  for (const std::string invisible : {R"(\u200B)", R"(\u200B\u200C\u200D)", R"(\u2060)", R"(\uFEFF)",
                                      R"( \u00A0\u3000)", R"(\u0301\u0301)", R"(\u200D\uFE0F)", R"(\u3164)"}) {
    INFO(invisible);
    refused(invisible, "has no visible character");
  }
  refused("", "is empty");
  refused("123456789012345678901234567890123", "is longer than 32 characters");
  // Still accepted: zero-width joiners and combining marks inside a visible
  // name (emoji sequences, scripts that need them), non-Latin letters.
  for (const std::string ok : {R"(e\u0301)", R"(\uD83D\uDC68\u200D\uD83D\uDC69)", R"(\u0645\u200C\u06CC)",
                               R"(Zo\u00EB)", R"(\u4E2D\u6587)", R"(a b)"}) {
    INFO(ok);
    const auto r = parse(R"({"type":"join","room":"r","name":")" + ok + R"(","deck":{"preconstructed":1}})");
    CHECK(r.ok());
  }
}

TEST_CASE("name_problem: ill-formed UTF-8 is refused (for callers whose text no JSON parser checked)") {
  CHECK(proto::name_problem("Ann", 32) == std::nullopt);
  CHECK(proto::name_problem("\xC3", 32) == std::optional<std::string>("is not valid UTF-8"));          // truncated
  CHECK(proto::name_problem("\xC0\xAF", 32) == std::optional<std::string>("is not valid UTF-8"));      // overlong
  CHECK(proto::name_problem("\xED\xA0\x80", 32) == std::optional<std::string>("is not valid UTF-8"));  // surrogate
  CHECK(proto::name_problem("\xF4\x90\x80\x80", 32) == std::optional<std::string>("is not valid UTF-8"));
  CHECK(proto::name_problem("\xFF", 32) == std::optional<std::string>("is not valid UTF-8"));
  // Tags and variation selectors outside the BMP draw nothing either.
  CHECK(proto::name_problem("\xF3\xA0\x80\x81\xF3\xA0\x84\x80", 32) ==
        std::optional<std::string>("has no visible character (only spaces, zero-width or combining characters)"));
  CHECK(proto::name_problem("\xC3\xA9\xC3\xA9", 2) == std::nullopt);  // code points, not bytes
  CHECK(proto::name_problem("\xC3\xA9\xC3\xA9\xC3\xA9", 2) == std::optional<std::string>("is longer than 2 characters"));
}
