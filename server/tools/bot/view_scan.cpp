#include "bot/view_scan.hpp"

#include "bot/json_cursor.hpp"
#include "cod/engine/types.hpp"

namespace cod::bot {
namespace {

// One seat of "seats": kept for every seat, as "viewer" comes after "seats"
// (keys are in ascending order).
struct seat_fields {
  int mana = 0;
  int upper_line = 0;
  int lower_line = 0;
  bool has_champion = false;
  bool champion_ready = false;
  int champion_uid = 0;
  std::optional<card_id> champion_id;
};

// Each scan_* reads one value at the cursor; false when it is not the shape
// expected (the caller gives up).

// A key of an object whose members we interpret: an escaped key might decode
// to one of ours, so it is unexpected.
bool plain_key(std::string_view, bool escaped) { return !escaped; }

// Sets bit `b` of `seen`; false when it was already set (a repeated key).
bool first_time(unsigned& seen, unsigned b) {
  if (seen & b) return false;
  seen |= b;
  return true;
}

// "card_id": a catalogue id or null; nullopt when null or unknown (as
// turn_view_from_json).
bool scan_card_id(json_cursor& c, const catalogue& cat, std::optional<card_id>& out) {
  out.reset();
  if (c.take_null()) return true;
  std::string_view s;
  bool escaped = false;
  if (!c.read_string(s, escaped) || escaped) return false;
  out = cat.find(s);
  return true;
}

// {"card_id", "uid"} (a hand card).
bool scan_card(json_cursor& c, const catalogue& cat, turn_view::card& out) {
  if (!c.begin_object()) return false;
  unsigned seen = 0;
  std::string_view key;
  bool escaped = false;
  while (c.next_member(key, escaped)) {
    if (!plain_key(key, escaped)) return false;
    if (key == "card_id") {
      if (!first_time(seen, 1) || !scan_card_id(c, cat, out.id)) return false;
    } else if (key == "uid") {
      if (!first_time(seen, 2) || !c.read_int(out.uid)) return false;
    } else if (!c.skip_value()) {
      return false;
    }
  }
  return c.ok() && seen == 3;
}

// A creature: "abilities" (optional, as has_ability reads it), "card_id",
// "top", "uid".
bool scan_creature(json_cursor& c, const catalogue& cat, int line, turn_view::creature& out) {
  out = {};
  out.line = line;
  if (!c.begin_object()) return false;
  unsigned seen = 0;
  std::string_view key;
  bool escaped = false;
  while (c.next_member(key, escaped)) {
    if (!plain_key(key, escaped)) return false;
    if (key == "abilities") {
      if (!first_time(seen, 8) || !c.begin_array()) return false;
      while (c.next_element()) {
        std::string_view name;
        if (!c.read_string(name, escaped) || escaped) return false;
        if (name == "symbiote") out.symbiote = true;
      }
    } else if (key == "card_id") {
      if (!first_time(seen, 1) || !scan_card_id(c, cat, out.id)) return false;
    } else if (key == "top") {
      if (!first_time(seen, 2)) return false;
      out.top_null = c.take_null();
      if (!out.top_null && !c.skip_value()) return false;
    } else if (key == "uid") {
      if (!first_time(seen, 4) || !c.read_int(out.uid)) return false;
    } else if (!c.skip_value()) {
      return false;
    }
  }
  return c.ok() && (seen & 7) == 7;
}

// {"creatures": [...], "seat": seat | null}: the creatures go to `out` as
// they come; their side's seat, which comes after them, is set at the end.
bool scan_side(json_cursor& c, const catalogue& cat, int line, turn_view& out) {
  if (!c.begin_object()) return false;
  const std::size_t first = out.creatures.size();
  int seat = -1;
  unsigned seen = 0;
  std::string_view key;
  bool escaped = false;
  while (c.next_member(key, escaped)) {
    if (!plain_key(key, escaped)) return false;
    if (key == "creatures") {
      if (!first_time(seen, 1) || !c.begin_array()) return false;
      while (c.next_element()) {
        out.creatures.emplace_back();
        if (!scan_creature(c, cat, line, out.creatures.back())) return false;
      }
    } else if (key == "seat") {
      if (!first_time(seen, 2)) return false;
      if (!c.take_null() && !c.read_int(seat)) return false;
    } else if (!c.skip_value()) {
      return false;
    }
  }
  if (!c.ok() || seen != 3) return false;
  for (std::size_t i = first; i < out.creatures.size(); ++i) out.creatures[i].side_seat = seat;
  return true;
}

// {"sides": [side...]}
bool scan_line(json_cursor& c, const catalogue& cat, int line, turn_view& out) {
  if (!c.begin_object()) return false;
  bool sides = false;
  std::string_view key;
  bool escaped = false;
  while (c.next_member(key, escaped)) {
    if (!plain_key(key, escaped)) return false;
    if (key == "sides") {
      if (sides || !c.begin_array()) return false;
      sides = true;
      while (c.next_element())
        if (!scan_side(c, cat, line, out)) return false;
    } else if (!c.skip_value()) {
      return false;
    }
  }
  return c.ok() && sides;
}

// The Champion: null, or {"card_id", "state", "uid"}.
bool scan_champion(json_cursor& c, const catalogue& cat, seat_fields& out) {
  if (c.take_null()) return true;
  if (!c.begin_object()) return false;
  out.has_champion = true;
  unsigned seen = 0;
  std::string_view key;
  bool escaped = false;
  while (c.next_member(key, escaped)) {
    if (!plain_key(key, escaped)) return false;
    if (key == "card_id") {
      if (!first_time(seen, 1) || !scan_card_id(c, cat, out.champion_id)) return false;
    } else if (key == "state") {
      std::string_view state;
      if (!first_time(seen, 4) || !c.read_string(state, escaped) || escaped) return false;
      out.champion_ready = state == "ready";
    } else if (key == "uid") {
      if (!first_time(seen, 2) || !c.read_int(out.champion_uid)) return false;
    } else if (!c.skip_value()) {
      return false;
    }
  }
  return c.ok() && (seen & 3) == 3;
}

// A seat of "seats": "champion", "lower_line", "mana", "upper_line".
bool scan_seat(json_cursor& c, const catalogue& cat, seat_fields& out) {
  out = {};
  if (!c.begin_object()) return false;
  unsigned seen = 0;
  std::string_view key;
  bool escaped = false;
  while (c.next_member(key, escaped)) {
    if (!plain_key(key, escaped)) return false;
    if (key == "champion") {
      if (!first_time(seen, 1) || !scan_champion(c, cat, out)) return false;
    } else if (key == "lower_line") {
      if (!first_time(seen, 2) || !c.read_int(out.lower_line)) return false;
    } else if (key == "mana") {
      if (!first_time(seen, 4) || !c.read_int(out.mana)) return false;
    } else if (key == "upper_line") {
      if (!first_time(seen, 8) || !c.read_int(out.upper_line)) return false;
    } else if (!c.skip_value()) {
      return false;
    }
  }
  return c.ok() && seen == 15;
}

// A seat number or null (-1); a negative number is unexpected.
bool scan_seat_number(json_cursor& c, int& out) {
  out = -1;
  if (c.take_null()) return true;
  return c.read_int(out) && out >= 0;
}

bool scan_view(json_cursor& c, const catalogue& cat, turn_view& out) {
  out.viewer = -1;
  out.active_seat = -1;
  out.summoning = false;
  out.clear_board();
  seat_fields seats[max_seats];
  int seat_count = 0;
  if (!c.begin_object()) return false;
  enum : unsigned { active_bit = 1, hand_bit = 2, lines_bit = 4, phase_bit = 8, playable_bit = 16, seats_bit = 32,
                    viewer_bit = 64, all_bits = 127 };
  unsigned seen = 0;
  std::string_view key;
  bool escaped = false;
  while (c.next_member(key, escaped)) {
    if (!plain_key(key, escaped)) return false;
    if (key == "active_seat") {
      if (!first_time(seen, active_bit) || !scan_seat_number(c, out.active_seat)) return false;
    } else if (key == "hand") {
      if (!first_time(seen, hand_bit) || !c.begin_array()) return false;
      while (c.next_element()) {
        out.hand.emplace_back();
        if (!scan_card(c, cat, out.hand.back())) return false;
      }
    } else if (key == "lines") {
      if (!first_time(seen, lines_bit) || !c.begin_array()) return false;
      for (int line = 0; c.next_element(); ++line)
        if (!scan_line(c, cat, line, out)) return false;
    } else if (key == "phase") {
      std::string_view phase;
      if (!first_time(seen, phase_bit) || !c.read_string(phase, escaped) || escaped) return false;
      out.summoning = phase == "summoning";
    } else if (key == "playable") {
      if (!first_time(seen, playable_bit) || !c.begin_array()) return false;
      while (c.next_element()) {
        out.playable.emplace_back();
        if (!c.read_int(out.playable.back())) return false;
      }
    } else if (key == "seats") {
      if (!first_time(seen, seats_bit) || !c.begin_array()) return false;
      while (c.next_element())
        if (seat_count == max_seats || !scan_seat(c, cat, seats[seat_count++])) return false;
    } else if (key == "viewer") {
      if (!first_time(seen, viewer_bit) || !scan_seat_number(c, out.viewer)) return false;
    } else if (!c.skip_value()) {
      return false;
    }
  }
  if (!c.ok() || seen != all_bits) return false;
  // As turn_view_from_json: the rest only on the viewer's turn.
  if (!out.my_turn()) {
    out.clear_board();
    return true;
  }
  if (out.viewer >= seat_count) return false;
  const seat_fields& mine = seats[out.viewer];
  out.mana = mine.mana;
  out.upper_line = mine.upper_line;
  out.lower_line = mine.lower_line;
  out.has_champion = mine.has_champion;
  out.champion_ready = mine.champion_ready;
  out.champion_uid = mine.champion_uid;
  out.champion_id = mine.champion_id;
  return true;
}

}  // namespace

bool scan_update_view(std::string_view text, const catalogue& cat, turn_view& out) {
  json_cursor c(text);
  if (!c.begin_object()) return false;
  bool view = false;
  std::string_view key;
  bool escaped = false;
  while (c.next_member(key, escaped)) {
    if (!plain_key(key, escaped)) return false;
    if (key == "view") {
      if (view || !scan_view(c, cat, out)) return false;
      view = true;
    } else if (!c.skip_value()) {
      return false;
    }
  }
  return c.ok() && view && c.at_end();
}

}  // namespace cod::bot
