#include "persist/sqlite_tournaments.hpp"

#include "common/strcat.hpp"
#include "common/text_forms.hpp"
#include "persist/sqlite_util.hpp"

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

[[noreturn]] void corrupt(std::string_view id, const std::string& why) {
  throw persist_error(cat("tournament ", id, ": ", why));
}

void bind_player(sql::stmt& s, int i, player_id p) {
  if (p == no_player) {
    s.bind_null(i);
  } else {
    s.bind(i, p);
  }
}

player_id read_player(const sql::stmt& s, int col) {
  return s.is_null(col) ? no_player : static_cast<player_id>(s.int64(col));
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
  config c;
  {
    sql::stmt s(d,
                "SELECT name, mode, format, swiss_rounds, best_of, exhaustion, clock_bank_ms, clock_increment_ms, "
                "top_cut, seed FROM tournaments WHERE tournament_id = ?1");
    s.bind(1, id);
    if (!s.step()) return std::nullopt;
    c.name = s.text(0);
    c.mode = s.text(1);
    c.format = s.text(2);
    c.swiss_rounds = static_cast<int>(s.int64(3));
    c.best_of = static_cast<int>(s.int64(4));
    c.exhaustion = s.int64(5) != 0;
    if (!s.is_null(6)) c.clock = clock_settings{s.int64(6), s.int64(7)};
    c.top_cut = static_cast<int>(s.int64(8));
    const auto seed = parse_decimal_u64(s.text(9));
    if (!seed) corrupt(id, "the seed is not a decimal uint64");
    c.seed = *seed;
  }
  std::vector<player> players;
  {
    sql::stmt s(d,
                "SELECT player, name, token_hash, seed_order, dropped_in_round FROM tournament_players "
                "WHERE tournament_id = ?1 ORDER BY player");
    s.bind(1, id);
    while (s.step()) {
      if (s.int64(0) != static_cast<std::int64_t>(players.size())) corrupt(id, "player ids are not 0, 1, 2...");
      player p;
      p.name = s.text(1);
      p.token_hash = s.text(2);
      p.seed_order = static_cast<int>(s.int64(3));
      p.dropped_in_round = s.is_null(4) ? -1 : static_cast<int>(s.int64(4));
      players.push_back(std::move(p));
    }
  }
  const auto n = static_cast<player_id>(players.size());
  auto check_player = [&](player_id p, bool may_be_none, const char* what) {
    if (p == no_player ? !may_be_none : (p < 0 || p >= n)) corrupt(id, cat(what, " names no player"));
  };
  std::vector<round> rounds;
  {
    sql::stmt s(d, "SELECT round, kind, attempt FROM tournament_rounds WHERE tournament_id = ?1 ORDER BY round");
    s.bind(1, id);
    while (s.step()) {
      round r;
      r.number = static_cast<int>(s.int64(0));
      if (r.number != static_cast<int>(rounds.size()) + 1) corrupt(id, "rounds are not numbered 1, 2, 3...");
      const std::string kind = s.text(1);
      r.kind = kind == "swiss" ? round_kind::swiss : round_kind::top_cut;
      r.attempt = static_cast<int>(s.int64(2));
      rounds.push_back(std::move(r));
    }
  }
  // The foreign keys say the round exists, but they are only enforced where enabled.
  auto round_at = [&](std::int64_t number) -> round& {
    if (number < 1 || number > static_cast<std::int64_t>(rounds.size())) corrupt(id, "a pairing of no round");
    return rounds[static_cast<std::size_t>(number - 1)];
  };
  {
    sql::stmt s(d,
                "SELECT round, table_no, player_a, player_b FROM tournament_pairings WHERE tournament_id = ?1 "
                "ORDER BY round, table_no");
    s.bind(1, id);
    while (s.step()) {
      pairing p;
      p.table = static_cast<int>(s.int64(1));
      p.a = read_player(s, 2);
      p.b = read_player(s, 3);
      check_player(p.a, false, "a pairing");
      check_player(p.b, true, "a pairing");
      round_at(s.int64(0)).pairings.push_back(std::move(p));
    }
  }
  {
    sql::stmt s(d,
                "SELECT round, table_no, game_no, match_id, decided, winner, penalty FROM tournament_games "
                "WHERE tournament_id = ?1 ORDER BY round, table_no, game_no");
    s.bind(1, id);
    while (s.step()) {
      round& r = round_at(s.int64(0));
      pairing* p = nullptr;
      for (pairing& x : r.pairings)
        if (x.table == s.int64(1)) p = &x;
      if (!p) corrupt(id, "a game of no pairing");
      if (s.int64(2) != static_cast<std::int64_t>(p->games.size()) + 1)
        corrupt(id, cat("round ", r.number, " table ", p->table, ": games are not numbered 1, 2, 3..."));
      game g;
      g.match_id = s.is_null(3) ? std::string() : s.text(3);
      g.decided = s.int64(4) != 0;
      g.winner = read_player(s, 5);
      g.penalty = s.int64(6) != 0;
      if (g.winner != no_player && g.winner != p->a && g.winner != p->b)
        corrupt(id, cat("round ", r.number, " table ", p->table, ": a game won by a player of another table"));
      p->games.push_back(std::move(g));
    }
  }
  std::vector<log_entry> log;
  {
    sql::stmt s(d,
                "SELECT seq, at_ms, actor, act, round, player, note FROM tournament_log WHERE tournament_id = ?1 "
                "ORDER BY seq");
    s.bind(1, id);
    while (s.step()) {
      log_entry e;
      e.seq = static_cast<int>(s.int64(0));
      if (e.seq != static_cast<int>(log.size()) + 1) corrupt(id, "the log is not numbered 1, 2, 3...");
      e.at_ms = s.int64(1);
      e.actor = s.text(2);
      const auto what = act_from_name(s.text(3));
      if (!what) corrupt(id, cat("log entry ", e.seq, ": unknown act"));
      e.what = *what;
      e.round = static_cast<int>(s.int64(4));
      e.player = read_player(s, 5);
      check_player(e.player, true, "a log entry");
      e.note = s.text(6);
      log.push_back(std::move(e));
    }
  }
  return tournament::from_parts(std::move(c), std::move(players), std::move(rounds), std::move(log));
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
  if (s.step()) {
    x.spectator_delay = static_cast<int>(s.int64(0));
    x.auto_advance = s.int64(1) != 0;
  }
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
