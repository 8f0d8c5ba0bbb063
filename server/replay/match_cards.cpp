#include "replay/match_cards.hpp"

#include <nlohmann/json.hpp>

#include "cod/protocol/card_json.hpp"
#include "common/strcat.hpp"

namespace cod::server {

using detail::cat;

result<std::shared_ptr<const catalogue>> match_catalogue(const catalogue& base, std::string_view cards_json) {
  const auto j = nlohmann::json::parse(cards_json, nullptr, false);
  if (!j.is_array() || j.empty()) return status::invalid("the match's own cards are not a non-empty JSON array of cards");
  auto own = std::make_shared<catalogue>(base);
  for (std::size_t i = 0; i < j.size(); ++i) {
    auto card = protocol::card_from_json(j[i], i);
    if (!card.ok()) return status::invalid(cat("the match's own cards: ", card.error->to_string()));
    const std::string id = card.def.id;
    auto e = own->find(id) ? own->replace(std::move(card.def)) : own->add(std::move(card.def));
    if (e) return status::invalid(cat("the match's own cards: ", e->to_string()));
  }
  return std::shared_ptr<const catalogue>(std::move(own));
}

std::string match_cards_json(const std::vector<card_def>& defs) {
  if (defs.empty()) return "";
  nlohmann::json j = nlohmann::json::array();
  for (const card_def& d : defs) j.push_back(protocol::card_to_json(d));
  return j.dump();
}

}  // namespace cod::server
