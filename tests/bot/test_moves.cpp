// cod-load reads its turns with the update scanner, cod-bot with the JSON
// path; both must play exactly the moves the bots played before turn_view
// (legacy_moves.hpp). Over a few hundred self-played games, for every
// position and every recipient: the two turn_views are equal, their
// candidate lists are equal and equal to the old list, the act text is the
// protocol library's, and the picker picks what the old one picked.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "bot/moves.hpp"
#include "bot/view_scan.hpp"
#include "cod/protocol/catalogue_json.hpp"
#include "cod/protocol/json_codec.hpp"
#include "cod/protocol/messages.hpp"
#include "games.hpp"
#include "legacy_moves.hpp"
#include "../shared/catalogue.hpp"

namespace {

using nlohmann::json;
using namespace cod;
using namespace cod::bot;
using namespace cod::bot_test;

// The picker as it was (a vector of wire actions).
class legacy_picker {
 public:
  explicit legacy_picker(std::uint64_t seed) : rng_(seed) {}
  void set_view(const json& view, const catalogue& cat) {
    moves_ = legacy_candidate_actions(view, cat);
    has_last_ = false;
  }
  const json* pick() {
    has_last_ = false;
    if (moves_.empty()) return nullptr;
    last_ = rng_.below(moves_.size());
    has_last_ = true;
    return &moves_[last_];
  }
  void refused() {
    if (!has_last_) return;
    moves_.erase(moves_.begin() + static_cast<std::ptrdiff_t>(last_));
    has_last_ = false;
  }

 private:
  move_rng rng_;
  std::vector<json> moves_;
  std::size_t last_ = 0;
  bool has_last_ = false;
};

std::string where(const update_sample& u) {
  return "game " + std::to_string(u.game) + ", position " + std::to_string(u.position) + ", recipient " +
         std::to_string(static_cast<int>(u.recipient)) + ": " + u.text.substr(0, 800);
}

}  // namespace

TEST_CASE("self-play: the scanner and the JSON path agree, and the moves are the old ones") {
  const catalogue& cat = cod::test::shipped();
  long samples = 0, turns = 0, moves_seen = 0, failures = 0;
  long creature_plays = 0, symbiote_plays = 0, incantation_plays = 0, champion_plays = 0, four_player_turns = 0;
  long picks = 0;
  turn_view scanned, parsed;  // reused: nothing may carry over from one text to the next
  std::vector<move> from_scan, from_json;
  std::map<int, legacy_picker> old_pickers;
  std::map<int, move_picker> new_pickers;
  long picker_game = -1;
  std::string act;

  const auto fail = [&](const update_sample& u, const std::string& what) {
    if (++failures <= 5) FAIL_CHECK(what << " (" << where(u) << ")");
  };

  for_each_update(cat, 0, 500, 400, [&](const update_sample& u) {
    ++samples;
    const json msg = json::parse(u.text);
    const json& view = msg.at("view");
    turn_view_from_json(view, cat, parsed);
    if (!scan_update_view(u.text, cat, scanned)) return fail(u, "the scanner refused a server update");
    if (!(scanned == parsed)) return fail(u, "the scanner and turn_view_from_json differ");
    if (parsed.my_turn() != my_turn(view)) return fail(u, "turn_view::my_turn differs from my_turn(view)");
    candidate_moves(scanned, cat, from_scan);
    candidate_moves(parsed, cat, from_json);
    if (from_scan != from_json) return fail(u, "the candidates differ");

    const std::vector<json> old = legacy_candidate_actions(view, cat);
    if (candidate_actions(view, cat) != old) return fail(u, "candidate_actions differs from the old list");
    if (old.size() != from_scan.size()) return fail(u, "not as many candidates as before");
    if (!parsed.my_turn()) return;
    ++turns;
    if (view.at("seats").size() == 4) ++four_player_turns;
    for (std::size_t i = 0; i < from_scan.size(); ++i) {
      const move& m = from_scan[i];
      ++moves_seen;
      if (move_to_json(m) != old[i]) return fail(u, "candidate " + std::to_string(i) + " differs: " + move_to_json(m).dump() + " vs " + old[i].dump());
      // The act frame: what cod-load sent through the protocol library.
      const auto parsed_action = protocol::parse_action(old[i], no_seat);
      if (move_on_wire(m) != parsed_action.ok()) return fail(u, "move_on_wire disagrees with parse_action");
      const std::int64_t id = (u.position % 2 ? (std::int64_t{1} << 40) : 0) + static_cast<std::int64_t>(i) * 7 + 1;
      act.clear();
      append_act_text(act, id, m);
      const std::string expected = protocol::client_message_to_json(protocol::act_msg{json(id), parsed_action.value}).dump();
      if (act != expected) return fail(u, "act text " + act + " vs " + expected);
      if (m.type == move::kind::end_turn) continue;
      if (m.target >= 0) ++incantation_plays;
      else if (m.host >= 0) ++symbiote_plays;
      else if (parsed.me.has_champion && m.card == parsed.me.champion_uid) ++champion_plays;
      else ++creature_plays;
    }

    // The picker: a generator per seat and game, picks and refusals as
    // cod-load makes them (a refusal, then another pick).
    if (u.game != picker_game) {
      picker_game = u.game;
      old_pickers.clear();
      new_pickers.clear();
    }
    const int seat = parsed.viewer;
    const std::uint64_t seed = static_cast<std::uint64_t>(u.game) * 31 + static_cast<std::uint64_t>(seat);
    auto& op = old_pickers.try_emplace(seat, seed).first->second;
    auto& np = new_pickers.try_emplace(seat, seed).first->second;
    op.set_view(view, cat);
    if (u.position % 2) np.set_view(view, cat);  // cod-bot's way (and cod-load's on a state)
    else np.set_view(scanned, cat);             // cod-load's on its turn's update
    for (std::size_t k = 0; k < 3 && k < from_scan.size(); ++k) {
      const json* a = op.pick();
      const move* b = np.pick();
      ++picks;
      if (!a || !b) return fail(u, "a picker gave nothing on the seat's turn");
      if (move_to_json(*b) != *a) return fail(u, "the pickers picked differently");
      op.refused();
      np.refused();
    }
  });

  CHECK(failures == 0);
  MESSAGE(samples << " update texts compared (" << turns << " on the recipient's turn, " << four_player_turns
                  << " of them with four seats), " << moves_seen << " candidates, " << picks << " picks; plays: "
                  << creature_plays << " creature, " << symbiote_plays << " Symbiote on a host, " << incantation_plays
                  << " incantation, " << champion_plays << " Champion");
  // The games reached every kind of candidate, or the comparison proves less
  // than it seems.
  CHECK(samples > 40000);
  CHECK(turns > 10000);
  CHECK(four_player_turns > 1000);
  CHECK(creature_plays > 0);
  CHECK(symbiote_plays > 0);
  CHECK(incantation_plays > 0);
  CHECK(champion_plays > 0);
}
