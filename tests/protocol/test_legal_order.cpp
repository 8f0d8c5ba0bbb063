// The order of legal_actions' options (docs/protocol.md, "Legal actions"):
// a Symbiote's hosts follow the seat's own lines, upper then lower; an
// incantation's targets follow the board (line 0 up, side 0 then 1). The two
// differ for seat 2 of a four-player game, whose upper line is line 2 and
// lower line 1 (R11.1), so that is the seat this pins.
#include <doctest/doctest.h>

#include <vector>

#include <nlohmann/json.hpp>

#include "../shared/catalogue.hpp"
#include "cod/engine/match.hpp"
#include "cod/engine/setup.hpp"
#include "cod/protocol/legal_actions.hpp"

using nlohmann::json;
namespace proto = cod::protocol;
using cod::test::shipped;

namespace {

cod::card_id card(const char* id) {
  const auto c = shipped().find(id);
  REQUIRE_MESSAGE(c.has_value(), id);
  return *c;
}

cod::creature_setup creature(const char* id) {
  cod::creature_setup cs;
  cs.card = card(id);
  return cs;
}

}  // namespace

TEST_CASE("legal_actions: hosts in the seat's upper-then-lower order, targets in the board's (seat 2 of four)") {
  cod::position_setup p;
  p.mode = cod::game_mode::ffa;
  p.first_seat = 0;
  p.active_seat = 2;
  p.turn = 3;
  p.seats.resize(4);
  p.seats[0].turns_taken = p.seats[1].turns_taken = 1;
  // uids: each seat's hand, then its upper line, then its lower line.
  p.seats[0].hand = {card("troll"), card("ogre")};                                // 0, 1
  p.seats[0].lines[0] = {creature("brute")};                                      // 2: line 0, side 0
  p.seats[1].hand = {card("troll"), card("ogre")};                                // 3, 4
  p.seats[1].lines[1] = {creature("growler")};                                    // 5: line 1, side 0
  p.seats[2].hand = {card("cunning_spirit"), card("boom"), card("troll")};       // 6, 7, 8
  p.seats[2].mana = 10;
  p.seats[2].lines[0] = {creature("brute")};                                      // 9: line 2, side 0
  p.seats[2].lines[1] = {creature("baron")};                                      // 10: line 1, side 1
  p.seats[3].hand = {card("troll"), card("ogre")};                                // 11, 12
  p.seats[3].lines[0] = {creature("growler")};                                    // 13: line 2, side 1
  cod::match m;
  REQUIRE(cod::match::from_position(shipped(), p, m) == cod::rule_error::ok);

  // The board as the view says it: seat 2's upper line is 2, its lower 1.
  const auto view = m.view(2);
  REQUIRE(view.seats[2].upper_line == 2);
  REQUIRE(view.seats[2].lower_line == 1);

  std::vector<cod::action> legal;
  m.legal_actions(legal);
  const json list = proto::legal_actions_to_json(legal, 2, {});
  const json& plays = list.at("plays");
  CAPTURE(list.dump());
  REQUIRE(plays.size() >= 2);

  // CUNNING SPIRIT (Symbiote): its upper line's BRUTE (uid 9, line 2) before
  // its lower line's BARON (uid 10, line 1): not the board's order.
  REQUIRE(plays[0].at("card") == 6);
  CHECK(plays[0].at("lines") == json{"upper", "lower"});
  CHECK(plays[0].at("hosts") ==
        json::parse(R"([{"host": 9, "line": "upper"}, {"host": 10, "line": "lower"}])"));

  // BOOM (incantation): every creature in the board's order: line 0 (2),
  // line 1 side 0 (5) and side 1 (10), line 2 side 0 (9) and side 1 (13).
  REQUIRE(plays[1].at("card") == 7);
  CHECK(plays[1].at("targets") == json{2, 5, 10, 9, 13});

  // The text the server sends says the same.
  CHECK(json::parse(proto::legal_actions_text(legal, 2, {})) == list);
}
