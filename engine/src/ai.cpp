// The AI's turn (R12, R11.7): Phase 1 mana (R12.2, R12.8, R12.9 Blackmail),
// Phase 2 reveal-and-play alternating lines (R12.3, R17.18) with the AI
// exceptions of R12.9 (Counterorder, Symbiote, Price of Blood, Reinforcement).
// Phase 3 is the ordinary assault (R12.4: assault.cpp). The AI's piles are in
// ai_pile.cpp; where its cards go when they leave play, in damage.cpp and
// summoning.cpp.
#include "internal.hpp"

namespace cod::detail {

namespace {

// R12.3, R12.9: `u`, just revealed (held in `flight`), goes into play on the AI's
// line `which` (0 upper, 1 lower). Returns the cost it counts toward the
// turn's total: its printed cost (RULING E48: Lucidity never applies, the AI
// has no hand), 0 for a free play (R12.9 Reinforcement) and for a card
// discarded without effect.
int ai_play(ctx& c, seat_t seat, card_uid u, int which, bool free, bool counterorder_applies, card_uid* flight) {
  game_state& s = c.s;
  ai_pile& pile = s.pile(seat);
  const card_stats& st = c.stats(u);
  const seat_lines where = s.seats[seat].lines[which];
  *flight = u;
  // R12.9 Counterorder: compare with the discard pile's top card; the higher
  // cost goes into play, the other to the discard pile; equal (R17.20: no
  // effect), or no discard pile: the revealed card is played normally.
  if (counterorder_applies && has(st.abilities, ability::counterorder) && pile.discard_count > 0) {
    c.triggered(u, seat, ability::counterorder);
    const card_uid top = pile.discard[pile.discard_count - 1];
    if (c.stats(top).mana > st.mana) {
      pile.discard[--pile.discard_count] = 0;
      ai_discard(c, seat, u);
      return ai_play(c, seat, top, which, free, false, flight);
    }
  }
  // R12.9 Price of Blood (AI's): costs 0; its printed cost in cards from the
  // deck's top to the discard pile (R17.18: the rest is lost if the Bastion is
  // revealed). Paid at R5.2 step 2, once the card is sure to be played.
  const bool price_of_blood = has(st.abilities, ability::price_of_blood);
  const int cost = free || price_of_blood ? 0 : st.mana;
  auto pay_in_blood = [&]() {
    if (!price_of_blood || free) return false;
    c.triggered(u, seat, ability::price_of_blood);
    ai_mill(c, seat, st.mana, u, no_seat);
    return c.over();  // the revealed card stays in flight (E20)
  };
  if (st.type == card_type::creature) {
    card_uid host = no_uid;
    const line_side& own = s.lines[where.line].sides[where.side];
    if (has(st.abilities, ability::symbiote)) {
      // R12.9 Symbiote (AI's): on the AI creature closest to the Bridge on its
      // line (RULING E46: the closest that may host one, R7); none: discarded, free.
      for (int p = 0; p < own.count && host == no_uid; ++p)
        if (own.slots[p].top == no_uid && !has(own_abilities(s, own.slots[p]), ability::symbiote))
          host = own.slots[p].uid;
      if (host == no_uid) {
        *flight = no_uid;
        ai_discard(c, seat, u);
        return 0;
      }
    } else if (own.count >= max_side) {
      *flight = no_uid;  // E2: a full side; discarded like a card without a place
      ai_discard(c, seat, u);
      return 0;
    }
    if (pay_in_blood()) return cost;
    *flight = no_uid;
    play_creature(c, seat, u, -1, which, host, cost);
    return cost;
  }
  // R12.3: an incantation targets the enemy creature closest to the Bridge on
  // the line whose turn it is; with none it costs nothing, does nothing and is
  // discarded, still using that line's turn (R17.18).
  const line_side& enemy = s.lines[where.line].sides[1 - where.side];
  if (enemy.count == 0) {
    *flight = no_uid;
    ai_discard(c, seat, u);
    return 0;
  }
  if (pay_in_blood()) return cost;
  *flight = no_uid;
  play_incantation(c, seat, u, -1, enemy.slots[0].uid, cost);
  return cost;
}

// R12.3: turns the deck's top card over for line `which` and plays it.
// Returns the cost it counts.
int reveal_and_play(ctx& c, seat_t seat, int which, bool free) {
  game_state& s = c.s;
  const card_uid u = ai_take_top(s, seat);
  if (u == no_uid) return 0;
  c.emit({.type = event_type::ai_revealed, .seat = seat, .uid = u,
          .line = static_cast<std::int8_t>(s.seats[seat].lines[which].line), .amount = s.pile(seat).deck_count});
  // R17.18: the deck may be empty now: R12.5/R12.6 at once, before the card
  // is played (the AI's own doing for R11.4).
  card_uid* const flight = flight_slot(s);
  *flight = u;
  if (ai_check_deck(c, seat, no_seat)) return 0;
  return ai_play(c, seat, u, which, free, true, flight);
}

}  // namespace

int ai_mana(ctx& c, seat_t seat) {
  game_state& s = c.s;
  const seat_state& me = s.seats[seat];
  // R12.2, R11.7 (RULING): 1 (R12.8: or 2) per human creature on the AI's two
  // lines (solo: every human creature); a Symbiote pair is one creature (E43).
  int humans = 0;
  for (const seat_lines& sl : me.lines) humans += s.lines[sl.line].sides[1 - sl.side].count;
  int mana = s.ai_fixed_mana + s.ai_mana_per_creature * humans;
  // R7 Catalyst (+2 each, R17.10) and R12.9 Blackmail (-1 each) of AI creatures.
  if (has(s.present, ability::catalyst) || has(s.present, ability::blackmail))
    for (const seat_lines& sl : me.lines) {
      const line_side& ls = s.lines[sl.line].sides[sl.side];
      for (int i = 0; i < ls.count; ++i) {
        const ability_set ab = abilities_at(c, {sl.line, sl.side, i});
        if (has(ab, ability::catalyst)) {
          mana += 2;
          c.triggered(ls.slots[i].uid, seat, ability::catalyst);
        }
        if (has(ab, ability::blackmail)) {
          mana -= 1;
          c.triggered(ls.slots[i].uid, seat, ability::blackmail);
        }
      }
    }
  return mana > 0 ? mana : 0;
}

void ai_summon(ctx& c, seat_t seat) {
  game_state& s = c.s;
  seat_state& me = s.seats[seat];
  const int mana = me.mana;
  int total = 0;
  // R12.3: the upper line first, then alternating, while the cost played is
  // below the mana. Every reveal takes a card off the deck and the deck is
  // rebuilt only once (R12.5), so this ends; the bound is a guard only.
  for (int which = 0, reveals = 0; reveals < 4 * max_uids; which ^= 1, ++reveals) {
    total += reveal_and_play(c, seat, which, false);
    if (c.over() || total >= mana) break;
  }
  if (!c.over()) me.mana = static_cast<std::int16_t>(total < mana ? mana - total : 0);
}

void ai_reinforce(ctx& c, seat_t seat, int line_index, card_uid reinforcer) {
  // R12.9 Reinforcement (AI's): the deck's top card is summoned on the line
  // the Reinforcement card was on, for free (RULING E50: revealed and played
  // as in R12.3 on that line, whatever it is; it adds nothing to the total).
  if (c.s.pile(seat).deck_count == 0) return;
  c.triggered(reinforcer, seat, ability::reinforcement);
  reveal_and_play(c, seat, line_index, true);
}

}  // namespace cod::detail
