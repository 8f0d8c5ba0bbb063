// Shared by the rules files: the context a resolution runs in, and the small
// operations every rule uses. Not a public header.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <vector>

#include "cod/engine/action.hpp"
#include "cod/engine/catalogue.hpp"
#include "cod/engine/event.hpp"
#include "cod/engine/state.hpp"

namespace cod::detail {

// Where a creature is: line, side of the line, position from the Bridge.
struct place {
  int line = -1;
  int side = -1;
  int pos = -1;
  bool valid() const { return line >= 0; }
};

// One resolution: the catalogue, the state it changes, where events go.
struct ctx {
  const catalogue& cat;
  game_state& s;
  std::vector<event>* out;  // null: nobody reads them (match::apply_legal(a), a playout)

  const card_stats& stats(card_uid u) const { return s.uid_stats[u]; }
  void emit(const event& e) {
    if (out) out->push_back(e);
  }
  bool over() const { return s.current_phase == phase::game_over; }

  line_side& side_at(int line, int side) { return s.lines[line].sides[side]; }
  creature& at(place p) { return s.lines[p.line].sides[p.side].slots[p.pos]; }
  seat_t seat_at(place p) const { return s.lines[p.line].sides[p.side].seat; }
  void triggered(card_uid u, seat_t seat, ability a) {
    emit({.type = event_type::ability_triggered, .seat = seat, .uid = u, .amount = static_cast<std::int16_t>(a)});
  }
};

// The same lookups on a state held in a local reference (a hot rule reads
// it so, not through ctx, which every one-byte store may alias and make the
// compiler read again).
inline creature& at(game_state& s, place p) { return s.lines[p.line].sides[p.side].slots[p.pos]; }
inline seat_t seat_at(const game_state& s, place p) { return s.lines[p.line].sides[p.side].seat; }
inline bool over(const game_state& s) { return s.current_phase == phase::game_over; }

// --- match.cpp ---

// The board of a mode (R1.3, R11.1): the lines and which side of each is whose.
void lay_out(game_state& s, game_mode mode);

// --- hand.cpp: hands and Strongholds (R1.5, R4.4–R4.6, R9.2) ---

// Removes the card at hand index i; the Stronghold keeps its place among the
// remaining cards (R3.2.6). Does not run the R4.5/R4.6 checks. (Inline, as
// the next two's usual cases: every play runs them.)
inline void take_from_hand(game_state& s, seat_t seat, int i) {
  hand_state& h = s.seats[seat].hand;
  // The cards right of i move one left, and past count every slot is 0: so
  // in a hand of at most 16 (always, in play) 16 bytes move whatever i is,
  // one copy of a fixed size instead of a loop whose exit was a coin flip;
  // otherwise the whole tail moves (the last slot stays 0).
  if (h.count <= 16) {
    std::memmove(&h.cards[i], &h.cards[i + 1], 16);
  } else {
    std::memmove(&h.cards[i], &h.cards[i + 1], max_hand - 1 - i);
    h.cards[max_hand - 1] = 0;
  }
  --h.count;
  // R3.2.6: a card left of the Stronghold leaves its index one lower;
  // one right of it leaves it where it is (health drops by one).
  h.stronghold_pos = static_cast<std::uint8_t>(h.stronghold_pos - (i < h.stronghold_pos));
}
// R4.2: a card returns to the rightmost position (or, R7 Cursed, the leftmost).
void return_to_hand(ctx& c, seat_t seat, card_uid u, bool leftmost = false);
// R4.5–R4.6 after a hand change: flips a rightmost Bastion, ends the game on a
// rightmost Fort or a lone Stronghold. Returns true if the game is over.
// `by`: the seat whose card caused it (R11.4); no_seat for the player's own doing.
bool settle_stronghold(ctx& c, seat_t seat, seat_t by);
inline bool check_stronghold(ctx& c, seat_t seat, seat_t by = no_seat) {
  // Usually nothing to do: the game goes on, and a human's Stronghold stands
  // left of its last card.
  const hand_state& h = c.s.seats[seat].hand;
  if (!c.over() && !c.s.ai(seat) && h.stronghold_pos < h.count) return false;
  return settle_stronghold(c, seat, by);
}
// R4.4: N damage moves the Stronghold N places right (one instance).
void damage_stronghold(ctx& c, seat_t seat, int amount, card_uid source, seat_t by);
// R7 Regeneration: one place left; a leftmost Fort flips to a second-rightmost Bastion.
void regenerate_stronghold(ctx& c, seat_t seat, card_uid source);
// R7 Vulnerability, R17.3: the Stronghold goes to the second-rightmost place, no flip.
void weaken_stronghold(ctx& c, seat_t seat, card_uid source);
// R4.6 / R16.3: `loser` is out; in a duel every other seat wins.
void end_game(ctx& c, seat_t loser, end_reason why, seat_t by = no_seat);
// R11.6, R11.7: 2v2 and co-op teams are A+C (0) and B+D (1, co-op: the AIs);
// otherwise every seat is its own team.
inline int team_of(const game_state& s, seat_t seat) {
  return s.mode == game_mode::two_vs_two || s.mode == game_mode::coop ? seat % 2 : seat;
}
int hand_index(const game_state& s, seat_t seat, card_uid u);

// A free place to hold a card in flight (R5.2 steps 3-16, E1, E20): the
// match's in_flight, or, when a resolution runs inside another, a nested one.
inline card_uid* flight_slot(game_state& s) {
  if (s.in_flight == no_uid) return &s.in_flight;
  for (card_uid& x : s.nested_in_flight)
    if (x == no_uid) return &x;
  return &s.nested_in_flight.back();  // deeper than the rules can nest: never reached
}

// --- abilities.cpp: what a creature is, where it stands (R7, R6.2) ---

// (The small lookups below are inline: they run on every attack and play.)
// find_creature: where a card is in play (as a base creature or a Symbiote on top).
// own_abilities: the abilities of the card(s) in a slot, without Auras.
// abilities_at: R7 Aura, R6.2: the abilities a creature has where it stands now.
// hp_of: printed HP (both cards of a Symbiote pair).
// attack_value: printed AV (both cards of a pair) plus this turn's Sprint
//   bonus, never below 0; a printed "X" without Vulnerability counts 0 (RULING E10).
inline place find_creature(const game_state& s, card_uid u) {
  if (u < max_uids) {
    const int at = s.in_play[u] - 1;  // game_state::in_play
    return at < 0 ? place{} : place{at / 32, at / 16 % 2, at % 16};
  }
  // (no_uid: the first creature without a Symbiote on it, as a scan finds.)
  for (int l = 0; l < s.line_count; ++l)
    for (int d = 0; d < 2; ++d) {
      const line_side& side = s.lines[l].sides[d];
      for (int p = 0; p < side.count; ++p)
        if (side.slots[p].uid == u || side.slots[p].top == u) return {l, d, p};
    }
  return {};
}
// The cards at `pos` of a side are there now (game_state::in_play).
inline void mark_in_play(game_state& s, int line, int side, int pos) {
  const creature& cr = s.lines[line].sides[side].slots[pos];
  const auto at = static_cast<std::uint8_t>(1 + line * 32 + side * 16 + pos);
  s.in_play[cr.uid] = at;
  if (cr.top != no_uid) s.in_play[cr.top] = at;
}

inline ability_set own_abilities(const game_state& s, const creature& cr) {
  ability_set a = s.uid_stats[cr.uid].abilities;
  if (cr.top != no_uid) a |= s.uid_stats[cr.top].abilities;  // R7 Symbiote: abilities add up
  return a;
}

inline ability_set auras_of(const game_state& s, const creature& cr) {
  ability_set a = s.uid_stats[cr.uid].auras;
  if (cr.top != no_uid) a |= s.uid_stats[cr.top].auras;
  return a;
}

// What the creature at `pos` of `side` has there, from the catalogue (the
// side's `abilities` cache is made of these).
inline ability_set abilities_in_slot(const game_state& s, const line_side& side, int pos) {
  // R12.8: custom difficulty's abilities for every AI creature (0 elsewhere).
  ability_set a = own_abilities(s, side.slots[pos]) | side.granted;
  // R7 Aura X: the neighbours on the same side of the same line give X; the
  // Aura's owner does not get it. A bit set twice is one ability (R6.2).
  // Both are read wherever it stands (at an end, its own slot instead) and
  // kept where there is one: no branch on its place, a coin flip.
  const bool has_left = pos > 0;
  const bool has_right = pos + 1 < side.count;
  const ability_set left = auras_of(s, side.slots[has_left ? pos - 1 : pos]);
  const ability_set right = auras_of(s, side.slots[has_right ? pos + 1 : pos]);
  return a | (left & (0 - ability_set{has_left})) | (right & (0 - ability_set{has_right}));
}

// Whether the creature at `pos` may still attack this phase (line_side::ready).
inline bool ready_to_attack(const line_side& side, int pos) {
  const creature& cr = side.slots[pos];
  return (!cr.attacked) & ((!cr.entered_this_turn) | has(side.abilities[pos], ability::rage));
}
inline void set_ready(line_side& side, int pos) {
  side.ready = static_cast<std::uint16_t>((side.ready & ~(1u << pos)) | unsigned{ready_to_attack(side, pos)} << pos);
}

// After any change to a side's creatures (who, where, a Symbiote on top) or
// to its `granted`: its `abilities`, `ready` and game_state::in_play worked out again.
// (A side changes one creature at a time, so past `count` only the slot just
// left can hold a stale value.)
inline void refresh_abilities(game_state& s, int line, int side) {
  line_side& ls = s.lines[line].sides[side];
  unsigned ready = 0;
  for (int i = 0; i < ls.count; ++i) {
    ls.abilities[i] = abilities_in_slot(s, ls, i);
    ready |= unsigned{ready_to_attack(ls, i)} << i;
    mark_in_play(s, line, side, i);
  }
  if (ls.count < max_side) ls.abilities[ls.count] = 0;
  ls.ready = static_cast<std::uint16_t>(ready);
}
// The same after a creature joined the back of a side (R3.2.3): only it and
// the one before it, which gains its Auras, change.
inline void refresh_after_entry(game_state& s, int line, int side) {
  line_side& ls = s.lines[line].sides[side];
  const int pos = ls.count - 1;
  ls.abilities[pos] = abilities_in_slot(s, ls, pos);
  set_ready(ls, pos);
  mark_in_play(s, line, side, pos);
  if (pos > 0) {
    ls.abilities[pos - 1] |= auras_of(s, ls.slots[pos]);
    set_ready(ls, pos - 1);
  }
}
void refresh_all_abilities(game_state& s);

inline ability_set abilities_at(const game_state& s, place p) {
  return s.lines[p.line].sides[p.side].abilities[p.pos];
}

inline int hp_of(const game_state& s, const creature& cr) {
  int hp = s.uid_stats[cr.uid].hp;
  if (cr.top != no_uid) hp += s.uid_stats[cr.top].hp;
  return hp;
}

inline int attack_value(const game_state& s, place p) {
  const creature& cr = s.lines[p.line].sides[p.side].slots[p.pos];
  const card_stats& base = s.uid_stats[cr.uid];
  int v = base.av_is_x ? 0 : base.av;  // RULING E10: a printed X is 0 outside Vulnerability
  if (cr.top != no_uid) {
    const card_stats& top = s.uid_stats[cr.top];
    v += top.av_is_x ? 0 : top.av;
  }
  v += cr.bonus_av;
  return v > 0 ? v : 0;
}

inline ability_set abilities_at(const ctx& c, place p) { return abilities_at(c.s, p); }
// What the neighbours' Auras give the creature at p (R7 Aura).
inline ability_set granted_at(const game_state& s, place p) {
  const line_side& side = s.lines[p.line].sides[p.side];
  ability_set a = 0;
  if (p.pos > 0) a |= auras_of(s, side.slots[p.pos - 1]);
  if (p.pos + 1 < side.count) a |= auras_of(s, side.slots[p.pos + 1]);
  return a;
}

// The seat across `p`'s line (R7 "enemy").
inline seat_t enemy_of(const game_state& s, place p) { return s.lines[p.line].sides[1 - p.side].seat; }
// Which of its seat's lines a place is on: 0 upper, 1 lower.
inline int which_line(const game_state& s, place p) {
  const seat_t owner = s.lines[p.line].sides[p.side].seat;
  return s.seats[owner].lines[0].line == p.line ? 0 : 1;
}
// count_with: the seat's creatures in play with ability a (R7 Blackmail; R17.10).
// playable_count: R7 Blackmail: how many of the 4 leftmost cards the seat may play (>= 1).
// play_cost: R7 Lucidity: the cost of the card at hand index i.
// (Inline: legal-action generation calls them for every card, every move.)
inline int count_with(const game_state& s, seat_t seat, ability a) {
  if (!has(s.present, a)) return 0;
  int n = 0;
  for (const seat_lines& sl : s.seats[seat].lines) {
    const line_side& ls = s.lines[sl.line].sides[sl.side];
    for (int i = 0; i < ls.count; ++i)
      if (has(abilities_at(s, {sl.line, sl.side, i}), a)) ++n;
  }
  return n;
}

inline int playable_count(const game_state& s, seat_t seat) {
  const int in_hand = s.seats[seat].hand.count;
  int n = in_hand < 4 ? in_hand : 4;  // R3.2.1
  // R7 Blackmail, R17.10: each Blackmail creature blocks the rightmost playable
  // card; never fewer than 1.
  if (has(s.present, ability::blackmail)) n -= count_with(s, seat, ability::blackmail);
  return n < 1 ? (in_hand > 0 ? 1 : 0) : n;
}

inline int play_cost(const game_state& s, seat_t seat, int i) {
  const card_stats& st = s.uid_stats[s.seats[seat].hand.cards[i]];
  int cost = st.mana;
  // R7 Lucidity: 2 less as the leftmost Creature/Incantation of the hand.
  cost -= 2 * ((i == 0) & has(st.abilities, ability::lucidity));
  return cost > 0 ? cost : 0;
}

// --- R13 Champion module ---

// The seat whose Champion `u` is, or no_seat (every other card).
inline seat_t champion_seat(const game_state& s, card_uid u) {
  for (int i = 0; i < s.seat_count; ++i)
    if (s.seats[i].champion == u && u != no_uid) return static_cast<seat_t>(i);
  return no_seat;
}

// R13.2: the Champion's cost: its printed cost minus 1 per creature card in
// play, on every line, every side, whose printed cost is exactly the same,
// never below 0. RULING E36: each card of a Symbiote pair counts; cards held
// by Chain are not in play (E28) and do not.
inline int champion_cost(const game_state& s, seat_t seat) {
  const int printed = s.uid_stats[s.seats[seat].champion].mana;
  int cost = printed;
  for (int l = 0; l < s.line_count; ++l)
    for (const line_side& ls : s.lines[l].sides)
      for (int i = 0; i < ls.count; ++i) {
        const creature& cr = ls.slots[i];
        if (s.uid_stats[cr.uid].mana == printed) --cost;
        if (cr.top != no_uid && s.uid_stats[cr.top].mana == printed) --cost;
      }
  return cost > 0 ? cost : 0;
}

// R13.3: a card was played (any seat, any card, a free play included): every
// exhausted Champion whose printed cost is exactly the card's is readied.
// (The check for an exhausted Champion is inline: most matches have none, and
// every play asks.)
void ready_exhausted_champions(ctx& c, card_uid played);
inline void ready_champions(ctx& c, card_uid played) {
  // Seats past seat_count have no Champion: all four are read, one branch.
  const auto& st = c.s.seats;
  constexpr auto e = champion_status::exhausted;
  // (Ints, not bools: one test of the four, not four short-circuited branches.)
  if (int{st[0].champion_state == e} | int{st[1].champion_state == e} | int{st[2].champion_state == e} |
      int{st[3].champion_state == e})
    ready_exhausted_champions(c, played);
}


// --- damage.cpp: one damage instance and what follows (R4.1–R4.3, R5) ---

// A source of damage: a creature attacking, a creature's Backfire, an incantation.
struct source {
  card_uid uid = no_uid;
  seat_t seat = no_seat;       // its owner
  ability_set abilities = 0;   // in force for this instance
  bool immune_applies = false; // R7 Indestructible: incantations and Backfire do nothing to it
  bool from_creature = false;  // R7 Instinct reacts to damage from a creature's attack
};

struct hit_list {
  place targets[3];
  int amounts[3] = {0, 0, 0};
  int count = 0;
};

// Splash and Perforation targets around a primary target (R7, R17.1, R17.2).
// (Inline: every attack asks, and most sources have neither.)
inline hit_list targets_around(const ctx& c, place primary, ability_set source) {
  hit_list h;
  h.targets[h.count++] = primary;
  const game_state& s = c.s;
  // R7 Splash: same position on the target owner's other line (duel: the
  // other line, same side). R17.2: not compounded with Perforation.
  // (A candidate is written and counted only if it is one: whether it is is
  // a coin flip in random games, where having the ability mostly is not.)
  if (has(source, ability::splash)) {
    const seat_t owner = s.lines[primary.line].sides[primary.side].seat;
    for (const seat_lines& sl : s.seats[owner].lines) {
      h.targets[h.count] = {sl.line, sl.side, primary.pos};
      h.count += (sl.line != primary.line) & (primary.pos < s.lines[sl.line].sides[sl.side].count);
    }
  }
  // R7 Perforation: the creature right behind the target, same side.
  h.targets[h.count] = {primary.line, primary.side, primary.pos + 1};
  h.count += int{has(source, ability::perforation)} & int{primary.pos + 1 < s.lines[primary.line].sides[primary.side].count};
  return h;
}

// Creatures damaged and still in play: R7 Vanish and Instinct act on them later.
struct survivors {
  card_uid uids[max_uids];
  int count = 0;
  void add(card_uid u) {
    for (int i = 0; i < count; ++i)
      if (uids[i] == u) return;
    if (count < max_uids) uids[count++] = u;
  }
};

// One damage instance to up to three creatures and its aftermath in R5 order:
// damage and Protection/Indestructible, Chain releases, destroyed creatures
// leave (R4.2 order; Mercenary, Cursed, Symbiote pairs), Reinforcement,
// Regeneration, Sharpening. Damaged survivors are added to `hurt`.
// Returns how many creatures were destroyed.
int deal_damage(ctx& c, const source& src, const hit_list& hits, survivors* hurt);

// R7 Vanish for each survivor (R4.2 order); then, if `instinct`, R7 Instinct
// counter-attacks (R17.4, R17.5). The inline part skips the call when nobody
// is hurt or neither ability is in the match (every attack and play asks).
void vanish_then_instinct(ctx& c, survivors& hurt, bool instinct);
inline void vanish_and_instinct(ctx& c, survivors& hurt, bool instinct) {
  // (The match's abilities first: the same every time, where who is hurt is not.)
  if (!has(c.s.present, ability::vanish) && !(instinct && has(c.s.present, ability::instinct))) return;
  if (hurt.count == 0) return;
  vanish_then_instinct(c, hurt, instinct);
}

// A creature leaves play other than by damage: returns its cards (R4.2).
void release_chained(ctx& c, creature& cr);

// --- summoning.cpp / assault.cpp / turn.cpp ---
void resolve_play(ctx& c, const action& a);
// R5.2 steps 3-19 for a creature: `u` from hand index `index`, or (index -1)
// from beside the play area: the seat's Champion (R13.2) or a card an AI
// revealed (R12.3). `paid`: the mana the card_played event reports.
void play_creature(ctx& c, seat_t seat, card_uid u, int index, int which, card_uid host, int paid);
// R5.2 for an incantation `u` from hand index `index` (-1: an AI's, R12.3).
void play_incantation(ctx& c, seat_t seat, card_uid u, int index, card_uid target, int paid);
// R7 Reinforcement: a free play from `seat`'s hand onto `line` (a seat line index).
void reinforce(ctx& c, seat_t seat, int line_index, card_uid reinforcer);
void resolve_assault(ctx& c, seat_t seat);
// One attack and its Berserk repeats; `counter`: an Instinct counter-attack (R17.5).
void attack_with(ctx& c, place p, bool counter);
void end_turn_and_start_next(ctx& c);
void start_turn(ctx& c, seat_t seat);
// R12, R11.7: while the active seat is an AI and the game goes on, play its
// turn (Phases 2 and 3, end of turn) and start the next one.
void run_ai_turns(ctx& c);

// --- ai_pile.cpp: an AI's deck and discard piles (R12.1, R12.5, R12.6, R12.9, R17.18) ---

// Takes the top card of the deck (no_uid if empty). Does not run the checks.
card_uid ai_take_top(game_state& s, seat_t seat);
// R12.5, R12.6, R17.18, after any change to the deck: an empty deck on the
// Bastion flips it to Fort and shuffles the discard pile into a new deck; an
// empty deck on the Fort (then or already) loses the game (`by`: R11.4).
// Returns true if the game is over.
bool ai_check_deck(ctx& c, seat_t seat, seat_t by);
// R12.5: `n` cards from the top of the deck to the discard pile, one by one,
// checking after each; when the Bastion is revealed the rest is lost (R17.18).
void ai_mill(ctx& c, seat_t seat, int n, card_uid source, seat_t by);
// R12.4: to the top of the discard pile.
void ai_discard(ctx& c, seat_t seat, card_uid u);
// R12.9 (Cursed, Mercenary, Chain, Regeneration): onto the top of the deck.
void ai_to_deck(ctx& c, seat_t seat, card_uid u, int from);
// R12.9 Regeneration (AI's): the discard pile's top card onto the deck.
void ai_regenerate(ctx& c, seat_t seat, card_uid source);

// --- ai.cpp: the AI's turn (R12.2, R12.3, R12.9, R11.7) ---

// R12.2, R11.7, R12.8, R12.9 Blackmail: the AI's Phase 1 mana.
int ai_mana(ctx& c, seat_t seat);
// R12.3: Phase 2: reveal and play until the cost played reaches the mana.
void ai_summon(ctx& c, seat_t seat);
// R12.9 Reinforcement (AI's): a discarded Reinforcement card summons the
// deck's top card on its line, for free.
void ai_reinforce(ctx& c, seat_t seat, int line_index, card_uid reinforcer);

}  // namespace cod::detail
