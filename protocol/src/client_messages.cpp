// Client messages: the strict parser and the wire form (client_messages.hpp).
//
// Order of checks, so that a client sees the most useful error first: size,
// nesting, JSON syntax, object shape, "id" (so every later error can echo it),
// "type", unknown fields, then each field in a fixed order.
#include <exception>
#include <initializer_list>
#include <limits>
#include <string>

#include "cod/protocol/client_messages.hpp"
#include "cod/protocol/names.hpp"
#include "cod/protocol/wire_names.hpp"
#include "field_reader.hpp"
#include "json_util.hpp"
#include "room_json.hpp"

namespace cod::protocol {
namespace {

using namespace detail;

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
perr read_name(const json& v, std::string& out, std::string_view field = "name") {
  const std::string* s = nullptr;
  if (auto e = read_string(v, std::string(field), s)) return e;
  if (auto why = name_problem(*s, max_name_chars))
    return err(protocol_errc::bad_field_value, std::string(field),
               cat("\"", field, "\" ", *why, " (a name is 1 to ", num(max_name_chars),
                   " characters, something visible, no control or bidirectional control characters)"));
  out = *s;
  return std::nullopt;
}

// A token: 32 lowercase hex digits; with `event_named`, optionally after
// "ID." naming a tournament or league (client_messages.hpp).
perr read_token(const json& v, std::string& out, std::string_view field = "token", bool event_named = false) {
  const std::string* s = nullptr;
  if (auto e = read_string(v, std::string(field), s)) return e;
  const std::string_view event = event_named ? event_of_token(*s) : std::string_view{};
  const std::string_view hex = event.empty() ? std::string_view(*s) : std::string_view(*s).substr(event.size() + 1);
  bool ok = hex.size() == token_chars;
  for (char c : hex) ok = ok && ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'));
  if (!ok)
    return err(protocol_errc::bad_field_value, std::string(field),
               cat(in_quotes(field), " must be ", num(token_chars), " lowercase hex digits",
                   event_named ? " (after \"ID.\" for a token that names its tournament or league)" : "", ", as ",
                   field == "token" ? (event_named ? "\"joined\" or the organiser" : "\"joined\"") : "the account API",
                   " gave it"));
  out = *s;
  return std::nullopt;
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
// Each message: the object has been checked to be an object with a known
// type; `id` is already read.

// parse_fields: one overload per message of the list (client_messages.hpp),
// each reading that message's fields; parse_object finds it by the type, so
// a message without one does not compile.

std::string what_of(std::string_view type) { return cat("a ", in_quotes(type), " message"); }

perr only_envelope(const json& j, std::string_view type) {
  return check_keys(j, {"type", "id"}, "", what_of(type));
}

perr parse_fields(const json& j, leave_msg&) { return only_envelope(j, leave_msg::type); }
perr parse_fields(const json& j, ping_msg&) { return only_envelope(j, ping_msg::type); }

perr parse_fields(const json& j, hello_msg& m) {
  if (auto e = check_keys(j, {"type", "id", "version", "client", "acks", "legal_actions", "account_token"}, "",
                          what_of("hello")))
    return e;
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
  if (const json* v = find(j, "legal_actions"))
    if (auto e = read_bool(*v, "legal_actions", m.legal_actions)) return e;
  if (const json* t = find(j, "account_token")) {
    std::string token;
    if (auto e = read_token(*t, token, "account_token")) return e;
    m.account_token = std::move(token);
  }
  return std::nullopt;
}

// act.seq, draft_pick.seq: the seq of the state the client chose in.
perr read_opt_seq(const json& j, std::optional<std::int64_t>& out) {
  const json* v = find(j, "seq");
  if (!v) return std::nullopt;
  std::int64_t seq = 0;
  if (auto e = read_int(*v, "seq", 0, max_seq, seq)) return e;
  out = seq;
  return std::nullopt;
}

perr parse_fields(const json& j, list_rooms_msg& m) {
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

perr parse_fields(const json& j, create_room_msg& m) {
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

perr parse_fields(const json& j, join_msg& m) {
  const std::string what = what_of("join");
  if (auto e = check_keys(j, {"type", "id", "room", "name", "seat", "deck", "champion"}, "", what)) return e;
  if (auto e = read_room(j, what, m.room)) return e;
  // Absent: the connection's account names the seat (the session refuses
  // it when the connection is not signed in).
  if (const json* name = find(j, "name"))
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

perr parse_fields(const json& j, resume_msg& m) {
  const std::string what = what_of("resume");
  if (auto e = check_keys(j, {"type", "id", "room", "token"}, "", what)) return e;
  if (auto e = read_room(j, what, m.room)) return e;
  // Absent: the connection's account finds its seat (the session refuses
  // it when the connection is not signed in).
  const json* token = find(j, "token");
  if (!token) return std::nullopt;
  return read_token(*token, m.token, "token", /*event_named=*/true);
}

perr parse_fields(const json& j, tournament_join_msg& m) {
  const std::string what = what_of("tournament_join");
  if (auto e = check_keys(j, {"type", "id", "token", "deck", "champion"}, "", what)) return e;
  const json* token = find(j, "token");
  if (!token) return missing("token", what);
  if (auto e = read_token(*token, m.token, "token", /*event_named=*/true)) return e;
  const json* deck = find(j, "deck");
  if (!deck) return missing("deck", what);
  if (auto e = deck_from(*deck, "deck.", m.deck)) return e;
  return read_champion(j, m.champion);
}

perr parse_fields(const json& j, league_join_msg& m) {
  const std::string what = what_of("league_join");
  if (auto e = check_keys(j, {"type", "id", "token"}, "", what)) return e;
  const json* token = find(j, "token");
  if (!token) return missing("token", what);
  return read_token(*token, m.token, "token", /*event_named=*/true);
}

// The op's shape beyond its type is the league's to read (league_op_from_json).
perr parse_fields(const json& j, league_act_msg& m) {
  const std::string what = what_of("league_act");
  if (auto e = check_keys(j, {"type", "id", "op"}, "", what)) return e;
  const json* op = find(j, "op");
  if (!op) return missing("op", what);
  if (!op->is_object()) return err(protocol_errc::bad_field_type, "op", "\"op\" is an object with a \"type\"");
  const json* type = find(*op, "type");
  if (!type) return missing("op.type", "an op");
  if (!type->is_string() || (*type != "pick" && *type != "choose_deck" && *type != "mutate" && *type != "pass"))
    return err(protocol_errc::bad_field_value, "op.type", "\"op.type\" is pick, choose_deck, mutate or pass");
  if (find(*op, "seat"))
    return err(protocol_errc::unknown_field, "op.seat",
               "\"op.seat\" is never sent: the league_join on this connection says whose op it is");
  m.op = *op;
  return std::nullopt;
}

// The mutations' shapes are the league's to read (mutation_from_json).
perr parse_fields(const json& j, league_mutations_msg& m) {
  const std::string what = what_of("league_mutations");
  if (auto e = check_keys(j, {"type", "id", "mutations"}, "", what)) return e;
  const json* ms = find(j, "mutations");
  if (!ms) return missing("mutations", what);
  if (!ms->is_array())
    return err(protocol_errc::bad_field_type, "mutations",
               "\"mutations\" is an array of the mutations chosen so far (maybe empty)");
  m.mutations = *ms;
  return std::nullopt;
}

perr parse_fields(const json& j, spectate_msg& m) {
  const std::string what = what_of("spectate");
  if (auto e = check_keys(j, {"type", "id", "room"}, "", what)) return e;
  return read_room(j, what, m.room);
}

perr parse_fields(const json& j, history_msg& m) {
  const std::string what = what_of("history");
  if (auto e = check_keys(j, {"type", "id", "from_seq"}, "", what)) return e;
  if (const json* v = find(j, "from_seq")) return read_int(*v, "from_seq", 0, max_seq, m.from_seq);
  return std::nullopt;
}

perr parse_fields(const json& j, add_bot_msg& m) {
  const std::string what = what_of("add_bot");
  if (auto e = check_keys(j, {"type", "id", "seat", "level"}, "", what)) return e;
  if (const json* v = find(j, "seat")) {
    int seat = 0;
    if (auto e = read_int(*v, "seat", 0, max_seats - 1, seat)) return e;
    m.seat = seat;
  }
  if (const json* v = find(j, "level")) {
    int level = 0;
    if (auto e = read_int(*v, "level", min_bot_level, max_bot_level, level)) return e;
    m.level = level;
  }
  return std::nullopt;
}

perr parse_fields(const json& j, emote_msg& m) {
  const std::string what = what_of("emote");
  if (auto e = check_keys(j, {"type", "id", "emote"}, "", what)) return e;
  const json* v = find(j, "emote");
  if (!v) return missing("emote", what);
  const std::string* s = nullptr;
  if (auto e = read_string(*v, "emote", s)) return e;
  for (auto name : emote_names)
    if (*s == name) {
      m.emote = *s;
      return std::nullopt;
    }
  return err(protocol_errc::bad_field_value, "emote",
             "\"emote\" must be \"well_played\", \"good_game\", \"thinking\" or \"oops\" (a fixed set: no free text)");
}

perr parse_fields(const json& j, queue_msg& m) {
  const std::string what = what_of("queue");
  if (auto e = check_keys(j, {"type", "id", "mode", "format", "rated", "deck", "partner"}, "", what)) return e;
  const json* mode = find(j, "mode");
  if (!mode) return missing("mode", what);
  if (auto e = read_mode(*mode, m.mode)) return e;
  const json* format = find(j, "format");
  if (!format) return missing("format", what);
  if (auto e = read_format(*format, m.format)) return e;
  if (const json* v = find(j, "rated"))
    if (auto e = read_bool(*v, "rated", m.rated)) return e;
  if (const json* v = find(j, "partner")) {
    std::string partner;
    if (auto e = read_name(*v, partner, "partner")) return e;
    if (m.mode != game_mode::two_vs_two)
      return err(protocol_errc::bad_field_value, "partner", "only a 2v2 search names a partner");
    m.partner = std::move(partner);
  }
  const json* deck = find(j, "deck");
  if (!deck) return missing("deck", what);
  return deck_from(*deck, "deck.", m.deck);
}

perr parse_fields(const json& j, unqueue_msg& m) {
  const std::string what = what_of("unqueue");
  if (auto e = check_keys(j, {"type", "id", "ticket"}, "", what)) return e;
  if (const json* v = find(j, "ticket")) {
    std::int64_t t = 0;
    if (auto e = read_int(*v, "ticket", 1, max_seq, t)) return e;
    m.ticket = t;
  }
  return std::nullopt;
}

perr parse_fields(const json& j, act_msg& m) {
  const std::string what = what_of("act");
  if (auto e = check_keys(j, {"type", "id", "action", "seq"}, "", what)) return e;
  if (auto e = read_opt_seq(j, m.seq)) return e;
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

perr parse_fields(const json& j, draft_pick_msg& m) {
  const std::string what = what_of("draft_pick");
  if (auto e = check_keys(j, {"type", "id", "pick", "cards", "deck", "seq"}, "", what)) return e;
  if (auto e = read_opt_seq(j, m.seq)) return e;
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

template <class Msg>
client_parse_result parse_as(const json& j, json id) {
  Msg m;
  m.id = id;
  if (auto e = parse_fields(j, m)) return fail(std::move(*e), std::move(id));
  client_parse_result r;
  r.message = std::move(m);
  r.id = std::move(id);
  return r;
}

// The message of the list whose type is `t`, parsed; none when no message has it.
template <class... Ms>
std::optional<client_parse_result> parse_listed(std::string_view t, const json& j, const json& id,
                                                const std::variant<Ms...>*) {
  std::optional<client_parse_result> r;
  (void)((t == Ms::type && (r = parse_as<Ms>(j, id), true)) || ...);
  return r;
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

  if (auto r = parse_listed(t, j, id, static_cast<const client_message*>(nullptr))) return std::move(*r);

  std::string known;
  for (std::string_view name : client_message_types) {
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

std::string_view event_of_token(std::string_view token) {
  // "ID.HEX": the dot is where the 32 hex digits begin; ID a room id.
  if (token.size() <= token_chars + 1 || token.size() > max_event_token_chars) return {};
  const std::size_t dot = token.size() - token_chars - 1;
  if (token[dot] != '.') return {};
  const std::string_view id = token.substr(0, dot);
  for (char c : id)
    if (!is_room_char(c)) return {};
  return id;
}

std::string_view ack_style_name(ack_style a) { return a == ack_style::in_update ? "in_update" : "separate"; }

std::string_view message_type(const client_message& m) { return client_message_types[m.index()]; }

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

namespace {

// write_fields: one overload per message of the list, its fields beside
// "type" and "id"; client_message_to_json finds it by the message's type, so
// a message without one does not compile.
void write_fields(json& j, const hello_msg& m) {
  j["version"] = m.version;
  if (m.client) j["client"] = *m.client;
  if (m.acks != ack_style::separate) j["acks"] = ack_style_name(m.acks);
  if (m.legal_actions) j["legal_actions"] = true;
  if (m.account_token) j["account_token"] = *m.account_token;
}

void write_fields(json& j, const list_rooms_msg& m) {
  if (m.room) j["room"] = *m.room;
  if (m.status) j["status"] = room_status_name(*m.status);
  if (m.mode) j["mode"] = game_mode_name(*m.mode);
  if (m.format) j["format"] = deck_format_name(*m.format);
  if (m.limit != default_room_page) j["limit"] = m.limit;
  if (m.after) j["after"] = *m.after;
}

void write_fields(json& j, const create_room_msg& m) {
  j["mode"] = game_mode_name(m.mode);
  j["format"] = deck_format_name(m.format);
  j["options"] = room_options_to_json(m.options, m.mode);
}

void write_fields(json& j, const join_msg& m) {
  j["room"] = m.room;
  if (!m.name.empty()) j["name"] = m.name;
  if (m.seat) j["seat"] = *m.seat;
  if (!m.no_deck) j["deck"] = deck_to_json(m.deck);
  if (m.champion) j["champion"] = *m.champion;
}

void write_fields(json& j, const resume_msg& m) {
  j["room"] = m.room;
  if (!m.token.empty()) j["token"] = m.token;
}

void write_fields(json& j, const spectate_msg& m) { j["room"] = m.room; }

void write_fields(json& j, const tournament_join_msg& m) {
  j["token"] = m.token;
  j["deck"] = deck_to_json(m.deck);
  if (m.champion) j["champion"] = *m.champion;
}

void write_fields(json& j, const act_msg& m) {
  j["action"] = action_to_json(m.action);
  if (m.seq) j["seq"] = *m.seq;
}

void write_fields(json& j, const draft_pick_msg& m) {
  j["pick"] = draft_pick_type_name(m.pick);
  if (m.pick == draft_pick_type::choose_deck) j["deck"] = m.deck;
  else j["cards"] = m.cards;
  if (m.seq) j["seq"] = *m.seq;
}

void write_fields(json& j, const history_msg& m) {
  if (m.from_seq != 0) j["from_seq"] = m.from_seq;
}

void write_fields(json& j, const league_join_msg& m) { j["token"] = m.token; }

void write_fields(json& j, const league_act_msg& m) { j["op"] = m.op; }

void write_fields(json& j, const league_mutations_msg& m) { j["mutations"] = m.mutations; }

void write_fields(json& j, const queue_msg& m) {
  j["mode"] = game_mode_name(m.mode);
  j["format"] = deck_format_name(m.format);
  if (!m.rated) j["rated"] = false;
  j["deck"] = deck_to_json(m.deck);
  if (!m.partner.empty()) j["partner"] = m.partner;
}

void write_fields(json& j, const unqueue_msg& m) {
  if (m.ticket) j["ticket"] = *m.ticket;
}

void write_fields(json& j, const add_bot_msg& m) {
  if (m.seat) j["seat"] = *m.seat;
  if (m.level) j["level"] = *m.level;
}

void write_fields(json&, const leave_msg&) {}
void write_fields(json&, const ping_msg&) {}
void write_fields(json& j, const emote_msg& m) { j["emote"] = m.emote; }

}  // namespace

json client_message_to_json(const client_message& msg) {
  json j = {{"type", message_type(msg)}};
  if (const json& id = message_id(msg); !id.is_null()) j["id"] = id;
  std::visit([&j](const auto& m) { write_fields(j, m); }, msg);
  return j;
}

}  // namespace cod::protocol
