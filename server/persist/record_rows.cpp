#include "persist/record_rows.hpp"

#include <nlohmann/json.hpp>

#include "common/strcat.hpp"
#include "common/text_forms.hpp"

namespace cod::server::detail {

namespace {

std::vector<int> parse_winners(const std::string& match_id, const std::string& text) {
  auto j = nlohmann::json::parse(text, nullptr, false);
  std::vector<int> out;
  bool ok = j.is_array();
  if (ok)
    for (const auto& v : j) {
      if (!v.is_number_integer()) {
        ok = false;
        break;
      }
      out.push_back(v.get<int>());
    }
  if (!ok) throw persist_error(cat("match ", match_id, ": winners is not a JSON array of seats: ", text));
  return out;
}

}  // namespace

stored_match match_from_row(const row_view& s) {
  stored_match sm;
  match_record& m = sm.match;
  m.match_id = s.text(0);
  m.room_id = s.text(1);
  m.mode = s.text(2);
  m.format = s.text(3);
  m.options_json = s.text(4);
  m.rules_version = s.text(5);
  m.engine_version = static_cast<int>(s.int64(6));
  const std::string seed = s.text(7);
  if (auto v = parse_decimal_u64(seed)) m.seed = *v;
  else throw persist_error(cat("match ", m.match_id, ": seed is not a decimal uint64: ", seed));
  m.seed_hash = s.text(8);
  m.created_ms = s.int64(9);
  m.cards_json = s.text(14);
  m.rated = s.int64(15) != 0;
  if (s.text(10) == "finished") {
    match_result r;
    r.ended_ms = s.is_null(11) ? 0 : s.int64(11);
    r.winners = s.is_null(12) ? std::vector<int>{} : parse_winners(m.match_id, s.text(12));
    r.reason = s.text(13);
    sm.result = std::move(r);
  }
  return sm;
}

match_summary summary_from_row(const row_view& s) {
  stored_match sm = match_from_row(s);
  match_summary m;
  m.match_id = std::move(sm.match.match_id);
  m.room_id = std::move(sm.match.room_id);
  m.mode = std::move(sm.match.mode);
  m.format = std::move(sm.match.format);
  m.status = s.text(10);
  m.created_ms = sm.match.created_ms;
  m.actions = s.int64(16);
  m.result = std::move(sm.result);
  return m;
}

stored_league league_from_row(const row_view& s) {
  stored_league l;
  l.id = s.text(0);
  l.name = s.text(1);
  l.created_ms = s.int64(2);
  l.finished = s.int64(3) != 0;
  l.record_json = s.text(4);
  return l;
}

seat_record seat_from_row(const row_view& s) {
  seat_record r;
  r.seat = static_cast<int>(s.int64(0));
  r.name = s.text(1);
  r.token_hash = s.text(2);
  r.deck_json = s.text(3);
  if (!s.is_null(4)) r.team = static_cast<int>(s.int64(4));
  if (!s.is_null(5)) r.champion = s.text(5);
  r.ai = s.int64(6) != 0;
  if (!s.is_null(7)) r.account_id = s.int64(7);
  return r;
}

action_record action_from_row(const std::string& match_id, const row_view& s) {
  action_record a;
  a.seq = s.int64(0);
  a.seat = static_cast<int>(s.int64(1));
  a.action_json = s.text(2);
  const std::string digest = s.text(3);
  if (auto v = parse_digest_hex(digest)) a.digest = *v;
  else throw persist_error(cat("match ", match_id, " seq ", a.seq, ": digest is not 16 hex digits: ", digest));
  a.at_ms = s.int64(4);
  return a;
}

draft_event_record draft_from_row(const row_view& s) {
  draft_event_record r;
  r.seq = s.int64(0);
  r.seat = static_cast<int>(s.int64(1));
  r.kind = s.text(2);
  r.cards_json = s.text(3);
  r.at_ms = s.int64(4);
  return r;
}

note_record note_from_row(const row_view& s) { return {s.int64(0), s.text(1)}; }

audit_record audit_from_row(const row_view& s) {
  return {s.int64(0), s.text(1), s.text(2), s.text(3), s.text(4), s.text(5)};
}

rating_record rating_from_row(const row_view& s) {
  rating_record r;
  r.account_id = s.int64(0);
  r.ladder = s.text(1);
  r.r = {s.real(2), s.real(3), s.is_null(4) ? 0 : s.real(4)};
  r.display = s.real(5);
  r.games = s.int64(6);
  r.wins = s.int64(7);
  r.losses = s.int64(8);
  r.last_ms = s.int64(9);
  return r;
}

rating_change_record rating_change_from_row(const row_view& s) {
  rating_change_record c;
  c.match_id = s.text(0);
  c.seat = static_cast<int>(s.int64(1));
  c.account_id = s.int64(2);
  c.ladder = s.text(3);
  c.ended_ms = s.int64(4);
  c.before = {s.real(5), s.real(6), s.is_null(7) ? 0 : s.real(7)};
  c.before_last_ms = s.int64(8);
  c.after = {s.real(9), s.real(10), s.is_null(11) ? 0 : s.real(11)};
  c.delta = s.real(12);
  return c;
}

}  // namespace cod::server::detail
