// The closed set of things a seat can do. The wire protocol uses the same
// vocabulary (docs/protocol.md, docs/scenarios.md).
#pragma once

#include <cstdint>
#include <string_view>

#include "cod/engine/types.hpp"

namespace cod {

enum class action_type : std::uint8_t {
  play,      // R3.2: play a card from hand (creature on a line, incantation on a target)
  end_turn,  // end Phase 2; Phase 3 (assault) and the end of turn resolve at once
  concede,   // R16.3: any seat, any time
};
std::string_view action_type_name(action_type t);

struct action {
  action_type type = action_type::end_turn;
  seat_t seat = no_seat;
  card_uid card = no_uid;     // play: the card in hand
  std::int8_t line = -1;   // play creature: 0 upper, 1 lower (the seat's own lines)
  card_uid target = no_uid;   // play incantation: the creature targeted
  card_uid host = no_uid;     // play a Symbiote: the own creature it goes on (R7); no_uid: enters alone
  bool operator==(const action&) const = default;

  static action play_creature(seat_t s, card_uid c, int line) {
    return {action_type::play, s, c, static_cast<std::int8_t>(line), no_uid, no_uid};
  }
  static action play_symbiote(seat_t s, card_uid c, int line, card_uid host) {
    return {action_type::play, s, c, static_cast<std::int8_t>(line), no_uid, host};
  }
  static action play_incantation(seat_t s, card_uid c, card_uid target) {
    return {action_type::play, s, c, -1, target, no_uid};
  }
  static action end(seat_t s) { return {action_type::end_turn, s, no_uid, -1, no_uid, no_uid}; }
  static action concede_by(seat_t s) { return {action_type::concede, s, no_uid, -1, no_uid, no_uid}; }
};

}  // namespace cod
