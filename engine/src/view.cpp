// R16.2: what each viewer may see. The only way state leaves the engine.
#include "cod/engine/view.hpp"

#include "cod/engine/catalogue.hpp"
#include "internal.hpp"

namespace cod {

// (The catalogue numbers it shows are the state's own copy, game_state::uid_stats.)
seat_view project(const catalogue&, const game_state& s, seat_t viewer) {
  seat_view v;
  v.viewer = viewer;
  v.mode = s.mode;
  v.exhaustion_rule = s.exhaustion_rule;
  v.share_team_hands = s.share_team_hands;
  v.exhausted = s.exhausted();
  v.stall_exhaustion_turn = s.stall_exhaustion_turn;
  v.turn = s.turn;
  v.round = s.round;
  v.first_seat = s.first_seat;
  v.active_seat = s.active_seat;
  v.current_phase = s.current_phase;
  v.winners = s.winners;
  v.loser = s.loser;
  v.reason = s.reason;

  for (int seat = 0; seat < s.seat_count; ++seat) {
    const seat_state& st = s.seats[seat];
    seat_public p;
    p.hand_size = st.hand.count;
    p.stronghold_pos = st.hand.stronghold_pos;
    p.side = st.hand.side;
    p.health = st.hand.health();
    p.mana = st.mana;
    p.upper_line = st.lines[0].line;
    p.lower_line = st.lines[1].line;
    if (st.champion != no_uid) p.champion = {st.champion, s.uid_card[st.champion], st.champion_state};
    if (s.ai(static_cast<seat_t>(seat))) {
      // R12.1, R16.2: the deck's size (its health) and the discard pile, face
      // up; the deck's order and contents stay hidden.
      const ai_pile& pile = s.pile(static_cast<seat_t>(seat));
      p.ai = true;
      p.deck_size = pile.deck_count;
      p.health = pile.deck_count;
      for (int i = 0; i < pile.discard_count; ++i) p.discard.push_back({pile.discard[i], s.uid_card[pile.discard[i]]});
    }
    v.seats.push_back(p);
  }
  for (int l = 0; l < s.line_count; ++l) {
    line_view lv;
    for (int d = 0; d < 2; ++d) {
      const line_side& ls = s.lines[l].sides[d];
      lv.sides[d].seat = ls.seat;
      for (int i = 0; i < ls.count; ++i) {
        const creature& cr = ls.slots[i];
        creature_view cv;
        cv.uid = cr.uid;
        cv.card = s.uid_card[cr.uid];
        if (cr.top != no_uid) cv.top = {cr.top, s.uid_card[cr.top]};
        for (int k = 0; k < 2; ++k)
          if (cr.chained[k] != no_uid) {
            cv.chained.push_back({cr.chained[k], s.uid_card[cr.chained[k]]});
            cv.chained_from.push_back(cr.chained_from[k]);
          }
        cv.av = detail::attack_value(s, {l, d, i});
        cv.hp = detail::hp_of(s, cr);
        cv.damage = cr.damage;
        cv.bonus_av = cr.bonus_av;
        cv.abilities = detail::abilities_at(s, {l, d, i});
        cv.entered_this_turn = cr.entered_this_turn;
        cv.attacked = cr.attacked;
        cv.protection_used = cr.protection_used;
        cv.sharpening_spent = (s.sharpening_used[cr.uid / 64] >> (cr.uid % 64)) & 1;
        lv.sides[d].creatures.push_back(cv);
      }
    }
    v.lines.push_back(std::move(lv));
  }
  for (int i = 0; i < s.removed_count; ++i) v.removed.push_back({s.removed[i], s.uid_card[s.removed[i]]});

  auto hand_of = [&](int seat) {
    std::vector<card_ref> h;
    const hand_state& hs = s.seats[seat].hand;
    for (int i = 0; i < hs.count; ++i) h.push_back({hs.cards[i], s.uid_card[hs.cards[i]]});
    return h;
  };
  if (viewer >= 0 && viewer < s.seat_count) {
    v.hand = hand_of(viewer);
    if (s.mode == game_mode::two_vs_two) {
      v.teammate = static_cast<seat_t>((viewer + 2) % 4);  // R11.6: A+C, B+D
      if (s.share_team_hands) v.teammate_hand = hand_of(v.teammate);
    }
    const int n = detail::playable_count(s, viewer);  // R3.2.1, R7 Blackmail
    for (int i = 0; i < n; ++i) v.playable.push_back(v.hand[i].uid);
    // R13.2: a ready Champion is always playable (RULING E34).
    if (s.seats[viewer].champion_state == champion_status::ready) v.playable.push_back(s.seats[viewer].champion);
  } else if (viewer == referee) {
    for (int seat = 0; seat < s.seat_count; ++seat) v.all_hands.push_back(hand_of(seat));
    if (s.mode == game_mode::solo || s.mode == game_mode::coop)
      for (int seat = 0; seat < s.seat_count; ++seat) {
        std::vector<card_ref> deck;  // top first
        const ai_pile& pile = s.pile(static_cast<seat_t>(seat));
        if (s.ai(static_cast<seat_t>(seat)))
          for (int i = pile.deck_count - 1; i >= 0; --i) deck.push_back({pile.deck[i], s.uid_card[pile.deck[i]]});
        v.ai_decks.push_back(std::move(deck));
      }
  }
  return v;
}

event redact(const event& e, seat_t viewer) {
  event r = e;
  // Where in the hand a played card stood is the player's secret (R1.4).
  if (viewer == e.seat || viewer == referee) return r;
  if (e.type == event_type::card_played) r.from = -1;
  // R7 Counterorder: which card moved is the player's secret; that one did is not.
  if (e.type == event_type::hand_reordered) r.uid = no_uid;
  // R13: a Champion's play (from = -1: not from the hand), its exhaustion and
  // its readying are public: the Champion is revealed (R13.1).
  return r;
}

}  // namespace cod
