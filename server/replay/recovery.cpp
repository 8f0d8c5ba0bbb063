#include "replay/recovery.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>

#include "cod/protocol/json_codec.hpp"
#include "cod/protocol/messages.hpp"
#include "cod/protocol/wire_names.hpp"
#include "common/sha256.hpp"
#include "common/strcat.hpp"
#include "common/text_forms.hpp"
#include "persist/rating_update.hpp"
#include "replay/draft_log.hpp"
#include "replay/match_cards.hpp"

namespace cod::server {

using detail::cat;

status config_from_record(const catalogue& cards, const match_record& m, match_config& out) {
  out = match_config{};
  const auto mode = game_mode_from_name(m.mode);
  if (!mode || !protocol::find_offered_mode(*mode)) {
    return status::invalid(cat("match ", m.match_id, ": unsupported mode '", m.mode, "'"));
  }
  const auto read_format = protocol::deck_format_from_name(m.format);
  if (!read_format) {
    return status::invalid(cat("match ", m.match_id, ": unknown format '", m.format, "'"));
  }
  const protocol::deck_format format = *read_format;
  const auto opts_json = nlohmann::json::parse(m.options_json.empty() ? std::string("{}") : m.options_json,
                                               nullptr, false);
  protocol::room_options opts;
  if (opts_json.is_discarded()) {
    return status::invalid(cat("match ", m.match_id, ": options_json is not JSON: ", m.options_json));
  }
  // R17.25: a record from before the stall guard reads as 0 (never).
  if (auto e = protocol::stored_room_options_from_json(opts_json, opts)) {
    return status::invalid(cat("match ", m.match_id, ": options_json: ", e->field, ": ", e->message));
  }
  // Records written before the four-player modes have options.seats 2 and
  // no champions or share_team_hands: the defaults.
  if (auto e = protocol::check_room_config(*mode, format, opts)) {
    return status::invalid(cat("match ", m.match_id, ": options_json: ", e->field, ": ", e->message));
  }
  out.mode = *mode;
  out.seat_count = seats_of(*mode);
  out.seed = m.seed;
  out.exhaustion_rule = opts.exhaustion;
  out.stall_exhaustion_turn = opts.stall_exhaustion_turn;  // R17.25
  out.share_team_hands = opts.share_team_hands;
  out.difficulty = opts.difficulty;  // R12.8 (solo, coop)
  out.ai = opts.ai;
  out.first_seat = no_seat;  // R2.4: the coin toss from the seed, as at creation
  if (static_cast<int>(m.seats.size()) != out.seat_count) {
    return status::invalid(cat("match ", m.match_id, ": ", m.seats.size(), " seats recorded; a ", m.mode, " has ",
                               out.seat_count));
  }
  std::vector<bool> seen(static_cast<std::size_t>(out.seat_count), false);
  std::array<int, max_seats> preconstructed{};  // each human's deck number (RULING E41)
  for (const seat_record& s : m.seats) {
    if (s.seat < 0 || s.seat >= out.seat_count || seen[static_cast<std::size_t>(s.seat)]) {
      return status::invalid(cat("match ", m.match_id, ": bad or duplicate seat ", s.seat));
    }
    seen[static_cast<std::size_t>(s.seat)] = true;
    if (s.ai != is_ai_seat(*mode, static_cast<seat_t>(s.seat))) {
      return status::invalid(cat("match ", m.match_id, " seat ", s.seat, s.ai ? " is marked ai: a " : " is not marked ai: a ",
                  m.mode, s.ai ? " has no AI there" : " has its AI there"));
    }
    if (s.ai) continue;  // its deck follows its human's (below)
    if (protocol::is_drafted(format)) {
      // The draft deals the decks (rebuild); the Champion was named at join,
      // before it, and withheld from its pool (R13.1, RULING E67).
      std::optional<std::string> champion;
      if (!s.champion.empty()) champion = s.champion;
      const protocol::champion_result c = protocol::resolve_champion(champion, opts, {}, cards);
      if (!c.ok()) {
        return status::invalid(cat("match ", m.match_id, " seat ", s.seat, ": champion '", s.champion, "': ", c.reason, ": ",
                    c.message));
      }
      out.champions[static_cast<std::size_t>(s.seat)] = c.card;
      continue;
    }
    const std::string where = cat("match ", m.match_id, " seat ", s.seat, ": deck ", s.deck_json, ": ");
    const auto deck_json = nlohmann::json::parse(s.deck_json, nullptr, false);
    protocol::deck_choice choice;
    if (deck_json.is_discarded()) {
      return status::invalid(cat(where, "not JSON"));
    }
    if (auto e = protocol::deck_from_json(deck_json, choice)) {
      return status::invalid(cat(where, e->field, ": ", e->message));
    }
    protocol::deck_result deck = protocol::resolve_deck(choice, format, cards);
    if (!deck.ok()) {
      return status::invalid(cat(where, deck.reason, ": ", deck.message));
    }
    // R13.1: the Champion as join checked it.
    std::optional<std::string> champion;
    if (!s.champion.empty()) champion = s.champion;
    const protocol::champion_result c = protocol::resolve_champion(champion, opts, deck.cards, cards);
    if (!c.ok()) {
      return status::invalid(cat("match ", m.match_id, " seat ", s.seat, ": champion '", s.champion, "': ", c.reason, ": ",
                  c.message));
    }
    out.champions[static_cast<std::size_t>(s.seat)] = c.card;
    out.decks[static_cast<std::size_t>(s.seat)] = std::move(deck.cards);
    preconstructed[static_cast<std::size_t>(s.seat)] = choice.preconstructed;
  }
  // Solo, coop: each AI's deck as stored, which must be the one RULING E41
  // gives from its human's pick (a record is never trusted to name cards
  // the rules would not have dealt).
  for (const seat_record& s : m.seats) {
    if (!s.ai) continue;
    // Solo, co-op drafts (R14.4, R14.5): the draft deals the AI decks too (rebuild).
    if (protocol::is_drafted(format)) continue;
    const std::string where = cat("match ", m.match_id, " AI seat ", s.seat, ": deck ", s.deck_json, ": ");
    const auto deck_json = nlohmann::json::parse(s.deck_json, nullptr, false);
    if (!deck_json.is_object() || !deck_json.contains("cards") || !deck_json["cards"].is_array()) {
      return status::invalid(cat(where, "not {\"cards\": [ids]}"));
    }
    std::vector<card_id> deck;
    for (const auto& id : deck_json["cards"]) {
      const auto c = id.is_string() ? cards.find(id.get<std::string>()) : std::nullopt;
      if (!c) {
        return status::invalid(cat(where, "unknown card ", id.dump()));
      }
      deck.push_back(*c);
    }
    if (auto e = match::check_ai_deck(cards, deck); e != rule_error::ok) {
      return status::invalid(cat(where, error_name(e)));
    }
    const int owner = protocol::ai_deck_owner(*mode, s.seat);
    if (deck != solo_ai_deck(cards, preconstructed[static_cast<std::size_t>(owner)])) {
      return status::invalid(cat(where, "not the three preconstructed decks seat ", owner, " did not pick (RULING E41)"));
    }
    out.decks[static_cast<std::size_t>(s.seat)] = std::move(deck);
  }
  return status::ok();
}

rebuild_result rebuild(const catalogue& shared, const stored_match& sm, const replay_step_fn& on_step) {
  rebuild_result r;
  const match_record& rec = sm.match;
  if (rec.engine_version != cod::engine_version) {
    r.error = cat("match ", rec.match_id, " was recorded by engine version ", rec.engine_version,
                  "; this engine is version ", cod::engine_version, " (its rules may differ)");
    return r;
  }
  if (!rec.cards_json.empty()) {
    // R15: the definitions it was played with, whatever the catalogue says now.
    auto own = match_catalogue(shared, rec.cards_json);
    if (!own) {
      r.error = cat("match ", rec.match_id, ": ", own.error().message());
      return r;
    }
    r.cards = std::move(*own);
  }
  const catalogue& cards = r.cards ? *r.cards : shared;
  match_config cfg;
  if (const status s = config_from_record(cards, rec, cfg); !s) {
    r.error = s.message();
    return r;
  }
  if (is_drafted_record(rec)) {
    draft_replay dr = replay_draft_log(cards, sm);
    if (!dr.ok) {
      r.error = cat("match ", rec.match_id, ": the draft does not replay: ", dr.error);
      return r;
    }
    r.drafted = true;
    r.draft = std::move(dr.d);
    if (!r.draft.finished()) {
      if (!sm.actions.empty()) {
        r.error = cat("match ", rec.match_id, ": ", sm.actions.size(), " actions stored before the draft finished");
        return r;
      }
      r.drafting = true;
      r.ok = true;
      return r;
    }
    for (int s = 0; s < cfg.seat_count; ++s) cfg.decks[static_cast<std::size_t>(s)] = r.draft.decks()[static_cast<std::size_t>(s)];
    cfg.seed = r.draft.match_seed();  // RULING E62
  }
  std::vector<event> events;
  if (auto e = match::create(cards, cfg, r.m, events); e != rule_error::ok) {
    r.error = cat("match ", rec.match_id, ": the engine refuses its setup: ", error_name(e));
    return r;
  }
  bool stopped = on_step && !on_step(nullptr, events, r.m);
  for (std::size_t i = 0; i < sm.actions.size() && !stopped; ++i) {
    const action_record& a = sm.actions[i];
    const std::int64_t expected = static_cast<std::int64_t>(i) + 1;
    const std::string where = cat("action seq ", a.seq, " (seat ", a.seat, ", ", a.action_json, ")");
    r.failed_seq = expected;  // cleared below once this action checks out
    if (a.seq != expected) {
      r.error = cat(where, ": expected seq ", expected, " (the log has a hole or is out of order)");
      return r;
    }
    if (a.seat < 0 || a.seat >= r.m.seat_count()) {
      r.error = cat(where, ": no such seat");
      return r;
    }
    const auto parsed = protocol::parse_action_text(a.action_json, static_cast<seat_t>(a.seat));
    if (!parsed.ok()) {
      r.error = cat(where, ": not a valid action: ", parsed.error->name(), " ", parsed.error->field, ": ",
                    parsed.error->message);
      return r;
    }
    events.clear();
    if (auto e = r.m.apply(parsed.value, events); e != rule_error::ok) {
      r.error = cat(where, ": the engine rejects it: ", error_name(e));
      return r;
    }
    if (const std::uint64_t d = r.m.digest(); d != a.digest) {
      r.error = cat(where, ": digest mismatch: stored ", digest_hex(a.digest), ", replay gives ",
                    digest_hex(d));
      return r;
    }
    r.seq = a.seq;
    r.failed_seq = 0;
    stopped = on_step && !on_step(&a, events, r.m);
  }
  if (std::string why = r.m.check_invariants(); !why.empty()) {
    r.error = cat("after seq ", r.seq, " the rebuilt state is malformed: ", why);
    return r;
  }
  r.ok = true;
  return r;
}

verify_result verify(const catalogue& cards, const stored_match& sm) {
  verify_result v;
  const match_record& rec = sm.match;
  auto check = [&](std::string name, bool ok, std::string detail) {
    v.checks.push_back({std::move(name), ok, std::move(detail)});
  };

  const std::string commitment = seed_commitment(rec.seed);
  check("seed commitment", commitment == rec.seed_hash,
        commitment == rec.seed_hash
            ? cat("seed_hash = SHA-256(\"", rec.seed, "\") = ", commitment)
            : cat("seed_hash ", rec.seed_hash, " but SHA-256(\"", rec.seed, "\") = ", commitment));

  check("engine version", rec.engine_version == cod::engine_version,
        cat("recorded ", rec.engine_version, ", this engine ", cod::engine_version));

  v.replay = rebuild(cards, sm);
  // Stopped by the server without a game end: an organiser's re-pair
  // ("voided"), a draft every player left ("abandoned"), or a store or
  // set-up failure ("aborted", docs/persistence.md). The log must still
  // replay; only the game need not be over.
  const bool stopped = sm.finished() && sm.result->winners.empty() &&
                       (sm.result->reason == "voided" || sm.result->reason == "abandoned" ||
                        sm.result->reason == "aborted");
  if (is_drafted_record(rec)) {
    int picks = 0, reveals = 0;
    for (const auto& d : sm.draft) (d.kind == "pick" ? picks : reveals)++;
    const bool done = v.replay.drafted && v.replay.draft.finished();
    const bool stopped_draft = stopped && v.replay.drafted && v.replay.drafting;
    check("draft", done || stopped_draft,
          done ? cat(picks, " picks and ", reveals, " reveals replayed from the draft log; the match was dealt its decks")
          : stopped_draft
              ? cat(picks, " picks and ", reveals, " reveals replayed; the draft was ", sm.result->reason,
                    " before it finished")
          : v.replay.drafted ? std::string("the draft log stops before the draft finished")
                             : std::string("the draft log does not replay (see replay)"));
  }
  check("replay", v.replay.ok,
        v.replay.ok ? cat(sm.actions.size(), " actions replayed, every digest matches") : v.replay.error);

  check("finished", sm.finished(), sm.finished() ? cat("reason ", sm.result->reason) : "the match has no result yet");

  if (v.replay.ok && !v.replay.drafting) {  // mid-draft: no match to judge yet
    const match& m = v.replay.m;
    check("game over", m.over() || stopped,
          m.over()  ? std::string("the engine's game is over after the last action")
          : stopped ? cat("the match was ", sm.result->reason, " after seq ", v.replay.seq, ", before the game ended")
                    : cat("the engine's game is still running after seq ", v.replay.seq));
    if (m.over() && sm.finished()) {
      const std::vector<int> winners = winner_seats(m.winners());
      std::vector<int> stored = sm.result->winners;
      std::sort(stored.begin(), stored.end());
      const std::string reason(protocol::end_reason_name(m.view(referee).reason));
      auto list = [](const std::vector<int>& w) {
        std::string s = "[";
        for (std::size_t i = 0; i < w.size(); ++i) s += cat(i ? "," : "", w[i]);
        return s + "]";
      };
      const bool same = winners == stored && reason == sm.result->reason;
      check("result", same,
            same ? cat("winners ", list(winners), ", reason ", reason)
                 : cat("stored winners ", list(stored), " reason ", sm.result->reason, "; engine says winners ",
                       list(winners), " reason ", reason));
    }
  }
  // A rated match (or one with rating changes stored): each change
  // re-derived from its own before-values and the stored result
  // (rating_update.hpp); no other match's history is needed.
  if (sm.finished() && (rec.rated || !sm.rating_changes.empty())) {
    const rating_plan plan = plan_rating(rec, *sm.result, seats_that_played(sm.actions));
    const std::string wrong = check_rating_changes(plan, rec.match_id, sm.rating_changes, sm.result->ended_ms);
    check("rating", wrong.empty(),
          !wrong.empty() ? wrong
          : plan.rated   ? cat(sm.rating_changes.size(), " rating changes on the ", plan.ladder,
                               " ladder re-derived from their before-values and the result")
                         : cat("unrated: ", plan.why, "; no rating change stored"));
  }
  v.ok = std::all_of(v.checks.begin(), v.checks.end(), [](const verify_check& c) { return c.ok; });
  return v;
}

}  // namespace cod::server
