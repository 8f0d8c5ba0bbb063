// Events as sentences a person reads: the demo and the admin's match log
// ("Ann plays BRUTE on the upper line", "ALPHA deals 4 to TROLL"). A seat is
// its player's name when `seat_names` has one, else "seat N" counted from 1,
// as people count (the wire's seat numbers count from 0); positions too.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "cod/engine/catalogue.hpp"
#include "cod/engine/event.hpp"

namespace cod::protocol {

// `uid_cards[uid]` is the catalogue card of each uid (uid_cards_from_view).
std::string narrate(const event& e, const catalogue& cat, std::span<const card_id> uid_cards,
                    std::span<const std::string> seat_names = {});

}  // namespace cod::protocol
