#include "persist/tournament_record.hpp"

#include <unordered_set>

#include <nlohmann/json.hpp>

#include "common/strcat.hpp"
#include "common/text_forms.hpp"

namespace cod::server::detail {

using namespace cod::tournaments;
using nlohmann::json;
using nlohmann::ordered_json;

std::string tournament_record_json(const stored_tournament& st) {
  const tournament& t = st.t;
  const config& c = t.settings();
  ordered_json doc;
  ordered_json& cfg = doc["config"];
  cfg["name"] = c.name;
  cfg["mode"] = c.mode;
  cfg["format"] = c.format;
  cfg["swiss_rounds"] = c.swiss_rounds;
  cfg["best_of"] = c.best_of;
  cfg["exhaustion"] = c.exhaustion;
  cfg["clock"] = c.clock ? ordered_json{{"bank_ms", c.clock->bank_ms}, {"increment_ms", c.clock->increment_ms}}
                         : ordered_json(nullptr);
  cfg["top_cut"] = c.top_cut;
  cfg["seed"] = std::to_string(c.seed);  // a string: a uint64 is past what many JSON readers hold exactly
  ordered_json& players = doc["players"] = ordered_json::array();
  for (const player& p : t.players())
    players.push_back({{"name", p.name},
                       {"token_hash", p.token_hash},
                       {"seed_order", p.seed_order},
                       {"dropped_in_round", p.dropped_in_round}});
  ordered_json& rounds = doc["rounds"] = ordered_json::array();
  for (const round& r : t.rounds()) {
    ordered_json pairings = ordered_json::array();
    for (const pairing& p : r.pairings) {
      ordered_json games = ordered_json::array();
      for (const game& g : p.games)
        games.push_back({{"match_id", g.match_id}, {"decided", g.decided}, {"winner", g.winner}, {"penalty", g.penalty}});
      pairings.push_back({{"table", p.table}, {"a", p.a}, {"b", p.b}, {"games", std::move(games)}});
    }
    rounds.push_back({{"number", r.number},
                      {"kind", r.kind == round_kind::swiss ? "swiss" : "top_cut"},
                      {"attempt", r.attempt},
                      {"pairings", std::move(pairings)}});
  }
  ordered_json& log = doc["log"] = ordered_json::array();
  for (const log_entry& e : t.log())
    log.push_back({{"seq", e.seq},
                   {"at_ms", e.at_ms},
                   {"actor", e.actor},
                   {"act", act_name(e.what)},
                   {"round", e.round},
                   {"player", e.player},
                   {"note", e.note}});
  doc["server"] = {{"spectator_delay", st.extras.spectator_delay}, {"auto_advance", st.extras.auto_advance}};
  return doc.dump();
}

namespace {

// Reads one document, throwing persist_error("tournament <id>: <why>").
class record_reader {
 public:
  explicit record_reader(const std::string& id) : id_(id) {}

  [[noreturn]] void corrupt(const std::string& why) const { throw persist_error(cat("tournament ", id_, ": ", why)); }

  const json& field(const json& o, const char* key, const char* where) const {
    if (!o.is_object()) corrupt(cat(where, " is not an object"));
    const auto it = o.find(key);
    if (it == o.end()) corrupt(cat(where, " has no ", key));
    return *it;
  }
  std::int64_t integer(const json& o, const char* key, const char* where) const {
    const json& v = field(o, key, where);
    if (!v.is_number_integer()) corrupt(cat(where, ".", key, " is not an integer"));
    return v.get<std::int64_t>();
  }
  int small(const json& o, const char* key, const char* where) const {
    const std::int64_t v = integer(o, key, where);
    if (v < -1'000'000'000 || v > 1'000'000'000) corrupt(cat(where, ".", key, " is out of range"));
    return static_cast<int>(v);
  }
  bool boolean(const json& o, const char* key, const char* where) const {
    const json& v = field(o, key, where);
    if (!v.is_boolean()) corrupt(cat(where, ".", key, " is not true or false"));
    return v.get<bool>();
  }
  std::string text(const json& o, const char* key, const char* where) const {
    const json& v = field(o, key, where);
    if (!v.is_string()) corrupt(cat(where, ".", key, " is not a string"));
    return v.get<std::string>();
  }
  const json& array(const json& o, const char* key, const char* where) const {
    const json& v = field(o, key, where);
    if (!v.is_array()) corrupt(cat(where, ".", key, " is not an array"));
    return v;
  }
  void check_player(player_id p, std::size_t players, bool may_be_none, const std::string& what) const {
    if (p == no_player ? !may_be_none : (p < 0 || p >= static_cast<player_id>(players)))
      corrupt(cat(what, " names no player"));
  }

 private:
  const std::string& id_;
};

config read_config(const record_reader& in, const json& j) {
  config c;
  c.name = in.text(j, "name", "config");
  c.mode = in.text(j, "mode", "config");
  c.format = in.text(j, "format", "config");
  c.swiss_rounds = in.small(j, "swiss_rounds", "config");
  c.best_of = in.small(j, "best_of", "config");
  c.exhaustion = in.boolean(j, "exhaustion", "config");
  const json& clock = in.field(j, "clock", "config");
  if (!clock.is_null()) c.clock = clock_settings{in.integer(clock, "bank_ms", "config.clock"),
                                                 in.integer(clock, "increment_ms", "config.clock")};
  c.top_cut = in.small(j, "top_cut", "config");
  const auto seed = parse_decimal_u64(in.text(j, "seed", "config"));
  if (!seed) in.corrupt("the seed is not a decimal uint64");
  c.seed = *seed;
  return c;
}

std::vector<round> read_rounds(const record_reader& in, const json& doc, std::size_t players) {
  std::vector<round> rounds;
  for (const json& jr : in.array(doc, "rounds", "the record")) {
    round r;
    r.number = in.small(jr, "number", "a round");
    if (r.number != static_cast<int>(rounds.size()) + 1) in.corrupt("rounds are not numbered 1, 2, 3...");
    const std::string kind = in.text(jr, "kind", "a round");
    if (kind != "swiss" && kind != "top_cut") in.corrupt(cat("round ", r.number, ": unknown kind ", kind));
    r.kind = kind == "swiss" ? round_kind::swiss : round_kind::top_cut;
    r.attempt = in.small(jr, "attempt", "a round");
    for (const json& jp : in.array(jr, "pairings", "a round")) {
      pairing p;
      p.table = in.small(jp, "table", "a pairing");
      p.a = in.small(jp, "a", "a pairing");
      p.b = in.small(jp, "b", "a pairing");
      in.check_player(p.a, players, false, cat("round ", r.number, " table ", p.table));
      in.check_player(p.b, players, true, cat("round ", r.number, " table ", p.table));
      for (const json& jg : in.array(jp, "games", "a pairing")) {
        game g;
        g.match_id = in.text(jg, "match_id", "a game");
        g.decided = in.boolean(jg, "decided", "a game");
        g.winner = in.small(jg, "winner", "a game");
        g.penalty = in.boolean(jg, "penalty", "a game");
        if (g.winner != no_player && g.winner != p.a && g.winner != p.b)
          in.corrupt(cat("round ", r.number, " table ", p.table, ": a game won by a player of another table"));
        p.games.push_back(std::move(g));
      }
      r.pairings.push_back(std::move(p));
    }
    rounds.push_back(std::move(r));
  }
  return rounds;
}

}  // namespace

stored_tournament tournament_from_record(std::string id, std::int64_t created_ms, std::string_view record_json) {
  const record_reader in(id);
  const json doc = json::parse(record_json, nullptr, false);
  if (doc.is_discarded()) in.corrupt("the record is not JSON");
  if (!doc.is_object()) in.corrupt("the record is not an object");

  config c = read_config(in, in.field(doc, "config", "the record"));
  std::vector<player> players;
  for (const json& jp : in.array(doc, "players", "the record")) {
    player p;
    p.name = in.text(jp, "name", "a player");
    p.token_hash = in.text(jp, "token_hash", "a player");
    p.seed_order = in.small(jp, "seed_order", "a player");
    p.dropped_in_round = in.small(jp, "dropped_in_round", "a player");
    players.push_back(std::move(p));
  }
  std::vector<round> rounds = read_rounds(in, doc, players.size());
  std::vector<log_entry> log;
  for (const json& je : in.array(doc, "log", "the record")) {
    log_entry e;
    e.seq = in.small(je, "seq", "a log entry");
    if (e.seq != static_cast<int>(log.size()) + 1) in.corrupt("the log is not numbered 1, 2, 3...");
    e.at_ms = in.integer(je, "at_ms", "a log entry");
    e.actor = in.text(je, "actor", "a log entry");
    const auto what = act_from_name(in.text(je, "act", "a log entry"));
    if (!what) in.corrupt(cat("log entry ", e.seq, ": unknown act"));
    e.what = *what;
    e.round = in.small(je, "round", "a log entry");
    e.player = in.small(je, "player", "a log entry");
    in.check_player(e.player, players.size(), true, cat("log entry ", e.seq));
    e.note = in.text(je, "note", "a log entry");
    log.push_back(std::move(e));
  }
  const json& server = in.field(doc, "server", "the record");
  tournament_extras extras{in.small(server, "spectator_delay", "server"), in.boolean(server, "auto_advance", "server")};

  stored_tournament out;
  out.id = std::move(id);
  out.t = tournament::from_parts(std::move(c), std::move(players), std::move(rounds), std::move(log));
  out.extras = extras;
  out.created_ms = created_ms;
  return out;
}

std::vector<std::string> tournament_match_ids(const tournament& t) {
  std::vector<std::string> out;
  std::unordered_set<std::string> seen;
  for (const round& r : t.rounds())
    for (const pairing& p : r.pairings)
      for (const game& g : p.games)
        if (!g.match_id.empty() && seen.insert(g.match_id).second) out.push_back(g.match_id);
  return out;
}

}  // namespace cod::server::detail
