// What a draft waits for and every pick it would accept now.
#include <algorithm>
#include <bit>

#include "cod/engine/draft.hpp"

namespace cod {

namespace {

// Every choice of k of `from`, as picks of `type` for `seat`, in increasing
// bit-mask order (deterministic; at most C(10, 5) = 252).
void combinations(const std::vector<card_id>& from, int k, draft_pick_type type, seat_t seat,
                  std::vector<draft_pick>& out) {
  const unsigned n = static_cast<unsigned>(from.size());
  for (unsigned mask = 0; mask < (1u << n); ++mask) {
    if (std::popcount(mask) != k) continue;
    draft_pick p;
    p.type = type;
    p.seat = seat;
    for (unsigned i = 0; i < n; ++i)
      if (mask & (1u << i)) p.cards.push_back(from[i]);
    out.push_back(std::move(p));
  }
}

}  // namespace

std::vector<draft_turn> draft::waiting() const {
  std::vector<draft_turn> out;
  const draft_state& s = s_;
  if (s.finished) return out;
  const draft_step& step = s.schedule[s.step];
  draft_turn t;
  t.count = step.count;
  switch (step.type) {
    case draft_step_type::take:
    case draft_step_type::ban:
      t.seat = step.seat;
      t.type = step.type == draft_step_type::take ? draft_pick_type::take : draft_pick_type::ban;
      t.target = step.target;
      out.push_back(t);
      break;
    case draft_step_type::choose_deck:
    case draft_step_type::submit:
      // Secret lists: every human seat that has not submitted, at once.
      t.type = step.type == draft_step_type::submit ? draft_pick_type::submit : draft_pick_type::choose_deck;
      for (seat_t seat = 0; seat < s.seat_count; ++seat)
        if (!is_ai_seat(s.table, seat) && !s.seats[seat].submitted) {
          t.seat = seat;
          out.push_back(t);
        }
      break;
    case draft_step_type::pass_pick:
      // R15.1: every seat that has not taken this round's card, at once.
      t.type = draft_pick_type::take;
      for (seat_t seat = 0; seat < s.seat_count; ++seat)
        if (!s.seats[seat].submitted) {
          t.seat = seat;
          out.push_back(t);
        }
      break;
    default:
      break;
  }
  return out;
}

void draft::legal_picks(std::vector<draft_pick>& out) const {
  out.clear();
  for (const draft_turn& t : waiting()) {
    switch (t.type) {
      case draft_pick_type::take:
        combinations(s_.format == draft_format::mutation ? s_.seats[t.seat].packet : s_.offer, t.count, t.type,
                     t.seat, out);
        break;
      case draft_pick_type::ban: {
        const draft_seat_state& target = s_.seats[t.target];
        std::vector<card_id> open;
        for (card_id c : target.list)
          if (std::find(target.banned.begin(), target.banned.end(), c) == target.banned.end()) open.push_back(c);
        combinations(open, t.count, t.type, t.seat, out);
        break;
      }
      case draft_pick_type::choose_deck:
        for (int d = 1; d <= 4; ++d) {
          draft_pick p;
          p.type = t.type;
          p.seat = t.seat;
          p.deck = d;
          out.push_back(std::move(p));
        }
        break;
      case draft_pick_type::submit:
        break;  // any `count` different pool cards: not enumerated
    }
  }
}

}  // namespace cod
