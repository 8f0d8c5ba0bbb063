// Phase 3, assault: R3.3 (who attacks, in what order, whom), R5.1 (how one
// attack resolves, step by step), R17.7 (order re-evaluated after each attack).
#include "internal.hpp"

namespace cod::detail {

namespace {

// R3.3 / R17.7: the next attacker is the first creature, in R3.3.1 order
// (upper line then lower, furthest from the Bridge first), that has not
// attacked this phase and may attack: in play since an earlier turn, or with
// Rage (R5.1 steps 1-2, Auras included).
place next_attacker(const ctx& c, seat_t seat) {
  const game_state& s = c.s;
  for (const seat_lines& sl : s.seats[seat].lines) {
    const line_side& ls = s.lines[sl.line].sides[sl.side];
    for (int pos = ls.count - 1; pos >= 0; --pos) {
      const creature& cr = ls.slots[pos];
      if (cr.attacked) continue;
      const place p{sl.line, sl.side, pos};
      if (!cr.entered_this_turn || has(abilities_at(c, p), ability::rage)) return p;
    }
  }
  return {};
}

// R7 Sprint (R5.1 step 4): move up to the Bridge, +1 AV per creature passed.
void sprint(ctx& c, place& p) {
  if (p.pos == 0) return;
  line_side& ls = c.side_at(p.line, p.side);
  creature moving = ls.slots[p.pos];
  for (int i = p.pos; i > 0; --i) ls.slots[i] = ls.slots[i - 1];
  moving.bonus_av = static_cast<std::int8_t>(moving.bonus_av + p.pos);
  ls.slots[0] = moving;
  c.emit({.type = event_type::creature_moved, .uid = moving.uid,
          .line = static_cast<std::int8_t>(p.line), .side = static_cast<std::int8_t>(p.side),
          .amount = static_cast<std::int16_t>(p.pos), .from = static_cast<std::int16_t>(p.pos),
          .to = 0});
  p.pos = 0;
}

// One creature's attacks: the first, then its Berserk repeats (R5.1 step 19).
void attack_with(ctx& c, place p) {
  game_state& s = c.s;
  const card_uid u = c.at(p).uid;
  c.at(p).attacked = true;
  const bool raging_entry = c.at(p).entered_this_turn;  // may attack only through Rage
  for (;;) {
    // Step 3: the target is the enemy creature closest to the Bridge, else
    // the enemy Stronghold (R3.3.2) — but not on a Rage entry turn (R7 Rage).
    const int enemy_side = 1 - p.side;
    const line_side& foes = s.lines[p.line].sides[enemy_side];
    const seat_t enemy = foes.seat;
    if (foes.count == 0 && raging_entry) return;
    // Step 4: Sprint moves first, whatever the target.
    if (has(abilities_at(c, p), ability::sprint)) sprint(c, p);
    // Steps 5-6: Auras re-checked after the move; damage = AV + bonus.
    const ability_set ab = abilities_at(c, p);
    const int amount = attack_value(c.cat, s, p);
    if (foes.count == 0) {
      c.emit({.type = event_type::attack, .seat = enemy, .uid = u,
              .line = static_cast<std::int8_t>(p.line)});
      damage_stronghold(c, enemy, amount, u);  // R3.3.2, R4.4
      return;  // R7 Berserk: a Stronghold hit destroys no creature.
    }
    const place primary{p.line, enemy_side, 0};
    c.emit({.type = event_type::attack, .seat = enemy, .uid = u, .target = foes.slots[0].uid,
            .line = static_cast<std::int8_t>(p.line)});
    // Step 7 (and 10-12): one damage instance to every target.
    const int destroyed = deal_damage(c, u, targets_around(c, primary, ab), amount, false);
    if (c.over()) return;
    // Step 19, R7 Berserk: attacks again after destroying at least one
    // creature, with the abilities it has now (step 18).
    p = find_creature(s, u);
    if (destroyed == 0 || !has(abilities_at(c, p), ability::berserk)) return;
  }
}

}  // namespace

void resolve_assault(ctx& c, seat_t seat) {
  for (;;) {
    const place p = next_attacker(c, seat);
    if (!p.valid()) return;
    attack_with(c, p);
    if (c.over()) return;
  }
}

}  // namespace cod::detail
