// Small JSON helpers shared by the codecs (private to cod_protocol).
#pragma once

#include <cstddef>
#include <string>

#include <nlohmann/json.hpp>

#include <span>

#include "cod/engine/catalogue.hpp"
#include "cod/engine/types.hpp"

namespace cod::protocol::detail {

// Seats are int8 in the engine: widen them so nlohmann never mistakes a signed
// char for a character. no_seat is null.
inline nlohmann::json seat_json(seat_t s) {
  return s == no_seat ? nlohmann::json(nullptr) : nlohmann::json(static_cast<int>(s));
}

// A seat bit mask (bit s = seat s) as an array of seats, lowest first.
inline nlohmann::json seats_json(unsigned mask) {
  nlohmann::json seats = nlohmann::json::array();
  for (int s = 0; s < max_seats; ++s)
    if (mask & (1U << s)) seats.push_back(s);
  return seats;
}

// Cards as their catalogue ids, in order.
inline nlohmann::json card_ids_json(std::span<const card_id> cards, const catalogue& cat) {
  nlohmann::json out = nlohmann::json::array();
  for (card_id c : cards) out.push_back(cat.def(c).id);
  return out;
}

// How errors name a card with no usable id: "#<index>", its 0-based position
// in the document's card array. (Built with += rather than "#" + to_string:
// the latter trips a false -Wrestrict in g++ 12's std::string.)
inline std::string index_name(std::size_t index) {
  std::string name(1, '#');
  name += std::to_string(index);
  return name;
}

}  // namespace cod::protocol::detail
