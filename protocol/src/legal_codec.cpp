// The legal-actions list: the engine's flat list grouped by card, and back.
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "cod/protocol/legal_actions.hpp"
#include "cod/protocol/wire_names.hpp"

namespace cod::protocol {

using json = nlohmann::json;

namespace {

// One card's options, gathered from the engine's list.
struct card_options {
  card_uid card = no_uid;
  std::vector<int> lines;
  std::vector<std::pair<card_uid, int>> hosts;  // host, line
  std::vector<card_uid> targets;
};

struct grouped_actions {
  std::vector<card_options> plays;  // in the engine's order of first appearance
  bool end_turn = false;
};

// The seat's entries of the engine's list, one per card. The engine lists a
// card's plays together; finding the entry keeps one entry per card even if
// it did not.
grouped_actions group(std::span<const action> legal, seat_t seat) {
  grouped_actions g;
  for (const action& a : legal) {
    if (a.seat != seat) continue;
    if (a.type == action_type::end_turn) {
      g.end_turn = true;
      continue;
    }
    if (a.type != action_type::play) continue;
    card_options* entry = nullptr;
    for (auto& p : g.plays)
      if (p.card == a.card) entry = &p;
    if (!entry) entry = &g.plays.emplace_back(card_options{a.card, {}, {}, {}});
    if (a.target != no_uid) entry->targets.push_back(a.target);
    else if (a.host != no_uid) entry->hosts.emplace_back(a.host, a.line);
    else entry->lines.push_back(a.line);
  }
  return g;
}

const play_preview* preview_of(std::span<const play_preview> previews, card_uid card) {
  for (const play_preview& p : previews)
    if (p.card == card) return &p;
  return nullptr;
}

void append_line(std::string& out, int line) {
  out += '"';
  out += seat_line_name(line);
  out += '"';
}

}  // namespace

std::vector<play_preview> play_previews(const match& m, std::span<const action> legal, seat_t seat) {
  std::vector<play_preview> out;
  std::vector<card_uid> own;  // the seat's creatures in play, read once if an incantation needs them
  bool own_read = false;
  for (const card_options& p : group(legal, seat).plays) {
    action a;
    bool chosen = false;
    for (const action& x : legal) {
      if (x.seat != seat || x.type != action_type::play || x.card != p.card) continue;
      if (!chosen) {
        a = x;
        chosen = true;
      }
      if (x.target == no_uid) break;
      if (!std::exchange(own_read, true))
        for (const line_view& l : m.view(seat).lines)
          for (const side_view& sd : l.sides)
            if (sd.seat == seat)
              for (const creature_view& c : sd.creatures) own.push_back(c.uid);
      if (std::find(own.begin(), own.end(), x.target) == own.end()) {
        a = x;
        break;
      }
    }
    if (const auto o = m.outcome(a)) out.push_back({p.card, o->mana, o->health, a.line, a.host, a.target});
  }
  return out;
}

namespace {

// A play's "after": the outcome and the option it is for.
json after_json(const play_preview& pv) {
  json j = {{"mana", pv.mana}, {"health", pv.health}};
  if (pv.target != no_uid) j["target"] = static_cast<int>(pv.target);
  else if (pv.line >= 0) j["line"] = seat_line_name(pv.line);
  if (pv.host != no_uid) j["host"] = static_cast<int>(pv.host);
  return j;
}

}  // namespace

json legal_actions_to_json(std::span<const action> legal, seat_t seat, std::span<const play_preview> previews) {
  const grouped_actions g = group(legal, seat);
  json plays = json::array();
  for (const card_options& p : g.plays) {
    json entry = {{"card", static_cast<int>(p.card)}};
    if (const play_preview* pv = preview_of(previews, p.card)) entry["after"] = after_json(*pv);
    for (int line : p.lines) entry["lines"].push_back(seat_line_name(line));
    for (const auto& [host, line] : p.hosts)
      entry["hosts"].push_back({{"host", static_cast<int>(host)}, {"line", seat_line_name(line)}});
    for (card_uid t : p.targets) entry["targets"].push_back(static_cast<int>(t));
    plays.push_back(std::move(entry));
  }
  return {{"plays", std::move(plays)}, {"end_turn", g.end_turn}};
}

// The server's path, once per seat per action: the same text as the DOM's
// dump (keys in nlohmann's order: sorted), written directly.
std::string legal_actions_text(std::span<const action> legal, seat_t seat, std::span<const play_preview> previews) {
  const grouped_actions g = group(legal, seat);
  const std::vector<card_options>& plays = g.plays;
  std::string out = g.end_turn ? R"({"end_turn":true,"plays":[)" : R"({"end_turn":false,"plays":[)";
  for (std::size_t i = 0; i < plays.size(); ++i) {
    const card_options& p = plays[i];
    if (i) out += ',';
    out += '{';
    if (const play_preview* pv = preview_of(previews, p.card)) {
      // Keys in the DOM's (sorted) order: health, host, line, mana, target.
      out += R"("after":{"health":)";
      out += std::to_string(pv->health);
      if (pv->host != no_uid) {
        out += R"(,"host":)";
        out += std::to_string(static_cast<int>(pv->host));
      }
      if (pv->target == no_uid && pv->line >= 0) {
        out += R"(,"line":)";
        append_line(out, pv->line);
      }
      out += R"(,"mana":)";
      out += std::to_string(pv->mana);
      if (pv->target != no_uid) {
        out += R"(,"target":)";
        out += std::to_string(static_cast<int>(pv->target));
      }
      out += "},";
    }
    out += R"("card":)";
    out += std::to_string(static_cast<int>(p.card));
    if (!p.hosts.empty()) {
      out += R"(,"hosts":[)";
      for (std::size_t k = 0; k < p.hosts.size(); ++k) {
        if (k) out += ',';
        out += R"({"host":)";
        out += std::to_string(static_cast<int>(p.hosts[k].first));
        out += R"(,"line":)";
        append_line(out, p.hosts[k].second);
        out += '}';
      }
      out += ']';
    }
    if (!p.lines.empty()) {
      out += R"(,"lines":[)";
      for (std::size_t k = 0; k < p.lines.size(); ++k) {
        if (k) out += ',';
        append_line(out, p.lines[k]);
      }
      out += ']';
    }
    if (!p.targets.empty()) {
      out += R"(,"targets":[)";
      for (std::size_t k = 0; k < p.targets.size(); ++k) {
        if (k) out += ',';
        out += std::to_string(static_cast<int>(p.targets[k]));
      }
      out += ']';
    }
    out += '}';
  }
  out += "]}";
  return out;
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
    if (it.key() != "card" && it.key() != "lines" && it.key() != "hosts" && it.key() != "targets" &&
        it.key() != "after")
      return false;
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
