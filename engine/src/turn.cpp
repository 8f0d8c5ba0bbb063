// The turn: R3.1 mana, R3.4 end of turn, R9 exhaustion (R17.25: the stall
// guard), R3 turn order; the AI's turns run here too (R12, R11.7).
#include <cstddef>
#include <cstring>

#include "internal.hpp"

namespace cod::detail {

void start_turn(ctx& c, seat_t seat) {
  game_state& s = c.s;
  s.active_seat = seat;
  s.current_phase = phase::summoning;
  ++s.turn;
  if (seat == s.first_seat) ++s.round;  // R9.1: the Bridges count the first player's turns
  seat_state& me = s.seats[seat];
  ++me.turns_taken;
  c.emit({.type = event_type::turn_started, .seat = seat, .amount = static_cast<std::int16_t>(s.turn),
          .to = static_cast<std::int16_t>(s.round)});
  // R7 Sharpening: once a turn.
  s.sharpening_used = {};
  // R7 Protection (RULING) resets at the start of every turn: finish_turn
  // does it with the end-of-turn resets just before (one pass over the
  // board), and a new match has it unspent.

  // R9.2: exhausted from the first player's 8th turn, before Phase 1: the
  // rightmost card leaves the game (R9.3). The Stronghold is never rightmost
  // here while the game goes on (R4.5/R4.6 would have acted), so it is a card.
  // R17.25: without R9, the same from the first player's stall turn (40 by
  // default; game_state::exhausted), in every mode, an AI seat included.
  if (s.exhausted() && s.ai(seat)) {
    // R9.2 for an AI (RULING E51): the top card of its deck pile, which is
    // what stands between its Stronghold and defeat, as a hand's rightmost card.
    const card_uid u = ai_take_top(s, seat);
    if (u != no_uid) {
      s.removed[s.removed_count++] = u;
      c.emit({.type = event_type::card_removed, .seat = seat, .uid = u});
      if (ai_check_deck(c, seat, no_seat)) return;
    }
  } else if (s.exhausted()) {
    hand_state& h = me.hand;
    if (h.count > 0) {
      const card_uid u = h.cards[h.count - 1];
      take_from_hand(s, seat, h.count - 1);
      s.removed[s.removed_count++] = u;
      c.emit({.type = event_type::card_removed, .seat = seat, .uid = u});
      if (check_stronghold(c, seat)) return;
    }
  }

  // R3.1: mana = cards in hand, Stronghold included; the first player's first
  // turn gives 6. R11.2: four players: 6, 7, 8 for the first three players'
  // first turns (in turn order), normal for the fourth.
  if (s.ai(seat)) {
    me.mana = static_cast<std::int16_t>(ai_mana(c, seat));  // R12.2
    c.emit({.type = event_type::mana_gained, .seat = seat, .amount = me.mana});
    return;
  }
  int mana = me.hand.count + 1;
  if (me.turns_taken == 1) {  // (only then the seat's place in turn order: a division)
    const int order = (seat - s.first_seat + s.seat_count) % s.seat_count;
    if (order == 0 || (s.seat_count == 4 && order < 3)) mana = 6 + order;
  }
  // R7 Catalyst: +2 for each Catalyst creature of the seat in play (R17.10).
  if (has(s.present, ability::catalyst))
    for (const seat_lines& sl : me.lines) {
      const line_side& ls = s.lines[sl.line].sides[sl.side];
      for (int i = 0; i < ls.count; ++i)
        if (has(abilities_at(c, {sl.line, sl.side, i}), ability::catalyst)) {
          mana += 2;
          c.triggered(ls.slots[i].uid, seat, ability::catalyst);
        }
    }
  me.mana = static_cast<std::int16_t>(mana);
  c.emit({.type = event_type::mana_gained, .seat = seat, .amount = static_cast<std::int16_t>(mana)});
}

namespace {

// Phase 3 and the end of the active seat's turn (R3.3, R3.4). Returns false
// if the game ended.
bool finish_turn(ctx& c) {
  game_state& s = c.s;
  const seat_t seat = s.active_seat;
  resolve_assault(c, seat);  // R3.3, R12.4
  if (c.over()) return false;
  // R3.4: survivors heal, Sprint bonuses and "entered this turn" end; R7
  // Protection resets for the next turn (start_turn follows at once).
  // The first four slots whatever the count (a blank slot has these at 0
  // already): no loop exit to mispredict on the usual short sides.
  // damage, bonus_av, entered_this_turn, attacked, protection_used: the
  // creature's first five bytes, cleared as one (two stores, not five).
  static_assert(offsetof(creature, damage) == 0 && offsetof(creature, protection_used) == 4 &&
                offsetof(creature, uid) == 5);
  auto reset = [](creature& cr) { std::memset(static_cast<void*>(&cr), 0, offsetof(creature, uid)); };
  for (int l = 0; l < s.line_count; ++l)
    for (line_side& ls : s.lines[l].sides) {
      reset(ls.slots[0]);
      reset(ls.slots[1]);
      reset(ls.slots[2]);
      reset(ls.slots[3]);
      for (int i = 4; i < ls.count; ++i) reset(ls.slots[i]);
      ls.ready = static_cast<std::uint16_t>((1u << ls.count) - 1);  // all in play since an earlier turn now
    }
  s.seats[seat].mana = 0;  // R3.1: unspent mana is lost
  c.emit({.type = event_type::turn_ended, .seat = seat});
  return true;
}

// R3: the seat after the active one in turn order (without a division, which
// showed in the profile of every turn).
seat_t next_seat(const game_state& s) {
  const int next = s.active_seat + 1;
  return static_cast<seat_t>(next == s.seat_count ? 0 : next);
}

}  // namespace

void end_turn_and_start_next(ctx& c) {
  if (!finish_turn(c)) return;
  start_turn(c, next_seat(c.s));
  run_ai_turns(c);
}

void run_ai_turns(ctx& c) {
  // R12, R11.7: an AI's turn has no client: its Phase 2 (R12.3) and Phase 3
  // run here, so between actions the active seat is always a human's.
  while (!c.over() && c.s.ai(c.s.active_seat)) {
    ai_summon(c, c.s.active_seat);
    if (c.over() || !finish_turn(c)) return;
    start_turn(c, next_seat(c.s));
  }
}

}  // namespace cod::detail
