#include "bot/moves.hpp"

#include <algorithm>
#include <optional>

#include "cod/engine/types.hpp"

namespace cod::bot {

using nlohmann::json;

namespace {
// A side of a line holds at most this many creatures (engine max_side).
constexpr std::size_t side_capacity = static_cast<std::size_t>(max_side);

bool has_ability(const json& creature, std::string_view name) {
  const auto it = creature.find("abilities");
  if (it == creature.end() || !it->is_array()) return false;
  return std::any_of(it->begin(), it->end(), [&](const json& a) { return a.is_string() && a == name; });
}
}  // namespace

bool my_turn(const json& view) {
  if (!view.is_object()) return false;
  const auto viewer = view.find("viewer");
  if (viewer == view.end() || !viewer->is_number_integer()) return false;
  if (view.value("phase", "") != "summoning") return false;
  const auto active = view.find("active_seat");
  return active != view.end() && *active == *viewer;
}

void turn_view::clear_board() {
  me = {};
  creatures.clear();
  hand.clear();
  playable.clear();
}

namespace {
std::optional<card_id> card_of(const json& card_id_field, const catalogue& cat) {
  if (!card_id_field.is_string()) return std::nullopt;
  return cat.find(card_id_field.get_ref<const std::string&>());
}
}  // namespace

void turn_view_from_json(const json& view, const catalogue& cat, turn_view& out) {
  out.viewer = -1;
  out.active_seat = -1;
  out.summoning = false;
  out.clear_board();
  if (!view.is_object()) return;
  if (const auto it = view.find("viewer"); it != view.end() && it->is_number_integer()) out.viewer = it->get<int>();
  if (const auto it = view.find("active_seat"); it != view.end() && it->is_number_integer())
    out.active_seat = it->get<int>();
  out.summoning = view.value("phase", "") == "summoning";
  if (!out.my_turn()) return;

  const json& seat = view.at("seats").at(static_cast<std::size_t>(out.viewer));
  out.me.mana = seat.at("mana").get<int>();
  out.me.upper_line = seat.at("upper_line").get<int>();
  out.me.lower_line = seat.at("lower_line").get<int>();
  const json& champion = seat.at("champion");
  if (champion.is_object()) {
    out.me.has_champion = true;
    out.me.champion_ready = champion.value("state", "") == "ready";
    out.me.champion_uid = champion.at("uid").get<int>();
    out.me.champion_id = card_of(champion.at("card_id"), cat);
  }
  const json& lines = view.at("lines");
  for (std::size_t l = 0; l < lines.size(); ++l)
    for (const json& side : lines[l].at("sides")) {
      const json& side_seat = side.at("seat");
      const int seat_of_side = side_seat.is_number_integer() ? side_seat.get<int>() : -1;
      for (const json& c : side.at("creatures"))
        out.creatures.push_back({c.at("uid").get<int>(), static_cast<int>(l), seat_of_side, c.at("top").is_null(),
                                 has_ability(c, "symbiote"), card_of(c.at("card_id"), cat)});
    }
  for (const json& card : view.at("hand")) out.hand.push_back({card.at("uid").get<int>(), card_of(card.at("card_id"), cat)});
  for (const json& uid : view.at("playable")) out.playable.push_back(uid.get<int>());
}

void candidate_moves(const turn_view& v, const catalogue& cat, std::vector<move>& out) {
  out.clear();
  if (!v.my_turn()) return;
  const int line_of[2] = {v.me.upper_line, v.me.lower_line};
  const auto playable = [&](int uid) { return std::find(v.playable.begin(), v.playable.end(), uid) != v.playable.end(); };

  // The board: every creature is an incantation target; the seat's own, per
  // line, tell the room on its side and the Symbiote hosts.
  std::size_t own_count[2] = {0, 0};
  for (const turn_view::creature& c : v.creatures)
    if (c.side_seat == v.viewer)
      for (int k = 0; k < 2; ++k)
        if (line_of[k] == c.line) ++own_count[k];

  for (std::size_t i = 0; i < v.hand.size(); ++i) {
    const turn_view::card& card = v.hand[i];
    if (!playable(card.uid) || !card.id) continue;
    const card_stats& st = cat.stats(*card.id);
    int cost = st.mana;
    if (i == 0 && has(st.abilities, ability::lucidity)) cost = std::max(0, cost - 2);
    if (cost > v.me.mana && !has(st.abilities, ability::price_of_blood)) continue;
    if (st.type == card_type::creature) {
      for (int k = 0; k < 2; ++k) {
        if (own_count[k] < side_capacity) out.push_back({move::kind::play, card.uid, k, -1, -1});
        if (has(st.abilities, ability::symbiote))
          for (const turn_view::creature& c : v.creatures)
            if (c.side_seat == v.viewer && c.line == line_of[k] && c.top_null && !c.symbiote)
              out.push_back({move::kind::play, card.uid, k, c.uid, -1});
      }
    } else {
      for (const turn_view::creature& c : v.creatures) out.push_back({move::kind::play, card.uid, -1, -1, c.uid});
    }
  }
  // R13.2: the Champion, beside the play area while ready; always among the
  // playable cards, at its cost less 1 per creature in play of that cost.
  if (v.me.has_champion && v.me.champion_ready && v.me.champion_id && playable(v.me.champion_uid)) {
    const int printed = cat.stats(*v.me.champion_id).mana;
    int cost = printed;
    for (const turn_view::creature& c : v.creatures)
      if (c.id && cat.stats(*c.id).mana == printed) --cost;
    if (std::max(cost, 0) <= v.me.mana || has(cat.stats(*v.me.champion_id).abilities, ability::price_of_blood))
      for (int k = 0; k < 2; ++k)
        if (own_count[k] < side_capacity) out.push_back({move::kind::play, v.me.champion_uid, k, -1, -1});
  }
  out.push_back({});  // end_turn
}

namespace {
constexpr const char* line_name[2] = {"upper", "lower"};
}  // namespace

json move_to_json(const move& m) {
  if (m.type == move::kind::end_turn) return {{"type", "end_turn"}};
  if (m.target >= 0) return {{"type", "play"}, {"card", m.card}, {"target", m.target}};
  if (m.host >= 0) return {{"type", "play"}, {"card", m.card}, {"line", line_name[m.line]}, {"host", m.host}};
  return {{"type", "play"}, {"card", m.card}, {"line", line_name[m.line]}};
}

bool move_on_wire(const move& m) {
  const auto uid = [](int u) { return u >= 0 && u < max_uids; };
  if (m.type == move::kind::end_turn) return true;
  return uid(m.card) && (m.target < 0 || uid(m.target)) && (m.host < 0 || uid(m.host));
}

void append_act_text(std::string& out, std::int64_t id, const move& m) {
  // nlohmann's dump: keys in ascending order, no spaces.
  out += "{\"action\":{";
  if (m.type == move::kind::play) {
    out += "\"card\":";
    out += std::to_string(m.card);
    if (m.target >= 0) {
      out += ",\"target\":";
      out += std::to_string(m.target);
    } else {
      if (m.host >= 0) {
        out += ",\"host\":";
        out += std::to_string(m.host);
      }
      out += ",\"line\":\"";
      out += line_name[m.line];
      out += '"';
    }
    out += ",\"type\":\"play\"}";
  } else {
    out += "\"type\":\"end_turn\"}";
  }
  out += ",\"id\":";
  out += std::to_string(id);
  out += ",\"type\":\"act\"}";
}

std::vector<json> candidate_actions(const json& view, const catalogue& cat) {
  turn_view v;
  turn_view_from_json(view, cat, v);
  std::vector<move> moves;
  candidate_moves(v, cat, moves);
  std::vector<json> out;
  out.reserve(moves.size());
  for (const move& m : moves) out.push_back(move_to_json(m));
  return out;
}

std::string pick_champion(std::uint64_t seed, const catalogue& cat, const std::vector<card_id>& deck) {
  move_rng rng(seed ^ 0xC3A5C85C97CB3127ULL);
  std::vector<card_id> pool;
  for (std::size_t c = 0; c < cat.size(); ++c) {
    const auto id = static_cast<card_id>(c);
    if (cat.stats(id).type == card_type::creature && std::find(deck.begin(), deck.end(), id) == deck.end())
      pool.push_back(id);
  }
  if (pool.empty()) return {};
  return cat.def(pool[rng.below(pool.size())]).id;
}

void move_picker::set_view(const json& view, const catalogue& cat) {
  turn_view_from_json(view, cat, view_);
  set_view(view_, cat);
}

void move_picker::set_view(const turn_view& view, const catalogue& cat) {
  candidate_moves(view, cat, moves_);
  has_last_ = false;
}

const move* move_picker::pick() {
  has_last_ = false;
  if (moves_.empty()) return nullptr;
  last_ = rng_.below(moves_.size());
  has_last_ = true;
  return &moves_[last_];
}

void move_picker::refused() {
  if (!has_last_) return;
  moves_.erase(moves_.begin() + static_cast<std::ptrdiff_t>(last_));
  has_last_ = false;
}

std::string parse_card_list(const std::string& text, std::vector<std::string>& out) {
  out.clear();
  std::size_t start = 0;
  while (start <= text.size()) {
    const auto comma = text.find(',', start);
    const auto end = comma == std::string::npos ? text.size() : comma;
    std::string id = text.substr(start, end - start);
    if (id.empty()) return "empty card id in --cards";
    out.push_back(std::move(id));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (out.empty()) return "--cards needs card ids";
  return {};
}

}  // namespace cod::bot
