// What a server of schema 10 stored for a tournament (the tables of
// migrations 0003 and 0005, as its sqlite_tournaments.cpp and
// pg_tournaments.cpp wrote them), as INSERT statements both dialects run:
// the input of the tests that 0011 rewrites each tournament into the one
// document it loads back from.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "common/sha256.hpp"
#include "persist/migrations.hpp"
#include "persist/records.hpp"
#include "persist/tournament_record.hpp"
#include "../shared/store_reads.hpp"
#include "tournament_steps.hpp"

namespace cod::server::test {

inline std::string sql_text(const std::string& s) {
  std::string out = "'";
  for (char ch : s) {
    if (ch == '\'') out += '\'';
    out += ch;
  }
  return out + "'";
}

inline std::string sql_player(tournaments::player_id p) {
  return p == tournaments::no_player ? "NULL" : std::to_string(p);
}

inline std::vector<std::string> v10_tournament_inserts(const stored_tournament& st) {
  namespace tn = cod::tournaments;
  const tn::tournament& t = st.t;
  const tn::config& c = t.settings();
  const std::string id = sql_text(st.id);
  std::vector<std::string> out;
  out.push_back("INSERT INTO tournaments (tournament_id, name, mode, format, swiss_rounds, best_of, exhaustion, "
                "clock_bank_ms, clock_increment_ms, top_cut, seed, created_ms, stage) VALUES (" +
                id + ", " + sql_text(c.name) + ", " + sql_text(c.mode) + ", " + sql_text(c.format) + ", " +
                std::to_string(c.swiss_rounds) + ", " + std::to_string(c.best_of) + ", " + (c.exhaustion ? "1" : "0") +
                ", " + (c.clock ? std::to_string(c.clock->bank_ms) : "NULL") + ", " +
                (c.clock ? std::to_string(c.clock->increment_ms) : "NULL") + ", " + std::to_string(c.top_cut) + ", " +
                sql_text(std::to_string(c.seed)) + ", " + std::to_string(st.created_ms) + ", " +
                sql_text(std::string(tn::stage_name(t.current_stage()))) + ")");
  for (std::size_t i = 0; i < t.players().size(); ++i) {
    const tn::player& p = t.players()[i];
    out.push_back("INSERT INTO tournament_players VALUES (" + id + ", " + std::to_string(i) + ", " +
                  sql_text(p.name) + ", " + sql_text(p.token_hash) + ", " + std::to_string(p.seed_order) + ", " +
                  (p.dropped() ? std::to_string(p.dropped_in_round) : "NULL") + ")");
  }
  for (const tn::round& r : t.rounds()) {
    out.push_back("INSERT INTO tournament_rounds VALUES (" + id + ", " + std::to_string(r.number) + ", " +
                  (r.kind == tn::round_kind::swiss ? "'swiss'" : "'top_cut'") + ", " + std::to_string(r.attempt) + ")");
    for (const tn::pairing& p : r.pairings) {
      out.push_back("INSERT INTO tournament_pairings VALUES (" + id + ", " + std::to_string(r.number) + ", " +
                    std::to_string(p.table) + ", " + std::to_string(p.a) + ", " + sql_player(p.b) + ")");
      for (std::size_t g = 0; g < p.games.size(); ++g) {
        const tn::game& x = p.games[g];
        out.push_back("INSERT INTO tournament_games VALUES (" + id + ", " + std::to_string(r.number) + ", " +
                      std::to_string(p.table) + ", " + std::to_string(g + 1) + ", " +
                      (x.match_id.empty() ? "NULL" : sql_text(x.match_id)) + ", " + (x.decided ? "1" : "0") + ", " +
                      sql_player(x.winner) + ", " + (x.penalty ? "1" : "0") + ")");
      }
    }
  }
  for (const tn::log_entry& e : t.log())
    out.push_back("INSERT INTO tournament_log VALUES (" + id + ", " + std::to_string(e.seq) + ", " +
                  std::to_string(e.at_ms) + ", " + sql_text(e.actor) + ", " + sql_text(std::string(tn::act_name(e.what))) +
                  ", " + std::to_string(e.round) + ", " + sql_player(e.player) + ", " + sql_text(e.note) + ")");
  out.push_back("INSERT INTO tournament_server_options VALUES (" + id + ", " + std::to_string(st.extras.spectator_delay) +
                ", " + (st.extras.auto_advance ? "1" : "0") + ")");
  return out;
}

// The same tournament under another id, its games' matches renamed
// "<prefix><id>" (a match plays a game of one tournament at most).
inline stored_tournament another_tournament(stored_tournament st, const std::string& id, const std::string& prefix) {
  namespace tn = cod::tournaments;
  std::vector<tn::round> rounds = st.t.rounds();
  for (auto& r : rounds)
    for (auto& p : r.pairings)
      for (auto& g : p.games)
        if (!g.match_id.empty()) g.match_id = prefix + g.match_id;
  st.t = tn::tournament::from_parts(st.t.settings(), st.t.players(), std::move(rounds), st.t.log());
  st.id = id;
  return st;
}

// Every match its games name, as a schema-10 matches row (the games refer to them).
inline std::vector<std::string> v10_match_inserts(const stored_tournament& st) {
  std::vector<std::string> out;
  for (const auto& r : st.t.rounds())
    for (const auto& p : r.pairings)
      for (const auto& g : p.games)
        if (!g.match_id.empty())
          out.push_back("INSERT INTO matches (match_id, room_id, mode, format, options_json, rules_version, "
                        "engine_version, seed, seed_hash, created_ms) VALUES (" +
                        sql_text(g.match_id) + ", 'room', 'duel', 'preconstructed', '{}', 'v', 1, '1', 'h', 0)");
  return out;
}

// The three tournaments the upgrade tests store at schema 10: "t1" finished
// (created 111), "t-mid" with a game in progress and no options row (saved
// before 0005: the defaults; created 50), "t-new" not started (created 200).
inline std::vector<stored_tournament> schema10_tournaments() {
  const auto steps = tournament_steps();
  std::vector<stored_tournament> kept = {steps.back(), another_tournament(steps[3], "t-mid", "mid-"),
                                         another_tournament(steps.front(), "t-new", "")};
  kept[1].created_ms = 50;
  kept[1].extras = {};
  kept[2].created_ms = 200;
  return kept;
}

// What a server of schema 10 left in a new, empty database: `list`'s
// 0001..0010 applied and recorded, then `kept`'s matches and tournament
// rows. `exec` runs SQL on the database.
template <class Exec>
void write_schema10(Exec&& exec, std::span<const migration> list, const std::vector<stored_tournament>& kept) {
  REQUIRE(list.size() >= 11);
  REQUIRE(list[10].name == "0011_tournament_records.sql");
  exec("CREATE TABLE schema_migrations (version INTEGER NOT NULL PRIMARY KEY, name TEXT NOT NULL, "
       "sha256 TEXT NOT NULL, applied_at BIGINT NOT NULL)");
  for (std::size_t i = 0; i < 10; ++i) {
    exec(std::string(list[i].sql));
    exec("INSERT INTO schema_migrations VALUES (" + std::to_string(list[i].version) + ", '" +
         std::string(list[i].name) + "', '" + sha256_hex(std::string(list[i].sql)) + "', 0)");
  }
  for (const stored_tournament& st : kept) {
    for (const std::string& sql : v10_match_inserts(st)) exec(sql);
    for (const std::string& sql : v10_tournament_inserts(st)) exec(sql);
    if (st.extras == tournament_extras{})
      exec("DELETE FROM tournament_server_options WHERE tournament_id = " + sql_text(st.id));
  }
}

// What a store opened on that database (0011 applied) reads back: the
// tournaments as kept, oldest created first, and t1's matches through the
// listing's tournament filter.
template <class Store>
void check_schema10_upgraded(Store& s, const std::vector<stored_tournament>& kept) {
  CHECK(s.schema_version_at_open() == 10);
  const auto back = read_tournaments(s);
  REQUIRE(back.size() == 3);
  CHECK(back[0] == kept[1]);  // created 50
  CHECK(back[1] == kept[0]);  // created 111
  CHECK(back[2] == kept[2]);  // created 200
  match_query q;
  q.tournament = "t1";
  CHECK(read_ok(s.reader().count_matches(q)) ==
        static_cast<std::int64_t>(detail::tournament_match_ids(kept[0].t).size()));
}

}  // namespace cod::server::test
