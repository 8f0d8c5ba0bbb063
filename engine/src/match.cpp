// The facade: setup (R2, R14.1, R14.6), validation of every action before
// anything changes, and replay (R16.1).
#include "cod/engine/match.hpp"

#include <cstdlib>

#include "internal.hpp"

namespace cod {

using detail::ctx;

namespace detail {

// The board of a mode.
// Duel (R1.3): line 0 upper, line 1 lower; seat 0 on side 0 of both.
// Four players (R11.1): seats A-D are 0-3; lines L1 = A-B (0), L2 = B-C (1),
// L3 = C-D (2), L4 = D-A (3), the first-named seat on side 0. L1 and L3 are
// the upper line of both their seats, L2 and L4 the lower line.
void lay_out(game_state& s, game_mode mode) {
  s.mode = mode;
  if (seats_of(mode) == 2) {  // duel, solo (R12: the duel's board)
    s.seat_count = 2;
    s.line_count = 2;
    for (int l = 0; l < 2; ++l) {
      s.lines[l].sides[0].seat = 0;
      s.lines[l].sides[1].seat = 1;
    }
    for (int seat = 0; seat < 2; ++seat) {
      s.seats[seat].lines[0] = {0, static_cast<std::uint8_t>(seat)};
      s.seats[seat].lines[1] = {1, static_cast<std::uint8_t>(seat)};
    }
    return;
  }
  s.seat_count = 4;
  s.line_count = 4;
  for (int l = 0; l < 4; ++l) {
    s.lines[l].sides[0].seat = static_cast<seat_t>(l);
    s.lines[l].sides[1].seat = static_cast<seat_t>((l + 1) % 4);
  }
  // {line, side} of each seat's upper and lower line.
  constexpr std::uint8_t upper[4][2] = {{0, 0}, {0, 1}, {2, 0}, {2, 1}};
  constexpr std::uint8_t lower[4][2] = {{3, 1}, {1, 0}, {1, 1}, {3, 0}};
  for (int seat = 0; seat < 4; ++seat) {
    s.seats[seat].lines[0] = {upper[seat][0], upper[seat][1]};
    s.seats[seat].lines[1] = {lower[seat][0], lower[seat][1]};
  }
}

}  // namespace detail

using detail::lay_out;

namespace {

// Where a Champion given in play by a position stands until it has its uid.
struct place_of_champion {
  int line = -1;
  int side = -1;
  int pos = -1;
};

// R12.2, R12.8: the AI's settings, fixed for the match; the abilities given
// to every AI creature live on the AI seats' sides of their lines.
void set_up_ai(game_state& s, const ai_settings& ai, int difficulty) {
  s.ai_fixed_mana = static_cast<std::uint8_t>(ai.fixed_mana);
  s.ai_mana_per_creature = ai.double_variable ? 2 : 1;
  s.ai_resistance = ai.resistance;
  s.ai_first = ai.ai_first;
  s.difficulty = static_cast<std::uint8_t>(difficulty);
  for (int seat = 0; seat < s.seat_count; ++seat)
    if (s.ai(static_cast<seat_t>(seat)))
      for (const seat_lines& sl : s.seats[seat].lines) s.lines[sl.line].sides[sl.side].granted = ai.granted;
  s.present |= ai.granted;
}

card_uid add_uid(game_state& s, const catalogue& cat, card_id card, seat_t origin) {
  const auto u = static_cast<card_uid>(s.uid_count++);
  s.uid_card[u] = card;
  s.uid_stats[u] = cat.stats(card);
  s.uid_origin[u] = origin;
  s.present |= cat.stats(card).abilities | cat.stats(card).auras;
  return u;
}

}  // namespace

rule_error match::check_deck(const catalogue& cat, const std::vector<card_id>& deck) {
  if (deck.size() != 8) return rule_error::bad_deck_size;  // R1.2
  // The usual deck first, without a branch per pair of cards: all known, no
  // two alike (a bit per catalogue card), all playable. Any other deck takes
  // the loop below, which names the first fault in deck order.
  if (cat.size() <= 512) {
    std::uint64_t seen[8] = {};
    bool fine = true;
    for (const card_id c : deck) {
      const card_id known = c < cat.size() ? c : 0;
      const std::uint64_t bit = std::uint64_t{1} << (known % 64);
      const card_type t = cat.stats(known).type;
      fine &= (c < cat.size()) & ((seen[known / 64] & bit) == 0) &
              ((t == card_type::creature) | (t == card_type::incantation));
      seen[known / 64] |= bit;
    }
    if (fine) return rule_error::ok;
  }
  for (std::size_t i = 0; i < deck.size(); ++i) {
    if (deck[i] >= cat.size()) return rule_error::unknown_card;
    for (std::size_t j = 0; j < i; ++j)
      if (deck[j] == deck[i]) return rule_error::duplicate_card;  // R1.2, R14.6
    if (cat.stats(deck[i]).type != card_type::creature && cat.stats(deck[i]).type != card_type::incantation)
      return rule_error::not_a_deck_card;
  }
  return rule_error::ok;
}

rule_error match::check_champion(const catalogue& cat, card_id champion, const std::vector<card_id>& deck) {
  if (champion == no_card) return rule_error::ok;  // R13 is optional, seat by seat
  if (champion >= cat.size()) return rule_error::unknown_card;
  // R13.1: a creature outside the seat's deck (RULING E40).
  if (cat.stats(champion).type != card_type::creature) return rule_error::bad_champion;
  for (card_id c : deck)
    if (c == champion) return rule_error::bad_champion;
  return rule_error::ok;
}

rule_error match::create(const catalogue& cat, const match_config& cfg, match& out,
                         std::vector<event>& events) {
  if (cfg.seat_count != seats_of(cfg.mode)) return rule_error::bad_setup;
  if (cfg.first_seat != no_seat && (cfg.first_seat < 0 || cfg.first_seat >= cfg.seat_count))
    return rule_error::bad_setup;
  if (cfg.stall_exhaustion_turn < 0 || cfg.stall_exhaustion_turn > max_stall_exhaustion_turn)
    return rule_error::bad_setup;  // R17.25: 0 (never) or a turn
  const bool ai_mode = cfg.mode == game_mode::solo || cfg.mode == game_mode::coop;
  // R2.4 (solo): the human starts unless the difficulty says the AI (co-op:
  // A, or B). A room may name the first seat only if it is that one.
  const seat_t ai_first_seat = cfg.ai.ai_first ? 1 : 0;
  if (ai_mode && cfg.first_seat != no_seat && cfg.first_seat != ai_first_seat) return rule_error::bad_setup;
  for (int seat = 0; seat < cfg.seat_count; ++seat) {
    const bool ai = is_ai_seat(cfg.mode, static_cast<seat_t>(seat));
    if (auto e = ai ? check_ai_deck(cat, cfg.decks[seat]) : check_deck(cat, cfg.decks[seat]); e != rule_error::ok)
      return e;
  }
  if (auto e = check_ai_options(cfg); e != rule_error::ok) return e;
  for (int seat = 0; seat < cfg.seat_count; ++seat)
    if (auto e = check_champion(cat, cfg.champions[seat], cfg.decks[seat]); e != rule_error::ok) return e;
  for (int seat = cfg.seat_count; seat < max_seats; ++seat)
    if (cfg.champions[seat] != no_card) return rule_error::bad_setup;  // a Champion for a seat not at the table

  // Built in place: a match is reset, not copied (the bench creates millions).
  // From a constant blank state: one block copy, where `game_state{}` stored
  // every empty slot's no_uid markers one by one (3% of a random game).
  static constexpr game_state blank{};
  out.cat_ = &cat;
  out.state_ = blank;
  game_state& s = out.state_;
  s.exhaustion_rule = cfg.exhaustion_rule;
  s.stall_exhaustion_turn = static_cast<std::uint16_t>(cfg.stall_exhaustion_turn);  // R17.25
  s.share_team_hands = cfg.share_team_hands && cfg.mode == game_mode::two_vs_two;
  s.random = rng(cfg.seed);
  lay_out(s, cfg.mode);
  // R2.3: uids follow the deck lists; each seat's hand is its deck shuffled,
  // Stronghold leftmost, Bastion up.
  for (int seat = 0; seat < cfg.seat_count; ++seat) {
    hand_state& h = s.seats[seat].hand;
    h.stronghold_pos = 0;
    h.side = stronghold_side::bastion;
    if (s.ai(static_cast<seat_t>(seat))) {
      // R12.1, R12.7: the AI's cards shuffled face down into its deck pile,
      // over its Stronghold, Bastion up (same draw as a hand: E9).
      ai_pile& p = s.pile(static_cast<seat_t>(seat));
      for (card_id card : cfg.decks[seat]) p.deck[p.deck_count++] = add_uid(s, cat, card, static_cast<seat_t>(seat));
      s.random.shuffle(p.deck.data(), p.deck_count);
      continue;
    }
    for (card_id card : cfg.decks[seat]) h.cards[h.count++] = add_uid(s, cat, card, static_cast<seat_t>(seat));
    s.random.shuffle(h.cards.data(), h.count);
  }
  if (ai_mode) set_up_ai(s, cfg.ai, cfg.difficulty);
  // R13.1: each Champion, revealed beside the play area, ready. Its uid comes
  // after every deck card and nothing is drawn for it (RULING E40), so a match
  // without Champions is numbered and shuffled as before.
  for (int seat = 0; seat < cfg.seat_count; ++seat)
    if (cfg.champions[seat] != no_card) {
      s.seats[seat].champion = add_uid(s, cat, cfg.champions[seat], static_cast<seat_t>(seat));
      s.seats[seat].champion_state = champion_status::ready;
    }
  // R2.4: the coin toss (solo, co-op: none, see above).
  s.first_seat = ai_mode ? ai_first_seat
                 : cfg.first_seat != no_seat ? cfg.first_seat
                                             : static_cast<seat_t>(s.random.below(cfg.seat_count));
  ctx c{cat, s, &events};
  c.emit({.type = event_type::match_started, .seat = s.first_seat});
  detail::start_turn(c, s.first_seat);
  detail::run_ai_turns(c);  // R12.8 "AI plays first": its opening turn, into `events`
  return rule_error::ok;
}

rule_error match::from_position(const catalogue& cat, const position_setup& p, match& out) {
  const int n = seats_of(p.mode);
  if (static_cast<int>(p.seats.size()) != n) return rule_error::bad_setup;
  if (p.active_seat < 0 || p.active_seat >= n || p.first_seat < 0 || p.first_seat >= n)
    return rule_error::bad_setup;
  if (p.turn < 1 || p.round < 1 || p.turn > 60000 || p.round > 60000) return rule_error::bad_setup;
  if (p.stall_exhaustion_turn < 0 || p.stall_exhaustion_turn > max_stall_exhaustion_turn)
    return rule_error::bad_setup;  // R17.25
  // Between actions the active seat is a human's (R12: the AI's turns run inside apply()).
  if (is_ai_seat(p.mode, p.active_seat)) return rule_error::bad_setup;
  if (!(p.ai == ai_settings{}) && p.mode != game_mode::solo && p.mode != game_mode::coop)
    return rule_error::bad_difficulty;
  if (ai_points(p.ai, 0) < 0) return rule_error::bad_difficulty;  // options out of range
  match m;
  m.cat_ = &cat;
  game_state& s = m.state_;
  s.exhaustion_rule = p.exhaustion_rule;
  s.stall_exhaustion_turn = static_cast<std::uint16_t>(p.stall_exhaustion_turn);  // R17.25
  s.share_team_hands = p.share_team_hands && p.mode == game_mode::two_vs_two;
  s.random = rng(p.seed);
  lay_out(s, p.mode);
  s.first_seat = p.first_seat;
  s.active_seat = p.active_seat;
  s.turn = static_cast<std::uint16_t>(p.turn);
  s.round = static_cast<std::uint16_t>(p.round);

  std::size_t total = p.removed.size();
  for (const seat_setup& ss : p.seats) {
    total += ss.hand.size() + ss.deck.size() + ss.discard.size() + (ss.champion != no_card);
    for (const auto& row : ss.lines)
      for (const creature_setup& cs : row) total += 1 + (cs.top != no_card) + cs.chained.size();
  }
  if (total > max_uids) return rule_error::bad_setup;
  auto known = [&](card_id id) { return id < cat.size(); };
  // R13: a Champion in play gets its uid with the others, after the removed
  // cards; its slot is filled in then.
  std::array<place_of_champion, max_seats> champion_at{};

  for (int seat = 0; seat < n; ++seat) {
    const seat_setup& ss = p.seats[seat];
    seat_state& st = s.seats[seat];
    if (ss.hand.size() > max_hand) return rule_error::bad_setup;
    const bool ai = is_ai_seat(p.mode, static_cast<seat_t>(seat));
    if (ai) {
      // R12.1: no hand, no Champion; a deck pile (top first here) and a discard pile.
      if (!ss.hand.empty() || ss.stronghold_pos != 0 || ss.champion != no_card || ss.deck.empty())
        return rule_error::bad_setup;
      // uids in the order given (top first); the piles keep their top last.
      ai_pile& pile = s.pile(static_cast<seat_t>(seat));
      auto stack = [&](const std::vector<card_id>& cards, std::array<card_uid, max_uids>& into, std::uint8_t& count) {
        for (card_id id : cards)
          if (!known(id)) return false;
        count = static_cast<std::uint8_t>(cards.size());
        for (std::size_t i = 0; i < cards.size(); ++i)
          into[cards.size() - 1 - i] = add_uid(s, cat, cards[i], static_cast<seat_t>(seat));
        return true;
      };
      if (!stack(ss.deck, pile.deck, pile.deck_count) || !stack(ss.discard, pile.discard, pile.discard_count))
        return rule_error::unknown_card;
    } else if (!ss.deck.empty() || !ss.discard.empty()) {
      return rule_error::bad_setup;
    }
    if (ss.stronghold_pos < 0 || ss.stronghold_pos > static_cast<int>(ss.hand.size()))
      return rule_error::bad_setup;
    if (ss.mana < 0 || ss.mana > 200 || ss.turns_taken < 0) return rule_error::bad_setup;
    for (card_id id : ss.hand) {
      if (!known(id)) return rule_error::unknown_card;
      st.hand.cards[st.hand.count++] = add_uid(s, cat, id, static_cast<seat_t>(seat));
    }
    st.hand.stronghold_pos = static_cast<std::uint8_t>(ss.stronghold_pos);
    st.hand.side = ss.side;
    st.mana = static_cast<std::int16_t>(ss.mana);
    st.turns_taken = static_cast<std::uint16_t>(ss.turns_taken);
    for (int which = 0; which < 2; ++which) {
      const auto& row = ss.lines[which];
      if (row.size() > max_side) return rule_error::bad_setup;
      line_side& ls = s.lines[st.lines[which].line].sides[st.lines[which].side];
      for (const creature_setup& cs : row) {
        if (!known(cs.card)) return rule_error::unknown_card;
        const card_stats& cst = cat.stats(cs.card);
        if (cst.type != card_type::creature) return rule_error::bad_setup;
        const int hp = cst.hp + (cs.top != no_card && known(cs.top) ? cat.stats(cs.top).hp : 0);
        if (cs.damage < 0 || cs.damage >= hp || cs.bonus_av < 0 || cs.bonus_av > 100)
          return rule_error::bad_setup;
        if (cs.chained.size() > 2) return rule_error::bad_setup;
        if (cs.top != no_card && (!known(cs.top) || cat.stats(cs.top).type != card_type::creature))
          return rule_error::bad_setup;
        creature& cr = ls.slots[ls.count++];
        if (cs.champion) {
          // R13: this is the seat's Champion, in play (at most one, and its card).
          if (ss.champion != cs.card || ss.champion_exhausted || champion_at[seat].line >= 0)
            return rule_error::bad_setup;
          champion_at[seat] = {st.lines[which].line, st.lines[which].side, ls.count - 1};
          cr.uid = no_uid;
        } else {
          cr.uid = add_uid(s, cat, cs.card, static_cast<seat_t>(seat));
        }
        if (cs.top != no_card) cr.top = add_uid(s, cat, cs.top, static_cast<seat_t>(seat));
        for (std::size_t k = 0; k < cs.chained.size(); ++k) {
          if (!known(cs.chained[k])) return rule_error::unknown_card;
          // Taken from the seat across this line (R7 Chain).
          const seat_lines& where = st.lines[which];
          const seat_t across = s.lines[where.line].sides[1 - where.side].seat;
          cr.chained[k] = add_uid(s, cat, cs.chained[k], across);
          cr.chained_from[k] = across;
        }
        cr.damage = static_cast<std::uint8_t>(cs.damage);
        cr.bonus_av = static_cast<std::int8_t>(cs.bonus_av);
        cr.entered_this_turn = cs.entered_this_turn;
        cr.attacked = cs.attacked;
        cr.protection_used = cs.protection_used;
      }
    }
  }
  for (card_id id : p.removed) {
    if (!known(id)) return rule_error::unknown_card;
    s.removed[s.removed_count++] = add_uid(s, cat, id, no_seat);
  }
  // R13.1: the Champions, in seat order, after every other card.
  for (int seat = 0; seat < n; ++seat) {
    const seat_setup& ss = p.seats[seat];
    if (ss.champion == no_card) continue;
    if (!known(ss.champion)) return rule_error::unknown_card;
    if (cat.stats(ss.champion).type != card_type::creature) return rule_error::bad_champion;
    // R13.1: outside the seat's deck: not among the cards it holds or has in play.
    for (card_id id : ss.hand)
      if (id == ss.champion) return rule_error::bad_champion;
    for (const auto& row : ss.lines)
      for (const creature_setup& cs : row)
        if ((cs.card == ss.champion && !cs.champion) || cs.top == ss.champion) return rule_error::bad_champion;
    seat_state& st = s.seats[seat];
    st.champion = add_uid(s, cat, ss.champion, static_cast<seat_t>(seat));
    if (champion_at[seat].line >= 0) {
      s.lines[champion_at[seat].line].sides[champion_at[seat].side].slots[champion_at[seat].pos].uid = st.champion;
      st.champion_state = champion_status::in_play;
    } else {
      st.champion_state = ss.champion_exhausted ? champion_status::exhausted : champion_status::ready;
    }
  }
  if (p.mode == game_mode::solo || p.mode == game_mode::coop) set_up_ai(s, p.ai, 0);
  detail::refresh_all_abilities(s);
  // A position where R4.5/R4.6 would already have acted is not well formed.
  for (int seat = 0; seat < n; ++seat) {
    if (s.ai(static_cast<seat_t>(seat))) continue;  // an AI: a non-empty deck (above)
    const hand_state& h = s.seats[seat].hand;
    if (h.count == 0 || h.stronghold_pos >= h.count) return rule_error::bad_setup;
  }
  out = m;
  return rule_error::ok;
}

rule_error match::check(const action& a) const {
  const game_state& s = state_;
  if (s.current_phase == phase::game_over) return rule_error::game_over;
  if (a.seat < 0 || a.seat >= s.seat_count) return rule_error::unknown_seat;
  if (s.ai(a.seat)) return rule_error::bad_action;  // R12: the engine plays the AI itself
  switch (a.type) {
    case action_type::concede:
      return rule_error::ok;  // R16.3: any seat, any time
    case action_type::end_turn:
      if (a.seat != s.active_seat) return rule_error::not_your_turn;
      if (a.card != no_uid || a.line != -1 || a.target != no_uid || a.host != no_uid) return rule_error::bad_action;
      return rule_error::ok;
    case action_type::play:
      break;
    default:
      return rule_error::bad_action;
  }
  if (a.seat != s.active_seat) return rule_error::not_your_turn;
  if (a.card >= s.uid_count) return rule_error::card_not_in_hand;
  const seat_state& me = s.seats[a.seat];
  // R13.2: the seat's own Champion, beside the play area (RULINGs E34, E39).
  const bool champion = a.card == me.champion;
  int index = -1;
  int cost = 0;
  if (champion) {
    if (me.champion_state == champion_status::exhausted) return rule_error::champion_exhausted;  // R13.3
    if (me.champion_state != champion_status::ready) return rule_error::card_not_in_hand;  // in play
    cost = detail::champion_cost(s, a.seat);
  } else {
    index = detail::hand_index(s, a.seat, a.card);
    if (index < 0) return rule_error::card_not_in_hand;
    // R3.2.1, R7 Blackmail: only the leftmost playable cards.
    if (index >= detail::playable_count(s, a.seat)) return rule_error::card_not_playable;
    cost = detail::play_cost(s, a.seat, index);
  }
  const card_stats& st = s.uid_stats[a.card];
  // R3.2.2; R7 Lucidity lowers the cost (R13.2: the Champion's reduction);
  // R7 Price of Blood pays the rest in damage.
  const bool affordable = cost <= me.mana || has(st.abilities, ability::price_of_blood);
  if (st.type == card_type::creature) {
    if (a.target != no_uid) return rule_error::bad_line;
    if (a.host != no_uid) {
      // R7 Symbiote: on one of the seat's own creatures in play without Symbiote.
      if (!has(st.abilities, ability::symbiote)) return rule_error::bad_host;
      const detail::place hp = detail::find_creature(s, a.host);
      if (!hp.valid() || s.lines[hp.line].sides[hp.side].seat != a.seat) return rule_error::bad_host;
      const creature& host = s.lines[hp.line].sides[hp.side].slots[hp.pos];
      if (host.uid != a.host || host.top != no_uid ||
          has(detail::own_abilities(s, host), ability::symbiote))
        return rule_error::bad_host;
      if (a.line != -1 && a.line != detail::which_line(s, hp)) return rule_error::bad_line;
    } else {
      if (a.line < 0 || a.line > 1) return rule_error::bad_line;
      const seat_lines& where = me.lines[a.line];
      if (s.lines[where.line].sides[where.side].count >= max_side) return rule_error::line_full;
    }
    if (!affordable) return rule_error::insufficient_mana;
    // R3.2.5; RULING E35: a Champion does not leave the hand, so never.
    if (!champion && me.hand.count == 1) return rule_error::leaves_only_stronghold;
  } else {
    if (a.line != -1 || a.host != no_uid) return rule_error::bad_line;
    // R3.2.4: a creature in play, named by its (base) card.
    const detail::place tp = a.target == no_uid ? detail::place{} : detail::find_creature(s, a.target);
    if (!tp.valid() || s.lines[tp.line].sides[tp.side].slots[tp.pos].uid != a.target)
      return rule_error::bad_target;
    if (!affordable) return rule_error::insufficient_mana;
    // R17.13: an incantation comes back, so [S, incantation] may play it —
    // unless it is a Mercenary, which goes to the enemy instead (R3.2.5).
    if (me.hand.count == 1 && has(st.abilities, ability::mercenary)) return rule_error::leaves_only_stronghold;
  }
  return rule_error::ok;
}

rule_error match::apply(const action& a, std::vector<event>& events) {
  if (const rule_error e = check(a); e != rule_error::ok) return e;
  resolve(a, &events);
  return rule_error::ok;
}

void match::apply_legal(const action& a, std::vector<event>& events) {
#if !defined(NDEBUG) || defined(COD_SANITIZE)
  // The caller's promise (a legal action of this state), kept where it costs
  // nothing that matters: a breach would resolve an action check() refuses.
  if (check(a) != rule_error::ok) std::abort();
#endif
  resolve(a, &events);
}

void match::apply_legal(const action& a) {
#if !defined(NDEBUG) || defined(COD_SANITIZE)
  if (check(a) != rule_error::ok) std::abort();  // as above
#endif
  resolve(a, nullptr);
}

void match::resolve(const action& a, std::vector<event>* events) {
  ctx c{*cat_, state_, events};
  switch (a.type) {
    case action_type::concede:
      c.emit({.type = event_type::conceded, .seat = a.seat});
      detail::end_game(c, a.seat, end_reason::concession);
      break;
    case action_type::end_turn:
      detail::end_turn_and_start_next(c);
      break;
    case action_type::play:
      detail::resolve_play(c, a);
      break;
  }
}

rule_error replay(const catalogue& cat, const match_config& cfg, const std::vector<action>& log,
                  match& out, int& failed_at, std::vector<std::uint64_t>* digests) {
  failed_at = -1;
  std::vector<event> events;
  if (auto e = match::create(cat, cfg, out, events); e != rule_error::ok) return e;
  if (digests) digests->push_back(out.digest());
  for (std::size_t i = 0; i < log.size(); ++i) {
    events.clear();
    if (auto e = out.apply(log[i], events); e != rule_error::ok) {
      failed_at = static_cast<int>(i);
      return e;
    }
    if (digests) digests->push_back(out.digest());
  }
  return rule_error::ok;
}

}  // namespace cod
