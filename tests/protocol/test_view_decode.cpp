// view_from_json (view_decode.hpp): every view of random games in every mode,
// for every viewer, comes back as it was written; a view from an older
// server (without the fields the wire gained for it) gets the documented
// defaults; malformed views are errors, never exceptions.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "../shared/catalogue.hpp"
#include "cod/engine/match.hpp"
#include "cod/engine/rng.hpp"
#include "cod/protocol/json_codec.hpp"
#include "cod/protocol/view_decode.hpp"
#include "self_play.hpp"

using nlohmann::json;
namespace proto = cod::protocol;
using cod::test::shipped;

namespace {

// Game g: duel, free-for-all, 2v2 (sharing hands in some), solo and co-op;
// catalogue decks (Chain, Sharpening and the rest turn up), Champions in odd
// games of the human modes, R9 in some, stall turns other than the default.
cod::match_config config(long g) {
  const auto& cat = shipped();
  const std::vector<cod::card_id> pool = cod::self_play::all_cards(cat);
  static const cod::game_mode modes[] = {cod::game_mode::duel, cod::game_mode::ffa, cod::game_mode::two_vs_two,
                                         cod::game_mode::duel, cod::game_mode::solo, cod::game_mode::coop};
  cod::match_config cfg;
  cfg.seed = 9100 + static_cast<std::uint64_t>(g);
  cfg.mode = modes[g % 6];
  cfg.seat_count = cod::seats_of(cfg.mode);
  cfg.exhaustion_rule = g % 5 == 2;
  cfg.stall_exhaustion_turn = g % 4 == 0 ? 0 : g % 4 == 1 ? 12 : cod::default_stall_exhaustion_turn;
  cfg.share_team_hands = cfg.mode == cod::game_mode::two_vs_two && (g / 6) % 2 == 1;
  cod::self_play::random_decks(cfg.seed, pool, cfg.decks.data(), cfg.seat_count);
  if (cfg.mode == cod::game_mode::solo || cfg.mode == cod::game_mode::coop) {
    for (int s = 1; s < cfg.seat_count; s += 2) cod::self_play::random_ai_deck(cfg.seed, s, pool, cfg.decks[s]);
  } else if (g % 2 == 1) {
    cod::self_play::random_champions(cfg.seed, cat, pool, cfg.decks.data(), cfg.champions.data(), cfg.seat_count);
  }
  return cfg;
}

// Calls f(view) for every viewer (each seat, a spectator, the referee) of
// every `every`th position of `games` random games.
template <class F>
void for_each_view(long games, F&& f, int every = 3) {
  const auto& cat = shipped();
  std::vector<cod::event> events;
  std::vector<cod::action> legal;
  for (long g = 0; g < games; ++g) {
    const cod::match_config cfg = config(g);
    cod::match m;
    REQUIRE(cod::match::create(cat, cfg, m, events) == cod::rule_error::ok);
    cod::rng r(cfg.seed);
    for (int n = 0; n < 300; ++n) {
      if (n % every == 0 || m.over()) {
        for (int s = -3; s < cfg.seat_count; ++s)
          if (s != -1) f(m.view(static_cast<cod::seat_t>(s)));
      }
      if (m.over()) break;
      m.legal_actions(legal);
      events.clear();
      REQUIRE(m.apply(legal[r.below(legal.size())], events) == cod::rule_error::ok);
    }
  }
}

// The fields json does not show at a glance, compared one by one.
void check_same(const cod::seat_view& a, const cod::seat_view& b) {
  CHECK(a.viewer == b.viewer);
  CHECK(a.mode == b.mode);
  CHECK(a.stall_exhaustion_turn == b.stall_exhaustion_turn);
  CHECK(a.winners == b.winners);
  CHECK(a.teammate == b.teammate);
  CHECK(a.share_team_hands == b.share_team_hands);
  CHECK(a.hand == b.hand);
  CHECK(a.playable == b.playable);
  REQUIRE(a.lines.size() == b.lines.size());
  for (std::size_t l = 0; l < a.lines.size(); ++l)
    for (int d = 0; d < 2; ++d) {
      const auto& x = a.lines[l].sides[d];
      const auto& y = b.lines[l].sides[d];
      CHECK(x.seat == y.seat);
      REQUIRE(x.creatures.size() == y.creatures.size());
      for (std::size_t i = 0; i < x.creatures.size(); ++i) {
        CHECK(x.creatures[i].chained == y.creatures[i].chained);
        CHECK(x.creatures[i].chained_from == y.creatures[i].chained_from);
        CHECK(x.creatures[i].sharpening_spent == y.creatures[i].sharpening_spent);
        CHECK(x.creatures[i].abilities == y.creatures[i].abilities);
        CHECK(x.creatures[i].top == y.creatures[i].top);
      }
    }
}

// The view as a server from before the wire carried them would send it.
json without_new_fields(json j) {
  j.erase("stall_exhaustion_turn");
  for (auto& line : j["lines"])
    for (auto& side : line["sides"])
      for (auto& c : side["creatures"]) {
        c.erase("chained_from");
        c.erase("sharpening_spent");
      }
  return j;
}

}  // namespace

TEST_CASE("view_from_json gives back every view of random games, for every viewer") {
  const auto& cat = shipped();
  long views = 0, chained = 0, sharpened = 0, champions = 0, ai = 0, teammate_hands = 0;
  for_each_view(60, [&](const cod::seat_view& v) {
    const json j = proto::view_to_json(v, cat);
    cod::seat_view back;
    const auto e = proto::view_from_json(j, cat, back);
    if (e) FAIL(e->field << ": " << e->message);
    CHECK(proto::view_to_json(back, cat) == j);
    check_same(v, back);
    ++views;
    for (const auto& line : v.lines)
      for (const auto& side : line.sides)
        for (const auto& c : side.creatures) {
          chained += c.chained.empty() ? 0 : 1;
          sharpened += c.sharpening_spent ? 1 : 0;
        }
    for (const auto& p : v.seats) {
      champions += p.champion.uid != cod::no_uid ? 1 : 0;
      ai += p.ai ? 1 : 0;
    }
    teammate_hands += v.teammate_hand.empty() ? 0 : 1;
  }, 1);
  // The games reach what the test is about.
  CHECK(views > 1000);
  CHECK(chained > 0);
  CHECK(sharpened > 0);
  CHECK(champions > 0);
  CHECK(ai > 0);
  CHECK(teammate_hands > 0);
  MESSAGE(views << " views; creatures holding chained cards: " << chained << ", with Sharpening spent: " << sharpened);
}

TEST_CASE("a view without the fields the wire gained gets the documented defaults") {
  const auto& cat = shipped();
  long chained = 0;
  for_each_view(12, [&](const cod::seat_view& v) {
    const json old = without_new_fields(proto::view_to_json(v, cat));
    cod::seat_view back;
    REQUIRE_FALSE(proto::view_from_json(old, cat, back, 55));
    CHECK(back.stall_exhaustion_turn == 55);  // the caller's (the room's option)
    cod::seat_view plain;
    REQUIRE_FALSE(proto::view_from_json(old, cat, plain));
    CHECK(plain.stall_exhaustion_turn == cod::default_stall_exhaustion_turn);
    for (std::size_t l = 0; l < v.lines.size(); ++l)
      for (int d = 0; d < 2; ++d)
        for (std::size_t i = 0; i < v.lines[l].sides[d].creatures.size(); ++i) {
          const auto& c = back.lines[l].sides[d].creatures[i];
          CHECK_FALSE(c.sharpening_spent);
          // R7 Chain takes from the seat across the line: the default is the truth.
          CHECK(c.chained_from == v.lines[l].sides[d].creatures[i].chained_from);
          for (cod::seat_t s : c.chained_from) CHECK(s == back.lines[l].sides[1 - d].seat);
          chained += c.chained.empty() ? 0 : 1;
        }
  });
  CHECK(chained > 0);
}

namespace {

// A view with a bit of everything: a 2v2 with shared hands, mid-game.
json sample_view() {
  const cod::seat_view* found = nullptr;
  static cod::seat_view keep;
  for_each_view(3, [&](const cod::seat_view& v) {
    if (found || v.mode != cod::game_mode::two_vs_two || v.viewer != 0 || v.turn < 6) return;
    for (const auto& line : v.lines)
      for (const auto& side : line.sides)
        if (!side.creatures.empty() && !found) {
          keep = v;
          found = &keep;
        }
  });
  REQUIRE(found);
  return proto::view_to_json(*found, shipped());
}

std::optional<proto::protocol_error> decode(const json& j) {
  cod::seat_view v;
  std::optional<proto::protocol_error> e;
  CHECK_NOTHROW(e = proto::view_from_json(j, shipped(), v));
  return e;
}

// Every object in `j` with its JSON pointer, depth first.
void objects(const json& j, const json::json_pointer& at, std::vector<json::json_pointer>& out) {
  if (j.is_object()) {
    out.push_back(at);
    for (auto it = j.begin(); it != j.end(); ++it) objects(it.value(), at / it.key(), out);
  } else if (j.is_array()) {
    for (std::size_t i = 0; i < j.size(); ++i) objects(j[i], at / i, out);
  }
}

}  // namespace

TEST_CASE("malformed views: an error naming the field, never an exception") {
  const json good = sample_view();
  REQUIRE_FALSE(decode(good));

  SUBCASE("not an object") {
    for (const json& j : {json(), json(3), json("view"), json::array()}) CHECK(decode(j));
  }
  SUBCASE("each required key missing, wherever it is") {
    const std::vector<std::string> optional = {"stall_exhaustion_turn", "chained_from", "sharpening_spent",
                                               "share_team_hands", "teammate", "teammate_hand"};
    std::vector<json::json_pointer> where;
    objects(good, json::json_pointer(), where);
    int missing = 0;
    for (const auto& at : where)
      for (auto it = good.at(at).begin(); it != good.at(at).end(); ++it) {
        if (std::find(optional.begin(), optional.end(), it.key()) != optional.end()) continue;
        json bad = good;
        bad.at(at).erase(it.key());
        CAPTURE(at.to_string() + "/" + it.key());
        const auto e = decode(bad);
        REQUIRE(e);
        CHECK(e->code == proto::protocol_errc::missing_field);
        CHECK(e->field.find(it.key()) != std::string::npos);
        ++missing;
      }
    CHECK(missing > 50);
  }
  SUBCASE("wrong types and values") {
    const char* pointers[] = {"/role", "/viewer", "/mode", "/turn", "/phase", "/winners", "/winners/0",
                              "/seats", "/seats/0/side", "/seats/1/seat", "/seats/0/champion", "/lines",
                              "/lines/0/sides", "/lines/0/sides/0/seat", "/hand/0/uid", "/hand/0/card_id",
                              "/playable/0", "/reason", "/stall_exhaustion_turn", "/teammate_hand/0"};
    for (const char* p : pointers) {
      const json::json_pointer at(p);
      if (!good.contains(at)) continue;  // e.g. no winners yet
      for (const json& value : {json("nonsense"), json(1.5), json(-7), json(1000000), json::object(), json::array(),
                                json(true)}) {
        json bad = good;
        bad[at] = value;
        const auto e = decode(bad);
        CAPTURE(std::string(p) + " = " + value.dump());
        // A few replacements are valid (an empty array of winners, a seat of 3...): only no exception then.
        // An object where a champion goes misses its keys.
        if (e) CHECK(e->code != proto::protocol_errc::bad_json);
      }
    }
    json bad = good;
    bad["role"] = "spectator";  // with a seat as viewer
    CHECK(decode(bad));
    bad = good;
    bad["lines"][0]["sides"].push_back(bad["lines"][0]["sides"][0]);
    CHECK(decode(bad));
  }
  SUBCASE("unknown card ids and abilities") {
    json bad = good;
    bad["hand"][0]["card_id"] = "no_such_card";
    auto e = decode(bad);
    REQUIRE(e);
    CHECK(e->code == proto::protocol_errc::bad_field_value);
    CHECK(e->field == "hand[0].card_id");
    bool creature = false;
    for (std::size_t l = 0; l < good["lines"].size() && !creature; ++l)
      for (int d = 0; d < 2 && !creature; ++d)
        if (!good["lines"][l]["sides"][d]["creatures"].empty()) {
          creature = true;
          bad = good;
          bad["lines"][l]["sides"][d]["creatures"][0]["abilities"] = {"telepathy"};
          e = decode(bad);
          REQUIRE(e);
          CHECK(e->field.find("abilities[0]") != std::string::npos);
          bad = good;
          bad["lines"][l]["sides"][d]["creatures"][0]["chained_from"] = {0, 1, 2};
          CHECK(decode(bad));
        }
    CHECK(creature);
  }
  SUBCASE("random damage: an answer, never an exception") {
    std::vector<json::json_pointer> where;
    objects(good, json::json_pointer(), where);
    cod::rng r(77);
    const json junk[] = {json(), json(0), json(-1), json(255), json(3.25), json("x"), json::array(), json::object(),
                         json::array({1, 2}), json(false)};
    for (int i = 0; i < 3000; ++i) {
      json bad = good;
      for (int k = 0; k < 3; ++k) {
        const auto& at = where[r.below(where.size())];
        if (!bad.contains(at)) continue;  // an earlier change took it away
        json& obj = bad.at(at);
        if (!obj.is_object() || obj.empty()) continue;
        auto it = obj.begin();
        std::advance(it, static_cast<long>(r.below(obj.size())));
        it.value() = junk[r.below(std::size(junk))];
      }
      (void)decode(bad);
    }
  }
}
