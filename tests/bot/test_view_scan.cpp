// The update scanner on texts the server does not send as-is: escaped
// strings where it skips them (it must read on), whitespace, and shapes it
// must refuse (cod-load then parses the text with nlohmann). Whatever it
// accepts, it must read as turn_view_from_json reads the parsed text.
#include <string>
#include <vector>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "bot/moves.hpp"
#include "bot/view_scan.hpp"
#include "cod/engine/rng.hpp"
#include "games.hpp"
#include "../shared/catalogue.hpp"

namespace {

using nlohmann::json;
using namespace cod;
using namespace cod::bot;
using namespace cod::bot_test;

// Updates of a duel with Champions (game 3's setup) on the recipient's turn
// with creatures on the board, the Champion not yet played.
const std::vector<std::string>& turn_texts() {
  static const std::vector<std::string> texts = [] {
    std::vector<std::string> out;
    const catalogue& cat = cod::test::shipped();
    turn_view v;
    for_each_update(cat, 3, 1, 400, [&](const update_sample& u) {
      if (!scan_update_view(u.text, cat, v)) return;
      if (v.my_turn() && v.creatures.size() >= 3 && v.me.has_champion && v.me.champion_ready) out.push_back(u.text);
    });
    return out;
  }();
  return texts;
}

// Both ways of reading `text`: the scanner (false when it refuses) and, when
// it accepts, the JSON path, which must agree.
bool scan_agrees(const std::string& text, turn_view& scanned) {
  if (!scan_update_view(text, cod::test::shipped(), scanned)) return false;
  turn_view parsed;
  turn_view_from_json(json::parse(text).at("view"), cod::test::shipped(), parsed);
  CHECK(scanned == parsed);
  return true;
}

// `text` with the first `from` after `after` (the view, by default: events
// may hold the same keys) replaced by `to`.
std::string replaced(std::string text, const std::string& from, const std::string& to,
                     const std::string& after = "\"view\":{") {
  const auto at = text.find(from, text.find(after));
  REQUIRE_MESSAGE(at != std::string::npos, from);
  return text.replace(at, from.size(), to);
}

}  // namespace

TEST_CASE("the sample positions exist") {
  REQUIRE(turn_texts().size() >= 3);
}

TEST_CASE("escaped strings and nesting in what the scanner skips") {
  const catalogue& cat = cod::test::shipped();
  match m;
  std::vector<event> events;
  REQUIRE(match::create(cat, game_config(cat, 0), m, events) == rule_error::ok);
  const seat_t active = m.active_seat();
  // Events, room and ack id full of escapes, and brackets inside strings.
  json noisy = protocol::events_to_json(events, active, cat, protocol::uid_cards_from_view(m.view(referee)));
  noisy.push_back({{"name", "a \"quoted\" \\ name } ] { [ , : \u00e9 \u2603 \n\t\x01"},
                   {"nested", json::parse(R"([[[{"a":[1,-2.5e3,true,false,null,{"b":"\\\"}"}]}]]])")}});
  const json ack = "\\\"}\u00e9";
  const std::string text = protocol::update_text("room \"}\\", 12, noisy, m.view(active), cat, {}, &ack);
  REQUIRE(text.find("\\\"quoted\\\"") != std::string::npos);
  turn_view v;
  CHECK(scan_agrees(text, v));
  CHECK(v.my_turn());

  SUBCASE("whitespace between tokens") {
    turn_view w;
    CHECK(scan_agrees(json::parse(text).dump(2), w));
    CHECK(w == v);
  }
  SUBCASE("nesting: 60 levels are skipped, 70 refused") {
    std::string deep60 = std::string(60, '[') + std::string(60, ']');
    std::string deep70 = std::string(70, '[') + std::string(70, ']');
    turn_view w;
    CHECK(scan_agrees(replaced(text, "\"events\":[", "\"events\":[" + deep60 + ",", ""), w));
    CHECK(w == v);
    CHECK_FALSE(scan_update_view(replaced(text, "\"events\":[", "\"events\":[" + deep70 + ",", ""), cat, w));
  }
}

TEST_CASE("unexpected shapes are refused") {
  const catalogue& cat = cod::test::shipped();
  const std::string& text = turn_texts().front();
  turn_view v;
  REQUIRE(scan_agrees(text, v));
  const std::string viewer = "\"viewer\":" + std::to_string(v.viewer);
  const std::string mana = "\"mana\":" + std::to_string(v.me.mana);
  const std::string view_text = json::parse(text).at("view").dump();
  // The first seat object of "seats" (no strings hold braces there).
  const auto seat_at = text.find("\"seats\":[", text.find("\"view\":{")) + 9;
  std::size_t seat_end = seat_at;
  for (int depth = 0; seat_end == seat_at || depth > 0; ++seat_end) depth += text[seat_end] == '{' ? 1 : text[seat_end] == '}' ? -1 : 0;
  const std::string seat = text.substr(seat_at, seat_end - seat_at);
  REQUIRE(seat.front() == '{');
  REQUIRE(seat.back() == '}');
  const auto playable_end = text.find(']', text.find("\"playable\":[", text.find("\"view\":{")));

  // Each of these is refused; cod-load then parses the text with nlohmann.
  const std::vector<std::pair<const char*, std::string>> refused = {
      {"empty", ""},
      {"not an object", "[" + text + "]"},
      {"null", "null"},
      {"truncated", text.substr(0, text.size() - 1)},
      {"trailing bytes", text + "x"},
      {"two objects", text + text},
      {"an escaped phase", replaced(text, "\"phase\":\"summoning\"", "\"phase\":\"summ\\u006fning\"")},
      {"an escaped key", replaced(text, "\"view\":", "\"\\u0076iew\":", "")},
      {"an escaped card id", replaced(text, "\"hand\":[{\"card_id\":\"", "\"hand\":[{\"card_id\":\"\\u0062")},
      {"a repeated view", text.substr(0, text.size() - 1) + ",\"view\":" + view_text + "}"},
      {"a repeated key in the view", replaced(text, viewer, viewer + "," + viewer)},
      {"a missing key", replaced(text, "\"playable\":", "\"playablx\":")},
      {"a string seat", replaced(text, viewer, "\"viewer\":\"" + std::to_string(v.viewer) + "\"")},
      {"a negative seat", replaced(text, viewer, "\"viewer\":-1")},
      {"a fraction", replaced(text, mana, mana + ".0")},
      {"an exponent", replaced(text, mana, mana + "e0")},
      {"a leading zero", replaced(text, mana, "\"mana\":0" + std::to_string(v.me.mana))},
      {"an integer beyond int", replaced(text, mana, mana + "0000000000")},
      {"a non-string ability", replaced(text, "\"abilities\":[", "\"abilities\":[1,")},
      {"a Champion that is a number", replaced(text, "\"champion\":{", "\"champion\":5,\"x\":{")},
      {"a creature without top", replaced(text, "\"top\":", "\"tpo\":")},
      {"a leading comma", replaced(text, "\"hand\":[", "\"hand\":[,")},
      {"a trailing comma", text.substr(0, playable_end) + "," + text.substr(playable_end)},
      {"a trailing comma in an object", text.substr(0, text.size() - 1) + ",}"},
      {"a raw control character", replaced(text, "\"room\":\"", "\"room\":\"\x01", "")},
      {"a bad escape", replaced(text, "\"room\":\"", "\"room\":\"\\x", "")},
      {"a short \\u escape", replaced(text, "\"room\":\"", "\"room\":\"\\u12\"", "")},
      {"a bad literal", replaced(text, "\"top\":null", "\"top\":nul")},
      {"five seats", replaced(text, "\"seats\":[", "\"seats\":[" + seat + "," + seat + "," + seat + ",")},
  };
  for (const auto& [what, bad] : refused) {
    const std::string shape = what;
    CAPTURE(shape);
    CHECK_FALSE(scan_update_view(bad, cat, v));
  }
  // Four seats are within bounds (the duel's two and two copies of seat 0).
  turn_view four;
  CHECK(scan_agrees(replaced(text, "\"seats\":[", "\"seats\":[" + seat + "," + seat + ","), four));
  // Every strict prefix of a real update.
  long accepted_prefixes = 0;
  for (std::size_t n = 0; n < text.size(); ++n) accepted_prefixes += scan_update_view(std::string_view(text).substr(0, n), cat, v);
  CHECK(accepted_prefixes == 0);
}

TEST_CASE("what the scanner accepts, it reads as the JSON path does") {
  const std::string& text = turn_texts().front();
  turn_view v;
  REQUIRE(scan_agrees(text, v));
  SUBCASE("an unknown card id: nullopt both ways, the card skipped") {
    turn_view w;
    CHECK(scan_agrees(replaced(text, "\"hand\":[{\"card_id\":\"", "\"hand\":[{\"card_id\":\"zz"), w));
    REQUIRE_FALSE(w.hand.empty());
    CHECK_FALSE(w.hand.front().id);
  }
  SUBCASE("a null card id") {
    turn_view w;
    const auto at = text.find("\"hand\":[{\"card_id\":\"", text.find("\"view\":{")) + 19;
    const auto end = text.find('"', at + 1);
    CHECK(scan_agrees(text.substr(0, at) + "null" + text.substr(end + 1), w));
    CHECK_FALSE(w.hand.front().id);
  }
  SUBCASE("keys the view does not have yet are skipped") {
    turn_view w;
    CHECK(scan_agrees(replaced(text, "\"view\":{", "\"view\":{\"aaa\":{\"seats\":[1,2,3]},", ""), w));
    CHECK(w == v);
  }
  SUBCASE("another seat's view of the same position: not its turn, only the turn fields") {
    turn_view w;
    const std::string other = "\"viewer\":" + std::to_string(1 - v.viewer);
    CHECK(scan_agrees(replaced(text, "\"viewer\":" + std::to_string(v.viewer), other), w));
    CHECK_FALSE(w.my_turn());
    CHECK(w.creatures.empty());
    CHECK(w.hand.empty());
  }
}

TEST_CASE("mutated updates: accepted only when the JSON path reads the same") {
  // One printable byte changed at a time in real updates: most mutations
  // break the text (refused), some change a value or a key; whatever the
  // scanner accepts must be JSON that turn_view_from_json reads identically.
  const catalogue& cat = cod::test::shipped();
  rng r(12345);
  long accepted = 0, refused = 0, disagreements = 0;
  turn_view scanned, parsed;
  for (const std::string& text : turn_texts()) {
    for (int k = 0; k < 1000; ++k) {
      std::string t = text;
      const auto at = static_cast<std::size_t>(r.below(t.size()));
      t[at] = static_cast<char>(0x20 + r.below(0x7f - 0x20));
      if (!scan_update_view(t, cat, scanned)) {
        ++refused;
        continue;
      }
      ++accepted;
      const json j = json::parse(t, nullptr, false);
      bool same = !j.is_discarded() && j.is_object() && j.contains("view");
      if (same) {
        try {
          turn_view_from_json(j.at("view"), cat, parsed);
          same = parsed == scanned;
        } catch (const std::exception&) {
          same = false;
        }
      }
      if (!same && ++disagreements <= 3) FAIL_CHECK("accepted, read differently: byte " << at << " of " << t);
    }
  }
  MESSAGE(accepted << " mutated updates accepted (and read as the JSON path reads them), " << refused << " refused");
  CHECK(disagreements == 0);
  CHECK(accepted > 100);
  CHECK(refused > 100);
}
