// Recovery of a timed match: the turn clock's banks come back as the stored
// log's timestamps leave them (rebuilt in the same replay as the match).
#include <doctest/doctest.h>

#include <random>

#include "cod/protocol/json_codec.hpp"
#include "room_harness.hpp"

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
  auto unfinished = store.load_unfinished();
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
  auto unfinished = store.load_unfinished();
  REQUIRE(unfinished.size() == 2);
  config cfg = test_config();
  cfg.node_id = "n2";
  harness h(cfg, &store);
  CHECK(h.rooms->recover(unfinished) == 1);
  h.ex->run();
  auto lister = h.connect();
  CHECK(list_one(lister).at("room") == rooms[1]);
}
