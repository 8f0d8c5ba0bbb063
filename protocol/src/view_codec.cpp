// Views on the wire: a seat_view, field for field, with names for enums and
// catalogue ids beside uids. project() has already hidden what the viewer may
// not see (R16.2); this adds nothing and drops nothing.
#include <nlohmann/json.hpp>

#include "cod/protocol/json_codec.hpp"
#include "cod/protocol/wire_names.hpp"
#include "json_util.hpp"

namespace cod::protocol {
namespace {

using json = nlohmann::json;
using detail::seat_json;

json card_id_json(const catalogue& cat, card_id c) {
  return c < cat.size() ? json(cat.def(c).id) : json(nullptr);
}

json card_json(const catalogue& cat, const card_ref& r) {
  return {{"uid", static_cast<int>(r.uid)}, {"card_id", card_id_json(cat, r.card)}};
}

json cards_json(const catalogue& cat, const std::vector<card_ref>& refs) {
  json out = json::array();
  for (const card_ref& r : refs) out.push_back(card_json(cat, r));
  return out;
}

json creature_json(const catalogue& cat, const creature_view& c) {
  return {
      {"uid", static_cast<int>(c.uid)},
      {"card_id", card_id_json(cat, c.card)},
      // R7 Symbiote: the card stacked on this one, or null.
      {"top", c.top.uid == no_uid ? json(nullptr) : card_json(cat, c.top)},
      // R7 Chain: the cards held under it (revealed when taken).
      {"chained", cards_json(cat, c.chained)},
      {"av", c.av},
      {"hp", c.hp},
      {"damage", c.damage},
      {"bonus_av", c.bonus_av},
      {"abilities", abilities_to_json(c.abilities)},
      {"entered_this_turn", c.entered_this_turn},
      {"attacked", c.attacked},
      {"protection_used", c.protection_used},
  };
}

json line_json(const catalogue& cat, const line_view& line) {
  json sides = json::array();
  for (const side_view& side : line.sides) {
    json creatures = json::array();
    for (const creature_view& c : side.creatures) creatures.push_back(creature_json(cat, c));
    sides.push_back({{"seat", seat_json(side.seat)}, {"creatures", std::move(creatures)}});
  }
  return {{"sides", std::move(sides)}};
}

json seat_public_json(const catalogue& cat, int seat, const seat_public& p) {
  json j = {
      {"seat", seat},
      {"hand_size", p.hand_size},
      {"stronghold_pos", p.stronghold_pos},
      {"side", stronghold_side_name(p.side)},
      {"health", p.health},
      {"mana", p.mana},
      {"upper_line", p.upper_line},
      {"lower_line", p.lower_line},
      // R13: the seat's Champion (revealed to every viewer), or null.
      {"champion", p.champion.uid == no_uid
                       ? json(nullptr)
                       : json{{"uid", static_cast<int>(p.champion.uid)},
                              {"card_id", card_id_json(cat, p.champion.card)},
                              {"state", champion_status_name(p.champion.state)}}},
  };
  // R12.1, R16.2 (solo, co-op): an AI seat's deck size and face-up discard
  // pile (bottom to top); never its deck's order.
  if (p.ai) {
    j["ai"] = true;
    j["deck_size"] = p.deck_size;
    j["discard"] = cards_json(cat, p.discard);
  }
  return j;
}

}  // namespace

json abilities_to_json(ability_set s) {
  json names = json::array();
  for (int i = 0; i < ability_count; ++i)
    if (has(s, static_cast<ability>(i))) names.push_back(ability_name(static_cast<ability>(i)));
  return names;
}

json view_to_json(const seat_view& v, const catalogue& cat) {
  json j = {
      {"role", protocol::viewer_role_name(v.viewer)},
      {"viewer", v.viewer >= 0 ? json(static_cast<int>(v.viewer)) : json(nullptr)},
      {"mode", game_mode_name(v.mode)},
      {"exhaustion_rule", v.exhaustion_rule},
      {"exhausted", v.exhausted},
      {"turn", v.turn},
      {"round", v.round},
      {"first_seat", seat_json(v.first_seat)},
      {"active_seat", seat_json(v.active_seat)},
      {"phase", protocol::phase_name(v.current_phase)},
      {"winners", detail::seats_json(v.winners)},
      {"loser", seat_json(v.loser)},
      {"reason", protocol::end_reason_name(v.reason)},
  };

  json seats = json::array();
  for (std::size_t s = 0; s < v.seats.size(); ++s)
    seats.push_back(seat_public_json(cat, static_cast<int>(s), v.seats[s]));
  j["seats"] = std::move(seats);

  json lines = json::array();
  for (const line_view& line : v.lines) lines.push_back(line_json(cat, line));
  j["lines"] = std::move(lines);

  j["removed"] = cards_json(cat, v.removed);
  j["hand"] = cards_json(cat, v.hand);
  json playable = json::array();
  for (card_uid u : v.playable) playable.push_back(static_cast<int>(u));
  j["playable"] = std::move(playable);

  // R11.6 (2v2): who the teammate is; its hand only with share_team_hands.
  if (v.mode == game_mode::two_vs_two) {
    j["share_team_hands"] = v.share_team_hands;
    if (v.teammate != no_seat) j["teammate"] = static_cast<int>(v.teammate);
    if (v.share_team_hands && v.teammate != no_seat) j["teammate_hand"] = cards_json(cat, v.teammate_hand);
  }
  if (!v.all_hands.empty()) {
    json hands = json::array();
    for (const auto& hand : v.all_hands) hands.push_back(cards_json(cat, hand));
    j["all_hands"] = std::move(hands);
  }
  if (!v.ai_decks.empty()) {  // referee only (R16.2): each AI's deck, top first
    json decks = json::array();
    for (const auto& deck : v.ai_decks) decks.push_back(cards_json(cat, deck));
    j["ai_decks"] = std::move(decks);
  }
  return j;
}

}  // namespace cod::protocol
