#include "cod/protocol/narrate.hpp"

#include "cod/engine/match.hpp"
#include "cod/protocol/wire_names.hpp"

namespace cod::protocol {

namespace {

std::string line_name(int line) {
  // Duel: line 0 is the upper line, 1 the lower (R1.3).
  if (line == 0) return "the upper line";
  if (line == 1) return "the lower line";
  return "line " + std::to_string(line);
}


// "seat 2" opening a sentence; a player's name stays as its player wrote it.
std::string capital(std::string s) {
  if (s.rfind("seat ", 0) == 0) s[0] = 'S';
  return s;
}

}  // namespace

std::string narrate(const event& e, const catalogue& cat, std::span<const card_id> uid_cards,
                    std::span<const std::string> seat_names) {
  auto seat_name = [&](int s) -> std::string {
    if (s >= 0 && static_cast<std::size_t>(s) < seat_names.size() && !seat_names[static_cast<std::size_t>(s)].empty())
      return seat_names[static_cast<std::size_t>(s)];
    return "seat " + std::to_string(s + 1);
  };
  auto card = [&](card_uid u) -> std::string {
    if (u == no_uid) return "?";
    if (u < uid_cards.size() && uid_cards[u] != no_card && uid_cards[u] < cat.size())
      return cat.def(uid_cards[u]).name;
    return "card #" + std::to_string(u);
  };
  const std::string seat = seat_name(e.seat);
  switch (e.type) {
    case event_type::match_started:
      return capital(seat) + " goes first";
    case event_type::turn_started:
      return "Turn " + std::to_string(e.amount) + " (round " + std::to_string(e.to) + "): " + seat;
    case event_type::card_removed:
      return capital(seat) + " is exhausted: " + card(e.uid) + " leaves the game";
    case event_type::mana_gained:
      return capital(seat) + " has " + std::to_string(e.amount) + " mana";
    case event_type::card_played:
      if (e.target != no_uid) return capital(seat) + " casts " + card(e.uid) + " on " + card(e.target);
      return capital(seat) + " plays " + card(e.uid) + " on " + line_name(e.line);
    case event_type::creature_entered:
      return card(e.uid) + " enters " + line_name(e.line) + " at position " + std::to_string(e.to + 1);
    case event_type::creature_moved:
      return card(e.uid) + " sprints " + std::to_string(e.amount) + " place" + (e.amount == 1 ? "" : "s") +
             " to the Bridge (+" + std::to_string(e.amount) + " AV)";
    case event_type::attack:
      if (e.target != no_uid) return card(e.uid) + " attacks " + card(e.target);
      return card(e.uid) + " attacks " + seat + "'s Stronghold";
    case event_type::damage_dealt:
      return card(e.uid) + " deals " + std::to_string(e.amount) + " to " + card(e.target);
    case event_type::damage_prevented:
      return card(e.target) + " takes no damage from " + card(e.uid);
    case event_type::creature_destroyed:
      return card(e.uid) + " is destroyed";
    case event_type::card_returned:
      return card(e.uid) + " returns to " + seat + "'s hand";
    case event_type::stronghold_damaged:
      return capital(seat) + "'s Stronghold takes " + std::to_string(e.amount) + " damage";
    case event_type::stronghold_moved:
      return capital(seat) + "'s Stronghold moves from position " + std::to_string(e.from + 1) + " to " +
             std::to_string(e.to + 1);
    case event_type::stronghold_flipped:
      return capital(seat) + "'s Bastion falls: Fort up, leftmost";
    case event_type::turn_ended:
      return capital(seat) + " ends the turn";
    case event_type::conceded:
      return capital(seat) + " concedes";
    case event_type::creature_stacked:
      return card(e.uid) + " joins " + card(e.target) + " as its Symbiote";
    case event_type::creature_vanished:
      return card(e.uid) + " vanishes to the back of its line";
    case event_type::card_chained:
      return card(e.uid) + " chains " + card(e.target) + " from " + seat + "'s hand";
    case event_type::hand_reordered:
      return capital(seat) + " moves " + (e.uid == no_uid ? std::string("a card") : card(e.uid)) +
             " from the left of the hand to the right";
    case event_type::ability_triggered: {
      const std::string what(ability_name(static_cast<ability>(e.amount)));
      return (e.uid == no_uid ? capital(seat) : card(e.uid)) + ": " + what;
    }
    case event_type::champion_exhausted:
      return capital(seat) + "'s Champion " + card(e.uid) + " is exhausted beside the play area";
    case event_type::champion_readied:
      return capital(seat) + "'s Champion " + card(e.uid) + " is ready again (" + card(e.target) + " costs " +
             std::to_string(e.amount) + ")";
    case event_type::ai_revealed:
      return capital(seat) + " reveals " + card(e.uid) + " for " + line_name(e.line);
    case event_type::card_milled:
      return card(e.uid) + " goes from " + seat + "'s deck to its discard pile";
    case event_type::card_discarded:
      return card(e.uid) + " goes to " + seat + "'s discard pile";
    case event_type::card_to_deck:
      return card(e.uid) + " goes on top of " + seat + "'s deck";
    case event_type::deck_reshuffled:
      return capital(seat) + " shuffles its discard pile into a new deck of " + std::to_string(e.amount) + " cards";
    case event_type::game_over: {
      std::string winners;
      const auto seats = winner_seats(static_cast<std::uint8_t>(e.amount));
      for (std::size_t i = 0; i < seats.size(); ++i)
        winners += (i == 0 ? "" : i + 1 == seats.size() ? " and " : ", ") + seat_name(seats[i]);
      // The reason in words, with whose defeat it was (e.seat: the loser,
      // when there is one): "fort_destroyed" is a code, not a sentence.
      const bool loser = e.seat != no_seat;
      std::string why;
      switch (static_cast<end_reason>(e.to)) {
        case end_reason::fort_destroyed: why = loser ? seat + "'s Fort was destroyed" : "a Fort was destroyed"; break;
        case end_reason::stronghold_alone:
          why = (loser ? seat + "'s" : std::string("a")) + " Stronghold was left alone in hand";
          break;
        case end_reason::concession: why = loser ? seat + " conceded" : "a player conceded"; break;
        case end_reason::none: why = "no reason given"; break;
      }
      return "Game over: " + capital(winners) + (seats.size() > 1 ? " win (" : " wins (") + why + ")";
    }
  }
  return std::string(event_type_name(e.type));
}

}  // namespace cod::protocol
