#include "bot/league_moves.hpp"

#include <algorithm>

#include "cod/engine/mutation.hpp"
#include "cod/protocol/mutation_json.hpp"

namespace cod::bot {

using nlohmann::json;

namespace {

bool seat_waiting(const json& view, int seat) {
  for (const auto& s : view.at("draft").at("waiting"))
    if (s == seat) return true;
  return false;
}

const json* own_player(const json& view, int seat) {
  for (const auto& p : view.at("players"))
    if (p.at("seat") == seat) return &p;
  return nullptr;
}

// R15.4: the deck as the league has it now: built from the drafted cards and
// the chosen deck, then every mutation of the player's, in order (the
// engine is deterministic, so this is the server's deck).
std::optional<league_deck> rebuild_deck(const json& you, const catalogue& cat, const mutation_costs& costs) {
  std::vector<card_id> drafted, deck;
  for (const auto& id : you.at("drafted"))
    if (auto c = cat.find(id.get<std::string>())) drafted.push_back(*c);
  for (const auto& c : you.at("deck"))
    if (auto id = cat.find(c.at("card").at("id").get<std::string>())) deck.push_back(*id);
  league_deck out;
  if (make_league_deck(cat, drafted, deck, out) != mutation_error::ok) return std::nullopt;
  for (const auto& rec : you.at("mutations")) {
    auto m = protocol::mutation_from_json(rec.at("mutation"), cat);
    if (!m.ok() || !apply_mutations(costs, out, {m.m}).ok()) return std::nullopt;
  }
  return out;
}

}  // namespace

std::vector<std::string> league_deck_ids(const json& view) {
  std::vector<std::string> out;
  if (!view.contains("you") || !view.at("you").contains("deck")) return out;
  for (const auto& c : view.at("you").at("deck")) out.push_back(c.at("card").at("id").get<std::string>());
  return out;
}

std::optional<json> league_next_op(const json& view, const catalogue& cat, std::mt19937_64& rng) {
  const std::string stage = view.at("stage");
  const json& you = view.at("you");
  const int seat = you.at("seat");
  if (stage == "drafting") {
    const json& packet = you.at("packet");
    if (packet.empty() || !seat_waiting(view, seat)) return std::nullopt;
    return json{{"type", "pick"}, {"card", packet[std::uniform_int_distribution<std::size_t>(0, packet.size() - 1)(rng)]}};
  }
  const json* me = own_player(view, seat);
  if (!me) return std::nullopt;
  if (stage == "building") {
    if (me->at("has_deck")) return std::nullopt;
    std::vector<std::string> drafted = you.at("drafted").get<std::vector<std::string>>();
    std::shuffle(drafted.begin(), drafted.end(), rng);
    drafted.resize(std::min<std::size_t>(drafted.size(), 8));
    return json{{"type", "choose_deck"}, {"cards", drafted}};
  }
  if (stage != "mutating" || me->at("phase_done")) return std::nullopt;
  const auto costs = protocol::mutation_costs_from_json(view.at("costs"));
  if (!costs.ok()) return json{{"type", "pass"}};
  auto deck = rebuild_deck(you, cat, costs.costs);
  if (!deck) return json{{"type", "pass"}};
  // A pass one time in four; else one to three random legal mutations, each
  // chosen among those the points left allow after the ones before.
  if (std::uniform_int_distribution<int>(0, 3)(rng) == 0) return json{{"type", "pass"}};
  json list = json::array();
  half_points left = mutation_budget;
  std::vector<mutation> menu;
  for (int i = 0; i < 3; ++i) {
    legal_mutations(costs.costs, *deck, left, menu);
    if (menu.empty()) break;
    const mutation m = menu[std::uniform_int_distribution<std::size_t>(0, menu.size() - 1)(rng)];
    half_points spent = 0;
    if (!apply_mutations(costs.costs, *deck, {m}, &spent).ok()) break;
    left -= spent;
    list.push_back(protocol::mutation_to_json(m, cat));
    if (std::uniform_int_distribution<int>(0, 1)(rng) == 0) break;
  }
  if (list.empty()) return json{{"type", "pass"}};
  return json{{"type", "mutate"}, {"mutations", std::move(list)}};
}

}  // namespace cod::bot
