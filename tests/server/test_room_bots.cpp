// House bots (add_bot; docs/protocol.md, "add_bot"; docs/ai-server.md): a
// seated player fills a free seat of a waiting room with the server's own
// player, which searches at its level on the AI pool (here: inline, or held
// to see the room answer while its bot thinks).
#include <random>

#include "room_harness.hpp"
#include "../shared/store_reads.hpp"

namespace cod::server::test {
namespace {

config bot_config() {
  config c = test_config();
  c.bot_move_ms = 500;
  c.bot_level = 1;  // the fewest iterations: the tests stay fast
  return c;
}

// Ann creates a `mode` room, joins it with deck 1 and asks for a bot.
struct with_bot {
  client ann;
  std::string room;
  std::string token;
  json added;             // the add_bot reply
  std::vector<json> msgs; // everything Ann got with it
};

with_bot ann_and_bot(harness& h, const std::string& mode = "duel", json add = json::object(),
                     const json& options = json::object()) {
  with_bot w;
  w.ann = h.connect();
  w.room = h.create_room(w.ann, options, "preconstructed", mode);
  json join = {{"type", "join"}, {"room", w.room}, {"name", "ann"}, {"deck", {{"preconstructed", 1}}}};
  if (options.contains("champions")) join["champion"] = "genie";  // R13.1: a creature outside deck 1
  w.ann.say(join);
  w.token = w.ann.expect("joined").at("token").get<std::string>();
  add["type"] = "add_bot";
  add["id"] = 5;
  w.ann.say(add);
  w.msgs = w.ann.take();
  const json* reply = find_type(w.msgs, "bot_added");
  if (!reply) reply = find_type(w.msgs, "error");
  REQUIRE(reply);
  w.added = *reply;
  return w;
}

std::optional<json> last_of_type(const std::vector<json>& msgs, const std::string& type) {
  std::optional<json> found;
  for (const auto& m : msgs)
    if (m.at("type") == type) found = m;
  return found;
}

// Ann (seat 0) ends each of her turns, and the bot's moves are let run
// (500 ms each), until the bot has acted `times` times, within `steps` steps
// or the match's end; `view` and `seq` follow the updates. Returns how many
// times the bot acted.
int end_turns_until_bot_acted(harness& h, client& ann, json& view, std::int64_t& seq, int times, int steps) {
  int bot_actions = 0;
  for (int step = 0; step < steps && bot_actions < times; ++step) {
    std::vector<json> msgs;
    if (view.at("active_seat") == 0) {
      msgs = act(ann, {{"type", "end_turn"}}, step);
    } else {
      h.ex->advance(std::chrono::milliseconds(500));
      msgs = ann.take();
      ++bot_actions;
    }
    const json* up = find_type(msgs, "update");
    REQUIRE(up);
    seq = up->at("seq").get<std::int64_t>();
    view = up->at("view");
    if (find_type(msgs, "match_over")) break;
  }
  return bot_actions;
}

}  // namespace

TEST_CASE("add_bot: a duel against a house bot; it acts only after bot_move_ms, its actions stored like anyone's") {
  harness h(bot_config());
  auto w = ann_and_bot(h);
  REQUIRE(w.added.at("type") == "bot_added");
  CHECK(w.added.at("id") == 5);
  CHECK(w.added.at("seat") == 1);
  CHECK(w.added.at("name") == "Bot 2 (level 1)");
  CHECK(w.added.at("level") == 1);
  const json* st = find_type(w.msgs, "state");
  REQUIRE(st);  // every seat taken: the match started
  auto watcher = h.connect();
  const json summary = list_one(watcher);
  CHECK(summary.at("status") == "playing");
  CHECK(summary.at("seats")[1].at("bot") == true);
  CHECK(summary.at("seats")[1].at("connected") == true);
  CHECK(summary.at("seats")[1].at("name") == "Bot 2 (level 1)");
  CHECK(summary.at("seats")[1].at("level") == 1);
  CHECK_FALSE(summary.at("seats")[0].contains("level"));
  CHECK_FALSE(summary.at("seats")[0].contains("bot"));

  json view = st->at("view");
  std::mt19937 rng(11);
  std::int64_t seq = 0;
  json over;
  int bot_actions = 0;
  bool checked_delay = false;
  for (int step = 0; step < 4000 && over.is_null(); ++step) {
    std::vector<json> msgs;
    if (view.at("active_seat") == 0) {
      msgs = act(w.ann, prefer_play(moves_from_view(view, shipped()), rng), step);
      if (find_type(msgs, "error")) continue;
    } else {
      if (!checked_delay) {
        // The bot waits bot_move_ms before acting, so that people follow it.
        h.ex->advance(std::chrono::milliseconds(499));
        CHECK(w.ann.take().empty());
        h.ex->advance(std::chrono::milliseconds(1));
        checked_delay = true;
      } else {
        h.ex->advance(std::chrono::milliseconds(500));
      }
      msgs = w.ann.take();
      ++bot_actions;
    }
    const json* up = find_type(msgs, "update");
    REQUIRE(up);
    CHECK(up->at("seq") == ++seq);
    view = up->at("view");
    if (const json* mo = find_type(msgs, "match_over")) over = *mo;
  }
  REQUIRE_FALSE(over.is_null());
  CHECK(bot_actions > 0);
  auto list = read_ok(h.store->reader().list_matches({}));
  REQUIRE(list.size() == 1);
  auto stored = read_ok(h.store->reader().load_match(list[0].match_id));
  REQUIRE(stored);
  REQUIRE(stored->result);
  CHECK(static_cast<std::int64_t>(stored->actions.size()) == seq);
  int by_bot = 0;
  for (const auto& a : stored->actions) by_bot += a.seat == 1;
  CHECK(by_bot == bot_actions);
  REQUIRE(stored->match.seats.size() == 2);
  CHECK(stored->match.seats[1].token_hash == "house-bot:1");
  CHECK(stored->match.seats[1].name == "Bot 2 (level 1)");
  CHECK(h.stats.ai_decisions_total > 0);
  check_verifies(*stored);
}

TEST_CASE("add_bot refusals: who may ask, which rooms, which seats; a refusal changes nothing") {
  harness h(bot_config());
  SUBCASE("a connection in no room") {
    auto c = h.connect();
    c.say({{"type", "add_bot"}, {"id", 1}});
    CHECK(c.expect("error").at("code") == "not_seated");
  }
  SUBCASE("a spectator") {
    auto ann = h.connect();
    const auto room = h.create_room(ann, json::object(), "preconstructed", "ffa");
    ann.say({{"type", "join"}, {"room", room}, {"name", "ann"}, {"deck", {{"preconstructed", 1}}}});
    ann.take();
    auto spec = h.spectator(room);
    spec.say({{"type", "add_bot"}, {"id", 1}});
    CHECK(spec.expect("error").at("code") == "spectator_cannot_act");
    CHECK(list_one(spec).at("seats")[1].at("taken") == false);
  }
  SUBCASE("seats: taken, beyond the room, the AI's") {
    auto w = ann_and_bot(h, "ffa", json::object({{"seat", 0}}));
    CHECK(w.added.at("code") == "seat_taken");
    w.ann.say({{"type", "add_bot"}, {"seat", 3}});
    CHECK(w.ann.expect("bot_added").at("seat") == 3);
    w.ann.say({{"type", "add_bot"}, {"seat", 3}});
    CHECK(w.ann.expect("error").at("code") == "seat_taken");
    auto solo = ann_and_bot(h, "coop", json::object({{"seat", 1}}));
    CHECK(solo.added.at("code") == "ai_seat");
  }
  SUBCASE("no such seat") {
    auto w = ann_and_bot(h, "duel", json::object({{"seat", 2}}));
    CHECK(w.added.at("code") == "no_such_seat");
  }
  SUBCASE("the match has started") {
    auto w = ann_and_bot(h);
    REQUIRE(w.added.at("type") == "bot_added");
    w.ann.say({{"type", "add_bot"}, {"id", 6}});
    const auto e = w.ann.expect("error");
    CHECK(e.at("code") == "bot_refused");
    CHECK(e.at("id") == 6);
  }
}

TEST_CASE("add_bot: four players with three bots and Champions; the last person to leave a waiting room frees its bots") {
  harness h(bot_config());
  auto w = ann_and_bot(h, "ffa", json::object(), json::object({{"champions", true}}));
  // With Champions the bot names one too (R13.1): hidden until the match starts.
  REQUIRE(w.added.at("type") == "bot_added");
  CHECK(w.added.at("seat") == 1);
  auto watcher = h.connect();
  json s = list_one(watcher);
  CHECK(s.at("seats")[1].at("bot") == true);
  CHECK(s.at("seats")[1].at("champion").is_null());
  w.ann.say({{"type", "add_bot"}, {"id", 7}});
  CHECK(w.ann.expect("bot_added").at("seat") == 2);
  w.ann.say({{"type", "leave"}, {"id", 8}});
  w.ann.take();
  s = list_one(watcher);
  for (const auto& seat : s.at("seats")) {
    CHECK(seat.at("taken") == false);
    CHECK_FALSE(seat.contains("bot"));
  }
  // Three bots fill the room: the match starts and the bots play it while
  // Ann is seated; each bot's Champion is a creature outside its deck.
  auto ann = h.connect();
  ann.say({{"type", "join"}, {"room", w.room}, {"name", "ann"}, {"deck", {{"preconstructed", 1}}}, {"champion", "genie"}});
  ann.expect("joined");
  for (int i = 0; i < 3; ++i) ann.say({{"type", "add_bot"}, {"id", 10 + i}});
  const auto msgs = ann.take();
  REQUIRE(find_type(msgs, "state"));
  s = list_one(watcher);
  CHECK(s.at("status") == "playing");
  for (int seat = 1; seat < 4; ++seat) {
    CHECK(s.at("seats")[seat].at("bot") == true);
    CHECK(s.at("seats")[seat].at("champion").is_string());
  }
}

TEST_CASE("add_bot: a restart gives the seat back to its bot, which goes on playing; nobody can resume it") {
  auto store = std::make_unique<memory_store>(memory_store::callbacks::run_inline);
  std::string room, token;
  std::int64_t seq = 0;
  {
    harness h(bot_config(), store.get());
    auto w = ann_and_bot(h);
    room = w.room;
    token = w.token;
    const json* st = find_type(w.msgs, "state");
    REQUIRE(st);
    json view = st->at("view");
    // Ann ends her turns until the bot has acted at least once.
    const int bot_actions = end_turns_until_bot_acted(h, w.ann, view, seq, 2, 40);
    REQUIRE(bot_actions == 2);
    h.crash();
  }
  harness h(bot_config(), store.get());
  h.recover_one();
  auto watcher = h.connect();
  const json s = list_one(watcher);
  CHECK(s.at("seats")[1].at("bot") == true);
  CHECK(s.at("seats")[1].at("level") == 1);  // the level came back with the seat (its token_hash)
  CHECK(s.at("seats")[1].at("connected") == true);
  // The house bot's stored mark is not a token (32 hex digits), and no
  // token's SHA-256 equals it.
  auto thief = h.connect();
  thief.say({{"type", "resume"}, {"room", room}, {"token", house_bot_token_hash}});
  CHECK(thief.expect("error").at("code") == "bad_field_value");
  thief.say({{"type", "resume"}, {"room", room}, {"token", std::string(32, '0')}});
  CHECK(thief.expect("error").at("code") == "bad_token");
  auto ann = h.connect();
  ann.say({{"type", "resume"}, {"room", room}, {"token", token}});
  const auto msgs = ann.take();
  const json* st = find_type(msgs, "state");
  REQUIRE(st);
  CHECK(st->at("seq") == seq);
  json view = st->at("view");
  // Whoever is to act, the match goes on: Ann ends her turn, or the bot plays.
  if (view.at("active_seat") == 0) {
    const auto r = act(ann, {{"type", "end_turn"}}, 99);
    REQUIRE(find_type(r, "update"));
    view = find_type(r, "update")->at("view");
    ++seq;
  }
  if (view.at("active_seat") == 1) {
    h.ex->advance(std::chrono::milliseconds(500));
    const auto r = ann.take();
    const json* up = find_type(r, "update");
    REQUIRE(up);
    CHECK(up->at("seq") == seq + 1);
  }
  // Past the grace period Ann is still seated; the bot never concedes for being away.
  h.ex->advance(std::chrono::seconds(40));
  CHECK(list_one(watcher).at("status") == "playing");
}

// Ann (seat 0) ends her turns until the bot of seat 1 is to act; `view` and
// `seq` follow the updates. The bot's decision is then on the pool.
void until_bot_turn(client& ann, json& view, std::int64_t& seq) {
  for (int step = 0; step < 20 && view.at("active_seat") != 1; ++step) {
    const auto msgs = act(ann, {{"type", "end_turn"}}, 100 + step);
    const json* up = find_type(msgs, "update");
    REQUIRE(up);
    view = up->at("view");
    seq = up->at("seq").get<std::int64_t>();
  }
  REQUIRE(view.at("active_seat") == 1);
}

// Ann plays (plays preferred) against the bot of seat 1 until the match is
// over; every update in order, no error. Returns the actions the bot played.
int play_duel_to_end(harness& h, with_bot& w, std::uint32_t seed) {
  const json* st = find_type(w.msgs, "state");
  REQUIRE(st);
  json view = st->at("view");
  std::mt19937 rng(seed);
  std::int64_t seq = 0;
  bool over = false;
  int bot_actions = 0;
  for (int step = 0; step < 4000 && !over; ++step) {
    std::vector<json> msgs;
    if (view.at("active_seat") == 0) {
      msgs = act(w.ann, prefer_play(moves_from_view(view, shipped()), rng), step);
      if (find_type(msgs, "error")) continue;
    } else {
      h.ex->advance(std::chrono::milliseconds(h.rsvc.cfg.bot_move_ms));
      msgs = w.ann.take();
      CHECK_FALSE(find_type(msgs, "error"));
      ++bot_actions;
    }
    const json* up = find_type(msgs, "update");
    REQUIRE(up);
    CHECK(up->at("seq") == ++seq);
    view = up->at("view");
    over = find_type(msgs, "match_over") != nullptr;
  }
  REQUIRE(over);
  return bot_actions;
}

TEST_CASE("add_bot level: a bot of each level asked for plays a whole duel to the end, every action legal") {
  for (const int level : {2, 5}) {
    CAPTURE(level);
    config c = bot_config();
    // Level 5's iterations (15000) are cut by the time budget: a few ms each.
    c.bot_think_ms = 5;
    harness h(c);
    auto w = ann_and_bot(h, "duel", json::object({{"level", level}}));
    REQUIRE(w.added.at("type") == "bot_added");
    CHECK(w.added.at("level") == level);
    CHECK(w.added.at("name") == "Bot 2 (level " + std::to_string(level) + ")");
    auto watcher = h.connect();
    CHECK(list_one(watcher).at("seats")[1].at("level") == level);
    const int bot_actions = play_duel_to_end(h, w, 17u + static_cast<std::uint32_t>(level));
    CHECK(bot_actions > 0);
    // Each of the bot's actions came from a decision of the pool (none fell
    // back to a random one), and the engine replays the whole log: every
    // action legal.
    CHECK(h.stats.ai_decisions_total >= static_cast<std::uint64_t>(bot_actions));
    auto list = read_ok(h.store->reader().list_matches({}));
    REQUIRE(list.size() == 1);
    auto stored = read_ok(h.store->reader().load_match(list[0].match_id));
    REQUIRE(stored);
    REQUIRE(stored->result);
    CHECK(stored->match.seats[1].token_hash == "house-bot:" + std::to_string(level));
    check_verifies(*stored);
  }
}

TEST_CASE("add_bot level: a level outside 1..5 is refused with a clear error, and changes nothing") {
  harness h(bot_config());
  auto ann = h.connect();
  const auto room = h.create_room(ann, json::object(), "preconstructed", "duel");
  ann.say({{"type", "join"}, {"room", room}, {"name", "ann"}, {"deck", {{"preconstructed", 1}}}});
  ann.expect("joined");
  const std::vector<std::pair<json, const char*>> bad = {
      {0, "bad_field_value"}, {6, "bad_field_value"}, {-3, "bad_field_value"},
      {"3", "bad_field_type"}, {2.5, "bad_field_type"}, {nullptr, "bad_field_type"}};
  for (const auto& [level, code] : bad) {
    CAPTURE(level);
    ann.say({{"type", "add_bot"}, {"id", 9}, {"level", level}});
    const json e = ann.expect("error");
    CHECK(e.at("code") == code);
    CHECK(e.at("id") == 9);
    CHECK(e.at("message").get<std::string>().find("level") != std::string::npos);
    if (std::string(code) == "bad_field_value")
      CHECK(e.at("message").get<std::string>().find("from 1 to 5") != std::string::npos);
  }
  auto watcher = h.connect();
  const json s = list_one(watcher);
  CHECK(s.at("status") == "waiting");
  CHECK(s.at("seats")[1].at("taken") == false);
  CHECK(read_ok(h.store->reader().list_matches({})).empty());
  // Absent: the configured level.
  ann.say({{"type", "add_bot"}, {"id", 10}});
  CHECK(ann.expect("bot_added").at("level") == 1);
}

TEST_CASE("add_bot level: a co-op room's bot plays random legal actions whatever the level, and shows none") {
  harness h(bot_config());
  auto w = ann_and_bot(h, "coop", json::object({{"level", 4}}));
  REQUIRE(w.added.at("type") == "bot_added");
  CHECK(w.added.at("seat") == 2);
  CHECK_FALSE(w.added.contains("level"));
  CHECK(w.added.at("name") == "Bot 3");
  auto watcher = h.connect();
  CHECK_FALSE(list_one(watcher).at("seats")[2].contains("level"));
  const json* st = find_type(w.msgs, "state");
  REQUIRE(st);
  json view = st->at("view");
  std::int64_t seq = 0;
  const int bot_actions = end_turns_until_bot_acted(h, w.ann, view, seq, 3, 60);
  CHECK(bot_actions > 0);
  CHECK(h.stats.ai_decisions_total == 0);  // never asked of the pool
}

TEST_CASE("add_bot level: decisions run off the room's strand; the room answers while its bot thinks, and the "
          "pool's cap holds") {
  harness h(bot_config());
  h.hold_ai(2);  // no free thread: every decision waits for run_held()
  std::vector<with_bot> rooms;
  std::vector<json> views;
  std::vector<std::int64_t> seqs;
  for (int i = 0; i < 3; ++i) {
    rooms.push_back(ann_and_bot(h));
    REQUIRE(rooms.back().added.at("type") == "bot_added");
    const json* st = find_type(rooms.back().msgs, "state");
    REQUIRE(st);
    views.push_back(st->at("view"));
    seqs.push_back(0);
    until_bot_turn(rooms.back().ann, views.back(), seqs.back());
  }
  // Three bots to move, two places: two decisions admitted, one waiting.
  CHECK(h.ai->pending() == 2);
  CHECK(h.ai->waiting() == 1);
  CHECK(h.stats.ai_pending == 2);
  CHECK(h.stats.ai_waiting == 1);
  CHECK(h.stats.ai_saturated_total == 1);

  // Past bot_move_ms, with the decisions still held: no bot has moved, and
  // each room answers its people at once.
  h.ex->advance(std::chrono::milliseconds(2000));
  for (std::size_t i = 0; i < rooms.size(); ++i) {
    auto& ann = rooms[i].ann;
    CHECK_FALSE(find_type(ann.take(), "update"));
    ann.say({{"type", "ping"}, {"id", 1}});
    CHECK(ann.expect("pong").at("id") == 1);
    ann.say({{"type", "history"}, {"id", 2}});
    CHECK(ann.expect("history").at("id") == 2);
    // A move out of turn is refused as ever: the room is not waiting on its bot.
    const auto r = act(ann, {{"type", "end_turn"}}, 3);
    REQUIRE(find_type(r, "error"));
  }

  // One decision runs: its place goes to the waiting one; its bot, paced
  // long ago, plays as soon as the decision is back on the strand.
  CHECK(h.ai->run_held(1) == 1);
  CHECK(h.ai->pending() == 2);
  CHECK(h.ai->waiting() == 0);
  h.ex->run();
  int moved = 0;
  for (auto& r : rooms) moved += find_type(r.ann.take(), "update") != nullptr;
  CHECK(moved == 1);
  // The other two (a bot that played a card and is still to act asks for
  // its next decision at once: it queues behind them).
  CHECK(h.ai->run_held(2) == 2);
  h.ex->run();
  for (auto& r : rooms) moved += find_type(r.ann.take(), "update") != nullptr;
  CHECK(moved == 3);
  CHECK(h.stats.ai_decisions_total == 3);
  CHECK(h.ai->pending() <= 2);
}

TEST_CASE("add_bot level: a decision made stale by a concede is dropped, never played") {
  SUBCASE("the match ends while the decision waits: it never searches") {
    harness h(bot_config());
    h.hold_ai();
    auto w = ann_and_bot(h);
    json view = find_type(w.msgs, "state")->at("view");
    std::int64_t seq = 0;
    until_bot_turn(w.ann, view, seq);
    REQUIRE(h.ai->pending() == 1);
    const auto r = act(w.ann, {{"type", "concede"}}, 50);
    REQUIRE(find_type(r, "match_over"));
    CHECK(h.ai->run_held() == 1);
    h.ex->advance(std::chrono::milliseconds(2000));
    CHECK_FALSE(find_type(w.ann.take(), "update"));
    CHECK(h.stats.ai_stale_total == 1);
    CHECK(h.stats.ai_decisions_total == 0);
    auto list = read_ok(h.store->reader().list_matches({}));
    auto stored = read_ok(h.store->reader().load_match(list[0].match_id));
    REQUIRE(stored);
    CHECK(static_cast<std::int64_t>(stored->actions.size()) == seq + 1);  // the concede last
  }
  SUBCASE("the decision comes back after the match moved on: dropped at the room") {
    harness h(bot_config());
    h.hold_ai();
    auto w = ann_and_bot(h);
    json view = find_type(w.msgs, "state")->at("view");
    std::int64_t seq = 0;
    until_bot_turn(w.ann, view, seq);
    REQUIRE(h.ai->pending() == 1);
    // Ann's concede reaches the room's strand first; the decision, made
    // meanwhile for the position before, comes back after it.
    w.ann.session->on_text(json{{"type", "act"}, {"id", 51}, {"action", {{"type", "concede"}}}}.dump());
    CHECK(h.ai->run_held() == 1);
    CHECK(h.stats.ai_decisions_total == 1);
    h.ex->run();
    REQUIRE(find_type(w.ann.take(), "match_over"));
    CHECK(h.stats.ai_stale_total == 1);
    h.ex->advance(std::chrono::milliseconds(2000));
    CHECK_FALSE(find_type(w.ann.take(), "update"));
    auto list = read_ok(h.store->reader().list_matches({}));
    auto stored = read_ok(h.store->reader().load_match(list[0].match_id));
    REQUIRE(stored);
    REQUIRE(static_cast<std::int64_t>(stored->actions.size()) == seq + 1);
    CHECK(stored->actions.back().seat == 0);  // the concede, and nothing of the bot's after it
  }
}

// A drafted room (R14) takes a bot too: it drafts at random within the
// rules (every pick checked by the engine like a person's), paced by
// bot_move_ms, then plays its match like any house bot.
TEST_CASE("add_bot in a drafted room: the bot drafts (takes; a secret list and bans) and then plays its match") {
  for (const std::string format : {"draft", "instant_constructed"}) {
    CAPTURE(format);
    harness h(bot_config());
    auto ann = h.connect();
    const auto room = h.create_room(ann, json::object(), format, "duel");
    ann.say({{"type", "join"}, {"room", room}, {"name", "ann"}});
    ann.expect("joined");
    ann.say({{"type", "add_bot"}, {"id", 5}});
    auto msgs = ann.take();
    INFO(json(msgs).dump());
    const json* added = find_type(msgs, "bot_added");
    REQUIRE(added);
    CHECK(added->at("seat") == 1);
    const json* d = find_type(msgs, "draft");
    REQUIRE(d);  // every seat taken: the draft started
    json view = d->at("draft");
    std::optional<json> state;
    int bot_picks = 0, ann_picks = 0;
    for (int step = 0; step < 200 && !state; ++step) {
      const json& waiting = view.at("waiting");
      bool ann_turn = false;
      json w;
      for (const auto& t : waiting)
        if (t.at("seat") == 0) ann_turn = true, w = t;
      if (ann_turn) {
        const int count = w.at("count").get<int>();
        json pick = {{"type", "draft_pick"}, {"id", 100 + step}, {"pick", w.at("pick")}};
        json cards = json::array();
        if (w.at("pick") == "take") {
          for (int i = 0; i < count; ++i) cards.push_back(view.at("offer")[static_cast<std::size_t>(i)]);
        } else if (w.at("pick") == "submit") {
          for (int i = 0; i < count; ++i) cards.push_back(view.at("pool")[static_cast<std::size_t>(i)]);
        } else {
          REQUIRE(w.at("pick") == "ban");
          const json& list = view.at("seats")[static_cast<std::size_t>(w.at("target").get<int>())].at("list");
          for (int i = 0; i < count; ++i) cards.push_back(list[static_cast<std::size_t>(i)]);
        }
        pick["cards"] = cards;
        ann.say(pick);
        ++ann_picks;
      } else {
        REQUIRE_FALSE(waiting.empty());
        // The bot's turn: nothing before bot_move_ms, then its pick.
        h.ex->advance(std::chrono::milliseconds(499));
        CHECK(ann.take().empty());
        h.ex->advance(std::chrono::milliseconds(1));
        ++bot_picks;
      }
      msgs = ann.take();
      INFO(json(msgs).dump());
      REQUIRE_FALSE(find_type(msgs, "error"));
      const auto next = last_of_type(msgs, "draft");
      REQUIRE(next);
      view = next->at("draft");
      if (const json* st = find_type(msgs, "state")) state = *st;
    }
    REQUIRE(state);  // the draft finished: the match began with the drafted decks
    CHECK(bot_picks > 0);
    CHECK(ann_picks > 0);
    CHECK(view.at("finished") == true);
    CHECK(view.at("seats")[1].at("deck_size") == 8);
    // The match: the bot plays its turns; Ann concedes when hers comes.
    json v = state->at("view");
    int bot_actions = 0;
    for (int step = 0; step < 200 && v.at("active_seat") == 1; ++step) {
      h.ex->advance(std::chrono::milliseconds(500));
      const auto up = last_of_type(ann.take(), "update");
      REQUIRE(up);
      v = up->at("view");
      ++bot_actions;
    }
    ann.say({{"type", "act"}, {"id", 900}, {"action", {{"type", "concede"}}}});
    CHECK(ann.expect("match_over").at("winners") == json::array({1}));
    auto list = read_ok(h.store->reader().list_matches({}));
    REQUIRE(list.size() == 1);
    auto stored = read_ok(h.store->reader().load_match(list[0].match_id));
    REQUIRE(stored);
    CHECK(stored->match.seats[1].token_hash == "house-bot:1");
    check_verifies(*stored);
  }
}

}  // namespace cod::server::test
