// The room's drafting phase (R14; docs/protocol.md, "Formats and drafts"):
// drafted formats (instant_constructed, draft) build the decks here, once
// every seat is taken and before the match exists.
//
// One cod::draft runs on the room's executor. A pick is checked by the
// engine (draft::apply: a refused pick changes nothing and gets the engine's
// stable error code), stored with what it revealed (draft_events, through
// the store like an action: nothing is broadcast before it is durable), then
// every seat and spectator gets a `draft` message: the public view (R14.2,
// R16.2: the offer, every pick, whose turn and how many; a secret list only
// to its owner until revealed) and the events. When the draft finishes the
// match is created from its decks with draft.match_seed() (RULING E62).
//
// The match row is written when the draft starts (its draft_events rows
// reference it); it stays 'playing' with no actions while the room drafts.
//
// Tables: the mode gives the engine's table (protocol::draft_table_of):
// duel, four players, solo (R14.4) and co-op (R14.5). At the solo and co-op
// tables the engine plays the AI seats' side by itself (rest_to_ai,
// split_ai; RULINGS E61, E66): the draft waits for the human seats only.
// The AI seats are filled by the room from the start (make_ai_seat); the
// draft's decks replace the AI decks of RULING E41 (start_drafted_match),
// and the match gets the room's difficulty and ai settings (R12.8) as
// start_match gives them.
#include <spdlog/spdlog.h>

#include "cod/protocol/draft_codec.hpp"
#include "replay/draft_log.hpp"
#include "room/match_id.hpp"
#include "room/room.hpp"

namespace cod::server {

namespace pr = cod::protocol;
using nlohmann::json;

// One stored step of the draft and who asked for it.
struct room::draft_outgoing {
  std::weak_ptr<peer> actor;
  json id;
  json events;  // the step's events, public (every draft event is)
};

void room::draft_pick(std::shared_ptr<peer> c, pr::draft_pick_msg m) {
  auto id = m.id;
  run(c, std::move(id), [self = shared_from_this(), c, m = std::move(m)] { self->do_draft_pick(c, m); });
}

void room::start_draft() {
  status_ = status::drafting;
  draft_config cfg;
  cfg.format = p_.format == pr::deck_format::draft ? draft_format::draft : draft_format::instant_constructed;
  cfg.table = pr::draft_table_of(p_.mode);
  cfg.seed = p_.seed;  // R16.1: shuffled by the match's seeded generator
  cfg.packs = p_.options.packs;
  // R13.1, RULING E67: the Champions named at join stay out of the pool.
  for (const auto& s : seats_)
    if (s.champion != no_card) cfg.withheld.push_back(s.champion);
  std::vector<draft_event> events;
  draft d;
  if (auto e = draft::create(cards(), cfg, d, events); e != draft_error::ok) {
    // create_room checked the pool (room_registry::check_pool): a bug.
    spdlog::error("room {}: the engine refused to start the draft: {}", p_.id, draft_error_name(e));
    abandon("the draft could not be set up");
    return;
  }
  draft_ = std::move(d);
  // Solo, co-op: an AI seat's deck is dealt by the draft too (R14.4, R14.5);
  // the record says so like a human's, the draft log holds its cards.
  for (auto& s : seats_)
    if (s.ai) s.deck_json = R"({"draft":true})";
  match_id_ = make_match_id(p_.id, *svc_.env);
  draft_seq_ = 0;
  // One clock reading for the match row and the draft's first rows: the
  // record promises no draft row is older than its match.
  match_record rec = make_record();
  std::int64_t next = 1;
  auto rows = draft_rows(cards(), *draft_, nullptr, events, next, rec.created_ms);
  spdlog::info("room {}: match {}: {} draft started ({} table, seed hash {})", p_.id, match_id_,
               pr::deck_format_name(p_.format), draft_table_name(cfg.table), seed_hash_);
  // The match row first: the draft's rows reference it. Writes are applied
  // in order, so if it fails the rows fail too, and their callback says so.
  svc_.store->create_match(rec, [](const server::status&) {});
  auto out = std::make_shared<draft_outgoing>();
  out->events = pr::draft_events_to_json(events, cards());
  store_draft_rows(std::move(rows), out);
}

void room::do_draft_pick(const std::shared_ptr<peer>& c, const pr::draft_pick_msg& m) {
  const int seat = acting_seat(c, m.id);
  if (seat < 0) return;
  if (status_ != status::drafting || !draft_ || draft_->finished()) {
    c->send(pr::make_error(m.id, pr::session_errc::not_drafting));
    return;
  }
  if (!fresh(c, m.id, m.seq, draft_seq_, "pick", "the draft", "draft push")) return;
  cod::draft_pick p;
  p.type = m.pick;
  p.seat = static_cast<seat_t>(seat);
  p.deck = m.deck;
  for (const auto& id : m.cards) {
    const auto card = cards().find(id);
    if (!card) {
      c->send(pr::make_error(m.id, draft_error::unknown_card));
      return;
    }
    p.cards.push_back(*card);
  }
  apply_draft_pick(p, c, m.id);
}

void room::apply_draft_pick(const cod::draft_pick& p, const std::shared_ptr<peer>& c, const json& id) {
  std::vector<draft_event> events;
  if (auto e = draft_->apply(p, events); e != draft_error::ok) {
    spdlog::info("room {}: seat {} draft pick refused: {}", p_.id, p.seat, draft_error_name(e));
    if (c) c->send(pr::make_error(id, e));
    return;
  }
  std::int64_t next = draft_seq_ + 1;
  auto rows = draft_rows(cards(), *draft_, &p, events, next, svc_.env->wall_ms());
  auto out = std::make_shared<draft_outgoing>();
  if (c) out->actor = c;
  out->id = id;
  out->events = pr::draft_events_to_json(events, cards());
  store_draft_rows(std::move(rows), out);
}

void room::store_draft_rows(std::vector<draft_event_record> rows, const std::shared_ptr<draft_outgoing>& out) {
  const auto last = rows.empty() ? draft_seq_ : rows.back().seq;
  write_failure failed{"the draft of match " + match_id_ + " was not saved", "the draft could not be saved",
                       out->actor, out->id, "the pick could not be saved"};
  persist([&](match_store::done_fn done) { svc_.store->append_draft(match_id_, rows, std::move(done)); },
          std::move(failed), [this, out, last] {
            draft_seq_ = last;
            on_draft_stored(out);
          });
  publish_summary();
}

void room::on_draft_stored(const std::shared_ptr<draft_outgoing>& out) {
  match_row_ = true;  // written before the draft's first rows, which reference it
  if (auto c = out->actor.lock()) c->send(pr::make_accepted(out->id, draft_seq_));
  for (std::size_t i = 0; i < seats_.size(); ++i)
    if (auto c = seats_[i].client.lock()) c->send(draft_message_for(static_cast<seat_t>(i), out->events, c.get()));
  if (!spectators_.empty()) send_spectators(draft_message_for(spectator, out->events));
  if (draft_->finished()) start_drafted_match();
  else schedule_bot_draft_pick();
}

void room::start_drafted_match() {
  match_config cfg = base_match_config(draft_->match_seed());  // RULING E62
  for (std::size_t i = 0; i < seats_.size(); ++i) {
    // Solo: the AI's 24 cards are its deck pile; co-op: B and D get their
    // 24 each (R14.4, R14.5, RULING E66).
    seats_[i].deck = draft_->decks()[i];
    cfg.decks[i] = seats_[i].deck;
    cfg.champions[i] = seats_[i].champion;
  }
  if (!create_engine_match(cfg)) return;
  spdlog::info("room {}: match {}: the draft finished after {} draft records", p_.id, match_id_, draft_seq_);
  // The match row exists since the draft started: the match begins now.
  on_match_created();
}

message_ptr room::draft_message_for(seat_t viewer, const json& events, const peer* to) const {
  std::optional<json> legal;
  if (to && to->wants_legal_actions() && viewer != spectator) {
    std::vector<cod::draft_pick> picks;
    draft_->legal_picks(picks);
    legal = pr::legal_picks_to_json(picks, viewer, cards());
  }
  return std::make_shared<const std::string>(
      pr::make_draft(p_.id, draft_seq_, events,
                     pr::draft_view_to_json(draft_->view(viewer), draft_->state().pool, cards()), legal)
          .dump());
}

}  // namespace cod::server
