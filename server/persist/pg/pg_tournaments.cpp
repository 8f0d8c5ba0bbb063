#include "persist/pg/pg_tournaments.hpp"

#include "persist/pg/pg_util.hpp"
#include "persist/record_rows.hpp"

namespace cod::server::pg {

using namespace cod::tournaments;

const std::vector<std::pair<std::string, std::string>>& tournament_statements() {
  static const std::vector<std::pair<std::string, std::string>> list = {
      {"t_upsert",
       "INSERT INTO tournaments (tournament_id, name, mode, format, swiss_rounds, best_of, exhaustion, "
       "clock_bank_ms, clock_increment_ms, top_cut, seed, created_ms, stage) "
       "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) "
       "ON CONFLICT (tournament_id) DO UPDATE SET name = $2, mode = $3, format = $4, swiss_rounds = $5, "
       "best_of = $6, exhaustion = $7, clock_bank_ms = $8, clock_increment_ms = $9, top_cut = $10, "
       "seed = $11, stage = $13"},
      // Children first, parents last (the foreign keys).
      {"t_del_games", "DELETE FROM tournament_games WHERE tournament_id = $1"},
      {"t_del_pairings", "DELETE FROM tournament_pairings WHERE tournament_id = $1"},
      {"t_del_rounds", "DELETE FROM tournament_rounds WHERE tournament_id = $1"},
      {"t_del_log", "DELETE FROM tournament_log WHERE tournament_id = $1"},
      {"t_del_players", "DELETE FROM tournament_players WHERE tournament_id = $1"},
      {"t_player", "INSERT INTO tournament_players VALUES ($1, $2, $3, $4, $5, $6)"},
      {"t_round", "INSERT INTO tournament_rounds VALUES ($1, $2, $3, $4)"},
      {"t_pairing", "INSERT INTO tournament_pairings VALUES ($1, $2, $3, $4, $5)"},
      {"t_game", "INSERT INTO tournament_games VALUES ($1, $2, $3, $4, $5, $6, $7, $8)"},
      {"t_log", "INSERT INTO tournament_log VALUES ($1, $2, $3, $4, $5, $6, $7, $8)"},
      {"t_extras",
       "INSERT INTO tournament_server_options (tournament_id, spectator_delay, auto_advance) VALUES ($1, $2, $3) "
       "ON CONFLICT (tournament_id) DO UPDATE SET spectator_delay = $2, auto_advance = $3"},
  };
  return list;
}

namespace {

params& add_player(params& p, player_id v) { return v == no_player ? p.add_null() : p.add(v); }

}  // namespace

void save_tournament(const stored_tournament& st, const send_fn& send) {
  const std::string& id = st.id;
  const tournament& t = st.t;
  const config& c = t.settings();
  {
    params p;
    p.add(id).add(c.name).add(c.mode).add(c.format).add(c.swiss_rounds).add(c.best_of).add(c.exhaustion ? 1 : 0);
    if (c.clock) p.add(c.clock->bank_ms).add(c.clock->increment_ms);
    else p.add_null().add_null();
    p.add(c.top_cut).add(std::to_string(c.seed)).add(st.created_ms).add(stage_name(t.current_stage()));
    send("t_upsert", p);
  }
  const params by_id = params().add(id);
  for (const char* del : {"t_del_games", "t_del_pairings", "t_del_rounds", "t_del_log", "t_del_players"})
    send(del, by_id);
  for (std::size_t i = 0; i < t.players().size(); ++i) {
    const player& pl = t.players()[i];
    params p;
    p.add(id).add(static_cast<int>(i)).add(pl.name).add(pl.token_hash).add(pl.seed_order);
    if (pl.dropped()) p.add(pl.dropped_in_round);
    else p.add_null();
    send("t_player", p);
  }
  for (const round& r : t.rounds()) {
    send("t_round", params().add(id).add(r.number).add(r.kind == round_kind::swiss ? "swiss" : "top_cut").add(r.attempt));
    for (const pairing& pr : r.pairings) {
      params p;
      p.add(id).add(r.number).add(pr.table).add(pr.a);
      send("t_pairing", add_player(p, pr.b));
      for (std::size_t g = 0; g < pr.games.size(); ++g) {
        const game& x = pr.games[g];
        params q;
        q.add(id).add(r.number).add(pr.table).add(static_cast<int>(g) + 1);
        if (x.match_id.empty()) q.add_null();
        else q.add(x.match_id);
        q.add(x.decided ? 1 : 0);
        add_player(q, x.winner).add(x.penalty ? 1 : 0);
        send("t_game", q);
      }
    }
  }
  for (const log_entry& e : t.log()) {
    params p;
    p.add(id).add(e.seq).add(e.at_ms).add(e.actor).add(act_name(e.what)).add(e.round);
    add_player(p, e.player).add(e.note);
    send("t_log", p);
  }
  send("t_extras", params().add(id).add(st.extras.spectator_delay).add(st.extras.auto_advance ? 1 : 0));
}

namespace {

void feed(conn& c, const char* sql, const std::string& id, detail::tournament_rows& rows,
          void (detail::tournament_rows::*read)(const detail::row_view&)) {
  const result r = c.query(sql, params().add(id));
  for (int i = 0; i < r.rows(); ++i) (rows.*read)(row(r, i));
}

}  // namespace

std::vector<stored_tournament> load_tournaments(conn& c) {
  std::vector<stored_tournament> out;
  const result list = c.query(
      "SELECT tournament_id, created_ms, name, mode, format, swiss_rounds, best_of, exhaustion, clock_bank_ms, "
      "clock_increment_ms, top_cut, seed, o.spectator_delay, o.auto_advance FROM tournaments t "
      "LEFT JOIN tournament_server_options o USING (tournament_id) ORDER BY created_ms, tournament_id",
      {});
  for (int i = 0; i < list.rows(); ++i) {
    // The config columns start at 2: a row_view shifted past id and created_ms.
    struct shifted final : detail::row_view {
      const result& r;
      int i, by;
      shifted(const result& r, int i, int by) : r(r), i(i), by(by) {}
      bool is_null(int col) const override { return r.is_null(i, col + by); }
      std::int64_t int64(int col) const override { return r.int64(i, col + by); }
      std::string text(int col) const override { return r.text(i, col + by); }
    };
    const std::string id = list.text(i, 0);
    detail::tournament_rows rows(id);
    rows.config_row(shifted(list, i, 2));
    feed(c,
         "SELECT player, name, token_hash, seed_order, dropped_in_round FROM tournament_players "
         "WHERE tournament_id = $1 ORDER BY player",
         id, rows, &detail::tournament_rows::player_row);
    feed(c, "SELECT round, kind, attempt FROM tournament_rounds WHERE tournament_id = $1 ORDER BY round", id, rows,
         &detail::tournament_rows::round_row);
    feed(c,
         "SELECT round, table_no, player_a, player_b FROM tournament_pairings WHERE tournament_id = $1 "
         "ORDER BY round, table_no",
         id, rows, &detail::tournament_rows::pairing_row);
    feed(c,
         "SELECT round, table_no, game_no, match_id, decided, winner, penalty FROM tournament_games "
         "WHERE tournament_id = $1 ORDER BY round, table_no, game_no",
         id, rows, &detail::tournament_rows::game_row);
    feed(c,
         "SELECT seq, at_ms, actor, act, round, player, note FROM tournament_log WHERE tournament_id = $1 "
         "ORDER BY seq",
         id, rows, &detail::tournament_rows::log_row);
    stored_tournament st{id, rows.finish(), {}, list.int64(i, 1)};
    if (!list.is_null(i, 12)) st.extras = detail::extras_from_row(shifted(list, i, 12));
    out.push_back(std::move(st));
  }
  return out;
}

}  // namespace cod::server::pg
