// The legal actions on the wire (docs/protocol.md, "Legal actions"): an act
// is accepted if and only if the seat's list holds it. Random games in every
// mode (games.hpp: duels with preconstructed and catalogue decks, with and
// without Champions, free-for-all, 2v2, solo, co-op; exhaustion in every
// other ten), and at every step, for every seat:
//   - the list as the server writes it (legal_actions_text, the same text
//     as legal_actions_to_json's) reads back
//     (legal_actions_from_json) to exactly the engine's actions, without
//     duplicates, and to nothing for a seat whose turn it is not;
//   - every listed action, sent as an `act` frame (client_message_to_json
//     with the step's seq) and read by the server's parser, passes the
//     engine's check, which is what the room's act path applies;
//   - every candidate around it that the list does not hold is refused:
//     each card of the seat's hand, its Champion and a few random uids, on
//     each line alone, on every creature as a host, at every creature and a
//     random uid as a target; end_turn; the same from the other seats.
// The room's own path (seat, stale seq, the frames it sends) is
// tests/server/test_room_legal.cpp's.
#include <algorithm>
#include <cstdint>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "../shared/catalogue.hpp"
#include "cod/engine/match.hpp"
#include "cod/protocol/legal_actions.hpp"
#include "cod/protocol/messages.hpp"
#include "games.hpp"

namespace {

using nlohmann::json;
using namespace cod;

// ASan builds run fewer games (CI runs the suite in both builds).
#ifdef COD_LEGAL_WIRE_GAMES
constexpr long games = COD_LEGAL_WIRE_GAMES;
#else
constexpr long games = 2000;
#endif

auto key(const action& a) { return std::make_tuple(a.type, a.seat, a.card, a.line, a.target, a.host); }

struct action_less {
  bool operator()(const action& a, const action& b) const { return key(a) < key(b); }
};

// The act frame a client sends for `a`, read back by the server's parser:
// the action for `seat` as the room would apply it.
action through_the_parser(const action& a, seat_t seat, std::int64_t seq) {
  action wire = a;
  wire.seat = no_seat;
  protocol::act_msg msg{seq, wire, seq};
  const std::string frame = protocol::client_message_to_json(msg).dump();
  const auto parsed = protocol::parse_client_message(frame);
  const auto* act = parsed.ok() ? std::get_if<protocol::act_msg>(&*parsed.message) : nullptr;
  if (!act || act->seq != seq) {
    FAIL_CHECK("the server's parser does not read " << frame << " back");
    return action{};
  }
  return act->for_seat(seat);
}

// The creatures in play (their uids: hosts and targets) and the cards a
// seat might name: its hand and its Champion.
void board_of(const seat_view& v, std::vector<card_uid>& creatures) {
  creatures.clear();
  for (const auto& line : v.lines)
    for (const auto& side : line.sides)
      for (const auto& c : side.creatures) creatures.push_back(c.uid);
}

}  // namespace

TEST_CASE("an act is accepted if and only if the seat's legal_actions hold it, in every mode") {
  const catalogue& cat = cod::test::shipped();
  std::vector<event> events;
  std::vector<action> legal;
  std::vector<card_uid> creatures;
  std::vector<action> candidates;
  long steps = 0, listed = 0, refused = 0;
  std::set<game_mode> modes;
  bool saw_host = false, saw_target = false, saw_champion = false;
  for (long g = 0; g < games; ++g) {
    const match_config cfg = bot_test::game_config(cat, g);
    match m;
    events.clear();
    REQUIRE(match::create(cat, cfg, m, events) == rule_error::ok);
    modes.insert(cfg.mode);
    rng pick(cfg.seed ^ 0x5eedULL);
    std::int64_t seq = 0;
    const auto uid_count = std::max<std::size_t>(protocol::uid_cards_from_view(m.view(referee)).size(), 1);
    while (!m.over() && seq < 400) {
      INFO("game " << g << " (" << game_mode_name(cfg.mode) << "), seq " << seq);  // (lazy: only on failure)
      m.legal_actions(legal);
      const seat_t active = m.active_seat();
      std::vector<action> chosen_from;
      for (int s = 0; s < cfg.seat_count; ++s) {
        const auto seat = static_cast<seat_t>(s);
        const auto previews = protocol::play_previews(m, legal, seat);
        const std::string text = protocol::legal_actions_text(legal, seat, previews);
        // The server's writer gives the DOM's text, previews included.
        if (text != protocol::legal_actions_to_json(legal, seat, previews).dump())
          FAIL_CHECK(text << " is not " << protocol::legal_actions_to_json(legal, seat, previews).dump());
        // Every play of the active seat has its preview, the first option's outcome.
        if (seat == active && previews.size() != json::parse(text).at("plays").size())
          FAIL_CHECK("a play without its preview: " << text);
        const auto decoded = protocol::legal_actions_from_json(json::parse(text), seat);
        if (!decoded) FAIL(text);
        const std::set<action, action_less> in_list(decoded->begin(), decoded->end());
        if (in_list.size() != decoded->size()) FAIL_CHECK("a duplicate in " << text);
        if (seat != active) {
          if (!decoded->empty()) FAIL_CHECK("seat " << s << " may not act, and its list is " << text);
        } else {
          // Lossless: the wire list is the engine's, regrouped.
          const std::set<action, action_less> engine(legal.begin(), legal.end());
          if (in_list != engine || engine.size() != legal.size()) FAIL_CHECK("not the engine's list: " << text);
          chosen_from = *decoded;
        }
        // Every listed action passes the act path.
        for (const action& a : *decoded) {
          const action got = through_the_parser(a, seat, seq);
          if (got != a || m.check(got) != rule_error::ok)
            FAIL_CHECK(protocol::action_to_json(a).dump() << " is listed in " << text << " and refused: "
                                                            << error_name(m.check(got)));
          ++listed;
          saw_host = saw_host || a.host != no_uid;
          saw_target = saw_target || a.target != no_uid;
        }
        // Candidates around the list: the hand, the Champion, random uids.
        const seat_view v = m.view(seat);
        board_of(v, creatures);
        std::vector<card_uid> cards;
        for (const auto& c : v.hand) cards.push_back(c.uid);
        if (v.seats[s].champion.uid != no_uid) cards.push_back(v.seats[s].champion.uid);
        for (int i = 0; i < 2; ++i) cards.push_back(static_cast<card_uid>(pick.below(uid_count)));
        const card_uid stray = static_cast<card_uid>(pick.below(max_uids));
        candidates.clear();
        candidates.push_back(action::end(seat));
        // Off turn every play is refused alike: a few suffice.
        if (seat != active) cards.resize(std::min<std::size_t>(cards.size(), 2));
        for (card_uid c : cards) {
          for (int line = 0; line < 2; ++line) {
            candidates.push_back(action::play_creature(seat, c, line));
            candidates.push_back(action::play_symbiote(seat, c, line, stray));
            for (card_uid h : creatures) candidates.push_back(action::play_symbiote(seat, c, line, h));
          }
          candidates.push_back(action::play_incantation(seat, c, stray));
          for (card_uid t : creatures) candidates.push_back(action::play_incantation(seat, c, t));
        }
        for (std::size_t i = 0; i < candidates.size(); ++i) {
          const action& a = candidates[i];
          if (in_list.count(a)) continue;
          // A sample of them through the parser too; the engine's check for all.
          const action got = i % 16 == 0 ? through_the_parser(a, seat, seq) : a;
          // (One assertion per failure: millions of passing ones would cost more than the games.)
          if (m.check(got) == rule_error::ok)
            FAIL_CHECK(protocol::action_to_json(a).dump() << " is accepted, and not in " << text);
          ++refused;
        }
        if (seat == active && v.seats[s].champion.uid != no_uid)
          for (const action& a : *decoded) saw_champion = saw_champion || a.card == v.seats[s].champion.uid;
      }
      REQUIRE_MESSAGE(!chosen_from.empty(), "the active seat has no legal action");
      const action a = chosen_from[pick.below(chosen_from.size())];
      events.clear();
      if (m.apply(through_the_parser(a, active, seq), events) != rule_error::ok) FAIL("a listed action was refused");
      ++seq;
      ++steps;
    }
    // Over: nobody may act but concede, and every list is empty.
    if (m.over()) {
      m.legal_actions(legal);
      for (int s = 0; s < cfg.seat_count; ++s) {
        const auto decoded =
            protocol::legal_actions_from_json(protocol::legal_actions_to_json(legal, static_cast<seat_t>(s)),
                                              static_cast<seat_t>(s));
        REQUIRE(decoded.has_value());
        CHECK(decoded->empty());
        CHECK(m.check(action::end(static_cast<seat_t>(s))) != rule_error::ok);
      }
    }
  }
  MESSAGE(games << " games, " << steps << " steps, " << listed << " listed actions accepted, " << refused
                << " others refused");
  CHECK(modes.size() == 5);  // duel, ffa, 2v2, solo, coop
  CHECK(saw_host);
  CHECK(saw_target);
  CHECK(saw_champion);
}

TEST_CASE("legal_actions_from_json refuses what is not a list") {
  for (const char* text : {R"([])", R"({"plays": []})", R"({"end_turn": true})", R"({"plays": {}, "end_turn": true})",
                           R"({"plays": [{"lines": ["upper"]}], "end_turn": true})",
                           R"({"plays": [{"card": 200, "lines": ["upper"]}], "end_turn": true})",
                           R"({"plays": [{"card": 1, "lines": ["middle"]}], "end_turn": true})",
                           R"({"plays": [{"card": 1, "hosts": [{"host": 2}]}], "end_turn": true})",
                           R"({"plays": [{"card": 1, "targets": ["2"]}], "end_turn": true})",
                           R"({"plays": [{"card": 1, "lanes": ["upper"]}], "end_turn": true})",
                           R"({"plays": [], "end_turn": 1})"})
    CHECK_MESSAGE(!protocol::legal_actions_from_json(json::parse(text), 0).has_value(), text);
  const auto ok = protocol::legal_actions_from_json(
      json::parse(R"({"plays": [{"card": 1, "lines": ["lower"], "hosts": [{"host": 2, "line": "upper"}]},
                               {"card": 3, "targets": [2, 4]}], "end_turn": true})"),
      1);
  REQUIRE(ok.has_value());
  CHECK(*ok == std::vector<action>{action::play_creature(1, 1, 1), action::play_symbiote(1, 1, 0, 2),
                                   action::play_incantation(1, 3, 2), action::play_incantation(1, 3, 4),
                                   action::end(1)});
}
