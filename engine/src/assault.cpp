// Phase 3, assault: R3.3 (who attacks, in what order, whom), R5.1 (one attack
// step by step), R17.7 (order re-evaluated after each attack), and the
// attack abilities: Rage, Aerial, Defender, Sprint, Aquatic, Vulnerability,
// Berserk (R7), with Vanish and Instinct after (R17.4, R17.5).
#include <bit>

#include "internal.hpp"

namespace cod::detail {

namespace {

// R3.3 / R17.7: the next attacker is the first creature, in R3.3.1 order
// (upper line then lower, furthest from the Bridge first), that has not
// attacked this phase and may attack: in play since an earlier turn, or with
// Rage (R5.1 steps 1-2, Auras included; R17.15 a Symbiote pair is its base).
place next_attacker(const ctx& c, seat_t seat) {
  const game_state& s = c.s;
  for (const seat_lines& sl : s.seats[seat].lines) {
    const line_side& ls = s.lines[sl.line].sides[sl.side];
    if (ls.ready != 0) return {sl.line, sl.side, static_cast<int>(std::bit_width(unsigned{ls.ready})) - 1};
  }
  return {};
}

// R7 Sprint (R5.1 step 4): move up to the Bridge, +1 AV per creature passed
// until the end of Phase 3 (R17.6).
void sprint(ctx& c, place& p) {
  if (p.pos == 0) return;
  line_side& ls = c.s.lines[p.line].sides[p.side];
  creature moving = ls.slots[p.pos];
  for (int i = p.pos; i > 0; --i) ls.slots[i] = ls.slots[i - 1];
  moving.bonus_av = static_cast<std::int8_t>(moving.bonus_av + p.pos);
  ls.slots[0] = moving;
  refresh_abilities(c.s, p.line, p.side);
  c.emit({.type = event_type::creature_moved, .uid = moving.uid, .line = static_cast<std::int8_t>(p.line),
          .side = static_cast<std::int8_t>(p.side), .amount = static_cast<std::int16_t>(p.pos),
          .from = static_cast<std::int16_t>(p.pos), .to = 0});
  p.pos = 0;
}

}  // namespace

void attack_with(ctx& c, place p, bool counter) {
  game_state& s = c.s;
  const card_uid u = at(s, p).uid;
  const seat_t me = seat_at(s, p);
  if (!counter) {
    at(s, p).attacked = true;
    s.lines[p.line].sides[p.side].ready &= static_cast<std::uint16_t>(~(1u << p.pos));
  }
  // Attacking on its entry turn is Rage's doing: creatures only (R7 Rage).
  const bool raging_entry = at(s, p).entered_this_turn && !counter;
  survivors hurt;
  // (p is where the attacker stands; a Berserk repeat finds it again below.)
  for (;;) {
    // Step 3: choose the target.
    ability_set ab = abilities_at(c, p);
    const int enemy_side = 1 - p.side;
    const seat_t enemy = s.lines[p.line].sides[enemy_side].seat;
    bool at_stronghold = false;
    if (has(ab, ability::aerial) && which_line(s, p) == 0) {
      // R7 Aerial on the upper line: the Stronghold directly. Rage does
      // nothing there; Defender means it attacks nothing.
      if (has(ab, ability::defender) || raging_entry) break;
      at_stronghold = true;
    } else if (s.lines[p.line].sides[enemy_side].count == 0) {
      // R3.3.2: no creature, the Stronghold — never for Rage on its entry
      // turn (R7 Rage) nor for a Defender (R7 Defender, R17.10).
      if (raging_entry || has(ab, ability::defender)) break;
      at_stronghold = true;
    }
    // Step 4: Sprint moves first, whatever the target.
    // Steps 5-6: Auras re-checked after the move (only a move changes them
    // here); damage computed.
    if (has(ab, ability::sprint) && p.pos > 0) {
      sprint(c, p);
      ab = abilities_at(c, p);
    }
    const bool doubled = has(ab, ability::aquatic) && p.pos == 0;  // R7 Aquatic
    const bool vulnerability = has(ab, ability::vulnerability);
    const creature& cr = at(s, p);
    if (at_stronghold) {
      c.emit({.type = event_type::attack, .seat = enemy, .uid = u, .line = static_cast<std::int8_t>(p.line)});
      bool dealt = false;
      if (vulnerability) {
        // R7 Vulnerability, R17.3: second-rightmost, no flip, no bonus.
        const int before = s.seats[enemy].hand.stronghold_pos;
        weaken_stronghold(c, enemy, u);
        dealt = s.seats[enemy].hand.stronghold_pos != before;
      } else {
        const int amount = attack_value(s, p) * (doubled ? 2 : 1);
        damage_stronghold(c, enemy, amount, u, me);  // R4.4
        dealt = amount > 0;
      }
      // Step 14: a Stronghold hit counts for Regeneration (R17.8).
      if (dealt && !over(s) && has(ab, ability::regeneration)) regenerate_stronghold(c, me, u);
      break;  // R7 Berserk: a Stronghold hit destroys no creature
    }
    const place primary{p.line, enemy_side, 0};
    c.emit({.type = event_type::attack, .seat = enemy, .uid = u,
            .target = s.lines[p.line].sides[enemy_side].slots[0].uid, .line = static_cast<std::int8_t>(p.line)});
    hit_list hits = targets_around(c, primary, ab);
    const int av = attack_value(s, p);
    for (int i = 0; i < hits.count; ++i) {
      int amount = av;
      if (vulnerability) {
        // R7 Vulnerability, R17.3: X = remaining health - 1, plus the Sprint
        // bonus (R7 Symbiote: the printed AVs are ignored).
        const creature& t = at(s, hits.targets[i]);
        const int x = hp_of(s, t) - t.damage - 1;
        amount = (x > 0 ? x : 0) + cr.bonus_av;
      }
      hits.amounts[i] = amount * (doubled ? 2 : 1);
    }
    // Steps 7-15.
    const source src{u, me, ab, /*immune_applies=*/false, /*from_creature=*/true};
    const int destroyed = deal_damage(c, src, hits, &hurt);
    if (over(s)) return;
    // Step 19, R7 Berserk: again after destroying at least one creature,
    // with the abilities it has now (step 18). Never on a counter-attack (R17.5).
    if (counter || destroyed == 0 || !has(s.present, ability::berserk)) break;
    if (at(s, p).uid != u) p = find_creature(s, u);  // (it seldom moves: where it was first)
    if (!p.valid() || !has(abilities_at(c, p), ability::berserk)) break;
  }
  if (over(s)) return;
  // Steps 16 and 20 after every attack of this attacker (R17.4); a
  // counter-attack's victims may Vanish but never strike back (R17.5).
  vanish_and_instinct(c, hurt, !counter);
}

void resolve_assault(ctx& c, seat_t seat) {
  for (;;) {
    const place p = next_attacker(c, seat);
    if (!p.valid()) return;
    attack_with(c, p, /*counter=*/false);
    if (c.over()) return;
  }
}

}  // namespace cod::detail
