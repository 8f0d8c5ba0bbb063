// One damage instance and its aftermath, in the R5 order shared by the
// assault (R5.1 steps 7-15) and the summoning (R5.2 steps 9-15):
//   damage, Protection, Indestructible (R4.1, R7, R17.1)
//   Chain releases (R7 Chain, R17.12)
//   destroyed creatures leave: R4.2 order, R4.3 gaps, Mercenary, Cursed,
//     Symbiote pairs (R7, R17.16); a Champion is exhausted (R13.3)
//   Reinforcement (R7, R17.17)
//   Regeneration (R7, R17.8), Sharpening (R7, R17.9)
// and, after the source has finished, Vanish and Instinct (R7, R17.4, R17.5).
#include <array>
#include <cstring>
#include <utility>

#include "internal.hpp"

namespace cod::detail {

namespace {

// R4.2 order key: the owner's upper line before its lower line, then
// furthest from the Bridge first (R17.19: each owner's own lines).
int return_order(const game_state& s, place p) { return which_line(s, p) * 100 + (max_side - p.pos); }

// Insertion sort for the few places one instance touches (std::sort trips
// g++ 12's -Warray-bounds on tiny arrays).
template <typename T, typename Less>
void sort_small(T* a, int n, Less less) {
  for (int i = 1; i < n; ++i)
    for (int j = i; j > 0 && less(a[j], a[j - 1]); --j) std::swap(a[j], a[j - 1]);
}

void remove_from_line(game_state& s, place p) {
  line_side& ls = s.lines[p.line].sides[p.side];
  s.in_play[ls.slots[p.pos].uid] = 0;
  if (ls.slots[p.pos].top != no_uid) s.in_play[ls.slots[p.pos].top] = 0;
  // R4.3: the creatures behind close the gap toward the Bridge. On a side of
  // at most four (the usual) three slots move whatever the place (past the
  // count they are blank): no loop exit to mispredict.
  if (ls.count <= 4) {
    std::memmove(static_cast<void*>(&ls.slots[p.pos]), &ls.slots[p.pos + 1], 3 * sizeof(creature));
  } else {
    for (int i = p.pos; i + 1 < ls.count; ++i) ls.slots[i] = ls.slots[i + 1];
  }
  --ls.count;
  ls.slots[ls.count] = creature{};
  refresh_abilities(s, p.line, p.side);
}

bool sharpening_spent(const game_state& s, card_uid u) { return (s.sharpening_used[u / 64] >> (u % 64)) & 1; }
void spend_sharpening(game_state& s, card_uid u) { s.sharpening_used[u / 64] |= std::uint64_t{1} << (u % 64); }

// Where a card leaving play goes (R4.2, R7 Mercenary, R7 Cursed, R17.16).
struct leaving_card {
  card_uid uid;
  ability_set abilities;  // its own plus those granted where it stood
};

seat_t mercenary_destination(const game_state& s, seat_t owner, seat_t destroyer, place p) {
  // R7 Mercenary: the enemy whose creature or spell destroyed it; RULING: when
  // its own side destroyed it, the player across its line.
  if (destroyer != no_seat && destroyer != owner) return destroyer;
  return enemy_of(s, p);
}

}  // namespace

void release_chained(ctx& c, creature& cr) {
  // R7 Chain / R17.12: each held card returns to the rightmost position of
  // the hand it came from.
  for (int k = 0; k < 2; ++k) {
    if (cr.chained[k] == no_uid) continue;
    const card_uid held = cr.chained[k];
    const seat_t from = cr.chained_from[k];
    cr.chained[k] = no_uid;
    cr.chained_from[k] = no_seat;
    if (c.s.ai(from)) ai_to_deck(c, from, held, 1);  // R12.9 Chain: back on top of the AI deck
    else return_to_hand(c, from, held);
  }
}

int deal_damage(ctx& c, const source& src, const hit_list& hits, survivors* hurt) {
  game_state& s = c.s;
  struct down {
    int hit;  // index into hits.targets (a place has initializers; an index is free)
    int excess;
  };
  down destroyed[3];
  int n_destroyed = 0;
  bool dealt_any = false;
  card_uid damaged[3];
  int n_damaged = 0;

  // Step 7 / 9: damage, Protection, Indestructible.
  for (int i = 0; i < hits.count; ++i) {
    const place& p = hits.targets[i];
    creature& cr = at(s, p);
    const ability_set ab = abilities_at(c, p);
    const int amount = hits.amounts[i];
    // R7 Indestructible: no damage and no effect from incantations and Backfire.
    if (src.immune_applies && has(ab, ability::indestructible)) {
      c.emit({.type = event_type::damage_prevented, .uid = src.uid, .target = cr.uid,
              .amount = static_cast<std::int16_t>(amount)});
      continue;
    }
    if (amount <= 0) continue;  // RULING E6: zero damage is no damage
    // R7 Protection: the first source of >= 1 damage each turn is reduced to 0.
    if (has(ab, ability::protection) && !cr.protection_used) {
      cr.protection_used = true;
      c.emit({.type = event_type::damage_prevented, .uid = src.uid, .target = cr.uid,
              .amount = static_cast<std::int16_t>(amount)});
      continue;
    }
    const int hp = hp_of(s, cr);
    const int remaining = hp - cr.damage;
    const int after = cr.damage + amount > 255 ? 255 : cr.damage + amount;
    cr.damage = static_cast<std::uint8_t>(after);
    dealt_any = true;
    damaged[n_damaged++] = cr.uid;
    c.emit({.type = event_type::damage_dealt, .uid = src.uid, .target = cr.uid,
            .amount = static_cast<std::int16_t>(amount)});
    if (after >= hp) destroyed[n_destroyed++] = {i, amount - remaining};  // R4.1
    else if (hurt) hurt->add(cr.uid);
  }

  // Step 8 (assault) / after step 9 (summoning): R7 Chain, R17.12. R17.23:
  // several Chain creatures hit at once return their cards in R4.2 order
  // (each owner's upper line then lower, furthest first, R17.19), not in the
  // order the hits were dealt.
  const bool chains = has(s.present, ability::chain);
  if (chains && n_damaged > 0) {
    place holders[3];
    int n_holders = 0;
    for (int i = 0; i < n_damaged; ++i)
      if (const place p = find_creature(s, damaged[i]); p.valid()) holders[n_holders++] = p;
    sort_small(holders, n_holders,
               [&](place a, place b) { return return_order(s, a) < return_order(s, b); });
    for (int i = 0; i < n_holders; ++i) release_chained(c, at(s, holders[i]));
  }

  // Steps 10-12: destroyed creatures leave play, R4.2 order.
  struct reinforcement {
    seat_t seat;
    int line_index;
    card_uid reinforcer;
    bool ai;  // R12.9: an AI's Reinforcement summons from its deck
  };
  reinforcement reinforce_queue[6];
  int n_reinforce = 0;
  seat_t hurt_owner = no_seat;
  int excess = 0;
  if (n_destroyed > 0) {
    sort_small(destroyed, n_destroyed, [&](const down& a, const down& b) {
      return return_order(s, hits.targets[a.hit]) < return_order(s, hits.targets[b.hit]);
    });
    // What leaves, taken before the sides close up. Field by field: a
    // creature copied whole just after its damage was written stalls store
    // forwarding (the copy's wide loads overlap that one-byte store).
    // (No member with an initializer: the three are written as needed, not
    // set up first.)
    struct gone {
      card_uid uid;
      card_uid top;
      std::array<card_uid, 2> chained;  // R7 Chain: what it held (read only in a match with Chain)
      std::array<seat_t, 2> chained_from;
      int hit;  // where it stood: hits.targets[hit]
      seat_t owner;
      ability_set granted;  // abilities its neighbours' Auras gave it
    };
    gone leaving[3];
    // Auras that change where a card goes (Cursed, Reinforcement, Mercenary).
    const bool has_any_aura = (s.present & (bit(ability::cursed) | bit(ability::reinforcement) |
                                            bit(ability::mercenary))) != 0;
    for (int i = 0; i < n_destroyed; ++i) {
      const place& p = hits.targets[destroyed[i].hit];
      const ability_set granted = has_any_aura ? granted_at(s, p) : 0;
      const creature& cr = at(s, p);
      gone& g = leaving[i];
      g.uid = cr.uid;
      g.top = cr.top;
      if (chains) {
        g.chained = cr.chained;
        g.chained_from = cr.chained_from;
      }
      g.hit = destroyed[i].hit;
      g.owner = seat_at(s, p);
      g.granted = granted;
      excess += destroyed[i].excess > 0 ? destroyed[i].excess : 0;
      if (hurt_owner == no_seat) hurt_owner = g.owner;
      c.emit({.type = event_type::creature_destroyed, .seat = g.owner, .uid = g.uid,
              .line = static_cast<std::int8_t>(p.line), .side = static_cast<std::int8_t>(p.side),
              .from = static_cast<std::int16_t>(p.pos)});
    }
    // Remove back to front on each side so the positions still to go stay
    // valid (as indices into the hits, like `destroyed`).
    int by_pos[3];
    for (int i = 0; i < n_destroyed; ++i) by_pos[i] = destroyed[i].hit;
    sort_small(by_pos, n_destroyed, [&](int x, int y) {
      const place a = hits.targets[x], b = hits.targets[y];
      if (a.line != b.line) return a.line < b.line;
      if (a.side != b.side) return a.side < b.side;
      return a.pos > b.pos;
    });
    for (int i = 0; i < n_destroyed; ++i) remove_from_line(s, hits.targets[by_pos[i]]);
    for (int i = 0; i < n_destroyed; ++i) {
      gone& g = leaving[i];
      if (chains) {  // R17.12: leaving play frees what it held
        creature held;
        held.chained = g.chained;
        held.chained_from = g.chained_from;
        release_chained(c, held);
      }
      const place gp = hits.targets[g.hit];
      // R7 Symbiote: both cards return, the Symbiote first.
      const card_uid cards[2] = {g.top, g.uid};
      for (card_uid u : cards) {
        if (u == no_uid) continue;
        // R13.3, R1.7: a destroyed Champion goes to no hand: it is exhausted
        // beside the play area; Mercenary, Cursed and Reinforcement do not
        // apply (RULING E37).
        if (const seat_t champ = champion_seat(s, u); champ != no_seat) {
          s.seats[champ].champion_state = champion_status::exhausted;
          c.emit({.type = event_type::champion_exhausted, .seat = champ, .uid = u});
          continue;
        }
        const ability_set ab = c.stats(u).abilities | g.granted;
        if (has(ab, ability::mercenary)) {
          // R7 Mercenary, R17.16: to the enemy's hand; Cursed and Reinforcement
          // do not trigger. R12.9: to an AI, on top of its deck.
          const seat_t to = mercenary_destination(s, g.owner, src.seat, gp);
          if (s.ai(to)) ai_to_deck(c, to, u, 0);
          else return_to_hand(c, to, u);
          continue;
        }
        if (s.ai(g.owner)) {
          // R12.4: a destroyed AI card is discarded; R12.9 Cursed: on top of
          // the deck instead; R12.9 Reinforcement: when discarded.
          if (has(ab, ability::cursed)) {
            ai_to_deck(c, g.owner, u, 0);
          } else {
            ai_discard(c, g.owner, u);
            if (has(ab, ability::reinforcement) && n_reinforce < 6)
              reinforce_queue[n_reinforce++] = {g.owner, which_line(s, gp), u, true};
          }
          continue;
        }
        return_to_hand(c, g.owner, u, has(ab, ability::cursed));  // R7 Cursed: leftmost
        if (has(ab, ability::reinforcement) && n_reinforce < 6)
          reinforce_queue[n_reinforce++] = {g.owner, which_line(s, gp), u, false};
      }
    }
  }

  // Step 11: R7 Reinforcement, in the order the cards returned.
  for (int i = 0; i < n_reinforce && !over(s); ++i) {
    const reinforcement& r = reinforce_queue[i];
    if (r.ai) ai_reinforce(c, r.seat, r.line_index, r.reinforcer);
    else reinforce(c, r.seat, r.line_index, r.reinforcer);
  }
  if (over(s)) return n_destroyed;

  // Step 14: R7 Regeneration, once per instance that dealt damage (R17.8).
  if (dealt_any && has(src.abilities, ability::regeneration)) regenerate_stronghold(c, src.seat, src.uid);
  if (over(s)) return n_destroyed;

  // Step 15: R7 Sharpening, the first kill of the turn; spent even if the excess is 0 (R17.9).
  // R17.10: a Defender never damages a Stronghold, so its excess is lost (RULING E25).
  if (n_destroyed > 0 && has(src.abilities, ability::sharpening) && !sharpening_spent(s, src.uid)) {
    spend_sharpening(s, src.uid);
    c.triggered(src.uid, src.seat, ability::sharpening);
    if (!has(src.abilities, ability::defender)) damage_stronghold(c, hurt_owner, excess, src.uid, src.seat);
  }
  return n_destroyed;
}

void vanish_then_instinct(ctx& c, survivors& hurt, bool instinct) {
  game_state& s = c.s;
  auto in_order = [&](place* places, card_uid* uids) {
    int n = 0;
    for (int i = 0; i < hurt.count; ++i) {
      const place p = find_creature(s, hurt.uids[i]);
      if (!p.valid()) continue;
      places[n] = p;
      uids[n] = hurt.uids[i];
      ++n;
    }
    // R17.4: in R4.2 order (each owner's upper line, then lower, furthest first).
    for (int i = 1; i < n; ++i)
      for (int j = i; j > 0 && return_order(s, places[j]) < return_order(s, places[j - 1]); --j) {
        std::swap(places[j], places[j - 1]);
        std::swap(uids[j], uids[j - 1]);
      }
    return n;
  };
  place places[max_uids];  // only the first hurt.count are used
  card_uid uids[max_uids];
  // R7 Vanish: to the position furthest from the Bridge on its side.
  int n = in_order(places, uids);
  for (int i = 0; i < n; ++i) {
    const place p = find_creature(s, uids[i]);
    if (!p.valid() || !has(abilities_at(c, p), ability::vanish)) continue;
    line_side& ls = s.lines[p.line].sides[p.side];
    if (p.pos == ls.count - 1) continue;
    const creature moving = ls.slots[p.pos];
    for (int k = p.pos; k + 1 < ls.count; ++k) ls.slots[k] = ls.slots[k + 1];
    ls.slots[ls.count - 1] = moving;
    refresh_abilities(s, p.line, p.side);
    c.emit({.type = event_type::creature_vanished, .uid = moving.uid, .line = static_cast<std::int8_t>(p.line),
            .side = static_cast<std::int8_t>(p.side), .from = static_cast<std::int16_t>(p.pos),
            .to = static_cast<std::int16_t>(ls.count - 1)});
  }
  if (!instinct) return;
  // R7 Instinct: each damaged survivor strikes back once (R17.5: no chains).
  n = in_order(places, uids);
  for (int i = 0; i < n && !over(s); ++i) {
    const place p = find_creature(s, uids[i]);
    if (!p.valid() || !has(abilities_at(c, p), ability::instinct)) continue;
    c.triggered(uids[i], seat_at(s, p), ability::instinct);
    attack_with(c, p, /*counter=*/true);
  }
}

}  // namespace cod::detail
