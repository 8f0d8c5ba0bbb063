// history (docs/protocol.md): each seat and spectator gets the match's events
// so far exactly as its updates gave them (redacted the same way), from any
// seq; not before the match starts, not outside the room; and the same after
// the room was rebuilt from the store.
#include <doctest/doctest.h>

#include <map>
#include <random>

#include "room_harness.hpp"

using namespace cod;
using namespace cod::server;
using namespace cod::server::test;

namespace {

// Plays `count` accepted actions (a play when there is one, else end_turn),
// recording each recipient's update events by seq.
struct played_match {
  std::map<std::int64_t, json> events[3];  // seat 0, seat 1, the spectator
  std::int64_t seq = 0;
};

void play(client* const (&seats)[2], client& watcher, json views[2], int count, played_match& out) {
  std::mt19937 rng(5);
  int accepted = 0;
  while (accepted < count) {
    const int s = views[0].at("active_seat").get<int>();
    auto moves = moves_from_view(views[s], shipped());
    REQUIRE(!moves.empty());
    auto r = act(*seats[s], prefer_play(moves, rng));
    if (!find_type(r, "accepted")) continue;
    ++accepted;
    const json* mine = find_type(r, "update");
    REQUIRE(mine);
    const json theirs = *find_type(seats[1 - s]->take(), "update");
    const json watched = *find_type(watcher.take(), "update");
    out.seq = mine->at("seq").get<std::int64_t>();
    out.events[s][out.seq] = mine->at("events");
    out.events[1 - s][out.seq] = theirs.at("events");
    out.events[2][out.seq] = watched.at("events");
    views[s] = mine->at("view");
    views[1 - s] = theirs.at("view");
    if (views[0].at("phase") == "game_over") break;
  }
}

json history(client& c, json from = nullptr) {
  json req = {{"type", "history"}, {"id", 77}};
  if (!from.is_null()) req["from_seq"] = from;
  c.say(req);
  auto msgs = c.take();
  INFO(json(msgs).dump());
  REQUIRE(msgs.size() == 1);
  return msgs[0];
}

// The entries of a history reply for seqs >= 1, by seq.
std::map<std::int64_t, json> by_seq(const json& h) {
  std::map<std::int64_t, json> out;
  for (const json& e : h.at("entries"))
    if (e.at("seq") != 0) out[e.at("seq").get<std::int64_t>()] = e.at("events");
  return out;
}

}  // namespace

TEST_CASE("room: history gives each seat and spectator the match's events as its updates did, from any seq") {
  memory_store store(memory_store::callbacks::run_inline);
  std::string room;
  std::string tokens[2];
  played_match pm;
  {
    harness h(test_config(), &store);
    auto host = h.connect();
    room = h.create_room(host);
    // Before the match: nothing to tell.
    auto early = h.connect();
    early.say({{"type", "spectate"}, {"room", room}});
    early.take();
    CHECK(history(early).at("code") == "match_not_started");
    // Not in the room at all.
    auto outside = h.connect();
    CHECK(history(outside).at("code") == "not_in_room");

    auto [a, b] = h.start_duel(room);
    tokens[a.seat] = a.token;
    tokens[b.seat] = b.token;
    auto watcher = h.connect();
    watcher.say({{"type", "spectate"}, {"room", room}});
    watcher.take();
    early.take();
    json views[2];
    views[a.seat] = a.state.at("view");
    views[b.seat] = b.state.at("view");
    client* seats[2];
    seats[a.seat] = &a.c;
    seats[b.seat] = &b.c;
    play(seats, watcher, views, 12, pm);
    REQUIRE(pm.seq >= 12);

    client* viewers[3] = {seats[0], seats[1], &watcher};
    for (int v = 0; v < 3; ++v) {
      INFO("viewer " << v);
      const json h0 = history(*viewers[v]);
      CHECK(h0.at("type") == "history");
      CHECK(h0.at("id") == 77);
      CHECK(h0.at("room") == room);
      CHECK(h0.at("seq") == pm.seq);
      CHECK(h0.at("first_seq") == 0);
      REQUIRE(h0.at("entries").size() == static_cast<std::size_t>(pm.seq + 1));
      // The setup: the match started, the first turn.
      CHECK(h0.at("entries")[0].at("seq") == 0);
      CHECK(h0.at("entries")[0].at("events")[0].at("type") == "match_started");
      // Every action's events, exactly as this viewer's update had them.
      CHECK(by_seq(h0) == pm.events[v]);
      // From a later seq: only from there.
      const json h5 = history(*viewers[v], 5);
      CHECK(h5.at("first_seq") == 5);
      CHECK(h5.at("entries").size() == static_cast<std::size_t>(pm.seq - 4));
      CHECK(h5.at("entries")[0].at("seq") == 5);
      // Past the end: none.
      const json none = history(*viewers[v], pm.seq + 1);
      CHECK(none.at("entries").empty());
      CHECK(none.at("first_seq") == pm.seq + 1);
    }
    // The seats' views differ where the rules hide something (each sees its
    // own hand's cards in card_removed, the other not): the test's premise.
    CHECK(pm.events[0] != pm.events[1]);
    // A bad request: a clear error, nothing else.
    seats[0]->say({{"type", "history"}, {"id", 3}, {"from_seq", -1}});
    CHECK(seats[0]->expect("error").at("code") == "bad_field_value");
    h.crash();
  }
  // Rebuilt from the store (a restart): the same history.
  harness h2(test_config(), &store);
  h2.recover_one();
  for (int s = 0; s < 2; ++s) {
    auto c = h2.connect();
    c.say({{"type", "resume"}, {"room", room}, {"token", tokens[s]}});
    c.take();
    const json h = history(c);
    CHECK(h.at("seq") == pm.seq);
    CHECK(h.at("entries")[0].at("events")[0].at("type") == "match_started");
    CHECK(by_seq(h) == pm.events[s]);
  }
}
