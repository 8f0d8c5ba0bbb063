// The room configuration on the wire (room_config.hpp): the names of deck
// formats and room statuses, and the JSON of room options and deck choices,
// which create_room and join carry and persistence stores. The readers are
// strict, as the client parser is (field_reader.hpp), and name each field by
// its path under the prefix they are given.
#include <cstdint>
#include <exception>
#include <limits>
#include <string>

#include "cod/protocol/room_config.hpp"
#include "field_reader.hpp"
#include "room_json.hpp"

namespace cod::protocol {
namespace detail {
namespace {

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

}  // namespace


perr options_from(const json& j, const std::string& prefix, room_options& out) {
  const std::string self = prefix.empty() ? std::string("options") : prefix.substr(0, prefix.size() - 1);
  if (!j.is_object())
    return err(protocol_errc::bad_field_type, self, cat(in_quotes(self), " must be an object"));
  if (auto e = check_keys(j, {"exhaustion", "stall_exhaustion_turn", "turn_clock", "seats", "champions",
                             "share_team_hands", "difficulty", "ai", "packs", "seed"},
                          prefix, "room options"))
    return e;
  room_options o;
  if (auto e = read_opt_bool(j, prefix, "exhaustion", o.exhaustion)) return e;
  // R17.25: 0 (never) or a turn from R9's 8 to 1000.
  if (const json* v = find(j, "stall_exhaustion_turn")) {
    const std::string field = cat(prefix, "stall_exhaustion_turn");
    if (!v->is_number_integer())
      return err(protocol_errc::bad_field_type, field, cat(in_quotes(field), " must be an integer"));
    const bool never = v->is_number_unsigned() ? v->get<std::uint64_t>() == 0 : v->get<std::int64_t>() == 0;
    if (!never) {
      if (read_int(*v, field, min_stall_exhaustion_turn, max_stall_exhaustion_turn_option, o.stall_exhaustion_turn))
        return err(protocol_errc::bad_field_value, field,
                   cat(in_quotes(field), " must be 0 (never) or a turn from ", num(min_stall_exhaustion_turn),
                       " to ", num(max_stall_exhaustion_turn_option),
                       " (R17.25: the first player's turn at which exhaustion begins without R9)"));
    } else {
      o.stall_exhaustion_turn = 0;
    }
  }
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
  // A chosen deal: the seed as decimal text (a string, as match_over's seed:
  // JSON numbers lose precision beyond 2^53 in JavaScript), no sign, no
  // leading zeros, at most 2^64 - 1. check_room_config holds it to solo.
  if (const json* v = find(j, "seed")) {
    const std::string field = cat(prefix, "seed");
    if (!v->is_string())
      return err(protocol_errc::bad_field_type, field, cat(in_quotes(field), " must be a string of decimal digits"));
    const auto& text = v->get_ref<const std::string&>();
    const auto bad = [&] {
      return err(protocol_errc::bad_field_value, field,
                 cat(in_quotes(field), " must be a 64-bit unsigned integer as decimal text, without leading zeros"));
    };
    if (text.empty() || text.size() > 20 || (text.size() > 1 && text[0] == '0')) return bad();
    std::uint64_t seed = 0;
    for (const char c : text) {
      if (c < '0' || c > '9') return bad();
      const auto d = static_cast<std::uint64_t>(c - '0');
      if (seed > (std::numeric_limits<std::uint64_t>::max() - d) / 10) return bad();
      seed = seed * 10 + d;
    }
    o.seed = seed;
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

}  // namespace detail

using json = nlohmann::json;
using detail::err;

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
            {"stall_exhaustion_turn", o.stall_exhaustion_turn},
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
  if (o.seed) j["seed"] = std::to_string(*o.seed);
  return j;
}

std::optional<protocol_error> room_options_from_json(const json& j, room_options& out) {
  try {
    return detail::options_from(j, "options.", out);
  } catch (const std::exception& e) {
    return err(protocol_errc::bad_json, "", e.what());
  }
}

std::optional<protocol_error> stored_room_options_from_json(const json& j, room_options& out) {
  if (auto e = room_options_from_json(j, out)) return e;
  // R17.25: a record from before the stall guard was played without it.
  if (j.is_object() && !j.contains("stall_exhaustion_turn")) out.stall_exhaustion_turn = 0;
  return std::nullopt;
}

json deck_to_json(const deck_choice& d) {
  if (d.is_preconstructed()) return {{"preconstructed", d.preconstructed}};
  return {{"cards", d.cards}};
}

std::optional<protocol_error> deck_from_json(const json& j, deck_choice& out) {
  try {
    return detail::deck_from(j, "deck.", out);
  } catch (const std::exception& e) {
    return err(protocol_errc::bad_json, "", e.what());
  }
}

std::string_view room_status_name(room_status s) {
  switch (s) {
    case room_status::waiting: return "waiting";
    case room_status::playing: return "playing";
    case room_status::finished: return "finished";
    case room_status::drafting: return "drafting";
  }
  return "?";
}

std::optional<room_status> room_status_from_name(std::string_view name) {
  for (room_status s : {room_status::waiting, room_status::playing, room_status::finished, room_status::drafting})
    if (room_status_name(s) == name) return s;
  return std::nullopt;
}

}  // namespace cod::protocol
