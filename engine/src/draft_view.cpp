// R16.2 for deck building: picks, revealed cards and revealed lists are
// public; the pile's order, a list not yet revealed (but to its owner) and
// which co-op AI got which card are not.
#include "cod/engine/draft.hpp"

namespace cod {

draft_view draft::view(seat_t viewer) const {
  const draft_state& s = s_;
  draft_view v;
  v.format = s.format;
  v.table = s.table;
  v.viewer = viewer;
  v.seat_count = s.seat_count;
  v.finished = s.finished;
  v.round = s.round;
  v.pile_left = static_cast<int>(s.pile.size()) - s.pile_next;
  v.offer = s.offer;
  v.waiting = waiting();
  v.ai_cards = s.ai_cards;
  if (s.format == draft_format::mutation)
    v.offer = viewer >= 0 && viewer < s.seat_count ? s.seats[viewer].packet : std::vector<card_id>{};
  for (seat_t seat = 0; seat < s.seat_count; ++seat) {
    const draft_seat_state& st = s.seats[seat];
    draft_seat_view& sv = v.seats[seat];
    sv.ai = is_ai_seat(s.table, seat);
    // R15.1 (RULING E77): the packets pass face down; a seat sees its own picks only.
    const bool picks_secret = s.format == draft_format::mutation && seat != viewer;
    if (!picks_secret) sv.taken = st.taken;
    sv.taken_count = static_cast<int>(st.taken.size());
    sv.banned = st.banned;
    sv.submitted = st.submitted;
    sv.revealed = st.revealed;
    if (st.revealed || seat == viewer) {
      sv.list = st.list;
      sv.deck = st.deck;
    }
    sv.deck_size = s.finished ? static_cast<int>(s.decks[seat].size()) : 0;
  }
  if (s.finished && viewer >= 0 && viewer < s.seat_count && !is_ai_seat(s.table, viewer))
    v.own_deck = s.decks[viewer];
  return v;
}

}  // namespace cod
