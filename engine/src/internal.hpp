// Shared by the rules files: the context a resolution runs in, and the small
// operations every rule uses. Not a public header.
#pragma once

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
  std::vector<event>& out;

  const card_stats& stats(card_uid u) const { return cat.stats(s.uid_card[u]); }
  void emit(const event& e) { out.push_back(e); }
  bool over() const { return s.current_phase == phase::game_over; }

  line_side& side_at(int line, int side) { return s.lines[line].sides[side]; }
  creature& at(const place& p) { return s.lines[p.line].sides[p.side].slots[p.pos]; }
};

// --- hand.cpp: hands and Strongholds (R1.5, R4.4–R4.6, R9.2) ---

// Removes the card at hand index i; the Stronghold keeps its place among the
// remaining cards (R3.2.6). Does not run the R4.5/R4.6 checks.
void take_from_hand(game_state& s, seat_t seat, int i);
// Puts a card at the rightmost position (R4.2) and reports where it landed.
void return_to_hand(ctx& c, seat_t seat, card_uid u);
// R4.5–R4.6 after a hand change: flips a rightmost Bastion, ends the game on a
// rightmost Fort or a lone Stronghold. Returns true if the game is over.
bool check_stronghold(ctx& c, seat_t seat);
// R4.4: N damage moves the Stronghold N places right (one instance).
void damage_stronghold(ctx& c, seat_t seat, int amount, card_uid source);
// R4.6 / R16.3: `loser` is out; in a duel every other seat wins.
void end_game(ctx& c, seat_t loser, end_reason why);
int hand_index(const game_state& s, seat_t seat, card_uid u);

// --- damage.cpp: creatures taking damage and leaving play (R4.1–R4.3) ---

place find_creature(const game_state& s, card_uid u);
// R7 Aura, R6.2: the abilities a creature has where it stands now.
ability_set abilities_at(const catalogue& cat, const game_state& s, const place& p);
inline ability_set abilities_at(const ctx& c, const place& p) { return abilities_at(c.cat, c.s, p); }
// Printed AV plus this turn's Sprint bonus, never below 0.
int attack_value(const catalogue& cat, const game_state& s, const place& p);

// One damage instance from `source` to up to three creatures (primary first,
// then Splash/Perforation targets, R7, R17.1). `from_incantation`:
// Indestructible creatures take nothing (R7). Destroyed creatures return to
// hand in R4.2 order and the lines close up (R4.3). Returns how many were
// destroyed.
struct hit_list {
  place targets[3];
  int count = 0;
};
int deal_damage(ctx& c, card_uid source, const hit_list& hits, int amount, bool from_incantation);

// Splash and Perforation targets around a primary target (R7, R17.2).
hit_list targets_around(const ctx& c, const place& primary, ability_set source_abilities);

// Adds a creature at the back of a side (R3.2.3). Returns its position.
int enter_line(ctx& c, seat_t seat, int line, int side, card_uid u);

// --- summoning.cpp / assault.cpp / turn.cpp ---
void resolve_play(ctx& c, const action& a);
void resolve_assault(ctx& c, seat_t seat);
void end_turn_and_start_next(ctx& c);
void start_turn(ctx& c, seat_t seat);

}  // namespace cod::detail
