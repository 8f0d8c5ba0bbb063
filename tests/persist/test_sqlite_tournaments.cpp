// The SQLite store's tournament rows (sqlite_tournaments.hpp), through the
// real schema: the value comes back equal.
#include <unistd.h>

#include <filesystem>

#include "../tournament/helpers.hpp"
#include "persist/sqlite/sqlite_migrations.hpp"
#include "persist/sqlite/sqlite_tournaments.hpp"
#include "persist/sqlite/sqlite_util.hpp"

using namespace cod;
using namespace cod::tournaments;
using namespace cod::tournaments::test;
using namespace cod::server::detail;
namespace sql = cod::server::sql;

namespace {

struct temp_db {
  std::filesystem::path path;
  temp_db() {
    std::string name = "cod_tournament_store_";
    name += std::to_string(::getpid());
    name += ".db";
    path = std::filesystem::temp_directory_path() / name;
    std::filesystem::remove(path);
  }
  ~temp_db() {
    std::error_code ec;
    for (const char* ext : {"", "-wal", "-shm", "-journal"}) std::filesystem::remove(path.string() + ext, ec);
  }
};

// The games' matches rows (foreign keys are on, as on the server's writer).
void add_matches(sql::db& d, const tournament& t) {
  sql::stmt s(d,
              "INSERT OR IGNORE INTO matches (match_id, room_id, mode, format, rules_version, engine_version, seed, "
              "seed_hash, created_ms) VALUES (?1, 'room', 'duel', 'preconstructed', 'v', 1, '1', 'h', 0)");
  for (const round& r : t.rounds())
    for (const pairing& p : r.pairings)
      for (const game& g : p.games)
        if (!g.match_id.empty()) s.bind(1, g.match_id).run();
}

}  // namespace

TEST_CASE("sqlite tournaments: save and load give back the same tournament, at every step") {
  temp_db tmp;
  sql::db d(tmp.path.string(), sql::db::mode::read_write_create);
  server::migrate(d);
  d.exec("PRAGMA foreign_keys = ON");
  CHECK(!load_tournament(d, "t1"));

  config c = make_config(3, 3, 4, 1234567890123456789ULL);
  c.clock = clock_settings{60000, 2000};
  c.exhaustion = false;
  tournament t = make(9, c);
  rng h(3);
  save_tournament(d, "t1", t, 111);
  CHECK(load_tournament(d, "t1") == t);
  // Through the Swiss rounds, a drop, a game loss, a re-pair, a drawn game,
  // a game in progress, and the top cut to the end.
  for (int step = 0; t.current_stage() != stage::finished; ++step) {
    REQUIRE(t.start_next_round("server", step).ok());
    if (step == 0) REQUIRE(t.repair_round("org", step, "again").ok());
    if (step == 1) REQUIRE(t.drop_player("org", step, t.rounds().back().pairings[0].a, "left").ok());
    if (step == 2) {
      const pairing& p = t.rounds().back().pairings[0];
      REQUIRE(t.give_game_loss("judge", step, p.b, "late").ok());
      REQUIRE(t.attach_match(p.table, "running").ok());
      add_matches(d, t);
      save_tournament(d, "t1", t, 999);
      CHECK(load_tournament(d, "t1") == t);
      REQUIRE(t.report_game("running", no_player).ok());  // a drawn game
    }
    play_round(t, random_results(h, 5));
    add_matches(d, t);
    save_tournament(d, "t1", t, 999);
    const auto back = load_tournament(d, "t1");
    REQUIRE(back);
    CHECK(*back == t);
    CHECK(back->standings() == t.standings());
  }
  CHECK(t.rounds().size() == 5);  // 3 Swiss + semi-finals + final
  sql::stmt s(d, "SELECT created_ms, stage, seed FROM tournaments WHERE tournament_id = 't1'");
  REQUIRE(s.step());
  CHECK(s.int64(0) == 111);  // from the first save
  CHECK(s.text(1) == "finished");
  CHECK(s.text(2) == "1234567890123456789");

  // A second tournament beside it; the list is oldest first.
  tournament u = make(4, make_config(2));
  save_tournament(d, "t0", u, 222);
  CHECK(list_tournaments(d) == std::vector<std::string>{"t1", "t0"});
  CHECK(load_tournament(d, "t0") == u);
  CHECK(load_tournament(d, "t1") == t);
}

TEST_CASE("sqlite tournaments: a save that fails leaves the stored tournament as it was") {
  temp_db tmp;
  sql::db d(tmp.path.string(), sql::db::mode::read_write_create);
  server::migrate(d);
  d.exec("PRAGMA foreign_keys = ON");
  tournament t = make(4, make_config(2));
  save_tournament(d, "t", t, 1);
  REQUIRE(t.start_next_round("server", 0).ok());
  REQUIRE(t.attach_match(1, "no-such-match").ok());  // no matches row: the foreign key refuses it
  CHECK_THROWS_AS(save_tournament(d, "t", t, 1), server::persist_error);
  const auto back = load_tournament(d, "t");
  REQUIRE(back);
  CHECK(back->rounds().empty());
  CHECK(*back == make(4, make_config(2)));
}

TEST_CASE("sqlite tournaments: stored rows that do not form a tournament are refused, saying why") {
  temp_db tmp;
  sql::db d(tmp.path.string(), sql::db::mode::read_write_create);
  server::migrate(d);
  tournament t = make(4, make_config(2));
  REQUIRE(t.start_next_round("server", 0).ok());
  save_tournament(d, "t", t, 1);
  d.exec("UPDATE tournament_players SET player = 7 WHERE player = 3");
  try {
    (void)load_tournament(d, "t");
    FAIL("loaded");
  } catch (const server::persist_error& e) {
    CHECK(std::string(e.what()).find("player ids") != std::string::npos);
  }
}
