// Views on the wire: a seat_view, field for field, with names for enums and
// catalogue ids beside uids. project() has already hidden what the viewer may
// not see (R16.2); this adds nothing and drops nothing.
//
// One encoder: the view is written straight to text (json_writer; the server
// sends one per recipient per action), and view_to_json parses that text for
// callers that want a DOM. Keys go in ascending order in every object
// (json_writer's contract), so the text is exactly nlohmann's dump of it.
#include <nlohmann/json.hpp>

#include "cod/protocol/json_codec.hpp"
#include "cod/protocol/wire_names.hpp"
#include "json_writer.hpp"
#include "view_writer.hpp"

namespace cod::protocol {
namespace {

using json = nlohmann::json;
using detail::json_writer;

void write_card_id(json_writer& w, const catalogue& cat, card_id c) {
  if (c < cat.size()) w.value(std::string_view(cat.def(c).id));
  else w.null();
}

void write_seat(json_writer& w, seat_t s) {
  if (s == no_seat) w.null();
  else w.value(static_cast<int>(s));
}

void write_card(json_writer& w, const catalogue& cat, const card_ref& r) {
  w.begin_object();
  w.key("card_id");
  write_card_id(w, cat, r.card);
  w.field("uid", static_cast<int>(r.uid));
  w.end_object();
}

void write_cards(json_writer& w, const catalogue& cat, const std::vector<card_ref>& refs) {
  w.begin_array();
  for (const card_ref& r : refs) write_card(w, cat, r);
  w.end_array();
}

// Referee only (R16.2): one card list per seat, the key left out when empty.
void write_card_lists(json_writer& w, const catalogue& cat, std::string_view key,
                      const std::vector<std::vector<card_ref>>& lists) {
  if (lists.empty()) return;
  w.key(key);
  w.begin_array();
  for (const auto& cards : lists) write_cards(w, cat, cards);
  w.end_array();
}

void write_abilities(json_writer& w, ability_set s) {
  w.begin_array();
  for (int i = 0; i < ability_count; ++i)
    if (has(s, static_cast<ability>(i))) w.value(ability_name(static_cast<ability>(i)));
  w.end_array();
}

void write_creature(json_writer& w, const catalogue& cat, const creature_view& c) {
  w.begin_object();
  w.key("abilities");
  write_abilities(w, c.abilities);
  w.field("attacked", c.attacked);
  w.field("av", c.av);
  w.field("bonus_av", c.bonus_av);
  w.key("card_id");
  write_card_id(w, cat, c.card);
  // R7 Chain: the cards held under it (revealed when taken).
  w.key("chained");
  write_cards(w, cat, c.chained);
  // Whose hand each held card was taken from (public: card_chained), so that
  // a client can rebuild the position (a computer player's world).
  w.key("chained_from");
  w.begin_array();
  for (seat_t s : c.chained_from) write_seat(w, s);
  w.end_array();
  w.field("damage", c.damage);
  w.field("entered_this_turn", c.entered_this_turn);
  w.field("hp", c.hp);
  w.field("protection_used", c.protection_used);
  // R7 Sharpening: its once-a-turn excess is spent (public: the trigger was seen).
  w.field("sharpening_spent", c.sharpening_spent);
  // R7 Symbiote: the card stacked on this one, or null.
  w.key("top");
  if (c.top.uid == no_uid) w.null();
  else write_card(w, cat, c.top);
  w.field("uid", static_cast<int>(c.uid));
  w.end_object();
}

void write_line(json_writer& w, const catalogue& cat, const line_view& line) {
  w.begin_object();
  w.key("sides");
  w.begin_array();
  for (const side_view& side : line.sides) {
    w.begin_object();
    w.key("creatures");
    w.begin_array();
    for (const creature_view& c : side.creatures) write_creature(w, cat, c);
    w.end_array();
    w.key("seat");
    write_seat(w, side.seat);
    w.end_object();
  }
  w.end_array();
  w.end_object();
}

void write_seat_public(json_writer& w, const catalogue& cat, int seat, const seat_public& p) {
  w.begin_object();
  // R12.1, R16.2 (solo, co-op): an AI seat's deck size and face-up discard
  // pile (bottom to top); never its deck's order. (Keys in order: "ai",
  // "champion", "deck_size", "discard", ...)
  if (p.ai) w.field("ai", true);
  // R13: the seat's Champion (revealed to every viewer), or null.
  w.key("champion");
  if (p.champion.uid == no_uid) {
    w.null();
  } else {
    w.begin_object();
    w.key("card_id");
    write_card_id(w, cat, p.champion.card);
    w.field("state", champion_status_name(p.champion.state));
    w.field("uid", static_cast<int>(p.champion.uid));
    w.end_object();
  }
  if (p.ai) {
    w.field("deck_size", p.deck_size);
    w.key("discard");
    write_cards(w, cat, p.discard);
  }
  w.field("hand_size", p.hand_size);
  w.field("health", p.health);
  w.field("lower_line", p.lower_line);
  w.field("mana", p.mana);
  w.field("seat", seat);
  w.field("side", stronghold_side_name(p.side));
  w.field("stronghold_pos", p.stronghold_pos);
  w.field("upper_line", p.upper_line);
  w.end_object();
}

void write_seat_mask(json_writer& w, unsigned mask) {
  w.begin_array();
  for (int s = 0; s < max_seats; ++s)
    if (mask & (1U << s)) w.value(s);
  w.end_array();
}

}  // namespace

json abilities_to_json(ability_set s) {
  json names = json::array();
  for (int i = 0; i < ability_count; ++i)
    if (has(s, static_cast<ability>(i))) names.push_back(ability_name(static_cast<ability>(i)));
  return names;
}

namespace detail {

void write_view(json_writer& w, const seat_view& v, const catalogue& cat) {
  w.begin_object();
  w.key("active_seat");
  write_seat(w, v.active_seat);
  write_card_lists(w, cat, "ai_decks", v.ai_decks);  // each AI's deck, top first
  write_card_lists(w, cat, "all_hands", v.all_hands);  // every seat's hand
  w.field("exhausted", v.exhausted);
  w.field("exhaustion_rule", v.exhaustion_rule);
  w.key("first_seat");
  write_seat(w, v.first_seat);
  w.key("hand");
  write_cards(w, cat, v.hand);
  w.key("lines");
  w.begin_array();
  for (const line_view& line : v.lines) write_line(w, cat, line);
  w.end_array();
  w.key("loser");
  write_seat(w, v.loser);
  w.field("mode", game_mode_name(v.mode));
  w.field("phase", protocol::phase_name(v.current_phase));
  w.key("playable");
  w.begin_array();
  for (card_uid u : v.playable) w.value(static_cast<int>(u));
  w.end_array();
  w.field("reason", protocol::end_reason_name(v.reason));
  w.key("removed");
  write_cards(w, cat, v.removed);
  w.field("role", protocol::viewer_role_name(v.viewer));
  w.field("round", v.round);
  w.key("seats");
  w.begin_array();
  for (std::size_t s = 0; s < v.seats.size(); ++s) write_seat_public(w, cat, static_cast<int>(s), v.seats[s]);
  w.end_array();
  // R11.6 (2v2): who the teammate is; its hand only with share_team_hands.
  const bool two_vs_two = v.mode == game_mode::two_vs_two;
  if (two_vs_two) w.field("share_team_hands", v.share_team_hands);
  // R17.25: the room's stall guard (0: never), public in the room's options.
  w.field("stall_exhaustion_turn", v.stall_exhaustion_turn);
  if (two_vs_two) {
    if (v.teammate != no_seat) w.field("teammate", static_cast<int>(v.teammate));
    if (v.share_team_hands && v.teammate != no_seat) {
      w.key("teammate_hand");
      write_cards(w, cat, v.teammate_hand);
    }
  }
  w.field("turn", v.turn);
  w.key("viewer");
  write_seat(w, v.viewer >= 0 ? v.viewer : no_seat);
  w.key("winners");
  write_seat_mask(w, v.winners);
  w.end_object();
}

}  // namespace detail

void write_view(std::string& out, const seat_view& v, const catalogue& cat) {
  json_writer w(out);
  detail::write_view(w, v, cat);
}

json view_to_json(const seat_view& v, const catalogue& cat) {
  std::string text;
  write_view(text, v, cat);
  return json::parse(text);
}

}  // namespace cod::protocol
