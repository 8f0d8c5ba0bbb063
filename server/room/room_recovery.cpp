// Rebuilding a room from a stored match at start-up (docs/persistence.md,
// "Recovery"): the room's parameters and seats from the record, the match
// (or the draft) from one replay of its log, the turn clock's banks from
// that same replay.
#include <span>
#include <utility>

#include "cod/protocol/json_codec.hpp"
#include "common/sha256.hpp"
#include "replay/recovery.hpp"
#include "room/room.hpp"

namespace cod::server {

namespace pr = cod::protocol;
using nlohmann::json;

namespace {

// The room's parameters as the record stores them. invalid, with a
// sentence, when they cannot be read back.
status params_from_record(const match_record& rec, room::params& p) {
  p.id = rec.room_id;
  if (auto mode = game_mode_from_name(rec.mode)) {
    p.mode = *mode;
  } else {
    return status::invalid("unknown mode " + rec.mode);
  }
  if (auto f = pr::deck_format_from_name(rec.format)) {
    p.format = *f;
  } else {
    return status::invalid("unknown format " + rec.format);
  }
  const auto options = json::parse(rec.options_json, nullptr, false);
  if (options.is_discarded()) {
    return status::invalid("options_json is not JSON");
  }
  // R17.25: a record from before the stall guard reads as 0 (never).
  if (auto e = pr::stored_room_options_from_json(options, p.options)) {
    return status::invalid("options_json: " + e->message);
  }
  p.options.seats = static_cast<int>(rec.seats.size());
  p.seed = rec.seed;
  p.rated = rec.rated;
  if (seed_commitment(rec.seed) != rec.seed_hash) {
    return status::invalid("the seed does not match its commitment");
  }
  return status::ok();
}

// The turn clock's banks as the log's timestamps leave them, followed along
// the replay: each turn charged from its start (the match's creation, or
// the action that began it) to the action that ended it; the turn running
// at the end up to the last action, so the time the server was down is
// charged to no one.
struct clock_replay {
  pr::turn_clock options;
  std::int64_t last_ms = 0;  // the match's creation, then the last action replayed
  turn_clock clock;

  bool step(const action_record* a, const match& m) {
    if (!a) {
      clock = turn_clock(static_cast<std::size_t>(m.seat_count()), options.increment_ms);
      clock.fill(options.bank_ms);
      clock.start(m.active_seat(), m.turn(), last_ms);
      return true;
    }
    last_ms = a->at_ms;
    if (m.over()) {
      clock.stop(last_ms);
    } else if (!clock.runs(m.active_seat(), m.turn())) {
      clock.stop(last_ms);
      clock.start(m.active_seat(), m.turn(), last_ms);
    }
    return true;
  }
  // The replay is done: nothing runs until the room resumes the turn.
  turn_clock finish() {
    clock.stop(last_ms);
    return std::move(clock);
  }
};

}  // namespace

result<std::shared_ptr<room>> room::recover(room_services& svc, std::shared_ptr<serial_executor> ex,
                                           const stored_match& sm) {
  const auto& rec = sm.match;
  params p;
  if (cod::server::status read = params_from_record(rec, p); !read) return read;
  std::optional<clock_replay> clock;
  if (p.options.clock) clock.emplace(clock_replay{*p.options.clock, rec.created_ms, {}});
  // history: the match as created and every action since, as a live room keeps them.
  std::optional<match> start;
  std::vector<event> start_events;
  std::vector<action> applied;
  const replay_step_fn on_step = [&](const action_record* a, std::span<const event> events, const match& m) {
    if (!a) {
      start = m;
      start_events.assign(events.begin(), events.end());
    } else {
      applied.push_back(pr::parse_action_text(a->action_json, static_cast<seat_t>(a->seat)).value);
    }
    return !clock || clock->step(a, m);
  };
  auto rb = rebuild(*svc.cat, sm, on_step);
  if (!rb.ok) return cod::server::status::invalid(rb.error);

  auto r = std::make_shared<room>(svc, std::move(ex), std::move(p));
  if (cod::server::status seats = r->seats_from_record(rec); !seats) return seats;
  r->match_id_ = rec.match_id;
  r->own_cards_ = rb.cards;  // R15: the cards the match is played with
  r->cards_json_ = rec.cards_json;
  if (rb.cards) r->cards_shown_ = nlohmann::json::parse(rec.cards_json, nullptr, false);
  r->recovered_ = true;
  r->match_row_ = true;
  if (rb.drafted) {
    r->draft_ = std::move(rb.draft);
    r->draft_seq_ = static_cast<std::int64_t>(sm.draft.size());
  }
  if (rb.drafting && sm.finished()) {
    return cod::server::status::invalid("its draft never finished (reason " + sm.result->reason + ")");
  }
  if (rb.drafting) {
    // Stopped mid-draft: the draft goes on from its last stored pick.
    r->status_ = status::drafting;
    r->publish_summary();
    return r;
  }
  r->match_ = std::move(rb.m);
  r->seq_ = rb.seq;
  r->start_ = std::move(start);
  r->start_events_ = std::move(start_events);
  r->applied_ = std::move(applied);
  r->uid_cards_ = pr::uid_cards_from_view(r->match_.view(referee));
  r->status_ = status::playing;
  if (clock) r->clock_ = clock->finish();
  if (sm.finished()) {
    // Ended before the restart (docs/protocol.md, "Reconnecting"): a finished
    // room, as the match left it, that resumes and spectators find with
    // their final state and match_over (the seed revealed). Only a match the
    // game ended: one stopped by the server (aborted, voided, abandoned,
    // recovery_failed) has no match_over to show.
    if (!r->match_.over()) {
      return cod::server::status::invalid("it ended without a game over (reason " + sm.result->reason + ")");
    }
    r->status_ = status::finished;
    r->ended_ms_ = sm.result->ended_ms;
  }
  r->publish_summary();
  return r;
}

cod::server::status room::seats_from_record(const match_record& rec) {
  for (const auto& s : rec.seats) {
    if (s.seat < 0 || s.seat >= static_cast<int>(seats_.size())) {
      return cod::server::status::invalid("bad seat number");
    }
    auto& seat = seats_[static_cast<std::size_t>(s.seat)];
    seat.taken = true;
    seat.name = s.name;
    seat.token_hash = s.token_hash;
    seat.account_id = s.account_id;
    // A bot's level rides on its token_hash (bot_token_hash). A bare
    // "house-bot" in a room the search plays (stored before levels) comes
    // back at the configured level; a co-op room's stays random.
    const int level = bot_level_of(s.token_hash);
    seat.bot = level >= 0;
    if (seat.bot && bot_searches(p_.mode)) seat.level = level > 0 ? level : svc_.cfg.bot_level;
    seat.deck_json = s.deck_json;
    seat.champion_id = s.champion;
    if (auto id = cards().find(s.champion)) seat.champion = *id;
  }
  return cod::server::status::ok();
}

}  // namespace cod::server
