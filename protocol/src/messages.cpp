// Client messages: the strict parser and the wire form (messages.hpp).
//
// Order of checks, so that a client sees the most useful error first: size,
// nesting, JSON syntax, object shape, "id" (so every later error can echo it),
// "type", unknown fields, then each field in a fixed order.
#include <exception>
#include <initializer_list>
#include <limits>
#include <string>

#include "cod/protocol/messages.hpp"
#include "cod/protocol/names.hpp"
#include "cod/protocol/wire_names.hpp"
#include "json_util.hpp"

namespace cod::protocol {
namespace {

using json = nlohmann::json;
using perr = std::optional<protocol_error>;

// Builds a message from pieces without `"literal" + std::string` (g++ 12's
// false -Wrestrict).
template <class... Parts>
std::string cat(const Parts&... parts) {
  std::string s;
  (s.append(parts), ...);
  return s;
}

std::string num(std::int64_t v) { return std::to_string(v); }

protocol_error err(protocol_errc code, std::string field, std::string message) {
  return protocol_error{code, std::move(field), std::move(message)};
}

std::string in_quotes(std::string_view s) { return cat("\"", s, "\""); }

const json* find(const json& obj, const char* key) {
  auto it = obj.find(key);
  return it == obj.end() ? nullptr : &*it;
}

// Every key of `obj` must be in `allowed`; `what` names the object in messages.
perr check_keys(const json& obj, std::initializer_list<std::string_view> allowed,
                const std::string& prefix, std::string_view what) {
  for (auto it = obj.begin(); it != obj.end(); ++it) {
    bool ok = false;
    for (std::string_view a : allowed) ok = ok || it.key() == a;
    if (!ok)
      return err(protocol_errc::unknown_field, cat(prefix, it.key()),
                 cat(in_quotes(it.key()), " is not a field of ", what));
  }
  return std::nullopt;
}

perr missing(const std::string& field, std::string_view what) {
  return err(protocol_errc::missing_field, field, cat(what, " needs ", in_quotes(field)));
}

// An integer in [lo, hi].
perr read_int(const json& v, const std::string& field, std::int64_t lo, std::int64_t hi,
              std::int64_t& out) {
  if (!v.is_number_integer())
    return err(protocol_errc::bad_field_type, field, cat(in_quotes(field), " must be an integer"));
  const bool in_range =
      v.is_number_unsigned()
          ? v.get<std::uint64_t>() <= static_cast<std::uint64_t>(hi) && hi >= 0 &&
                static_cast<std::int64_t>(v.get<std::uint64_t>()) >= lo
          : v.get<std::int64_t>() >= lo && v.get<std::int64_t>() <= hi;
  if (!in_range)
    return err(protocol_errc::bad_field_value, field,
               cat(in_quotes(field), " must be from ", num(lo), " to ", num(hi)));
  out = v.get<std::int64_t>();
  return std::nullopt;
}

perr read_int(const json& v, const std::string& field, std::int64_t lo, std::int64_t hi, int& out) {
  std::int64_t wide = 0;
  if (auto e = read_int(v, field, lo, hi, wide)) return e;
  out = static_cast<int>(wide);
  return std::nullopt;
}

perr read_bool(const json& v, const std::string& field, bool& out) {
  if (!v.is_boolean())
    return err(protocol_errc::bad_field_type, field, cat(in_quotes(field), " must be true or false"));
  out = v.get<bool>();
  return std::nullopt;
}

perr read_string(const json& v, const std::string& field, const std::string*& out) {
  if (!v.is_string())
    return err(protocol_errc::bad_field_type, field, cat(in_quotes(field), " must be a string"));
  out = &v.get_ref<const std::string&>();
  return std::nullopt;
}

bool is_room_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '-';
}

// A room id in `key` ("room", or list_rooms' "after").
perr read_room_id(const json& v, const char* key, std::string& out) {
  const std::string* s = nullptr;
  if (auto e = read_string(v, key, s)) return e;
  bool ok = !s->empty() && s->size() <= max_room_chars;
  for (char c : *s) ok = ok && is_room_char(c);
  if (!ok)
    return err(protocol_errc::bad_field_value, key,
               cat(in_quotes(key), " must be a room id: 1 to ", num(max_room_chars), " letters, digits, '_' or '-'"));
  out = *s;
  return std::nullopt;
}

perr read_room(const json& obj, std::string_view what, std::string& out) {
  const json* v = find(obj, "room");
  if (!v) return missing("room", what);
  return read_room_id(*v, "room", out);
}

perr read_opt_room_id(const json& obj, const char* key, std::optional<std::string>& out) {
  const json* v = find(obj, key);
  if (!v) return std::nullopt;
  return read_room_id(*v, key, out.emplace());
}

// "mode" and "format" (create_room, and list_rooms' filters).
perr read_mode(const json& v, game_mode& out) {
  const std::string* s = nullptr;
  if (auto e = read_string(v, "mode", s)) return e;
  const room_mode_info* offered = find_offered_mode(*s);
  if (!offered) return err(protocol_errc::bad_field_value, "mode", cat("\"mode\" must be ", offered_mode_names()));
  out = offered->mode;
  return std::nullopt;
}

perr read_format(const json& v, deck_format& out) {
  const std::string* s = nullptr;
  if (auto e = read_string(v, "format", s)) return e;
  auto f = deck_format_from_name(*s);
  if (!f)
    return err(protocol_errc::bad_field_value, "format",
               "\"format\" must be \"preconstructed\", \"constructed\", \"instant_constructed\" or \"draft\"");
  out = *f;
  return std::nullopt;
}

// names.hpp: the one check for display names; the message says which rule.
perr read_name(const json& v, std::string& out) {
  const std::string* s = nullptr;
  if (auto e = read_string(v, "name", s)) return e;
  if (auto why = name_problem(*s, max_name_chars))
    return err(protocol_errc::bad_field_value, "name",
               cat("\"name\" ", *why, " (a name is 1 to ", num(max_name_chars),
                   " characters, something visible, no control or bidirectional control characters)"));
  out = *s;
  return std::nullopt;
}

perr read_token(const json& v, std::string& out) {
  const std::string* s = nullptr;
  if (auto e = read_string(v, "token", s)) return e;
  bool ok = s->size() == token_chars;
  for (char c : *s) ok = ok && ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'));
  if (!ok)
    return err(protocol_errc::bad_field_value, "token",
               cat("\"token\" must be ", num(token_chars),
                   " lowercase hex digits, as \"joined\" gave it"));
  out = *s;
  return std::nullopt;
}

// An optional field: absent leaves `out` as it is; `prefix` + `key` names it
// in errors.
perr read_opt_bool(const json& obj, const std::string& prefix, const char* key, bool& out) {
  const json* v = find(obj, key);
  if (!v) return std::nullopt;
  return read_bool(*v, cat(prefix, key), out);
}

template <class Int>
perr read_opt_int(const json& obj, const std::string& prefix, const char* key, std::int64_t lo,
                  std::int64_t hi, Int& out) {
  const json* v = find(obj, key);
  if (!v) return std::nullopt;
  return read_int(*v, cat(prefix, key), lo, hi, out);
}

// "champion" (join, tournament_join): absent, or a card id the room resolves.
perr read_champion(const json& obj, std::optional<std::string>& out) {
  const json* v = find(obj, "champion");
  if (!v) return std::nullopt;
  const std::string* id = nullptr;
  if (auto e = read_string(*v, "champion", id)) return e;
  if (id->empty() || id->size() > max_card_id_chars)
    return err(protocol_errc::bad_field_value, "champion",
               cat("\"champion\" is a card id: 1 to ", num(max_card_id_chars), " characters"));
  out = *id;
  return std::nullopt;
}

// ---------------------------------------------------------------------------
// options and deck, shared with persistence through the public wrappers.

// options.ai (R12.8): {"fixed_mana": 6..10, "double_variable", "ai_first",
// "resistance": bool, "abilities": [names from ai_grantable, no repeats]}.
perr ai_from(const json& j, const std::string& prefix, ai_settings& out) {
  const std::string self = prefix.substr(0, prefix.size() - 1);
  if (!j.is_object())
    return err(protocol_errc::bad_field_type, self, cat(in_quotes(self), " must be an object"));
  if (auto e = check_keys(j, {"fixed_mana", "double_variable", "ai_first", "resistance", "abilities"}, prefix,
                          "the AI settings"))
    return e;
  ai_settings a;
  if (auto e = read_opt_int(j, prefix, "fixed_mana", 6, 10, a.fixed_mana)) return e;
  if (auto e = read_opt_bool(j, prefix, "double_variable", a.double_variable)) return e;
  if (auto e = read_opt_bool(j, prefix, "ai_first", a.ai_first)) return e;
  if (auto e = read_opt_bool(j, prefix, "resistance", a.resistance)) return e;
  if (const json* v = find(j, "abilities")) {
    const std::string field = cat(prefix, "abilities");
    if (!v->is_array())
      return err(protocol_errc::bad_field_type, field, cat(in_quotes(field), " must be an array of ability names"));
    if (v->size() > static_cast<std::size_t>(ability_count))
      return err(protocol_errc::bad_field_value, field, cat(in_quotes(field), " lists each ability at most once"));
    std::size_t i = 0;
    for (const json& name : *v) {
      const std::string entry = cat(field, "[", num(static_cast<std::int64_t>(i++)), "]");
      const std::string* text = nullptr;
      if (auto e = read_string(name, entry, text)) return e;
      const auto ab = ability_from_name(*text);
      if (!ab || !has(ai_grantable, *ab))
        return err(protocol_errc::bad_field_value, entry,
                   cat(in_quotes(*text), " is not one of the 11 abilities custom difficulty may give (R12.8): "
                       "sharpening, aquatic, berserk, catalyst, vanish, instinct, perforation, protection, rage, "
                       "splash, sprint"));
      if (has(a.granted, *ab))
        return err(protocol_errc::bad_field_value, entry, cat(in_quotes(*text), " is listed twice"));
      a.granted |= bit(*ab);
    }
  }
  out = a;
  return std::nullopt;
}

perr options_from(const json& j, const std::string& prefix, room_options& out) {
  const std::string self = prefix.empty() ? std::string("options") : prefix.substr(0, prefix.size() - 1);
  if (!j.is_object())
    return err(protocol_errc::bad_field_type, self, cat(in_quotes(self), " must be an object"));
  if (auto e = check_keys(j, {"exhaustion", "turn_clock", "seats", "champions", "share_team_hands", "difficulty", "ai",
                             "packs"},
                          prefix, "room options"))
    return e;
  room_options o;
  if (auto e = read_opt_bool(j, prefix, "exhaustion", o.exhaustion)) return e;
  if (const json* v = find(j, "turn_clock"); v && !v->is_null()) {
    const std::string tc = cat(prefix, "turn_clock");
    if (!v->is_object())
      return err(protocol_errc::bad_field_type, tc,
                 cat(in_quotes(tc), " must be an object {bank_ms, increment_ms} or null"));
    const std::string tp = cat(tc, ".");
    if (auto e = check_keys(*v, {"bank_ms", "increment_ms"}, tp, "turn_clock")) return e;
    turn_clock c;
    const json* bank = find(*v, "bank_ms");
    if (!bank) return missing(cat(tp, "bank_ms"), "turn_clock");
    if (auto e = read_int(*bank, cat(tp, "bank_ms"), min_bank_ms, max_bank_ms, c.bank_ms)) return e;
    if (auto e = read_opt_int(*v, tp, "increment_ms", 0, max_increment_ms, c.increment_ms)) return e;
    o.clock = c;
  }
  // The seat count alone; check_room_config holds it to the mode's.
  if (auto e = read_opt_int(j, prefix, "seats", 2, max_seats, o.seats)) return e;
  if (auto e = read_opt_bool(j, prefix, "champions", o.champions)) return e;
  if (auto e = read_opt_bool(j, prefix, "share_team_hands", o.share_team_hands)) return e;
  // R12.8: each value alone here; check_room_config weighs the points.
  if (auto e = read_opt_int(j, prefix, "difficulty", 0, 10, o.difficulty)) return e;
  if (const json* v = find(j, "ai"))
    if (auto e = ai_from(*v, cat(prefix, "ai."), o.ai)) return e;
  if (const json* v = find(j, "packs")) {
    const std::string field = cat(prefix, "packs");
    if (!v->is_array())
      return err(protocol_errc::bad_field_type, field, cat(in_quotes(field), " must be an array of pack names"));
    if (v->size() > max_packs)
      return err(protocol_errc::bad_field_value, field,
                 cat(in_quotes(field), " holds at most ", num(static_cast<std::int64_t>(max_packs)), " packs"));
    std::size_t i = 0;
    for (const json& p : *v) {
      const std::string entry = cat(field, "[", num(static_cast<std::int64_t>(i++)), "]");
      if (!p.is_string())
        return err(protocol_errc::bad_field_type, entry, cat("each entry of ", in_quotes(field), " is a string"));
      const auto& name = p.get_ref<const std::string&>();
      if (name.empty() || name.size() > max_pack_chars)
        return err(protocol_errc::bad_field_value, entry,
                   cat("a pack name is 1 to ", num(static_cast<std::int64_t>(max_pack_chars)), " characters"));
      // R14.8: never two copies of a card, so never the same pack twice.
      for (const auto& seen : o.packs)
        if (seen == name) return err(protocol_errc::bad_field_value, entry, cat("pack ", in_quotes(name), " twice"));
      o.packs.push_back(name);
    }
  }
  out = o;
  return std::nullopt;
}

perr deck_from(const json& j, const std::string& prefix, deck_choice& out) {
  const std::string self = prefix.substr(0, prefix.size() - 1);
  if (!j.is_object())
    return err(protocol_errc::bad_field_type, self,
               cat(in_quotes(self), " must be an object: {\"preconstructed\": 1..4} or {\"cards\": [ids]}"));
  if (auto e = check_keys(j, {"preconstructed", "cards"}, prefix, "a deck")) return e;
  const json* pre = find(j, "preconstructed");
  const json* cards = find(j, "cards");
  if (pre && cards)
    return err(protocol_errc::bad_field_value, self,
               cat(in_quotes(self), " has \"preconstructed\" or \"cards\", not both"));
  if (!pre && !cards)
    return err(protocol_errc::missing_field, cat(prefix, "preconstructed"),
               cat(in_quotes(self), " needs \"preconstructed\" (1..4) or \"cards\" (8 card ids)"));
  deck_choice d;
  if (pre) {
    if (auto e = read_int(*pre, cat(prefix, "preconstructed"), 1, preconstructed_deck_count,
                          d.preconstructed))
      return e;
    out = std::move(d);
    return std::nullopt;
  }
  const std::string field = cat(prefix, "cards");
  if (!cards->is_array())
    return err(protocol_errc::bad_field_type, field,
               cat(in_quotes(field), " must be an array of card ids (strings)"));
  if (cards->size() > max_deck_entries)
    return err(protocol_errc::bad_field_value, field,
               cat(in_quotes(field), " holds at most ", num(max_deck_entries),
                   " entries (a legal deck has 8)"));
  std::size_t i = 0;
  for (const json& c : *cards) {
    const std::string entry = cat(field, "[", num(static_cast<std::int64_t>(i++)), "]");
    if (!c.is_string())
      return err(protocol_errc::bad_field_type, entry,
                 cat("each entry of ", in_quotes(field), " must be a card id (a string)"));
    const auto& id = c.get_ref<const std::string&>();
    if (id.empty() || id.size() > max_card_id_chars)
      return err(protocol_errc::bad_field_value, entry,
                 cat("a card id is 1 to ", num(max_card_id_chars), " characters"));
    d.cards.push_back(id);
  }
  out = std::move(d);
  return std::nullopt;
}

// ---------------------------------------------------------------------------
// Each message: the object has been checked to be an object with a known
// type; `id` is already read.

constexpr std::string_view message_types[] = {"hello",  "list_rooms", "create_room",     "join",
                                              "resume", "spectate",   "act",             "leave",
                                              "ping",   "tournament_join", "draft_pick"};

std::string what_of(std::string_view type) { return cat("a ", in_quotes(type), " message"); }

perr only_envelope(const json& j, std::string_view type) {
  return check_keys(j, {"type", "id"}, "", what_of(type));
}

perr parse_hello(const json& j, hello_msg& m) {
  if (auto e = check_keys(j, {"type", "id", "version", "client", "acks"}, "", what_of("hello"))) return e;
  const json* v = find(j, "version");
  if (!v) return missing("version", what_of("hello"));
  if (auto e = read_int(*v, "version", 1, std::numeric_limits<int>::max(), m.version)) return e;
  if (const json* c = find(j, "client")) {
    const std::string* s = nullptr;
    if (auto e = read_string(*c, "client", s)) return e;
    bool control = false;
    for (unsigned char ch : *s) control = control || ch < 0x20 || ch == 0x7F;
    if (s->size() > max_client_chars || control)
      return err(protocol_errc::bad_field_value, "client",
                 cat("\"client\" is at most ", num(max_client_chars),
                     " bytes, without control characters"));
    m.client = *s;
  }
  if (const json* a = find(j, "acks")) {
    const std::string* s = nullptr;
    if (auto e = read_string(*a, "acks", s)) return e;
    if (*s == "separate") m.acks = ack_style::separate;
    else if (*s == "in_update") m.acks = ack_style::in_update;
    else return err(protocol_errc::bad_field_value, "acks", "\"acks\" is \"separate\" or \"in_update\"");
  }
  return std::nullopt;
}

perr parse_list_rooms(const json& j, list_rooms_msg& m) {
  const std::string what = what_of("list_rooms");
  if (auto e = check_keys(j, {"type", "id", "room", "status", "mode", "format", "limit", "after"}, "", what))
    return e;
  if (auto e = read_opt_room_id(j, "room", m.room)) return e;
  if (auto e = read_opt_room_id(j, "after", m.after)) return e;
  if (const json* v = find(j, "status")) {
    const std::string* s = nullptr;
    if (auto e = read_string(*v, "status", s)) return e;
    m.status = room_status_from_name(*s);
    if (!m.status)
      return err(protocol_errc::bad_field_value, "status",
                 "\"status\" must be \"waiting\", \"drafting\", \"playing\" or \"finished\"");
  }
  if (const json* v = find(j, "mode"); v) {
    if (auto e = read_mode(*v, m.mode.emplace())) return e;
  }
  if (const json* v = find(j, "format"); v) {
    if (auto e = read_format(*v, m.format.emplace())) return e;
  }
  return read_opt_int(j, "", "limit", 1, max_room_page, m.limit);
}

perr parse_create_room(const json& j, create_room_msg& m) {
  const std::string what = what_of("create_room");
  if (auto e = check_keys(j, {"type", "id", "mode", "format", "options"}, "", what)) return e;
  const json* mode = find(j, "mode");
  if (!mode) return missing("mode", what);
  if (auto e = read_mode(*mode, m.mode)) return e;
  const room_mode_info* offered = find_offered_mode(m.mode);
  const json* format = find(j, "format");
  if (!format) return missing("format", what);
  if (auto e = read_format(*format, m.format)) return e;
  m.options.seats = offered->seats;  // implied by the mode unless given
  if (const json* o = find(j, "options")) {
    if (auto e = options_from(*o, "options.", m.options)) return e;
    if (!o->contains("seats")) m.options.seats = offered->seats;
  }
  return check_room_config(m.mode, m.format, m.options);
}

perr parse_join(const json& j, join_msg& m) {
  const std::string what = what_of("join");
  if (auto e = check_keys(j, {"type", "id", "room", "name", "seat", "deck", "champion"}, "", what)) return e;
  if (auto e = read_room(j, what, m.room)) return e;
  const json* name = find(j, "name");
  if (!name) return missing("name", what);
  if (auto e = read_name(*name, m.name)) return e;
  if (const json* seat = find(j, "seat")) {
    int s = 0;
    if (auto e = read_int(*seat, "seat", 0, max_seats - 1, s)) return e;
    m.seat = s;
  }
  // Absent in a drafted room (the room checks which it is).
  if (const json* deck = find(j, "deck")) {
    if (auto e = deck_from(*deck, "deck.", m.deck)) return e;
  } else {
    m.no_deck = true;
  }
  return read_champion(j, m.champion);
}

perr parse_resume(const json& j, resume_msg& m) {
  const std::string what = what_of("resume");
  if (auto e = check_keys(j, {"type", "id", "room", "token"}, "", what)) return e;
  if (auto e = read_room(j, what, m.room)) return e;
  const json* token = find(j, "token");
  if (!token) return missing("token", what);
  return read_token(*token, m.token);
}

perr parse_tournament_join(const json& j, tournament_join_msg& m) {
  const std::string what = what_of("tournament_join");
  if (auto e = check_keys(j, {"type", "id", "token", "deck", "champion"}, "", what)) return e;
  const json* token = find(j, "token");
  if (!token) return missing("token", what);
  if (auto e = read_token(*token, m.token)) return e;
  const json* deck = find(j, "deck");
  if (!deck) return missing("deck", what);
  if (auto e = deck_from(*deck, "deck.", m.deck)) return e;
  return read_champion(j, m.champion);
}

perr parse_spectate(const json& j, spectate_msg& m) {
  const std::string what = what_of("spectate");
  if (auto e = check_keys(j, {"type", "id", "room"}, "", what)) return e;
  return read_room(j, what, m.room);
}

perr parse_act(const json& j, act_msg& m) {
  const std::string what = what_of("act");
  if (auto e = check_keys(j, {"type", "id", "action"}, "", what)) return e;
  const json* a = find(j, "action");
  if (!a) return missing("action", what);
  if (!a->is_object())
    return err(protocol_errc::bad_field_type, "action",
               "\"action\" must be an object: {\"type\": \"play\" | \"end_turn\" | \"concede\", ...}");
  auto r = parse_action(*a, no_seat);
  if (!r.ok()) {
    protocol_error e = std::move(*r.error);
    e.field = e.field.empty() ? std::string("action") : cat("action.", e.field);
    return e;
  }
  m.action = r.value;
  return std::nullopt;
}

perr parse_draft_pick(const json& j, draft_pick_msg& m) {
  const std::string what = what_of("draft_pick");
  if (auto e = check_keys(j, {"type", "id", "pick", "cards", "deck"}, "", what)) return e;
  const json* pick = find(j, "pick");
  if (!pick) return missing("pick", what);
  const std::string* s = nullptr;
  if (auto e = read_string(*pick, "pick", s)) return e;
  bool known = false;
  for (auto t : {draft_pick_type::take, draft_pick_type::ban, draft_pick_type::submit, draft_pick_type::choose_deck})
    if (*s == draft_pick_type_name(t)) {
      m.pick = t;
      known = true;
    }
  if (!known)
    return err(protocol_errc::bad_field_value, "pick",
               "\"pick\" must be \"take\", \"ban\", \"submit\" or \"choose_deck\"");
  const json* cards = find(j, "cards");
  const json* deck = find(j, "deck");
  if (m.pick == draft_pick_type::choose_deck) {
    if (cards) return err(protocol_errc::bad_field_value, "cards", "a choose_deck pick names a \"deck\", no cards");
    if (!deck) return missing("deck", what);
    return read_int(*deck, "deck", 1, preconstructed_deck_count, m.deck);
  }
  if (deck) return err(protocol_errc::bad_field_value, "deck", "only a choose_deck pick names a \"deck\"");
  if (!cards) return missing("cards", what);
  if (!cards->is_array())
    return err(protocol_errc::bad_field_type, "cards", "\"cards\" must be an array of card ids (strings)");
  if (cards->size() > max_deck_entries)
    return err(protocol_errc::bad_field_value, "cards",
               cat("\"cards\" holds at most ", num(static_cast<std::int64_t>(max_deck_entries)), " entries"));
  std::size_t i = 0;
  for (const json& c : *cards) {
    const std::string entry = cat("cards[", num(static_cast<std::int64_t>(i++)), "]");
    if (!c.is_string()) return err(protocol_errc::bad_field_type, entry, "each entry of \"cards\" must be a card id");
    const auto& id = c.get_ref<const std::string&>();
    if (id.empty() || id.size() > max_card_id_chars)
      return err(protocol_errc::bad_field_value, entry,
                 cat("a card id is 1 to ", num(static_cast<std::int64_t>(max_card_id_chars)), " characters"));
    m.cards.push_back(id);
  }
  return std::nullopt;
}

client_parse_result fail(protocol_error e, json id = nullptr) {
  client_parse_result r;
  r.error = std::move(e);
  r.id = std::move(id);
  return r;
}

template <class Msg, class Parse>
client_parse_result parse_as(const json& j, json id, Parse parse) {
  Msg m;
  m.id = id;
  if (auto e = parse(j, m)) return fail(std::move(*e), std::move(id));
  client_parse_result r;
  r.message = std::move(m);
  r.id = std::move(id);
  return r;
}

template <class Msg>
perr no_fields(const json& j, Msg&, std::string_view type) {
  return only_envelope(j, type);
}

client_parse_result parse_object(const json& j) {
  if (!j.is_object())
    return fail(err(protocol_errc::bad_json, "", "a message is a JSON object: {\"type\": ..., ...}"));

  json id = nullptr;
  if (const json* v = find(j, "id"); v && !v->is_null()) {
    if (v->is_string()) {
      if (v->get_ref<const std::string&>().size() > max_id_chars)
        return fail(err(protocol_errc::bad_field_value, "id",
                        cat("a string \"id\" is at most ", num(max_id_chars), " bytes")));
    } else if (!v->is_number_integer()) {
      return fail(err(protocol_errc::bad_field_type, "id",
                      "\"id\" must be an integer, a string or null"));
    }
    id = *v;
  }

  const json* type = find(j, "type");
  if (!type)
    return fail(err(protocol_errc::missing_field, "type", "a message needs \"type\""), id);
  if (!type->is_string())
    return fail(err(protocol_errc::bad_field_type, "type", "\"type\" must be a string"), id);
  const auto& t = type->get_ref<const std::string&>();

  if (t == "hello") return parse_as<hello_msg>(j, id, parse_hello);
  if (t == "list_rooms") return parse_as<list_rooms_msg>(j, id, parse_list_rooms);
  if (t == "create_room") return parse_as<create_room_msg>(j, id, parse_create_room);
  if (t == "join") return parse_as<join_msg>(j, id, parse_join);
  if (t == "resume") return parse_as<resume_msg>(j, id, parse_resume);
  if (t == "tournament_join") return parse_as<tournament_join_msg>(j, id, parse_tournament_join);
  if (t == "spectate") return parse_as<spectate_msg>(j, id, parse_spectate);
  if (t == "act") return parse_as<act_msg>(j, id, parse_act);
  if (t == "leave")
    return parse_as<leave_msg>(j, id,
                               [](const json& o, leave_msg& m) { return no_fields(o, m, "leave"); });
  if (t == "ping")
    return parse_as<ping_msg>(j, id,
                              [](const json& o, ping_msg& m) { return no_fields(o, m, "ping"); });
  if (t == "draft_pick") return parse_as<draft_pick_msg>(j, id, parse_draft_pick);

  std::string known;
  for (std::string_view name : message_types) {
    if (!known.empty()) known += ", ";
    known += name;
  }
  // Echo at most a short prefix of a hostile type name.
  const std::string shown = t.size() > 40 ? cat(t.substr(0, 40), "...") : t;
  return fail(err(protocol_errc::unknown_type, "type",
                  cat("unknown message type ", in_quotes(shown), " (", known, ")")),
              id);
}

// A cheap scan before parsing, so hostile nesting costs nothing (and never
// reaches a recursive destructor): the deepest nesting of arrays and objects,
// stopping past `limit`. Strings are skipped. Also refuses a raw NUL byte,
// which the parser would take for the end of the text. The text may still be
// invalid JSON, which the parser reports.
std::optional<protocol_error> prescan(std::string_view text, int limit) {
  int depth = 0;
  bool in_string = false, escaped = false;
  for (char c : text) {
    if (c == '\0') return err(protocol_errc::bad_json, "", "the message holds a NUL byte");
    if (in_string) {
      if (escaped) {
        escaped = false;
      } else if (c == '\\') {
        escaped = true;
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    if (c == '"') {
      in_string = true;
    } else if (c == '{' || c == '[') {
      if (++depth > limit)
        return err(protocol_errc::bad_json, "",
                   cat("the message nests arrays and objects deeper than ", num(limit), " levels"));
    } else if (c == '}' || c == ']') {
      --depth;
    }
  }
  return std::nullopt;
}

}  // namespace

std::string_view ack_style_name(ack_style a) { return a == ack_style::in_update ? "in_update" : "separate"; }

std::string_view deck_format_name(deck_format f) {
  switch (f) {
    case deck_format::preconstructed: return "preconstructed";
    case deck_format::constructed: return "constructed";
    case deck_format::instant_constructed: return "instant_constructed";
    case deck_format::draft: return "draft";
  }
  return "?";
}

std::optional<deck_format> deck_format_from_name(std::string_view name) {
  for (auto f : {deck_format::preconstructed, deck_format::constructed, deck_format::instant_constructed,
                 deck_format::draft})
    if (name == deck_format_name(f)) return f;
  return std::nullopt;
}

json room_options_to_json(const room_options& o, game_mode mode) {
  json j = {{"exhaustion", o.exhaustion},
            {"seats", o.seats},
            {"turn_clock", nullptr},
            {"champions", o.champions},
            {"share_team_hands", o.share_team_hands}};
  if (o.clock)
    j["turn_clock"] = {{"bank_ms", o.clock->bank_ms}, {"increment_ms", o.clock->increment_ms}};
  if (mode == game_mode::solo || mode == game_mode::coop) {
    json abilities = json::array();
    for (int a = 0; a < ability_count; ++a)
      if (has(o.ai.granted, static_cast<ability>(a))) abilities.push_back(ability_name(static_cast<ability>(a)));
    j["difficulty"] = o.difficulty;
    j["ai"] = {{"fixed_mana", o.ai.fixed_mana},
               {"double_variable", o.ai.double_variable},
               {"ai_first", o.ai.ai_first},
               {"resistance", o.ai.resistance},
               {"abilities", std::move(abilities)}};
  }
  if (!o.packs.empty()) j["packs"] = o.packs;
  return j;
}

std::optional<protocol_error> room_options_from_json(const json& j, room_options& out) {
  try {
    return options_from(j, "options.", out);
  } catch (const std::exception& e) {
    return err(protocol_errc::bad_json, "", e.what());
  }
}

json deck_to_json(const deck_choice& d) {
  if (d.is_preconstructed()) return {{"preconstructed", d.preconstructed}};
  return {{"cards", d.cards}};
}

std::optional<protocol_error> deck_from_json(const json& j, deck_choice& out) {
  try {
    return deck_from(j, "deck.", out);
  } catch (const std::exception& e) {
    return err(protocol_errc::bad_json, "", e.what());
  }
}

std::string_view message_type(const client_message& m) { return message_types[m.index()]; }

const json& message_id(const client_message& m) {
  return std::visit([](const auto& msg) -> const json& { return msg.id; }, m);
}

client_parse_result parse_client_json(const json& j) {
  try {
    return parse_object(j);
  } catch (const std::exception& e) {
    // Every access is type-checked first; this is a last guard (bad_alloc).
    return fail(err(protocol_errc::bad_json, "", e.what()));
  }
}

client_parse_result parse_client_message(std::string_view text, std::size_t max_bytes) {
  if (text.size() > max_bytes) {
    auto r = fail(err(protocol_errc::bad_json, "",
                      cat("the message is ", num(static_cast<std::int64_t>(text.size())),
                          " bytes; the limit is ", num(static_cast<std::int64_t>(max_bytes)))));
    r.oversized = true;
    return r;
  }
  if (auto e = prescan(text, max_message_depth)) return fail(std::move(*e));
  try {
    const json j = json::parse(text, nullptr, /*allow_exceptions=*/false);
    if (j.is_discarded()) return fail(err(protocol_errc::bad_json, "", "the message is not valid JSON"));
    return parse_object(j);
  } catch (const std::exception& e) {
    return fail(err(protocol_errc::bad_json, "", e.what()));
  }
}

json client_message_to_json(const client_message& msg) {
  json j = {{"type", message_type(msg)}};
  if (const json& id = message_id(msg); !id.is_null()) j["id"] = id;
  std::visit(
      [&j](const auto& m) {
        using T = std::decay_t<decltype(m)>;
        if constexpr (std::is_same_v<T, hello_msg>) {
          j["version"] = m.version;
          if (m.client) j["client"] = *m.client;
          if (m.acks != ack_style::separate) j["acks"] = ack_style_name(m.acks);
        } else if constexpr (std::is_same_v<T, list_rooms_msg>) {
          if (m.room) j["room"] = *m.room;
          if (m.status) j["status"] = room_status_name(*m.status);
          if (m.mode) j["mode"] = game_mode_name(*m.mode);
          if (m.format) j["format"] = deck_format_name(*m.format);
          if (m.limit != default_room_page) j["limit"] = m.limit;
          if (m.after) j["after"] = *m.after;
        } else if constexpr (std::is_same_v<T, create_room_msg>) {
          j["mode"] = game_mode_name(m.mode);
          j["format"] = deck_format_name(m.format);
          j["options"] = room_options_to_json(m.options, m.mode);
        } else if constexpr (std::is_same_v<T, join_msg>) {
          j["room"] = m.room;
          j["name"] = m.name;
          if (m.seat) j["seat"] = *m.seat;
          if (!m.no_deck) j["deck"] = deck_to_json(m.deck);
          if (m.champion) j["champion"] = *m.champion;
        } else if constexpr (std::is_same_v<T, resume_msg>) {
          j["room"] = m.room;
          j["token"] = m.token;
        } else if constexpr (std::is_same_v<T, spectate_msg>) {
          j["room"] = m.room;
        } else if constexpr (std::is_same_v<T, tournament_join_msg>) {
          j["token"] = m.token;
          j["deck"] = deck_to_json(m.deck);
          if (m.champion) j["champion"] = *m.champion;
        } else if constexpr (std::is_same_v<T, act_msg>) {
          j["action"] = action_to_json(m.action);
        } else if constexpr (std::is_same_v<T, draft_pick_msg>) {
          j["pick"] = draft_pick_type_name(m.pick);
          if (m.pick == draft_pick_type::choose_deck) j["deck"] = m.deck;
          else j["cards"] = m.cards;
        }
      },
      msg);
  return j;
}

}  // namespace cod::protocol
