// Rooms for the four-player modes (R11: ffa, 2v2) and the Champion module
// (R13): four seats joined, listed, redacted per recipient, conceded, timed,
// played to the end, stored and recovered; Champions checked at join and
// revealed together at the start.
#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <set>

#include "replay/recovery.hpp"
#include "room_harness.hpp"
#include "../shared/store_reads.hpp"

using namespace cod::server;
using namespace cod::server::test;
using namespace std::chrono_literals;

namespace {

struct four {
  std::vector<harness::seated> seats;  // by seat
};

json join_msg(const std::string& room, const std::string& name, int deck, const std::string& champion = {}) {
  json j = {{"type", "join"}, {"room", room}, {"name", name}, {"deck", {{"preconstructed", deck}}}};
  if (!champion.empty()) j["champion"] = champion;
  return j;
}

// A creature of the shipped catalogue outside preconstructed deck `deck`.
std::string champion_for(int deck, int skip = 0) {
  const auto& cat = shipped();
  const auto cards = cat.preconstructed_deck(deck);
  for (std::size_t c = 0; c < cat.size(); ++c) {
    const auto id = static_cast<cod::card_id>(c);
    if (cat.stats(id).type != cod::card_type::creature) continue;
    if (std::find(cards.begin(), cards.end(), id) != cards.end()) continue;
    if (skip-- > 0) continue;
    return cat.def(id).id;
  }
  return {};
}

// Four players join `room` in seat order (decks 1..4, Champions when given);
// the match starts with the fourth.
four fill(harness& h, const std::string& room, const std::vector<std::string>& champions = {}) {
  four f;
  for (int s = 0; s < 4; ++s) {
    harness::seated p;
    p.c = h.connect();
    p.c.say(join_msg(room, std::string(1, static_cast<char>('a' + s)), s + 1,
                     champions.empty() ? std::string() : champions[static_cast<std::size_t>(s)]));
    auto msgs = p.c.take();
    INFO(json(msgs).dump());
    const json* joined = find_type(msgs, "joined");
    REQUIRE(joined);
    p.seat = joined->at("seat").get<int>();
    CHECK(p.seat == s);
    p.token = joined->at("token").get<std::string>();
    // Nobody gets a state before the fourth seat is taken.
    CHECK((find_type(msgs, "state") != nullptr) == (s == 3));
    if (const json* st = find_type(msgs, "state")) {
      p.state = *st;
      p.msgs = msgs;
    }
    f.seats.push_back(std::move(p));
  }
  for (auto& p : f.seats) {
    auto msgs = p.c.take();
    if (p.seat == 3) continue;  // its state came with joined
    const json* st = find_type(msgs, "state");
    REQUIRE(st);
    p.state = *st;
    p.msgs = msgs;
  }
  return f;
}

// Every uid anywhere in a JSON value (hand cards, board, ...).
void uids_in(const json& j, std::set<int>& out) {
  if (j.is_object()) {
    for (auto it = j.begin(); it != j.end(); ++it) {
      if (it.key() == "uid" && it->is_number_integer()) out.insert(it->get<int>());
      uids_in(*it, out);
    }
  } else if (j.is_array()) {
    for (const auto& v : j) uids_in(v, out);
  }
}

}  // namespace

TEST_CASE("four seats: ffa rooms list their mode and free seats; the match starts with the fourth player") {
  harness h;
  auto host = h.connect();
  const auto room = h.create_room(host, json::object(), "preconstructed", "ffa");
  auto summary = list_one(host);
  CHECK(summary.at("mode") == "ffa");
  CHECK(summary.at("options").at("seats") == 4);
  REQUIRE(summary.at("seats").size() == 4);

  auto spec = h.spectator(room);

  // Three seats taken: still waiting, seat 3 free; act is refused.
  std::vector<client> early;
  for (int s = 0; s < 3; ++s) {
    early.push_back(h.connect());
    early.back().say(join_msg(room, std::string(1, static_cast<char>('p' + s)), s + 1));
    CHECK(early.back().expect("joined").at("seat") == s);
  }
  summary = list_one(host);
  CHECK(summary.at("status") == "waiting");
  for (int s = 0; s < 4; ++s) CHECK(summary.at("seats")[s].at("taken") == (s < 3));
  early[0].say({{"type", "act"}, {"action", {{"type", "end_turn"}}}});
  CHECK(early[0].expect("error").at("code") == "match_not_started");
  // A seat beyond four does not exist.
  auto extra = h.connect();
  extra.say({{"type", "join"}, {"room", room}, {"name", "x"}, {"seat", 3}, {"deck", {{"preconstructed", 1}}}});
  auto last = extra.take();
  REQUIRE(find_type(last, "joined"));
  for (auto& c : early) REQUIRE(find_type(c.take(), "state"));
  auto late = h.connect();
  late.say(join_msg(room, "late", 1));
  CHECK(late.expect("error").at("code") == "room_full");

  summary = list_one(host);
  CHECK(summary.at("status") == "playing");
  for (int s = 0; s < 4; ++s) CHECK(summary.at("seats")[s].at("taken") == true);
  CHECK(summary.at("seats")[0].at("champion").is_null());
  const auto sv = spec.expect("state").at("view");
  CHECK(sv.at("mode") == "ffa");
  CHECK(sv.at("seats").size() == 4);
  CHECK(sv.at("lines").size() == 4);
  CHECK(sv.at("hand").empty());
  CHECK(h.stats.matches_started_total == 1);
}

TEST_CASE("four seats: every recipient gets only its own hand; 2v2 teammates share theirs only with the option") {
  for (bool share : {false, true}) {
    CAPTURE(share);
    harness h;
    auto host = h.connect();
    const auto room = h.create_room(host, {{"share_team_hands", share}}, "preconstructed", "2v2");
    auto spec = h.spectator(room);
    auto f = fill(h, room);
    std::vector<std::vector<int>> hands(4);
    for (int s = 0; s < 4; ++s) hands[s] = hand_uids(f.seats[s].state.at("view"));
    for (int s = 0; s < 4; ++s) {
      const json& v = f.seats[s].state.at("view");
      CHECK(v.at("viewer") == s);
      CHECK(v.at("mode") == "2v2");
      CHECK(v.at("teammate") == (s + 2) % 4);
      CHECK(v.at("share_team_hands") == share);
      // No other seat's hand uid appears in this view but the teammate's, and
      // that one only with share_team_hands.
      std::set<int> seen;
      uids_in(v, seen);
      for (int o = 0; o < 4; ++o) {
        if (o == s) continue;
        const bool visible = share && o == (s + 2) % 4;
        for (int u : hands[o]) CHECK_MESSAGE(seen.count(u) == (visible ? 1u : 0u), "seat " << s << " sees uid " << u << " of seat " << o);
      }
      if (share) {
        std::vector<int> mate;
        for (const auto& c : v.at("teammate_hand")) mate.push_back(c.at("uid").get<int>());
        CHECK(mate == hands[(s + 2) % 4]);
      }
    }
    // A spectator sees no hand at all.
    std::set<int> spec_seen;
    uids_in(spec.expect("state").at("view"), spec_seen);
    for (const auto& hand : hands)
      for (int u : hand) CHECK(spec_seen.count(u) == 0);

    // The first update too: each seat's own view.
    const int first = active(f.seats[0].state);
    auto r = act(f.seats[first].c, {{"type", "end_turn"}});
    REQUIRE(find_type(r, "accepted"));
    for (int s = 0; s < 4; ++s) {
      const auto msgs = s == first ? r : f.seats[s].c.take();
      const json* up = find_type(msgs, "update");
      REQUIRE(up);
      CHECK(up->at("view").at("viewer") == s);
      CHECK(up->at("view").contains("teammate_hand") == share);
    }
  }
}

TEST_CASE("champions: join checks the choice (R13.1), keeps it hidden while waiting, reveals all at the start") {
  harness h;
  auto host = h.connect();
  const auto room = h.create_room(host, {{"champions", true}});
  auto a = h.connect();
  auto refused = [&](const json& msg, const std::string& reason) {
    a.say(msg);
    auto e = a.expect("error");
    CHECK(e.at("code") == "bad_champion_choice");
    CHECK(e.at("reason") == reason);
    CHECK_FALSE(e.at("message").get<std::string>().empty());
  };
  const std::string deck1_creature = [] {
    for (cod::card_id c : shipped().preconstructed_deck(1))
      if (shipped().stats(c).type == cod::card_type::creature) return shipped().def(c).id;
    return std::string();
  }();
  std::string incantation;
  for (std::size_t c = 0; c < shipped().size() && incantation.empty(); ++c)
    if (shipped().stats(static_cast<cod::card_id>(c)).type != cod::card_type::creature)
      incantation = shipped().def(static_cast<cod::card_id>(c)).id;
  refused(join_msg(room, "ann", 1), "champion_required");
  refused(join_msg(room, "ann", 1, "dragon"), "unknown_card");
  refused(join_msg(room, "ann", 1, incantation), "not_a_creature");
  refused(join_msg(room, "ann", 1, deck1_creature), "in_deck");
  // Refused joins took no seat.
  auto summary = list_one(host);
  for (const auto& s : summary.at("seats")) CHECK(s.at("taken") == false);
  CHECK(summary.at("options").at("champions") == true);

  const std::string ca = champion_for(1), cb = champion_for(2, 3);
  a.say(join_msg(room, "ann", 1, ca));
  CHECK(a.expect("joined").at("seat") == 0);
  summary = list_one(host);
  CHECK(summary.at("seats")[0].at("taken") == true);
  CHECK(summary.at("seats")[0].at("champion").is_null());  // hidden until the start

  auto b = h.connect();
  b.say(join_msg(room, "bob", 2, cb));
  auto mb = b.take();
  REQUIRE(find_type(mb, "state"));
  const json va = a.expect("state").at("view");
  const json vb = find_type(mb, "state")->at("view");
  for (const json* v : {&va, &vb}) {
    CHECK(v->at("seats")[0].at("champion").at("card_id") == ca);
    CHECK(v->at("seats")[1].at("champion").at("card_id") == cb);
    CHECK(v->at("seats")[1].at("champion").at("state") == "ready");
  }
  summary = list_one(host);
  CHECK(summary.at("seats")[0].at("champion") == ca);
  CHECK(summary.at("seats")[1].at("champion") == cb);

  // Stored with the match.
  auto stored = read_ok(h.store->reader().load_unfinished());
  REQUIRE(stored.size() == 1);
  CHECK(stored[0].match.seats[0].champion == ca);
  CHECK(stored[0].match.seats[1].champion == cb);
  CHECK_FALSE(stored[0].match.seats[0].team);
  CHECK(json::parse(stored[0].match.options_json).at("champions") == true);

  // A room without Champions refuses one.
  const auto plain = h.create_room(host);
  auto c = h.connect();
  c.say(join_msg(plain, "cy", 1, ca));
  auto e = c.expect("error");
  CHECK(e.at("code") == "bad_champion_choice");
  CHECK(e.at("reason") == "champions_off");
}

TEST_CASE("ffa: a concession ends the match as R11.4: the conceding seat loses, every other seat wins") {
  harness h;
  auto host = h.connect();
  const auto room = h.create_room(host, json::object(), "preconstructed", "ffa");
  auto f = fill(h, room);
  const int first = active(f.seats[0].state);
  const int quitter = (first + 2) % 4;  // not the active seat: R16.3, at any time
  auto r = act(f.seats[quitter].c, {{"type", "concede"}});
  REQUIRE(find_type(r, "accepted"));
  const json* over = find_type(r, "match_over");
  REQUIRE(over);
  std::vector<int> want;
  for (int s = 0; s < 4; ++s)
    if (s != quitter) want.push_back(s);
  CHECK(over->at("winners") == json(want));
  CHECK(over->at("reason") == "concession");
  for (int s = 0; s < 4; ++s)
    if (s != quitter) CHECK(find_type(f.seats[s].c.take(), "match_over"));
  auto list = read_ok(h.store->reader().list_matches({}));
  REQUIRE(list.size() == 1);
  REQUIRE(list[0].result);
  CHECK(list[0].result->winners == want);
  CHECK(list[0].mode == "ffa");
  auto stored = read_ok(h.store->reader().load_match(list[0].match_id));
  REQUIRE(stored);
  CHECK(verify(shipped(), *stored).ok);
}

TEST_CASE("2v2: a disconnected seat concedes after the grace period; its team loses") {
  harness h;
  auto host = h.connect();
  const auto room = h.create_room(host, json::object(), "preconstructed", "2v2");
  auto f = fill(h, room);
  f.seats[1].c.disconnect();
  for (int s : {0, 2, 3}) {
    const auto msgs = f.seats[s].c.take();
    const json* st = find_type(msgs, "seat_status");
    REQUIRE(st);
    CHECK(st->at("seat") == 1);
    CHECK(st->at("connected") == false);
  }
  h.ex->advance(31s);
  const auto msgs = f.seats[0].c.take();
  const json* over = find_type(msgs, "match_over");
  REQUIRE(over);
  CHECK(over->at("winners") == json({0, 2}));
  CHECK(over->at("reason") == "concession");
}

TEST_CASE("ffa: the turn clock runs per seat; an empty bank concedes") {
  harness h;
  auto host = h.connect();
  const auto room =
      h.create_room(host, {{"turn_clock", {{"bank_ms", 2000}, {"increment_ms", 0}}}}, "preconstructed", "ffa");
  auto f = fill(h, room);
  const int first = active(f.seats[0].state);
  const auto& clock = f.seats[0].state.at("clock");
  CHECK(clock.at("remaining_ms").size() == 4);
  CHECK(clock.at("running_seat") == first);
  h.ex->advance(500ms);
  auto r = act(f.seats[first].c, {{"type", "end_turn"}});
  const json* up = find_type(r, "update");
  REQUIRE(up);
  const int next = (first + 1) % 4;
  CHECK(up->at("clock").at("running_seat") == next);
  CHECK(up->at("clock").at("remaining_ms")[first] == 1500);
  for (int s = 0; s < 4; ++s) f.seats[s].c.take();
  h.ex->advance(2100ms);  // the next seat lets its bank run out
  const auto msgs = f.seats[first].c.take();
  const json* over = find_type(msgs, "match_over");
  REQUIRE(over);
  std::vector<int> want;
  for (int s = 0; s < 4; ++s)
    if (s != next) want.push_back(s);
  CHECK(over->at("winners") == json(want));
}

TEST_CASE("2v2 with Champions to the end with random moves: the winners are a team; the stored log verifies") {
  harness h;
  auto host = h.connect();
  const auto room = h.create_room(host, {{"champions", true}, {"exhaustion", true}}, "preconstructed", "2v2");
  std::vector<std::string> champions;
  for (int s = 0; s < 4; ++s) champions.push_back(champion_for(s + 1, s));
  auto f = fill(h, room, champions);
  std::vector<json> views;
  for (auto& p : f.seats) views.push_back(p.state.at("view"));
  std::mt19937 rng(2024);
  std::int64_t seq = 0;
  bool over = false;
  json match_over;
  int champion_plays = 0;
  for (int step = 0; step < 6000 && !over; ++step) {
    const int s = views[0].at("active_seat").get<int>();
    auto moves = moves_from_view(views[s], shipped());
    // The Champion, when ready: a creature play like a hand card's (R13.2).
    const json& champ = views[s].at("seats")[s].at("champion");
    if (champ.at("state") == "ready") {
      moves.push_back({{"type", "play"}, {"card", champ.at("uid")}, {"line", "upper"}});
    }
    const json mv = moves[rng() % moves.size()];
    auto r = act(f.seats[s].c, mv, step);
    if (find_type(r, "error")) continue;
    ++seq;
    if (mv.at("type") == "play" && mv.at("card") == champ.at("uid")) ++champion_plays;
    for (int k = 0; k < 4; ++k) {
      auto msgs = k == s ? r : f.seats[k].c.take();
      const json* up = find_type(msgs, "update");
      REQUIRE(up);
      CHECK(up->at("seq") == seq);
      views[k] = up->at("view");
      if (const json* mo = find_type(msgs, "match_over")) {
        over = true;
        match_over = *mo;
      }
    }
  }
  if (!over) {
    const int s = views[0].at("active_seat").get<int>();
    auto r = act(f.seats[s].c, {{"type", "concede"}});
    ++seq;
    REQUIRE(find_type(r, "match_over"));
    match_over = *find_type(r, "match_over");
  }
  MESSAGE("2v2: " << seq << " actions, " << champion_plays << " Champion plays");
  const auto winners = match_over.at("winners").get<std::vector<int>>();
  CHECK((winners == std::vector<int>{0, 2} || winners == std::vector<int>{1, 3}));

  auto list = read_ok(h.store->reader().list_matches({}));
  REQUIRE(list.size() == 1);
  auto stored = read_ok(h.store->reader().load_match(list[0].match_id));
  REQUIRE(stored);
  CHECK(stored->match.mode == "2v2");
  for (const auto& s : stored->match.seats) {
    CHECK(s.team == s.seat % 2);
    CHECK(s.champion == champions[static_cast<std::size_t>(s.seat)]);
  }
  REQUIRE(stored->result);
  CHECK(stored->result->winners == winners);
  CHECK(static_cast<std::int64_t>(stored->actions.size()) == seq);
  check_verifies(*stored);
}

TEST_CASE("recovery rebuilds a four-seat match with Champions; each seat resumes to its own view") {
  memory_store store(memory_store::callbacks::run_inline);
  std::string room;
  std::vector<std::string> tokens(4);
  std::vector<json> last(4);
  std::int64_t seq = 0;
  {
    harness h(test_config(), &store);
    auto host = h.connect();
    room = h.create_room(host, {{"champions", true}}, "preconstructed", "ffa");
    std::vector<std::string> champions;
    for (int s = 0; s < 4; ++s) champions.push_back(champion_for(s + 1));
    auto f = fill(h, room, champions);
    std::vector<json> views;
    for (auto& p : f.seats) {
      tokens[static_cast<std::size_t>(p.seat)] = p.token;
      views.push_back(p.state.at("view"));
    }
    std::mt19937 rng(9);
    while (seq < 10) {
      const int s = views[0].at("active_seat").get<int>();
      auto r = act(f.seats[s].c, prefer_play(moves_from_view(views[s], shipped()), rng));
      if (!find_type(r, "accepted")) continue;
      ++seq;
      for (int k = 0; k < 4; ++k) views[k] = find_type(k == s ? r : f.seats[k].c.take(), "update")->at("view");
    }
    last = views;
    h.crash();
  }
  harness h2(test_config(), &store);
  h2.recover_one();
  auto lister = h2.connect();
  auto summary = list_one(lister);
  CHECK(summary.at("mode") == "ffa");
  CHECK(summary.at("seats").size() == 4);
  CHECK_FALSE(summary.at("seats")[2].at("champion").is_null());
  for (int s = 0; s < 4; ++s)
    h2.resume_recovered(room, tokens[static_cast<std::size_t>(s)], s, seq, last[static_cast<std::size_t>(s)]);
}
