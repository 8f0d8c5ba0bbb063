// Recovery of a timed match: the turn clock's banks come back as the stored
// log's timestamps leave them (rebuilt in the same replay as the match).
#include <doctest/doctest.h>

#include <random>

#include "cod/protocol/json_codec.hpp"
#include "common/sha256.hpp"
#include "replay/match_cards.hpp"
#include "room_harness.hpp"
#include "../shared/store_reads.hpp"

using namespace cod;
using namespace cod::server;
using namespace cod::server::test;

namespace {

// The banks the stored log gives, worked out here on their own: each turn is
// charged from its start (the match's creation, or the action that began it)
// to the action that ended it, and gets the increment as it starts; the turn
// running at the end is charged up to the last action.
struct expected_clock {
  std::vector<std::int64_t> banks;
  int running = -1;
  int turns = 0;
};

expected_clock banks_from_log(const stored_match& sm, std::int64_t bank_ms, std::int64_t increment_ms) {
  match_config cfg;
  REQUIRE(config_from_record(shipped(), sm.match, cfg));
  match m;
  std::vector<event> ev;
  REQUIRE(match::create(shipped(), cfg, m, ev) == rule_error::ok);
  expected_clock x;
  x.banks.assign(static_cast<std::size_t>(m.seat_count()), bank_ms);
  int running = m.active_seat(), turn = m.turn();
  std::int64_t since = sm.match.created_ms;
  x.banks[running] += increment_ms;
  x.turns = 1;
  for (const auto& a : sm.actions) {
    const auto parsed = cod::protocol::parse_action_text(a.action_json, static_cast<seat_t>(a.seat));
    REQUIRE(parsed.ok());
    ev.clear();
    REQUIRE(m.apply(parsed.value, ev) == rule_error::ok);
    if (m.active_seat() == running && m.turn() == turn) continue;
    x.banks[running] -= a.at_ms - since;
    running = m.active_seat();
    turn = m.turn();
    since = a.at_ms;
    x.banks[running] += increment_ms;
    ++x.turns;
  }
  x.banks[running] -= sm.actions.back().at_ms - since;
  x.running = running;
  return x;
}

}  // namespace

TEST_CASE("room: recovery gives each seat's turn clock bank back as the stored log's timestamps leave it") {
  memory_store store(memory_store::callbacks::run_inline);
  std::string room;
  std::string tokens[2];
  {
    harness h(test_config(), &store);
    auto host = h.connect();
    room = h.create_room(host, {{"turn_clock", {{"bank_ms", 60000}, {"increment_ms", 500}}}});
    auto [a, b] = h.start_duel(room);
    tokens[a.seat] = a.token;
    tokens[b.seat] = b.token;
    json views[2] = {a.state.at("view"), b.state.at("view")};
    client* clients[2] = {&a.c, &b.c};
    std::mt19937 rng(11);
    // Each turn: a play when there is one, then end_turn; several turns.
    int accepted = 0;
    bool played = false;
    while (accepted < 9) {
      const int s = views[0].at("active_seat").get<int>();
      auto moves = moves_from_view(views[s], shipped());
      const json move = played ? moves.back() : prefer_play(moves, rng);
      auto r = act(*clients[s], move);
      if (!find_type(r, "accepted")) continue;
      ++accepted;
      played = move.at("type") == "play";
      views[s] = find_type(r, "update")->at("view");
      views[1 - s] = find_type(clients[1 - s]->take(), "update")->at("view");
    }
    h.crash();
  }
  auto unfinished = read_ok(store.reader().load_unfinished());
  REQUIRE(unfinished.size() == 1);
  const auto expected = banks_from_log(unfinished[0], 60000, 500);
  REQUIRE(expected.turns >= 3);

  harness h2(test_config(), &store);
  h2.recover_one();
  for (int s = 0; s < 2; ++s) {
    auto c = h2.connect();
    c.say({{"type", "resume"}, {"room", room}, {"token", tokens[s]}});
    auto msgs = c.take();
    const json* st = find_type(msgs, "state");
    REQUIRE(st);
    // The executor's clock has not moved since recovery: nothing charged yet.
    const auto& clock = st->at("clock");
    CHECK(clock.at("running_seat") == expected.running);
    CHECK(clock.at("remaining_ms") == json(expected.banks));
  }
}

TEST_CASE("room: a cluster node recovers only its own rooms from a shared store (their ids carry its node_id)") {
  memory_store store(memory_store::callbacks::run_inline);
  std::string rooms[2];
  const char* nodes[2] = {"n1", "n2"};
  for (int n = 0; n < 2; ++n) {
    config cfg = test_config();
    cfg.node_id = nodes[n];
    harness h(cfg, &store);
    auto host = h.connect();
    rooms[n] = h.create_room(host);
    CHECK(rooms[n].starts_with(std::string(nodes[n]) + "-"));
    h.start_duel(rooms[n]);
    h.crash();
  }
  auto unfinished = read_ok(store.reader().load_unfinished());
  REQUIRE(unfinished.size() == 2);
  config cfg = test_config();
  cfg.node_id = "n2";
  harness h(cfg, &store);
  CHECK(h.rooms->recover(unfinished) == 1);
  h.ex->run();
  auto lister = h.connect();
  CHECK(list_one(lister).at("room") == rooms[1]);
}

// R15 (the mutation league): a room whose match has its own card definitions.
TEST_CASE("room: a match with its own cards (R15) plays them, shows and stores them, and replays them after a restart") {
  memory_store store(memory_store::callbacks::run_inline);
  std::string room_id, token;
  int seat = -1;
  json view_after;
  // In this match every card of decks 1 and 2 costs 0 and every creature
  // with a number attacks for 9.
  std::vector<card_def> own;
  for (int d : {1, 2})
    for (card_id c : shipped().preconstructed_deck(d)) {
      card_def def = shipped().def(c);
      def.stats.mana = 0;
      if (def.stats.type == card_type::creature && !def.stats.av_is_x) def.stats.av = 9;
      own.push_back(def);
    }
  const json defs = json::parse(match_cards_json(own));
  {
    harness h(test_config(), &store);
    auto r = h.rooms->create(game_mode::duel, protocol::deck_format::preconstructed, protocol::room_options{}, {}, {},
                             nullptr, own);
    REQUIRE(r);
    room_id = r->id();
    h.ex->run();
    auto [a, b] = h.start_duel(room_id);
    // Public from the first state on, to both seats.
    CHECK(a.state.at("cards") == defs);
    CHECK(b.state.at("cards") == defs);
    auto& me = a.state.at("view").at("active_seat") == a.seat ? a : b;
    // A creature of the hand, played for 0 mana, is on the board with AV 9.
    const json& view = me.state.at("view");
    int uid = -1;
    for (const json& h_card : view.at("hand")) {
      const auto id = h_card.at("card_id").get<std::string>();
      const card_stats& st = shipped().stats(*shipped().find(id));
      const json& playable = view.at("playable");
      if (st.type == card_type::creature && !st.av_is_x &&
          std::find(playable.begin(), playable.end(), h_card.at("uid")) != playable.end()) {
        uid = h_card.at("uid").get<int>();
        break;
      }
    }
    REQUIRE(uid >= 0);
    auto msgs = act(me.c, {{"type", "play"}, {"card", uid}, {"line", "upper"}});
    REQUIRE(find_type(msgs, "accepted"));
    const json* up = find_type(msgs, "update");
    REQUIRE(up);
    bool found = false;
    for (const json& line : up->at("view").at("lines"))
      for (const json& side : line.at("sides"))
        for (const json& cr : side.at("creatures"))
          if (cr.at("uid") == uid) {
            found = true;
            CHECK(cr.at("av") == 9);
          }
    CHECK(found);
    seat = me.seat;
    token = me.token;
    view_after = up->at("view");
    // Stored with the match: its log replays with these cards.
    const auto unfinished = read_ok(store.reader().load_unfinished());
    REQUIRE(unfinished.size() == 1);
    const stored_match& sm = unfinished[0];
    CHECK(sm.match.cards_json == match_cards_json(own));
    const auto rb = rebuild(shipped(), sm);
    REQUIRE_MESSAGE(rb.ok, rb.error);
    REQUIRE(rb.cards);
    CHECK(rb.cards->stats(*shipped().find(own[0].id)).mana == 0);
    CHECK(shipped().stats(*shipped().find(own[0].id)).mana > 0);  // not the catalogue's
    h.crash();
  }
  // A restarted server plays on with the same cards.
  harness h(test_config(), &store);
  h.recover_one();
  const json st = h.resume_recovered(room_id, token, seat, 1, view_after);
  CHECK(st.at("cards") == defs);
}

TEST_CASE("room: own cards that break the catalogue's checks never start a match") {
  harness h;
  card_def bad = shipped().def(*shipped().find("brute"));
  bad.stats.hp = 0;  // a creature's health is 1..15
  auto r = h.rooms->create(game_mode::duel, protocol::deck_format::preconstructed, protocol::room_options{}, {}, {},
                           nullptr, {bad});
  REQUIRE(r);
  h.ex->run();
  auto a = h.connect(), b = h.connect();
  a.say({{"type", "join"}, {"room", r->id()}, {"name", "ann"}, {"deck", {{"preconstructed", 1}}}});
  b.say({{"type", "join"}, {"room", r->id()}, {"name", "bob"}, {"deck", {{"preconstructed", 2}}}});
  CHECK(read_ok(h.store->reader().load_unfinished()).empty());
  const auto msgs = b.take();
  CHECK_FALSE(find_type(msgs, "state"));
}

TEST_CASE("room: a league duel's seats play their fixed decks (R15.2), with the seed it was given (E80)") {
  harness h;
  room::params p;
  p.mode = game_mode::duel;
  p.format = protocol::deck_format::constructed;
  p.fixed_decks[0] = shipped().preconstructed_deck(1);
  p.fixed_decks[1] = shipped().preconstructed_deck(2);
  auto r = h.rooms->create_with(p, 12345);
  REQUIRE(r);
  h.ex->run();
  CHECK(r->seed_hash() == seed_commitment(12345));
  auto ids = [](std::vector<card_id> deck, bool reversed) {
    json a = json::array();
    if (reversed) std::reverse(deck.begin(), deck.end());
    for (card_id c : deck) a.push_back(shipped().def(c).id);
    return a;
  };
  auto a = h.connect(), b = h.connect();
  // Seat 0 is ann's: another deck is refused, naming the one it must be.
  a.say({{"type", "join"}, {"room", r->id()}, {"name", "ann"}, {"deck", {{"cards", ids(p.fixed_decks[1], false)}}}});
  const json refused = a.expect("error");
  CHECK(refused.at("code") == "bad_deck");
  CHECK(refused.at("reason") == "not_league_deck");
  CHECK(refused.at("message").get<std::string>().find(shipped().def(p.fixed_decks[0][0]).id) != std::string::npos);
  // The same 8 cards in any order are hers.
  a.say({{"type", "join"}, {"room", r->id()}, {"name", "ann"}, {"deck", {{"cards", ids(p.fixed_decks[0], true)}}}});
  CHECK(a.expect("joined").at("seat") == 0);
  b.say({{"type", "join"}, {"room", r->id()}, {"name", "bob"}, {"deck", {{"cards", ids(p.fixed_decks[1], false)}}}});
  const auto msgs = b.take();
  REQUIRE(find_type(msgs, "state"));
  CHECK(find_type(msgs, "state")->at("seed_hash") == seed_commitment(12345));
}
