// The mutation league's JSON (R15; docs/league.md): ops round-trip (a league
// replays from its JSON ops), refusals, and each player's view keeps the
// others' packets, picks, decks and labs secret (E77, R15.2).
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "../shared/catalogue.hpp"
#include "cod/protocol/league_json.hpp"
#include "cod/protocol/mutation_json.hpp"

using namespace cod;
using json = nlohmann::json;
using cod::test::shipped;

namespace {

league_config config() {
  league_config c;
  c.seed = 123;
  c.packs = {"initiation", "treachery"};
  return c;
}

// Plays a league with random legal ops up to `rounds` full rounds.
league play(int rounds) {
  league l;
  REQUIRE(league::create(shipped(), config(), l) == league_error::ok);
  rng r(8);
  std::vector<draft_pick> picks;
  while (l.stage() == league_stage::drafting) {
    l.the_draft().legal_picks(picks);
    league_op o;
    o.type = league_op_type::pick;
    o.pick = picks[r.below(picks.size())];
    o.seat = o.pick.seat;
    REQUIRE(l.apply(o).ok());
  }
  for (seat_t s = 0; s < league_players; ++s) {
    league_op o;
    o.type = league_op_type::choose_deck;
    o.seat = s;
    o.cards.assign(l.drafted(s).begin(), l.drafted(s).begin() + 8);
    REQUIRE(l.apply(o).ok());
  }
  std::vector<mutation> menu;
  for (int round = 1; round <= rounds; ++round) {
    for (seat_t s = 0; s < league_players; ++s) {
      legal_mutations(l.config().costs, l.deck_of(s), mutation_budget, menu);
      league_op o;
      o.seat = s;
      o.type = menu.empty() ? league_op_type::pass : league_op_type::mutate;
      if (!menu.empty()) o.mutations = {menu[r.below(menu.size())]};
      REQUIRE(l.apply(o).ok());
    }
    for (int t = 0; t < league_tables; ++t) {
      league_op o;
      o.type = league_op_type::result;
      o.table = t;
      o.winner = t == 0 ? l.table(round, t).seats[0] : no_seat;
      REQUIRE(l.apply(o).ok());
    }
  }
  return l;
}

bool mentions(const json& j, const std::string& card) { return j.dump().find("\"" + card + "\"") != std::string::npos; }

}  // namespace

TEST_CASE("R15 league ops round-trip through JSON: the league replays from them") {
  const league l = play(league_rounds);
  REQUIRE(l.stage() == league_stage::finished);
  std::vector<league_op> back;
  for (const league_op& op : l.ops()) {
    std::string error;
    const json j = protocol::league_op_to_json(op, shipped());
    auto parsed = protocol::league_op_from_json(json::parse(j.dump()), shipped(), error);
    REQUIRE_MESSAGE(parsed, error);
    back.push_back(*parsed);
  }
  league again;
  int failed_at = 0;
  REQUIRE(replay_league(shipped(), config(), back, again, failed_at).ok());
  CHECK(again.digest() == l.digest());
  CHECK(protocol::league_op_to_json(l.ops().back(), shipped()) ==
        json{{"type", "result"}, {"table", 1}, {"winner", nullptr}});
}

TEST_CASE("R15 league op errors name the field") {
  auto error_of = [](const json& j) {
    std::string error;
    CHECK_FALSE(protocol::league_op_from_json(j, shipped(), error));
    return error;
  };
  CHECK(error_of(json::array()) == "op: must be an object {\"type\", ...}");
  CHECK(error_of({{"type", "dance"}}) == "type: must be pick, choose_deck, mutate, pass or result");
  CHECK(error_of({{"type", "pick"}, {"seat", 4}, {"card", "brute"}}) == "seat: a player's seat, 0 to 3");
  CHECK(error_of({{"type", "pick"}, {"seat", 0}}) == "card: missing (the card kept from the packet)");
  CHECK(error_of({{"type", "pick"}, {"seat", 0}, {"card", "nobody"}}) == "card: no card \"nobody\" in the catalogue");
  CHECK(error_of({{"type", "pass"}, {"seat", 0}, {"now", true}}) == "now: unknown field");
  CHECK(error_of({{"type", "choose_deck"}, {"seat", 0}, {"cards", {"brute", 7}}}) ==
        "cards[1]: must be a card id (a string)");
  CHECK(error_of({{"type", "mutate"}, {"seat", 0}, {"mutations", json::array()}}) ==
        "mutations: missing (an array of 1 to 32 mutations; to mutate nothing, pass)");
  CHECK(error_of({{"type", "mutate"}, {"seat", 0}, {"mutations", {{{"target", "brute"}}}}}) ==
        "mutations[0].source: missing");
  CHECK(error_of({{"type", "result"}, {"table", 2}, {"winner", 0}}) == "table: the duel, 0 or 1");
  CHECK(error_of({{"type", "result"}, {"table", 0}}) == "winner: a player's seat, or null for a duel nobody won");
}

TEST_CASE("R15 a refusal in words: the league's code and the rule's underneath") {
  league_refusal r;
  r.error = league_error::mutation_refused;
  r.mutation = mutation_error::above_nine;
  r.index = 2;
  const json j = protocol::league_refusal_to_json(r);
  CHECK(j["error"] == "mutation_refused");
  CHECK(j["detail"] == "above_nine");
  CHECK(j["detail_message"] == "AV and HP are at most 9 (R15.5)");
  CHECK(j["index"] == 2);
}

TEST_CASE("R15.2 E77 a player's view shows its own packet, picks, deck and lab, never another's") {
  league l;
  REQUIRE(league::create(shipped(), config(), l) == league_error::ok);
  const std::vector<std::string> names = {"ann", "bob", "cid", "dee"};
  json v0 = protocol::league_view_to_json(l, 0, names);
  CHECK(v0["stage"] == "drafting");
  CHECK(v0["you"]["packet"].size() == 16);
  for (card_id c : l.the_draft().state().seats[1].packet) CHECK_FALSE(mentions(v0, shipped().def(c).id));
  json pub = protocol::league_view_to_json(l, no_seat, names);
  CHECK_FALSE(pub.contains("you"));
  for (int s = 0; s < 4; ++s)
    for (card_id c : l.the_draft().state().seats[s].packet) CHECK_FALSE(mentions(pub, shipped().def(c).id));

  const league played = play(2);
  v0 = protocol::league_view_to_json(played, 0, names);
  CHECK(v0["stage"] == "mutating");
  CHECK(v0["round"] == 3);
  CHECK(v0["points"] == 2.5);
  CHECK(v0["you"]["deck"].size() == 8);
  CHECK(v0["you"]["lab"].size() == 8);
  CHECK(v0["you"]["drafted"].size() == 16);
  for (seat_t s = 1; s < 4; ++s)
    for (card_id c : played.drafted(s)) CHECK_FALSE(mentions(v0, shipped().def(c).id));
  CHECK(v0["players"].size() == 4);
  CHECK(v0["schedule"][0]["tables"][0]["decided"] == true);
  CHECK(v0["schedule"][0]["tables"][1]["winner"] == nullptr);

  // The export holds everything: every op, deck, lab and mutation.
  const json ex = protocol::league_export_json(played, names);
  CHECK(ex["ops"].size() == played.ops().size());
  CHECK(ex["seats"].size() == 4);
  for (const json& s : ex["seats"]) {
    CHECK(s["deck"].size() == 8);
    CHECK(s["lab"].size() == 8);
  }
  CHECK(ex["mutations"].size() == played.mutation_record().size());
}

TEST_CASE("R15.4 the view lists the viewer's legal mutations while it may act: the engine's, in its order, its own only") {
  const std::vector<std::string> names = {"ann", "bob", "cid", "dee"};
  league l = play(1);
  REQUIRE(l.stage() == league_stage::mutating);
  for (seat_t s = 0; s < league_players; ++s) {
    const json v = protocol::league_view_to_json(l, s, names);
    std::vector<mutation> menu;
    legal_mutations(l.config().costs, l.deck_of(s), mutation_budget, menu);
    REQUIRE(!menu.empty());
    const json& listed = v["you"]["legal_mutations"];
    REQUIRE(listed.size() == menu.size());
    for (std::size_t i = 0; i < menu.size(); ++i) {
      // Each entry reads back as the engine's mutation, in the same place.
      const auto back = protocol::mutation_from_json(listed[i], shipped());
      REQUIRE(back.ok());
      CHECK(back.m == menu[i]);
    }
  }
  CHECK_FALSE(protocol::league_view_to_json(l, no_seat, names).dump().find("legal_mutations") != std::string::npos);
  // Once the viewer has acted (a pass), no list for it; the others keep theirs.
  league_op pass;
  pass.type = league_op_type::pass;
  pass.seat = 0;
  REQUIRE(l.apply(pass).ok());
  CHECK_FALSE(protocol::league_view_to_json(l, 0, names)["you"].contains("legal_mutations"));
  CHECK(protocol::league_view_to_json(l, 1, names)["you"].contains("legal_mutations"));
  // While the duels are played: nobody's.
  for (seat_t s = 1; s < league_players; ++s) {
    pass.seat = s;
    REQUIRE(l.apply(pass).ok());
  }
  REQUIRE(l.stage() == league_stage::playing);
  for (seat_t s = 0; s < league_players; ++s)
    CHECK_FALSE(protocol::league_view_to_json(l, s, names)["you"].contains("legal_mutations"));
}
