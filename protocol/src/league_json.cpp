#include "cod/protocol/league_json.hpp"

#include <nlohmann/json.hpp>

#include "cod/protocol/card_json.hpp"
#include "cod/protocol/mutation_json.hpp"
#include "json_util.hpp"

namespace cod::protocol {

namespace {

using json = nlohmann::json;

constexpr auto ids = detail::card_ids_json;

json seat_or_null(seat_t s) { return s == no_seat ? json(nullptr) : json(static_cast<int>(s)); }

json ability_list(ability_set s) {
  json a = json::array();
  for (int i = 0; i < ability_count; ++i)
    if (has(s, static_cast<ability>(i))) a.push_back(ability_name(static_cast<ability>(i)));
  return a;
}

bool read_seat(const json& j, seat_t& out, std::string& error) {
  auto it = j.find("seat");
  if (it == j.end() || !it->is_number_integer() || it->get<int>() < 0 || it->get<int>() >= league_players) {
    error = "seat: a player's seat, 0 to 3";
    return false;
  }
  out = static_cast<seat_t>(it->get<int>());
  return true;
}

bool read_card(const json& v, const catalogue& cat, const std::string& field, card_id& out, std::string& error) {
  if (!v.is_string()) {
    error = field + ": must be a card id (a string)";
    return false;
  }
  auto id = cat.find(v.get_ref<const std::string&>());
  if (!id) {
    error = field + ": no card \"" + v.get<std::string>() + "\" in the catalogue";
    return false;
  }
  out = *id;
  return true;
}

bool only_keys(const json& j, std::initializer_list<const char*> keys, std::string& error) {
  for (auto it = j.begin(); it != j.end(); ++it) {
    bool known = false;
    for (const char* k : keys) known = known || it.key() == k;
    if (!known) {
      error = it.key() + ": unknown field";
      return false;
    }
  }
  return true;
}

json deck_card_json(const catalogue& cat, const league_card& c) {
  return {{"card", card_to_json(mutated_def(cat, c))},
          {"mutated",
           {{"mana", c.mana_mutated},
            {"av", c.av_mutated},
            {"hp", c.hp_mutated},
            {"abilities", ability_list(c.pasted)},
            {"auras", ability_list(c.pasted_auras)}}}};
}

json lab_card_json(const catalogue& cat, const lab_card& c) {
  return {{"card", cat.def(c.id).id},
          {"used",
           {{"mana", c.mana_used},
            {"av", c.av_used},
            {"hp", c.hp_used},
            {"abilities", ability_list(c.used)},
            {"auras", ability_list(c.used_auras)}}}};
}

json mutation_record_json(const league_mutation_record& r, const catalogue& cat) {
  return {{"round", r.round}, {"seat", r.seat}, {"mutation", mutation_to_json(r.m, cat)}, {"points", r.cost / 2.0}};
}

json players_json(const league& l, const std::vector<std::string>& names) {
  json players = json::array();
  for (const league_standing& s : l.standings()) {
    players.push_back({{"seat", s.seat},
                       {"name", static_cast<std::size_t>(s.seat) < names.size() ? json(names[s.seat]) : json(nullptr)},
                       {"played", s.played},
                       {"won", s.won},
                       {"place", s.place},
                       {"has_deck", l.has_deck(s.seat)},
                       {"phase_done", l.stage() == league_stage::mutating && l.phase_done(s.seat)}});
  }
  return players;
}

json schedule_json(const league& l) {
  json rounds = json::array();
  for (int r = 1; r <= league_rounds; ++r) {
    json tables = json::array();
    for (int t = 0; t < league_tables; ++t) {
      const league_table& x = l.table(r, t);
      tables.push_back({{"table", t},
                        {"seats", {x.seats[0], x.seats[1]}},
                        {"decided", x.decided},
                        {"winner", x.decided ? seat_or_null(x.winner) : json(nullptr)}});
    }
    rounds.push_back({{"round", r}, {"tables", std::move(tables)}});
  }
  return rounds;
}

}  // namespace

json league_op_to_json(const league_op& op, const catalogue& cat) {
  json j = {{"type", league_op_type_name(op.type)}};
  switch (op.type) {
    case league_op_type::pick:
      j["seat"] = op.pick.seat;
      j["card"] = op.pick.cards.empty() ? json(nullptr) : json(cat.def(op.pick.cards[0]).id);
      break;
    case league_op_type::choose_deck:
      j["seat"] = op.seat;
      j["cards"] = ids(op.cards, cat);
      break;
    case league_op_type::mutate: {
      j["seat"] = op.seat;
      json ms = json::array();
      for (const mutation& m : op.mutations) ms.push_back(mutation_to_json(m, cat));
      j["mutations"] = std::move(ms);
      break;
    }
    case league_op_type::pass:
      j["seat"] = op.seat;
      break;
    case league_op_type::result:
      j["table"] = op.table;
      j["winner"] = seat_or_null(op.winner);
      break;
  }
  return j;
}

std::optional<league_op> league_op_from_json(const json& j, const catalogue& cat, std::string& error) {
  if (!j.is_object()) {
    error = "op: must be an object {\"type\", ...}";
    return std::nullopt;
  }
  auto type = j.find("type");
  if (type == j.end() || !type->is_string()) {
    error = "type: missing (pick, choose_deck, mutate, pass or result)";
    return std::nullopt;
  }
  league_op op;
  const std::string& t = type->get_ref<const std::string&>();
  if (t == "pick") {
    if (!only_keys(j, {"type", "seat", "card"}, error) || !read_seat(j, op.seat, error)) return std::nullopt;
    op.type = league_op_type::pick;
    op.pick.type = draft_pick_type::take;
    op.pick.seat = op.seat;
    card_id c = no_card;
    if (!j.contains("card") || !read_card(j["card"], cat, "card", c, error)) {
      if (error.empty()) error = "card: missing (the card kept from the packet)";
      return std::nullopt;
    }
    op.pick.cards = {c};
  } else if (t == "choose_deck") {
    if (!only_keys(j, {"type", "seat", "cards"}, error) || !read_seat(j, op.seat, error)) return std::nullopt;
    op.type = league_op_type::choose_deck;
    auto cards = j.find("cards");
    if (cards == j.end() || !cards->is_array() || cards->size() > 64) {
      error = "cards: missing (an array of the 8 deck cards' ids)";
      return std::nullopt;
    }
    for (std::size_t i = 0; i < cards->size(); ++i) {
      card_id c = no_card;
      if (!read_card((*cards)[i], cat, "cards[" + std::to_string(i) + "]", c, error)) return std::nullopt;
      op.cards.push_back(c);
    }
  } else if (t == "mutate") {
    if (!only_keys(j, {"type", "seat", "mutations"}, error) || !read_seat(j, op.seat, error)) return std::nullopt;
    op.type = league_op_type::mutate;
    auto ms = j.find("mutations");
    if (ms == j.end() || !ms->is_array() || ms->empty() || ms->size() > max_phase_mutations) {
      error = "mutations: missing (an array of 1 to " + std::to_string(max_phase_mutations) +
              " mutations; to mutate nothing, pass)";
      return std::nullopt;
    }
    for (std::size_t i = 0; i < ms->size(); ++i) {
      auto m = mutation_from_json((*ms)[i], cat);
      if (!m.ok()) {
        error = "mutations[" + std::to_string(i) + "]." + m.error;
        return std::nullopt;
      }
      op.mutations.push_back(std::move(m.m));
    }
  } else if (t == "pass") {
    if (!only_keys(j, {"type", "seat"}, error) || !read_seat(j, op.seat, error)) return std::nullopt;
    op.type = league_op_type::pass;
  } else if (t == "result") {
    if (!only_keys(j, {"type", "table", "winner"}, error)) return std::nullopt;
    op.type = league_op_type::result;
    auto table = j.find("table");
    auto winner = j.find("winner");
    if (table == j.end() || !table->is_number_integer() || table->get<int>() < 0 || table->get<int>() >= league_tables) {
      error = "table: the duel, 0 or 1";
      return std::nullopt;
    }
    op.table = table->get<int>();
    if (winner == j.end() || !(winner->is_null() || (winner->is_number_integer() && winner->get<int>() >= 0 &&
                                                      winner->get<int>() < league_players))) {
      error = "winner: a player's seat, or null for a duel nobody won";
      return std::nullopt;
    }
    op.winner = winner->is_null() ? no_seat : static_cast<seat_t>(winner->get<int>());
  } else {
    error = "type: must be pick, choose_deck, mutate, pass or result";
    return std::nullopt;
  }
  return op;
}

json league_refusal_to_json(const league_refusal& r) {
  json j = {{"error", league_error_name(r.error)}, {"message", league_error_message(r.error)}};
  if (r.error == league_error::draft_refused) {
    j["detail"] = draft_error_name(r.draft);
    j["detail_message"] = draft_error_message(r.draft);
  } else if (r.error == league_error::deck_refused || r.error == league_error::mutation_refused) {
    j["detail"] = mutation_error_name(r.mutation);
    j["detail_message"] = mutation_error_message(r.mutation);
    if (r.error == league_error::mutation_refused) j["index"] = r.index;
  }
  return j;
}

json league_view_to_json(const league& l, seat_t viewer, const std::vector<std::string>& names) {
  const catalogue& cat = l.cards();
  json j = {{"stage", league_stage_name(l.stage())},
            {"round", l.round()},
            {"points", mutation_budget / 2.0},
            {"costs", mutation_costs_to_json(l.config().costs)},
            {"packs", l.config().packs},
            {"players", players_json(l, names)},
            {"schedule", schedule_json(l)}};
  if (l.stage() == league_stage::drafting) {
    // E77: the counts are public; the packets and picks are each seat's own.
    const draft_state& ds = l.the_draft().state();
    json counts = json::array(), waiting = json::array();
    for (int s = 0; s < league_players; ++s) {
      counts.push_back(ds.seats[s].taken.size());
      if (!ds.seats[s].submitted) waiting.push_back(s);
    }
    j["draft"] = {{"pick", ds.round + 1}, {"taken_counts", std::move(counts)}, {"waiting", std::move(waiting)}};
  }
  if (viewer < 0 || viewer >= league_players) return j;
  json you = {{"seat", viewer}};
  if (l.stage() == league_stage::drafting) {
    const draft_seat_state& me = l.the_draft().state().seats[viewer];
    you["packet"] = ids(me.packet, cat);
    you["taken"] = ids(me.taken, cat);
  } else {
    you["drafted"] = ids(l.drafted(viewer), cat);
  }
  if (l.has_deck(viewer)) {
    json deck = json::array(), lab = json::array();
    for (const league_card& c : l.deck_of(viewer).deck) deck.push_back(deck_card_json(cat, c));
    for (const lab_card& c : l.deck_of(viewer).lab) lab.push_back(lab_card_json(cat, c));
    you["deck"] = std::move(deck);
    you["lab"] = std::move(lab);
  }
  json mine = json::array();
  for (const auto& r : l.mutation_record())
    if (r.seat == viewer) mine.push_back(mutation_record_json(r, cat));
  you["mutations"] = std::move(mine);
  // R15.4: while the viewer may still act in this phase, every single
  // mutation its deck allows now, as the engine lists them (in its order):
  // a client offers these and no other instead of judging R15.4–R15.5
  // itself. Empty when none is allowed (a pass is left); absent otherwise.
  std::vector<mutation> menu;
  if (l.stage() == league_stage::mutating && l.legal_mutations_after(viewer, {}, menu).ok())
    you["legal_mutations"] = mutations_to_json(menu, cat);
  j["you"] = std::move(you);
  return j;
}

json league_export_json(const league& l, const std::vector<std::string>& names) {
  const catalogue& cat = l.cards();
  json j = league_view_to_json(l, no_seat, names);
  json ops = json::array();
  for (const league_op& op : l.ops()) ops.push_back(league_op_to_json(op, cat));
  j["ops"] = std::move(ops);
  json seats = json::array();
  for (seat_t s = 0; s < league_players; ++s) {
    json p = {{"seat", s}, {"drafted", ids(l.drafted(s), cat)}};
    json deck = json::array(), lab = json::array();
    for (const league_card& c : l.deck_of(s).deck) deck.push_back(deck_card_json(cat, c));
    for (const lab_card& c : l.deck_of(s).lab) lab.push_back(lab_card_json(cat, c));
    p["deck"] = std::move(deck);
    p["lab"] = std::move(lab);
    seats.push_back(std::move(p));
  }
  j["seats"] = std::move(seats);
  json ms = json::array();
  for (const auto& r : l.mutation_record()) ms.push_back(mutation_record_json(r, cat));
  j["mutations"] = std::move(ms);
  return j;
}

}  // namespace cod::protocol
