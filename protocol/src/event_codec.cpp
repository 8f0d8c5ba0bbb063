// Events on the wire: each type carries only its meaningful fields, under
// descriptive names (the engine packs them into generic event fields).
#include <string>

#include <nlohmann/json.hpp>

#include "cod/protocol/json_codec.hpp"
#include "cod/protocol/wire_names.hpp"
#include "json_util.hpp"

namespace cod::protocol {
namespace {

using json = nlohmann::json;
using detail::seat_json;

class event_writer {
 public:
  event_writer(const catalogue& cat, std::span<const card_id> uid_cards, json& out)
      : cat_(cat), uid_cards_(uid_cards), j_(out) {}

  void seat(const char* key, seat_t s) { j_[key] = seat_json(s); }
  void num(const char* key, int v) { j_[key] = v; }

  // A card-valued field: the uid, and its catalogue id beside it when known.
  void card(const std::string& key, card_uid u) {
    if (u == no_uid) {
      j_[key] = nullptr;
      return;
    }
    j_[key] = static_cast<int>(u);
    if (u < uid_cards_.size()) {
      const card_id c = uid_cards_[u];
      if (c != no_card && c < cat_.size()) j_[key + "_id"] = cat_.def(c).id;
    }
  }

 private:
  const catalogue& cat_;
  std::span<const card_id> uid_cards_;
  json& j_;
};

}  // namespace

std::vector<card_id> uid_cards_from_view(const seat_view& v) {
  std::vector<card_id> out(max_uids, no_card);
  auto note = [&](card_uid u, card_id c) {
    if (u < out.size()) out[u] = c;
  };
  for (const card_ref& r : v.hand) note(r.uid, r.card);
  for (const card_ref& r : v.removed) note(r.uid, r.card);
  for (const seat_public& p : v.seats) {
    note(p.champion.uid, p.champion.card);  // R13.1: revealed
    for (const card_ref& r : p.discard) note(r.uid, r.card);  // R12.1: face up
  }
  for (const auto& deck : v.ai_decks)
    for (const card_ref& r : deck) note(r.uid, r.card);
  for (const auto& hand : v.all_hands)
    for (const card_ref& r : hand) note(r.uid, r.card);
  for (const line_view& line : v.lines)
    for (const side_view& side : line.sides)
      for (const creature_view& c : side.creatures) {
        note(c.uid, c.card);
        if (c.top.uid != no_uid) note(c.top.uid, c.top.card);
        for (const card_ref& h : c.chained) note(h.uid, h.card);
      }
  return out;
}

json event_to_json(const event& raw, seat_t viewer, const catalogue& cat,
                   std::span<const card_id> uid_cards) {
  // Redact here rather than trust every caller to: a hand index must never
  // reach another seat (R16.2).
  const event e = redact(raw, viewer);
  json j = {{"type", event_type_name(e.type)}};
  event_writer w(cat, uid_cards, j);

  // No default: -Wswitch (an error in CI) flags a new engine event type until
  // it has a wire form here.
  switch (e.type) {
    case event_type::match_started: w.seat("first_seat", e.seat); return j;
    case event_type::turn_started:
      w.seat("seat", e.seat);
      w.num("turn", e.amount);
      w.num("round", e.to);
      return j;
    case event_type::card_removed:
      w.seat("seat", e.seat);
      w.card("card", e.uid);
      return j;
    case event_type::mana_gained:
      w.seat("seat", e.seat);
      w.num("mana", e.amount);
      return j;
    case event_type::card_played:
      w.seat("seat", e.seat);
      w.card("card", e.uid);
      if (e.line >= 0) w.num("line", e.line);
      if (e.target != no_uid) w.card("target", e.target);
      w.num("mana_paid", e.amount);  // public: the seat's mana drops by it (0: a free play)
      if (e.from >= 0) w.num("hand_index", e.from);  // private: redact() clears it for others
      return j;
    case event_type::creature_entered:
      w.seat("seat", e.seat);
      w.card("card", e.uid);
      w.num("line", e.line);
      w.num("side", e.side);
      w.num("position", e.to);
      return j;
    case event_type::creature_moved:
    case event_type::creature_vanished:  // the same fields: where it was, where it went
      w.card("card", e.uid);
      w.num("line", e.line);
      w.num("side", e.side);
      w.num("from", e.from);
      w.num("to", e.to);
      return j;
    case event_type::attack:
      w.card("attacker", e.uid);
      w.num("line", e.line);
      if (e.target != no_uid) {
        w.card("target", e.target);
      } else {
        w.seat("stronghold_of", e.seat);
      }
      return j;
    case event_type::damage_dealt:
    case event_type::damage_prevented:
      w.card("source", e.uid);
      w.card("target", e.target);
      w.num("amount", e.amount);
      return j;
    case event_type::creature_destroyed:
      w.card("card", e.uid);
      w.seat("seat", e.seat);
      w.num("line", e.line);
      w.num("side", e.side);
      return j;
    case event_type::card_returned:
      w.card("card", e.uid);
      w.seat("seat", e.seat);
      w.num("hand_index", e.to);
      return j;
    case event_type::stronghold_damaged:
      w.seat("seat", e.seat);
      w.card("source", e.uid);
      w.num("amount", e.amount);
      return j;
    case event_type::stronghold_moved:
      w.seat("seat", e.seat);
      w.num("from", e.from);
      w.num("to", e.to);
      return j;
    case event_type::stronghold_flipped:
      w.seat("seat", e.seat);
      j["side"] = stronghold_side_name(static_cast<stronghold_side>(e.amount));
      return j;
    case event_type::turn_ended:
    case event_type::conceded: w.seat("seat", e.seat); return j;
    case event_type::game_over:
      j["winners"] = detail::seats_json(static_cast<unsigned>(e.amount));
      w.seat("loser", e.seat);
      j["reason"] = protocol::end_reason_name(static_cast<end_reason>(e.to));
      return j;
    case event_type::creature_stacked:
      w.seat("seat", e.seat);
      w.card("card", e.uid);
      w.card("host", e.target);
      w.num("line", e.line);
      w.num("side", e.side);
      w.num("position", e.to);
      return j;
    case event_type::card_chained:
      w.card("chainer", e.uid);
      w.card("card", e.target);
      w.seat("from_seat", e.seat);
      return j;
    case event_type::hand_reordered:
      w.seat("seat", e.seat);
      if (e.uid != no_uid) w.card("card", e.uid);  // private: redact() clears it for others
      w.num("from", e.from);
      w.num("to", e.to);
      return j;
    case event_type::ability_triggered:
      w.seat("seat", e.seat);
      if (e.uid != no_uid) w.card("card", e.uid);
      j["ability"] = ability_name(static_cast<ability>(e.amount));
      return j;
    case event_type::champion_exhausted:  // R13.3
      w.seat("seat", e.seat);
      w.card("card", e.uid);
      return j;
    case event_type::champion_readied:  // R13.3
      w.seat("seat", e.seat);
      w.card("card", e.uid);
      w.card("by_card", e.target);
      w.num("mana_cost", e.amount);
      return j;
    // Solo and co-op (R12, R11.7): the AI's piles. Every card here is face up.
    case event_type::ai_revealed:  // R12.3
      w.seat("seat", e.seat);
      w.card("card", e.uid);
      w.num("line", e.line);
      w.num("deck_size", e.amount);
      return j;
    case event_type::card_milled:  // R12.5, R12.9 Price of Blood
      w.seat("seat", e.seat);
      w.card("card", e.uid);
      w.card("source", e.target);
      w.num("deck_size", e.amount);
      return j;
    case event_type::card_discarded:  // R12.3, R12.4
      w.seat("seat", e.seat);
      w.card("card", e.uid);
      w.num("discard_size", e.amount);
      return j;
    case event_type::card_to_deck: {  // R12.9
      static constexpr const char* from[] = {"play", "chain", "discard", "incantation"};
      w.seat("seat", e.seat);
      w.card("card", e.uid);
      j["from"] = e.from >= 0 && e.from < 4 ? from[e.from] : "play";
      w.num("deck_size", e.amount);
      return j;
    }
    case event_type::deck_reshuffled:  // R12.5
      w.seat("seat", e.seat);
      w.num("deck_size", e.amount);
      return j;
  }
  return j;  // an out-of-range type: its name ("?") is all we can say
}

}  // namespace cod::protocol
