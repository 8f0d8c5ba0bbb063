// House bots (add_bot; docs/protocol.md, "add_bot"): a seated player fills a
// free seat of a waiting room with the server's own random player.
#include <random>

#include "room_harness.hpp"
#include "../shared/store_reads.hpp"

namespace cod::server::test {
namespace {

config bot_config() {
  config c = test_config();
  c.bot_move_ms = 500;
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

}  // namespace

TEST_CASE("add_bot: a duel against a house bot; it acts only after bot_move_ms, its actions stored like anyone's") {
  harness h(bot_config());
  auto w = ann_and_bot(h);
  REQUIRE(w.added.at("type") == "bot_added");
  CHECK(w.added.at("id") == 5);
  CHECK(w.added.at("seat") == 1);
  CHECK(w.added.at("name") == "Bot 2");
  const json* st = find_type(w.msgs, "state");
  REQUIRE(st);  // every seat taken: the match started
  auto watcher = h.connect();
  const json summary = list_one(watcher);
  CHECK(summary.at("status") == "playing");
  CHECK(summary.at("seats")[1].at("bot") == true);
  CHECK(summary.at("seats")[1].at("connected") == true);
  CHECK(summary.at("seats")[1].at("name") == "Bot 2");
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
  CHECK(stored->match.seats[1].token_hash == house_bot_token_hash);
  CHECK(stored->match.seats[1].name == "Bot 2");
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
  SUBCASE("a drafted room") {
    auto ann = h.connect();
    const auto room = h.create_room(ann, json::object(), "draft", "duel");
    ann.say({{"type", "join"}, {"room", room}, {"name", "ann"}});
    ann.expect("joined");
    ann.say({{"type", "add_bot"}, {"id", 1}});
    const auto e = ann.expect("error");
    CHECK(e.at("code") == "bot_refused");
    CHECK(e.at("message").get<std::string>().find("R14") != std::string::npos);
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
    int bot_actions = 0;
    for (int step = 0; step < 40 && bot_actions < 2; ++step) {
      std::vector<json> msgs;
      if (view.at("active_seat") == 0) {
        msgs = act(w.ann, {{"type", "end_turn"}}, step);
      } else {
        h.ex->advance(std::chrono::milliseconds(500));
        msgs = w.ann.take();
        ++bot_actions;
      }
      const json* up = find_type(msgs, "update");
      REQUIRE(up);
      seq = up->at("seq").get<std::int64_t>();
      view = up->at("view");
    }
    REQUIRE(bot_actions == 2);
    h.crash();
  }
  harness h(bot_config(), store.get());
  h.recover_one();
  auto watcher = h.connect();
  const json s = list_one(watcher);
  CHECK(s.at("seats")[1].at("bot") == true);
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

}  // namespace cod::server::test
