// An AI's piles (R12.1): the face-down deck pile over its Stronghold and the
// face-up discard pile. Damage mills the deck (R12.5); an empty deck flips
// the Bastion and reshuffles the discard pile, or, on the Fort, loses (R12.5,
// R12.6, R17.18); cards put on top of the deck (R12.9 Cursed, Mercenary,
// Chain, Regeneration).
#include "internal.hpp"

namespace cod::detail {

card_uid ai_take_top(game_state& s, seat_t seat) {
  ai_pile& p = s.pile(seat);
  if (p.deck_count == 0) return no_uid;
  const card_uid u = p.deck[--p.deck_count];
  p.deck[p.deck_count] = 0;
  return u;
}

bool ai_check_deck(ctx& c, seat_t seat, seat_t by) {
  if (c.over()) return true;
  game_state& s = c.s;
  ai_pile& p = s.pile(seat);
  if (p.deck_count > 0) return false;
  hand_state& h = s.seats[seat].hand;
  if (h.side == stronghold_side::bastion) {
    // R12.5: the Bastion is revealed: Fort up, and the discard pile, shuffled
    // with the match's generator (R16.1), becomes the deck on it.
    h.side = stronghold_side::fort;
    c.emit({.type = event_type::stronghold_flipped, .seat = seat, .amount = 1});
    for (int i = 0; i < p.discard_count; ++i) {
      p.deck[i] = p.discard[i];
      p.discard[i] = 0;
    }
    p.deck_count = p.discard_count;
    p.discard_count = 0;
    s.random.shuffle(p.deck.data(), p.deck_count);
    c.emit({.type = event_type::deck_reshuffled, .seat = seat, .amount = p.deck_count});
    if (p.deck_count > 0) return false;
  }
  // R12.6, R11.7: the deck is empty and the Fort revealed: the AI is defeated
  // (RULING E44: also when the reshuffled discard pile was empty).
  end_game(c, seat, end_reason::fort_destroyed, by);
  return true;
}

void ai_mill(ctx& c, seat_t seat, int n, card_uid source, seat_t by) {
  game_state& s = c.s;
  ai_pile& p = s.pile(seat);
  for (int k = 0; k < n && !c.over(); ++k) {
    const card_uid u = ai_take_top(s, seat);
    if (u == no_uid) return;  // cannot happen while the game goes on (R12.6)
    p.discard[p.discard_count++] = u;
    c.emit({.type = event_type::card_milled, .seat = seat, .uid = u, .target = source,
            .amount = p.deck_count});
    // R17.18: the deck empty: R12.5/R12.6 at once; excess is lost when the
    // Bastion is revealed (as R4.5).
    if (p.deck_count == 0) {
      ai_check_deck(c, seat, by);
      return;
    }
  }
}

void ai_discard(ctx& c, seat_t seat, card_uid u) {
  ai_pile& p = c.s.pile(seat);
  p.discard[p.discard_count++] = u;
  c.emit({.type = event_type::card_discarded, .seat = seat, .uid = u, .amount = p.discard_count});
}

void ai_to_deck(ctx& c, seat_t seat, card_uid u, int from) {
  ai_pile& p = c.s.pile(seat);
  p.deck[p.deck_count++] = u;
  c.emit({.type = event_type::card_to_deck, .seat = seat, .uid = u, .amount = p.deck_count,
          .from = static_cast<std::int16_t>(from)});
}

void ai_regenerate(ctx& c, seat_t seat, card_uid source) {
  // R12.9 Regeneration (AI's): the top card of the discard pile goes on top
  // of the deck; nothing if the discard pile is empty.
  ai_pile& p = c.s.pile(seat);
  if (p.discard_count == 0) return;
  c.triggered(source, seat, ability::regeneration);
  const card_uid u = p.discard[--p.discard_count];
  p.discard[p.discard_count] = 0;
  ai_to_deck(c, seat, u, 2);
}

}  // namespace cod::detail
