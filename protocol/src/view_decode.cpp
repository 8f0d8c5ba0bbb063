// view_from_json: a view's JSON back into a seat_view (view_decode.hpp).
//
// One reader walks the document with the path of where it is; the first
// thing wrong becomes the error and every later read is skipped, so the
// functions below read straight through without checking after each field.
// Every access checks the JSON type first: nothing here throws.
#include "cod/protocol/view_decode.hpp"

#include <cstdint>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "cod/protocol/wire_names.hpp"
#include "field_reader.hpp"

namespace cod::protocol {
namespace {

using json = nlohmann::json;
using detail::cat;
using detail::in_quotes;

// Wide enough for any value the engine holds in an int (health, mana, av...);
// the engine checks its own ranges when it builds a match from a view.
inline constexpr std::int64_t any_int = 1'000'000;

class reader {
 public:
  reader(const catalogue& cards, std::optional<protocol_error>& error) : cards_(cards), error_(error) {}

  bool failed() const { return error_.has_value(); }

  // The member `key` of `obj`; null (and an error) when it is missing.
  const json* need(const json& obj, const std::string& at, const char* key) {
    if (failed()) return nullptr;
    if (const json* v = detail::find(obj, key)) return v;
    fail(protocol_errc::missing_field, path(at, key), cat("the view needs ", in_quotes(path(at, key))));
    return nullptr;
  }
  // An optional member: null when absent (or after an error).
  const json* maybe(const json& obj, const char* key) {
    if (failed()) return nullptr;
    return detail::find(obj, key);
  }

  // Each reader below leaves `out` as it is on error.
  bool object(const json& v, const std::string& field) {
    if (failed()) return false;
    if (v.is_object()) return true;
    return fail(protocol_errc::bad_field_type, field, cat(in_quotes(field), " must be an object"));
  }
  bool array(const json& v, const std::string& field, std::size_t max_size) {
    if (failed()) return false;
    if (!v.is_array()) return fail(protocol_errc::bad_field_type, field, cat(in_quotes(field), " must be an array"));
    if (v.size() > max_size)
      return fail(protocol_errc::bad_field_value, field,
                  cat(in_quotes(field), " holds more than ", detail::num(static_cast<std::int64_t>(max_size))));
    return true;
  }
  template <class Int>
  void integer(const json& v, const std::string& field, std::int64_t lo, std::int64_t hi, Int& out) {
    if (failed()) return;
    std::int64_t wide = 0;
    if (auto e = detail::read_int(v, field, lo, hi, wide)) error_ = std::move(e);
    else out = static_cast<Int>(wide);
  }
  void boolean(const json& v, const std::string& field, bool& out) {
    if (failed()) return;
    if (auto e = detail::read_bool(v, field, out)) error_ = std::move(e);
  }
  // A seat 0..3, or null (no_seat) when `nullable`.
  void seat(const json& v, const std::string& field, bool nullable, seat_t& out) {
    if (failed()) return;
    if (nullable && v.is_null()) {
      out = no_seat;
      return;
    }
    integer(v, field, 0, max_seats - 1, out);
  }
  // A name among `count` enum values, named by `name_of`.
  template <class Enum, class NameOf>
  void name(const json& v, const std::string& field, int count, NameOf name_of, Enum& out) {
    if (failed()) return;
    if (!v.is_string()) {
      fail(protocol_errc::bad_field_type, field, cat(in_quotes(field), " must be a string"));
      return;
    }
    const auto& text = v.get_ref<const std::string&>();
    for (int i = 0; i < count; ++i)
      if (name_of(static_cast<Enum>(i)) == text) {
        out = static_cast<Enum>(i);
        return;
      }
    fail(protocol_errc::bad_field_value, field, cat(in_quotes(field), " cannot be ", in_quotes(text)));
  }
  // A catalogue id (null: no_card, a card the viewer may not know).
  void card_id_of(const json& v, const std::string& field, card_id& out) {
    if (failed()) return;
    if (v.is_null()) {
      out = no_card;
      return;
    }
    if (!v.is_string()) {
      fail(protocol_errc::bad_field_type, field, cat(in_quotes(field), " must be a card id or null"));
      return;
    }
    const auto& id = v.get_ref<const std::string&>();
    if (auto c = cards_.find(id)) out = *c;
    else fail(protocol_errc::bad_field_value, field, cat(in_quotes(id), " is no card of the catalogue"));
  }
  void uid(const json& v, const std::string& field, card_uid& out) { integer(v, field, 0, max_uids - 1, out); }

  // {"uid", "card_id"}
  void card(const json& v, const std::string& at, card_ref& out) {
    if (!object(v, at)) return;
    if (const json* u = need(v, at, "uid")) uid(*u, path(at, "uid"), out.uid);
    if (const json* c = need(v, at, "card_id")) card_id_of(*c, path(at, "card_id"), out.card);
  }
  void cards(const json& v, const std::string& field, std::size_t max_size, std::vector<card_ref>& out) {
    out.clear();
    if (!array(v, field, max_size)) return;
    out.resize(v.size());
    for (std::size_t i = 0; i < v.size() && !failed(); ++i) card(v[i], index(field, i), out[i]);
  }

  // Records the first error; false, so that callers can return it.
  bool fail(protocol_errc code, const std::string& field, std::string message) {
    if (!failed()) error_ = detail::err(code, field, std::move(message));
    return false;
  }

  static std::string path(const std::string& at, std::string_view key) {
    return at.empty() ? std::string(key) : cat(at, ".", key);
  }
  static std::string index(const std::string& at, std::size_t i) {
    return cat(at, "[", std::to_string(i), "]");
  }

 private:
  const catalogue& cards_;
  std::optional<protocol_error>& error_;
};

// The enum names the wire uses, as functions of an enum value.
std::string_view phase_of(phase p) { return protocol::phase_name(p); }
std::string_view reason_of(end_reason r) { return protocol::end_reason_name(r); }
std::string_view side_of(stronghold_side s) { return stronghold_side_name(s); }
std::string_view champion_of(champion_status c) { return champion_status_name(c); }
std::string_view mode_of(game_mode m) { return game_mode_name(m); }
std::string_view ability_of(ability a) { return ability_name(a); }

void read_abilities(reader& r, const json& v, const std::string& field, ability_set& out) {
  out = 0;
  if (!r.array(v, field, ability_count)) return;
  for (std::size_t i = 0; i < v.size(); ++i) {
    ability a = ability::aerial;
    r.name(v[i], reader::index(field, i), ability_count, ability_of, a);
    out |= bit(a);
  }
}

// `across`: the seat on the other side of the creature's line, whose hand a
// chained card came from when the view does not say (an older server).
void read_creature(reader& r, const json& v, const std::string& at, seat_t across, creature_view& out) {
  if (!r.object(v, at)) return;
  using P = reader;
  if (const json* x = r.need(v, at, "uid")) r.uid(*x, P::path(at, "uid"), out.uid);
  if (const json* x = r.need(v, at, "card_id")) r.card_id_of(*x, P::path(at, "card_id"), out.card);
  if (const json* x = r.need(v, at, "top")) {
    if (x->is_null()) out.top = card_ref{};
    else r.card(*x, P::path(at, "top"), out.top);
  }
  if (const json* x = r.need(v, at, "chained")) r.cards(*x, P::path(at, "chained"), 2, out.chained);
  out.chained_from.assign(out.chained.size(), across);
  if (const json* x = r.maybe(v, "chained_from")) {
    const std::string field = P::path(at, "chained_from");
    if (r.array(*x, field, 2)) {
      if (x->size() != out.chained.size()) {
        r.fail(protocol_errc::bad_field_value, field, cat(in_quotes(field), " must name one seat per chained card"));
        return;
      }
      for (std::size_t i = 0; i < x->size(); ++i) r.seat((*x)[i], P::index(field, i), false, out.chained_from[i]);
    }
  }
  if (const json* x = r.need(v, at, "av")) r.integer(*x, P::path(at, "av"), -any_int, any_int, out.av);
  if (const json* x = r.need(v, at, "hp")) r.integer(*x, P::path(at, "hp"), -any_int, any_int, out.hp);
  if (const json* x = r.need(v, at, "damage")) r.integer(*x, P::path(at, "damage"), 0, any_int, out.damage);
  if (const json* x = r.need(v, at, "bonus_av")) r.integer(*x, P::path(at, "bonus_av"), -any_int, any_int, out.bonus_av);
  if (const json* x = r.need(v, at, "abilities")) read_abilities(r, *x, P::path(at, "abilities"), out.abilities);
  if (const json* x = r.need(v, at, "entered_this_turn"))
    r.boolean(*x, P::path(at, "entered_this_turn"), out.entered_this_turn);
  if (const json* x = r.need(v, at, "attacked")) r.boolean(*x, P::path(at, "attacked"), out.attacked);
  if (const json* x = r.need(v, at, "protection_used")) r.boolean(*x, P::path(at, "protection_used"), out.protection_used);
  out.sharpening_spent = false;
  if (const json* x = r.maybe(v, "sharpening_spent")) r.boolean(*x, P::path(at, "sharpening_spent"), out.sharpening_spent);
}

void read_lines(reader& r, const json& v, std::vector<line_view>& out) {
  const std::string field = "lines";
  out.clear();
  if (!r.array(v, field, max_lines)) return;
  out.resize(v.size());
  for (std::size_t l = 0; l < v.size() && !r.failed(); ++l) {
    const std::string at = reader::index(field, l);
    if (!r.object(v[l], at)) return;
    const json* sides = r.need(v[l], at, "sides");
    const std::string sides_at = reader::path(at, "sides");
    if (!sides || !r.array(*sides, sides_at, 2)) return;
    if (sides->size() != 2) {
      r.fail(protocol_errc::bad_field_value, sides_at, cat(in_quotes(sides_at), " must hold two sides"));
      return;
    }
    // The seats first: a chained card's default owner is the seat across.
    for (int d = 0; d < 2; ++d) {
      const std::string side_at = reader::index(sides_at, static_cast<std::size_t>(d));
      if (!r.object((*sides)[d], side_at)) return;
      if (const json* s = r.need((*sides)[d], side_at, "seat"))
        r.seat(*s, reader::path(side_at, "seat"), true, out[l].sides[d].seat);
    }
    for (int d = 0; d < 2 && !r.failed(); ++d) {
      const std::string side_at = reader::index(sides_at, static_cast<std::size_t>(d));
      const json* creatures = r.need((*sides)[d], side_at, "creatures");
      const std::string creatures_at = reader::path(side_at, "creatures");
      if (!creatures || !r.array(*creatures, creatures_at, max_side)) return;
      auto& row = out[l].sides[d].creatures;
      row.resize(creatures->size());
      for (std::size_t i = 0; i < row.size() && !r.failed(); ++i)
        read_creature(r, (*creatures)[i], reader::index(creatures_at, i), out[l].sides[1 - d].seat, row[i]);
    }
  }
}

void read_seat(reader& r, const json& v, const std::string& at, std::size_t index, seat_public& out) {
  if (!r.object(v, at)) return;
  using P = reader;
  if (const json* x = r.need(v, at, "seat")) {
    // seats is indexed by seat.
    int seat = -1;
    const auto i = static_cast<std::int64_t>(index);
    r.integer(*x, P::path(at, "seat"), i, i, seat);
  }
  if (const json* x = r.need(v, at, "hand_size")) r.integer(*x, P::path(at, "hand_size"), 0, max_hand, out.hand_size);
  if (const json* x = r.need(v, at, "stronghold_pos"))
    r.integer(*x, P::path(at, "stronghold_pos"), 0, max_hand, out.stronghold_pos);
  if (const json* x = r.need(v, at, "side")) r.name(*x, P::path(at, "side"), 2, side_of, out.side);
  if (const json* x = r.need(v, at, "health")) r.integer(*x, P::path(at, "health"), -any_int, any_int, out.health);
  if (const json* x = r.need(v, at, "mana")) r.integer(*x, P::path(at, "mana"), -any_int, any_int, out.mana);
  if (const json* x = r.need(v, at, "upper_line"))
    r.integer(*x, P::path(at, "upper_line"), 0, max_lines - 1, out.upper_line);
  if (const json* x = r.need(v, at, "lower_line"))
    r.integer(*x, P::path(at, "lower_line"), 0, max_lines - 1, out.lower_line);
  if (const json* x = r.need(v, at, "champion")) {
    out.champion = champion_view{};
    const std::string c_at = P::path(at, "champion");
    if (!x->is_null() && r.object(*x, c_at)) {
      if (const json* u = r.need(*x, c_at, "uid")) r.uid(*u, P::path(c_at, "uid"), out.champion.uid);
      if (const json* c = r.need(*x, c_at, "card_id")) r.card_id_of(*c, P::path(c_at, "card_id"), out.champion.card);
      if (const json* s = r.need(*x, c_at, "state"))
        r.name(*s, P::path(c_at, "state"), 4, champion_of, out.champion.state);
    }
  }
  out.ai = false;
  if (const json* x = r.maybe(v, "ai")) r.boolean(*x, P::path(at, "ai"), out.ai);
  out.deck_size = 0;
  if (const json* x = r.maybe(v, "deck_size")) r.integer(*x, P::path(at, "deck_size"), 0, max_uids, out.deck_size);
  out.discard.clear();
  if (const json* x = r.maybe(v, "discard")) r.cards(*x, P::path(at, "discard"), max_uids, out.discard);
}

void read_card_lists(reader& r, const json& v, const char* key, std::vector<std::vector<card_ref>>& out) {
  out.clear();
  const json* x = r.maybe(v, key);
  if (!x || !r.array(*x, key, max_seats)) return;
  out.resize(x->size());
  for (std::size_t i = 0; i < x->size(); ++i) r.cards((*x)[i], reader::index(key, i), max_uids, out[i]);
}

}  // namespace

std::optional<protocol_error> view_from_json(const json& j, const catalogue& cat, seat_view& out,
                                             int stall_exhaustion_turn) {
  std::optional<protocol_error> error;
  reader r(cat, error);
  out = seat_view{};
  if (!r.object(j, "view")) return error;

  // Who it is for: a seat ("player"), a spectator or the referee.
  std::string_view role;
  if (const json* x = r.need(j, "", "role")) {
    if (!x->is_string()) r.fail(protocol_errc::bad_field_type, "role", "\"role\" must be a string");
    else role = x->get_ref<const std::string&>();
    if (!r.failed() && role != "player" && role != "spectator" && role != "referee")
      r.fail(protocol_errc::bad_field_value, "role", "\"role\" must be player, spectator or referee");
  }
  if (const json* x = r.need(j, "", "viewer")) {
    // A player's view names its seat; the others' viewer is null.
    if (role == "player") r.seat(*x, "viewer", false, out.viewer);
    else if (!x->is_null()) r.fail(protocol_errc::bad_field_value, "viewer", "\"viewer\" must be null but for a player");
    else out.viewer = role == "referee" ? referee : spectator;
  }
  if (const json* x = r.need(j, "", "mode")) r.name(*x, "mode", 5, mode_of, out.mode);
  if (const json* x = r.need(j, "", "exhaustion_rule")) r.boolean(*x, "exhaustion_rule", out.exhaustion_rule);
  if (const json* x = r.need(j, "", "exhausted")) r.boolean(*x, "exhausted", out.exhausted);
  out.stall_exhaustion_turn = stall_exhaustion_turn;
  if (const json* x = r.maybe(j, "stall_exhaustion_turn"))
    r.integer(*x, "stall_exhaustion_turn", 0, max_stall_exhaustion_turn, out.stall_exhaustion_turn);
  if (const json* x = r.need(j, "", "turn")) r.integer(*x, "turn", 0, 65535, out.turn);
  if (const json* x = r.need(j, "", "round")) r.integer(*x, "round", 0, 65535, out.round);
  if (const json* x = r.need(j, "", "first_seat")) r.seat(*x, "first_seat", true, out.first_seat);
  if (const json* x = r.need(j, "", "active_seat")) r.seat(*x, "active_seat", true, out.active_seat);
  if (const json* x = r.need(j, "", "phase")) r.name(*x, "phase", 2, phase_of, out.current_phase);
  if (const json* x = r.need(j, "", "winners"); x && r.array(*x, "winners", max_seats)) {
    for (std::size_t i = 0; i < x->size(); ++i) {
      seat_t s = no_seat;
      r.seat((*x)[i], reader::index("winners", i), false, s);
      if (!r.failed()) out.winners = static_cast<std::uint8_t>(out.winners | (1U << s));
    }
  }
  if (const json* x = r.need(j, "", "loser")) r.seat(*x, "loser", true, out.loser);
  if (const json* x = r.need(j, "", "reason")) r.name(*x, "reason", 4, reason_of, out.reason);

  if (const json* x = r.need(j, "", "seats"); x && r.array(*x, "seats", max_seats)) {
    if (x->size() < 2) r.fail(protocol_errc::bad_field_value, "seats", "\"seats\" must hold 2 to 4 seats");
    out.seats.resize(x->size());
    for (std::size_t s = 0; s < x->size() && !r.failed(); ++s)
      read_seat(r, (*x)[s], reader::index("seats", s), s, out.seats[s]);
  }
  if (const json* x = r.need(j, "", "lines")) read_lines(r, *x, out.lines);
  if (const json* x = r.need(j, "", "removed")) r.cards(*x, "removed", max_uids, out.removed);
  if (const json* x = r.need(j, "", "hand")) r.cards(*x, "hand", max_hand, out.hand);
  if (const json* x = r.need(j, "", "playable"); x && r.array(*x, "playable", max_hand + 1)) {
    out.playable.resize(x->size());
    for (std::size_t i = 0; i < x->size(); ++i) r.uid((*x)[i], reader::index("playable", i), out.playable[i]);
  }
  // R11.6, 2v2: the teammate, and its hand with share_team_hands.
  if (const json* x = r.maybe(j, "share_team_hands")) r.boolean(*x, "share_team_hands", out.share_team_hands);
  if (const json* x = r.maybe(j, "teammate")) r.seat(*x, "teammate", true, out.teammate);
  if (const json* x = r.maybe(j, "teammate_hand")) r.cards(*x, "teammate_hand", max_hand, out.teammate_hand);
  // The referee's (admins' replays): every hand, every AI deck.
  read_card_lists(r, j, "all_hands", out.all_hands);
  read_card_lists(r, j, "ai_decks", out.ai_decks);
  return error;
}

}  // namespace cod::protocol
