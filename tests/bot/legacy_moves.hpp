// The move list before turn_view (the code at the start of branch lean-load,
// verbatim but for the names): the oracle the new paths must match, so that
// cod-load and cod-bot play exactly the moves they played before.
#pragma once

#include <algorithm>
#include <optional>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "cod/engine/catalogue.hpp"
#include "cod/engine/types.hpp"

namespace cod::bot_test {

using nlohmann::json;

namespace legacy_detail {
// A side of a line holds at most this many creatures (engine max_side).
constexpr std::size_t side_capacity = static_cast<std::size_t>(max_side);

inline bool has_ability(const json& creature, std::string_view name) {
  const auto it = creature.find("abilities");
  if (it == creature.end() || !it->is_array()) return false;
  return std::any_of(it->begin(), it->end(), [&](const json& a) { return a.is_string() && a == name; });
}
}  // namespace legacy_detail
using namespace legacy_detail;

inline bool legacy_my_turn(const json& view) {
  if (!view.is_object()) return false;
  const auto viewer = view.find("viewer");
  if (viewer == view.end() || !viewer->is_number_integer()) return false;
  if (view.value("phase", "") != "summoning") return false;
  const auto active = view.find("active_seat");
  return active != view.end() && *active == *viewer;
}

inline std::vector<json> legacy_candidate_actions(const json& view, const catalogue& cat) {
  std::vector<json> out;
  if (!legacy_my_turn(view)) return out;
  const int me = view.at("viewer").get<int>();
  const json& seat = view.at("seats").at(static_cast<std::size_t>(me));
  const int mana = seat.at("mana").get<int>();
  const int line_of[2] = {seat.at("upper_line").get<int>(), seat.at("lower_line").get<int>()};
  static constexpr const char* line_name[2] = {"upper", "lower"};

  // The board: every creature (incantation targets), and the seat's own per
  // line (room on its side, Symbiote hosts).
  std::vector<int> all_creatures;
  std::size_t own_count[2] = {0, 0};
  std::vector<int> hosts[2];
  const json& lines = view.at("lines");
  for (std::size_t l = 0; l < lines.size(); ++l) {
    for (const json& side : lines[l].at("sides")) {
      const bool mine = side.at("seat").is_number_integer() && side.at("seat").get<int>() == me;
      for (const json& c : side.at("creatures")) {
        const int uid = c.at("uid").get<int>();
        all_creatures.push_back(uid);
        if (!mine) continue;
        for (int k = 0; k < 2; ++k) {
          if (line_of[k] != static_cast<int>(l)) continue;
          ++own_count[k];
          if (c.at("top").is_null() && !has_ability(c, "symbiote")) hosts[k].push_back(uid);
        }
      }
    }
  }

  const json& hand = view.at("hand");
  const json& playable = view.at("playable");
  for (std::size_t i = 0; i < hand.size(); ++i) {
    const json& card = hand[i];
    const int uid = card.at("uid").get<int>();
    if (std::find(playable.begin(), playable.end(), uid) == playable.end()) continue;
    if (!card.at("card_id").is_string()) continue;
    const auto id = cat.find(card.at("card_id").get_ref<const std::string&>());
    if (!id) continue;
    const card_stats& st = cat.stats(*id);
    int cost = st.mana;
    if (i == 0 && has(st.abilities, ability::lucidity)) cost = std::max(0, cost - 2);
    if (cost > mana && !has(st.abilities, ability::price_of_blood)) continue;
    if (st.type == card_type::creature) {
      for (int k = 0; k < 2; ++k) {
        if (own_count[k] < side_capacity) out.push_back({{"type", "play"}, {"card", uid}, {"line", line_name[k]}});
        if (has(st.abilities, ability::symbiote))
          for (int host : hosts[k])
            out.push_back({{"type", "play"}, {"card", uid}, {"line", line_name[k]}, {"host", host}});
      }
    } else {
      for (int target : all_creatures) out.push_back({{"type", "play"}, {"card", uid}, {"target", target}});
    }
  }
  // R13.2: the Champion, beside the play area while ready; always among the
  // playable cards, at its cost less 1 per creature in play of that cost.
  const json& champion = seat.at("champion");
  if (champion.is_object() && champion.value("state", "") == "ready" && champion.at("card_id").is_string() &&
      std::find(playable.begin(), playable.end(), champion.at("uid")) != playable.end()) {
    if (const auto id = cat.find(champion.at("card_id").get_ref<const std::string&>())) {
      const int printed = cat.stats(*id).mana;
      int cost = printed;
      for (const json& line : lines)
        for (const json& side : line.at("sides"))
          for (const json& c : side.at("creatures")) {
            const auto base = c.at("card_id").is_string() ? cat.find(c.at("card_id").get_ref<const std::string&>())
                                                          : std::nullopt;
            if (base && cat.stats(*base).mana == printed) --cost;
          }
      if (std::max(cost, 0) <= mana || has(cat.stats(*id).abilities, ability::price_of_blood))
        for (int k = 0; k < 2; ++k)
          if (own_count[k] < side_capacity)
            out.push_back({{"type", "play"}, {"card", champion.at("uid")}, {"line", line_name[k]}});
    }
  }
  out.push_back({{"type", "end_turn"}});
  return out;
}

}  // namespace cod::bot_test
