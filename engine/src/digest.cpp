// A 64-bit digest of the whole state, over its meaningful fields only (never
// over padding or unused slots), so equal states always give equal digests.
#include "cod/engine/match.hpp"
#include "hasher.hpp"

namespace cod {

using detail::hasher;

std::uint64_t match::digest() const {
  const game_state& s = state_;
  hasher x;
  x.add(static_cast<std::uint64_t>(s.mode) | std::uint64_t{s.seat_count} << 8 |
        std::uint64_t{s.line_count} << 16 | std::uint64_t{s.exhaustion_rule} << 24 |
        std::uint64_t{s.share_team_hands} << 25);
  // R17.25: the stall turn is not hashed. It is fixed at setup (a stored
  // match's options name it), and the moment it acts the state changes (a
  // card removed, R9.2), which the digest sees: a game that never reaches it
  // keeps the digests it had before the rule, and a replay with the wrong
  // stall turn fails at the first action it changes.
  for (std::uint64_t w : s.random.words()) x.add(w);
  x.add(s.uid_count);
  for (int u = 0; u < s.uid_count; ++u)
    x.add(std::uint64_t{s.uid_card[u]} | static_cast<std::uint64_t>(s.uid_origin[u] + 1) << 16);
  for (int seat = 0; seat < s.seat_count; ++seat) {
    const seat_state& st = s.seats[seat];
    x.add(std::uint64_t{st.hand.count} | std::uint64_t{st.hand.stronghold_pos} << 8 |
          static_cast<std::uint64_t>(st.hand.side) << 16 |
          static_cast<std::uint64_t>(static_cast<std::uint16_t>(st.mana)) << 24 |
          std::uint64_t{st.turns_taken} << 40);
    for (int i = 0; i < st.hand.count; ++i) x.add(st.hand.cards[i]);
    // R13: only a seat with a Champion adds a word, so a match without
    // Champions keeps the digests it always had (stored replays verify).
    if (st.champion != no_uid)
      x.add(0xC4A9000000000000ULL | static_cast<std::uint64_t>(seat) << 16 | std::uint64_t{st.champion} << 8 |
            static_cast<std::uint64_t>(st.champion_state));
  }
  for (int l = 0; l < s.line_count; ++l)
    for (const line_side& ls : s.lines[l].sides) {
      x.add(static_cast<std::uint64_t>(ls.seat + 1) | std::uint64_t{ls.count} << 8);
      for (int i = 0; i < ls.count; ++i) {
        const creature& c = ls.slots[i];
        x.add(std::uint64_t{c.uid} | std::uint64_t{c.damage} << 8 |
              static_cast<std::uint64_t>(static_cast<std::uint8_t>(c.bonus_av)) << 16 |
              std::uint64_t{c.entered_this_turn} << 24 | std::uint64_t{c.attacked} << 25 |
              std::uint64_t{c.protection_used} << 26 | std::uint64_t{c.top} << 32 |
              std::uint64_t{c.chained[0]} << 40 | std::uint64_t{c.chained[1]} << 48 |
              static_cast<std::uint64_t>((c.chained_from[0] + 1) | (c.chained_from[1] + 1) << 4) << 56);
      }
    }
  // R12 (solo, co-op only, so other modes keep their digests): the AI
  // settings and both piles of each AI seat, in order.
  if (s.mode == game_mode::solo || s.mode == game_mode::coop) {
    x.add(0xA1000000000000ULL | std::uint64_t{s.ai_fixed_mana} | std::uint64_t{s.ai_mana_per_creature} << 8 |
          std::uint64_t{s.ai_resistance} << 16 | std::uint64_t{s.ai_first} << 17 |
          std::uint64_t{s.difficulty} << 24);
    for (int l = 0; l < s.line_count; ++l)
      for (const line_side& ls : s.lines[l].sides) x.add(ls.granted);
    for (card_uid u : s.nested_in_flight) x.add(u);
    for (int seat = 1; seat < s.seat_count; seat += 2) {
      const ai_pile& p = s.pile(static_cast<seat_t>(seat));
      x.add(std::uint64_t{p.deck_count} | std::uint64_t{p.discard_count} << 8);
      for (int i = 0; i < p.deck_count; ++i) x.add(p.deck[i]);
      for (int i = 0; i < p.discard_count; ++i) x.add(std::uint64_t{p.discard[i]} | 0x100);
    }
  }
  for (std::uint64_t w : s.sharpening_used) x.add(w);
  x.add(s.in_flight);
  x.add(s.removed_count);
  for (int i = 0; i < s.removed_count; ++i) x.add(s.removed[i]);
  x.add(static_cast<std::uint64_t>(s.first_seat + 1) | static_cast<std::uint64_t>(s.active_seat + 1) << 8 |
        std::uint64_t{s.turn} << 16 | std::uint64_t{s.round} << 32 |
        static_cast<std::uint64_t>(s.current_phase) << 48);
  x.add(std::uint64_t{s.winners} | static_cast<std::uint64_t>(s.loser + 1) << 8 |
        static_cast<std::uint64_t>(s.reason) << 16);
  return x.h;
}

}  // namespace cod
