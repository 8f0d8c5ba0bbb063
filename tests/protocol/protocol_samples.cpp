// protocol_samples: prints, one JSON object per line, a sample of every
// message the protocol builders make (and the client messages the codec
// writes), for validate_examples.py to check against protocol/schema/v1:
//
//   {"schema": "server/update", "message": {...}}                 must validate
//   {"schema": "client/join", "message": {...}, "valid": false}   must NOT validate
//
// The invalid ones are messages parse_client_message refuses: the schemas and
// the parser must agree. Real views and events come from a scripted position
// that plays the R7 abilities with their own wire vocabulary (a Symbiote on a
// host, Chain, Counterorder, Vanish, Catalyst) and from self-play matches
// (preconstructed and random constructed decks, with and without exhaustion,
// some ending by concession), sent through the builders as the server would.
//
// usage: protocol_samples [--catalogue PATH]   (exits 1 if a sample is wrong)
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cod/engine/match.hpp"
#include "cod/engine/rng.hpp"
#include "cod/protocol/catalogue_json.hpp"
#include "cod/protocol/client_messages.hpp"
#include "cod/protocol/draft_codec.hpp"
#include "cod/protocol/league_json.hpp"
#include "cod/protocol/mutation_json.hpp"
#include "cod/protocol/legal_actions.hpp"
#include "cod/protocol/room_config.hpp"
#include "cod/protocol/server_messages.hpp"

#ifndef COD_CATALOGUE_PATH
#define COD_CATALOGUE_PATH "config/cards/catalogue.json"
#endif

namespace proto = cod::protocol;
using nlohmann::json;

namespace {

int failures = 0;

void emit(const std::string& schema, const json& message, bool valid = true) {
  json line = {{"schema", schema}, {"message", message}};
  if (!valid) line["valid"] = false;
  std::cout << line.dump() << '\n';
}

void emit_client(const proto::client_message& m) {
  const json j = proto::client_message_to_json(m);
  // The codec must read back what it writes.
  const auto r = proto::parse_client_message(j.dump());
  if (!r.ok() || !(*r.message == m)) {
    std::cerr << "protocol_samples: client message does not round trip: " << j.dump() << '\n';
    ++failures;
  }
  emit(std::string("client/") + std::string(proto::message_type(m)), j);
}

// A message the parser must refuse; the schema of its "type" must refuse it too.
void emit_invalid(const std::string& text) {
  const auto r = proto::parse_client_message(text);
  if (r.ok()) {
    std::cerr << "protocol_samples: accepted a bad message: " << text << '\n';
    ++failures;
    return;
  }
  const json j = json::parse(text);
  emit(std::string("client/") + j.at("type").get<std::string>(), j, false);
}

void client_samples() {
  emit_client(proto::hello_msg{1, 1, "cod-bot/0.1"});
  emit_client(proto::hello_msg{"h", 1, std::nullopt});
  emit_client(proto::hello_msg{nullptr, 2, std::nullopt});
  emit_client(proto::hello_msg{3, 1, "cod-load/0.1", proto::ack_style::in_update});
  emit_client(proto::hello_msg{4, 1, "cod-bot/0.1", proto::ack_style::separate, true});
  emit_client(proto::hello_msg{5, 1, "web/1", proto::ack_style::separate, false, std::string(32, 'a')});
  emit_client(proto::list_rooms_msg{2});
  emit_client(proto::list_rooms_msg{nullptr});
  {
    proto::list_rooms_msg page{"page-2"};
    page.status = proto::room_status::waiting;
    page.mode = cod::game_mode::duel;
    page.format = proto::deck_format::preconstructed;
    page.limit = 20;
    page.after = "b0Qx";
    emit_client(page);
    proto::list_rooms_msg one{"mine"};
    one.room = "r7k2";
    emit_client(one);
  }
  emit_client(proto::create_room_msg{3, cod::game_mode::duel, proto::deck_format::preconstructed, {}});
  emit_client(proto::create_room_msg{"c", cod::game_mode::duel, proto::deck_format::constructed,
                                     proto::room_options{true, proto::turn_clock{300000, 5000}, 2}});
  // The four-player modes and the Champion module.
  emit_client(proto::create_room_msg{"f", cod::game_mode::ffa, proto::deck_format::constructed,
                                     proto::room_options{false, std::nullopt, 4, true, false}});
  emit_client(proto::create_room_msg{"t", cod::game_mode::two_vs_two, proto::deck_format::preconstructed,
                                     proto::room_options{true, proto::turn_clock{60000, 0}, 4, false, true}});
  emit_client(proto::create_room_msg{"c", cod::game_mode::duel, proto::deck_format::preconstructed,
                                     proto::room_options{false, std::nullopt, 2, true, false}});
  // R17.25 the stall guard: the room's own turn, and 0 (never).
  for (const int stall : {0, 8, 60, 1000}) {
    proto::room_options o;
    o.stall_exhaustion_turn = stall;
    emit_client(proto::create_room_msg{"st", cod::game_mode::duel, proto::deck_format::preconstructed, o});
  }
  // Solo and co-op (R12, R11.7): quick play, and custom difficulty (R12.8).
  emit_client(proto::create_room_msg{"s", cod::game_mode::solo, proto::deck_format::preconstructed,
                                     proto::room_options{false, std::nullopt, 2, false, false}});
  {
    proto::room_options o;
    o.difficulty = 3;
    o.ai.ai_first = true;
    o.ai.granted = cod::bit(cod::ability::sprint) | cod::bit(cod::ability::rage);
    emit_client(proto::create_room_msg{"s3", cod::game_mode::solo, proto::deck_format::preconstructed, o});
    o = proto::room_options{};
    o.seats = 4;
    o.champions = true;
    o.difficulty = 1;
    o.ai.fixed_mana = 7;
    o.ai.double_variable = true;
    o.ai.resistance = true;
    o.clock = proto::turn_clock{300000, 0};
    emit_client(proto::create_room_msg{"co", cod::game_mode::coop, proto::deck_format::preconstructed, o});
  }
  emit_client(proto::join_msg{"j", "r7k2", "Cy", 3, proto::deck_choice{2, {}}, std::string("brute")});
  emit_client(proto::join_msg{4, "r7k2", "Ada", std::nullopt, proto::deck_choice{1, {}}});
  emit_client(proto::join_msg{5, "r7k2", "Zoë ⚔", 1,
                              proto::deck_choice{0, {"baron", "brute", "carapace", "troll",
                                                     "revenant", "partisan", "annihilation", "boom"}}});
  emit_client(proto::resume_msg{6, "r7k2", "0123456789abcdef0123456789abcdef"});
  // Signed in (hello.account_token): the account's name, the account's seat.
  emit_client(proto::join_msg{7, "r7k2", "", std::nullopt, proto::deck_choice{1, {}}});
  emit_client(proto::resume_msg{8, "r7k2", ""});
  // The queue.
  emit_client(proto::queue_msg{30, cod::game_mode::duel, proto::deck_format::preconstructed, true, proto::deck_choice{2, {}}});
  emit_client(proto::queue_msg{31, cod::game_mode::ffa, proto::deck_format::constructed, false,
                               proto::deck_choice{0, {"brute", "rapscallion"}}});
  emit_client(proto::queue_msg{34, cod::game_mode::two_vs_two, proto::deck_format::preconstructed, true,
                               proto::deck_choice{3, {}}, "Bob"});
  emit_client(proto::unqueue_msg{32, 17});
  emit_client(proto::unqueue_msg{33});
  emit_client(proto::spectate_msg{7, "r7k2"});
  emit_client(proto::tournament_join_msg{"t1", "0123456789abcdef0123456789abcdef", proto::deck_choice{3, {}}});
  emit_client(proto::act_msg{8, cod::action::play_creature(cod::no_seat, 5, 0)});
  emit_client(proto::act_msg{9, cod::action::play_creature(cod::no_seat, 0, 1)});
  emit_client(proto::act_msg{10, cod::action::play_incantation(cod::no_seat, 7, 12)});
  emit_client(proto::act_msg{"sym", cod::action::play_symbiote(cod::no_seat, 4, 1, 9)});  // R7 Symbiote
  emit_client(proto::act_msg{11, cod::action::end(cod::no_seat)});
  emit_client(proto::act_msg{"x", cod::action::concede_by(cod::no_seat)});
  emit_client(proto::leave_msg{12});
  emit_client(proto::ping_msg{-13});
  emit_client(proto::history_msg{14});
  emit_client(proto::history_msg{"h", 40});
  emit_client(proto::add_bot_msg{15});
  emit_client(proto::add_bot_msg{"b", 1});
  emit_client(proto::add_bot_msg{"l", std::nullopt, 5});
  emit_client(proto::emote_msg{"e", "well_played"});
  emit_client(proto::emote_msg{nullptr, "oops"});
  // Drafted formats (R14).
  {
    proto::room_options o;
    o.packs = {"initiation"};
    emit_client(proto::create_room_msg{"d", cod::game_mode::duel, proto::deck_format::draft, o});
    emit_client(proto::create_room_msg{"i", cod::game_mode::duel, proto::deck_format::instant_constructed, {}});
    proto::join_msg j{"jd", "r7k2", "Ada", std::nullopt, {}};
    j.no_deck = true;
    emit_client(j);
    emit_client(proto::draft_pick_msg{14, cod::draft_pick_type::take, {"brute"}, 0});
    emit_client(proto::draft_pick_msg{15, cod::draft_pick_type::ban, {"brute", "troll"}, 0});
    emit_client(proto::draft_pick_msg{16, cod::draft_pick_type::choose_deck, {}, 2});
    emit_client(proto::draft_pick_msg{17, cod::draft_pick_type::take, {"brute"}, 0, 3});  // chosen at seq 3
  }

  const char* invalid[] = {
      R"({"type":"hello"})",
      R"({"type":"hello","version":"1"})",
      R"({"type":"hello","version":1.5})",
      R"({"type":"hello","version":0})",
      R"({"type":"hello","version":1,"extra":true})",
      R"({"type":"hello","version":1,"id":1.5})",
      R"({"type":"hello","version":1,"id":[1]})",
      R"({"type":"hello","version":1,"client":7})",
      R"({"type":"hello","version":1,"acks":"both"})",
      R"({"type":"hello","version":1,"acks":true})",
      R"({"type":"hello","version":1,"client":"a\u0001"})",
      R"({"type":"hello","version":1,"legal_actions":"yes"})",
      R"({"type":"act","action":{"type":"end_turn"},"seq":-1})",
      R"({"type":"act","action":{"type":"end_turn"},"seq":1.5})",
      R"({"type":"act","action":{"type":"end_turn"},"seq":"3"})",
      R"({"type":"draft_pick","pick":"take","cards":["brute"],"seq":null})",
      R"({"type":"list_rooms","filter":"x"})",
      R"({"type":"list_rooms","limit":0})",
      R"({"type":"list_rooms","limit":101})",
      R"({"type":"list_rooms","status":"open"})",
      R"({"type":"list_rooms","after":"../x"})",
      R"({"type":"list_rooms","mode":"melee"})",
      R"({"type":"create_room","format":"preconstructed"})",
      R"({"type":"create_room","mode":"melee","format":"preconstructed"})",
      R"({"type":"create_room","mode":"duel","format":"sealed"})",
      R"({"type":"create_room","mode":"duel","format":"draft","options":{"packs":"initiation"}})",
      R"({"type":"draft_pick","pick":"take"})",
      R"({"type":"draft_pick","pick":"keep","cards":["brute"]})",
      R"({"type":"draft_pick","pick":"choose_deck","deck":5})",
      R"({"type":"draft_pick","pick":"take","cards":["brute"],"deck":1})",
      R"({"type":"create_room","mode":"duel","format":"constructed","options":{"seats":4}})",
      R"({"type":"create_room","mode":"duel","format":"constructed","options":{"turn_clock":{"increment_ms":5}}})",
      R"({"type":"create_room","mode":"duel","format":"constructed","options":{"turn_clock":{"bank_ms":10}}})",
      R"({"type":"create_room","mode":"duel","format":"constructed","options":{"exhaustion":1}})",
      R"({"type":"create_room","mode":"duel","format":"constructed","options":{"stall_exhaustion_turn":7}})",
      R"({"type":"create_room","mode":"duel","format":"constructed","options":{"stall_exhaustion_turn":1001}})",
      R"({"type":"create_room","mode":"duel","format":"constructed","options":{"stall_exhaustion_turn":-40}})",
      R"({"type":"create_room","mode":"duel","format":"constructed","options":{"stall_exhaustion_turn":"40"}})",
      R"({"type":"create_room","mode":"duel","format":"constructed","options":[]})",
      R"({"type":"create_room","mode":"ffa","format":"constructed","options":{"seats":2}})",
      R"({"type":"create_room","mode":"2v2","format":"constructed","options":{"seats":3}})",
      R"({"type":"create_room","mode":"duel","format":"constructed","options":{"share_team_hands":true}})",
      R"({"type":"create_room","mode":"ffa","format":"constructed","options":{"share_team_hands":true}})",
      R"({"type":"create_room","mode":"2v2","format":"constructed","options":{"share_team_hands":"yes"}})",
      R"({"type":"create_room","mode":"ffa","format":"constructed","options":{"champions":1}})",
      R"({"type":"create_room","mode":"solo","format":"constructed"})",
      R"({"type":"create_room","mode":"coop","format":"constructed","options":{"seats":4}})",
      R"({"type":"create_room","mode":"solo","format":"preconstructed","options":{"seats":4}})",
      R"({"type":"create_room","mode":"solo","format":"preconstructed","options":{"difficulty":11}})",
      R"({"type":"create_room","mode":"solo","format":"preconstructed","options":{"difficulty":"3"}})",
      R"({"type":"create_room","mode":"solo","format":"preconstructed","options":{"difficulty":1,"ai":{"fixed_mana":5}}})",
      R"({"type":"create_room","mode":"solo","format":"preconstructed","options":{"difficulty":1,"ai":{"abilities":["chain"]}}})",
      R"({"type":"create_room","mode":"solo","format":"preconstructed","options":{"difficulty":2,"ai":{"abilities":["rage","rage"]}}})",
      R"({"type":"create_room","mode":"solo","format":"preconstructed","options":{"difficulty":1,"ai":{"first":true}}})",
      R"({"type":"create_room","mode":"coop","format":"preconstructed","options":{"share_team_hands":true}})",
      R"({"type":"create_room","mode":"duel","format":"preconstructed","options":{"difficulty":1}})",
      R"({"type":"create_room","mode":"ffa","format":"preconstructed","options":{"ai":{"ai_first":true}}})",
      R"({"type":"join","room":"r1","name":"A","deck":{"preconstructed":1},"champion":""})",
      R"({"type":"join","room":"r1","name":"A","deck":{"preconstructed":1},"champion":7})",
      R"({"type":"join","room":"r1","name":"A","deck":{"preconstructed":1},"champion":null})",
      R"({"type":"join","room":"r1","name":"","deck":{"preconstructed":1}})",
      R"({"type":"join","room":"r1","name":"   ","deck":{"preconstructed":1}})",
      R"({"type":"join","room":"r1","name":"a\tb","deck":{"preconstructed":1}})",
      R"({"type":"join","room":"r1","name":"Ann\u202egnp","deck":{"preconstructed":1}})",
      R"({"type":"join","room":"r1","name":"a\u2066b","deck":{"preconstructed":1}})",
      R"({"type":"join","room":"r1","name":"a\u200fb","deck":{"preconstructed":1}})",
      R"({"type":"join","room":"r1","name":"a\u0085b","deck":{"preconstructed":1}})",
      R"({"type":"join","room":"r1","name":"\u200b\u200d","deck":{"preconstructed":1}})",
      R"({"type":"join","room":"r1","name":"\u0301\ufeff","deck":{"preconstructed":1}})",
      R"({"type":"join","room":"r1","name":"123456789012345678901234567890123","deck":{"preconstructed":1}})",
      R"({"type":"join","room":"r 1","name":"A","deck":{"preconstructed":1}})",
      R"({"type":"join","room":"","name":"A","deck":{"preconstructed":1}})",
      R"({"type":"join","room":"r1","name":"A","seat":-1,"deck":{"preconstructed":1}})",
      R"({"type":"join","room":"r1","name":"A","seat":4,"deck":{"preconstructed":1}})",
      R"({"type":"join","room":"r1","name":"A","deck":{"preconstructed":5}})",
      R"({"type":"join","room":"r1","name":"A","deck":{"preconstructed":0}})",
      R"({"type":"join","room":"r1","name":"A","deck":{"preconstructed":1,"cards":[]}})",
      R"({"type":"join","room":"r1","name":"A","deck":{}})",
      R"({"type":"join","room":"r1","name":"A","deck":{"cards":["a",1]}})",
      R"({"type":"join","room":"r1","name":"A","deck":{"cards":[""]}})",
      R"({"type":"join","room":"r1","name":"A","deck":{"cards":"brute"}})",
      R"({"type":"join","room":"r1","name":"A","deck":"1"})",
      R"({"type":"resume","token":"0123456789abcdef0123456789abcdef"})",
      R"({"type":"hello","version":1,"account_token":"ABC"})",
      R"({"type":"hello","version":1,"account_token":7})",
      R"({"type":"queue","mode":"duel","format":"preconstructed"})",
      R"({"type":"queue","mode":"duel","deck":{"preconstructed":1}})",
      R"({"type":"queue","mode":"chess","format":"preconstructed","deck":{"preconstructed":1}})",
      R"({"type":"queue","mode":"duel","format":"preconstructed","rated":"yes","deck":{"preconstructed":1}})",
      R"({"type":"queue","mode":"duel","format":"preconstructed","partner":"Bob","deck":{"preconstructed":1}})",
      R"({"type":"queue","mode":"2v2","format":"preconstructed","partner":"","deck":{"preconstructed":1}})",
      R"({"type":"unqueue","ticket":0})",
      R"({"type":"unqueue","ticket":"17"})",
      R"({"type":"resume","room":"r1","token":"0123456789ABCDEF0123456789ABCDEF"})",
      R"({"type":"resume","room":"r1","token":"abc"})",
      R"({"type":"spectate"})",
      R"({"type":"spectate","room":42})",
      R"({"type":"act"})",
      R"({"type":"act","action":"end_turn"})",
      R"({"type":"act","action":{"type":"play","card":1}})",
      R"({"type":"act","action":{"type":"play","card":1,"line":"middle"}})",
      R"({"type":"act","action":{"type":"play","card":1,"line":"upper","target":2}})",
      R"({"type":"act","action":{"type":"play","card":128,"line":"upper"}})",
      R"({"type":"act","action":{"type":"play","card":-1,"line":"upper"}})",
      R"({"type":"act","action":{"type":"play","card":1,"host":2}})",
      R"({"type":"act","action":{"type":"play","card":1,"target":3,"host":2}})",
      R"({"type":"act","action":{"type":"play","card":1,"line":"upper","host":128}})",
      R"({"type":"act","action":{"type":"play","card":1,"line":"upper","host":"2"}})",
      R"({"type":"act","action":{"type":"play","card":1,"line":"upper","host":null}})",
      R"({"type":"act","action":{"type":"end_turn","card":1}})",
      R"({"type":"act","action":{"type":"pass"}})",
      R"({"type":"act","action":{"type":"end_turn"},"seat":0})",
      R"({"type":"leave","room":"r1"})",
      R"({"type":"ping","id":null,"payload":1})",
      R"({"type":"history","from_seq":-1})",
      R"({"type":"history","from_seq":"3"})",
      R"({"type":"history","from_seq":1.5})",
      R"({"type":"history","room":"r1"})",
      R"({"type":"add_bot","seat":4})",
      R"({"type":"add_bot","seat":-1})",
      R"({"type":"add_bot","seat":"1"})",
      R"({"type":"add_bot","name":"Robo"})",
      R"({"type":"add_bot","level":0})",
      R"({"type":"add_bot","level":6})",
      R"({"type":"add_bot","level":"3"})",
      R"({"type":"emote"})",
      R"({"type":"emote","emote":"hello"})",
      R"({"type":"emote","emote":1})",
      R"({"type":"emote","emote":"oops","text":"hi"})",
      R"({"type":"league_mutations"})",
      R"({"type":"league_mutations","mutations":{"target":"troll"}})",
      R"({"type":"league_mutations","mutations":[],"op":{"type":"pass"}})",
  };
  for (const char* text : invalid) emit_invalid(text);
}

// The `draft` message through whole drafts (R14.2, R14.3, R14.7): every view
// a seat or spectator gets, each with the step's events.
void draft_samples(const cod::catalogue& cat) {
  const std::pair<cod::draft_format, cod::draft_table> kinds[] = {
      {cod::draft_format::draft, cod::draft_table::duel},
      {cod::draft_format::draft, cod::draft_table::four_players},
      {cod::draft_format::instant_constructed, cod::draft_table::duel}};
  for (const auto& [format, table] : kinds) {
    cod::draft_config cfg;
    cfg.format = format;
    cfg.table = table;
    cfg.seed = 42;
    cfg.packs = {"initiation"};
    cod::draft d;
    std::vector<cod::draft_event> ev;
    if (cod::draft::create(cat, cfg, d, ev) != cod::draft_error::ok) {
      std::cerr << "protocol_samples: draft::create failed\n";
      ++failures;
      return;
    }
    cod::rng r(7);
    std::int64_t seq = 1;
    for (;;) {
      std::vector<cod::draft_pick> picks;
      d.legal_picks(picks);
      for (cod::seat_t v : {cod::seat_t{0}, cod::seat_t{1}, cod::spectator}) {
        emit("server/draft", proto::make_draft("r7k2", seq, proto::draft_events_to_json(ev, cat),
                                               proto::draft_view_to_json(d.view(v), d.state().pool, cat)));
        // hello.legal_actions: a seat's push with its legal picks.
        if (v != cod::spectator)
          emit("server/draft", proto::make_draft("r7k2", seq, proto::draft_events_to_json(ev, cat),
                                                 proto::draft_view_to_json(d.view(v), d.state().pool, cat),
                                                 proto::legal_picks_to_json(picks, v, cat)));
      }
      if (d.finished()) break;
      std::vector<cod::draft_pick> legal;
      d.legal_picks(legal);
      cod::draft_pick p;
      if (legal.empty()) {  // a secret list: any `count` pool cards
        const auto w = d.waiting().front();
        p.type = cod::draft_pick_type::submit;
        p.seat = w.seat;
        p.cards.assign(d.state().pool.begin(), d.state().pool.begin() + w.count);
      } else {
        p = legal[r.below(legal.size())];
      }
      ev.clear();
      if (d.apply(p, ev) != cod::draft_error::ok) {
        std::cerr << "protocol_samples: a legal pick was refused\n";
        ++failures;
        return;
      }
      ++seq;
    }
  }
}

// A whole mutation league (R15) with random legal ops: each seat's `league`
// view after every op of its own (with the fields the server adds), the
// clients' league_act for each op, and refusals.
void league_samples(const cod::catalogue& cat) {
  emit_client(proto::league_join_msg{20, "0123456789abcdef0123456789abcdef"});
  cod::league l;
  if (cod::league::create(cat, {11, {"initiation", "treachery"}, cod::mutation_costs::ruling()}, l) !=
      cod::league_error::ok) {
    std::cerr << "protocol_samples: league::create failed\n";
    ++failures;
    return;
  }
  const std::vector<std::string> names = {"Ann", "Bob", "Cy", "Di"};
  cod::rng r(5);
  auto view = [&](cod::seat_t s, bool duel) {
    json v = proto::league_view_to_json(l, s, names);
    v["name"] = "Autumn league";
    v["exhaustion"] = false;
    v["turn_clock"] = nullptr;
    v["phase_deadline_ms"] = l.stage() == cod::league_stage::mutating ? json(1'700'000'600'000) : json(nullptr);
    if (duel) v["you"]["duel"] = {{"table", 0}, {"seat", 0}, {"opponent", "Bob"}, {"room", "r7k2"}};
    return v;
  };
  auto act = [&](const cod::league_op& op) {
    json j = proto::league_op_to_json(op, cat);
    j.erase("seat");
    if (op.type != cod::league_op_type::result)
      emit("client/league_act", {{"type", "league_act"}, {"id", 21}, {"op", j}});
    const auto refused = l.apply(op);
    if (!refused.ok()) {
      emit("server/error", proto::make_league_refusal(21, proto::league_refusal_to_json(refused)));
      return false;
    }
    if (op.seat != cod::no_seat) emit("server/league", proto::make_league(21, "la8bfd7f0cb", view(op.seat, false)));
    return true;
  };
  int steps = 0;
  while (l.stage() != cod::league_stage::finished && ++steps < 500) {
    cod::league_op op;
    switch (l.stage()) {
      case cod::league_stage::drafting: {
        const auto& st = l.the_draft().state();
        for (cod::seat_t s = 0; s < cod::league_players; ++s)
          if (!st.seats[s].submitted && !st.seats[s].packet.empty()) {
            op.type = cod::league_op_type::pick;
            op.seat = s;
            op.pick.type = cod::draft_pick_type::take;
            op.pick.seat = s;
            op.pick.cards = {st.seats[s].packet[r.below(st.seats[s].packet.size())]};
            break;
          }
        break;
      }
      case cod::league_stage::building:
        for (cod::seat_t s = 0; s < cod::league_players; ++s)
          if (!l.has_deck(s)) {
            op.type = cod::league_op_type::choose_deck;
            op.seat = s;
            op.cards.assign(l.drafted(s).begin(), l.drafted(s).begin() + 8);
            break;
          }
        break;
      case cod::league_stage::mutating:
        for (cod::seat_t s = 0; s < cod::league_players; ++s)
          if (!l.phase_done(s)) {
            std::vector<cod::mutation> menu;
            cod::legal_mutations(l.config().costs, l.deck_of(s), cod::mutation_budget, menu);
            if (l.round() <= 2 && s <= 1) {
              // The seat's view while it may act (you.legal_mutations), and
              // its league_mutations after none, one, and a refused list.
              emit("server/league", proto::make_league(nullptr, "la8bfd7f0cb", view(s, false)));
              std::vector<std::vector<cod::mutation>> asked = {{}};
              if (!menu.empty()) {
                asked.push_back({menu.front()});
                asked.push_back({menu.front(), menu.front()});
              }
              for (const auto& staged : asked) {
                emit_client(proto::league_mutations_msg{22, proto::mutations_to_json(staged, cat)});
                std::vector<cod::mutation> after;
                cod::half_points left = 0;
                const auto refused = l.legal_mutations_after(s, staged, after, &left);
                emit(refused.ok() ? "server/league_mutations" : "server/error",
                     refused.ok() ? proto::make_league_mutations(22, "la8bfd7f0cb", l.round(), left,
                                                                 proto::mutations_to_json(after, cat))
                                  : proto::make_league_refusal(22, proto::league_refusal_to_json(refused)));
              }
            }
            op.seat = s;
            op.type = menu.empty() || s == 3 ? cod::league_op_type::pass : cod::league_op_type::mutate;
            if (!menu.empty()) op.mutations = {menu[r.below(menu.size())]};
            if (s == 2 && !menu.empty()) {
              // A refused one first: the same mutation twice breaks a limit.
              cod::league_op twice = op;
              twice.mutations.push_back(op.mutations.front());
              act(twice);
            }
            if (op.type == cod::league_op_type::pass) op.mutations.clear();
            break;
          }
        break;
      case cod::league_stage::playing:
        for (int t = 0; t < cod::league_tables; ++t)
          if (!l.table(l.round(), t).decided) {
            for (cod::seat_t s : l.table(l.round(), t).seats)
              emit("server/league", proto::make_league(nullptr, "la8bfd7f0cb", view(s, true)));
            op.type = cod::league_op_type::result;
            op.table = t;
            op.winner = l.table(l.round(), t).seats[r.below(2)];
            break;
          }
        break;
      case cod::league_stage::finished: break;
    }
    if (!act(op)) {
      std::cerr << "protocol_samples: a league op was refused\n";
      ++failures;
      return;
    }
  }
  for (cod::seat_t s = 0; s < cod::league_players; ++s)
    emit("server/league", proto::make_league(nullptr, "la8bfd7f0cb", view(s, false)));
}

void fixed_server_samples(const cod::catalogue& cat) {
  emit("server/welcome", proto::make_welcome(1, "s-5f2c", 65536, 20));
  emit("server/welcome", proto::make_welcome(nullptr, "s-5f2d", 1024, 5, "other/1"));
  {
    const proto::welcome_account ada{42, "Ada", false};
    emit("server/welcome", proto::make_welcome(2, "s-5f2e", 65536, 20, proto::server_software, &ada));
  }

  proto::room_summary waiting{"r7k2", cod::game_mode::duel, proto::deck_format::preconstructed, {},
                              proto::room_status::waiting,
                              {{0, true, true, "Ada", ""}, {1, false, false, "", ""}}, 0};
  proto::room_summary playing{"b0Q_-9", cod::game_mode::duel, proto::deck_format::constructed,
                              proto::room_options{true, proto::turn_clock{60000, 0}, 2},
                              proto::room_status::playing,
                              {{0, true, false, "Ada", ""}, {1, true, true, "Bo", ""}}, 3};
  proto::room_summary finished = playing;
  finished.status = proto::room_status::finished;
  // Four seats with Champions, revealed once playing; a 2v2 still waiting.
  proto::room_summary ffa{"f4", cod::game_mode::ffa, proto::deck_format::constructed,
                          proto::room_options{false, std::nullopt, 4, true, false},
                          proto::room_status::playing,
                          {{0, true, true, "Ada", "brute"}, {1, true, true, "Bo", "troll"},
                           {2, true, false, "Cy", "baron"}, {3, true, true, "Di", "ogre"}}, 0};
  proto::room_summary team{"t4", cod::game_mode::two_vs_two, proto::deck_format::preconstructed,
                           proto::room_options{false, std::nullopt, 4, false, true},
                           proto::room_status::waiting,
                           {{0, true, true, "Ada", ""}, {1, false, false, "", ""},
                            {2, true, true, "Bot 3 (level 4)", "", false, true, 4}, {3, true, true, "Di", ""}}, 1};
  ffa.options.stall_exhaustion_turn = 60;  // R17.25: the room's own stall turn
  team.options.stall_exhaustion_turn = 0;  // and never
  // Solo and co-op: the AI seats taken and marked, the difficulty in the options.
  proto::room_options custom;
  custom.difficulty = 2;
  custom.ai.fixed_mana = 8;
  proto::room_summary solo{"s1", cod::game_mode::solo, proto::deck_format::preconstructed, custom,
                           proto::room_status::playing,
                           {{0, true, true, "Ada", ""}, {1, true, true, "AI", "", true}}, 0};
  proto::room_options coop_options;
  coop_options.seats = 4;
  proto::room_summary coop{"c1", cod::game_mode::coop, proto::deck_format::preconstructed, coop_options,
                           proto::room_status::waiting,
                           {{0, true, true, "Ada", ""}, {1, true, true, "AI", "", true},
                            {2, false, false, "", ""}, {3, true, true, "AI", "", true}}, 0};
  const std::vector<proto::room_summary> rooms = {waiting, playing, finished, ffa, team, solo, coop};
  emit("server/rooms", proto::make_rooms("l", rooms, rooms.size(), std::nullopt));
  emit("server/rooms", proto::make_rooms("page-1", rooms, 140, "b0Qx"));
  emit("server/rooms", proto::make_rooms(nullptr, {}, 0, std::nullopt));

  const std::string hash(64, 'a');
  emit("server/room_created", proto::make_room_created(3, "r7k2", hash));
  emit("server/joined", proto::make_joined(4, "r7k2", 0, "0123456789abcdef0123456789abcdef"));
  emit("server/joined", proto::make_joined(nullptr, "r7k2", 1, "fedcba9876543210fedcba9876543210"));
  emit("server/joined", proto::make_joined(5, "r7k2", 1, ""));  // resumed by the account
  {
    const proto::queue_ticket_info t{17, cod::game_mode::duel, proto::deck_format::preconstructed, true};
    const proto::queue_ticket_info f{18, cod::game_mode::two_vs_two, proto::deck_format::constructed, false};
    emit("server/queued", proto::make_queued(30, t, 3));
    emit("server/queued", proto::make_queued(nullptr, f, 1));
    emit("server/unqueued", proto::make_unqueued(32, {17}, "unqueued"));
    emit("server/unqueued", proto::make_unqueued(nullptr, {18, 19}, "matched"));
    emit("server/matched", proto::make_matched(t, "r9q2x", 1, "5f0c2a9e7b3d41c88e21f6a04d9b7c13", {"Ada", "Bob"}));
    emit("server/matched", proto::make_matched(f, "r9q2y", 3, "5f0c2a9e7b3d41c88e21f6a04d9b7c14", {"A", "B", "C", "D"}));
    emit("server/matched", proto::make_matched(t, "n2-r9q2z", 0, "5f0c2a9e7b3d41c88e21f6a04d9b7c15", {"Ada", "Bob"},
                                               "/ws?room=n2-r9q2z"));
  }
  emit("server/spectating", proto::make_spectating("s", "r7k2"));
  emit("server/accepted", proto::make_accepted(8, 1));
  emit("server/left", proto::make_left(12, "r7k2"));
  emit("server/bot_added", proto::make_bot_added(15, "r7k2", 1, "Bot 2 (level 3)", 3));
  emit("server/bot_added", proto::make_bot_added(16, "c1", 2, "Bot 3"));  // co-op: random, no level
  emit("server/pong", proto::make_pong(-13));
  emit("server/emote", proto::make_emote("e", "r7k2", 0, "Ann", "well_played"));
  emit("server/emote", proto::make_emote(nullptr, "r7k2", 1, "Bot 2 (level 3)", "good_game"));
  emit("server/pong", proto::make_pong(nullptr));
  emit("server/history", proto::make_history(14, "r7k2", 0, {}));
  emit("server/seat_status", proto::make_seat_status("r7k2", 1, false));
  emit("server/clock", proto::make_clock("r7k2", 0, 295000));
  emit("server/notice", proto::make_notice("r7k2", "store_waiting", "waiting for the database"));
  emit("server/notice", proto::make_notice("r7k2", "store_resumed", "the database is back"));
  draft_samples(cat);
  emit("server/clock", proto::make_clock("r7k2", 1, -20));
  emit("server/match_over", proto::make_match_over("r7k2", 0b10, cod::end_reason::fort_destroyed,
                                                   18446744073709551615ULL));
  emit("server/match_over", proto::make_match_over("r7k2", 0, cod::end_reason::concession, 0));
  // 2v2: a team wins (seats 0 and 2); ffa after a concession: every other seat.
  emit("server/match_over", proto::make_match_over("t4", 0b0101, cod::end_reason::fort_destroyed, 99));
  emit("server/match_over", proto::make_match_over("f4", 0b1101, cod::end_reason::concession, 7));

  // Every error code, through every error builder.
  for (int c = 0; c <= static_cast<int>(proto::protocol_errc::bad_field_value); ++c)
    emit("server/error",
         proto::make_error(c, proto::protocol_error{static_cast<proto::protocol_errc>(c),
                                                    c % 2 ? std::string("deck.cards[3]") : std::string(),
                                                    "a message"}));
  for (int c = 0; c < proto::session_errc_count; ++c) {
    const auto code = static_cast<proto::session_errc>(c);
    // These need a reason (or a refusal): below, and in league_samples.
    if (code == proto::session_errc::bad_deck || code == proto::session_errc::bad_champion_choice ||
        code == proto::session_errc::league_refused)
      continue;
    emit("server/error", proto::make_error(c % 2 ? json(c) : json(nullptr), code));
  }
  for (int e = 1; e <= static_cast<int>(cod::rule_error::champion_not_allowed); ++e)
    emit("server/error", proto::make_error("a", static_cast<cod::rule_error>(e)));

  const proto::deck_choice bad_decks[] = {
      {0, {"brute"}},
      {0, {"brute", "brute", "baron", "carapace", "troll", "revenant", "partisan", "boom"}},
      {0, {"nope", "brute", "baron", "carapace", "troll", "revenant", "partisan", "boom"}},
  };
  for (const auto& d : bad_decks) {
    const auto r = proto::resolve_deck(d, proto::deck_format::constructed, cat);
    if (r.ok()) {
      std::cerr << "protocol_samples: a bad deck resolved\n";
      ++failures;
      continue;
    }
    emit("server/error", proto::make_deck_error(5, r));
  }
  emit("server/error",
       proto::make_deck_error(5, proto::resolve_deck(bad_decks[0], proto::deck_format::preconstructed, cat)));

  // Every reason a Champion is refused (R13.1), from resolve_champion.
  proto::room_options with, without;
  with.champions = true;
  const auto deck1 = cat.preconstructed_deck(1);
  const std::string in_deck = cat.def(deck1[0]).id;
  std::string incantation;
  for (std::size_t c = 0; c < cat.size() && incantation.empty(); ++c)
    if (cat.stats(static_cast<cod::card_id>(c)).type != cod::card_type::creature)
      incantation = cat.def(static_cast<cod::card_id>(c)).id;
  const std::pair<std::optional<std::string>, const proto::room_options*> bad_champions[] = {
      {std::nullopt, &with}, {std::string("dragon"), &with}, {incantation, &with},
      {in_deck, &with},      {std::string("brute"), &without},
  };
  for (const auto& [champion, opts] : bad_champions) {
    const auto r = proto::resolve_champion(champion, *opts, deck1, cat);
    if (r.ok()) {
      std::cerr << "protocol_samples: a bad Champion resolved: " << champion.value_or("(none)") << '\n';
      ++failures;
      continue;
    }
    emit("server/error", proto::make_champion_error("j", r));
  }
}

// Random constructed decks the engine accepts.
std::vector<cod::card_id> random_deck(const cod::catalogue& cat, cod::rng& r) {
  for (;;) {
    std::set<cod::card_id> picked;
    while (picked.size() < 8) picked.insert(static_cast<cod::card_id>(r.below(cat.size())));
    std::vector<cod::card_id> deck(picked.begin(), picked.end());
    if (cod::match::check_deck(cat, deck) == cod::rule_error::ok) return deck;
  }
}

// R13.1: a random creature outside `deck`, as a Champion.
cod::card_id random_champion(const cod::catalogue& cat, const std::vector<cod::card_id>& deck, cod::rng& r) {
  for (;;) {
    const auto c = static_cast<cod::card_id>(r.below(cat.size()));
    if (cod::match::check_champion(cat, c, deck) == cod::rule_error::ok) return c;
  }
}

// Each event shape (type and keys) a few times, referee and redacted.
void emit_event(const json& e) {
  static std::map<std::string, int> counts;
  std::string shape;
  for (auto it = e.begin(); it != e.end(); ++it) shape += it.key() + ",";
  shape += e.at("type").get<std::string>();
  if (++counts[shape] <= 3) emit("defs/event", e);
}

// The R7 abilities with wire vocabulary of their own, from a scripted position
// of real catalogue cards. Seat 0 plays, through the wire form of each action:
// CUNNING SPIRIT (Symbiote) on its BRUTE (creature_stacked: the pair shows as
// one creature with "top"), MOVING SLIME (Chain: card_chained, and the held
// card in "chained"), EMISSARY (Counterorder: hand_reordered, whose card only
// seat 0 sees), BOOM on seat 1's GROWLER (Vanish: creature_vanished), then
// ends the turn (seat 1's MANA PECKER: Catalyst, an ability_triggered with no
// card). Every update goes to both seats and a spectator; every event to each
// kind of viewer.
void ability_samples(const cod::catalogue& cat) {
  auto id = [&](const char* name) {
    const auto c = cat.find(name);
    if (!c) {
      std::cerr << "protocol_samples: no card " << name << " in the catalogue\n";
      ++failures;
    }
    return c.value_or(cod::card_id{0});
  };
  auto creature = [](cod::card_id c) {
    cod::creature_setup cs;
    cs.card = c;
    return cs;
  };
  cod::position_setup p;
  p.seed = 7;
  p.first_seat = 0;
  p.active_seat = 0;
  p.turn = 3;
  p.round = 2;
  p.seats.resize(2);
  // uids: seat 0's hand 0..5, its upper line 6 (brute); seat 1's hand 7..10,
  // its upper line 11 (growler), 12 (baron), its lower line 13 (mana_pecker).
  p.seats[0].hand = {id("cunning_spirit"), id("moving_slime"), id("emissary"), id("boom"), id("baron"), id("zombie")};
  p.seats[0].mana = 10;
  p.seats[0].turns_taken = 2;
  p.seats[0].lines[0] = {creature(id("brute"))};
  p.seats[1].hand = {id("troll"), id("revenant"), id("combustion"), id("ogre")};
  p.seats[1].turns_taken = 1;
  p.seats[1].lines[0] = {creature(id("growler")), creature(id("baron"))};
  p.seats[1].lines[1] = {creature(id("mana_pecker"))};
  if (failures) return;

  cod::match m;
  if (const auto e = cod::match::from_position(cat, p, m); e != cod::rule_error::ok) {
    std::cerr << "protocol_samples: the ability position is refused: " << cod::error_name(e) << '\n';
    ++failures;
    return;
  }
  const auto uids = proto::uid_cards_from_view(m.view(cod::referee));
  const std::string room = "abil";
  const std::string hash(64, 'e');
  const cod::seat_t viewers[] = {0, 1, cod::spectator, cod::referee};
  std::vector<cod::action> legal;
  for (cod::seat_t v : {cod::seat_t{0}, cod::seat_t{1}, cod::spectator}) {
    emit("server/state", proto::make_state(room, 0, hash, proto::view_to_json(m.view(v), cat)));
    // hello.legal_actions: a seat's state carries its list (hosts, targets, lines; empty off turn).
    if (v == cod::spectator) continue;
    m.legal_actions(legal);
    emit("server/state", proto::make_state(room, 0, hash, proto::view_to_json(m.view(v), cat), std::nullopt,
                                           std::nullopt, proto::legal_actions_to_json(legal, v)));
  }

  // A Symbiote on an enemy creature: refused with bad_host, nothing changes.
  const std::string bad = R"({"type":"play","card":0,"line":"upper","host":11})";
  const auto bad_action = proto::parse_action_text(bad, 0);
  const auto refused = bad_action.ok() ? m.check(bad_action.value) : cod::rule_error::ok;
  if (refused != cod::rule_error::bad_host) {
    std::cerr << "protocol_samples: " << bad << " is not bad_host\n";
    ++failures;
  }
  emit("client/act", json{{"type", "act"}, {"id", 20}, {"action", json::parse(bad)}});
  emit("server/error", proto::make_error(20, refused));

  const char* script[] = {
      R"({"type":"play","card":0,"line":"upper","host":6})",  // Symbiote on BRUTE
      R"({"type":"play","card":1,"line":"lower"})",           // Chain takes TROLL
      R"({"type":"play","card":2,"line":"lower"})",           // Counterorder moves BOOM
      R"({"type":"play","card":3,"target":11})",              // BOOM: GROWLER vanishes
      R"({"type":"end_turn"})",                               // seat 1's Catalyst
  };
  std::set<std::string> seen;
  std::int64_t seq = 0;
  std::map<cod::seat_t, std::vector<proto::history_entry>> history;  // what a history reply gives each viewer
  for (const char* text : script) {
    const auto a = proto::parse_action_text(text, m.active_seat());
    if (!a.ok()) {
      std::cerr << "protocol_samples: " << text << ": " << a.error->message << '\n';
      ++failures;
      return;
    }
    cod::action wire = a.value;
    wire.seat = cod::no_seat;  // as act carries it: the seat is the connection's
    emit_client(proto::act_msg{static_cast<std::int64_t>(21 + seq), wire});
    emit_client(proto::act_msg{static_cast<std::int64_t>(21 + seq), wire, seq});  // chosen at seq
    std::vector<cod::event> events;
    if (const auto e = m.apply(a.value, events); e != cod::rule_error::ok) {
      std::cerr << "protocol_samples: " << text << " refused: " << cod::error_name(e) << '\n';
      ++failures;
      return;
    }
    ++seq;
    emit("server/accepted", proto::make_accepted(21 + seq - 1, seq));
    for (cod::seat_t v : viewers) {
      const json view = proto::view_to_json(m.view(v), cat);
      if (v != cod::referee) {
        history[v].push_back({seq, proto::events_to_json(events, v, cat, uids)});
        json u = proto::make_update(room, seq, proto::events_to_json(events, v, cat, uids), view);
        emit("server/update", u);
        u["id"] = 21 + seq - 1;  // the actor's copy under hello.acks in_update
        emit("server/update", u);
        if (v != cod::spectator) {  // as the server writes it for a seat that asked for legal_actions
          m.legal_actions(legal);
          const std::string listed = proto::legal_actions_text(legal, v, proto::play_previews(m, legal, v));
          emit("server/update", json::parse(proto::update_text(room, seq, proto::events_to_json(events, v, cat, uids),
                                                               m.view(v), cat, std::nullopt, nullptr, &listed)));
        }
      }
      for (const auto& e : events) emit("defs/event", proto::event_to_json(e, v, cat, uids));
      for (const auto& line : view["lines"])
        for (const auto& side : line["sides"])
          for (const auto& c : side["creatures"])
            if (!c["top"].is_null() || !c["chained"].empty()) emit("defs/creature", c);
    }
    for (const auto& e : events) seen.insert(std::string(cod::event_type_name(e.type)));
  }
  for (auto& [v, entries] : history) emit("server/history", proto::make_history("h", room, seq, std::move(entries)));
  emit("defs/view", proto::view_to_json(m.view(cod::referee), cat));
  for (const char* t : {"creature_stacked", "card_chained", "hand_reordered", "creature_vanished", "ability_triggered"})
    if (!seen.count(t)) {
      std::cerr << "protocol_samples: the ability script made no " << t << " event\n";
      ++failures;
    }
}

void match_samples(const cod::catalogue& cat) {
  std::set<std::string> seen;  // "<viewer kind>/<event type>": emit an update the first time
  std::set<std::string> types;  // every event type the matches made
  const cod::seat_t viewers[] = {0, 1, cod::spectator};
  auto kind = [](cod::seat_t v) { return v == cod::spectator ? std::string("spectator") : std::string("player"); };

  for (std::uint64_t game = 0; game < 200; ++game) {
    cod::rng r(game * 7919 + 1);
    cod::match_config cfg;
    cfg.seed = game;
    cfg.exhaustion_rule = game % 2 == 1;
    if (game % 3 == 0) {
      cfg.decks[0] = cat.preconstructed_deck(static_cast<int>(game / 3 % 4) + 1);
      cfg.decks[1] = cat.preconstructed_deck(static_cast<int>(game % 4) + 1);
    } else {
      cfg.decks[0] = random_deck(cat, r);
      cfg.decks[1] = random_deck(cat, r);
    }
    // R13: every other match with Champions (views carry them, events name them).
    if (game % 2 == 0)
      for (int s = 0; s < 2; ++s) cfg.champions[s] = random_champion(cat, cfg.decks[s], r);
    cod::match m;
    std::vector<cod::event> events;
    if (cod::match::create(cat, cfg, m, events) != cod::rule_error::ok) {
      std::cerr << "protocol_samples: match::create failed\n";
      ++failures;
      return;
    }
    const auto uids = proto::uid_cards_from_view(m.view(cod::referee));
    for (const auto& e : events) emit_event(proto::event_to_json(e, cod::referee, cat, uids));
    const std::string room = std::string("g") + std::to_string(game);
    const std::optional<proto::clock_snapshot> clock =
        game % 5 == 0 ? std::optional<proto::clock_snapshot>({{300000, 298500}, m.active_seat()})
                      : std::nullopt;
    if (game < 3) {
      for (cod::seat_t v : viewers)
        emit("server/state", proto::make_state(room, 0, std::string(64, 'f'),
                                               proto::view_to_json(m.view(v), cat), clock));
      emit("defs/view", proto::view_to_json(m.view(cod::referee), cat));
    }
    const int concede_at = game % 7 == 3 ? static_cast<int>(r.below(30)) : -1;
    std::vector<cod::action> legal;
    std::int64_t seq = 0;
    while (!m.over()) {
      cod::action a;
      if (seq == concede_at) {
        a = cod::action::concede_by(static_cast<cod::seat_t>(r.below(2)));
      } else {
        m.legal_actions(legal);
        a = legal[r.below(legal.size())];
      }
      events.clear();
      if (m.apply(a, events) != cod::rule_error::ok) {
        std::cerr << "protocol_samples: a legal action was refused\n";
        ++failures;
        return;
      }
      ++seq;
      for (cod::seat_t v : viewers) {
        bool fresh = seq <= 2 && game == 0;
        for (const auto& e : events)
          fresh = seen.insert(kind(v) + "/" + std::string(cod::event_type_name(e.type))).second || fresh;
        if (m.over() && game < 5) fresh = true;
        if (!fresh) continue;
        emit("server/update",
             proto::make_update(room, seq, proto::events_to_json(events, v, cat, uids),
                                proto::view_to_json(m.view(v), cat), clock));
      }
      for (const auto& e : events) {
        types.insert(std::string(cod::event_type_name(e.type)));
        for (cod::seat_t v : {cod::seat_t{0}, cod::referee})
          emit_event(proto::event_to_json(e, v, cat, uids));
      }
    }
    if (game < 5)
      emit("server/match_over", proto::make_match_over(room, m.winners(), m.view(0).reason, cfg.seed));
  }
  for (const char* t : {"card_played", "champion_exhausted", "champion_readied"})
    if (!types.count(t)) {
      std::cerr << "protocol_samples: the matches made no " << t << " event\n";
      ++failures;
    }
}

// Solo and co-op (R12, R11.7): the AI's piles in views (deck size, discard
// pile; the referee's ai_decks) and its events (reveals, mills, discards,
// cards put on its deck, reshuffles), with the AI sometimes first.
void ai_match_samples(const cod::catalogue& cat) {
  std::set<std::string> types;
  for (std::uint64_t game = 0; game < 120; ++game) {
    cod::rng r(game * 104729 + 3);
    cod::match_config cfg;
    cfg.mode = game % 2 ? cod::game_mode::coop : cod::game_mode::solo;
    cfg.seat_count = cod::seats_of(cfg.mode);
    cfg.seed = game;
    for (int s = 0; s < cfg.seat_count; s += 2) {
      const int human = static_cast<int>((game / 2 + static_cast<std::uint64_t>(s)) % 4) + 1;
      if (game % 3 == 0) {
        cfg.decks[s] = cat.preconstructed_deck(human);
        cfg.decks[s + 1] = cod::solo_ai_deck(cat, human);
      } else {
        cfg.decks[s] = random_deck(cat, r);
        cfg.decks[s + 1].clear();
        while (cfg.decks[s + 1].size() < 24) {  // R14.4: 24 different cards
          const auto c = static_cast<cod::card_id>(r.below(cat.size()));
          if (std::find(cfg.decks[s + 1].begin(), cfg.decks[s + 1].end(), c) == cfg.decks[s + 1].end())
            cfg.decks[s + 1].push_back(c);
        }
      }
    }
    if (game % 4 == 1) {  // R12.8: the AI first, 1 point
      cfg.difficulty = 1;
      cfg.ai.ai_first = true;
    }
    cod::match m;
    std::vector<cod::event> events;
    if (cod::match::create(cat, cfg, m, events) != cod::rule_error::ok) {
      std::cerr << "protocol_samples: a solo/coop match::create failed\n";
      ++failures;
      return;
    }
    const auto uids = proto::uid_cards_from_view(m.view(cod::referee));
    const std::string room = std::string("ai") + std::to_string(game);
    for (const auto& e : events) {
      types.insert(std::string(cod::event_type_name(e.type)));
      emit_event(proto::event_to_json(e, 0, cat, uids));
    }
    if (game < 4) {
      for (cod::seat_t v : {cod::seat_t{0}, cod::spectator})
        emit("server/state", proto::make_state(room, 0, std::string(64, 'f'), proto::view_to_json(m.view(v), cat),
                                               std::nullopt, proto::events_to_json(events, v, cat, uids)));
      emit("defs/view", proto::view_to_json(m.view(cod::referee), cat));
    }
    std::vector<cod::action> legal;
    std::int64_t seq = 0;
    while (!m.over()) {
      m.legal_actions(legal);
      events.clear();
      if (m.apply(legal[r.below(legal.size())], events) != cod::rule_error::ok) {
        std::cerr << "protocol_samples: a legal action was refused (solo/coop)\n";
        ++failures;
        return;
      }
      ++seq;
      if (game < 6 && seq % 3 == 0)
        emit("server/update", proto::make_update(room, seq, proto::events_to_json(events, 0, cat, uids),
                                                 proto::view_to_json(m.view(0), cat), std::nullopt));
      for (const auto& e : events) {
        types.insert(std::string(cod::event_type_name(e.type)));
        for (cod::seat_t v : {cod::seat_t{0}, cod::spectator}) emit_event(proto::event_to_json(e, v, cat, uids));
      }
    }
    if (game < 6) emit("defs/view", proto::view_to_json(m.view(0), cat));
  }
  for (const char* t : {"ai_revealed", "card_milled", "card_discarded", "card_to_deck", "deck_reshuffled"})
    if (!types.count(t)) {
      std::cerr << "protocol_samples: the solo/coop matches made no " << t << " event\n";
      ++failures;
    }
}

}  // namespace

int main(int argc, char** argv) {
  std::string catalogue_path = COD_CATALOGUE_PATH;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--catalogue") && i + 1 < argc) {
      catalogue_path = argv[++i];
    } else {
      std::fprintf(stderr, "usage: protocol_samples [--catalogue PATH]\n");
      return 2;
    }
  }
  cod::catalogue cat;
  if (auto e = proto::load_catalogue_file(catalogue_path, cat)) {
    std::fprintf(stderr, "protocol_samples: %s\n", e->to_string().c_str());
    return 2;
  }
  client_samples();
  fixed_server_samples(cat);
  ability_samples(cat);
  match_samples(cat);
  ai_match_samples(cat);
  league_samples(cat);
  std::cout.flush();
  return failures == 0 ? 0 : 1;
}
