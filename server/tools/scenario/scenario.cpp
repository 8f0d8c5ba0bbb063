// The scenario runner: JSON -> engine position -> actions -> assertions.
// Everything is checked through the referee projection (view.hpp), the same
// door every other caller uses.
#include "scenario.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include <nlohmann/json.hpp>

#include "cod/engine/match.hpp"
#include "cod/protocol/card_json.hpp"

namespace cod::scenario {

using json = nlohmann::json;

namespace {

// A failed expectation or a malformed file: caught per step, reported as a line.
struct failure {
  std::string what;
};

[[noreturn]] void fail(const std::string& what) { throw failure{what}; }

std::string dump(const json& j) { return j.dump(); }

// --- reading the file ------------------------------------------------------

struct runner {
  catalogue cat;
  match m;
  std::vector<event> setup_events;  // what create() reported (R12.8: the AI's opening turn)
  std::map<card_uid, std::string> names;  // uid -> catalogue id, learnt from referee views

  card_id card_named(const std::string& id) const {
    auto c = cat.find(id);
    if (!c) fail("unknown card '" + id + "'");
    return *c;
  }

  int get_int(const json& j, const char* key, int def) const {
    if (!j.contains(key)) return def;
    if (!j[key].is_number_integer()) fail(std::string("'") + key + "' must be an integer");
    return j[key].get<int>();
  }

  creature_setup creature_from(const json& j) const {
    creature_setup c;
    if (j.is_string()) {
      c.card = card_named(j.get<std::string>());
      return c;
    }
    if (!j.is_object() || !j.contains("card")) fail("a creature is a card id or {\"card\": ...}: " + dump(j));
    for (auto& [k, v] : j.items())
      if (k != "card" && k != "damage" && k != "bonus_av" && k != "new" && k != "attacked" &&
          k != "protection_used" && k != "top" && k != "chained" && k != "champion")
        fail("unknown creature field '" + k + "'");
    c.card = card_named(j["card"].get<std::string>());
    c.damage = get_int(j, "damage", 0);
    c.bonus_av = get_int(j, "bonus_av", 0);
    c.entered_this_turn = j.value("new", false);
    c.attacked = j.value("attacked", false);
    c.protection_used = j.value("protection_used", false);
    c.champion = j.value("champion", false);
    if (j.contains("top")) c.top = card_named(j["top"].get<std::string>());
    if (j.contains("chained"))
      for (const json& h : j["chained"]) c.chained.push_back(card_named(h.get<std::string>()));
    return c;
  }

  // R12.8: "ai": {"fixed_mana": 7, "double_variable": true, "ai_first": true,
  // "resistance": true, "granted": ["rage", ...]}.
  ai_settings ai_from(const json& j) const {
    ai_settings a;
    for (auto& [k, v] : j.items())
      if (k != "fixed_mana" && k != "double_variable" && k != "ai_first" && k != "resistance" && k != "granted")
        fail("unknown ai field '" + k + "'");
    a.fixed_mana = get_int(j, "fixed_mana", 6);
    a.double_variable = j.value("double_variable", false);
    a.ai_first = j.value("ai_first", false);
    a.resistance = j.value("resistance", false);
    if (j.contains("granted"))
      for (const json& g : j["granted"]) {
        const auto ab = ability_from_name(g.get<std::string>());
        if (!ab) fail("unknown ability '" + g.get<std::string>() + "'");
        a.granted |= bit(*ab);
      }
    return a;
  }

  std::vector<card_id> cards_from(const json& j) const {
    std::vector<card_id> out;
    for (const json& c : j) out.push_back(card_named(c.get<std::string>()));
    return out;
  }

  seat_setup seat_from(const json& j, bool ai) const {
    seat_setup s;
    for (auto& [k, v] : j.items())
      if (k != "hand" && k != "stronghold" && k != "mana" && k != "turns_taken" && k != "upper" &&
          k != "lower" && k != "champion" && k != "champion_exhausted" && k != "deck" && k != "discard")
        fail("unknown seat field '" + k + "'");
    if (ai) {
      // R12.1: an AI seat has a deck pile and a discard pile (top first), no hand.
      if (j.contains("hand") || !j.contains("deck")) fail("an AI seat has \"deck\" (top first) and no \"hand\"");
      s.deck = cards_from(j["deck"]);
      if (j.contains("discard")) s.discard = cards_from(j["discard"]);
    } else if (j.contains("deck") || j.contains("discard")) {
      fail("only an AI seat (solo, coop: seats 1 and 3) has \"deck\" and \"discard\"");
    }
    if (!ai && (!j.contains("hand") || !j["hand"].is_array())) fail("a seat needs \"hand\": [...] with \"S\"");
    int stronghold = ai ? 0 : -1;
    for (const json& c : ai ? json::array() : j["hand"]) {
      const std::string id = c.get<std::string>();
      if (id == "S") {
        if (stronghold >= 0) fail("two Strongholds in one hand");
        stronghold = static_cast<int>(s.hand.size());
      } else {
        s.hand.push_back(card_named(id));
      }
    }
    if (stronghold < 0) fail("a hand needs its Stronghold: \"S\"");
    s.stronghold_pos = stronghold;
    const std::string side = j.value("stronghold", "bastion");
    if (side != "bastion" && side != "fort") fail("stronghold is \"bastion\" or \"fort\"");
    s.side = side == "fort" ? stronghold_side::fort : stronghold_side::bastion;
    s.mana = get_int(j, "mana", 0);
    s.turns_taken = get_int(j, "turns_taken", 1);
    // R13: the seat's Champion, ready unless exhausted (in play: a creature with "champion": true).
    if (j.contains("champion")) s.champion = card_named(j["champion"].get<std::string>());
    s.champion_exhausted = j.value("champion_exhausted", false);
    for (int which = 0; which < 2; ++which) {
      const char* key = which == 0 ? "upper" : "lower";
      if (j.contains(key))
        for (const json& c : j[key]) s.lines[which].push_back(creature_from(c));
    }
    return s;
  }

  // The setup; if `want_error` is given the setup must be refused with it.
  void set_up(const json& j, const std::string& want_error = {}) {
    std::vector<event>& ev = setup_events;
    auto setup_result = [&](rule_error e) {
      if (!want_error.empty()) {
        if (std::string(error_name(e)) != want_error)
          fail("expected the setup to be refused with " + want_error + ", got " + std::string(error_name(e)));
        return;
      }
      if (e != rule_error::ok) fail("setup rejected: " + std::string(error_name(e)));
    };
    if (j.contains("decks") || j.contains("precon")) {
      for (auto& [k, v] : j.items())
        if (k != "decks" && k != "precon" && k != "seed" && k != "exhaustion" && k != "first" && k != "mode" &&
            k != "share_team_hands" && k != "champions" && k != "difficulty" && k != "ai" &&
            k != "stall_exhaustion_turn")
          fail("unknown setup field '" + k + "'");
      match_config cfg;
      cfg.seed = j.value("seed", std::uint64_t{0});
      cfg.exhaustion_rule = j.value("exhaustion", false);
      cfg.stall_exhaustion_turn = get_int(j, "stall_exhaustion_turn", default_stall_exhaustion_turn);  // R17.25
      if (j.contains("first")) cfg.first_seat = static_cast<seat_t>(j["first"].get<int>());
      if (j.contains("mode")) {
        const auto m = game_mode_from_name(j["mode"].get<std::string>());
        if (!m) fail("mode is \"duel\", \"ffa\", \"2v2\", \"solo\" or \"coop\"");
        cfg.mode = *m;
        cfg.seat_count = seats_of(*m);
      }
      cfg.share_team_hands = j.value("share_team_hands", false);
      cfg.difficulty = get_int(j, "difficulty", 0);  // R12.8
      if (j.contains("ai")) cfg.ai = ai_from(j["ai"]);
      for (int seat = 0; seat < cfg.seat_count; ++seat) {
        if (j.contains("precon")) {
          // A deck number, or (an AI's deck pile, R12.7) an array of them.
          const json& d = j["precon"].at(seat);
          if (d.is_array()) {
            for (const json& n : d)
              for (card_id c : cat.preconstructed_deck(n.get<int>())) cfg.decks[seat].push_back(c);
          } else {
            cfg.decks[seat] = cat.preconstructed_deck(d.get<int>());
          }
        } else {
          for (const json& c : j["decks"].at(seat)) cfg.decks[seat].push_back(card_named(c.get<std::string>()));
        }
        // R13.1: "champions": one card id (or null) per seat.
        if (j.contains("champions") && !j["champions"].at(seat).is_null())
          cfg.champions[seat] = card_named(j["champions"].at(seat).get<std::string>());
      }
      setup_result(match::create(cat, cfg, m, ev));
      return;
    }
    position_setup p;
    for (auto& [k, v] : j.items())
      if (k != "seats" && k != "first" && k != "active" && k != "turn" && k != "round" &&
          k != "exhaustion" && k != "seed" && k != "removed" && k != "mode" && k != "share_team_hands" &&
          k != "ai" && k != "stall_exhaustion_turn")
        fail("unknown setup field '" + k + "'");
    p.first_seat = static_cast<seat_t>(get_int(j, "first", 0));
    p.active_seat = static_cast<seat_t>(get_int(j, "active", 0));
    p.turn = get_int(j, "turn", 3);
    p.round = get_int(j, "round", 2);
    p.exhaustion_rule = j.value("exhaustion", false);
    p.stall_exhaustion_turn = get_int(j, "stall_exhaustion_turn", default_stall_exhaustion_turn);  // R17.25
    p.seed = j.value("seed", std::uint64_t{0});
    if (j.contains("mode")) {
      const auto m = game_mode_from_name(j["mode"].get<std::string>());
      if (!m) fail("mode is \"duel\", \"ffa\", \"2v2\", \"solo\" or \"coop\"");
      p.mode = *m;
    }
    p.share_team_hands = j.value("share_team_hands", false);
    if (j.contains("ai")) p.ai = ai_from(j["ai"]);
    if (!j.contains("seats") || static_cast<int>(j["seats"].size()) != seats_of(p.mode))
      fail("setup needs one seat object per seat of the mode (2 for a duel and solo, 4 for ffa, 2v2 and coop)");
    for (const json& s : j["seats"])
      p.seats.push_back(seat_from(s, is_ai_seat(p.mode, static_cast<seat_t>(p.seats.size()))));
    if (j.contains("removed"))
      for (const json& c : j["removed"]) p.removed.push_back(card_named(c.get<std::string>()));
    setup_result(match::from_position(cat, p, m));
  }

  void learn_names() {
    const seat_view v = m.view(referee);
    for (const auto& h : v.all_hands)
      for (const card_ref& c : h) names[c.uid] = cat.def(c.card).id;
    for (const line_view& l : v.lines)
      for (const side_view& s : l.sides)
        for (const creature_view& c : s.creatures) {
          names[c.uid] = cat.def(c.card).id;
          if (c.top.uid != no_uid) names[c.top.uid] = cat.def(c.top.card).id;
          for (const card_ref& h : c.chained) names[h.uid] = cat.def(h.card).id;
        }
    for (const card_ref& c : v.removed) names[c.uid] = cat.def(c.card).id;
    for (const seat_public& p : v.seats) {
      if (p.champion.uid != no_uid) names[p.champion.uid] = cat.def(p.champion.card).id;  // R13.1
      for (const card_ref& c : p.discard) names[c.uid] = cat.def(c.card).id;            // R12.1
    }
    for (const auto& d : v.ai_decks)
      for (const card_ref& c : d) names[c.uid] = cat.def(c.card).id;
  }

  std::string name_of(card_uid u) const {
    auto it = names.find(u);
    return it == names.end() ? "#" + std::to_string(u) : it->second;
  }

  // A creature in play by card id ("troll", unique on the board) or by place
  // ({"seat": 1, "line": "upper", "pos": 0}).
  card_uid creature_ref(const json& j) const {
    const seat_view v = m.view(referee);
    if (j.is_string()) {
      const std::string id = j.get<std::string>();
      card_uid found = no_uid;
      for (const line_view& l : v.lines)
        for (const side_view& s : l.sides)
          for (const creature_view& c : s.creatures)
            if (cat.def(c.card).id == id) {
              if (found != no_uid) fail("'" + id + "' is on the board twice: name it by place");
              found = c.uid;
            }
      if (found == no_uid) fail("no creature '" + id + "' in play");
      return found;
    }
    const int seat = j.at("seat").get<int>();
    const std::string line = j.at("line").get<std::string>();
    const int pos = j.at("pos").get<int>();
    const int abs_line = line == "upper" ? v.seats.at(seat).upper_line : v.seats.at(seat).lower_line;
    for (const side_view& s : v.lines.at(abs_line).sides)
      if (s.seat == seat) {
        if (pos < 0 || pos >= static_cast<int>(s.creatures.size())) return no_uid;
        return s.creatures[pos].uid;
      }
    return no_uid;
  }

  action action_from(const json& j) const {
    action a;
    const std::string type = j.at("type").get<std::string>();
    a.seat = static_cast<seat_t>(j.at("seat").get<int>());
    for (auto& [k, v] : j.items())
      if (k != "type" && k != "seat" && k != "card" && k != "line" && k != "target" && k != "host")
        fail("unknown action field '" + k + "'");
    if (type == "end_turn") a.type = action_type::end_turn;
    else if (type == "concede") a.type = action_type::concede;
    else if (type == "play") a.type = action_type::play;
    else fail("unknown action type '" + type + "'");
    if (j.contains("card")) {
      if (j["card"].is_number_integer()) {
        a.card = static_cast<card_uid>(j["card"].get<int>());
      } else {
        // The first card with that id in the acting seat's hand.
        const std::string id = j["card"].get<std::string>();
        const seat_view v = m.view(referee);
        if (a.seat >= 0 && a.seat < static_cast<int>(v.all_hands.size()))
          for (const card_ref& c : v.all_hands[a.seat])
            if (cat.def(c.card).id == id) {
              a.card = c.uid;
              break;
            }
        // Not in hand: the seat's Champion (R13.2) if it is that card.
        if (a.card == no_uid && a.seat >= 0 && a.seat < static_cast<int>(v.seats.size()) &&
            v.seats[a.seat].champion.uid != no_uid && cat.def(v.seats[a.seat].champion.card).id == id)
          a.card = v.seats[a.seat].champion.uid;
        if (a.card == no_uid) {
          // Not in hand: let the engine say so with a uid that is not there.
          for (const auto& [u, n] : names)
            if (n == id) a.card = u;
          if (a.card == no_uid) fail("no card '" + id + "' in this match");
        }
      }
    }
    if (j.contains("line")) {
      const std::string l = j["line"].get<std::string>();
      a.line = l == "upper" ? 0 : l == "lower" ? 1 : static_cast<std::int8_t>(9);
    }
    if (j.contains("target")) a.target = creature_ref(j["target"]);
    if (j.contains("host")) a.host = creature_ref(j["host"]);
    return a;
  }

  // --- events ---------------------------------------------------------------

  json named(const event& e) const {
    json j;
    j["type"] = std::string(event_type_name(e.type));
    if (e.seat != no_seat) j["seat"] = e.seat;
    if (e.uid != no_uid) j["card"] = name_of(e.uid);
    if (e.target != no_uid) j["target"] = name_of(e.target);
    if (e.line >= 0) j["line"] = e.line;
    if (e.side >= 0) j["side"] = e.side;
    j["amount"] = e.amount;
    if (e.from >= 0) j["from"] = e.from;
    if (e.to >= 0) j["to"] = e.to;
    if (e.type == event_type::ability_triggered) j["ability"] = std::string(ability_name(static_cast<ability>(e.amount)));
    return j;
  }

  static bool partial_match(const json& expected, const json& actual) {
    for (auto& [k, v] : expected.items()) {
      if (!actual.contains(k) || actual[k] != v) return false;
    }
    return true;
  }

  void check_events(const json& expected, const std::vector<event>& got, bool exact) {
    std::vector<json> actual;
    for (const event& e : got) actual.push_back(named(e));
    std::size_t at = 0;
    for (const json& want : expected) {
      while (at < actual.size() && !partial_match(want, actual[at])) {
        if (exact) break;
        ++at;
      }
      if (at >= actual.size() || !partial_match(want, actual[at])) {
        std::string all;
        for (const json& a : actual) all += "\n      " + a.dump();
        fail("expected event " + want.dump() + (exact ? " next" : " (in order)") + "; events were:" + all);
      }
      ++at;
    }
  }

  void check_absent(const json& unwanted, const std::vector<event>& got) {
    for (const json& no : unwanted)
      for (const event& e : got)
        if (partial_match(no, named(e))) fail("unexpected event " + named(e).dump());
  }

  // --- state ------------------------------------------------------------------

  static std::string seat_list(std::uint8_t mask) {
    std::string s = "[";
    for (int i = 0; i < 8; ++i)
      if (mask & (1u << i)) s += (s.size() > 1 ? "," : "") + std::to_string(i);
    return s + "]";
  }

  template <typename A, typename B>
  static void same(const std::string& what, const A& want, const B& got) {
    if (!(want == got)) {
      std::ostringstream o;
      o << what << ": expected " << want << ", got " << got;
      fail(o.str());
    }
  }

  json creature_json(const creature_view& c, const seat_view& v) const {
    json abilities = json::array();
    for (int a = 0; a < ability_count; ++a)
      if (c.abilities & (1u << a)) abilities.push_back(std::string(ability_name(static_cast<ability>(a))));
    json chained = json::array();
    for (const card_ref& h : c.chained) chained.push_back(cat.def(h.card).id);
    json j = {{"card", cat.def(c.card).id}, {"damage", c.damage}, {"av", c.av}, {"hp", c.hp},
              {"bonus_av", c.bonus_av}, {"new", c.entered_this_turn}, {"attacked", c.attacked},
              {"protection_used", c.protection_used}, {"abilities", abilities}, {"chained", chained}};
    j["top"] = c.top.uid == no_uid ? json(nullptr) : json(cat.def(c.top.card).id);
    // R13: the base card or its Symbiote is a seat's Champion.
    bool champion = false;
    for (const seat_public& p : v.seats)
      champion |= p.champion.uid != no_uid && (p.champion.uid == c.uid || p.champion.uid == c.top.uid);
    j["champion"] = champion;
    return j;
  }

  void check_row(const std::string& what, const json& want, const side_view& side, const seat_view& v) const {
    json got = json::array();
    for (const creature_view& c : side.creatures) got.push_back(creature_json(c, v));
    bool ok = want.size() == got.size();
    for (std::size_t i = 0; ok && i < want.size(); ++i) {
      if (want[i].is_string()) ok = want[i] == got[i]["card"];
      else ok = partial_match(want[i], got[i]);
    }
    if (!ok) fail(what + ": expected " + want.dump() + ", got " + got.dump());
  }

  void check_state(const json& x) {
    const seat_view v = m.view(referee);
    for (auto& [k, want] : x.items()) {
      if (k == "active") same("active seat", want.get<int>(), static_cast<int>(v.active_seat));
      else if (k == "turn") same("turn", want.get<int>(), v.turn);
      else if (k == "round") same("round", want.get<int>(), v.round);
      else if (k == "exhausted") same("exhausted", want.get<bool>(), v.exhausted);
      else if (k == "phase")
        same("phase", want.get<std::string>(),
             std::string(v.current_phase == phase::game_over ? "game_over" : "summoning"));
      else if (k == "winners") {
        std::uint8_t mask = 0;
        for (const json& s : want) mask |= static_cast<std::uint8_t>(1u << s.get<int>());
        same("winners", seat_list(mask), seat_list(v.winners));
      } else if (k == "loser") same("loser", want.get<int>(), static_cast<int>(v.loser));
      else if (k == "reason") {
        static const char* reasons[] = {"none", "fort_destroyed", "stronghold_alone", "concession"};
        same("reason", want.get<std::string>(), std::string(reasons[static_cast<int>(v.reason)]));
      } else if (k == "removed") {
        json got = json::array();
        for (const card_ref& c : v.removed) got.push_back(cat.def(c.card).id);
        if (got != want) fail("removed: expected " + want.dump() + ", got " + got.dump());
      } else if (k == "seats") {
        for (std::size_t seat = 0; seat < want.size(); ++seat) check_seat(v, static_cast<int>(seat), want[seat]);
      } else {
        fail("unknown expect field '" + k + "'");
      }
    }
  }

  void check_seat(const seat_view& v, int seat, const json& want) const {
    if (want.is_null()) return;
    const std::string who = "seat " + std::to_string(seat) + " ";
    const seat_public& p = v.seats.at(seat);
    for (auto& [k, w] : want.items()) {
      if (k == "hand") {
        json got = json::array();
        const auto& h = v.all_hands.at(seat);
        for (std::size_t i = 0; i <= h.size(); ++i) {
          if (static_cast<int>(i) == p.stronghold_pos) got.push_back("S");
          if (i < h.size()) got.push_back(cat.def(h[i].card).id);
        }
        if (got != w) fail(who + "hand: expected " + w.dump() + ", got " + got.dump());
      } else if (k == "hand_size") same(who + "hand size", w.get<int>(), p.hand_size);
      else if (k == "health") same(who + "health", w.get<int>(), p.health);
      else if (k == "stronghold_pos") same(who + "Stronghold index", w.get<int>(), p.stronghold_pos);
      else if (k == "stronghold")
        same(who + "Stronghold side", w.get<std::string>(), std::string(stronghold_side_name(p.side)));
      else if (k == "mana") same(who + "mana", w.get<int>(), p.mana);
      else if (k == "upper" || k == "lower") {
        const int line = k == "upper" ? p.upper_line : p.lower_line;
        for (const side_view& s : v.lines.at(line).sides)
          if (s.seat == seat) check_row(who + k + " line", w, s, v);
      } else if (k == "champion") {
        // R13: the seat's Champion by card id, or null for none.
        const json got = p.champion.uid == no_uid ? json(nullptr) : json(cat.def(p.champion.card).id);
        if (got != w) fail(who + "champion: expected " + w.dump() + ", got " + got.dump());
      } else if (k == "deck" || k == "discard") {
        // R12.1: an AI's piles, top first.
        json got = json::array();
        if (k == "deck") {
          if (seat < static_cast<int>(v.ai_decks.size()))
            for (const card_ref& c : v.ai_decks[seat]) got.push_back(cat.def(c.card).id);
        } else {
          for (auto it = p.discard.rbegin(); it != p.discard.rend(); ++it) got.push_back(cat.def(it->card).id);
        }
        if (got != w) fail(who + k + ": expected " + w.dump() + ", got " + got.dump());
      } else if (k == "deck_size") {
        same(who + "deck size", w.get<int>(), p.deck_size);
      } else if (k == "champion_state") {
        same(who + "champion state", w.get<std::string>(), std::string(champion_status_name(p.champion.state)));
      } else {
        fail("unknown seat expectation '" + k + "'");
      }
    }
  }
};

result run_one(const json& j, const std::string& file, const catalogue& base) {
  result r;
  r.file = file;
  r.name = "(unnamed)";
  int step_no = 0;
  try {
    // Read inside the try: a scenario that is not an object, or whose name
    // or rule ids are not strings, is a failed result, not an exception.
    if (!j.is_object()) fail("a scenario is a JSON object");
    r.name = j.value("name", r.name);
    if (j.contains("rules"))
      for (const json& id : j["rules"]) r.rules.push_back(id.get<std::string>());
    if (r.rules.empty()) fail("a scenario cites the rule ids it checks: \"rules\": [\"R4.5\"]");
    runner run{base, {}, {}, {}};
    if (j.contains("cards")) {
      std::size_t i = 0;
      for (const json& c : j["cards"]) {
        auto parsed = protocol::card_from_json(c, i++);
        if (!parsed.ok()) fail("inline card: " + parsed.error->to_string());
        if (auto e = run.cat.add(parsed.def)) fail("inline card: " + e->to_string());
      }
    }
    // "setup_error": the setup must be refused with this code (R13.1 and
    // other setup checks); the scenario then has no steps.
    const std::string setup_error = j.value("setup_error", std::string());
    run.set_up(j.at("setup"), setup_error);
    if (!setup_error.empty()) {
      if (j.contains("steps") && !j["steps"].empty()) fail("a scenario with setup_error has no steps");
      return r;
    }
    run.learn_names();
    // "setup_events": events create() must have reported, in order (a match
    // from decks: the first turn, and any AI turns run before a human's).
    if (j.contains("setup_events")) run.check_events(j["setup_events"], run.setup_events, false);
    for (const json& step : j.at("steps")) {
      ++step_no;
      for (auto& [k, v] : step.items())
        if (k != "do" && k != "expect_error" && k != "events" && k != "next_events" &&
            k != "no_events" && k != "expect" && k != "note")
          fail("unknown step field '" + k + "'");
      std::vector<event> events;
      if (step.contains("do")) {
        const json acts = step["do"].is_array() ? step["do"] : json::array({step["do"]});
        for (const json& aj : acts) {
          const action a = run.action_from(aj);
          const std::uint64_t before = run.m.digest();
          const rule_error e = run.m.apply(a, events);
          if (step.contains("expect_error")) {
            const std::string want = step["expect_error"].get<std::string>();
            if (std::string(error_name(e)) != want)
              fail("expected error " + want + ", got " + std::string(error_name(e)));
            if (run.m.digest() != before) fail("a rejected action changed the state");
          } else if (e != rule_error::ok) {
            fail("action " + aj.dump() + " rejected: " + std::string(error_name(e)) + " (" +
                 std::string(error_message(e)) + ")");
          }
        }
        run.learn_names();
      }
      if (step.contains("events")) run.check_events(step["events"], events, false);
      if (step.contains("next_events")) run.check_events(step["next_events"], events, true);
      if (step.contains("no_events")) run.check_absent(step["no_events"], events);
      if (step.contains("expect")) run.check_state(step["expect"]);
    }
  } catch (const failure& f) {
    r.failures.push_back(step_no ? "step " + std::to_string(step_no) + ": " + f.what : f.what);
  } catch (const std::exception& e) {
    r.failures.push_back((step_no ? "step " + std::to_string(step_no) + ": " : std::string()) +
                         "malformed scenario: " + e.what());
  }
  return r;
}

}  // namespace

std::vector<result> run_file(const std::string& path, const catalogue& base) {
  std::ifstream in(path);
  std::stringstream buf;
  buf << in.rdbuf();
  if (!in) return {result{path, "(file)", {}, {"cannot read or parse the file as JSON"}}};
  return run_text(buf.str(), path, base);
}

std::vector<result> run_text(std::string_view text, const std::string& file, const catalogue& base) {
  json doc = json::parse(text, nullptr, false);
  if (doc.is_discarded()) return {result{file, "(file)", {}, {"cannot read or parse the file as JSON"}}};
  std::vector<result> out;
  if (doc.is_object() && doc.contains("scenarios")) {
    for (const json& s : doc["scenarios"]) out.push_back(run_one(s, file, base));
  } else {
    out.push_back(run_one(doc, file, base));
  }
  return out;
}

std::vector<std::string> collect(const std::string& path) {
  namespace fs = std::filesystem;
  std::vector<std::string> files;
  std::error_code ec;
  if (fs::is_directory(path, ec)) {
    for (const auto& e : fs::recursive_directory_iterator(path, ec))
      if (e.is_regular_file() && e.path().extension() == ".json") files.push_back(e.path().string());
  } else {
    files.push_back(path);
  }
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace cod::scenario
