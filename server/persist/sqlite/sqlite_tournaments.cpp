#include "persist/sqlite/sqlite_tournaments.hpp"

#include "common/strcat.hpp"
#include "common/text_forms.hpp"
#include "persist/record_rows.hpp"
#include "persist/sqlite/sqlite_util.hpp"

namespace cod::server::detail {

using namespace cod::tournaments;

namespace {

// A savepoint that rolls back unless released: save is all or nothing.
class savepoint {
 public:
  savepoint(sql::db& d, std::string name) : d_(d), name_(std::move(name)) { d_.exec(cat("SAVEPOINT ", name_)); }
  ~savepoint() {
    if (done_) return;
    try {
      d_.exec(cat("ROLLBACK TO ", name_));
      d_.exec(cat("RELEASE ", name_));
    } catch (...) {
    }
  }
  void release() {
    d_.exec(cat("RELEASE ", name_));
    done_ = true;
  }

 private:
  sql::db& d_;
  std::string name_;
  bool done_ = false;
};

void bind_player(sql::stmt& s, int i, player_id p) {
  if (p == no_player) {
    s.bind_null(i);
  } else {
    s.bind(i, p);
  }
}

void save_children(sql::db& d, std::string_view id, const tournament& t) {
  for (const char* table : {"tournament_games", "tournament_pairings", "tournament_rounds", "tournament_log",
                            "tournament_players"}) {
    sql::stmt del(d, cat("DELETE FROM ", table, " WHERE tournament_id = ?1"));
    del.bind(1, id).run();
  }
  sql::stmt pl(d, "INSERT INTO tournament_players VALUES (?1, ?2, ?3, ?4, ?5, ?6)");
  for (std::size_t i = 0; i < t.players().size(); ++i) {
    const player& p = t.players()[i];
    pl.bind(1, id).bind(2, static_cast<int>(i)).bind(3, p.name).bind(4, p.token_hash).bind(5, p.seed_order);
    if (p.dropped()) {
      pl.bind(6, p.dropped_in_round);
    } else {
      pl.bind_null(6);
    }
    pl.run();
  }
  sql::stmt rd(d, "INSERT INTO tournament_rounds VALUES (?1, ?2, ?3, ?4)");
  sql::stmt pr(d, "INSERT INTO tournament_pairings VALUES (?1, ?2, ?3, ?4, ?5)");
  sql::stmt gm(d, "INSERT INTO tournament_games VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)");
  for (const round& r : t.rounds()) {
    rd.bind(1, id).bind(2, r.number).bind(3, r.kind == round_kind::swiss ? "swiss" : "top_cut").bind(4, r.attempt);
    rd.run();
    for (const pairing& p : r.pairings) {
      pr.bind(1, id).bind(2, r.number).bind(3, p.table).bind(4, p.a);
      bind_player(pr, 5, p.b);
      pr.run();
      for (std::size_t g = 0; g < p.games.size(); ++g) {
        const game& x = p.games[g];
        gm.bind(1, id).bind(2, r.number).bind(3, p.table).bind(4, static_cast<int>(g) + 1);
        if (x.match_id.empty()) {
          gm.bind_null(5);
        } else {
          gm.bind(5, x.match_id);
        }
        gm.bind(6, x.decided ? 1 : 0);
        bind_player(gm, 7, x.winner);
        gm.bind(8, x.penalty ? 1 : 0);
        gm.run();
      }
    }
  }
  sql::stmt lg(d, "INSERT INTO tournament_log VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)");
  for (const log_entry& e : t.log()) {
    lg.bind(1, id).bind(2, e.seq).bind(3, e.at_ms).bind(4, e.actor).bind(5, act_name(e.what)).bind(6, e.round);
    bind_player(lg, 7, e.player);
    lg.bind(8, e.note);
    lg.run();
  }
}

}  // namespace

void save_tournament(sql::db& d, std::string_view id, const tournament& t, std::int64_t created_ms) {
  const config& c = t.settings();
  savepoint sp(d, "tournament_save");
  sql::stmt up(d,
               "INSERT INTO tournaments (tournament_id, name, mode, format, swiss_rounds, best_of, exhaustion, "
               "clock_bank_ms, clock_increment_ms, top_cut, seed, created_ms, stage) "
               "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13) "
               "ON CONFLICT (tournament_id) DO UPDATE SET name = ?2, mode = ?3, format = ?4, swiss_rounds = ?5, "
               "best_of = ?6, exhaustion = ?7, clock_bank_ms = ?8, clock_increment_ms = ?9, top_cut = ?10, "
               "seed = ?11, stage = ?13");
  up.bind(1, id).bind(2, c.name).bind(3, c.mode).bind(4, c.format).bind(5, c.swiss_rounds).bind(6, c.best_of);
  up.bind(7, c.exhaustion ? 1 : 0);
  if (c.clock) {
    up.bind(8, c.clock->bank_ms).bind(9, c.clock->increment_ms);
  } else {
    up.bind_null(8).bind_null(9);
  }
  up.bind(10, c.top_cut).bind(11, std::to_string(c.seed)).bind(12, created_ms);
  up.bind(13, stage_name(t.current_stage()));
  up.run();
  save_children(d, id, t);
  sp.release();
}

std::optional<tournament> load_tournament(sql::db& d, std::string_view id) {
  tournament_rows rows{std::string(id)};
  {
    sql::stmt s(d,
                "SELECT name, mode, format, swiss_rounds, best_of, exhaustion, clock_bank_ms, clock_increment_ms, "
                "top_cut, seed FROM tournaments WHERE tournament_id = ?1");
    s.bind(1, id);
    if (!s.step()) return std::nullopt;
    rows.config_row(s);
  }
  // Each query in the order tournament_rows reads them (record_rows.hpp).
  const std::pair<const char*, void (tournament_rows::*)(const row_view&)> parts[] = {
      {"SELECT player, name, token_hash, seed_order, dropped_in_round FROM tournament_players "
       "WHERE tournament_id = ?1 ORDER BY player",
       &tournament_rows::player_row},
      {"SELECT round, kind, attempt FROM tournament_rounds WHERE tournament_id = ?1 ORDER BY round",
       &tournament_rows::round_row},
      {"SELECT round, table_no, player_a, player_b FROM tournament_pairings WHERE tournament_id = ?1 "
       "ORDER BY round, table_no",
       &tournament_rows::pairing_row},
      {"SELECT round, table_no, game_no, match_id, decided, winner, penalty FROM tournament_games "
       "WHERE tournament_id = ?1 ORDER BY round, table_no, game_no",
       &tournament_rows::game_row},
      {"SELECT seq, at_ms, actor, act, round, player, note FROM tournament_log WHERE tournament_id = ?1 "
       "ORDER BY seq",
       &tournament_rows::log_row},
  };
  for (const auto& [sql_text, read] : parts) {
    sql::stmt s(d, sql_text);
    s.bind(1, id);
    while (s.step()) (rows.*read)(s);
  }
  return rows.finish();
}

std::vector<std::string> list_tournaments(sql::db& d) {
  std::vector<std::string> out;
  sql::stmt s(d, "SELECT tournament_id FROM tournaments ORDER BY created_ms, tournament_id");
  while (s.step()) out.push_back(s.text(0));
  return out;
}

namespace {

// The server options row (migration 0005), written with the tournament.
void save_extras(sql::db& d, const std::string& id, const tournament_extras& x) {
  sql::stmt s(d,
              "INSERT INTO tournament_server_options (tournament_id, spectator_delay, auto_advance) VALUES (?1, ?2, ?3) "
              "ON CONFLICT (tournament_id) DO UPDATE SET spectator_delay = ?2, auto_advance = ?3");
  s.bind(1, id).bind(2, x.spectator_delay).bind(3, x.auto_advance ? 1 : 0);
  s.run();
}

tournament_extras load_extras(sql::db& d, const std::string& id) {
  tournament_extras x;
  sql::stmt s(d, "SELECT spectator_delay, auto_advance FROM tournament_server_options WHERE tournament_id = ?1");
  s.bind(1, id);
  if (s.step()) x = extras_from_row(s);
  return x;
}

std::int64_t created_of(sql::db& d, const std::string& id) {
  sql::stmt s(d, "SELECT created_ms FROM tournaments WHERE tournament_id = ?1");
  s.bind(1, id);
  return s.step() ? s.int64(0) : 0;
}

}  // namespace

void save_stored_tournament(sql::db& d, const stored_tournament& t) {
  savepoint sp(d, "stored_tournament_save");
  save_tournament(d, t.id, t.t, t.created_ms);
  save_extras(d, t.id, t.extras);
  sp.release();
}

std::vector<stored_tournament> load_stored_tournaments(sql::db& d) {
  std::vector<stored_tournament> out;
  for (const auto& id : list_tournaments(d)) {
    auto t = load_tournament(d, id);
    if (!t) continue;
    out.push_back({id, std::move(*t), load_extras(d, id), created_of(d, id)});
  }
  return out;
}

}  // namespace cod::server::detail
