// Actions on the wire: shape checks only; legality is match::apply's.
#include <array>
#include <exception>
#include <string>

#include <nlohmann/json.hpp>

#include "cod/protocol/json_codec.hpp"
#include "cod/protocol/wire_names.hpp"

namespace cod::protocol {
namespace {

using json = nlohmann::json;

constexpr std::array<action_type, 3> all_action_types = {action_type::play, action_type::end_turn,
                                                         action_type::concede};

action_result fail(protocol_errc code, std::string field, std::string message) {
  action_result r;
  r.error = protocol_error{code, std::move(field), std::move(message)};
  return r;
}

bool field_allowed(action_type t, const std::string& key) {
  if (key == "type") return true;
  return t == action_type::play && (key == "card" || key == "line" || key == "target" || key == "host");
}

// A uid: an integer naming a card of the match. Whether that card exists and
// is in the seat's hand is for the engine to say (card_not_in_hand).
std::optional<protocol_error> read_uid(const json& v, const char* key, card_uid& out) {
  if (!v.is_number_integer())
    return protocol_error{protocol_errc::bad_field_type, key,
                          std::string("\"") + key + "\" must be a card uid (an integer)"};
  const bool in_range = v.is_number_unsigned()
                            ? v.get<std::uint64_t>() < max_uids
                            : (v.get<std::int64_t>() >= 0 && v.get<std::int64_t>() < max_uids);
  if (!in_range)
    return protocol_error{protocol_errc::bad_field_value, key,
                          std::string("\"") + key + "\" must be a card uid from 0 to " +
                              std::to_string(max_uids - 1)};
  out = static_cast<card_uid>(v.get<std::int64_t>());
  return std::nullopt;
}

action_result parse_play(const json& j, seat_t seat) {
  auto card_it = j.find("card");
  if (card_it == j.end())
    return fail(protocol_errc::missing_field, "card",
                "a play needs \"card\" (the uid of a card in hand)");
  card_uid card = no_uid;
  if (auto e = read_uid(*card_it, "card", card)) return action_result{{}, std::move(e)};

  auto line_it = j.find("line");
  auto target_it = j.find("target");
  const bool has_line = line_it != j.end();
  const bool has_target = target_it != j.end();
  if (has_line && has_target)
    return fail(protocol_errc::bad_field_value, "",
                "a play has \"line\" (a creature) or \"target\" (an incantation), not both");
  if (!has_line && !has_target)
    return fail(protocol_errc::missing_field, "line",
                "a play needs \"line\" (a creature) or \"target\" (an incantation)");

  if (has_line) {
    if (!line_it->is_string())
      return fail(protocol_errc::bad_field_type, "line", "\"line\" must be \"upper\" or \"lower\"");
    const auto line = seat_line_from_name(line_it->get_ref<const std::string&>());
    if (!line)
      return fail(protocol_errc::bad_field_value, "line",
                  "\"line\" must be \"upper\" or \"lower\"");
    // R7 Symbiote: optionally on top of one of the seat's creatures.
    card_uid host = no_uid;
    if (auto host_it = j.find("host"); host_it != j.end())
      if (auto e = read_uid(*host_it, "host", host)) return action_result{{}, std::move(e)};
    return action_result{action::play_symbiote(seat, card, *line, host), std::nullopt};
  }
  if (j.contains("host"))
    return fail(protocol_errc::bad_field_value, "host", "\"host\" goes with \"line\" (a Symbiote creature)");
  card_uid target = no_uid;
  if (auto e = read_uid(*target_it, "target", target)) return action_result{{}, std::move(e)};
  return action_result{action::play_incantation(seat, card, target), std::nullopt};
}

action_result parse_object(const json& j, seat_t seat) {
  if (!j.is_object()) return fail(protocol_errc::bad_json, "", "an action is a JSON object");
  auto type_it = j.find("type");
  if (type_it == j.end())
    return fail(protocol_errc::missing_field, "type", "an action needs \"type\"");
  if (!type_it->is_string())
    return fail(protocol_errc::bad_field_type, "type", "\"type\" must be a string");
  const auto& name = type_it->get_ref<const std::string&>();

  std::optional<action_type> type;
  for (auto t : all_action_types)
    if (action_type_name(t) == name) type = t;
  if (!type)
    return fail(protocol_errc::unknown_type, "type",
                "unknown action type \"" + name + "\" (play, end_turn or concede)");

  for (auto it = j.begin(); it != j.end(); ++it)
    if (!field_allowed(*type, it.key()))
      return fail(protocol_errc::unknown_field, it.key(),
                  "\"" + it.key() + "\" is not a field of a \"" + name + "\" action");

  switch (*type) {
    case action_type::play: return parse_play(j, seat);
    case action_type::end_turn: return action_result{action::end(seat), std::nullopt};
    case action_type::concede: return action_result{action::concede_by(seat), std::nullopt};
  }
  return fail(protocol_errc::unknown_type, "type", "unknown action type");
}

}  // namespace

action_result parse_action(const json& j, seat_t seat) {
  try {
    return parse_object(j, seat);
  } catch (const std::exception& e) {
    // Every access is type-checked first; this is a last guard (bad_alloc).
    return fail(protocol_errc::bad_json, "", e.what());
  }
}

action_result parse_action_text(std::string_view text, seat_t seat) {
  // The cap bounds the parser's work before we know what the text holds; a
  // WebSocket layer caps messages too, but this keeps the codec safe alone.
  if (text.size() > max_action_bytes)
    return fail(protocol_errc::bad_json, "",
                "an action is at most " + std::to_string(max_action_bytes) + " bytes");
  try {
    const json j = json::parse(text, nullptr, /*allow_exceptions=*/false);
    if (j.is_discarded()) return fail(protocol_errc::bad_json, "", "the action is not valid JSON");
    return parse_object(j, seat);
  } catch (const std::exception& e) {
    return fail(protocol_errc::bad_json, "", e.what());
  }
}

json action_to_json(const action& a) {
  json j = {{"type", action_type_name(a.type)}};
  if (a.type != action_type::play) return j;
  j["card"] = static_cast<int>(a.card);
  if (a.target != no_uid) {
    j["target"] = static_cast<int>(a.target);
  } else {
    j["line"] = seat_line_name(a.line);
    if (a.host != no_uid) j["host"] = static_cast<int>(a.host);
  }
  return j;
}

}  // namespace cod::protocol
