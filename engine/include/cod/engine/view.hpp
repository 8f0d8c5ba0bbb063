// Per-viewer projection (R16.2): the only way state leaves the engine.
//
// A seat sees its own hand in order; every card on the board; every seat's
// hand size, Stronghold index and side, and Champion (R13.1: revealed);
// cards removed from the game; an AI's deck size, Stronghold side and discard
// pile (R12.1). It never sees another seat's hand contents or order, nor the
// order or contents of an AI's deck. A spectator sees what every
// seat sees of the others. The referee view (admins' replays, scenario tests)
// sees every hand and is never sent to a player.
#pragma once

#include <cstdint>
#include <vector>

#include "cod/engine/event.hpp"
#include "cod/engine/state.hpp"
#include "cod/engine/types.hpp"

namespace cod {

class catalogue;

// Viewer ids besides seats 0..3.
inline constexpr seat_t spectator = -2;
inline constexpr seat_t referee = -3;

struct card_ref {
  card_uid uid = no_uid;
  card_id card = no_card;
  bool operator==(const card_ref&) const = default;
};

struct creature_view {
  card_uid uid = no_uid;
  card_id card = no_card;
  card_ref top;               // R7 Symbiote: the card stacked on it (uid no_uid if none)
  std::vector<card_ref> chained;  // R7 Chain: cards held under it (revealed when taken)
  std::vector<seat_t> chained_from;  // whose hand each held card was taken from (public: card_chained)
  int av = 0;                 // printed AV (both cards of a pair) + Sprint bonus this turn
  int hp = 0;                 // printed HP (both cards of a pair)
  int damage = 0;
  int bonus_av = 0;
  ability_set abilities = 0;  // effective: own + granted by neighbours' Auras
  bool entered_this_turn = false;
  bool attacked = false;
  bool protection_used = false;
  bool sharpening_spent = false;  // R7 Sharpening: its once-a-turn excess is spent (public: the trigger)
};

struct side_view {
  seat_t seat = no_seat;
  std::vector<creature_view> creatures;  // from the Bridge outwards
};

struct line_view {
  side_view sides[2];
};

// R13.1: a seat's Champion is revealed: every viewer sees it and where it is.
struct champion_view {
  card_uid uid = no_uid;  // no_uid: the seat plays without a Champion
  card_id card = no_card;
  champion_status state = champion_status::none;  // ready, in_play (see lines) or exhausted
};

struct seat_public {
  int hand_size = 0;              // cards, Stronghold not counted
  int stronghold_pos = 0;         // index of the Stronghold in the hand row
  stronghold_side side = stronghold_side::bastion;
  int health = 0;                 // R1.5
  int mana = 0;
  int upper_line = 0, lower_line = 1;
  champion_view champion;         // R13 (public)
  // R12.1, R16.2 (solo, co-op): an AI seat has no hand (hand_size 0,
  // stronghold_pos 0); every viewer sees its deck pile's size (its health),
  // its Stronghold's side and its discard pile face up — never the deck's order.
  bool ai = false;
  int deck_size = 0;
  std::vector<card_ref> discard;  // bottom to top
};

struct seat_view {
  seat_t viewer = spectator;
  game_mode mode = game_mode::duel;
  bool exhaustion_rule = false;
  bool share_team_hands = false;
  bool exhausted = false;
  int stall_exhaustion_turn = 0;  // R17.25: the room's option (0: never)
  int turn = 0, round = 0;
  seat_t first_seat = 0;
  seat_t active_seat = 0;
  phase current_phase = phase::summoning;
  std::uint8_t winners = 0;
  seat_t loser = no_seat;
  end_reason reason = end_reason::none;

  std::vector<seat_public> seats;
  std::vector<line_view> lines;
  std::vector<card_ref> removed;

  // The viewer's own hand, left to right, Stronghold excluded (its index is in
  // seats[viewer].stronghold_pos). Empty for spectators.
  std::vector<card_ref> hand;
  // The uids of hand cards the viewer could play now (R3.2.1, R7 Blackmail),
  // then its Champion's when it is ready (R13.2, E34), cost aside.
  std::vector<card_uid> playable;
  // R11.6, 2v2 with the room option share_team_hands: the teammate's hand.
  seat_t teammate = no_seat;
  std::vector<card_ref> teammate_hand;
  // Referee only: every seat's hand (empty for an AI seat), and every AI
  // seat's deck pile from the top down (empty for a human seat; R16.2: never
  // in any other view).
  std::vector<std::vector<card_ref>> all_hands;
  std::vector<std::vector<card_ref>> ai_decks;
};

seat_view project(const catalogue& cat, const game_state& s, seat_t viewer);

// An event as `viewer` may see it: fields private to another seat are cleared
// (a played card's hand index).
event redact(const event& e, seat_t viewer);

}  // namespace cod
