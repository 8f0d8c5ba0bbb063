// The legal actions through a room (docs/protocol.md, "Legal actions"):
// hello.legal_actions puts the seat's list in its state and update (not for
// spectators, not for clients that did not ask), every act chosen from the
// list is accepted and one the list lacks refused, in every mode; an act or a
// draft pick naming an old seq is refused with stale_action and changes
// nothing. (Accepted iff listed over thousands of games, at the codec and
// engine level: tests/bot/test_legal_wire.cpp.)
#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <set>

#include "cod/protocol/legal_actions.hpp"
#include "room_harness.hpp"

using namespace cod::server;
using namespace cod::server::test;

namespace {

client connect_asking(harness& h, bool legal = true) {
  client c = h.connect(false);
  json hello = {{"type", "hello"}, {"version", 1}};
  if (legal) hello["legal_actions"] = true;
  c.say(hello);
  c.expect("welcome");
  return c;
}

// A creature of the shipped catalogue outside preconstructed deck `deck`.
std::string champion_for(int deck) {
  const auto& cat = shipped();
  const auto cards = cat.preconstructed_deck(deck);
  for (std::size_t c = 0; c < cat.size(); ++c) {
    const auto id = static_cast<cod::card_id>(c);
    if (cat.stats(id).type == cod::card_type::creature && std::find(cards.begin(), cards.end(), id) == cards.end())
      return cat.def(id).id;
  }
  return {};
}

struct player {
  client c;
  int seat = -1;
  json last;  // the newest state or update
};

// The human seats of `room` taken by clients asking for legal actions; the
// match starts with the last. Each player's `last` is its first state.
std::vector<player> fill(harness& h, const std::string& room, int humans, bool champions) {
  std::vector<player> ps;
  for (int k = 0; k < humans; ++k) {
    player p;
    p.c = connect_asking(h);
    json join = {{"type", "join"}, {"room", room}, {"name", "p" + std::to_string(k)},
                 {"deck", {{"preconstructed", k % 4 + 1}}}};
    if (champions) join["champion"] = champion_for(k % 4 + 1);
    p.c.say(join);
    auto msgs = p.c.take();
    INFO(json(msgs).dump());
    REQUIRE(find_type(msgs, "joined"));
    p.seat = find_type(msgs, "joined")->at("seat").get<int>();
    if (const json* st = find_type(msgs, "state")) p.last = *st;
    ps.push_back(std::move(p));
  }
  for (auto& p : ps)
    for (const auto& m : p.c.take())
      if (m.at("type") == "state") p.last = m;
  for (auto& p : ps) REQUIRE_MESSAGE(p.last.is_object(), "seat " << p.seat << " got no state");
  return ps;
}

std::vector<cod::action> listed(const player& p) {
  REQUIRE_MESSAGE(p.last.contains("legal_actions"), p.last.dump().substr(0, 300));
  auto l = cod::protocol::legal_actions_from_json(p.last.at("legal_actions"), static_cast<cod::seat_t>(p.seat));
  REQUIRE(l.has_value());
  return *l;
}

json act(const cod::action& a, std::int64_t seq, int id) {
  return {{"type", "act"}, {"id", id}, {"seq", seq}, {"action", cod::protocol::action_to_json(a)}};
}

// Plays `room` to its end (or `max_steps`) with actions chosen from the lists.
// Every step: the seats whose turn it is not have an empty list and their
// end_turn is refused; a play the active seat's list lacks is refused and
// nobody hears of it; a listed one is accepted and everyone gets its update.
void play_from_lists(std::vector<player>& ps, std::mt19937& rng, int max_steps, int& steps) {
  for (int step = 0; step < max_steps; ++step) {
    const json& view = ps[0].last.at("view");
    if (view.at("phase") == "game_over") return;
    const int active = view.at("active_seat").get<int>();
    const std::int64_t seq = ps[0].last.at("seq").get<std::int64_t>();
    INFO("step " << step << ", seq " << seq << ", active seat " << active);
    player* me = nullptr;
    for (auto& p : ps) {
      CHECK(p.last.at("seq") == seq);
      if (p.seat == active) {
        me = &p;
        continue;
      }
      CHECK(listed(p).empty());
      p.c.say(act(cod::action::end(static_cast<cod::seat_t>(p.seat)), seq, 7));
      CHECK(p.c.expect("error").at("code") == "not_your_turn");
    }
    REQUIRE(me);
    const auto mine = listed(*me);
    REQUIRE(!mine.empty());
    CHECK(mine.back().type == cod::action_type::end_turn);
    // A mutation the list lacks: another card, line, host or target.
    cod::action bad = mine[rng() % mine.size()];
    for (int tries = 0; tries < 20 && std::find(mine.begin(), mine.end(), bad) != mine.end(); ++tries) {
      bad = mine[rng() % mine.size()];
      bad.type = cod::action_type::play;
      switch (rng() % 4) {
        case 0: bad.card = static_cast<cod::card_uid>(rng() % 40); break;
        case 1: bad.line = static_cast<std::int8_t>(bad.target == cod::no_uid ? 1 - std::max<int>(bad.line, 0) : -1); break;
        case 2: bad.host = static_cast<cod::card_uid>(rng() % 40); break;
        default: bad.target = static_cast<cod::card_uid>(rng() % 40), bad.line = -1, bad.host = cod::no_uid; break;
      }
      if (bad.card == cod::no_uid) bad.card = 0;
      if (bad.target == cod::no_uid && bad.line < 0) bad.line = 0;
      if (bad.target != cod::no_uid) bad.host = cod::no_uid;
    }
    if (std::find(mine.begin(), mine.end(), bad) == mine.end()) {
      me->c.say(act(bad, seq, 8));
      const auto msgs = me->c.take();
      INFO(cod::protocol::action_to_json(bad).dump() << " -> " << json(msgs).dump());
      REQUIRE(msgs.size() == 1);
      CHECK(msgs[0].at("type") == "error");
      for (auto& p : ps) CHECK(p.c.peer->pending() == 0);
    }
    const cod::action good = mine[rng() % mine.size()];
    me->c.say(act(good, seq, 9));
    for (auto& p : ps) {
      auto msgs = p.c.take();
      INFO("seat " << p.seat << ": " << json(msgs).dump().substr(0, 400));
      CHECK(find_type(msgs, "error") == nullptr);
      const json* u = find_type(msgs, "update");
      REQUIRE(u);
      CHECK(u->at("seq") == seq + 1);
      p.last = *u;
    }
    ++steps;
  }
}

}  // namespace

TEST_CASE("hello.legal_actions: a seat's state and update carry its list; spectators and other clients get none") {
  harness h;
  auto creator = h.connect();
  const auto room = h.create_room(creator);
  auto spec = h.spectator(room);
  auto a = connect_asking(h, true);
  auto b = connect_asking(h, false);
  a.say({{"type", "join"}, {"room", room}, {"name", "ann"}, {"deck", {{"preconstructed", 1}}}});
  const std::string token = a.expect("joined").at("token").get<std::string>();
  b.say({{"type", "join"}, {"room", room}, {"name", "bob"}, {"deck", {{"preconstructed", 2}}}});
  const json sb = b.expect("state");
  const json sa = a.expect("state");
  const json ss = spec.expect("state");
  CHECK_FALSE(sb.contains("legal_actions"));
  CHECK_FALSE(ss.contains("legal_actions"));
  REQUIRE(sa.contains("legal_actions"));
  const int first = active(sa);
  const auto la = cod::protocol::legal_actions_from_json(sa.at("legal_actions"), 0);
  REQUIRE(la.has_value());
  // Ann's list is her turn's or empty.
  CHECK(la->empty() == (first != 0));
  if (first == 0) CHECK(sa.at("legal_actions").at("end_turn") == true);

  // One action by whoever starts: Ann's update carries her list, the others none.
  client& starter = first == 0 ? a : b;
  starter.say({{"type", "act"}, {"id", 1}, {"seq", 0}, {"action", {{"type", "end_turn"}}}});
  json ua, ub, us;
  for (const auto& m : a.take())
    if (m.at("type") == "update") ua = m;
  for (const auto& m : b.take())
    if (m.at("type") == "update") ub = m;
  us = spec.expect("update");
  REQUIRE(ua.is_object());
  REQUIRE(ub.is_object());
  CHECK_FALSE(ub.contains("legal_actions"));
  CHECK_FALSE(us.contains("legal_actions"));
  REQUIRE(ua.contains("legal_actions"));
  const auto after = cod::protocol::legal_actions_from_json(ua.at("legal_actions"), 0);
  REQUIRE(after.has_value());
  CHECK(after->empty() == (active(ua) != 0));

  // A resume's state: the list when the resuming connection asked, else none.
  for (bool ask : {false, true}) {
    auto back = connect_asking(h, ask);
    back.say({{"type", "resume"}, {"room", room}, {"token", token}});
    auto msgs = back.take();
    const json* st = find_type(msgs, "state");
    REQUIRE(st);
    CHECK(st->contains("legal_actions") == ask);
    if (ask) CHECK(st->at("legal_actions") == ua.at("legal_actions"));
  }
}

TEST_CASE("every act chosen from legal_actions is accepted, one the list lacks refused, in every mode") {
  struct setup {
    std::string mode;
    int humans;
    bool champions;
  };
  const setup setups[] = {{"duel", 2, false}, {"duel", 2, true}, {"ffa", 4, true},
                          {"2v2", 4, false},  {"solo", 1, false}, {"coop", 2, false}};
  int steps = 0;
  std::mt19937 rng(16);
  for (const auto& s : setups) {
    for (int game = 0; game < 2; ++game) {
      INFO(s.mode << (s.champions ? " with Champions" : "") << ", game " << game);
      harness h;
      auto creator = h.connect();
      json options = json::object();
      if (s.champions) options["champions"] = true;
      if (game == 1 && s.mode != "solo" && s.mode != "coop") options["exhaustion"] = true;
      const auto room = h.create_room(creator, options, "preconstructed", s.mode);
      auto ps = fill(h, room, s.humans, s.champions);
      play_from_lists(ps, rng, 300, steps);
    }
  }
  MESSAGE(steps << " actions chosen from the lists, all accepted");
  CHECK(steps > 100);
}

TEST_CASE("an act naming an old seq is refused with stale_action and changes nothing") {
  harness h;
  auto creator = h.connect();
  const auto room = h.create_room(creator, json::object(), "preconstructed", "solo");
  auto ps = fill(h, room, 1, false);
  auto& me = ps[0];
  REQUIRE(active(me.last) == 0);  // a solo human starts (no ai_first)
  const std::int64_t seq = me.last.at("seq").get<std::int64_t>();

  SUBCASE("a double click on end_turn: the second names the state before the AI played") {
    me.c.say(act(cod::action::end(0), seq, 1));
    const json u = me.c.expect("update");
    CHECK(u.at("seq") == seq + 1);
    CHECK(active(u) == 0);  // the AI played inside it: the human's turn again
    me.c.say(act(cod::action::end(0), seq, 2));
    const json e = me.c.expect("error");
    CHECK(e.at("code") == "stale_action");
    CHECK(e.at("id") == 2);
    CHECK(me.c.peer->pending() == 0);
    // Nothing changed: the same end_turn at the current seq is accepted.
    me.c.say(act(cod::action::end(0), seq + 1, 3));
    CHECK(me.c.expect("update").at("seq") == seq + 2);
  }
  SUBCASE("a seq from the future is refused too; without seq an act is judged on its own (old clients)") {
    me.c.say(act(cod::action::end(0), seq + 5, 1));
    CHECK(me.c.expect("error").at("code") == "stale_action");
    me.c.say({{"type", "act"}, {"id", 2}, {"action", {{"type", "end_turn"}}}});
    CHECK(me.c.expect("update").at("seq") == seq + 1);
  }
  SUBCASE("a concession too") {
    me.c.say(act(cod::action::concede_by(0), seq + 1, 1));
    CHECK(me.c.expect("error").at("code") == "stale_action");
    me.c.say(act(cod::action::concede_by(0), seq, 2));
    auto msgs = me.c.take();
    CHECK(find_type(msgs, "match_over"));
  }
}

TEST_CASE("a draft pick naming an old seq is refused with stale_action and changes nothing") {
  harness h;
  auto creator = h.connect();
  const auto room = h.create_room(creator, json::object(), "draft", "solo");
  auto c = connect_asking(h);
  c.say({{"type", "join"}, {"room", room}, {"name", "ann"}});
  auto msgs = c.take();
  INFO(json(msgs).dump().substr(0, 600));
  REQUIRE(find_type(msgs, "joined"));
  const json* d = find_type(msgs, "draft");
  REQUIRE(d);
  const std::int64_t seq = d->at("seq").get<std::int64_t>();
  const json offer = d->at("draft").at("offer");
  REQUIRE(!offer.empty());
  const int count = d->at("draft").at("waiting").at(0).at("count").get<int>();
  json cards = json::array();
  for (int i = 0; i < count; ++i) cards.push_back(offer.at(static_cast<std::size_t>(i)));
  c.say({{"type", "draft_pick"}, {"id", 1}, {"pick", "take"}, {"cards", cards}, {"seq", seq + 1}});
  const json e = c.expect("error");
  CHECK(e.at("code") == "stale_action");
  CHECK(c.peer->pending() == 0);
  c.say({{"type", "draft_pick"}, {"id", 2}, {"pick", "take"}, {"cards", cards}, {"seq", seq}});
  msgs = c.take();
  CHECK(find_type(msgs, "error") == nullptr);
  REQUIRE(find_type(msgs, "draft"));
  CHECK(find_type(msgs, "draft")->at("seq").get<std::int64_t>() > seq);
}

TEST_CASE("a draft push carries the seat's legal picks: each one chosen from them is accepted, to the match") {
  for (const std::string mode : {"solo", "duel"}) {
    INFO(mode);
    harness h;
    auto creator = h.connect();
    const auto room = h.create_room(creator, json::object(), "draft", mode);
    std::vector<client> cs;
    std::vector<json> last;
    const int humans = mode == "solo" ? 1 : 2;
    for (int k = 0; k < humans; ++k) {
      cs.push_back(connect_asking(h, k == 0));  // the second seat did not ask: no list
      cs.back().say({{"type", "join"}, {"room", room}, {"name", "p" + std::to_string(k)}});
    }
    auto spec = h.spectator(room);
    for (auto& c : cs) {
      json d;
      for (const auto& m : c.take())
        if (m.at("type") == "draft") d = m;
      REQUIRE(d.is_object());
      last.push_back(d);
    }
    CHECK_FALSE(last.back().contains("legal_picks") != (humans == 1));
    std::mt19937 rng(3);
    int picks = 0;
    for (int n = 0; n < 200 && !last[0].at("draft").at("finished").get<bool>(); ++n) {
      const json& d = last[0];
      REQUIRE(d.contains("legal_picks"));
      const json& legal = d.at("legal_picks");
      const json& waiting = d.at("draft").at("waiting");
      bool mine = false;
      for (const auto& w : waiting) mine = mine || w.at("seat") == 0;
      int who = 0;
      json pick;
      if (mine) {
        REQUIRE_MESSAGE(!legal.empty(), d.dump().substr(0, 400));
        pick = legal.at(rng() % legal.size());
        // A pick the list lacks: a card not on offer.
        json bad = pick;
        if (bad.contains("cards")) {
          bad["cards"][0] = "no_such_card";
          cs[0].say({{"type", "draft_pick"}, {"id", 1}, {"pick", bad.at("pick")}, {"cards", bad.at("cards")}, {"seq", d.at("seq")}});
          CHECK(cs[0].expect("error").at("code") != "stale_action");
        }
      } else {
        CHECK(legal.empty());
        // The other seat (no list): the first cards on offer.
        REQUIRE(waiting.size() == 1);
        who = waiting[0].at("seat").get<int>();
        json cards = json::array();
        for (int i = 0; i < waiting[0].at("count").get<int>(); ++i) cards.push_back(d.at("draft").at("offer").at(static_cast<std::size_t>(i)));
        pick = {{"pick", "take"}, {"cards", cards}};
      }
      json msg = {{"type", "draft_pick"}, {"id", 2}, {"seq", last[static_cast<std::size_t>(who)].at("seq")}};
      msg.update(pick);
      cs[static_cast<std::size_t>(who)].say(msg);
      for (std::size_t k = 0; k < cs.size(); ++k) {
        auto msgs = cs[k].take();
        INFO(json(msgs).dump().substr(0, 400));
        CHECK(find_type(msgs, "error") == nullptr);
        json d2;
        for (const auto& m : msgs)
          if (m.at("type") == "draft") d2 = m;
        REQUIRE(d2.is_object());
        CHECK(d2.contains("legal_picks") == (k == 0));
        last[k] = d2;
      }
      for (const auto& m : spec.take())
        if (m.at("type") == "draft") CHECK_FALSE(m.contains("legal_picks"));
      ++picks;
    }
    CHECK(last[0].at("draft").at("finished") == true);
    CHECK(picks > 3);
  }
}
