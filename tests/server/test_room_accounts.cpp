// Playing signed in (docs/accounts.md, "Playing signed in"): a hello with an
// account_token makes the connection that account; its joins take the
// account's name and bind the seat to it (stored in match_seats.account_id);
// any of the account's connections resumes the seat without the seat token,
// after a restart too. The account check is the lobby's `authenticate`
// (the account workers in the server), faked here: answered at once or
// held back, to see what waits for it.
#include <doctest/doctest.h>

#include <deque>
#include <functional>
#include <map>

#include "room_harness.hpp"
#include "../shared/store_reads.hpp"

using namespace cod;
using namespace cod::server;
using namespace cod::server::test;

namespace {

const std::string ada_token(32, 'a');
const std::string bob_token(32, 'b');
const std::string off_token(32, 'd');   // a disabled account's
const std::string down_token(32, 'e');  // the store cannot be read

// The account service as the lobby sees it: tokens to accounts.
struct fake_accounts {
  std::map<std::string, account_check> by_token{
      {ada_token, {account_check::kind::signed_in, 7, "Ada", false}},
      {bob_token, {account_check::kind::signed_in, 9, "guest-0badf00d", true}},
      {off_token, {account_check::kind::disabled, 0, {}, false}},
      {down_token, {account_check::kind::unavailable, 0, {}, false}},
  };
  bool hold = false;   // keep the answers until release()
  bool full = false;   // the workers' queue is full
  std::deque<std::function<void()>> held;
  int asked = 0;

  void install(harness& h) {
    h.lsvc.authenticate = [this](std::string token, std::function<void(account_check)> done) {
      if (full) return false;
      ++asked;
      auto it = by_token.find(token);
      account_check a = it == by_token.end() ? account_check{account_check::kind::bad_session, 0, {}, false} : it->second;
      auto answer = [a, done = std::move(done)] { done(a); };
      if (hold) held.push_back(std::move(answer));
      else answer();
      return true;
    };
  }
  void release(harness& h) {
    while (!held.empty()) {
      auto f = std::move(held.front());
      held.pop_front();
      f();
    }
    h.ex->run();
  }
};

client signed_in(harness& h, const std::string& token) {
  client c = h.connect(false);
  c.say({{"type", "hello"}, {"id", 1}, {"version", 1}, {"account_token", token}});
  return c;
}

json join_msg(const std::string& room, int deck, std::optional<std::string> name = std::nullopt) {
  json j = {{"type", "join"}, {"id", 2}, {"room", room}, {"deck", {{"preconstructed", deck}}}};
  if (name) j["name"] = *name;
  return j;
}

}  // namespace

TEST_CASE("accounts in rooms: a signed-in hello is welcomed as the account; its join takes the account's name and binds the seat") {
  harness h;
  fake_accounts accounts;
  accounts.install(h);
  client ada = signed_in(h, ada_token);
  const json welcome = ada.expect("welcome");
  REQUIRE(welcome.contains("account"));
  CHECK(welcome.at("account") == json{{"id", 7}, {"name", "Ada"}, {"guest", false}});
  CHECK(ada.session->account_id() == 7);

  client host = h.connect();
  const std::string room = h.create_room(host);
  ada.say(join_msg(room, 1));  // no "name": the account's
  const json joined = ada.expect("joined");
  CHECK(joined.at("seat") == 0);
  CHECK(joined.at("token").get<std::string>().size() == 32);
  client bob = h.connect();
  bob.say(join_msg(room, 2, "bob"));
  auto msgs = bob.take();
  const json* st = find_type(msgs, "state");
  REQUIRE(st);
  CHECK(list_one(host).at("seats").at(0).at("name") == "Ada");

  // The stored seats: Ada's bound to account 7, bob's (a typed name) to none.
  auto unfinished = read_ok(h.store->reader().load_unfinished());
  REQUIRE(unfinished.size() == 1);
  const auto& seats = unfinished[0].match.seats;
  REQUIRE(seats.size() == 2);
  CHECK(seats[0].name == "Ada");
  CHECK(seats[0].account_id == 7);
  CHECK(seats[1].name == "bob");
  CHECK(seats[1].account_id == 0);
}

TEST_CASE("accounts in rooms: a signed-in join naming another name is refused; the account's own name in any case is its") {
  harness h;
  fake_accounts accounts;
  accounts.install(h);
  client ada = signed_in(h, ada_token);
  ada.expect("welcome");
  client host = h.connect();
  const std::string room = h.create_room(host);
  ada.say(join_msg(room, 1, "Mallory"));
  const json e = ada.expect("error");
  CHECK(e.at("code") == "bad_field_value");
  CHECK(e.at("field") == "name");
  CHECK(e.at("message").get<std::string>().find("signed in as Ada") != std::string::npos);
  CHECK(list_one(host).at("seats").at(0).at("taken") == false);  // nothing taken
  ada.say(join_msg(room, 1, "aDA"));
  CHECK(ada.expect("joined").at("seat") == 0);
  CHECK(list_one(host).at("seats").at(0).at("name") == "Ada");
}

TEST_CASE("accounts in rooms: without a sign-in, a join needs a name and a resume a token (not_signed_in)") {
  harness h;
  fake_accounts accounts;
  accounts.install(h);
  client anon = h.connect();
  client host = h.connect();
  const std::string room = h.create_room(host);
  anon.say(join_msg(room, 1));
  CHECK(anon.expect("error").at("code") == "not_signed_in");
  anon.say({{"type", "resume"}, {"id", 3}, {"room", room}});
  CHECK(anon.expect("error").at("code") == "not_signed_in");
  // Still free to join with a name.
  anon.say(join_msg(room, 1, "anon"));
  CHECK(anon.expect("joined").at("seat") == 0);
}

TEST_CASE("accounts in rooms: one seat an account in a room (account_seated); another connection of the account resumes it without the token") {
  harness h;
  fake_accounts accounts;
  accounts.install(h);
  client host = h.connect();
  const std::string room = h.create_room(host);
  client ada = signed_in(h, ada_token);
  ada.expect("welcome");
  ada.say(join_msg(room, 1));
  ada.expect("joined");

  client ada2 = signed_in(h, ada_token);
  ada2.expect("welcome");
  ada2.say(join_msg(room, 2));
  const json e = ada2.expect("error");
  CHECK(e.at("code") == "account_seated");
  CHECK(e.at("message").get<std::string>().find("seat 0") != std::string::npos);

  client bob = signed_in(h, bob_token);
  bob.expect("welcome");
  bob.say(join_msg(room, 2));
  CHECK(bob.expect("joined").at("seat") == 1);

  // Ada's second connection takes the seat back: no token in the reply (it
  // is stored only as a hash), the state follows, the first connection is told.
  ada2.say({{"type", "resume"}, {"id", 4}, {"room", room}});
  auto msgs = ada2.take();
  const json* joined = find_type(msgs, "joined");
  REQUIRE(joined);
  CHECK(joined->at("seat") == 0);
  CHECK_FALSE(joined->contains("token"));
  REQUIRE(find_type(msgs, "state"));
  CHECK(find_type(msgs, "state")->at("view").at("viewer") == 0);
  CHECK(find_type(ada.take(), "left") != nullptr);

  // An account with no seat here: bad_token, nothing changes.
  accounts.by_token[std::string(32, 'c')] = {account_check::kind::signed_in, 11, "Cy", false};
  client cy = signed_in(h, std::string(32, 'c'));
  cy.expect("welcome");
  cy.say({{"type", "resume"}, {"id", 5}, {"room", room}});
  const json e2 = cy.expect("error");
  CHECK(e2.at("code") == "bad_token");
  CHECK(e2.at("message") == "your account holds no seat of this room");
}

TEST_CASE("accounts in rooms: a bad, disabled or unreadable session is refused and the hello not taken; a busy service answers server_busy") {
  harness h;
  fake_accounts accounts;
  accounts.install(h);
  for (const auto& [token, code] : std::vector<std::pair<std::string, std::string>>{
           {std::string(32, 'f'), "bad_session"}, {off_token, "account_disabled"}, {down_token, "server_busy"}}) {
    CAPTURE(code);
    client c = signed_in(h, token);
    CHECK(c.expect("error").at("code") == code);
    CHECK(c.session->account_id() == 0);
    CHECK_FALSE(c.session->said_hello());
    c.say({{"type", "list_rooms"}, {"id", 2}});
    CHECK(c.expect("error").at("code") == "hello_required");
    // A hello without the token is still welcome.
    c.say({{"type", "hello"}, {"id", 3}, {"version", 1}});
    CHECK_FALSE(c.expect("welcome").contains("account"));
  }
  accounts.full = true;
  client busy = signed_in(h, ada_token);
  const json e = busy.expect("error");
  CHECK(e.at("code") == "server_busy");
  CHECK_FALSE(busy.session->said_hello());

  // A server keeping no accounts: every account_token is bad_session.
  harness plain;
  client p = signed_in(plain, ada_token);
  const json pe = p.expect("error");
  CHECK(pe.at("code") == "bad_session");
  CHECK(pe.at("message").get<std::string>().find("keeps no accounts") != std::string::npos);
}

TEST_CASE("accounts in rooms: what a client sends while its session is checked waits, and is read after the welcome, in order") {
  harness h;
  fake_accounts accounts;
  accounts.install(h);
  client host = h.connect();
  const std::string room = h.create_room(host);
  accounts.hold = true;
  client ada = signed_in(h, ada_token);
  ada.say(join_msg(room, 1));
  ada.say({{"type", "ping"}, {"id", 3}});
  CHECK(ada.take().empty());  // nothing answered yet
  CHECK(accounts.asked == 1);
  accounts.release(h);
  auto msgs = ada.take();
  REQUIRE(msgs.size() == 3);
  CHECK(msgs[0].at("type") == "welcome");
  // The join and the ping were read after it (the join's reply comes from
  // the room, so the two replies may come in either order).
  CHECK(find_type(msgs, "joined") != nullptr);
  CHECK(find_type(msgs, "pong") != nullptr);

  // A second hello with a token while the first is checked waits too, and
  // is then a duplicate; a flood meanwhile loses its excess.
  client bob = signed_in(h, bob_token);
  bob.say({{"type", "hello"}, {"id", 5}, {"version", 1}, {"account_token", ada_token}});
  for (int i = 0; i < 40; ++i) bob.say({{"type", "ping"}, {"id", 100 + i}});
  auto early = bob.take();
  CHECK(early.size() == 9);  // 40 pings - 31 places left
  for (const auto& m : early) CHECK(m.at("code") == "rate_limited");
  accounts.release(h);
  auto later = bob.take();
  REQUIRE(later.size() == 33);
  CHECK(later[0].at("account").at("id") == 9);
  CHECK(later[1].at("code") == "duplicate_hello");
  CHECK(later[2].at("type") == "pong");
  CHECK(later[32].at("id") == 130);
  CHECK(accounts.asked == 2);
}

TEST_CASE("accounts in rooms: after a restart the account's seat is still its own, and a new connection of the account resumes it") {
  harness h;
  fake_accounts accounts;
  accounts.install(h);
  client host = h.connect();
  const std::string room = h.create_room(host);
  client ada = signed_in(h, ada_token);
  ada.expect("welcome");
  ada.say(join_msg(room, 1));
  ada.expect("joined");
  client bob = h.connect();
  bob.say(join_msg(room, 2, "bob"));
  REQUIRE(find_type(bob.take(), "state"));

  h.crash();
  harness after(test_config(), h.store);
  accounts.install(after);
  auto unfinished = read_ok(after.store->reader().load_unfinished());
  REQUIRE(unfinished.size() == 1);
  CHECK(after.rooms->recover(unfinished) == 1);
  after.ex->run();
  client back = signed_in(after, ada_token);
  back.expect("welcome");
  back.say({{"type", "resume"}, {"id", 6}, {"room", room}});
  auto msgs = back.take();
  REQUIRE(find_type(msgs, "joined"));
  CHECK(find_type(msgs, "joined")->at("seat") == 0);
  REQUIRE(find_type(msgs, "state"));
  // Bob's seat has no account: signed in as bob's guest, there is nothing to resume.
  client guest = signed_in(after, bob_token);
  guest.expect("welcome");
  guest.say({{"type", "resume"}, {"id", 7}, {"room", room}});
  CHECK(guest.expect("error").at("code") == "bad_token");
}

// docs/ratings.md: a rated room (room::params::rated, what the rated queue
// will create) between two signed-in players; both play, one concedes: the
// store has both seats' rating changes and ratings, and verify re-derives them.
TEST_CASE("accounts in rooms: a rated duel between two accounts, played and conceded, is rated in the store") {
  harness h;
  fake_accounts accounts;
  accounts.install(h);
  room::params p;
  p.mode = game_mode::duel;
  p.format = protocol::deck_format::preconstructed;
  p.rated = true;
  auto r = h.rooms->create_with(p, std::nullopt);
  REQUIRE(r);
  const std::string room = r->id();
  client ada = signed_in(h, ada_token);
  ada.expect("welcome");
  client bob = signed_in(h, bob_token);
  bob.expect("welcome");
  ada.say(join_msg(room, 1));
  CHECK(ada.expect("joined").at("seat") == 0);
  bob.say(join_msg(room, 2));
  auto bob_msgs = bob.take();
  REQUIRE(find_type(bob_msgs, "joined"));
  const json* st = find_type(bob_msgs, "state");
  REQUIRE(st);
  // Each seat plays a turn (a match aborted before a seat's first play is
  // unrated), then the seat to move concedes.
  client* seat_of[2] = {&ada, &bob};
  int to_move = active(*st);
  ada.take();
  for (int turn = 0; turn < 2; ++turn) {
    act(*seat_of[to_move], {{"type", "end_turn"}});
    to_move = 1 - to_move;
  }
  const int loser = to_move;
  auto out = act(*seat_of[loser], {{"type", "concede"}});
  REQUIRE(find_type(out, "match_over"));
  h.store->flush();

  const auto listed = read_ok(h.store->reader().list_matches({}));
  REQUIRE(listed.size() == 1);
  const auto sm = read_ok(h.store->reader().load_match(listed[0].match_id));
  REQUIRE(sm);
  CHECK(sm->match.rated);
  REQUIRE(sm->rating_changes.size() == 2);
  CHECK(sm->rating_changes[0].account_id == 7);
  CHECK(sm->rating_changes[1].account_id == 9);
  CHECK(sm->rating_changes[loser].delta < 0);
  CHECK(sm->rating_changes[1 - loser].delta > 0);
  const auto ada_rating = read_ok(h.store->reader().load_ratings(7));
  REQUIRE(ada_rating.size() == 1);
  CHECK(ada_rating[0].ladder == "duel");
  CHECK(ada_rating[0].games == 1);
  CHECK(ada_rating[0].wins == (loser == 0 ? 0 : 1));
  const verify_result v = check_verifies(*sm);
  CHECK(std::any_of(v.checks.begin(), v.checks.end(), [](const verify_check& c) { return c.name == "rating"; }));
}
