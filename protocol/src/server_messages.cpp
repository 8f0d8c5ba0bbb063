// Server messages: the builders (server_messages.hpp).
#include <string>

#include "cod/protocol/server_messages.hpp"
#include "cod/protocol/wire_names.hpp"
#include "json_util.hpp"
#include "json_writer.hpp"
#include "view_writer.hpp"

namespace cod::protocol {
namespace {

using json = nlohmann::json;

// A reply: {"type": type} plus the request's id when it had one.
json reply(std::string_view type, const json& id) {
  json j = {{"type", type}};
  if (!id.is_null()) j["id"] = id;
  return j;
}

json pushed(std::string_view type, std::string_view room) {
  return {{"type", type}, {"room", room}};
}

}  // namespace

json make_welcome(const json& id, std::string_view session, std::size_t max_frame_bytes,
                  int rate_limit_per_sec, std::string_view server, const welcome_account* account) {
  json j = reply("welcome", id);
  j["version"] = protocol_version;
  j["server"] = server;
  j["session"] = session;
  j["max_frame_bytes"] = max_frame_bytes;
  j["rate_limit_per_sec"] = rate_limit_per_sec;
  if (account) j["account"] = {{"id", account->id}, {"name", account->name}, {"guest", account->guest}};
  return j;
}

json room_summary_to_json(const room_summary& r) {
  json seats = json::array();
  for (const seat_summary& s : r.seats) {
    seats.push_back({{"seat", s.seat},
                     {"taken", s.taken},
                     {"connected", s.connected},
                     {"name", s.name.empty() ? json(nullptr) : json(s.name)},
                     {"champion", s.champion.empty() ? json(nullptr) : json(s.champion)}});
    if (s.ai) seats.back()["ai"] = true;  // solo, coop: never free to join
    if (s.bot) seats.back()["bot"] = true;
    if (s.bot && s.level > 0) seats.back()["level"] = s.level;
  }
  return {{"room", r.room},
          {"mode", game_mode_name(r.mode)},
          {"format", deck_format_name(r.format)},
          {"options", room_options_to_json(r.options, r.mode)},
          {"status", room_status_name(r.status)},
          {"seats", std::move(seats)},
          {"spectators", r.spectators}};
}

json make_rooms(const json& id, std::span<const room_summary> rooms, std::size_t total,
                std::optional<std::string_view> next) {
  json list = json::array();
  for (const room_summary& r : rooms) list.push_back(room_summary_to_json(r));
  return make_rooms_json(id, std::move(list), total, next);
}

json make_rooms_json(const json& id, json rooms, std::size_t total, std::optional<std::string_view> next) {
  json j = reply("rooms", id);
  j["rooms"] = std::move(rooms);
  j["total"] = total;
  j["next"] = next ? json(*next) : json(nullptr);
  return j;
}

json make_room_created(const json& id, std::string_view room, std::string_view seed_hash) {
  json j = reply("room_created", id);
  j["room"] = room;
  j["seed_hash"] = seed_hash;
  return j;
}

json make_joined(const json& id, std::string_view room, int seat, std::string_view token) {
  json j = reply("joined", id);
  j["room"] = room;
  j["seat"] = seat;
  if (!token.empty()) j["token"] = token;
  return j;
}

json make_spectating(const json& id, std::string_view room) {
  json j = reply("spectating", id);
  j["room"] = room;
  return j;
}

json clock_to_json(const clock_snapshot& c) {
  return {{"remaining_ms", c.remaining_ms}, {"running_seat", detail::seat_json(c.running_seat)}};
}

json make_state(std::string_view room, std::int64_t seq, std::string_view seed_hash, json view,
                const std::optional<clock_snapshot>& clock, const std::optional<json>& events,
                const std::optional<json>& legal_actions) {
  json j = pushed("state", room);
  j["seq"] = seq;
  j["seed_hash"] = seed_hash;
  j["view"] = std::move(view);
  if (clock) j["clock"] = clock_to_json(*clock);
  if (events) j["events"] = *events;
  if (legal_actions) j["legal_actions"] = *legal_actions;
  return j;
}

json events_to_json(std::span<const event> events, seat_t viewer, const catalogue& cat,
                    std::span<const card_id> uid_cards) {
  json out = json::array();
  for (const event& e : events) out.push_back(event_to_json(e, viewer, cat, uid_cards));
  return out;
}

json make_update(std::string_view room, std::int64_t seq, json events, json view,
                 const std::optional<clock_snapshot>& clock) {
  json j = pushed("update", room);
  j["seq"] = seq;
  j["events"] = std::move(events);
  j["view"] = std::move(view);
  if (clock) j["clock"] = clock_to_json(*clock);
  return j;
}

std::string update_text(std::string_view room, std::int64_t seq, const json& events, const seat_view& view,
                        const catalogue& cat, const std::optional<clock_snapshot>& clock, const json* ack_id,
                        const std::string* legal_actions) {
  std::string out;
  out.reserve(4096);
  detail::json_writer w(out);
  w.begin_object();  // keys in ascending order: json_writer's contract
  if (clock) w.field_raw("clock", clock_to_json(*clock).dump());
  w.field_raw("events", events.dump());
  if (ack_id) w.field_raw("id", ack_id->dump());
  if (legal_actions) w.field_raw("legal_actions", *legal_actions);
  w.field("room", room);
  w.field("seq", seq);
  w.field("type", "update");
  w.key("view");
  detail::write_view(w, view, cat);
  w.end_object();
  return out;
}

json make_accepted(const json& id, std::int64_t seq) {
  json j = reply("accepted", id);
  j["seq"] = seq;
  return j;
}

namespace {
void put_ticket(json& j, const queue_ticket_info& t) {
  j["ticket"] = t.ticket;
  j["mode"] = game_mode_name(t.mode);
  j["format"] = deck_format_name(t.format);
  j["rated"] = t.rated;
}
}  // namespace

json make_queued(const json& id, const queue_ticket_info& t, std::size_t searching) {
  json j = reply("queued", id);
  put_ticket(j, t);
  j["searching"] = searching;
  return j;
}

json make_unqueued(const json& id, const std::vector<std::int64_t>& tickets, std::string_view reason) {
  json j = reply("unqueued", id);
  j["tickets"] = tickets;
  j["reason"] = reason;
  return j;
}

json make_matched(const queue_ticket_info& t, std::string_view room, int seat, std::string_view token,
                  const std::vector<std::string>& players, std::string_view connect) {
  json j = {{"type", "matched"}};
  put_ticket(j, t);
  j["room"] = room;
  j["seat"] = seat;
  j["token"] = token;
  j["players"] = players;
  if (!connect.empty()) j["connect"] = connect;
  return j;
}

json make_bot_added(const json& id, std::string_view room, int seat, std::string_view name, int level) {
  json j = reply("bot_added", id);
  j["room"] = room;
  j["seat"] = seat;
  j["name"] = name;
  if (level > 0) j["level"] = level;
  return j;
}

json make_left(const json& id, std::string_view room) {
  json j = reply("left", id);
  j["room"] = room;
  return j;
}

json make_pong(const json& id) { return reply("pong", id); }

json make_emote(const json& id, std::string_view room, int seat, std::string_view name, std::string_view emote) {
  json j = reply("emote", id);
  j["room"] = room;
  j["seat"] = seat;
  j["name"] = name;
  j["emote"] = emote;
  return j;
}

json make_league(const json& id, std::string_view league, json view) {
  json j = reply("league", id);
  j["league"] = league;
  j["view"] = std::move(view);
  return j;
}

json make_league_mutations(const json& id, std::string_view league, int round, int points_left_halves,
                           json legal_mutations) {
  json j = reply("league_mutations", id);
  j["league"] = league;
  j["round"] = round;
  j["points_left"] = points_left_halves / 2.0;  // points, halves allowed (R15.6)
  j["legal_mutations"] = std::move(legal_mutations);
  return j;
}

json make_league_refusal(const json& id, json refusal) {
  // The most specific sentence: the draft's or the mutation's when there is one.
  std::string message;
  for (const char* key : {"detail_message", "message"})
    if (message.empty() && refusal.contains(key) && refusal[key].is_string()) message = refusal[key].get<std::string>();
  json j = make_error(id, session_errc::league_refused, message);
  j["refusal"] = std::move(refusal);
  return j;
}

json make_history(const json& id, std::string_view room, std::int64_t seq, std::vector<history_entry> entries) {
  json j = reply("history", id);
  j["room"] = room;
  j["seq"] = seq;
  j["first_seq"] = entries.empty() ? seq + 1 : entries.front().seq;
  json list = json::array();
  for (auto& e : entries) list.push_back({{"seq", e.seq}, {"events", std::move(e.events)}});
  j["entries"] = std::move(list);
  return j;
}

json make_seat_status(std::string_view room, int seat, bool connected) {
  json j = pushed("seat_status", room);
  j["seat"] = seat;
  j["connected"] = connected;
  return j;
}

json make_match_over(std::string_view room, std::uint8_t winners, end_reason reason,
                     std::uint64_t seed) {
  json j = pushed("match_over", room);
  j["winners"] = detail::seats_json(winners);
  j["reason"] = protocol::end_reason_name(reason);
  j["seed"] = std::to_string(seed);
  return j;
}

json make_clock(std::string_view room, int seat, std::int64_t remaining_ms) {
  json j = pushed("clock", room);
  j["seat"] = seat;
  j["remaining_ms"] = remaining_ms;
  return j;
}

json make_notice(std::string_view room, std::string_view code, std::string_view message) {
  json j = pushed("notice", room);
  j["code"] = code;
  j["message"] = message;
  return j;
}

json make_error(const json& id, const protocol_error& e) {
  json j = reply("error", id);
  j.update(error_to_json(e));
  return j;
}

json make_error(const json& id, session_errc code, std::string_view message) {
  json j = reply("error", id);
  j["code"] = session_errc_name(code);
  j["message"] = message.empty() ? session_errc_message(code) : message;
  return j;
}

json make_error(const json& id, rule_error e) {
  json j = reply("error", id);
  j.update(error_to_json(e));
  return j;
}

json make_error(const json& id, draft_error e) {
  json j = reply("error", id);
  j["code"] = draft_error_name(e);
  j["message"] = draft_error_message(e);
  return j;
}

namespace {

// A refused deck or Champion: the check's reason beside its message (make_error
// puts the code's own message in for an empty one).
template <class Result>
json error_with_reason(const json& id, session_errc code, const Result& r) {
  json j = make_error(id, code, r.message);
  j["reason"] = r.reason;
  return j;
}

}  // namespace

json make_deck_error(const json& id, const deck_result& d) {
  return error_with_reason(id, session_errc::bad_deck, d);
}

json make_champion_error(const json& id, const champion_result& c) {
  return error_with_reason(id, session_errc::bad_champion_choice, c);
}

}  // namespace cod::protocol
