// Creatures taking damage and leaving play: R4.1 destruction, R4.2 return
// order, R4.3 closing gaps; Auras (R7, R6.2); Protection and Indestructible
// at the damage step (R5.1 step 7, R5.2 step 9); Splash and Perforation
// targets (R7, R17.1, R17.2).
#include <algorithm>
#include <utility>

#include "internal.hpp"

namespace cod::detail {

place find_creature(const game_state& s, card_uid u) {
  for (int l = 0; l < s.line_count; ++l)
    for (int d = 0; d < 2; ++d) {
      const line_side& side = s.lines[l].sides[d];
      for (int p = 0; p < side.count; ++p)
        if (side.slots[p].uid == u) return {l, d, p};
    }
  return {};
}

ability_set abilities_at(const catalogue& cat, const game_state& s, const place& p) {
  const line_side& side = s.lines[p.line].sides[p.side];
  ability_set a = cat.stats(s.uid_card[side.slots[p.pos].uid]).abilities;
  // R7 Aura X: the neighbours on the same side of the same line give X. A bit
  // set twice is still one ability (R6.2).
  if (p.pos > 0) a |= cat.stats(s.uid_card[side.slots[p.pos - 1].uid]).auras;
  if (p.pos + 1 < side.count) a |= cat.stats(s.uid_card[side.slots[p.pos + 1].uid]).auras;
  return a;
}

int attack_value(const catalogue& cat, const game_state& s, const place& p) {
  const creature& cr = s.lines[p.line].sides[p.side].slots[p.pos];
  const int v = cat.stats(s.uid_card[cr.uid]).av + cr.bonus_av;
  return v > 0 ? v : 0;
}

hit_list targets_around(const ctx& c, const place& primary, ability_set source) {
  hit_list h;
  h.targets[h.count++] = primary;
  const game_state& s = c.s;
  // R7 Splash: same position on the target owner's other line (duel: the
  // other line, same side). R17.2: not compounded with Perforation.
  if (has(source, ability::splash)) {
    const seat_t owner = s.lines[primary.line].sides[primary.side].seat;
    for (const seat_lines& sl : s.seats[owner].lines) {
      if (sl.line == primary.line) continue;
      if (primary.pos < s.lines[sl.line].sides[sl.side].count)
        h.targets[h.count++] = {sl.line, sl.side, primary.pos};
    }
  }
  // R7 Perforation: the creature right behind the target, same side.
  if (has(source, ability::perforation)) {
    if (primary.pos + 1 < s.lines[primary.line].sides[primary.side].count)
      h.targets[h.count++] = {primary.line, primary.side, primary.pos + 1};
  }
  return h;
}

int enter_line(ctx& c, seat_t seat, int line, int side, card_uid u) {
  line_side& ls = c.side_at(line, side);
  const int pos = ls.count;
  ls.slots[pos] = creature{};
  ls.slots[pos].uid = u;
  ls.slots[pos].entered_this_turn = true;
  ++ls.count;
  c.emit({.type = event_type::creature_entered, .seat = seat, .uid = u,
          .line = static_cast<std::int8_t>(line), .side = static_cast<std::int8_t>(side),
          .to = static_cast<std::int16_t>(pos)});
  return pos;
}

namespace {

// R4.2 order key: the owner's upper line before its lower line, then
// furthest from the Bridge first.
int return_order(const game_state& s, const place& p) {
  const seat_t owner = s.lines[p.line].sides[p.side].seat;
  const int which = s.seats[owner].lines[0].line == p.line ? 0 : 1;
  return which * 100 + (max_side - p.pos);
}

// Insertion sort for the at most three places one damage instance touches
// (std::sort trips g++ 12's -Warray-bounds on such tiny arrays).
template <typename Less>
void sort_small(place* a, int n, Less less) {
  for (int i = 1; i < n; ++i)
    for (int j = i; j > 0 && less(a[j], a[j - 1]); --j) std::swap(a[j], a[j - 1]);
}

void remove_from_line(game_state& s, const place& p) {
  line_side& ls = s.lines[p.line].sides[p.side];
  // R4.3: the creatures behind close the gap toward the Bridge.
  for (int i = p.pos; i + 1 < ls.count; ++i) ls.slots[i] = ls.slots[i + 1];
  --ls.count;
  ls.slots[ls.count] = creature{};
}

}  // namespace

int deal_damage(ctx& c, card_uid source, const hit_list& hits, int amount, bool from_incantation) {
  game_state& s = c.s;
  place destroyed[3];
  int n_destroyed = 0;
  for (int i = 0; i < hits.count; ++i) {
    const place& p = hits.targets[i];
    creature& cr = c.at(p);
    const card_stats& st = c.stats(cr.uid);
    const ability_set ab = abilities_at(c, p);
    // R7 Indestructible: no damage and no effect from incantations.
    if (from_incantation && has(ab, ability::indestructible)) {
      c.emit({.type = event_type::damage_prevented, .uid = source, .target = cr.uid,
              .amount = static_cast<std::int16_t>(amount)});
      continue;
    }
    if (amount <= 0) continue;
    // R7 Protection: the first source of >= 1 damage this turn is reduced to 0.
    if (has(ab, ability::protection) && !cr.protection_used) {
      cr.protection_used = true;
      c.emit({.type = event_type::damage_prevented, .uid = source, .target = cr.uid,
              .amount = static_cast<std::int16_t>(amount)});
      continue;
    }
    const int before = cr.damage;
    const int after = std::min(before + amount, 255);
    cr.damage = static_cast<std::uint8_t>(after);
    c.emit({.type = event_type::damage_dealt, .uid = source, .target = cr.uid,
            .amount = static_cast<std::int16_t>(amount)});
    if (after >= st.hp) destroyed[n_destroyed++] = p;  // R4.1
  }
  if (n_destroyed == 0) return 0;

  // R4.2: return in order; remove from the lines back to front so the
  // positions still to be removed stay valid.
  sort_small(destroyed, n_destroyed, [&](const place& a, const place& b) {
    return return_order(s, a) < return_order(s, b);
  });
  card_uid uids[3];
  seat_t owners[3];
  for (int i = 0; i < n_destroyed; ++i) {
    const place& p = destroyed[i];
    uids[i] = c.at(p).uid;
    owners[i] = s.lines[p.line].sides[p.side].seat;
    c.emit({.type = event_type::creature_destroyed, .seat = owners[i], .uid = uids[i],
            .line = static_cast<std::int8_t>(p.line), .side = static_cast<std::int8_t>(p.side),
            .from = static_cast<std::int16_t>(p.pos)});
  }
  place by_pos[3];
  std::copy(destroyed, destroyed + n_destroyed, by_pos);
  sort_small(by_pos, n_destroyed, [](const place& a, const place& b) {
    if (a.line != b.line) return a.line < b.line;
    if (a.side != b.side) return a.side < b.side;
    return a.pos > b.pos;
  });
  for (int i = 0; i < n_destroyed; ++i) remove_from_line(s, by_pos[i]);
  // R1.6: a card returns to the hand of the seat whose side it was on.
  for (int i = 0; i < n_destroyed; ++i) return_to_hand(c, owners[i], uids[i]);
  return n_destroyed;
}

}  // namespace cod::detail
