// The deck-building state machine (R14): creation and the pool (R14.8),
// validation of every pick before anything changes, and the steps that run
// by themselves (reveals, forced takes, the AI's cards, the end).
#include "cod/engine/draft.hpp"

#include <algorithm>

#include "draft_internal.hpp"

namespace cod {

namespace {

bool contains(const std::vector<card_id>& v, card_id c) { return std::find(v.begin(), v.end(), c) != v.end(); }

bool has_duplicate(const std::vector<card_id>& cards) {
  for (std::size_t i = 0; i < cards.size(); ++i)
    for (std::size_t j = 0; j < i; ++j)
      if (cards[i] == cards[j]) return true;
  return false;
}

// R14.8: every catalogue card of the chosen packs, once, in catalogue order
// (RULING E60). A pack no card belongs to is an error, not an empty pack.
draft_error build_pool(const catalogue& cat, const std::vector<std::string>& packs, std::vector<card_id>& pool) {
  for (const std::string& p : packs) {
    bool found = false;
    for (std::size_t c = 0; c < cat.size() && !found; ++c) found = cat.def(static_cast<card_id>(c)).pack == p;
    if (!found) return draft_error::unknown_pack;
  }
  for (std::size_t c = 0; c < cat.size(); ++c) {
    const std::string& pack = cat.def(static_cast<card_id>(c)).pack;
    if (packs.empty() || std::find(packs.begin(), packs.end(), pack) != packs.end())
      pool.push_back(static_cast<card_id>(c));
  }
  return draft_error::ok;
}

bool human(const draft_state& s, seat_t seat) { return !is_ai_seat(s.table, seat); }

bool all_submitted(const draft_state& s) {
  for (seat_t seat = 0; seat < s.seat_count; ++seat)
    if (human(s, seat) && !s.seats[seat].submitted) return false;
  return true;
}

// R15.1, RULING E77: every seat has taken its card; each packet goes to the
// next seat (A to B, B to C, C to D, D to A) and the next round starts.
void pass_packets(draft_state& s) {
  std::array<std::vector<card_id>, max_seats> passed{};
  for (int seat = 0; seat < s.seat_count; ++seat)
    passed[(seat + 1) % s.seat_count] = std::move(s.seats[seat].packet);
  for (int seat = 0; seat < s.seat_count; ++seat) {
    s.seats[seat].packet = std::move(passed[seat]);
    s.seats[seat].submitted = false;
  }
  ++s.round;
  ++s.step;
}

}  // namespace

draft_error draft::create(const catalogue& cat, const draft_config& cfg, draft& out,
                          std::vector<draft_event>& events) {
  if (cfg.format > draft_format::mutation || cfg.table > draft_table::coop) return draft_error::bad_config;
  if (!detail::draft_allowed(cfg.format, cfg.table)) return draft_error::format_not_allowed;
  std::vector<card_id> pool;
  if (auto e = build_pool(cat, cfg.packs, pool); e != draft_error::ok) return e;
  // R13.1, RULING E67: the Champions named before the draft stay out of it.
  std::erase_if(pool, [&](card_id c) { return std::find(cfg.withheld.begin(), cfg.withheld.end(), c) != cfg.withheld.end(); });
  if (static_cast<int>(pool.size()) < detail::draft_pool_needed(cfg.format, cfg.table))
    return draft_error::pool_too_small;
  if (cfg.format == draft_format::preconstructed)
    for (int d = 1; d <= 4; ++d)
      if (cat.preconstructed_deck(d).size() != 8) return draft_error::pool_too_small;  // R14.1

  out.cat_ = &cat;
  out.s_ = draft_state{};
  out.record_.clear();
  out.picks_.clear();
  draft_state& s = out.s_;
  s.format = cfg.format;
  s.table = cfg.table;
  s.seat_count = draft_seats(cfg.table);
  s.random = rng(cfg.seed);  // R16.1
  s.pool = std::move(pool);
  if (s.format == draft_format::draft || s.format == draft_format::mutation) {
    // R14.2 "shuffle the pool into a pile": the whole pool; a draft deals
    // only the top cards it needs (RULING E60).
    s.pile = s.pool;
    s.random.shuffle(s.pile.data(), static_cast<int>(s.pile.size()));
  }
  s.schedule = detail::draft_schedule(s.format, s.table);
  draft_event started;
  started.type = draft_event_type::started;
  started.count = static_cast<int>(s.pile.size());
  out.emit(events, started);
  out.advance(events);
  return draft_error::ok;
}

draft_error draft::check(const draft_pick& p) const {
  const draft_state& s = s_;
  if (s.finished) return draft_error::draft_over;
  if (p.seat < 0 || p.seat >= s.seat_count || !human(s, p.seat)) return draft_error::unknown_seat;
  const draft_step& step = s.schedule[s.step];
  switch (step.type) {
    case draft_step_type::take:
    case draft_step_type::ban: {
      if (p.seat != step.seat) return draft_error::not_your_turn;
      const bool take = step.type == draft_step_type::take;
      if (p.type != (take ? draft_pick_type::take : draft_pick_type::ban)) return draft_error::wrong_pick;
      if (static_cast<int>(p.cards.size()) != step.count) return draft_error::wrong_count;
      if (has_duplicate(p.cards)) return draft_error::duplicate_card;
      // A take is from the revealed cards; a ban from the target's revealed
      // list, never a card already banned (R14.7, RULING E65).
      const draft_seat_state& t = s.seats[take ? 0 : step.target];
      for (card_id c : p.cards) {
        const bool ok = take ? contains(s.offer, c) : contains(t.list, c) && !contains(t.banned, c);
        if (!ok) return draft_error::card_not_on_offer;
      }
      return draft_error::ok;
    }
    case draft_step_type::choose_deck:
    case draft_step_type::submit: {
      if (s.seats[p.seat].submitted) return draft_error::not_your_turn;
      if (step.type == draft_step_type::choose_deck) {
        if (p.type != draft_pick_type::choose_deck) return draft_error::wrong_pick;
        if (p.deck < 1 || p.deck > 4) return draft_error::unknown_deck;  // R14.1
        return draft_error::ok;
      }
      if (p.type != draft_pick_type::submit) return draft_error::wrong_pick;
      if (static_cast<int>(p.cards.size()) != step.count) return draft_error::wrong_count;
      for (std::size_t i = 0; i < p.cards.size(); ++i) {
        const card_id c = p.cards[i];
        if (c >= cat_->size()) return draft_error::unknown_card;
        for (std::size_t j = 0; j < i; ++j)
          if (p.cards[j] == c) return draft_error::duplicate_card;  // R14.6: 8 different cards
        if (!std::binary_search(s.pool.begin(), s.pool.end(), c)) return draft_error::card_not_in_pool;
      }
      return draft_error::ok;
    }
    case draft_step_type::pass_pick:
      // R15.1: one card of the seat's own packet, once a round.
      if (s.seats[p.seat].submitted) return draft_error::not_your_turn;
      if (p.type != draft_pick_type::take) return draft_error::wrong_pick;
      if (static_cast<int>(p.cards.size()) != step.count) return draft_error::wrong_count;
      if (!contains(s.seats[p.seat].packet, p.cards[0])) return draft_error::card_not_on_offer;
      return draft_error::ok;
    default:
      // advance() never stops on a step without a choice.
      return draft_error::draft_over;
  }
}

draft_error draft::apply(const draft_pick& p, std::vector<draft_event>& events) {
  if (auto e = check(p); e != draft_error::ok) return e;
  draft_state& s = s_;
  const draft_step& step = s.schedule[s.step];
  draft_seat_state& me = s.seats[p.seat];
  draft_event ev;
  ev.seat = p.seat;
  switch (step.type) {
    case draft_step_type::take:
      // R14.2–R14.5: taken in the order named; the rest stay on offer in order.
      for (card_id c : p.cards) {
        me.taken.push_back(c);
        s.offer.erase(std::find(s.offer.begin(), s.offer.end(), c));
      }
      ev.type = draft_event_type::taken;
      ev.cards = p.cards;
      ++s.step;
      break;
    case draft_step_type::ban:
      s.seats[step.target].banned.insert(s.seats[step.target].banned.end(), p.cards.begin(), p.cards.end());
      ev.type = draft_event_type::banned;
      ev.target = step.target;
      ev.cards = p.cards;
      ++s.step;
      break;
    case draft_step_type::choose_deck:
    case draft_step_type::submit:
      // Secret until every seat has chosen (RULINGS E63–E65): the event says
      // only that this seat is ready.
      if (p.type == draft_pick_type::choose_deck) {
        me.deck = p.deck;
        me.list = cat_->preconstructed_deck(p.deck);
      } else {
        me.list = p.cards;
      }
      me.submitted = true;
      ev.type = draft_event_type::submitted;
      if (all_submitted(s)) ++s.step;
      break;
    case draft_step_type::pass_pick:
      // R15.1, RULING E77: secret; the event says only that the seat took one.
      me.taken.push_back(p.cards[0]);
      me.packet.erase(std::find(me.packet.begin(), me.packet.end(), p.cards[0]));
      me.submitted = true;
      ev.type = draft_event_type::taken;
      ev.count = 1;
      if (all_submitted(s)) pass_packets(s);
      break;
    default:
      break;
  }
  picks_.push_back(p);
  emit(events, std::move(ev));
  advance(events);
  return draft_error::ok;
}

void draft::emit(std::vector<draft_event>& events, draft_event e) {
  record_.push_back(e);
  events.push_back(std::move(e));
}

void draft::advance(std::vector<draft_event>& events) {
  draft_state& s = s_;
  while (!s.finished && s.step < static_cast<int>(s.schedule.size())) {
    const draft_step step = s.schedule[s.step];
    draft_event ev;
    ev.automatic = true;
    switch (step.type) {
      case draft_step_type::reveal: {
        const auto first = s.pile.begin() + s.pile_next;
        s.offer.assign(first, first + step.count);
        s.pile_next += step.count;
        ++s.round;
        ev.type = draft_event_type::revealed;
        ev.cards = s.offer;
        ev.count = step.count;
        break;
      }
      case draft_step_type::take:
        // RULING E61: the last cards on offer are taken without a choice.
        if (static_cast<int>(s.offer.size()) != step.count) return;
        s.seats[step.seat].taken.insert(s.seats[step.seat].taken.end(), s.offer.begin(), s.offer.end());
        ev.type = draft_event_type::taken;
        ev.seat = step.seat;
        ev.cards = std::move(s.offer);
        s.offer.clear();
        break;
      case draft_step_type::rest_to_ai:
        // R14.4, R14.5. Co-op's AI cards belong to both AI seats until the
        // split, so the event names no seat.
        s.ai_cards.insert(s.ai_cards.end(), s.offer.begin(), s.offer.end());
        ev.type = draft_event_type::given_to_ai;
        ev.seat = s.table == draft_table::solo ? seat_t{1} : no_seat;
        ev.cards = std::move(s.offer);
        s.offer.clear();
        break;
      case draft_step_type::choose_deck:
      case draft_step_type::submit:
      case draft_step_type::ban:
        return;  // a choice: wait for a pick
      case draft_step_type::deal_packets:
        // R15.1: the pile's top cards, count to each seat in seat order.
        for (seat_t seat = 0; seat < s.seat_count; ++seat) {
          const auto first = s.pile.begin() + s.pile_next;
          s.seats[seat].packet.assign(first, first + step.count);
          s.pile_next += step.count;
        }
        ev.type = draft_event_type::packets_dealt;
        ev.count = step.count;
        break;
      case draft_step_type::pass_pick: {
        // RULING E61 (E77): the last card of each packet is taken without a choice.
        bool forced = true;
        for (seat_t seat = 0; seat < s.seat_count; ++seat)
          forced = forced && s.seats[seat].packet.size() == 1 && !s.seats[seat].submitted;
        if (!forced) return;
        for (seat_t seat = 0; seat < s.seat_count; ++seat) {
          draft_seat_state& st = s.seats[seat];
          st.taken.push_back(st.packet[0]);
          st.packet.clear();
          draft_event t;
          t.type = draft_event_type::taken;
          t.seat = seat;
          t.count = 1;
          t.automatic = true;
          emit(events, std::move(t));
        }
        ++s.round;
        ++s.step;
        continue;
      }
      case draft_step_type::reveal_lists:
        for (seat_t seat = 0; seat < s.seat_count; ++seat) {
          if (!human(s, seat) || (step.seat != no_seat && seat != step.seat)) continue;
          s.seats[seat].revealed = true;
          draft_event r;
          r.type = draft_event_type::list_revealed;
          r.seat = seat;
          r.cards = s.seats[seat].list;
          r.deck = s.seats[seat].deck;
          r.automatic = true;
          emit(events, std::move(r));
        }
        ++s.step;
        continue;
      case draft_step_type::precon_to_ai:
        // R14.1 solo: the three decks the human did not choose, in deck order.
        for (int d = 1; d <= 4; ++d)
          if (d != s.seats[0].deck) {
            const auto deck = cat_->preconstructed_deck(d);
            s.ai_cards.insert(s.ai_cards.end(), deck.begin(), deck.end());
          }
        ev.type = draft_event_type::given_to_ai;
        ev.seat = step.seat;
        ev.cards = s.ai_cards;
        break;
      case draft_step_type::split_ai: {
        // R14.5, RULING E66: shuffled with the draft's generator; the first
        // half to B, the second to D. Which AI has which card stays secret.
        std::vector<card_id> all = s.ai_cards;
        s.random.shuffle(all.data(), static_cast<int>(all.size()));
        const auto half = all.begin() + step.count;
        s.decks[1].assign(all.begin(), half);
        s.decks[3].assign(half, all.end());
        ev.type = draft_event_type::ai_decks_split;
        ev.count = step.count;
        break;
      }
    }
    ++s.step;
    emit(events, std::move(ev));
  }
  if (!s.finished) finish(events);
}

void draft::finish(std::vector<draft_event>& events) {
  draft_state& s = s_;
  for (seat_t seat = 0; seat < s.seat_count; ++seat) {
    const draft_seat_state& st = s.seats[seat];
    if (!human(s, seat)) continue;
    if (s.format == draft_format::draft || s.format == draft_format::mutation) {
      s.decks[seat] = st.taken;  // R15.1: all 16, for the league's deck and lab (R15.2)
    } else {
      // R14.7: each keeps the cards of its list not banned, in list order.
      s.decks[seat].clear();
      for (card_id c : st.list)
        if (!contains(st.banned, c)) s.decks[seat].push_back(c);
    }
  }
  // Solo: the AI's 24 as received; the match shuffles them (R12 setup).
  if (s.table == draft_table::solo) s.decks[1] = s.ai_cards;
  // RULING E62: the match goes on with this generator's stream.
  s.match_seed = s.random.next();
  s.finished = true;
  draft_event ev;
  ev.type = draft_event_type::finished;
  ev.automatic = true;
  emit(events, std::move(ev));
}

}  // namespace cod
