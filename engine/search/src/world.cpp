#include "world.hpp"

#include <algorithm>

namespace cod::search::detail {

namespace {

// Removes one `card` from `pool`; false if it holds none.
bool take(std::vector<card_id>& pool, card_id card) {
  auto it = std::find(pool.begin(), pool.end(), card);
  if (it == pool.end()) return false;
  pool.erase(it);
  return true;
}

}  // namespace

world_sampler::world_sampler(const catalogue& cat, const seat_view& v, const table& t) : cat_(&cat), view_(&v) {
  const int n = static_cast<int>(v.seats.size());
  if (v.viewer < 0 || v.viewer >= n || n > max_seats) return;
  if (v.mode != game_mode::duel && v.mode != game_mode::ffa && v.mode != game_mode::two_vs_two) return;

  // What the viewer sees: its hand, a shared teammate's (R11.6), the board,
  // the removed cards and the Champions (R13.1).
  std::array<bool, max_uids> seen{};
  std::vector<card_ref> shown;  // deck cards seen anywhere (Champions are outside the decks)
  auto see = [&](const card_ref& r) {
    if (r.uid < max_uids) seen[r.uid] = true;
    shown.push_back(r);
  };
  hands_[v.viewer] = v.hand;
  for (const card_ref& r : v.hand) see(r);
  if (v.teammate != no_seat && v.share_team_hands) {
    hands_[v.teammate] = v.teammate_hand;
    for (const card_ref& r : v.teammate_hand) see(r);
  }
  std::array<card_uid, max_seats> champions{};
  champions.fill(no_uid);
  for (int s = 0; s < n; ++s) {
    const champion_view& c = v.seats[s].champion;
    if (c.uid != no_uid && c.uid < max_uids) {
      seen[c.uid] = true;
      champions[s] = c.uid;
    }
  }
  auto is_champion = [&](card_uid u) { return std::find(champions.begin(), champions.end(), u) != champions.end(); };
  for (const line_view& l : v.lines)
    for (const side_view& sv : l.sides)
      for (const creature_view& c : sv.creatures) {
        if (!is_champion(c.uid)) see({c.uid, c.card});
        if (c.top.uid != no_uid) see(c.top);
        for (const card_ref& r : c.chained) see(r);
      }
  for (const card_ref& r : v.removed) see(r);

  // The hidden hands and how many cards each holds.
  int hidden = 0;
  for (int s = 0; s < n; ++s) {
    if (s == v.viewer || (v.teammate == s && v.share_team_hands)) continue;
    hidden_slots_[s] = v.seats[s].hand_size;
    hidden += v.seats[s].hand_size;
  }
  // Every card of the match has a uid below their total (each card is somewhere).
  int shown_uids = 0;
  for (bool b : seen) shown_uids += b;
  const int total = shown_uids + hidden;
  if (total > max_uids) return;
  for (int u = 0; u < total; ++u)
    if (!seen[u]) hidden_uids_.push_back(static_cast<card_uid>(u));
  if (static_cast<int>(hidden_uids_.size()) != hidden) return;  // a shown uid past the total: not a seat's view

  // The cards nobody has shown: each deck list less what was seen of it. A
  // seen card is taken from the deck its uid's range says it came from when
  // that deck lists it (uids follow the deck lists, 8 a seat, R1.2), else
  // from any deck that does.
  for (int s = 0; s < n; ++s) unseen_[s] = t.decks[s];
  for (const card_ref& r : shown) {
    const int origin = r.uid / 8;
    if (origin < n && take(unseen_[origin], r.card)) continue;
    for (int s = 0; s < n; ++s)
      if (take(unseen_[s], r.card)) break;
  }
  // A deck not given (or lists that do not add up): cards of the catalogue,
  // never one the seat already shows, until every hidden card has one.
  int unseen = 0;
  for (int s = 0; s < n; ++s) unseen += static_cast<int>(unseen_[s].size());
  for (int s = 0; s < n && unseen < hidden; ++s) {
    if (!t.decks[s].empty() || hidden_slots_[s] == 0) continue;
    for (std::size_t c = 0; c < cat.size() && unseen < hidden; ++c) {
      const auto id = static_cast<card_id>(c);
      if (cat.stats(id).type != card_type::creature && cat.stats(id).type != card_type::incantation) continue;
      bool shown_here = false;
      for (const card_ref& r : shown) shown_here |= r.card == id;
      if (shown_here) continue;
      unseen_[s].push_back(id);
      ++unseen;
    }
  }
  if (unseen < hidden) return;
  ok_ = true;
}

bool world_sampler::sample(rng& r, match& out) {
  const int n = static_cast<int>(view_->seats.size());
  // Each seat's own unseen cards go to its own hand first; what is left over
  // (cards that changed hands, R7 Mercenary, or more unseen than slots) fills
  // the remaining slots at random.
  std::array<int, max_seats> free = hidden_slots_;
  std::vector<card_id> leftover;
  std::array<std::vector<card_id>, max_seats> dealt;
  for (int s = 0; s < n; ++s) {
    std::vector<card_id> pool = unseen_[s];
    r.shuffle(pool.data(), static_cast<int>(pool.size()));
    for (card_id c : pool) {
      if (free[s] > 0) {
        dealt[s].push_back(c);
        --free[s];
      } else {
        leftover.push_back(c);
      }
    }
  }
  r.shuffle(leftover.data(), static_cast<int>(leftover.size()));
  std::size_t next = 0;
  for (int s = 0; s < n; ++s)
    while (free[s] > 0 && next < leftover.size()) {
      dealt[s].push_back(leftover[next++]);
      --free[s];
    }
  // Random order within each hidden hand (R2.3's shuffle, and nothing shown
  // since), uids handed out in a random order too.
  std::vector<card_uid> uids = hidden_uids_;
  r.shuffle(uids.data(), static_cast<int>(uids.size()));
  std::size_t u = 0;
  for (int s = 0; s < n; ++s) {
    if (hidden_slots_[s] == 0) continue;
    r.shuffle(dealt[s].data(), static_cast<int>(dealt[s].size()));
    hands_[s].clear();
    for (card_id c : dealt[s]) hands_[s].push_back({uids[u++], c});
  }
  const std::uint64_t seed = r.next();
  return match::from_view(*cat_, *view_, hands_, seed, out) == rule_error::ok;
}

}  // namespace cod::search::detail
