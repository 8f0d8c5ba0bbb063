#include "persist/pg/pg_tournaments.hpp"

#include "persist/pg/pg_util.hpp"
#include "persist/tournament_record.hpp"

namespace cod::server::pg {

const std::vector<std::pair<std::string, std::string>>& tournament_statements() {
  static const std::vector<std::pair<std::string, std::string>> list = {
      {"t_upsert",
       "INSERT INTO tournaments (tournament_id, name, created_ms, finished, record_json) "
       "VALUES ($1, $2, $3, $4, $5) ON CONFLICT (tournament_id) DO UPDATE SET name = excluded.name, "
       "finished = excluded.finished, record_json = excluded.record_json"},
      {"t_del_matches", "DELETE FROM tournament_matches WHERE tournament_id = $1"},
      // All its matches in one statement, as the batch's actions are.
      {"t_matches",
       "INSERT INTO tournament_matches (tournament_id, match_id) SELECT $1, m FROM unnest($2::text[]) AS m"},
  };
  return list;
}

void save_tournament(const stored_tournament& t, const send_fn& send) {
  const bool finished = t.t.current_stage() == tournaments::stage::finished;
  send("t_upsert", params()
                       .add(t.id)
                       .add(t.t.settings().name)
                       .add(t.created_ms)
                       .add(finished ? 1 : 0)
                       .add(detail::tournament_record_json(t)));
  send("t_del_matches", params().add(t.id));
  const std::vector<std::string> matches = detail::tournament_match_ids(t.t);
  if (!matches.empty()) send("t_matches", params().add(t.id).add(text_array(matches)));
}

std::vector<stored_tournament> load_tournaments(conn& c) {
  std::vector<stored_tournament> out;
  const result r = c.query(
      "SELECT tournament_id, created_ms, record_json FROM tournaments ORDER BY created_ms, tournament_id", {});
  for (int i = 0; i < r.rows(); ++i) out.push_back(detail::tournament_from_record(r.text(i, 0), r.int64(i, 1), r.text(i, 2)));
  return out;
}

}  // namespace cod::server::pg
