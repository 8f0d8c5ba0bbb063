// Events as sentences a person reads: the demo, and later the admin's match log
// ("Seat 0 plays BRUTE on the upper line", "ALPHA deals 4 to TROLL").
// Seats are named by their wire number (0-based), as everywhere else.
#pragma once

#include <span>
#include <string>

#include "cod/engine/catalogue.hpp"
#include "cod/engine/event.hpp"

namespace cod::protocol {

// `uid_cards[uid]` is the catalogue card of each uid (uid_cards_from_view).
std::string narrate(const event& e, const catalogue& cat, std::span<const card_id> uid_cards);

}  // namespace cod::protocol
