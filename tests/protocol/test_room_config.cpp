// Room configurations (room_config.hpp): the modes create_room
// accepts, options checked against the mode, teams, and a join's Champion
// (R13.1) checked against the room and the seat's deck.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <string_view>

#include "../shared/catalogue.hpp"
#include "cod/protocol/client_messages.hpp"
#include "cod/protocol/room_config.hpp"
#include "cod/protocol/server_messages.hpp"

using nlohmann::json;
namespace proto = cod::protocol;
using proto::protocol_errc;
using cod::test::shipped;

namespace {

proto::create_room_msg create(const std::string& text) {
  CAPTURE(text);
  const auto r = proto::parse_client_message(text);
  if (!r.ok()) FAIL(r.error->field << ": " << r.error->message);
  REQUIRE(std::holds_alternative<proto::create_room_msg>(*r.message));
  return std::get<proto::create_room_msg>(*r.message);
}

// A create_room frame for `mode` with preconstructed decks and these options
// (a JSON object's text), in the key order the literal frames use.
std::string preconstructed_room(std::string_view mode, std::string_view options) {
  std::string text = R"({"type":"create_room","mode":")";
  text.append(mode).append(R"(","format":"preconstructed","options":)").append(options).append("}");
  return text;
}

void refused(const std::string& text, protocol_errc code, const std::string& field) {
  CAPTURE(text);
  const auto r = proto::parse_client_message(text);
  REQUIRE_FALSE(r.ok());
  CHECK(r.error->name() == proto::protocol_errc_name(code));
  CHECK(r.error->field == field);
  CHECK_FALSE(r.error->message.empty());
}

std::string first_incantation(const cod::catalogue& cat) {
  for (std::size_t c = 0; c < cat.size(); ++c)
    if (cat.stats(static_cast<cod::card_id>(c)).type != cod::card_type::creature)
      return cat.def(static_cast<cod::card_id>(c)).id;
  return {};
}

}  // namespace

TEST_CASE("create_room: the offered modes and their seat counts") {
  CHECK(proto::offered_mode_names() == "\"duel\", \"ffa\", \"2v2\", \"solo\" or \"coop\"");
  const auto solo = create(R"({"type":"create_room","mode":"solo","format":"preconstructed"})");
  CHECK(solo.mode == cod::game_mode::solo);
  CHECK(solo.options.seats == 2);
  CHECK(solo.options.difficulty == 0);
  const auto coop = create(
      R"({"type":"create_room","mode":"coop","format":"preconstructed","options":{"difficulty":4,"ai":{"resistance":true,"abilities":["sprint","vanish"]}}})");
  CHECK(coop.options.seats == 4);
  CHECK(coop.options.difficulty == 4);
  CHECK(coop.options.ai.resistance);
  CHECK(coop.options.ai.granted == (cod::bit(cod::ability::sprint) | cod::bit(cod::ability::vanish)));
  const auto duel = create(R"({"type":"create_room","mode":"duel","format":"preconstructed"})");
  CHECK(duel.mode == cod::game_mode::duel);
  CHECK(duel.options.seats == 2);
  const auto ffa = create(R"({"type":"create_room","mode":"ffa","format":"constructed"})");
  CHECK(ffa.mode == cod::game_mode::ffa);
  CHECK(ffa.options.seats == 4);
  CHECK_FALSE(ffa.options.champions);
  // Options without "seats" still get the mode's.
  const auto team = create(
      R"({"type":"create_room","mode":"2v2","format":"preconstructed","options":{"share_team_hands":true,"champions":true}})");
  CHECK(team.mode == cod::game_mode::two_vs_two);
  CHECK(team.options.seats == 4);
  CHECK(team.options.share_team_hands);
  CHECK(team.options.champions);
  CHECK(create(R"({"type":"create_room","mode":"ffa","format":"preconstructed","options":{"seats":4}})")
            .options.seats == 4);
  // Champions in a duel, with either format (R13.1; preconstructed as custom play).
  for (const char* format : {"preconstructed", "constructed"})
    CHECK(create(std::string(R"({"type":"create_room","mode":"duel","options":{"champions":true},"format":")") +
                 format + "\"}")
              .options.champions);
}

TEST_CASE("create_room: options that do not fit the mode are refused, naming the option") {
  refused(R"({"type":"create_room","mode":"solo","format":"constructed"})", protocol_errc::bad_field_value, "format");
  refused(R"({"type":"create_room","mode":"FFA","format":"preconstructed"})", protocol_errc::bad_field_value, "mode");
  struct refusal {
    const char* mode;
    const char* options;
    protocol_errc code;
    const char* field;
  };
  const refusal refusals[] = {
      // Solo and co-op (R2.1, R12.8, R13.1).
      {"solo", R"({"difficulty":2})", protocol_errc::bad_field_value, "options.difficulty"},
      {"solo", R"({"difficulty":-1})", protocol_errc::bad_field_value, "options.difficulty"},
      {"solo", R"({"difficulty":1.5})", protocol_errc::bad_field_type, "options.difficulty"},
      {"solo", R"({"ai":{"ai_first":true}})", protocol_errc::bad_field_value, "options.ai"},
      {"coop", R"({"champions":true})", protocol_errc::bad_field_value, "options.champions"},
      {"coop", R"({"difficulty":4,"ai":{"fixed_mana":11}})", protocol_errc::bad_field_value, "options.ai.fixed_mana"},
      {"coop", R"({"difficulty":2,"ai":{"abilities":["sprint","sprint"]}})", protocol_errc::bad_field_value, "options.ai.abilities[1]"},
      {"coop", R"({"difficulty":1,"ai":{"abilities":["chain"]}})", protocol_errc::bad_field_value, "options.ai.abilities[0]"},
      {"coop", R"({"difficulty":1,"ai":{"abilities":"sprint"}})", protocol_errc::bad_field_type, "options.ai.abilities"},
      {"coop", R"({"share_team_hands":true})", protocol_errc::bad_field_value, "options.share_team_hands"},
      {"ffa", R"({"difficulty":1})", protocol_errc::bad_field_value, "options.difficulty"},
      {"duel", R"({"ai":{"resistance":true}})", protocol_errc::bad_field_value, "options.ai"},
      // The seat count and team hands against the mode; Champions' type and name.
      {"ffa", R"({"seats":2})", protocol_errc::bad_field_value, "options.seats"},
      {"2v2", R"({"seats":3})", protocol_errc::bad_field_value, "options.seats"},
      {"duel", R"({"seats":4})", protocol_errc::bad_field_value, "options.seats"},
      {"ffa", R"({"seats":5})", protocol_errc::bad_field_value, "options.seats"},
      {"duel", R"({"share_team_hands":true})", protocol_errc::bad_field_value, "options.share_team_hands"},
      {"ffa", R"({"share_team_hands":true})", protocol_errc::bad_field_value, "options.share_team_hands"},
      {"2v2", R"({"share_team_hands":1})", protocol_errc::bad_field_type, "options.share_team_hands"},
      {"ffa", R"({"champions":"on"})", protocol_errc::bad_field_type, "options.champions"},
      {"ffa", R"({"champion":true})", protocol_errc::unknown_field, "options.champion"},
  };
  for (const refusal& r : refusals) refused(preconstructed_room(r.mode, r.options), r.code, r.field);
  // share_team_hands false is allowed anywhere (it is the default).
  CHECK_FALSE(create(preconstructed_room("duel", R"({"share_team_hands":false})")).options.share_team_hands);
}

TEST_CASE("check_room_config and seat_team") {
  using M = cod::game_mode;
  using F = proto::deck_format;
  proto::room_options o;
  CHECK_FALSE(proto::check_room_config(M::duel, F::preconstructed, o));
  CHECK(proto::check_room_config(M::ffa, F::preconstructed, o)->field == "options.seats");
  o.seats = 4;
  CHECK_FALSE(proto::check_room_config(M::ffa, F::constructed, o));
  o.share_team_hands = true;
  CHECK(proto::check_room_config(M::ffa, F::constructed, o)->field == "options.share_team_hands");
  CHECK_FALSE(proto::check_room_config(M::two_vs_two, F::constructed, o));

  CHECK_FALSE(proto::seat_team(M::duel, 0));
  CHECK_FALSE(proto::seat_team(M::ffa, 3));
  CHECK(proto::seat_team(M::two_vs_two, 0) == 0);
  CHECK(proto::seat_team(M::two_vs_two, 1) == 1);
  CHECK(proto::seat_team(M::two_vs_two, 2) == 0);
  CHECK(proto::seat_team(M::two_vs_two, 3) == 1);
  // R11.7: co-op humans A+C against AIs B+D; solo has no teams.
  CHECK(proto::seat_team(M::coop, 0) == 0);
  CHECK(proto::seat_team(M::coop, 3) == 1);
  CHECK_FALSE(proto::seat_team(M::solo, 1));
  // RULING E41: whose pick decides each AI's deck.
  CHECK(proto::ai_deck_owner(M::solo, 1) == 0);
  CHECK(proto::ai_deck_owner(M::coop, 1) == 0);
  CHECK(proto::ai_deck_owner(M::coop, 3) == 2);
}

TEST_CASE("check_room_config: solo and co-op difficulty (R12.8; the engine's check_ai_options decides)") {
  using M = cod::game_mode;
  using F = proto::deck_format;
  proto::room_options o;
  CHECK_FALSE(proto::check_room_config(M::solo, F::preconstructed, o));
  o.difficulty = 10;  // 10 fixed mana (4) + double (2) + first (1) + resistance (2) + 1 ability = 10
  o.ai.fixed_mana = 10;
  o.ai.double_variable = true;
  o.ai.ai_first = true;
  o.ai.resistance = true;
  o.ai.granted = cod::bit(cod::ability::rage);
  CHECK_FALSE(proto::check_room_config(M::solo, F::preconstructed, o));
  o.ai.granted |= cod::bit(cod::ability::berserk);
  auto e = proto::check_room_config(M::solo, F::preconstructed, o);
  REQUIRE(e);
  CHECK(e->field == "options.difficulty");
  CHECK(e->message == "custom difficulty 10 needs 10 points; these options spend 11 (R12.8)");
  // A Champion gives 2 points back (RULING E45): the same options with Champions spend 9.
  o.champions = true;
  e = proto::check_room_config(M::solo, F::preconstructed, o);
  REQUIRE(e);
  CHECK(e->message == "custom difficulty 10 needs 10 points; these options spend 9 (1 Champion gives 2) (R12.8)");
  o.difficulty = 9;
  CHECK_FALSE(proto::check_room_config(M::solo, F::preconstructed, o));
  // Co-op: seats 4, two Champions.
  o.seats = 4;
  o.difficulty = 7;
  CHECK_FALSE(proto::check_room_config(M::coop, F::preconstructed, o));
  CHECK(proto::check_room_config(M::coop, F::constructed, o)->field == "format");
  // R13.1: Champions in draft too (RULING E67), custom play against the AI.
  CHECK_FALSE(proto::check_room_config(M::coop, F::draft, o));
  proto::room_options duel;
  duel.champions = true;
  CHECK_FALSE(proto::check_room_config(M::duel, F::draft, duel));
  CHECK_FALSE(proto::check_room_config(M::duel, F::instant_constructed, duel));
}

TEST_CASE("check_room_config: drafted formats, and none in solo and co-op yet") {
  using M = cod::game_mode;
  using F = proto::deck_format;
  proto::room_options o;
  // Duel and four players draft (R14.2, R14.3); instant constructed is a duel (RULING E65).
  CHECK_FALSE(proto::check_room_config(M::duel, F::draft, o));
  CHECK_FALSE(proto::check_room_config(M::duel, F::instant_constructed, o));
  o.packs = {"initiation"};
  CHECK_FALSE(proto::check_room_config(M::duel, F::draft, o));
  CHECK(proto::check_room_config(M::duel, F::preconstructed, o)->field == "options.packs");
  o.packs.clear();
  o.seats = 4;
  CHECK_FALSE(proto::check_room_config(M::ffa, F::draft, o));
  CHECK_FALSE(proto::check_room_config(M::two_vs_two, F::draft, o));
  CHECK(proto::check_room_config(M::ffa, F::instant_constructed, o)->field == "format");

  // Solo and co-op: the draft against the AI (R14.4, R14.5) is offered, with
  // packs and a custom difficulty; instant constructed is not (RULING E65),
  // nor packs without a draft.
  for (const M mode : {M::solo, M::coop}) {
    CAPTURE(cod::game_mode_name(mode));
    proto::room_options ai;
    ai.seats = cod::seats_of(mode);
    CHECK_FALSE(proto::check_room_config(mode, F::draft, ai));
    ai.packs = {"initiation"};
    CHECK_FALSE(proto::check_room_config(mode, F::draft, ai));
    ai.difficulty = 1;
    ai.ai.ai_first = true;
    CHECK_FALSE(proto::check_room_config(mode, F::draft, ai));
    ai.ai = {};
    CHECK(proto::check_room_config(mode, F::draft, ai)->field == "options.difficulty");
    ai.difficulty = 0;
    ai.packs.clear();
    for (const F f : {F::instant_constructed, F::constructed}) {
      CAPTURE(proto::deck_format_name(f));
      auto e = proto::check_room_config(mode, f, ai);
      REQUIRE(e);
      CHECK(e->code == protocol_errc::bad_field_value);
      CHECK(e->field == "format");
      CHECK(e->message.find("\"preconstructed\" or \"draft\"") != std::string::npos);
    }
    ai.packs = {"initiation"};
    auto e = proto::check_room_config(mode, F::preconstructed, ai);
    REQUIRE(e);
    CHECK(e->field == "options.packs");
  }
  // The same from create_room frames.
  refused(R"({"type":"create_room","mode":"coop","format":"instant_constructed","options":{"difficulty":1,"ai":{"ai_first":true}}})",
          protocol_errc::bad_field_value, "format");
  refused(preconstructed_room("solo", R"({"packs":["initiation"]})"), protocol_errc::bad_field_value, "options.packs");
}

TEST_CASE("join: the champion field") {
  const auto r = proto::parse_client_message(
      R"({"type":"join","room":"r","name":"A","deck":{"preconstructed":1},"champion":"brute"})");
  REQUIRE(r.ok());
  CHECK(std::get<proto::join_msg>(*r.message).champion == std::optional<std::string>("brute"));
  const auto none = proto::parse_client_message(R"({"type":"join","room":"r","name":"A","deck":{"preconstructed":1}})");
  REQUIRE(none.ok());
  CHECK_FALSE(std::get<proto::join_msg>(*none.message).champion);
  refused(R"({"type":"join","room":"r","name":"A","deck":{"preconstructed":1},"champion":""})",
          protocol_errc::bad_field_value, "champion");
  refused(R"({"type":"join","room":"r","name":"A","deck":{"preconstructed":1},"champion":7})",
          protocol_errc::bad_field_type, "champion");
  refused(R"({"type":"join","room":"r","name":"A","deck":{"preconstructed":1},"champion":null})",
          protocol_errc::bad_field_type, "champion");
  refused(std::string(R"({"type":"join","room":"r","name":"A","deck":{"preconstructed":1},"champion":")") +
              std::string(65, 'x') + "\"}",
          protocol_errc::bad_field_value, "champion");
}

TEST_CASE("resolve_champion: R13.1 against the room and the seat's deck") {
  const auto& cat = shipped();
  proto::room_options with, without;
  with.champions = true;
  const auto deck = cat.preconstructed_deck(1);
  REQUIRE(deck.size() == 8);
  // A creature outside deck 1.
  std::string outside;
  for (std::size_t c = 0; c < cat.size() && outside.empty(); ++c) {
    const auto id = static_cast<cod::card_id>(c);
    if (cat.stats(id).type == cod::card_type::creature && std::find(deck.begin(), deck.end(), id) == deck.end())
      outside = cat.def(id).id;
  }
  REQUIRE_FALSE(outside.empty());

  const auto ok = proto::resolve_champion(outside, with, deck, cat);
  CHECK(ok.ok());
  CHECK(ok.card == *cat.find(outside));
  const auto none = proto::resolve_champion(std::nullopt, without, deck, cat);
  CHECK(none.ok());
  CHECK(none.card == cod::no_card);

  auto reason = [&](const std::optional<std::string>& c, const proto::room_options& o) {
    const auto r = proto::resolve_champion(c, o, deck, cat);
    CHECK(r.card == cod::no_card);
    CHECK_FALSE(r.message.empty());
    return r.reason;
  };
  CHECK(reason(std::nullopt, with) == "champion_required");
  CHECK(reason(outside, without) == "champions_off");
  CHECK(reason(std::string("dragon"), with) == "unknown_card");
  CHECK(reason(first_incantation(cat), with) == "not_a_creature");
  for (cod::card_id c : deck)
    if (cat.stats(c).type == cod::card_type::creature) CHECK(reason(cat.def(c).id, with) == "in_deck");

  const auto e = proto::make_champion_error(4, proto::resolve_champion(std::string("dragon"), with, deck, cat));
  CHECK(e.at("code") == "bad_champion_choice");
  CHECK(e.at("reason") == "unknown_card");
  CHECK(e.at("id") == 4);
}

TEST_CASE("room summaries show the mode and reveal Champions only when given") {
  proto::room_summary r{"f4", cod::game_mode::ffa, proto::deck_format::constructed,
                        proto::room_options{false, std::nullopt, 4, true, false}, proto::room_status::playing,
                        {{0, true, true, "Ada", "brute"}, {1, false, false, "", ""}}, 0};
  const json j = proto::room_summary_to_json(r);
  CHECK(j.at("mode") == "ffa");
  CHECK(j.at("options").at("seats") == 4);
  CHECK(j.at("options").at("champions") == true);
  CHECK(j.at("seats")[0].at("champion") == "brute");
  CHECK(j.at("seats")[1].at("champion").is_null());
  CHECK_FALSE(j.at("seats")[0].contains("ai"));
  CHECK_FALSE(j.at("options").contains("difficulty"));

  // Solo: the AI seat is taken and marked; the options show the difficulty.
  proto::room_summary s{"s1", cod::game_mode::solo, proto::deck_format::preconstructed, proto::room_options{},
                        proto::room_status::waiting, {{0, false, false, "", ""}, {1, true, true, "AI", "", true}}, 0};
  const json sj = proto::room_summary_to_json(s);
  CHECK(sj.at("seats")[1].at("ai") == true);
  CHECK_FALSE(sj.at("seats")[0].contains("ai"));
  CHECK(sj.at("options").at("difficulty") == 0);
}
