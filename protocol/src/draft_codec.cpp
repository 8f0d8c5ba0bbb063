// The drafting phase's JSON (draft_codec.hpp).
#include "cod/protocol/draft_codec.hpp"

#include "json_util.hpp"

namespace cod::protocol {
namespace {

using json = nlohmann::json;
constexpr auto ids = detail::card_ids_json;

}  // namespace

json draft_view_to_json(const draft_view& v, std::span<const card_id> pool, const catalogue& cat) {
  json j;
  j["format"] = draft_format_name(v.format);
  j["table"] = draft_table_name(v.table);
  j["finished"] = v.finished;
  j["round"] = v.round;
  j["pile_left"] = v.pile_left;
  j["pool"] = ids(pool, cat);
  j["offer"] = ids(v.offer, cat);
  json waiting = json::array();
  for (const draft_turn& t : v.waiting) {
    json w = {{"seat", t.seat}, {"pick", draft_pick_type_name(t.type)}, {"count", t.count}};
    if (t.type == draft_pick_type::ban) w["target"] = t.target;
    waiting.push_back(std::move(w));
  }
  j["waiting"] = std::move(waiting);
  json seats = json::array();
  for (int s = 0; s < v.seat_count; ++s) {
    const draft_seat_view& sv = v.seats[static_cast<std::size_t>(s)];
    json o = {{"seat", s},
              {"ai", sv.ai},
              {"taken", ids(sv.taken, cat)},
              {"banned", ids(sv.banned, cat)},
              {"submitted", sv.submitted},
              {"revealed", sv.revealed},
              {"deck_size", sv.deck_size}};
    // A secret list is only its owner's until revealed (R16.2).
    o["list"] = sv.list.empty() ? json() : ids(sv.list, cat);
    o["deck"] = sv.deck ? json(sv.deck) : json();
    seats.push_back(std::move(o));
  }
  j["seats"] = std::move(seats);
  j["ai_cards"] = ids(v.ai_cards, cat);
  j["own_deck"] = ids(v.own_deck, cat);
  return j;
}

json draft_event_to_json(const draft_event& e, const catalogue& cat) {
  json j = {{"type", draft_event_type_name(e.type)}};
  if (e.seat != no_seat) j["seat"] = e.seat;
  if (e.target != no_seat) j["target"] = e.target;
  if (!e.cards.empty()) j["cards"] = ids(e.cards, cat);
  if (e.deck) j["deck"] = e.deck;
  // `started` always says how many cards the pile holds: 0 in instant
  // constructed, which deals from no pile (R14.7).
  if (e.count || e.type == draft_event_type::started) j["count"] = e.count;
  if (e.automatic) j["automatic"] = true;
  return j;
}

json draft_events_to_json(std::span<const draft_event> events, const catalogue& cat) {
  json out = json::array();
  for (const draft_event& e : events) out.push_back(draft_event_to_json(e, cat));
  return out;
}

json make_draft(std::string_view room, std::int64_t seq, json events, json view,
                const std::optional<json>& legal_picks) {
  json j = {{"type", "draft"}, {"room", room}, {"seq", seq}, {"events", std::move(events)}, {"draft", std::move(view)}};
  if (legal_picks) j["legal_picks"] = *legal_picks;
  return j;
}

json legal_picks_to_json(std::span<const draft_pick> legal, seat_t seat, const catalogue& cat) {
  json out = json::array();
  for (const draft_pick& p : legal)
    if (p.seat == seat) out.push_back(draft_pick_to_json(p, cat));
  return out;
}

json draft_pick_to_json(const draft_pick& p, const catalogue& cat) {
  json j = {{"pick", draft_pick_type_name(p.type)}};
  if (p.type == draft_pick_type::choose_deck) j["deck"] = p.deck;
  else j["cards"] = ids(p.cards, cat);
  return j;
}

std::optional<draft_pick> draft_pick_from_json(const json& j, seat_t seat, const catalogue& cat, std::string& error) {
  if (!j.is_object() || !j.contains("pick") || !j["pick"].is_string()) {
    error = "not a pick object";
    return std::nullopt;
  }
  draft_pick p;
  p.seat = seat;
  const auto& type = j["pick"].get_ref<const std::string&>();
  bool known = false;
  for (auto t : {draft_pick_type::take, draft_pick_type::ban, draft_pick_type::submit, draft_pick_type::choose_deck})
    if (type == draft_pick_type_name(t)) {
      p.type = t;
      known = true;
    }
  if (!known) {
    error = "unknown pick type " + type;
    return std::nullopt;
  }
  if (p.type == draft_pick_type::choose_deck) {
    if (!j.contains("deck") || !j["deck"].is_number_integer()) {
      error = "choose_deck without a deck";
      return std::nullopt;
    }
    p.deck = j["deck"].get<int>();
    return p;
  }
  if (!j.contains("cards") || !j["cards"].is_array()) {
    error = "a pick without cards";
    return std::nullopt;
  }
  for (const json& c : j["cards"]) {
    const auto id = c.is_string() ? cat.find(c.get_ref<const std::string&>()) : std::nullopt;
    if (!id) {
      error = "unknown card " + c.dump();
      return std::nullopt;
    }
    p.cards.push_back(*id);
  }
  return p;
}

}  // namespace cod::protocol
