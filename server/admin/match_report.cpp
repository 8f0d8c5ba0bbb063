#include "admin/match_report.hpp"

#include <array>
#include <span>

#include <nlohmann/json.hpp>

#include "cod/protocol/json_codec.hpp"
#include "cod/protocol/narrate.hpp"
#include "common/strcat.hpp"
#include "common/text_forms.hpp"
#include "replay/draft_log.hpp"

namespace cod::server::admin {

using detail::cat;
using nlohmann::json;

namespace {

// Stored JSON text as JSON; text that does not parse stays a string, so a
// damaged record is still shown rather than refused.
json json_or_text(const std::string& text) {
  json j = json::parse(text, nullptr, false);
  return j.is_discarded() ? json(text) : j;
}

json result_to_json(const stored_match& sm) {
  if (!sm.result) return nullptr;
  return {{"winners", sm.result->winners}, {"reason", sm.result->reason}, {"ended_ms", sm.result->ended_ms}};
}

json notes_to_json(const stored_match& sm) {
  json notes = json::array();
  for (const note_record& n : sm.notes) notes.push_back({{"at_ms", n.at_ms}, {"text", n.text}});
  return notes;
}

json seats_to_json(const stored_match& sm) {
  json seats = json::array();
  for (const seat_record& s : sm.match.seats)
    seats.push_back({{"seat", s.seat}, {"name", s.name}, {"deck", json_or_text(s.deck_json)}, {"token_hash", s.token_hash}});
  return seats;
}

// The record's own fields. The seed is secret until the match ends (the
// players were given only its hash); an admin endpoint must not be the leak.
json match_fields(const stored_match& sm) {
  const match_record& m = sm.match;
  json fields = {{"match_id", m.match_id},
                 {"room_id", m.room_id},
                 {"mode", m.mode},
                 {"format", m.format},
                 {"options", json_or_text(m.options_json.empty() ? std::string("{}") : m.options_json)},
                 {"rules_version", m.rules_version},
                 {"engine_version", m.engine_version},
                 {"seed", sm.finished() ? json(std::to_string(m.seed)) : json(nullptr)},
                 {"seed_hash", m.seed_hash},
                 {"created_ms", m.created_ms},
                 {"status", sm.finished() ? "finished" : "playing"}};
  // R15: the definitions a match with its own cards was played with.
  if (!m.cards_json.empty()) fields["cards"] = json_or_text(m.cards_json);
  return fields;
}

// The players' names by seat number ("" for a seat the record lacks).
std::vector<std::string> seat_names(const stored_match& sm) {
  std::vector<std::string> names;
  for (const seat_record& s : sm.match.seats) {
    if (s.seat < 0 || s.seat >= 8) continue;
    if (names.size() <= static_cast<std::size_t>(s.seat)) names.resize(static_cast<std::size_t>(s.seat) + 1);
    names[static_cast<std::size_t>(s.seat)] = s.name;
  }
  return names;
}

// People count seats from 1 (the wire from 0); a name says more than either.
std::string seat_label(int seat) { return cat("seat ", seat + 1); }
std::string seat_label(int seat, std::span<const std::string> names) {
  if (seat >= 0 && static_cast<std::size_t>(seat) < names.size() && !names[static_cast<std::size_t>(seat)].empty())
    return names[static_cast<std::size_t>(seat)];
  return seat_label(seat);
}

// "seat 2" opening a sentence; a player's name stays as its player wrote it.
std::string capital(std::string s) {
  if (s.rfind("seat ", 0) == 0) s[0] = 'S';
  return s;
}

// The action in words, from the acting seat's point of view (actions name
// the seat's own lines, events absolute ones).
std::string describe_action(const action_record& a, const catalogue& cards, const std::vector<card_id>& uid_cards,
                            std::span<const std::string> names) {
  auto name = [&](card_uid u) -> std::string {
    if (u != no_uid && u < uid_cards.size() && uid_cards[u] != no_card && uid_cards[u] < cards.size())
      return cards.def(uid_cards[u]).name;
    return cat("card #", static_cast<int>(u));
  };
  const std::string who = capital(seat_label(a.seat, names));
  const auto parsed = protocol::parse_action_text(a.action_json, static_cast<seat_t>(a.seat));
  if (!parsed.ok()) return cat(who, ": ", a.action_json);
  const action& act = parsed.value;
  switch (act.type) {
    case action_type::end_turn:
      return cat(who, ": end the turn");
    case action_type::concede:
      return cat(who, ": concede");
    case action_type::play:
      if (act.target != no_uid) return cat(who, ": cast ", name(act.card), " on ", name(act.target));
      return cat(who, ": play ", name(act.card), " on its ", act.line == 0 ? "upper" : "lower", " line",
                 act.host != no_uid ? cat(" on ", name(act.host)) : std::string());
  }
  return cat(who, ": ", a.action_json);
}

// One sentence per event; a damage line says "(destroyed)" when that damage
// destroyed its target in the same step (the next damage to it, if any, comes after).
std::vector<std::string> narrate_step(std::span<const event> events, const catalogue& cards,
                                      const std::vector<card_id>& uid_cards, std::span<const std::string> names) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < events.size(); ++i) {
    const event& e = events[i];
    std::string line = protocol::narrate(e, cards, uid_cards, names);
    if (e.type == event_type::damage_dealt && e.target != no_uid) {
      for (std::size_t j = i + 1; j < events.size(); ++j) {
        if (events[j].type == event_type::damage_dealt && events[j].target == e.target) break;
        if (events[j].type == event_type::creature_destroyed && events[j].uid == e.target) {
          line += " (destroyed)";
          break;
        }
      }
    }
    out.push_back(std::move(line));
  }
  return out;
}

}  // namespace

json record_to_json(const stored_match& sm) {
  json j = match_fields(sm);
  j["result"] = result_to_json(sm);
  j["seats"] = seats_to_json(sm);
  j["actions"] = sm.actions.size();
  j["notes"] = notes_to_json(sm);
  return j;
}

json raw_log_to_json(const stored_match& sm) {
  json actions = json::array();
  for (const action_record& a : sm.actions)
    actions.push_back({{"seq", a.seq},
                       {"seat", a.seat},
                       {"action", json_or_text(a.action_json)},
                       {"digest", digest_hex(a.digest)},
                       {"at_ms", a.at_ms}});
  return {{"match_id", sm.match.match_id}, {"actions", actions}};
}

namespace {

// The draft rows; `hide_seat_lists`: the secret lists (each seat's first
// pick) whose seat is marked there get cards null.
json draft_rows_to_json(const stored_match& sm, const std::array<bool, max_seats>& hide_seat_lists) {
  json rows = json::array();
  std::array<bool, max_seats> first_seen{};
  for (const draft_event_record& r : sm.draft) {
    json cards = json_or_text(r.cards_json);
    if (r.kind == "pick" && r.seat >= 0 && r.seat < max_seats) {
      const auto s = static_cast<std::size_t>(r.seat);
      if (!first_seen[s] && hide_seat_lists[s]) cards = nullptr;
      first_seen[s] = true;
    }
    rows.push_back({{"seq", r.seq}, {"seat", r.seat}, {"kind", r.kind}, {"cards", std::move(cards)}, {"at_ms", r.at_ms}});
  }
  return rows;
}

// Without a replay: while the match is played, every instant-constructed
// list is treated as secret (the draft record has its revealed copies).
std::array<bool, max_seats> unreplayed_secrets(const stored_match& sm) {
  std::array<bool, max_seats> hide{};
  if (!sm.finished() && sm.actions.empty() && sm.match.format == "instant_constructed") hide.fill(true);
  return hide;
}

}  // namespace

bool has_draft_record(const stored_match& sm) { return is_drafted_record(sm.match); }

json draft_to_json(const catalogue& cards, const stored_match& sm) {
  const draft_replay dr = replay_draft_log(cards, sm);
  const bool finished = dr.ok && dr.d.finished();
  std::array<bool, max_seats> hide = unreplayed_secrets(sm);
  if (dr.ok)
    for (std::size_t s = 0; s < hide.size(); ++s) hide[s] = hide[s] && !finished && !dr.d.state().seats[s].revealed;
  return {{"match_id", sm.match.match_id},
          {"format", sm.match.format},
          {"finished", finished},
          {"complete", dr.ok},
          {"error", dr.ok ? json(nullptr) : json(dr.error)},
          {"picks", dr.picks},
          {"reveals", dr.reveals},
          {"rows", draft_rows_to_json(sm, hide)}};
}

json export_match(const stored_match& sm) {
  json match = match_fields(sm);
  const json options = match["options"];
  match.erase("options");
  json out = {{"export", "cod-match"},
              {"version", 1},
              {"match", match},
              {"seats", seats_to_json(sm)},
              {"options", options},
              {"actions", raw_log_to_json(sm)["actions"]},
              {"result", result_to_json(sm)},
              {"notes", notes_to_json(sm)}};
  if (has_draft_record(sm)) out["draft"] = draft_rows_to_json(sm, unreplayed_secrets(sm));
  return out;
}

match_log render_log(const catalogue& cards, const stored_match& sm) {
  match_log log;
  std::vector<card_id> uid_cards;
  // The players' names by seat: the log names them, as the game screen does.
  const std::vector<std::string> names = seat_names(sm);
  const rebuild_result r =
      rebuild(cards, sm, [&](const action_record* a, std::span<const event> events, const match& m) {
        log_entry e;
        if (!a) {
          // Every card of the match is in the referee view from the start.
          uid_cards = protocol::uid_cards_from_view(m.view(referee));
          e.text = "Setup";
        } else {
          e.seq = a->seq;
          e.seat = a->seat;
          e.at_ms = a->at_ms;
          e.action_json = a->action_json;
          e.digest = digest_hex(a->digest);
          e.text = describe_action(*a, cards, uid_cards, names);
        }
        e.effects = narrate_step(events, cards, uid_cards, names);
        log.entries.push_back(std::move(e));
        return true;
      });
  log.complete = r.ok;
  log.error = r.error;
  log.failed_seq = r.failed_seq;
  return log;
}

json log_to_json(const stored_match& sm, const match_log& log) {
  json entries = json::array();
  for (const log_entry& e : log.entries) {
    const bool setup = e.seq == 0;
    entries.push_back({{"seq", e.seq},
                       {"seat", setup ? json(nullptr) : json(e.seat)},
                       {"at_ms", setup ? json(nullptr) : json(e.at_ms)},
                       {"action", setup ? json(nullptr) : json_or_text(e.action_json)},
                       {"digest", setup ? json(nullptr) : json(e.digest)},
                       {"text", e.text},
                       {"effects", e.effects}});
  }
  return {{"match_id", sm.match.match_id},
          {"complete", log.complete},
          {"error", log.complete ? json(nullptr) : json(log.error)},
          {"failed_seq", log.complete ? json(nullptr) : json(log.failed_seq)},
          {"entries", entries}};
}

std::string log_to_text(const stored_match& sm, const match_log& log) {
  const match_record& m = sm.match;
  std::string out = cat("Match ", m.match_id, ": ", m.mode, " (", m.format, ")");
  for (const seat_record& s : m.seats) out += cat(", ", seat_label(s.seat), " ", s.name);
  out += '\n';
  for (const log_entry& e : log.entries) {
    out += e.seq == 0 ? e.text : cat('#', e.seq, ' ', e.text);
    out += '\n';
    for (const std::string& line : e.effects) out += cat("  ", line, '\n');
  }
  if (!log.complete) out += cat("REPLAY STOPPED: ", log.error, '\n');
  if (sm.result) {
    const auto names = seat_names(sm);
    std::string winners;
    for (int w : sm.result->winners) winners += cat(winners.empty() ? "" : ", ", seat_label(w, names));
    out += cat("Result: winners ", winners.empty() ? std::string("none") : winners, ", reason ", sm.result->reason, '\n');
  } else {
    out += "Result: still playing\n";
  }
  for (const note_record& n : sm.notes) out += cat("Note at ", n.at_ms, " ms: ", n.text, '\n');
  return out;
}

state_result state_at(const catalogue& cards, const stored_match& sm, std::int64_t step) {
  state_result out;
  const auto steps = static_cast<std::int64_t>(sm.actions.size());
  if (step < 0 || step > steps) {
    out.bad_step = true;
    out.error = cat("step ", step, " is not in 0..", steps, " (the match has ", steps, " actions)");
    return out;
  }
  const rebuild_result r = rebuild(cards, sm, [&](const action_record* a, std::span<const event>, const match&) {
    return (a ? a->seq : 0) < step;
  });
  if (r.ok && r.drafting) {
    // A drafted match stopped mid-draft: no match exists yet (see .../draft).
    out.error = "the draft has not finished: the match has no state yet (see the draft record)";
    return out;
  }
  if (!r.ok || r.seq != step) {
    out.error = r.ok ? cat("the replay stopped at seq ", r.seq, " before step ", step) : r.error;
    return out;
  }
  out.ok = true;
  const action_record* a = step > 0 ? &sm.actions[static_cast<std::size_t>(step - 1)] : nullptr;
  out.body = {{"match_id", sm.match.match_id},
              {"step", step},
              {"steps", steps},
              {"action", a ? json_or_text(a->action_json) : json(nullptr)},
              {"seat", a ? json(a->seat) : json(nullptr)},
              {"digest", a ? json(digest_hex(a->digest)) : json(nullptr)},
              {"view", protocol::view_to_json(r.m.view(referee), cards)}};
  return out;
}

json verify_to_json(const stored_match& sm, const verify_result& v) {
  json checks = json::array();
  json first = nullptr;
  for (const verify_check& c : v.checks) {
    checks.push_back({{"name", c.name}, {"ok", c.ok}, {"detail", c.detail}});
    if (!c.ok && first.is_null())
      first = {{"check", c.name},
               {"seq", c.name == "replay" ? json(v.replay.failed_seq) : json(nullptr)},
               {"detail", c.detail}};
  }
  return {{"match_id", sm.match.match_id},
          {"ok", v.ok},
          {"checks", checks},
          {"replayed", v.replay.seq},
          {"first_divergence", first}};
}

}  // namespace cod::server::admin
