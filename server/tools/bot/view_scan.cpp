#include "bot/view_scan.hpp"

#include "bot/json_cursor.hpp"
#include "cod/engine/types.hpp"

namespace cod::bot {
namespace {

// One seat of "seats": kept for every seat, as "viewer" comes after "seats"
// (keys are in ascending order).
using seat_fields = turn_view::seat;

// Each scan_* reads one value at the cursor; false when it is not the shape
// expected (the caller gives up).

// The members of the object at the cursor, of which we know `keys`:
// read(i) reads the value of keys[i] (false: not the shape expected), the
// value of any other key is skipped. False as well on a repeated key, on an
// escaped one (it might decode to one of ours), or when a key whose bit is
// in `required` (bit i for keys[i]) is missing.
template <std::size_t N, class Read>
bool scan_members(json_cursor& c, const std::string_view (&keys)[N], unsigned required, Read&& read) {
  static_assert(N <= 32);
  if (!c.begin_object()) return false;
  unsigned seen = 0;
  std::string_view key;
  bool escaped = false;
  while (c.next_member(key, escaped)) {
    if (escaped) return false;
    std::size_t i = 0;
    while (i < N && keys[i] != key) ++i;
    if (i == N) {
      if (!c.skip_value()) return false;
      continue;
    }
    if (seen & (1u << i)) return false;
    seen |= 1u << i;
    if (!read(i)) return false;
  }
  return c.ok() && (seen & required) == required;
}

// Every key of `keys` required.
template <std::size_t N>
constexpr unsigned all_of(const std::string_view (&)[N]) {
  return static_cast<unsigned>((1ull << N) - 1);
}

// A string without escapes (the values we compare are plain words).
bool read_plain_string(json_cursor& c, std::string_view& out) {
  bool escaped = false;
  return c.read_string(out, escaped) && !escaped;
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
  static constexpr std::string_view keys[] = {"card_id", "uid"};
  return scan_members(c, keys, all_of(keys), [&](std::size_t k) {
    return k == 0 ? scan_card_id(c, cat, out.id) : c.read_int(out.uid);
  });
}

// A creature: "abilities" (optional, as has_ability reads it), "card_id",
// "top", "uid".
bool scan_creature(json_cursor& c, const catalogue& cat, int line, turn_view::creature& out) {
  out = {};
  out.line = line;
  static constexpr std::string_view keys[] = {"card_id", "top", "uid", "abilities"};
  return scan_members(c, keys, 0b0111, [&](std::size_t k) {
    switch (k) {
      case 0: return scan_card_id(c, cat, out.id);
      case 1: out.top_null = c.take_null(); return out.top_null || c.skip_value();
      case 2: return c.read_int(out.uid);
      default:
        if (!c.begin_array()) return false;
        while (c.next_element()) {
          std::string_view name;
          if (!read_plain_string(c, name)) return false;
          if (name == "symbiote") out.symbiote = true;
        }
        return true;
    }
  });
}

// {"creatures": [...], "seat": seat | null}: the creatures go to `out` as
// they come; their side's seat, which comes after them, is set at the end.
bool scan_side(json_cursor& c, const catalogue& cat, int line, turn_view& out) {
  const std::size_t first = out.creatures.size();
  int seat = -1;
  static constexpr std::string_view keys[] = {"creatures", "seat"};
  const bool ok = scan_members(c, keys, all_of(keys), [&](std::size_t k) {
    if (k == 1) return c.take_null() || c.read_int(seat);
    if (!c.begin_array()) return false;
    while (c.next_element()) {
      out.creatures.emplace_back();
      if (!scan_creature(c, cat, line, out.creatures.back())) return false;
    }
    return true;
  });
  if (!ok) return false;
  for (std::size_t i = first; i < out.creatures.size(); ++i) out.creatures[i].side_seat = seat;
  return true;
}

// {"sides": [side...]}
bool scan_line(json_cursor& c, const catalogue& cat, int line, turn_view& out) {
  static constexpr std::string_view keys[] = {"sides"};
  return scan_members(c, keys, all_of(keys), [&](std::size_t) {
    if (!c.begin_array()) return false;
    while (c.next_element())
      if (!scan_side(c, cat, line, out)) return false;
    return true;
  });
}

// The Champion: null, or {"card_id", "state", "uid"}.
bool scan_champion(json_cursor& c, const catalogue& cat, seat_fields& out) {
  if (c.take_null()) return true;
  out.has_champion = true;
  static constexpr std::string_view keys[] = {"card_id", "uid", "state"};
  return scan_members(c, keys, 0b011, [&](std::size_t k) {
    if (k == 0) return scan_card_id(c, cat, out.champion_id);
    if (k == 1) return c.read_int(out.champion_uid);
    std::string_view state;
    if (!read_plain_string(c, state)) return false;
    out.champion_ready = state == "ready";
    return true;
  });
}

// A seat of "seats": "champion", "lower_line", "mana", "upper_line".
bool scan_seat(json_cursor& c, const catalogue& cat, seat_fields& out) {
  out = {};
  static constexpr std::string_view keys[] = {"champion", "lower_line", "mana", "upper_line"};
  return scan_members(c, keys, all_of(keys), [&](std::size_t k) {
    switch (k) {
      case 0: return scan_champion(c, cat, out);
      case 1: return c.read_int(out.lower_line);
      case 2: return c.read_int(out.mana);
      default: return c.read_int(out.upper_line);
    }
  });
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
  static constexpr std::string_view keys[] = {"active_seat", "hand", "lines", "phase", "playable", "seats",
                                              "viewer"};
  const bool ok = scan_members(c, keys, all_of(keys), [&](std::size_t k) {
    switch (k) {
      case 0: return scan_seat_number(c, out.active_seat);
      case 1:
        if (!c.begin_array()) return false;
        while (c.next_element()) {
          out.hand.emplace_back();
          if (!scan_card(c, cat, out.hand.back())) return false;
        }
        return true;
      case 2:
        if (!c.begin_array()) return false;
        for (int line = 0; c.next_element(); ++line)
          if (!scan_line(c, cat, line, out)) return false;
        return true;
      case 3: {
        std::string_view phase;
        if (!read_plain_string(c, phase)) return false;
        out.summoning = phase == "summoning";
        return true;
      }
      case 4:
        if (!c.begin_array()) return false;
        while (c.next_element()) {
          out.playable.emplace_back();
          if (!c.read_int(out.playable.back())) return false;
        }
        return true;
      case 5:
        if (!c.begin_array()) return false;
        while (c.next_element())
          if (seat_count == max_seats || !scan_seat(c, cat, seats[seat_count++])) return false;
        return true;
      default: return scan_seat_number(c, out.viewer);
    }
  });
  if (!ok) return false;
  // As turn_view_from_json: the rest only on the viewer's turn.
  if (!out.my_turn()) {
    out.clear_board();
    return true;
  }
  if (out.viewer >= seat_count) return false;
  out.me = seats[out.viewer];
  return true;
}

}  // namespace

bool scan_update_view(std::string_view text, const catalogue& cat, turn_view& out) {
  json_cursor c(text);
  static constexpr std::string_view keys[] = {"view"};
  return scan_members(c, keys, all_of(keys), [&](std::size_t) { return scan_view(c, cat, out); }) && c.at_end();
}

}  // namespace cod::bot
