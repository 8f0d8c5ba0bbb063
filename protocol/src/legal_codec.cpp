// The legal-actions list: the engine's flat list grouped by card, and back.
#include <nlohmann/json.hpp>

#include "cod/protocol/legal_actions.hpp"
#include "cod/protocol/wire_names.hpp"

namespace cod::protocol {

using json = nlohmann::json;

json legal_actions_to_json(std::span<const action> legal, seat_t seat) {
  json plays = json::array();
  bool end_turn = false;
  for (const action& a : legal) {
    if (a.seat != seat) continue;
    if (a.type == action_type::end_turn) {
      end_turn = true;
      continue;
    }
    if (a.type != action_type::play) continue;
    // The engine lists a card's plays together; finding the entry keeps one
    // entry per card even if it did not.
    json* entry = nullptr;
    for (auto& p : plays)
      if (p["card"] == static_cast<int>(a.card)) entry = &p;
    if (!entry) entry = &plays.emplace_back(json{{"card", static_cast<int>(a.card)}});
    if (a.target != no_uid) (*entry)["targets"].push_back(static_cast<int>(a.target));
    else if (a.host != no_uid) (*entry)["hosts"].push_back({{"host", static_cast<int>(a.host)}, {"line", seat_line_name(a.line)}});
    else (*entry)["lines"].push_back(seat_line_name(a.line));
  }
  return {{"plays", std::move(plays)}, {"end_turn", end_turn}};
}

std::string legal_actions_text(std::span<const action> legal, seat_t seat) {
  return legal_actions_to_json(legal, seat).dump();
}

namespace {

bool read_uid(const json& v, card_uid& out) {
  if (!v.is_number_integer()) return false;
  const auto n = v.get<std::int64_t>();
  if (n < 0 || n >= max_uids) return false;
  out = static_cast<card_uid>(n);
  return true;
}

bool read_line(const json& v, int& out) {
  if (!v.is_string()) return false;
  const auto l = seat_line_from_name(v.get_ref<const std::string&>());
  if (!l) return false;
  out = *l;
  return true;
}

// Fills `out` from one "plays" entry; false when it is malformed.
bool read_play(const json& p, seat_t seat, std::vector<action>& out) {
  if (!p.is_object()) return false;
  card_uid card = no_uid;
  if (!p.contains("card") || !read_uid(p["card"], card)) return false;
  for (auto it = p.begin(); it != p.end(); ++it)
    if (it.key() != "card" && it.key() != "lines" && it.key() != "hosts" && it.key() != "targets") return false;
  // In the documented order: lines, hosts, targets.
  if (const auto it = p.find("lines"); it != p.end()) {
    if (!it->is_array()) return false;
    for (const json& v : *it) {
      int line = 0;
      if (!read_line(v, line)) return false;
      out.push_back(action::play_creature(seat, card, line));
    }
  }
  if (const auto it = p.find("hosts"); it != p.end()) {
    if (!it->is_array()) return false;
    for (const json& v : *it) {
      card_uid host = no_uid;
      int line = 0;
      if (!v.is_object() || !v.contains("host") || !v.contains("line") || v.size() != 2 || !read_uid(v["host"], host) ||
          !read_line(v["line"], line))
        return false;
      out.push_back(action::play_symbiote(seat, card, line, host));
    }
  }
  if (const auto it = p.find("targets"); it != p.end()) {
    if (!it->is_array()) return false;
    for (const json& v : *it) {
      card_uid target = no_uid;
      if (!read_uid(v, target)) return false;
      out.push_back(action::play_incantation(seat, card, target));
    }
  }
  return true;
}

}  // namespace

std::optional<std::vector<action>> legal_actions_from_json(const json& j, seat_t seat) {
  if (!j.is_object() || !j.contains("plays") || !j.contains("end_turn")) return std::nullopt;
  const json& plays = j["plays"];
  const json& end = j["end_turn"];
  if (!plays.is_array() || !end.is_boolean()) return std::nullopt;
  std::vector<action> out;
  for (const json& p : plays)
    if (!read_play(p, seat, out)) return std::nullopt;
  if (end.get<bool>()) out.push_back(action::end(seat));
  return out;
}

}  // namespace cod::protocol
