// Phase 2, summoning: R5.2, one play step by step, with the "when played"
// abilities: Lucidity, Price of Blood (steps 1-2), Symbiote (3), Immolation
// (5), Backfire (6), Counterorder and Chain (7), and Reinforcement's free
// play (R17.11). What may be played is checked in match.cpp (R3.2).
#include "internal.hpp"

namespace cod::detail {

namespace {

// R3.2.3: a creature joins the back of a side. Returns its position.
int enter_line(ctx& c, seat_t seat, int line, int side, card_uid u) {
  game_state& s = c.s;
  line_side& ls = s.lines[line].sides[side];
  const int pos = ls.count;
  ls.slots[pos] = creature{};
  ls.slots[pos].uid = u;
  ls.slots[pos].entered_this_turn = true;
  ++ls.count;
  refresh_after_entry(s, line, side);
  c.emit({.type = event_type::creature_entered, .seat = seat, .uid = u,
          .line = static_cast<std::int8_t>(line), .side = static_cast<std::int8_t>(side),
          .to = static_cast<std::int16_t>(pos)});
  return pos;
}

// The seat across `line` from `seat` (R7 "enemy"; duel: the other seat).
seat_t opponent_on(const game_state& s, int line, seat_t seat) {
  const line_state& l = s.lines[line];
  return l.sides[0].seat == seat ? l.sides[1].seat : l.sides[0].seat;
}

// The enemy side of `line` for `seat` when it plays on a creature there
// (RULINGs E29/E30): the target's side if the target's owner is an enemy;
// otherwise the side across from the target. In a duel: the other seat's side.
int enemy_side_for(const game_state& s, int line, int target_side, seat_t seat) {
  const seat_t owner = s.lines[line].sides[target_side].seat;
  return owner != seat && team_of(s, owner) != team_of(s, seat) ? target_side : 1 - target_side;
}

// R5.2 steps 1-2: pay mana; R7 Price of Blood pays the rest in Stronghold
// damage, instances of 1. Returns the mana paid; the game may end here.
int pay(ctx& c, seat_t seat, card_uid u, int cost) {
  seat_state& me = c.s.seats[seat];
  if (cost <= me.mana) {
    me.mana = static_cast<std::int16_t>(me.mana - cost);
    return cost;
  }
  const int paid = me.mana;
  const int missing = cost - paid;
  me.mana = 0;
  c.triggered(u, seat, ability::price_of_blood);
  for (int k = 0; k < missing && !c.over(); ++k) damage_stronghold(c, seat, 1, u, no_seat);
  return paid;
}

// R5.2 step 5, R7 Immolation, R17.11: each Immolation creature on the line a
// card is played on deals 1 to the player's Stronghold; an arriving creature
// does not trigger its own.
void immolation(ctx& c, seat_t seat, int line, card_uid arriving) {
  if (!has(c.s.present, ability::immolation)) return;
  for (int d = 0; d < 2; ++d)
    for (int i = 0; i < c.s.lines[line].sides[d].count && !c.over(); ++i) {
      const creature& cr = c.s.lines[line].sides[d].slots[i];
      if (cr.uid == arriving) continue;
      ability_set ab = abilities_at(c, {line, d, i});
      // A Symbiote just stacked: only the host's Immolation (printed or from
      // an Aura) counts, not the arriving card's own (E15).
      if (cr.top == arriving) ab = c.stats(cr.uid).abilities | granted_at(c.s, {line, d, i});
      if (!has(ab, ability::immolation)) continue;
      c.triggered(cr.uid, c.s.lines[line].sides[d].seat, ability::immolation);
      damage_stronghold(c, seat, 1, cr.uid, no_seat);  // R11.4 RULING: own play
    }
}

// R5.2 step 6, R7 Backfire: damage = cards left of the player's Stronghold,
// to the enemy creature closest to the Bridge on the line; with the source's
// Splash, Perforation, Aquatic, Regeneration, Sharpening; Indestructible is
// immune. The creatures it damages Vanish at step 17: `hurt` collects them.
void backfire(ctx& c, seat_t seat, card_uid u, int line, int enemy_side, ability_set ab, bool doubled,
              survivors& hurt) {
  c.triggered(u, seat, ability::backfire);
  // Cards left of the Stronghold; RULING E48: an AI has no hand, so none (0).
  const int x = c.s.seats[seat].hand.stronghold_pos;
  if (x <= 0 || c.s.lines[line].sides[enemy_side].count == 0) return;
  hit_list hits = targets_around(c, {line, enemy_side, 0}, ab);
  for (int i = 0; i < hits.count; ++i) hits.amounts[i] = x * (doubled ? 2 : 1);
  deal_damage(c, {u, seat, ab, /*immune_applies=*/true, /*from_creature=*/false}, hits, &hurt);
}

// R5.2 step 7, R7 Counterorder: the leftmost card of the player's hand goes rightmost.
void counterorder(ctx& c, seat_t seat, card_uid u) {
  c.triggered(u, seat, ability::counterorder);
  hand_state& h = c.s.seats[seat].hand;
  const int from = 0;
  if (h.count < 2) return;
  const card_uid moved = h.cards[from];
  for (int j = from; j + 1 < h.count; ++j) h.cards[j] = h.cards[j + 1];
  h.cards[h.count - 1] = moved;
  if (from < h.stronghold_pos) --h.stronghold_pos;  // it passed the Stronghold
  c.emit({.type = event_type::hand_reordered, .seat = seat, .uid = moved, .from = static_cast<std::int16_t>(from),
          .to = static_cast<std::int16_t>(h.count - 1)});
}

// R5.2 step 7, R7 Chain: take the enemy's leftmost card and hold it.
void chain_capture(ctx& c, card_uid chainer, seat_t enemy) {
  const place p = find_creature(c.s, chainer);
  hand_state& h = c.s.seats[enemy].hand;
  const int from = 0;
  const bool ai = c.s.ai(enemy);  // R12.9 Chain: an AI's card is the top of its deck
  if (!p.valid() || (ai ? c.s.pile(enemy).deck_count == 0 : h.count == 0)) return;
  creature& cr = c.at(p);
  const int slot = cr.chained[0] == no_uid ? 0 : cr.chained[1] == no_uid ? 1 : -1;
  if (slot < 0) return;
  const card_uid taken = ai ? ai_take_top(c.s, enemy) : h.cards[from];
  if (!ai) take_from_hand(c.s, enemy, from);
  cr.chained[slot] = taken;
  cr.chained_from[slot] = enemy;
  c.emit({.type = event_type::card_chained, .seat = enemy, .uid = chainer, .target = taken});
  check_stronghold(c, enemy, c.seat_at(p));  // R4.7: the enemy's hand changed (R17.18: an AI's deck)
}

}  // namespace

// Steps 3-19 for a creature (also Reinforcement's free play, R17.11): the
// card at hand index `index`, or, index -1, the seat's Champion (R13.2),
// which comes from beside the play area and leaves the hand as it is (E35),
// or a card an AI revealed (R12.3).
void play_creature(ctx& c, seat_t seat, card_uid u, int index, int which, card_uid host, int paid) {
  game_state& s = c.s;
  const bool champion = index < 0 && u == s.seats[seat].champion;
  const seat_lines where = s.seats[seat].lines[which];
  if (champion) s.seats[seat].champion_state = champion_status::in_play;
  else if (index >= 0) take_from_hand(s, seat, index);
  c.emit({.type = event_type::card_played, .seat = seat, .uid = u, .line = static_cast<std::int8_t>(where.line),
          .amount = static_cast<std::int16_t>(paid), .from = static_cast<std::int16_t>(index)});
  ready_champions(c, u);  // R13.3, RULING E38: at once, before the play's effects
  // Step 3: it enters its line (R3.2.3), or goes on its host (R7 Symbiote).
  place p;  // where it stands now
  if (host != no_uid) {
    p = find_creature(s, host);
    at(s, p).top = u;
    refresh_abilities(s, p.line, p.side);
    c.emit({.type = event_type::creature_stacked, .seat = seat, .uid = u, .target = host,
            .line = static_cast<std::int8_t>(p.line), .side = static_cast<std::int8_t>(p.side),
            .to = static_cast<std::int16_t>(p.pos)});
  } else {
    p = {where.line, where.side, enter_line(c, seat, where.line, where.side, u)};
  }
  if (index >= 0 && check_stronghold(c, seat)) return;  // R4.7: the hand changed
  immolation(c, seat, where.line, u);
  if (over(s)) return;
  // "When played" abilities: the card's own plus what Auras give it there
  // (still at p: Immolation only damages a Stronghold, which moves no creature).
  // Most matches have none of them at all: nothing to work out then.
  if ((s.present & (bit(ability::backfire) | bit(ability::counterorder) | bit(ability::chain))) == 0) return;
  const ability_set mine = c.stats(u).abilities | granted_at(s, p);
  survivors hurt;
  if (has(mine, ability::backfire)) {
    const ability_set ab = abilities_at(c, p);
    backfire(c, seat, u, where.line, 1 - where.side, ab, has(ab, ability::aquatic) && p.pos == 0, hurt);
    if (over(s)) return;
  }
  // R12.9: an AI's Counterorder acted when it was revealed (ai.cpp).
  if (has(mine, ability::counterorder) && !s.ai(seat)) counterorder(c, seat, u);
  if (has(mine, ability::chain) && find_creature(s, u).valid()) {
    c.triggered(u, seat, ability::chain);
    chain_capture(c, u, opponent_on(s, where.line, seat));
    if (over(s)) return;
  }
  vanish_and_instinct(c, hurt, false);  // step 17 (R7: Instinct answers attacks only, E22)
}

// R5.2 for an incantation; R17.21, R17.22 (RULING E1): out of the hand while
// it resolves, its own departure checked once it is back.
void play_incantation(ctx& c, seat_t seat, card_uid u, int index, card_uid target, int paid) {
  game_state& s = c.s;
  const card_stats& st = c.stats(u);
  const ability_set ab = st.abilities;
  const place primary = find_creature(s, target);
  const int line = primary.line;  // R17.11: played on its target's line
  // Step 3: it leaves the hand (R17.22, E1: its own departure is checked only
  // once it is back).
  if (index >= 0) take_from_hand(s, seat, index);
  card_uid* const flight = flight_slot(s);
  *flight = u;
  c.emit({.type = event_type::card_played, .seat = seat, .uid = u, .target = target,
          .line = static_cast<std::int8_t>(line), .amount = static_cast<std::int16_t>(paid),
          .from = static_cast<std::int16_t>(index)});
  ready_champions(c, u);              // R13.3, RULING E38
  immolation(c, seat, line, no_uid);  // step 5
  if (over(s)) return;
  survivors hurt;
  if (has(ab, ability::backfire)) {  // step 6 (R17.11)
    backfire(c, seat, u, line, enemy_side_for(s, line, primary.side, seat), ab, false, hurt);
    if (over(s)) return;
  }
  if (has(ab, ability::counterorder) && !s.ai(seat)) counterorder(c, seat, u);  // step 7 (R12.9: AI's at its reveal)
  // Steps 8-15 — on the target where it stands now (Backfire may have moved
  // or destroyed it: then nothing, R1.8; Immolation only damages a
  // Stronghold, which moves no creature).
  const place p = has(ab, ability::backfire) ? find_creature(s, target) : primary;
  if (p.valid()) {
    hit_list hits = targets_around(c, p, ab);
    for (int i = 0; i < hits.count; ++i) {
      if (st.av_is_x) {
        // R7 Vulnerability, R17.3: remaining health - 1.
        const creature& t = at(s, hits.targets[i]);
        const int x = hp_of(s, t) - t.damage - 1;
        hits.amounts[i] = x > 0 ? x : 0;
      } else {
        hits.amounts[i] = st.av;
      }
    }
    deal_damage(c, {u, seat, ab, /*immune_applies=*/true, /*from_creature=*/false}, hits, &hurt);
    if (over(s)) return;
  }
  // Step 16: back to hand (R3.2.4) — or the enemy's (R7 Mercenary), or leftmost (R7 Cursed).
  *flight = no_uid;
  if (has(ab, ability::mercenary)) {
    // R12.9 Mercenary: to an AI, on top of its deck.
    const seat_t to = s.lines[line].sides[enemy_side_for(s, line, primary.side, seat)].seat;
    if (s.ai(to)) ai_to_deck(c, to, u, 3);
    else return_to_hand(c, to, u);
  } else if (s.ai(seat)) {
    // R12.4: a used AI incantation is discarded; R12.9 Cursed (RULING E49): on top of the deck.
    if (has(ab, ability::cursed)) ai_to_deck(c, seat, u, 3);
    else ai_discard(c, seat, u);
  } else {
    return_to_hand(c, seat, u, has(ab, ability::cursed));
  }
  if (check_stronghold(c, seat)) return;
  vanish_and_instinct(c, hurt, false);  // step 17
}

void ready_exhausted_champions(ctx& c, card_uid played) {
  // R13.3: the moment any player plays a card (a free play and a Champion
  // included, R17.11) with exactly the printed cost of an exhausted Champion,
  // that Champion is readied (RULING E38: the printed cost, whatever was paid).
  game_state& s = c.s;
  const int cost = c.stats(played).mana;
  for (int seat = 0; seat < s.seat_count; ++seat) {
    seat_state& st = s.seats[seat];
    if (st.champion_state != champion_status::exhausted || c.stats(st.champion).mana != cost) continue;
    st.champion_state = champion_status::ready;
    c.emit({.type = event_type::champion_readied, .seat = static_cast<seat_t>(seat), .uid = st.champion,
            .target = played, .amount = static_cast<std::int16_t>(cost)});
  }
}

void resolve_play(ctx& c, const action& a) {
  game_state& s = c.s;
  const card_stats& st = c.stats(a.card);
  // R13.2: the seat's Champion is played from beside the play area, at its
  // cost less 1 per creature in play of exactly its cost (E36); Lucidity
  // never applies to it (E34).
  const bool champion = a.card == s.seats[a.seat].champion;
  const int index = champion ? -1 : hand_index(s, a.seat, a.card);
  const int cost = champion ? champion_cost(s, a.seat) : play_cost(s, a.seat, index);
  if (!champion && cost < st.mana) c.triggered(a.card, a.seat, ability::lucidity);
  const int paid = pay(c, a.seat, a.card, cost);
  if (over(s)) return;
  if (st.type == card_type::creature) {
    const int which = a.host != no_uid ? which_line(s, find_creature(s, a.host)) : a.line;
    play_creature(c, a.seat, a.card, index, which, a.host, paid);
  } else {
    play_incantation(c, a.seat, a.card, index, a.target, paid);
  }
}

void reinforce(ctx& c, seat_t seat, int line_index, card_uid reinforcer) {
  game_state& s = c.s;
  const hand_state& h = s.seats[seat].hand;
  const seat_lines where = s.seats[seat].lines[line_index];
  // R7 Reinforcement, R17.17: the leftmost creature of the whole hand that
  // costs 4 or less and has no Reinforcement. RULING E11: not if it would
  // leave the Stronghold alone (R3.2.5) or the line is full.
  for (int i = 0; i < h.count; ++i) {
    const card_stats& st = c.stats(h.cards[i]);
    if (st.type != card_type::creature || st.mana > 4 || has(st.abilities, ability::reinforcement)) continue;
    if (h.count < 2 || s.lines[where.line].sides[where.side].count >= max_side) return;
    c.triggered(reinforcer, seat, ability::reinforcement);
    play_creature(c, seat, h.cards[i], i, line_index, no_uid, 0);
    return;
  }
}

}  // namespace cod::detail
