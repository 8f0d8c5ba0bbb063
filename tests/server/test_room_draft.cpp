// Drafted rooms against the AI: the solo draft (R14.4) and the co-op draft
// (R14.5) through the room. The draft waits for the human seats only (the
// engine deals the AI seats their cards, RULINGS E61, E66), the match starts
// with the drafted decks (AI piles of 24) and the room's difficulty (R12.8),
// the record and the draft log rebuild it, mid-draft and mid-match.
#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <set>

#include "replay/draft_log.hpp"
#include "replay/recovery.hpp"
#include "room_harness.hpp"
#include "../shared/store_reads.hpp"

using namespace cod::server;
using namespace cod::server::test;
using namespace std::chrono_literals;

namespace {

const json* last_of(const std::vector<json>& msgs, const std::string& type) {
  const json* found = nullptr;
  for (const auto& m : msgs)
    if (m.at("type") == type) found = &m;
  return found;
}

// A human joins a drafted room (no deck); returns what came back.
std::vector<json> join_drafted(harness::seated& p, harness& h, const std::string& room, const std::string& name) {
  p.c = h.connect();
  p.c.say({{"type", "join"}, {"room", room}, {"name", name}});
  auto msgs = p.c.take();
  INFO(json(msgs).dump());
  REQUIRE(find_type(msgs, "joined"));
  p.seat = find_type(msgs, "joined")->at("seat").get<int>();
  p.token = find_type(msgs, "joined")->at("token").get<std::string>();
  return msgs;
}

// Makes the picks the draft waits for (the first cards on offer) until the
// match starts or `max_picks` picks were made. `seats` by seat (null: AI).
// Returns the last draft view; fills each human's first state.
json draft_on(std::vector<harness::seated*> seats, json view, int max_picks = 1000) {
  for (int n = 0; n < max_picks && !view.at("finished").get<bool>(); ++n) {
    REQUIRE(view.at("waiting").size() == 1);
    const json w = view.at("waiting")[0];
    const int s = w.at("seat").get<int>();
    REQUIRE(s >= 0);
    REQUIRE(seats[static_cast<std::size_t>(s)] != nullptr);  // never an AI seat (RULING E61)
    CHECK(w.at("pick") == "take");
    json cards = json::array();
    for (int i = 0; i < w.at("count").get<int>(); ++i) cards.push_back(view.at("offer")[static_cast<std::size_t>(i)]);
    auto& picker = *seats[static_cast<std::size_t>(s)];
    picker.c.say({{"type", "draft_pick"}, {"id", 100 + n}, {"pick", "take"}, {"cards", cards}});
    for (auto* p : seats) {
      if (!p) continue;
      auto msgs = p->c.take();
      INFO(json(msgs).dump());
      if (p == &picker) REQUIRE(find_type(msgs, "accepted"));
      const json* d = last_of(msgs, "draft");
      REQUIRE(d);
      view = d->at("draft");
      if (const json* st = find_type(msgs, "state")) p->state = *st;
      p->msgs = msgs;
    }
  }
  return view;
}

}  // namespace

TEST_CASE("solo draft (R14.4): the human picks 1 of 4, the AI gets 3; the match starts with the AI's 24 and the difficulty") {
  harness h;
  auto host = h.connect();
  const auto room = h.create_room(
      host, {{"packs", {"initiation"}}, {"difficulty", 2}, {"ai", {{"ai_first", true}, {"fixed_mana", 7}}}}, "draft",
      "solo");
  harness::seated p;
  auto msgs = join_drafted(p, h, room, "solo");
  CHECK(p.seat == 0);
  const json* d = find_type(msgs, "draft");
  REQUIRE(d);
  CHECK_FALSE(find_type(msgs, "state"));
  const json& view = d->at("draft");
  CHECK(view.at("table") == "solo");
  CHECK(view.at("seats")[1].at("ai") == true);
  CHECK(view.at("offer").size() == 4);
  CHECK(view.at("waiting") == json::parse(R""([{"seat": 0, "pick": "take", "count": 1}])""));
  host.say({{"type", "list_rooms"}});
  CHECK(host.expect("rooms").at("rooms")[0].at("status") == "drafting");
  // The AI seat takes nothing itself: act and picks for it are refused.
  p.c.say({{"type", "act"}, {"id", 5}, {"action", {{"type", "end_turn"}}}});
  const json refused = p.c.expect("error");
  CHECK(refused.at("code") == "match_not_started");
  // It says the room drafts, not that it waits for players.
  CHECK(refused.at("message").get<std::string>().find("drafting") != std::string::npos);
  CHECK(refused.at("message").get<std::string>().find("waiting for players") == std::string::npos);

  const json last = draft_on({&p, nullptr}, view);
  REQUIRE(last.at("finished") == true);
  CHECK(last.at("seats")[0].at("taken").size() == 8);
  CHECK(last.at("ai_cards").size() == 24);
  CHECK(last.at("seats")[1].at("deck_size") == 24);
  REQUIRE(last.at("own_deck").size() == 8);
  // The match: the human's 8 drafted cards, the AI's 24 as its pile; with
  // ai_first (R12.8) the AI opened, and the first state carries its turn.
  REQUIRE(p.state.contains("view"));
  const json& v = p.state.at("view");
  CHECK(v.at("mode") == "solo");
  CHECK(v.at("active_seat") == 0);
  CHECK(v.at("seats")[1].at("deck_size").get<int>() < 24);
  REQUIRE(p.state.contains("events"));
  CHECK(p.state.at("events")[0].at("first_seat") == 1);
  std::set<std::string> own;
  for (const auto& c : last.at("own_deck")) own.insert(c.get<std::string>());
  for (const auto& c : v.at("hand")) CHECK(own.count(c.at("card_id").get<std::string>()) == 1);

  // Stored: the AI seat's deck comes from the draft log, which rebuilds the match.
  auto list = read_ok(h.store->reader().list_matches({}));
  REQUIRE(list.size() == 1);
  auto stored = read_ok(h.store->reader().load_match(list[0].match_id));
  REQUIRE(stored);
  CHECK(stored->match.format == "draft");
  REQUIRE(stored->match.seats.size() == 2);
  CHECK(stored->match.seats[1].ai);
  CHECK(stored->match.seats[1].deck_json == R"({"draft":true})");
  auto rb = rebuild(shipped(), *stored);
  INFO(rb.error);
  REQUIRE(rb.ok);
  CHECK(rb.drafted);
  CHECK_FALSE(rb.drafting);
  CHECK(rb.draft.decks()[1].size() == 24);
  CHECK(rb.m.view(0).seats[1].deck_size == v.at("seats")[1].at("deck_size").get<int>());
}

TEST_CASE("solo draft to the end with random moves: the stored match verifies") {
  harness h;
  auto host = h.connect();
  const auto room = h.create_room(host, {{"packs", {"treachery"}}}, "draft", "solo");
  harness::seated p;
  auto msgs = join_drafted(p, h, room, "solo");
  draft_on({&p, nullptr}, find_type(msgs, "draft")->at("draft"));
  json view = p.state.at("view");
  std::mt19937 rng(11);
  json over;
  for (int step = 0; step < 3000 && over.is_null(); ++step) {
    auto r = act(p.c, prefer_play(moves_from_view(view, shipped()), rng), step);
    if (find_type(r, "error")) continue;
    const json* up = find_type(r, "update");
    REQUIRE(up);
    view = up->at("view");
    if (const json* mo = find_type(r, "match_over")) over = *mo;
  }
  REQUIRE_FALSE(over.is_null());
  auto list = read_ok(h.store->reader().list_matches({}));
  REQUIRE(list.size() == 1);
  auto stored = read_ok(h.store->reader().load_match(list[0].match_id));
  REQUIRE(stored);
  check_verifies(*stored);
}

TEST_CASE("co-op draft (R14.5): A and C pick, the AIs get 6 of 8 and 24 each; recovered mid-draft and mid-match") {
  memory_store store(memory_store::callbacks::run_inline);
  std::string room;
  std::string tok_a, tok_c;
  json mid;
  {
    harness h(test_config(), &store);
    auto host = h.connect();
    room = h.create_room(host, {{"packs", {"initiation", "treachery"}}, {"difficulty", 1}, {"ai", {{"fixed_mana", 7}}}},
                         "draft", "coop");
    harness::seated a, c;
    auto ma = join_drafted(a, h, room, "ann");
    CHECK(a.seat == 0);
    CHECK_FALSE(find_type(ma, "draft"));  // C is missing
    auto mc = join_drafted(c, h, room, "cy");
    CHECK(c.seat == 2);  // seat 1 is the AI's
    const json* d = find_type(mc, "draft");
    REQUIRE(d);
    REQUIRE(find_type(a.c.take(), "draft"));
    CHECK(d->at("draft").at("table") == "coop");
    CHECK(d->at("draft").at("offer").size() == 8);
    mid = draft_on({&a, nullptr, &c, nullptr}, d->at("draft"), 5);
    CHECK_FALSE(mid.at("finished").get<bool>());
    CHECK(mid.at("ai_cards").size() > 0);
    tok_a = a.token;
    tok_c = c.token;
    h.crash();  // the "crash", mid-draft
  }
  {
    harness h2(test_config(), &store);
    h2.recover_one();
    auto lister = h2.connect();
    lister.say({{"type", "list_rooms"}});
    const auto summary = lister.expect("rooms").at("rooms")[0];
    CHECK(summary.at("status") == "drafting");
    CHECK(summary.at("options").at("difficulty") == 1);
    harness::seated a, c;
    a.c = h2.connect();
    c.c = h2.connect();
    a.seat = 0;
    c.seat = 2;
    a.c.say({{"type", "resume"}, {"room", room}, {"token", tok_a}});
    auto ra = a.c.take();
    REQUIRE(find_type(ra, "draft"));
    // The draft goes on where it stopped (the same public view).
    const json& back = find_type(ra, "draft")->at("draft");
    for (const char* k : {"offer", "waiting", "round", "pile_left", "ai_cards"}) CHECK(back.at(k) == mid.at(k));
    for (int s = 0; s < 4; ++s) CHECK(back.at("seats")[s].at("taken") == mid.at("seats")[s].at("taken"));
    c.c.say({{"type", "resume"}, {"room", room}, {"token", tok_c}});
    auto rc = c.c.take();
    REQUIRE(find_type(rc, "draft"));
    a.c.take();
    const json last = draft_on({&a, nullptr, &c, nullptr}, find_type(rc, "draft")->at("draft"));
    REQUIRE(last.at("finished") == true);
    CHECK(last.at("ai_cards").size() == 48);
    CHECK(last.at("seats")[0].at("taken").size() == 8);
    CHECK(last.at("seats")[2].at("taken").size() == 8);
    CHECK(last.at("seats")[1].at("deck_size") == 24);
    CHECK(last.at("seats")[3].at("deck_size") == 24);
    for (auto* p : {&a, &c}) {
      REQUIRE(p->state.contains("view"));
      CHECK(p->state.at("view").at("seats")[1].at("deck_size") == 24);
      CHECK(p->state.at("view").at("seats")[3].at("deck_size") == 24);
    }
    // A few actions, then the second crash, mid-match.
    std::mt19937 rng(3);
    std::vector<harness::seated*> seats = {&a, nullptr, &c, nullptr};
    json views[4] = {a.state.at("view"), json(), c.state.at("view"), json()};
    for (int n = 0; n < 4;) {
      const int s = views[0].at("active_seat").get<int>();
      REQUIRE((s == 0 || s == 2));
      auto r = act(seats[static_cast<std::size_t>(s)]->c, prefer_play(moves_from_view(views[s], shipped()), rng));
      if (!find_type(r, "accepted")) continue;
      ++n;
      for (int k : {0, 2}) views[k] = find_type(k == s ? r : seats[static_cast<std::size_t>(k)]->c.take(), "update")->at("view");
    }
    a.state["view"] = views[0];
    mid = views[0];
    h2.crash();
  }
  harness h3(test_config(), &store);
  const auto unfinished = h3.recover_one();
  auto a = h3.connect();
  a.say({{"type", "resume"}, {"room", room}, {"token", tok_a}});
  auto ra = a.take();
  const json* st = find_type(ra, "state");
  REQUIRE(st);
  CHECK(st->at("view") == mid);
  auto stored = read_ok(store.reader().load_match(unfinished[0].match.match_id));
  REQUIRE(stored);
  for (const auto& s : stored->match.seats) CHECK(s.deck_json == R"({"draft":true})");
}

TEST_CASE("solo and co-op drafts: create_room offers \"draft\", not the other drafted or constructed formats") {
  harness h;
  auto c = h.connect();
  auto refused = [&](const json& options, const std::string& mode, const std::string& format) {
    return refused_create(c, options, mode, format);
  };
  CHECK(refused(json::object(), "solo", "instant_constructed") ==
        "format: a solo room plays preconstructed decks or a draft (R2.1, R12.7, R14.4, R14.5): \"format\" must be "
        "\"preconstructed\" or \"draft\"");
  CHECK(refused(json::object(), "coop", "constructed").rfind("format: ", 0) == 0);
  CHECK(refused({{"packs", {"initiation"}}}, "solo", "preconstructed").rfind("options.packs: ", 0) == 0);
  // Co-op deals 64 cards (R14.5): one pack of 32 is too small (RULING E60).
  CHECK(refused({{"packs", {"initiation"}}}, "coop", "draft").find("pool_too_small") != std::string::npos);
  h.create_room(c, {{"packs", {"initiation"}}}, "draft", "solo");
  h.create_room(c, json::object(), "draft", "coop");
}

TEST_CASE("Champions in a draft (R13.1, RULING E67): named at join, withheld from the pool, in the match; recovered") {
  memory_store store(memory_store::callbacks::run_inline);
  std::string room, tok_a, tok_b;
  {
    harness h(test_config(), &store);
    auto host = h.connect();
    room = h.create_room(host, {{"packs", {"initiation"}}, {"champions", true}}, "draft", "duel");
    harness::seated a, b;
    a.c = h.connect();
    // A drafted room with Champions: the join names one (R13.1).
    a.c.say({{"type", "join"}, {"room", room}, {"name", "ann"}});
    auto e = a.c.expect("error");
    CHECK(e.at("code") == "bad_champion_choice");
    CHECK(e.at("reason") == "champion_required");
    a.c = h.connect();
    a.c.say({{"type", "join"}, {"room", room}, {"name", "ann"}, {"champion", "scribe"}});
    auto ja = a.c.expect("joined");
    tok_a = ja.at("token").get<std::string>();
    b.c = h.connect();
    b.c.say({{"type", "join"}, {"room", room}, {"name", "bob"}, {"champion", "genie"}});  // from outside the packs
    auto mb = b.c.take();
    REQUIRE(find_type(mb, "joined"));
    tok_b = find_type(mb, "joined")->at("token").get<std::string>();
    const json* d = find_type(mb, "draft");
    REQUIRE(d);
    a.c.take();
    const json& pool = d->at("draft").at("pool");
    CHECK(pool.size() == 31);  // 32 less A's Champion
    CHECK(std::find(pool.begin(), pool.end(), "scribe") == pool.end());
    // Revealed with the draft (they are why the pool has fewer cards).
    host.say({{"type", "list_rooms"}});
    const auto summary = host.expect("rooms").at("rooms")[0];
    CHECK(summary.at("status") == "drafting");
    CHECK(summary.at("seats")[0].at("champion") == "scribe");
    CHECK(summary.at("seats")[1].at("champion") == "genie");
    const json mid = draft_on({&a, &b}, d->at("draft"), 2);
    CHECK_FALSE(mid.at("finished").get<bool>());
    h.crash();
  }
  harness h2(test_config(), &store);
  const auto unfinished = h2.recover_one();
  harness::seated a, b;
  a.c = h2.connect();
  b.c = h2.connect();
  a.c.say({{"type", "resume"}, {"room", room}, {"token", tok_a}});
  auto ra = a.c.take();
  REQUIRE(find_type(ra, "draft"));
  b.c.say({{"type", "resume"}, {"room", room}, {"token", tok_b}});
  auto rb = b.c.take();
  REQUIRE(find_type(rb, "draft"));
  a.c.take();
  const json last = draft_on({&a, &b}, find_type(rb, "draft")->at("draft"));
  REQUIRE(last.at("finished") == true);
  for (auto* p : {&a, &b}) {
    REQUIRE(p->state.contains("view"));
    const auto& seats = p->state.at("view").at("seats");
    CHECK(seats[0].at("champion").at("card_id") == "scribe");
    CHECK(seats[1].at("champion").at("card_id") == "genie");
    for (const auto& c : last.at("own_deck")) CHECK(c != "scribe");
  }
  auto stored = read_ok(store.reader().load_match(unfinished[0].match.match_id));
  REQUIRE(stored);
  CHECK(stored->match.seats[0].champion == "scribe");
  auto rebuilt = rebuild(shipped(), *stored);
  INFO(rebuilt.error);
  REQUIRE(rebuilt.ok);
  CHECK(rebuilt.m.view(cod::referee).seats[0].champion.card == *shipped().find("scribe"));
}

TEST_CASE("Champions with drafts: solo custom play only; the pool must hold the draft without the Champions") {
  harness h;
  auto c = h.connect();
  auto refused = [&](const json& options, const std::string& mode, const std::string& format) {
    return refused_create(c, options, mode, format);
  };
  // R13.1: not in solo quick play.
  CHECK(refused({{"champions", true}}, "solo", "draft").find("R13.1") != std::string::npos);
  // Solo needs 32 cards: one pack of 32 less the Champion is too few.
  CHECK(refused({{"champions", true}, {"packs", {"initiation"}}, {"difficulty", 1}, {"ai", {{"fixed_mana", 9}}}}, "solo",
                "draft")
            .find("RULING E67") != std::string::npos);
  const auto room = h.create_room(
      c, {{"champions", true}, {"packs", {"initiation", "treachery"}}, {"difficulty", 1}, {"ai", {{"fixed_mana", 9}}}},
      "draft", "solo");
  h.create_room(c, {{"champions", true}}, "instant_constructed", "duel");
  harness::seated p;
  p.c = h.connect();
  p.c.say({{"type", "join"}, {"room", room}, {"name", "solo"}, {"champion", "brute"}});
  auto msgs = p.c.take();
  REQUIRE(find_type(msgs, "draft"));
  const json last = draft_on({&p, nullptr}, find_type(msgs, "draft")->at("draft"));
  REQUIRE(last.at("finished") == true);
  CHECK(last.at("pool").size() == 63);
  REQUIRE(p.state.contains("view"));
  CHECK(p.state.at("view").at("seats")[0].at("champion").at("card_id") == "brute");
  CHECK(p.state.at("view").at("seats")[1].at("champion").is_null());
}

TEST_CASE("a drafting room whose seats are all away past the grace period is abandoned; one seat back keeps it") {
  harness h;  // grace period 30 s
  auto host = h.connect();
  const auto room = h.create_room(host, {{"packs", {"initiation"}}}, "draft", "duel");
  harness::seated a, b;
  join_drafted(a, h, room, "ann");
  auto mb = join_drafted(b, h, room, "bob");
  REQUIRE(find_type(mb, "draft"));
  a.c.take();
  auto spec = h.spectator(room);
  // One seat away past its grace: the draft waits (the other is there).
  a.c.disconnect();
  h.ex->advance(31s);
  host.say({{"type", "list_rooms"}});
  CHECK(host.expect("rooms").at("rooms")[0].at("status") == "drafting");
  // Both away: the grace runs from the last one's departure.
  b.c.disconnect();
  h.ex->advance(20s);
  host.say({{"type", "list_rooms"}});
  CHECK(host.expect("rooms").at("rooms").size() == 1);
  // A seat back within the grace period keeps the draft alive.
  harness::seated back;
  back.c = h.connect();
  back.c.say({{"type", "resume"}, {"room", room}, {"token", b.token}});
  REQUIRE(find_type(back.c.take(), "draft"));
  h.ex->advance(40s);
  host.say({{"type", "list_rooms"}});
  CHECK(host.expect("rooms").at("rooms").size() == 1);
  back.c.disconnect();
  h.ex->advance(29s);
  host.say({{"type", "list_rooms"}});
  CHECK(host.expect("rooms").at("rooms").size() == 1);
  h.ex->advance(2s);
  // Abandoned: the room is gone, its spectator told, the match row finished without a result.
  host.say({{"type", "list_rooms"}});
  CHECK(host.expect("rooms").at("rooms").empty());
  CHECK(find_type(spec.take(), "left"));
  auto list = read_ok(h.store->reader().list_matches({}));
  REQUIRE(list.size() == 1);
  REQUIRE(list[0].result);
  CHECK(list[0].result->reason == "abandoned");
  CHECK(list[0].result->winners.empty());
  auto stored = read_ok(h.store->reader().load_match(list[0].match_id));
  REQUIRE(stored);
  CHECK_FALSE(stored->draft.empty());
  bool noted = false;
  for (const auto& n : stored->notes) noted = noted || n.text.find("during the draft") != std::string::npos;
  CHECK(noted);
  auto again = h.connect();
  again.say({{"type", "resume"}, {"room", room}, {"token", a.token}});
  CHECK(again.expect("error").at("code") == "room_not_found");
}

TEST_CASE("a room recovered mid-draft that nobody resumes is abandoned after the grace period") {
  memory_store store(memory_store::callbacks::run_inline);
  {
    harness h(test_config(), &store);
    auto host = h.connect();
    const auto room = h.create_room(host, {{"packs", {"initiation"}}}, "draft", "solo");
    harness::seated p;
    auto msgs = join_drafted(p, h, room, "solo");
    draft_on({&p, nullptr}, find_type(msgs, "draft")->at("draft"), 2);
    h.crash();
  }
  harness h2(test_config(), &store);
  const auto unfinished = h2.recover_one();
  h2.ex->advance(31s);
  auto lister = h2.connect();
  lister.say({{"type", "list_rooms"}});
  CHECK(lister.expect("rooms").at("rooms").empty());
  CHECK(read_ok(store.reader().load_unfinished()).empty());
  auto sm = read_ok(store.reader().load_match(unfinished[0].match.match_id));
  REQUIRE(sm);
  REQUIRE(sm->result);
  CHECK(sm->result->reason == "abandoned");
  // The record verifies what it holds: the draft replays, and a draft
  // stopped on purpose is no failure.
  const auto v = check_verifies(*sm);
  for (auto& ch : v.checks)
    if (ch.name == "draft") CHECK(ch.detail.find("abandoned before it finished") != std::string::npos);
  // The same record claiming a winner, or a stop the server never makes, fails.
  auto claimed = *sm;
  claimed.result->winners = {0};
  CHECK_FALSE(verify(shipped(), claimed).ok);
  auto unknown = *sm;
  unknown.result->reason = "concession";
  CHECK_FALSE(verify(shipped(), unknown).ok);
}
