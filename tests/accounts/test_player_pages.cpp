// The public ladders and players' pages (player_pages.hpp) through the
// accounts' routes, on a memory store whose rated matches are written as
// the server writes them: create_match, an action from each seat,
// finish_match (the rating change in its transaction).
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "account_service/account_api.hpp"
#include "helpers.hpp"
#include "persist/rating_update.hpp"

using namespace cod::server;
using namespace cod::server::accounts;
using namespace cod::server::accounts::test;
using nlohmann::json;

namespace {

struct pages_bench : bench {
  player_pages pages{*store.accounts(), store.reader()};
  account_api api{*svc, &pages};
  int matches = 0;

  // A duel between two accounts' seats, `winner` (a seat, or -1 for a
  // draw) winning; `rated` as the rated queue's rooms are.
  std::string duel(std::int64_t a0, std::int64_t a1, int winner, bool rated = true) {
    match_record m;
    m.match_id = "m" + std::to_string(++matches);
    m.room_id = "r" + m.match_id;
    m.mode = "duel";
    m.format = "preconstructed";
    m.created_ms = wall + matches * 1000;
    m.rated = rated;
    for (int s = 0; s < 2; ++s) {
      seat_record seat{s, s == 0 ? "p0" : "p1", "hash" + std::to_string(s), R"({"preconstructed":1})"};
      seat.account_id = s == 0 ? a0 : a1;
      m.seats.push_back(seat);
    }
    store.create_match(m, [](status st) { REQUIRE(st); });
    for (int s = 0; s < 2; ++s)
      store.append_action(m.match_id, {s + 1, s, R"({"type":"end_turn"})", 1, m.created_ms + s},
                          [](status st) { REQUIRE(st); });
    match_result r{winner < 0 ? std::vector<int>{} : std::vector<int>{winner}, "fort_destroyed",
                   m.created_ms + 500};
    store.finish_match(m.match_id, r, [](status st) { REQUIRE(st); });
    store.flush();
    return m.match_id;
  }

  admin::response get(const std::string& target, const std::string& method = "GET") const {
    admin::request r;
    r.method = method;
    r.target = target;
    r.remote = "198.51.100.7:50312";
    return api.handle(r);
  }
  json get_json(const std::string& target) const {
    auto r = get(target);
    REQUIRE_MESSAGE(r.status == 200, r.body);
    return json::parse(r.body);
  }
  bool provisional_on_duel(std::int64_t account) {
    auto rows = store.reader().load_ratings(account);
    REQUIRE(rows);
    REQUIRE(rows->size() == 1);
    return provisional("duel", (*rows)[0].r);
  }
};

std::string header(const admin::response& r, const std::string& name) {
  for (const auto& [k, v] : r.headers)
    if (k == name) return v;
  return {};
}

}  // namespace

TEST_CASE("player pages: the ladder ranks established ratings, paged; provisional, disabled, deleted left out") {
  pages_bench b;
  const std::int64_t ann = b.registered("Ann").account.account_id;
  const std::int64_t bob = b.registered("Bob").account.account_id;
  const std::int64_t cat = b.registered("Cat").account.account_id;

  // One game each: everyone provisional (RD >= 110), the ladder empty.
  b.duel(cat, ann, 0);
  json j = b.get_json("/api/ladder/duel");
  CHECK(j["ladder"] == "duel");
  CHECK(j["players"].empty());
  CHECK(j["offset"] == 0);
  CHECK(j["next_offset"].is_null());

  // Ann and Bob play until both are established; Ann wins two in three.
  for (int g = 0; g < 100 && (b.provisional_on_duel(ann) || b.provisional_on_duel(bob)); ++g)
    b.duel(ann, bob, g % 3 == 2 ? 1 : 0);
  REQUIRE_FALSE(b.provisional_on_duel(ann));
  REQUIRE_FALSE(b.provisional_on_duel(bob));
  REQUIRE(b.provisional_on_duel(cat));

  const auto page = b.get("/api/ladder/duel");
  CHECK(header(page, "Cache-Control") == "public, max-age=10");
  j = json::parse(page.body);
  REQUIRE(j["players"].size() == 2);  // Cat is provisional
  const json first = j["players"][0];
  CHECK(first["rank"] == 1);
  CHECK(first["id"] == ann);
  CHECK(first["name"] == "Ann");
  const auto ann_rows = *b.store.reader().load_ratings(ann);
  CHECK(first["rating"] == std::llround(ann_rows[0].display));
  CHECK(first["deviation"] == std::llround(ann_rows[0].r.deviation));
  CHECK(first["deviation"].get<int>() < 110);
  CHECK(first["games"] == ann_rows[0].games);
  CHECK(first["wins"] == ann_rows[0].wins);
  CHECK(first["losses"] == ann_rows[0].losses);
  CHECK(j["players"][1]["rank"] == 2);
  CHECK(j["players"][1]["name"] == "Bob");
  CHECK(j["next_offset"].is_null());

  // Pages: rank is offset + index + 1; next_offset while there is more.
  j = b.get_json("/api/ladder/duel?limit=1");
  REQUIRE(j["players"].size() == 1);
  CHECK(j["next_offset"] == 1);
  j = b.get_json("/api/ladder/duel?offset=1&limit=1");
  REQUIRE(j["players"].size() == 1);
  CHECK(j["players"][0]["rank"] == 2);
  CHECK(j["players"][0]["name"] == "Bob");
  CHECK(j["offset"] == 1);
  CHECK(j["next_offset"].is_null());
  CHECK(b.get_json("/api/ladder/duel?offset=5")["players"].empty());
  CHECK(b.get_json("/api/ladder/ffa")["players"].empty());

  // A disabled account leaves the ladder, and comes back when enabled.
  REQUIRE(b.svc->set_disabled(ann, true));
  j = b.get_json("/api/ladder/duel");
  REQUIRE(j["players"].size() == 1);
  CHECK(j["players"][0]["name"] == "Bob");
  CHECK(j["players"][0]["rank"] == 1);
  REQUIRE(b.svc->set_disabled(ann, false));
  CHECK(b.get_json("/api/ladder/duel")["players"].size() == 2);
  // A deleted one leaves it for good.
  auto bob_in = b.svc->login("Bob", "correct horse battery", "198.51.100.7", b.now);
  REQUIRE(bob_in);
  REQUIRE(b.svc->delete_account(bob_in->token, "correct horse battery", "198.51.100.7", b.now));
  j = b.get_json("/api/ladder/duel");
  REQUIRE(j["players"].size() == 1);
  CHECK(j["players"][0]["name"] == "Ann");
}

TEST_CASE("player pages: a player's ratings, history and recent matches") {
  pages_bench b;
  const std::int64_t ann = b.registered("Ann").account.account_id;
  const std::int64_t bob = b.registered("Bob").account.account_id;
  const std::string won = b.duel(ann, bob, 0);
  const std::string lost = b.duel(bob, ann, 0);
  const std::string drawn = b.duel(ann, bob, -1);
  const std::string casual = b.duel(bob, ann, 1, false);

  const auto r = b.get("/api/players/aNN");  // the name ignoring case
  REQUIRE(r.status == 200);
  CHECK(header(r, "Cache-Control").empty());  // the session's no-store: fresh after a game
  const json j = json::parse(r.body);
  CHECK(j["player"] == json{{"id", ann}, {"name", "Ann"}, {"guest", false}, {"created_ms", b.wall}});

  REQUIRE(j["ratings"].size() == 1);
  const json rating = j["ratings"][0];
  const auto rows = *b.store.reader().load_ratings(ann);
  CHECK(rating["ladder"] == "duel");
  CHECK(rating["rating"] == std::llround(rows[0].display));
  CHECK(rating["deviation"] == std::llround(rows[0].r.deviation));
  CHECK(rating["games"] == 3);
  CHECK(rating["wins"] == 1);
  CHECK(rating["losses"] == 1);
  CHECK(rating["provisional"] == true);

  // History: the rated games, newest first; each adds up.
  const json h = j["history"];
  REQUIRE(h.size() == 3);
  CHECK(h[0]["match_id"] == drawn);
  CHECK(h[0]["result"] == "draw");
  CHECK(h[1]["match_id"] == lost);
  CHECK(h[1]["result"] == "loss");
  CHECK(h[1]["delta"].get<int>() < 0);
  CHECK(h[2]["match_id"] == won);
  CHECK(h[2]["result"] == "win");
  CHECK(h[2]["before"] == 1500);
  CHECK(h[2]["delta"].get<int>() > 0);
  for (const json& e : h) {
    CHECK(e["ladder"] == "duel");
    CHECK(e["after"].get<int>() - e["before"].get<int>() == e["delta"].get<int>());
  }
  CHECK(h[0]["after"] == rating["rating"]);
  CHECK(h[0]["ended_ms"].get<std::int64_t>() > h[1]["ended_ms"].get<std::int64_t>());

  // Matches: every game, rated or not, newest first, with its change.
  const json m = j["matches"];
  REQUIRE(m.size() == 4);
  CHECK(m[0]["match_id"] == casual);
  CHECK(m[0]["mode"] == "duel");
  CHECK(m[0]["result"] == "win");  // seat 1 won, and Ann sat there
  CHECK(m[0]["rating_change"].is_null());
  CHECK(m[1]["match_id"] == drawn);
  CHECK(m[1]["rating_change"] == h[0]["delta"]);
  CHECK(m[2]["result"] == "loss");
  CHECK(m[2]["rating_change"] == h[1]["delta"]);
  CHECK(m[3]["result"] == "win");
  CHECK(m[3]["ended_ms"].is_number());

  // Bob's page is his side of the same games.
  const json bj = b.get_json("/api/players/Bob");
  REQUIRE(bj["history"].size() == 3);
  CHECK(bj["history"][2]["result"] == "loss");
  CHECK(bj["matches"][0]["result"] == "loss");

  // A guest has a page too; one with no games, empty lists.
  auto guest = b.svc->guest("198.51.100.8", b.now);
  REQUIRE(guest);
  const json gj = b.get_json("/api/players/" + guest->account.name);
  CHECK(gj["player"]["guest"] == true);
  CHECK(gj["ratings"].empty());
  CHECK(gj["history"].empty());
  CHECK(gj["matches"].empty());
}

TEST_CASE("player pages: the recent matches are the newest 20, the history the newest 50") {
  pages_bench b;
  const std::int64_t ann = b.registered("Ann").account.account_id;
  const std::int64_t bob = b.registered("Bob").account.account_id;
  std::string newest;
  for (int g = 0; g < 55; ++g) newest = b.duel(ann, bob, g % 2);
  const json j = b.get_json("/api/players/Ann");
  CHECK(j["history"].size() == 50);
  REQUIRE(j["matches"].size() == 20);
  CHECK(j["matches"][0]["match_id"] == newest);
  CHECK(j["history"][0]["match_id"] == newest);
  CHECK(j["ratings"][0]["games"] == 55);
  for (int i = 0; i < 20; ++i) CHECK(j["matches"][i]["rating_change"] == j["history"][i]["delta"]);
}

TEST_CASE("player pages: bad input, methods, unknown names") {
  pages_bench b;
  b.registered("Ann");
  auto r = b.get("/api/ladder/chess");
  CHECK(r.status == 404);
  CHECK(r.code == "no_such_ladder");
  for (const char* bad : {"limit=0", "limit=101", "limit=x", "offset=-1", "offset=1.5", "limit=1&limit=2"}) {
    INFO(bad);
    r = b.get(std::string("/api/ladder/duel?") + bad);
    CHECK(r.status == 400);
    CHECK(r.code == "bad_parameter");
  }
  r = b.get("/api/ladder/duel?page=2");
  CHECK(r.status == 400);
  CHECK(r.code == "unknown_parameter");
  CHECK(json::parse(r.body)["param"] == "page");
  CHECK(b.get("/api/ladder/duel?limit=100").status == 200);
  CHECK(b.get("/api/ladder/duel", "HEAD").status == 200);

  r = b.get("/api/ladder/duel", "POST");
  CHECK(r.status == 405);
  CHECK(b.get("/api/players/Ann", "DELETE").status == 405);
  CHECK(b.get("/api/ladder").status == 404);
  CHECK(b.get("/api/players/Ann/games").status == 404);

  r = b.get("/api/players/nobody");
  CHECK(r.status == 404);
  CHECK(r.code == "no_such_player");
  CHECK(b.get("/api/players/Ann?x=1").code == "unknown_parameter");
  CHECK(b.get("/api/players/A%6En").status == 200);  // %-escapes decoded
  CHECK(b.get("/api/players/A%zz").status == 400);

  // A deleted account has no page, under either name.
  auto in = b.svc->login("Ann", "correct horse battery", "198.51.100.7", b.now);
  REQUIRE(in);
  REQUIRE(b.svc->delete_account(in->token, "correct horse battery", "198.51.100.7", b.now));
  CHECK(b.get("/api/players/Ann").code == "no_such_player");
  CHECK(b.get("/api/players/deleted%20player%201").code == "no_such_player");

  // Without the pages (a server with no match reads), the routes are not there.
  account_api bare(*b.svc);
  admin::request q;
  q.method = "GET";
  q.target = "/api/ladder/duel";
  CHECK(bare.handle(q).status == 404);
}
