// Rooms for solo (R12) and co-op (R11.7) against the AI: AI seats taken from
// the start and never joinable, the match starting with the last human, the
// opening events (an AI first turn) in the first state, AI turns in the
// update of the human's end of turn, no clock for an AI, concessions and
// grace periods ending the match for the AI side, and the match stored and
// recovered with its AI decks and difficulty.
#include <doctest/doctest.h>

#include <optional>
#include <random>

#include "cod/engine/match.hpp"
#include "cod/protocol/json_codec.hpp"
#include "common/sha256.hpp"
#include "replay/recovery.hpp"
#include "room_harness.hpp"
#include "../shared/store_reads.hpp"

using namespace cod::server;
using namespace cod::server::test;
using namespace std::chrono_literals;

namespace {

json join_msg(const std::string& room, const std::string& name, int deck) {
  return {{"type", "join"}, {"room", room}, {"name", name}, {"deck", {{"preconstructed", deck}}}};
}

// Events of `seat` among `events`.
int events_of(const json& events, int seat) {
  int n = 0;
  for (const auto& e : events)
    if (e.contains("seat") && e.at("seat") == seat) ++n;
  return n;
}

bool has_event(const json& events, const std::string& type, int seat) {
  for (const auto& e : events)
    if (e.at("type") == type && e.value("seat", -1) == seat) return true;
  return false;
}

// A human joins a solo room: joined and the first state come together.
harness::seated join_solo(harness& h, const std::string& room, int deck = 1) {
  harness::seated p;
  p.c = h.connect();
  p.c.say(join_msg(room, "solo", deck));
  auto msgs = p.c.take();
  INFO(json(msgs).dump());
  REQUIRE(find_type(msgs, "joined"));
  p.seat = find_type(msgs, "joined")->at("seat").get<int>();
  p.token = find_type(msgs, "joined")->at("token").get<std::string>();
  REQUIRE(find_type(msgs, "state"));
  p.state = *find_type(msgs, "state");
  p.msgs = msgs;
  return p;
}

// Two humans join a co-op room (seats 0 and 2); the match starts with the second.
std::pair<harness::seated, harness::seated> join_coop(harness& h, const std::string& room) {
  harness::seated a, c;
  a.c = h.connect();
  a.c.say(join_msg(room, "ann", 1));
  auto ma = a.c.take();
  REQUIRE(find_type(ma, "joined"));
  CHECK(find_type(ma, "joined")->at("seat") == 0);
  CHECK_FALSE(find_type(ma, "state"));  // C is still missing
  a.token = find_type(ma, "joined")->at("token").get<std::string>();
  a.seat = 0;
  c.c = h.connect();
  c.c.say(join_msg(room, "cy", 3));
  auto mc = c.c.take();
  REQUIRE(find_type(mc, "joined"));
  CHECK(find_type(mc, "joined")->at("seat") == 2);  // the lowest free seat: 1 is the AI's
  c.token = find_type(mc, "joined")->at("token").get<std::string>();
  c.seat = 2;
  REQUIRE(find_type(mc, "state"));
  c.state = *find_type(mc, "state");
  ma = a.c.take();
  REQUIRE(find_type(ma, "state"));
  a.state = *find_type(ma, "state");
  return {std::move(a), std::move(c)};
}

}  // namespace

TEST_CASE("solo: the AI seat is taken and not joinable; the match starts at the first join with the opening events") {
  harness h;
  auto host = h.connect();
  const auto room = h.create_room(host, json::object(), "preconstructed", "solo");
  auto summary = list_one(host);
  CHECK(summary.at("mode") == "solo");
  CHECK(summary.at("options").at("difficulty") == 0);
  CHECK(summary.at("options").at("ai").at("fixed_mana") == 6);
  REQUIRE(summary.at("seats").size() == 2);
  CHECK(summary.at("seats")[0].at("taken") == false);
  CHECK_FALSE(summary.at("seats")[0].contains("ai"));
  CHECK(summary.at("seats")[1].at("taken") == true);
  CHECK(summary.at("seats")[1].at("ai") == true);
  CHECK(summary.at("seats")[1].at("name") == "AI");

  auto intruder = h.connect();
  intruder.say({{"type", "join"}, {"id", 4}, {"room", room}, {"name", "x"}, {"seat", 1},
                {"deck", {{"preconstructed", 1}}}});
  const auto err = intruder.expect("error");
  CHECK(err.at("code") == "ai_seat");
  CHECK(err.at("id") == 4);
  CHECK(list_one(host).at("status") == "waiting");

  auto p = join_solo(h, room, 2);
  CHECK(p.seat == 0);
  CHECK(p.state.at("seq") == 0);
  const auto& v = p.state.at("view");
  CHECK(v.at("mode") == "solo");
  CHECK(v.at("active_seat") == 0);
  CHECK(v.at("seats")[1].at("ai") == true);
  CHECK(v.at("seats")[1].at("deck_size") == 24);  // quick play: the human starts (R12.2)
  REQUIRE(p.state.contains("events"));
  CHECK(has_event(p.state.at("events"), "turn_started", 0));
  CHECK(events_of(p.state.at("events"), 1) == 0);  // the AI has not played yet

  summary = list_one(host);
  CHECK(summary.at("status") == "playing");
  CHECK(summary.at("seats")[1].at("connected") == true);
  // The human's end of turn brings the AI's turn in the same update, and
  // it is the human's turn again (the engine plays the AI, R12.3).
  auto r = act(p.c, {{"type", "end_turn"}});
  const json* up = find_type(r, "update");
  REQUIRE(up);
  CHECK(has_event(up->at("events"), "turn_started", 1));
  CHECK(has_event(up->at("events"), "turn_started", 0));
  CHECK(up->at("view").at("active_seat") == 0);
  CHECK(up->at("view").at("seats")[1].at("deck_size").get<int>() < 24);  // R12.3: it revealed cards
}

TEST_CASE("solo custom difficulty with the AI first: the first state carries the AI's opening turn") {
  harness h;
  auto host = h.connect();
  // R12.8: AI first (1) + Sprint (1) + Rage (1) = level 3.
  const auto room = h.create_room(
      host, {{"difficulty", 3}, {"ai", {{"ai_first", true}, {"abilities", {"sprint", "rage"}}}}}, "preconstructed",
      "solo");
  auto spec = h.spectator(room);
  auto p = join_solo(h, room);
  // The spectator's first state has the same opening events, redacted for it.
  const auto spec_state = spec.expect("state");
  REQUIRE(spec_state.contains("events"));
  CHECK(has_event(spec_state.at("events"), "turn_ended", 1));
  CHECK(spec_state.at("events").size() == p.state.at("events").size());
  CHECK(spec_state.at("view").at("hand").empty());
  REQUIRE(p.state.contains("events"));
  const auto& events = p.state.at("events");
  INFO(events.dump());
  REQUIRE(events.size() > 0);
  CHECK(events[0].at("type") == "match_started");
  CHECK(events[0].at("first_seat") == 1);
  CHECK(has_event(events, "turn_started", 1));
  CHECK(has_event(events, "turn_ended", 1));
  CHECK(has_event(events, "turn_started", 0));
  const auto& v = p.state.at("view");
  CHECK(v.at("active_seat") == 0);
  CHECK(v.at("seats")[1].at("deck_size").get<int>() < 24);
  // A reconnecting human gets the view only: the events went out once.
  auto again = h.connect();
  again.say({{"type", "resume"}, {"room", room}, {"token", p.token}});
  const auto st = again.expect("state");
  CHECK_FALSE(st.contains("events"));
  CHECK(st.at("view") == v);
}

TEST_CASE("solo/coop create_room: the points must equal the level; quick play takes no settings or Champions") {
  harness h;
  auto c = h.connect();
  auto refused = [&](const json& options, const std::string& mode, const std::string& field) {
    c.say({{"type", "create_room"}, {"id", 9}, {"mode", mode}, {"format", "preconstructed"}, {"options", options}});
    const auto e = c.expect("error");
    CHECK(e.at("code") == "bad_field_value");
    CHECK(e.at("field") == field);
    return e.at("message").get<std::string>();
  };
  CHECK(refused({{"difficulty", 5}, {"ai", {{"ai_first", true}, {"resistance", true}}}}, "solo",
                "options.difficulty") == "custom difficulty 5 needs 5 points; these options spend 3 (R12.8)");
  CHECK(refused({{"ai", {{"resistance", true}}}}, "coop", "options.ai").find("quick play") != std::string::npos);
  CHECK(refused({{"champions", true}}, "solo", "options.champions").find("R13.1") != std::string::npos);
  // Co-op with Champions: two human Champions give 4 points (RULING E45).
  CHECK(refused({{"difficulty", 2}, {"champions", true}, {"ai", {{"fixed_mana", 10}}}}, "coop",
                "options.difficulty") ==
        "custom difficulty 2 needs 2 points; these options spend 0 (2 Champions give 2 each) (R12.8)");
  c.say({{"type", "list_rooms"}});
  CHECK(c.expect("rooms").at("rooms").empty());
  // The same co-op room with a level that fits is created.
  h.create_room(c, {{"difficulty", 2}, {"champions", true}, {"ai", {{"fixed_mana", 10}, {"double_variable", true}}}},
                "preconstructed", "coop");
}

TEST_CASE("coop: the match starts with C; a human's concession makes the AIs' team win (R16.3, R11.4)") {
  harness h;
  auto host = h.connect();
  const auto room = h.create_room(host, json::object(), "preconstructed", "coop");
  auto summary = list_one(host);
  REQUIRE(summary.at("seats").size() == 4);
  for (int s : {1, 3}) CHECK(summary.at("seats")[s].at("ai") == true);
  auto [a, c] = join_coop(h, room);
  for (auto* p : {&a, &c}) {
    const auto& v = p->state.at("view");
    CHECK(v.at("mode") == "coop");
    CHECK(v.at("active_seat") == 0);
    CHECK(v.at("seats")[1].at("deck_size") == 24);
    CHECK(v.at("seats")[3].at("deck_size") == 24);
    CHECK(p->state.contains("events"));
  }
  auto r = act(c.c, {{"type", "concede"}});  // C, not the active seat: R16.3 at any time
  REQUIRE(find_type(r, "accepted"));
  const json* over = find_type(r, "match_over");
  REQUIRE(over);
  CHECK(over->at("winners") == json({1, 3}));
  CHECK(over->at("reason") == "concession");
  CHECK(find_type(a.c.take(), "match_over"));

  auto list = read_ok(h.store->reader().list_matches({}));
  REQUIRE(list.size() == 1);
  auto stored = read_ok(h.store->reader().load_match(list[0].match_id));
  REQUIRE(stored);
  CHECK(stored->match.mode == "coop");
  const auto options = json::parse(stored->match.options_json);
  CHECK(options.at("difficulty") == 0);
  REQUIRE(stored->match.seats.size() == 4);
  for (const auto& s : stored->match.seats) {
    CHECK(s.team == s.seat % 2);  // R11.7: humans A+C (0), AIs B+D (1)
    CHECK(s.ai == (s.seat % 2 == 1));
    if (s.ai) {
      CHECK(s.name == "AI");
      CHECK(s.token_hash.empty());
      // RULING E41: B plays the three decks A (deck 1) did not pick, D those C (deck 3) did not.
      const int owner_deck = s.seat == 1 ? 1 : 3;
      json ids = json::array();
      for (auto card : cod::solo_ai_deck(shipped(), owner_deck)) ids.push_back(shipped().def(card).id);
      CHECK(json::parse(s.deck_json) == json{{"cards", ids}});
    }
  }
  REQUIRE(stored->result);
  CHECK(stored->result->winners == std::vector<int>{1, 3});
  check_verifies(*stored);

  // A record whose AI deck is not the one RULING E41 gives is refused, as is
  // one whose AI seat is not marked.
  auto tampered = *stored;
  auto deck = json::parse(tampered.match.seats[1].deck_json);
  std::swap(deck["cards"][0], deck["cards"][23]);
  tampered.match.seats[1].deck_json = deck.dump();
  cod::match_config cfg;
  status why = config_from_record(shipped(), tampered.match, cfg);
  CHECK_FALSE(why);
  CHECK(why.message().find("RULING E41") != std::string::npos);
  tampered = *stored;
  tampered.match.seats[3].ai = false;
  why = config_from_record(shipped(), tampered.match, cfg);
  CHECK_FALSE(why);
  CHECK(why.message().find("not marked ai") != std::string::npos);
  REQUIRE(config_from_record(shipped(), stored->match, cfg));
  CHECK(cfg.decks[3] == cod::solo_ai_deck(shipped(), 3));
}

TEST_CASE("solo: a human away past the grace period concedes; the AI wins") {
  harness h;
  auto host = h.connect();
  const auto room = h.create_room(host, json::object(), "preconstructed", "solo");
  auto p = join_solo(h, room);
  p.c.disconnect();
  h.ex->advance(31s);
  auto list = read_ok(h.store->reader().list_matches({}));
  REQUIRE(list.size() == 1);
  REQUIRE(list[0].result);
  CHECK(list[0].result->winners == std::vector<int>{1});
  CHECK(list[0].result->reason == "concession");
}

TEST_CASE("solo with a turn clock: only the human's bank runs, even across the AI's turns") {
  harness h;
  auto host = h.connect();
  const auto room =
      h.create_room(host, {{"turn_clock", {{"bank_ms", 5000}, {"increment_ms", 0}}}}, "preconstructed", "solo");
  auto p = join_solo(h, room);
  CHECK(p.state.at("clock").at("running_seat") == 0);
  h.ex->advance(1000ms);
  auto r = act(p.c, {{"type", "end_turn"}});
  const json* up = find_type(r, "update");
  REQUIRE(up);
  // The AI played its turn inside the engine: no time passed for it, and
  // the human's bank runs again (4000 ms left).
  CHECK(up->at("clock").at("running_seat") == 0);
  CHECK(up->at("clock").at("remaining_ms")[0] == 4000);
  CHECK(up->at("clock").at("remaining_ms")[1] == 5000);
  for (const auto& m : r)
    if (m.at("type") == "clock") CHECK(m.at("seat") == 0);
  h.ex->advance(4100ms);
  auto list = read_ok(h.store->reader().list_matches({}));
  REQUIRE(list.size() == 1);
  REQUIRE(list[0].result);
  CHECK(list[0].result->winners == std::vector<int>{1});
}

TEST_CASE("solo to the end with random moves: the stored match verifies; its winners are the engine's") {
  harness h;
  auto host = h.connect();
  const auto room = h.create_room(host, {{"difficulty", 1}, {"ai", {{"fixed_mana", 7}}}, {"exhaustion", true}},
                                  "preconstructed", "solo");
  auto p = join_solo(h, room, 4);
  json view = p.state.at("view");
  std::mt19937 rng(77);
  std::int64_t seq = 0;
  json over;
  int ai_events = 0;
  for (int step = 0; step < 3000 && over.is_null(); ++step) {
    auto r = act(p.c, prefer_play(moves_from_view(view, shipped()), rng), step);
    if (find_type(r, "error")) continue;
    const json* up = find_type(r, "update");
    REQUIRE(up);
    CHECK(up->at("seq") == ++seq);
    ai_events += events_of(up->at("events"), 1);
    view = up->at("view");
    if (const json* mo = find_type(r, "match_over")) over = *mo;
  }
  REQUIRE_FALSE(over.is_null());
  CHECK(ai_events > 0);
  auto list = read_ok(h.store->reader().list_matches({}));
  REQUIRE(list.size() == 1);
  auto stored = read_ok(h.store->reader().load_match(list[0].match_id));
  REQUIRE(stored);
  REQUIRE(stored->result);
  CHECK(json(stored->result->winners) == over.at("winners"));
  for (const auto& a : stored->actions) CHECK(a.seat == 0);  // the AI's turns are not in the log
  check_verifies(*stored);
}

TEST_CASE("recovery rebuilds a co-op match with custom difficulty: same AI decks, each human resumes its view") {
  memory_store store(memory_store::callbacks::run_inline);
  std::string room;
  std::vector<std::string> tokens(4);
  std::vector<json> last(4);
  std::int64_t seq = 0;
  {
    harness h(test_config(), &store);
    auto host = h.connect();
    room = h.create_room(host, {{"difficulty", 2}, {"ai", {{"ai_first", true}, {"abilities", {"splash"}}}}},
                         "preconstructed", "coop");
    auto [a, c] = join_coop(h, room);
    std::vector<harness::seated*> seats = {&a, nullptr, &c, nullptr};
    tokens[0] = a.token;
    tokens[2] = c.token;
    last[0] = a.state.at("view");
    last[2] = c.state.at("view");
    std::mt19937 rng(5);
    while (seq < 8) {
      const int s = last[0].at("active_seat").get<int>();
      REQUIRE((s == 0 || s == 2));
      auto r = act(seats[s]->c, prefer_play(moves_from_view(last[s], shipped()), rng));
      if (!find_type(r, "accepted")) continue;
      ++seq;
      for (int k : {0, 2}) last[k] = find_type(k == s ? r : seats[k]->c.take(), "update")->at("view");
      REQUIRE(last[0].at("phase") != "game_over");  // 8 actions never end a co-op game
    }
    h.crash();
  }
  harness h2(test_config(), &store);
  h2.recover_one();
  auto lister = h2.connect();
  auto summary = list_one(lister);
  CHECK(summary.at("mode") == "coop");
  CHECK(summary.at("options").at("difficulty") == 2);
  CHECK(summary.at("seats")[1].at("ai") == true);
  CHECK(summary.at("seats")[3].at("ai") == true);
  CHECK(summary.at("seats")[0].at("connected") == false);
  for (int s : {0, 2})
    h2.resume_recovered(room, tokens[static_cast<std::size_t>(s)], s, seq, last[static_cast<std::size_t>(s)]);
}

namespace {

// A game the human wins against the AI, found by playing: random bots never
// beat it, so the human plays greedily, one action of look-ahead (keep the
// hand's health, mill the AI's deck pile), over seeds until the AI loses.
struct human_win {
  std::uint64_t seed = 0;
  std::vector<cod::action> actions;  // the last one wins
};

double human_score(const cod::match& m) {
  if (m.over()) return (m.winners() & 1u) ? 1e9 : -1e9;
  const cod::seat_view v = m.view(0);
  double s = -10.0 * v.seats[1].deck_size + 40.0 * v.seats[0].health;
  if (v.seats[1].side == cod::stronghold_side::fort) s += 200;  // R12.5: the Bastion is gone
  return s;
}

std::optional<human_win> find_human_win(cod::match_config cfg, std::uint64_t max_seed) {
  std::vector<cod::action> legal;
  std::vector<cod::event> events;
  for (std::uint64_t seed = 1; seed <= max_seed; ++seed) {
    cfg.seed = seed;
    cod::match m;
    if (cod::match::create(shipped(), cfg, m, events) != cod::rule_error::ok) return std::nullopt;
    human_win w{seed, {}};
    while (!m.over() && w.actions.size() < 400) {
      m.legal_actions(legal);
      cod::action pick = legal.back();
      double best = -1e18;
      for (const auto& a : legal) {
        cod::match next = m;
        if (next.apply(a, events) != cod::rule_error::ok) continue;
        if (const double s = human_score(next); s > best) best = s, pick = a;
      }
      REQUIRE(m.apply(pick, events) == cod::rule_error::ok);
      w.actions.push_back(pick);
    }
    if (m.over() && (m.winners() & 1u)) return w;
  }
  return std::nullopt;
}

}  // namespace

TEST_CASE("solo: the human defeats the AI (R12.6): the last action's update, match_over and the stored result") {
  // A real solo room's record (its seats, deck and token), then the same
  // record with the seed of a game the human wins, its log up to the winning
  // action: the restarted room resumes there, and the human plays it.
  memory_store first(memory_store::callbacks::run_inline);
  std::string room;
  std::string token;
  {
    harness h(test_config(), &first);
    auto host = h.connect();
    room = h.create_room(host, json::object(), "preconstructed", "solo");
    token = join_solo(h, room, 4).token;
    h.crash();
  }
  auto unfinished = read_ok(first.reader().load_unfinished());
  REQUIRE(unfinished.size() == 1);
  match_record rec = unfinished[0].match;
  cod::match_config cfg;
  REQUIRE(config_from_record(shipped(), rec, cfg).is_ok());
  const auto win = find_human_win(cfg, 5000);
  REQUIRE_MESSAGE(win, "no seed up to 5000 gives the greedy human a win against the AI");
  rec.seed = win->seed;
  rec.seed_hash = seed_commitment(win->seed);
  cfg.seed = win->seed;

  memory_store store(memory_store::callbacks::run_inline);
  bool ok = true;
  store.create_match(rec, [&](const status& s) { ok = ok && s.is_ok(); });
  cod::match replay;
  std::vector<cod::event> events;
  REQUIRE(cod::match::create(shipped(), cfg, replay, events) == cod::rule_error::ok);
  const std::int64_t before_win = static_cast<std::int64_t>(win->actions.size()) - 1;
  for (std::int64_t i = 0; i < before_win; ++i) {
    const cod::action& a = win->actions[static_cast<std::size_t>(i)];
    REQUIRE(replay.apply(a, events) == cod::rule_error::ok);
    store.append_action(rec.match_id,
                        {i + 1, a.seat, cod::protocol::action_to_json(a).dump(), replay.digest(), rec.created_ms + i},
                        [&](const status& s) { ok = ok && s.is_ok(); });
  }
  REQUIRE(ok);

  harness h(test_config(), &store);
  h.recover_one();
  auto p = h.connect();
  p.say({{"type", "resume"}, {"room", room}, {"token", token}});
  auto msgs = p.take();
  REQUIRE(find_type(msgs, "state"));
  CHECK(find_type(msgs, "state")->at("seq") == before_win);
  CHECK(find_type(msgs, "state")->at("view").at("phase") == "summoning");

  const json last = cod::protocol::action_to_json(win->actions.back());
  auto r = act(p, last, 9);
  REQUIRE(find_type(r, "accepted"));
  const json* update = find_type(r, "update");
  REQUIRE(update);
  const json& view = update->at("view");
  CHECK(view.at("phase") == "game_over");
  CHECK(view.at("winners") == json::array({0}));
  CHECK(view.at("reason") == "fort_destroyed");
  CHECK(view.at("seats")[1].at("deck_size") == 0);  // R12.6: the AI's deck pile is empty...
  CHECK(view.at("seats")[1].at("side") == "fort");  // ...and its Fort revealed
  const json& ev = update->at("events");
  REQUIRE(!ev.empty());
  CHECK(ev.back().at("type") == "game_over");
  CHECK(ev.back().at("winners") == json::array({0}));
  CHECK(ev.back().at("loser") == 1);
  CHECK(ev.back().at("reason") == "fort_destroyed");
  const json* over = find_type(r, "match_over");
  REQUIRE(over);
  CHECK(over->at("winners") == json::array({0}));
  CHECK(over->at("reason") == "fort_destroyed");
  CHECK(over->at("seed") == std::to_string(win->seed));

  // Stored as the engine decided it, and the whole log verifies.
  auto sm = read_ok(store.reader().load_match(rec.match_id));
  REQUIRE(sm);
  REQUIRE(sm->result);
  CHECK(sm->result->winners == std::vector<int>{0});
  CHECK(sm->result->reason == "fort_destroyed");
  CHECK(sm->actions.size() == win->actions.size());
  CHECK(verify(shipped(), *sm).ok);
}

TEST_CASE("solo: a chosen deal (options.seed): the seed committed to is that one, two rooms deal alike; solo only") {
  harness h;
  auto host = h.connect();
  const json chosen = {{"seed", "136"}};
  host.say({{"type", "create_room"}, {"mode", "solo"}, {"format", "preconstructed"}, {"options", chosen}});
  const auto created = host.expect("room_created");
  CHECK(created.at("seed_hash") == seed_commitment(136));
  const auto room = created.at("room").get<std::string>();
  CHECK(list_one(host).at("options").at("seed") == "136");
  // The same seed and deck: the same hand, the same AI turn.
  const auto again = h.create_room(host, chosen, "preconstructed", "solo");
  auto p = join_solo(h, room, 2);
  auto q = join_solo(h, again, 2);
  CHECK(p.state.at("view").at("hand") == q.state.at("view").at("hand"));
  const auto frames_p = act(p.c, {{"type", "end_turn"}});
  const auto frames_q = act(q.c, {{"type", "end_turn"}});
  const json* up_p = find_type(frames_p, "update");
  const json* up_q = find_type(frames_q, "update");
  REQUIRE(up_p);
  REQUIRE(up_q);
  CHECK(up_p->at("view").at("lines") == up_q->at("view").at("lines"));
  // Without it, a fresh seed: no "seed" in the summary.
  auto other = h.connect();
  h.create_room(other, json::object(), "preconstructed", "solo");
  other.say({{"type", "list_rooms"}});
  const json listed = other.expect("rooms");  // kept: the loop reads into it
  for (const auto& r : listed.at("rooms"))
    CHECK(r.at("options").contains("seed") == (r.at("room") == room || r.at("room") == again));
  // The largest 64-bit seed is accepted; bad ones are refused, naming the field.
  h.create_room(host, {{"seed", "18446744073709551615"}}, "preconstructed", "solo");
  for (const char* bad : {"18446744073709551616", "0136", "", "-1", "12a"})
    CHECK(refused_create(host, {{"seed", bad}}, "solo", "preconstructed").rfind("options.seed: ", 0) == 0);
  // A room of several players: a known seed would tell one the others' shuffles.
  CHECK(refused_create(host, chosen, "duel", "preconstructed").find("solo rooms only") != std::string::npos);
  CHECK(refused_create(host, chosen, "coop", "preconstructed").rfind("options.seed: ", 0) == 0);
  host.say({{"type", "create_room"}, {"id", 10}, {"mode", "solo"}, {"format", "preconstructed"},
            {"options", {{"seed", 136}}}});
  CHECK(host.expect("error").at("code") == "bad_field_type");
}
