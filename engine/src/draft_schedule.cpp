// Each format's steps, exactly as the rulebooks order them (R14.1–R14.7).
// The state machine (draft.cpp) only walks these lists.
#include <string_view>

#include "draft_internal.hpp"

namespace cod::detail {

namespace {

using st = draft_step_type;

draft_step make(st type, int seat, int target, int count) {
  draft_step s;
  s.type = type;
  s.seat = static_cast<seat_t>(seat);
  s.target = static_cast<seat_t>(target);
  s.count = static_cast<std::int8_t>(count);
  return s;
}

// R14.2: reveal 4; A takes 1, B takes 2, A takes the last; then the same with
// A and B swapped, until each has 8 (4 rounds, 16 cards).
void duel_draft(std::vector<draft_step>& out) {
  for (int round = 0; round < 4; ++round) {
    const int a = round % 2 == 0 ? 0 : 1;
    const int b = 1 - a;
    out.push_back(make(st::reveal, no_seat, no_seat, 4));
    out.push_back(make(st::take, a, no_seat, 1));
    out.push_back(make(st::take, b, no_seat, 2));
    out.push_back(make(st::take, a, no_seat, 1));  // the last card: forced (RULING E61)
  }
}

// R14.3 (Season 3 rulebook, four-player draft): reveal 8; the round's order,
// a letter per card, a seat's consecutive letters being one pick of 2:
// ABCDDCBA is A1 B1 C1 D2 C1 B1 A1. Four rounds, 32 cards, 8 each.
void four_player_draft(std::vector<draft_step>& out) {
  constexpr std::string_view orders[4] = {"ABCDDCBA", "BCDAADCB", "CDABBADC", "DABCCBAD"};
  for (std::string_view order : orders) {
    out.push_back(make(st::reveal, no_seat, no_seat, 8));
    for (std::size_t i = 0; i < order.size();) {
      std::size_t n = 1;
      while (i + n < order.size() && order[i + n] == order[i]) ++n;
      out.push_back(make(st::take, order[i] - 'A', no_seat, static_cast<int>(n)));
      i += n;
    }
  }
}

// R14.4: 32 cards; reveal 4, the human takes 1, the AI gets the other 3;
// until the human has 8 (8 rounds; the AI 24).
void solo_draft(std::vector<draft_step>& out) {
  for (int round = 0; round < 8; ++round) {
    out.push_back(make(st::reveal, no_seat, no_seat, 4));
    out.push_back(make(st::take, 0, no_seat, 1));
    out.push_back(make(st::rest_to_ai, no_seat, no_seat, 3));
  }
}

// R14.5: 64 cards; reveal 8, A takes 1, C takes 1, the AI gets 6; A and C
// swap each round until both have 8 (8 rounds); the AI's 48 are shuffled
// and split 24/24 (RULING E66).
void coop_draft(std::vector<draft_step>& out) {
  for (int round = 0; round < 8; ++round) {
    const int first = round % 2 == 0 ? 0 : 2;
    out.push_back(make(st::reveal, no_seat, no_seat, 8));
    out.push_back(make(st::take, first, no_seat, 1));
    out.push_back(make(st::take, 2 - first, no_seat, 1));
    out.push_back(make(st::rest_to_ai, no_seat, no_seat, 6));
  }
  out.push_back(make(st::split_ai, no_seat, no_seat, 24));
}

// R15.1: 16 cards dealt to each of the four seats; 16 rounds of one secret
// pick each, the packets passing left after each round (RULING E77).
void mutation_draft(std::vector<draft_step>& out) {
  out.push_back(make(st::deal_packets, no_seat, no_seat, 16));
  for (int round = 0; round < 16; ++round) out.push_back(make(st::pass_pick, no_seat, no_seat, 1));
}

}  // namespace

bool draft_allowed(draft_format f, draft_table t) {
  switch (f) {
    case draft_format::draft: return true;
    // RULING E63: co-op's rules give a draft only.
    case draft_format::preconstructed: return t != draft_table::coop;
    // R2.1: never in solo or co-op.
    case draft_format::constructed: return t == draft_table::duel || t == draft_table::four_players;
    // RULING E65: the web rules describe two players.
    case draft_format::instant_constructed: return t == draft_table::duel;
    // R15.1: four players.
    case draft_format::mutation: return t == draft_table::four_players;
  }
  return false;
}

int draft_pool_needed(draft_format f, draft_table t) {
  switch (f) {
    case draft_format::preconstructed: return 0;
    case draft_format::constructed: return 8;
    case draft_format::instant_constructed: return 10;
    case draft_format::mutation: return 64;
    case draft_format::draft:
      switch (t) {
        case draft_table::duel: return 16;
        case draft_table::four_players: return 32;
        case draft_table::solo: return 32;
        case draft_table::coop: return 64;
      }
  }
  return 0;
}

std::vector<draft_step> draft_schedule(draft_format f, draft_table t) {
  std::vector<draft_step> out;
  switch (f) {
    case draft_format::preconstructed:
      // R14.1, RULING E63: chosen in secret, revealed together.
      out.push_back(make(st::choose_deck, no_seat, no_seat, 1));
      out.push_back(make(st::reveal_lists, no_seat, no_seat, 0));
      if (t == draft_table::solo) out.push_back(make(st::precon_to_ai, 1, no_seat, 24));
      break;
    case draft_format::constructed:
      // R14.6, RULING E64.
      out.push_back(make(st::submit, no_seat, no_seat, 8));
      out.push_back(make(st::reveal_lists, no_seat, no_seat, 0));
      break;
    case draft_format::instant_constructed:
      // R14.7: each picks 10 secretly; A reveals, B bans 1; B reveals, A bans
      // 2; B bans 1 more of A's.
      out.push_back(make(st::submit, no_seat, no_seat, 10));
      out.push_back(make(st::reveal_lists, 0, no_seat, 0));
      out.push_back(make(st::ban, 1, 0, 1));
      out.push_back(make(st::reveal_lists, 1, no_seat, 0));
      out.push_back(make(st::ban, 0, 1, 2));
      out.push_back(make(st::ban, 1, 0, 1));
      break;
    case draft_format::draft:
      switch (t) {
        case draft_table::duel: duel_draft(out); break;
        case draft_table::four_players: four_player_draft(out); break;
        case draft_table::solo: solo_draft(out); break;
        case draft_table::coop: coop_draft(out); break;
      }
      break;
    case draft_format::mutation:
      mutation_draft(out);
      break;
  }
  return out;
}

}  // namespace cod::detail
