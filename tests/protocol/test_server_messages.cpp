// Server messages (server_messages.hpp): the builders' exact shapes, id echo
// rules, errors of every kind, decks resolved against the shipped catalogue,
// and the client examples of docs/protocol.md and its transcript read by the
// real parser. (The schemas check the same outputs in protocol_doc_examples.)
#include <doctest/doctest.h>

#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <variant>
#include <vector>

#include "../shared/catalogue.hpp"
#include "cod/engine/match.hpp"
#include "cod/protocol/client_messages.hpp"
#include "cod/protocol/room_config.hpp"
#include "cod/protocol/server_messages.hpp"

using nlohmann::json;
namespace proto = cod::protocol;
using cod::test::shipped;

namespace {

const std::string token = "00112233445566778899aabbccddeeff";

}  // namespace

TEST_CASE("replies echo the request id, pushed messages have none") {
  CHECK(proto::make_pong(nullptr) == json{{"type", "pong"}});
  CHECK(proto::make_pong(3) == json{{"type", "pong"}, {"id", 3}});
  CHECK(proto::make_pong("a") == json{{"type", "pong"}, {"id", "a"}});
  CHECK(proto::make_accepted(4, 12) == json{{"type", "accepted"}, {"id", 4}, {"seq", 12}});
  CHECK(proto::make_left(nullptr, "r1") == json{{"type", "left"}, {"room", "r1"}});
  CHECK(proto::make_spectating(5, "r1") == json{{"type", "spectating"}, {"id", 5}, {"room", "r1"}});
  CHECK(proto::make_joined(6, "r1", 1, token) ==
        json{{"type", "joined"}, {"id", 6}, {"room", "r1"}, {"seat", 1}, {"token", token}});
  CHECK(proto::make_room_created(7, "r1", std::string(64, '0')) ==
        json{{"type", "room_created"}, {"id", 7}, {"room", "r1"}, {"seed_hash", std::string(64, '0')}});
  CHECK(proto::make_welcome(1, "s1", 65536, 20) == json{{"type", "welcome"},
                                                        {"id", 1},
                                                        {"version", 1},
                                                        {"server", "cod-server/0.1"},
                                                        {"session", "s1"},
                                                        {"max_frame_bytes", 65536},
                                                        {"rate_limit_per_sec", 20}});
  CHECK(proto::make_seat_status("r1", 0, true) ==
        json{{"type", "seat_status"}, {"room", "r1"}, {"seat", 0}, {"connected", true}});
  CHECK(proto::make_clock("r1", 1, 1500) ==
        json{{"type", "clock"}, {"room", "r1"}, {"seat", 1}, {"remaining_ms", 1500}});
  CHECK(proto::make_notice("r1", "store_waiting", "wait") ==
        json{{"type", "notice"}, {"room", "r1"}, {"code", "store_waiting"}, {"message", "wait"}});
}

TEST_CASE("match_over reveals the seed as decimal text") {
  const json j = proto::make_match_over("r1", 0b01, cod::end_reason::concession, 18446744073709551615ULL);
  CHECK(j == json{{"type", "match_over"},
                  {"room", "r1"},
                  {"winners", {0}},
                  {"reason", "concession"},
                  {"seed", "18446744073709551615"}});
}

TEST_CASE("rooms") {
  proto::room_summary r{"r1", cod::game_mode::duel, proto::deck_format::constructed,
                        proto::room_options{false, proto::turn_clock{60000, 500}, 2},
                        proto::room_status::playing,
                        {{0, true, true, "Ada", ""}, {1, false, false, "", ""}}, 2};
  r.options.stall_exhaustion_turn = 60;  // R17.25: the room's own stall turn
  const std::vector<proto::room_summary> rooms = {r};
  const json j = proto::make_rooms(9, rooms, 7, "r1");
  CHECK(j.at("id") == 9);
  CHECK(j.at("total") == 7);
  CHECK(j.at("next") == "r1");
  CHECK(j.at("rooms").size() == 1);
  CHECK(j.at("rooms")[0] ==
        json{{"room", "r1"},
             {"mode", "duel"},
             {"format", "constructed"},
             {"options",
              {{"exhaustion", false},
               {"stall_exhaustion_turn", 60},
               {"seats", 2},
               {"turn_clock", {{"bank_ms", 60000}, {"increment_ms", 500}}},
               {"champions", false},
               {"share_team_hands", false}}},
             {"status", "playing"},
             {"seats",
              {{{"seat", 0}, {"taken", true}, {"connected", true}, {"name", "Ada"}, {"champion", nullptr}},
               {{"seat", 1}, {"taken", false}, {"connected", false}, {"name", nullptr}, {"champion", nullptr}}}},
             {"spectators", 2}});
  CHECK(proto::make_rooms(nullptr, {}, 0, std::nullopt) ==
        json{{"type", "rooms"}, {"rooms", json::array()}, {"total", 0}, {"next", nullptr}});
}

TEST_CASE("errors of every kind") {
  const proto::protocol_error pe{proto::protocol_errc::bad_field_type, "deck.cards[1]", "m"};
  CHECK(proto::make_error(2, pe) == json{{"type", "error"},
                                         {"id", 2},
                                         {"code", "bad_field_type"},
                                         {"field", "deck.cards[1]"},
                                         {"message", "m"}});
  CHECK(proto::make_error(nullptr, proto::protocol_error{proto::protocol_errc::bad_json, "", "x"}) ==
        json{{"type", "error"}, {"code", "bad_json"}, {"message", "x"}});
  CHECK(proto::make_error(3, proto::session_errc::room_full) ==
        json{{"type", "error"}, {"id", 3}, {"code", "room_full"}, {"message", "every seat of that room is taken"}});
  CHECK(proto::make_error(3, proto::session_errc::rate_limited, "slow down").at("message") == "slow down");
  CHECK(proto::make_error(4, cod::rule_error::not_your_turn) ==
        json{{"type", "error"}, {"id", 4}, {"code", "not_your_turn"},
             {"message", std::string(cod::error_message(cod::rule_error::not_your_turn))}});
}

TEST_CASE("session error names are stable, distinct and disjoint from the other codes") {
  std::set<std::string> names;
  for (int c = 0; c < proto::session_errc_count; ++c) {
    const auto code = static_cast<proto::session_errc>(c);
    const std::string name(proto::session_errc_name(code));
    CHECK(name != "?");
    CHECK_FALSE(proto::session_errc_message(code).empty());
    CHECK(proto::session_errc_from_name(name) == code);
    CHECK(names.insert(name).second);
  }
  for (int c = 0; c <= static_cast<int>(proto::protocol_errc::bad_field_value); ++c)
    CHECK(names.insert(std::string(proto::protocol_errc_name(static_cast<proto::protocol_errc>(c)))).second);
  for (int e = 1; e <= static_cast<int>(cod::rule_error::champion_not_allowed); ++e)
    CHECK(names.insert(std::string(cod::error_name(static_cast<cod::rule_error>(e)))).second);
  // The design's list (docs/protocol-design.md), in wire order.
  const char* design[] = {"hello_required", "unsupported_version", "frame_too_large", "rate_limited",
                          "room_not_found", "room_full", "seat_taken", "bad_token", "not_seated",
                          "spectator_cannot_act", "match_not_started", "bad_deck", "server_busy",
                          "shutting_down", "internal_error"};
  for (int i = 0; i < 15; ++i)
    CHECK(proto::session_errc_name(static_cast<proto::session_errc>(i)) == design[i]);
  CHECK_FALSE(proto::session_errc_from_name("nope"));
}

TEST_CASE("decks resolved for a room") {
  const auto& cat = shipped();
  using F = proto::deck_format;
  SUBCASE("preconstructed decks, in either format") {
    for (int n = 1; n <= 4; ++n)
      for (F f : {F::preconstructed, F::constructed}) {
        const auto r = proto::resolve_deck(proto::deck_choice{n, {}}, f, cat);
        CHECK(r.ok());
        CHECK(r.cards == cat.preconstructed_deck(n));
      }
  }
  const std::vector<std::string> deck1 = {"baron", "brute", "carapace", "troll",
                                          "revenant", "partisan", "annihilation", "boom"};
  SUBCASE("a card list") {
    const auto r = proto::resolve_deck(proto::deck_choice{0, deck1}, F::constructed, cat);
    REQUIRE(r.ok());
    CHECK(r.cards.size() == 8);
    CHECK(cat.def(r.cards[1]).id == "brute");
  }
  SUBCASE("refusals name the engine's reason") {
    auto refused = [&](std::vector<std::string> cards, F f, const char* reason) {
      CAPTURE(reason);
      const auto r = proto::resolve_deck(proto::deck_choice{0, std::move(cards)}, f, cat);
      REQUIRE_FALSE(r.ok());
      CHECK(r.reason == reason);
      CHECK(r.cards.empty());
      const json e = proto::make_deck_error(1, r);
      CHECK(e.at("code") == "bad_deck");
      CHECK(e.at("reason") == reason);
      CHECK(e.at("message") == r.message);
    };
    refused(deck1, F::preconstructed, "wrong_format");
    refused({"brute"}, F::constructed, "bad_deck_size");
    refused({}, F::constructed, "bad_deck_size");
    auto dup = deck1;
    dup[1] = "baron";
    refused(dup, F::constructed, "duplicate_card");
    auto unknown = deck1;
    unknown[7] = "no_such_card";
    refused(unknown, F::constructed, "unknown_card");
  }
}

TEST_CASE("a match's state and updates through the builders") {
  const auto& cat = shipped();
  cod::match_config cfg;
  cfg.seed = 7;
  cfg.decks[0] = cat.preconstructed_deck(1);
  cfg.decks[1] = cat.preconstructed_deck(2);
  cod::match m;
  std::vector<cod::event> events;
  REQUIRE(cod::match::create(cat, cfg, m, events) == cod::rule_error::ok);
  const auto uids = proto::uid_cards_from_view(m.view(cod::referee));

  const json s = proto::make_state("r1", 0, std::string(64, 'a'), proto::view_to_json(m.view(0), cat));
  CHECK(s.at("type") == "state");
  CHECK(s.at("seq") == 0);
  CHECK_FALSE(s.contains("clock"));
  CHECK(s.at("view").at("role") == "player");
  CHECK(s.at("view").at("hand").size() == 8);

  const cod::seat_t active = m.active_seat();
  std::vector<cod::action> legal;
  m.legal_actions(legal);
  cod::action play;
  for (const auto& a : legal)
    if (a.type == cod::action_type::play) play = a;
  REQUIRE(play.type == cod::action_type::play);
  events.clear();
  REQUIRE(m.apply(play, events) == cod::rule_error::ok);

  const proto::clock_snapshot clock{{120000, 118000}, active};
  const json mine = proto::make_update("r1", 1, proto::events_to_json(events, active, cat, uids),
                                       proto::view_to_json(m.view(active), cat), clock);
  const json theirs = proto::make_update("r1", 1, proto::events_to_json(events, 1 - active, cat, uids),
                                         proto::view_to_json(m.view(1 - active), cat));
  CHECK(mine.at("seq") == 1);
  CHECK(mine.at("clock") == json{{"remaining_ms", {120000, 118000}}, {"running_seat", active}});
  REQUIRE(mine.at("events").size() == theirs.at("events").size());
  REQUIRE_FALSE(mine.at("events").empty());
  // The hand index of a played card is the player's alone (R16.2).
  CHECK(mine.at("events")[0].at("type") == "card_played");
  CHECK(mine.at("events")[0].contains("hand_index"));
  CHECK_FALSE(theirs.at("events")[0].contains("hand_index"));
  CHECK(theirs.at("view").at("hand").size() == 8);
}

// docs/protocol.md and its transcript: every client example is a message the
// parser accepts (the python test checks every example against its schema).
TEST_CASE("docs/protocol.md client examples parse") {
  std::vector<std::string> lines;
  for (const char* path : {COD_PROTOCOL_DOC, COD_PROTOCOL_TRANSCRIPT}) {
    std::ifstream in(path);
    REQUIRE(in.good());
    for (std::string line; std::getline(in, line);) lines.push_back(line);
  }
  int client_examples = 0;
  std::set<std::string> types;
  for (std::size_t i = 0; i + 1 < lines.size(); ++i) {
    if (lines[i].rfind("<!-- schema: client/", 0) != 0) continue;
    REQUIRE(lines[i + 1] == "```json");
    std::string text;
    std::size_t j = i + 2;
    for (; j < lines.size() && lines[j] != "```"; ++j) text += lines[j] + "\n";
    CAPTURE(text);
    const auto r = proto::parse_client_message(text);
    if (!r.ok()) FAIL(r.error->message);
    const std::string schema = lines[i].substr(20, lines[i].find(' ', 20) - 20);
    CHECK(schema == proto::message_type(*r.message));
    types.insert(schema);
    ++client_examples;
    i = j;
  }
  CHECK(types.size() == std::variant_size_v<proto::client_message>);  // every client message has an example
  CHECK(client_examples >= 10);
}
