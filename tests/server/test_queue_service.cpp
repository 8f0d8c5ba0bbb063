// The matchmaking queue as the server runs it (queue_service, docs/queue.md):
// signed-in connections queue, waves seat them in a room of their own
// (matched, joined, then state), and every refusal is an error that changes
// nothing. The harness's manual executor is the queue's too, so waves run
// when the test moves its clock.
#include <doctest/doctest.h>

#include <map>
#include <set>

#include "queue_service/queue_service.hpp"
#include "room_harness.hpp"
#include "../shared/store_reads.hpp"

using namespace cod;
using namespace cod::server;
using namespace cod::server::test;

namespace {

struct queue_fixture {
  harness h;
  std::shared_ptr<queue_service> q;
  std::int64_t next_account = 1;
  std::map<std::string, account_check> accounts;

  // Ratings read later, when the test calls each (as the account workers do).
  std::vector<std::function<void()>> rating_reads;

  explicit queue_fixture(bool defer_ratings = false) {
    h.lsvc.authenticate = [this](std::string token, std::function<void(account_check)> done) {
      auto it = accounts.find(token);
      done(it == accounts.end() ? account_check{account_check::kind::bad_session, 0, {}, false} : it->second);
      return true;
    };
    queue_services qs;
    qs.rooms = h.rooms;
    qs.ex = h.ex;
    qs.cat = &shipped();
    qs.env = &h.env;
    if (defer_ratings)
      qs.rating_of = [this](std::int64_t, queue::mode, std::function<void(double)> done) {
        rating_reads.push_back([done] { done(1500); });
      };
    q = std::make_shared<queue_service>(qs);
    q->start();
    h.lsvc.queue = [this](std::shared_ptr<client_session> who, protocol::queue_msg m) { q->enqueue(who, m); };
    h.lsvc.unqueue = [this](std::shared_ptr<client_session> who, protocol::unqueue_msg m) { q->unqueue(who, m); };
    h.lsvc.leave_queue = [this](std::uint64_t conn, std::string reason) { q->leave(conn, reason); };
    h.ex->run();
  }

  // A connection signed in as a new account `name`.
  client player(const std::string& name) {
    std::string token(32, '0');
    const std::string n = std::to_string(next_account);
    token.replace(32 - n.size(), n.size(), n);
    accounts[token] = {account_check::kind::signed_in, next_account++, name, false};
    last_token = token;
    return signed_in(token);
  }
  // Another connection of the account of `token`.
  client signed_in(const std::string& token) {
    client c = h.connect(false);
    c.say({{"type", "hello"}, {"id", 1}, {"version", 1}, {"account_token", token}});
    c.expect("welcome");
    return c;
  }
  std::string last_token;

  // The queue's waves over `ms` of its clock.
  void wait(int ms) {
    h.ex->advance(std::chrono::milliseconds(ms));
    h.ex->run();
  }
};

json queue_msg(const std::string& mode, int deck = 1, bool rated = true) {
  return {{"type", "queue"}, {"id", 5}, {"mode", mode}, {"format", "preconstructed"}, {"rated", rated},
          {"deck", {{"preconstructed", deck}}}};
}

}  // namespace

TEST_CASE("queue: two signed-in players queueing a duel are matched within a wave, seated, and the match starts") {
  queue_fixture f;
  client ada = f.player("Ada");
  client bob = f.player("Bob");
  ada.say(queue_msg("duel", 1));
  const json queued = ada.expect("queued");
  CHECK(queued.at("id") == 5);
  CHECK(queued.at("mode") == "duel");
  CHECK(queued.at("rated") == true);
  CHECK(queued.at("searching") == 1);
  bob.say(queue_msg("duel", 2));
  CHECK(bob.expect("queued").at("searching") == 2);
  CHECK(f.q->waiting() == 2);

  f.wait(3000);  // a wave is due every 2 s
  auto a = ada.take();
  auto b = bob.take();
  const json* ma = find_type(a, "matched");
  const json* mb = find_type(b, "matched");
  REQUIRE(ma);
  REQUIRE(mb);
  CHECK(ma->at("room") == mb->at("room"));
  CHECK(ma->at("seat") != mb->at("seat"));
  CHECK(ma->at("players").size() == 2);
  CHECK(ma->at("token").get<std::string>().size() == 32);
  // The seats are taken for them: joined, then the match's state.
  REQUIRE(find_type(a, "joined"));
  CHECK(find_type(a, "joined")->at("token") == ma->at("token"));
  REQUIRE(find_type(a, "state"));
  REQUIRE(find_type(b, "state"));
  CHECK(f.q->waiting() == 0);
  CHECK(f.q->matches_made() == 1);
  // The stored match: both seats bound to their accounts, under their names.
  auto unfinished = read_ok(f.h.store->reader().load_unfinished());
  REQUIRE(unfinished.size() == 1);
  for (const auto& s : unfinished[0].match.seats) {
    CHECK(s.account_id != 0);
    CHECK((s.name == "Ada" || s.name == "Bob"));
  }
  // The token matched gave resumes the seat, as any seat token does.
  client again = f.h.connect();
  again.say({{"type", "resume"}, {"id", 9}, {"room", ma->at("room")}, {"token", ma->at("token")}});
  CHECK(again.expect("joined").at("seat") == ma->at("seat"));
}

TEST_CASE("queue: four players queueing free-for-all get one table; a duel ticket of one of them is withdrawn (matched)") {
  queue_fixture f;
  std::vector<client> ps;
  for (const char* n : {"Ann", "Bea", "Cid", "Dot"}) ps.push_back(f.player(n));
  for (auto& p : ps) {
    p.say(queue_msg("ffa", 1));
    p.expect("queued");
  }
  ps[0].say(queue_msg("duel", 1));
  const std::int64_t duel_ticket = ps[0].expect("queued").at("ticket");
  f.wait(3000);
  std::string room;
  for (auto& p : ps) {
    auto msgs = p.take();
    const json* m = find_type(msgs, "matched");
    REQUIRE(m);
    CHECK(m->at("mode") == "ffa");
    if (room.empty()) room = m->at("room");
    CHECK(m->at("room") == room);
    INFO(json(msgs).dump());
    REQUIRE(find_type(msgs, "state"));
    if (&p == &ps[0]) {
      const json* u = find_type(msgs, "unqueued");
      REQUIRE(u);
      CHECK(u->at("reason") == "matched");
      CHECK(u->at("tickets") == json::array({duel_ticket}));
    }
  }
  CHECK(f.q->waiting() == 0);
}

TEST_CASE("queue: bad input is refused with its error and changes nothing") {
  queue_fixture f;
  client anon = f.h.connect();
  anon.say(queue_msg("duel"));
  CHECK(anon.expect("error").at("code") == "not_signed_in");

  client ada = f.player("Ada");
  ada.say(queue_msg("solo"));
  json e = ada.expect("error");
  CHECK(e.at("code") == "bad_field_value");
  CHECK(e.at("field") == "mode");
  json draft = queue_msg("duel");
  draft["format"] = "draft";
  ada.say(draft);
  e = ada.expect("error");
  CHECK(e.at("code") == "bad_field_value");
  CHECK(e.at("field") == "format");
  json bad_deck = queue_msg("duel");
  bad_deck["deck"] = {{"cards", {"brute"}}};
  ada.say(bad_deck);
  CHECK(ada.expect("error").at("code") == "bad_deck");
  ada.say({{"type", "queue"}, {"id", 6}, {"mode", "duel"}, {"format", "preconstructed"}});
  e = ada.expect("error");
  CHECK(e.at("code") == "missing_field");
  CHECK(e.at("field") == "deck");
  CHECK(f.q->waiting() == 0);

  ada.say(queue_msg("duel"));
  ada.expect("queued");
  ada.say(queue_msg("duel", 2));  // the same pool again
  CHECK(ada.expect("error").at("code") == "already_queued");
  ada.say(queue_msg("duel", 2, false));  // casual is another pool
  ada.expect("queued");
  CHECK(f.q->waiting() == 2);
  ada.say({{"type", "unqueue"}, {"id", 7}, {"ticket", 999}});
  CHECK(ada.expect("error").at("code") == "not_queued");
  ada.say({{"type", "unqueue"}, {"id", 8}});
  const json u = ada.expect("unqueued");
  CHECK(u.at("tickets").size() == 2);
  CHECK(u.at("reason") == "unqueued");
  CHECK(f.q->waiting() == 0);

  // While seated: already_in_room.
  client host = f.h.connect();
  const std::string room = f.h.create_room(host);
  ada.say({{"type", "join"}, {"id", 2}, {"room", room}, {"deck", {{"preconstructed", 1}}}});
  ada.expect("joined");
  ada.say(queue_msg("duel"));
  CHECK(ada.expect("error").at("code") == "already_in_room");
  CHECK(f.q->waiting() == 0);
}

TEST_CASE("queue: a client that disconnects or enters a room leaves the queue; nobody is matched with a gone player") {
  queue_fixture f;
  client ada = f.player("Ada");
  client bob = f.player("Bob");
  client cy = f.player("Cy");
  ada.say(queue_msg("duel"));
  ada.expect("queued");
  bob.say(queue_msg("duel"));
  bob.expect("queued");
  ada.disconnect();
  f.h.ex->run();
  CHECK(f.q->waiting() == 1);
  // Bob enters a room: his ticket goes, and he is told.
  client host = f.h.connect();
  const std::string room = f.h.create_room(host);
  bob.say({{"type", "spectate"}, {"id", 3}, {"room", room}});
  auto msgs = bob.take();
  REQUIRE(find_type(msgs, "unqueued"));
  CHECK(find_type(msgs, "unqueued")->at("reason") == "entered_room");
  CHECK(f.q->waiting() == 0);
  cy.say(queue_msg("duel"));
  cy.expect("queued");
  f.wait(5000);
  CHECK(find_type(cy.take(), "matched") == nullptr);
  CHECK(f.q->waiting() == 1);
  CHECK(f.q->matches_made() == 0);
}

TEST_CASE("queue: four players queueing 2v2 sit as two teams (seats 0+2 and 1+3), and a stored 2v2 match starts") {
  queue_fixture f;
  std::vector<client> ps;
  for (const char* n : {"Ann", "Bea", "Cid", "Dot"}) ps.push_back(f.player(n));
  for (std::size_t i = 0; i < ps.size(); ++i) {
    ps[i].say(queue_msg("2v2", static_cast<int>(i % 4) + 1));
    ps[i].expect("queued");
  }
  f.wait(3000);
  std::set<int> seats;
  for (auto& p : ps) {
    auto msgs = p.take();
    const json* m = find_type(msgs, "matched");
    REQUIRE(m);
    CHECK(m->at("mode") == "2v2");
    seats.insert(m->at("seat").get<int>());
    REQUIRE(find_type(msgs, "state"));
  }
  CHECK(seats == std::set<int>{0, 1, 2, 3});
  auto unfinished = read_ok(f.h.store->reader().load_unfinished());
  REQUIRE(unfinished.size() == 1);
  CHECK(unfinished[0].match.mode == "2v2");
  for (const auto& s : unfinished[0].match.seats) {
    REQUIRE(s.team);
    CHECK(*s.team == s.seat % 2);
  }
}

TEST_CASE("queue: last opponents are not paired again at once, and are forgotten after an hour") {
  queue_fixture f;
  client ada = f.player("Ada");
  const std::string ada_token = f.last_token;
  client bob = f.player("Bob");
  const std::string bob_token = f.last_token;
  ada.say(queue_msg("duel"));
  bob.say(queue_msg("duel"));
  f.wait(3000);
  REQUIRE(find_type(ada.take(), "matched"));
  REQUIRE(find_type(bob.take(), "matched"));
  ada.disconnect();
  bob.disconnect();

  // Back at once, from new connections: the same two only, so they wait.
  client ada2 = f.signed_in(ada_token);
  client bob2 = f.signed_in(bob_token);
  ada2.say(queue_msg("duel"));
  ada2.expect("queued");
  bob2.say(queue_msg("duel"));
  bob2.expect("queued");
  f.wait(10000);
  CHECK(find_type(ada2.take(), "matched") == nullptr);
  CHECK(f.q->matches_made() == 1);
  ada2.say({{"type", "unqueue"}, {"id", 3}});
  ada2.expect("unqueued");
  bob2.say({{"type", "unqueue"}, {"id", 3}});
  bob2.expect("unqueued");

  // An hour later the queue has forgotten: they meet at the first wave.
  f.wait(3'600'000);
  f.wait(61'000);  // the once-a-minute clean-up
  ada2.say(queue_msg("duel"));
  ada2.expect("queued");
  bob2.say(queue_msg("duel"));
  bob2.expect("queued");
  f.wait(3000);
  CHECK(find_type(ada2.take(), "matched") != nullptr);
  CHECK(f.q->matches_made() == 2);
}

TEST_CASE("queue: two friends queueing 2v2 naming each other play on one team; one naming a friend who did not waits") {
  queue_fixture f;
  client ada = f.player("Ada");
  client bob = f.player("Bob");
  client cid = f.player("Cid");
  client dot = f.player("Dot");
  client eve = f.player("Eve");
  auto with = [](const std::string& partner, int deck) {
    json m = queue_msg("2v2", deck);
    m["partner"] = partner;
    return m;
  };
  // Naming oneself, or a partner outside 2v2: refused.
  ada.say(with("ADA", 1));
  CHECK(ada.expect("error").at("field") == "partner");
  json duel = queue_msg("duel");
  duel["partner"] = "Bob";
  ada.say(duel);
  CHECK(ada.expect("error").at("field") == "partner");

  ada.say(with("bob", 1));  // names ignore case
  ada.expect("queued");
  eve.say(with("Zed", 2));  // Zed never queues: Eve waits
  eve.expect("queued");
  cid.say(queue_msg("2v2", 3));
  cid.expect("queued");
  dot.say(queue_msg("2v2", 4));
  dot.expect("queued");
  // Alone, Ada is not matched: her friend has not queued yet.
  f.wait(3000);
  CHECK(!find_type(ada.take(), "matched"));
  bob.say(with("Ada", 2));
  bob.expect("queued");
  f.wait(3000);
  std::map<std::string, json> matched;
  for (auto* c : {&ada, &bob, &cid, &dot}) {
    auto msgs = c->take();
    INFO(json(msgs).dump());
    const json* m = find_type(msgs, "matched");
    REQUIRE(m);
    REQUIRE(find_type(msgs, "state"));
    matched[m->at("players").at(m->at("seat").get<int>()).get<std::string>()] = *m;
  }
  CHECK(matched["Ada"].at("room") == matched["Cid"].at("room"));
  // 2v2 teams: seats 0 and 2 against 1 and 3.
  auto team = [&](const std::string& n) { return matched[n].at("seat").get<int>() % 2; };
  CHECK(team("Ada") == team("Bob"));
  CHECK(team("Cid") == team("Dot"));
  CHECK(team("Ada") != team("Cid"));
  CHECK(!find_type(eve.take(), "matched"));
  CHECK(f.q->waiting() == 1);
}

TEST_CASE("queue: a connection that closes while its rating is read leaves no search behind") {
  queue_fixture f(true);
  client ada = f.player("Ada");
  ada.say(queue_msg("duel"));
  REQUIRE(f.rating_reads.size() == 1);
  ada.disconnect();
  f.h.ex->run();
  f.rating_reads[0]();  // the rating comes back after the close
  f.h.ex->run();
  CHECK(f.q->waiting() == 0);
  client bob = f.player("Bob");
  bob.say(queue_msg("duel", 2));
  REQUIRE(f.rating_reads.size() == 2);
  f.rating_reads[1]();
  f.h.ex->run();
  bob.expect("queued");
  f.wait(3000);
  CHECK(!find_type(bob.take(), "matched"));  // nobody to meet: Ada's search is gone
}
