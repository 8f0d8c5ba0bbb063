#include "persist/sqlite/sqlite_tournaments.hpp"

#include "persist/sqlite/sqlite_util.hpp"
#include "persist/tournament_record.hpp"

namespace cod::server::detail {

void save_tournament(sql::db& d, const stored_tournament& t) {
  sql::stmt up(d,
               "INSERT INTO tournaments (tournament_id, name, created_ms, finished, record_json) "
               "VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT (tournament_id) DO UPDATE SET name = excluded.name, "
               "finished = excluded.finished, record_json = excluded.record_json");
  const bool finished = t.t.current_stage() == tournaments::stage::finished;
  up.bind(1, t.id).bind(2, t.t.settings().name).bind(3, t.created_ms).bind(4, finished ? 1 : 0);
  up.bind(5, tournament_record_json(t));
  up.run();
  sql::stmt del(d, "DELETE FROM tournament_matches WHERE tournament_id = ?1");
  del.bind(1, t.id).run();
  sql::stmt add(d, "INSERT INTO tournament_matches (tournament_id, match_id) VALUES (?1, ?2)");
  for (const std::string& m : tournament_match_ids(t.t)) add.bind(1, t.id).bind(2, m).run();
}

std::vector<stored_tournament> load_tournaments(sql::db& d) {
  std::vector<stored_tournament> out;
  sql::stmt s(d, "SELECT tournament_id, created_ms, record_json FROM tournaments ORDER BY created_ms, tournament_id");
  while (s.step()) out.push_back(tournament_from_record(s.text(0), s.int64(1), s.text(2)));
  return out;
}

}  // namespace cod::server::detail
