#include "replay/draft_log.hpp"

#include <nlohmann/json.hpp>

#include "cod/protocol/messages.hpp"
#include "common/strcat.hpp"

namespace cod::server {

using detail::cat;
using nlohmann::json;

namespace {

std::string ids_json(const catalogue& cards, const std::vector<card_id>& list) {
  json a = json::array();
  for (card_id c : list) a.push_back(cards.def(c).id);
  return a.dump();
}

draft_event_record row(std::int64_t& seq, int seat, const char* kind, std::string cards, std::int64_t at_ms) {
  draft_event_record r;
  r.seq = seq++;
  r.seat = seat;
  r.kind = kind;
  r.cards_json = std::move(cards);
  r.at_ms = at_ms;
  return r;
}

}  // namespace

std::vector<draft_event_record> draft_rows(const catalogue& cards, const draft& d, const draft_pick* pick,
                                           std::span<const draft_event> events, std::int64_t& next_seq,
                                           std::int64_t at_ms) {
  std::vector<draft_event_record> out;
  if (pick) {
    std::vector<card_id> named = pick->cards;
    // choose_deck (preconstructed, R14.1): the deck's cards name it.
    if (pick->type == draft_pick_type::choose_deck) named = cards.preconstructed_deck(pick->deck);
    out.push_back(row(next_seq, pick->seat, "pick", ids_json(cards, named), at_ms));
  }
  const int seats = d.state().seat_count;
  for (const draft_event& e : events) {
    if (e.type == draft_event_type::revealed) {
      // R14.2: face up for everyone at the table.
      const std::string list = ids_json(cards, e.cards);
      for (int s = 0; s < seats; ++s) out.push_back(row(next_seq, s, "reveal", list, at_ms));
    } else if (e.type == draft_event_type::list_revealed) {
      const auto& st = d.state().seats[static_cast<std::size_t>(e.seat)];
      const std::string list = ids_json(cards, st.list);
      for (int s = 0; s < seats; ++s)
        if (s != e.seat) out.push_back(row(next_seq, s, "reveal", list, at_ms));
    }
  }
  return out;
}

bool is_drafted_record(const match_record& m) {
  const auto f = protocol::deck_format_from_name(m.format);
  return f && protocol::is_drafted(*f);
}

status draft_config_from_record(const match_record& m, draft_config& out) {
  out = draft_config{};
  const auto f = protocol::deck_format_from_name(m.format);
  const auto mode = game_mode_from_name(m.mode);
  if (!f || !protocol::is_drafted(*f) || !mode) {
    return status::invalid(cat("match ", m.match_id, ": not a drafted match (", m.mode, ", ", m.format, ")"));
  }
  out.format = *f == protocol::deck_format::draft ? draft_format::draft : draft_format::instant_constructed;
  out.table = protocol::draft_table_of(*mode);
  out.seed = m.seed;
  const auto opts_json = json::parse(m.options_json.empty() ? std::string("{}") : m.options_json, nullptr, false);
  protocol::room_options opts;
  if (opts_json.is_discarded() || protocol::stored_room_options_from_json(opts_json, opts)) {
    return status::invalid(cat("match ", m.match_id, ": options_json cannot be read: ", m.options_json));
  }
  out.packs = opts.packs;
  return status::ok();
}

draft_replay replay_draft_log(const catalogue& cards, const stored_match& sm) {
  draft_replay r;
  draft_config cfg;
  if (const status s = draft_config_from_record(sm.match, cfg); !s) {
    r.error = s.message();
    return r;
  }
  // R13.1, RULING E67: the seats' Champions were withheld from the pool.
  for (const seat_record& s : sm.match.seats) {
    if (s.champion.empty()) continue;
    const auto c = cards.find(s.champion);
    if (!c) {
      r.error = cat("match ", sm.match.match_id, " seat ", s.seat, ": unknown Champion '", s.champion, "'");
      return r;
    }
    cfg.withheld.push_back(*c);
  }
  std::vector<draft_event> events;
  if (auto e = draft::create(cards, cfg, r.d, events); e != draft_error::ok) {
    r.error = cat("match ", sm.match.match_id, ": the engine refuses the draft: ", draft_error_name(e));
    return r;
  }
  std::int64_t seq = 1;
  std::vector<draft_event_record> expected = draft_rows(cards, r.d, nullptr, events, seq, 0);
  std::size_t next_expected = 0;  // in `expected`
  for (std::size_t i = 0; i < sm.draft.size(); ++i) {
    const draft_event_record& row = sm.draft[i];
    const std::string where = cat("draft seq ", row.seq, " (seat ", row.seat, ", ", row.kind, " ", row.cards_json, ")");
    if (row.seq != static_cast<std::int64_t>(i) + 1) {
      r.error = cat(where, ": expected seq ", i + 1, " (the draft log has a hole or is out of order)");
      return r;
    }
    if (next_expected < expected.size()) {
      // A reveal the engine made: the same seat and cards.
      const draft_event_record& want = expected[next_expected++];
      if (row.kind != "reveal" || row.seat != want.seat || row.cards_json != want.cards_json) {
        r.error = cat(where, ": the replay reveals ", want.cards_json, " to seat ", want.seat, " here");
        return r;
      }
      ++r.reveals;
      continue;
    }
    if (row.kind != "pick") {
      r.error = cat(where, ": a reveal the replay does not make");
      return r;
    }
    // The kind of pick the seat is waiting for (one at a time).
    draft_pick p;
    p.seat = static_cast<seat_t>(row.seat);
    bool waited = false;
    for (const draft_turn& t : r.d.waiting())
      if (t.seat == p.seat) {
        p.type = t.type;
        waited = true;
      }
    if (!waited) {
      r.error = cat(where, ": the draft does not wait for that seat");
      return r;
    }
    const auto list = json::parse(row.cards_json, nullptr, false);
    if (!list.is_array()) {
      r.error = cat(where, ": cards_json is not an array");
      return r;
    }
    for (const json& c : list) {
      const auto id = c.is_string() ? cards.find(c.get<std::string>()) : std::nullopt;
      if (!id) {
        r.error = cat(where, ": unknown card ", c.dump());
        return r;
      }
      p.cards.push_back(*id);
    }
    if (p.type == draft_pick_type::choose_deck) {
      p.deck = p.cards.empty() ? 0 : cards.def(p.cards.front()).deck;
      p.cards.clear();
    }
    events.clear();
    if (auto e = r.d.apply(p, events); e != draft_error::ok) {
      r.error = cat(where, ": the engine rejects it: ", draft_error_name(e));
      return r;
    }
    ++r.picks;
    std::int64_t s2 = row.seq;
    expected = draft_rows(cards, r.d, &p, events, s2, 0);
    next_expected = 1;  // [0] is the pick itself
    if (expected.front().cards_json != row.cards_json) {
      r.error = cat(where, ": stored cards differ from the pick's");
      return r;
    }
  }
  if (next_expected < expected.size()) {
    r.error = cat("the draft log ends before the reveal of ", expected[next_expected].cards_json, " to seat ",
                  expected[next_expected].seat);
    return r;
  }
  r.ok = true;
  return r;
}

}  // namespace cod::server
