// The queue's bookkeeping and the wave (docs/queue.md): which tickets wait
// in which pool, a player's tickets across pools, and one pass turning each
// pool's groups into seated matches.
#include "queue/matchmaker.hpp"

#include <algorithm>
#include <set>
#include <utility>

#include "queue/pairing.hpp"

namespace cod::queue {

double ticket_rating(const ticket& t) {
  if (t.members.empty()) return 0;
  double sum = 0;
  for (const member& m : t.members) sum += m.rating;
  return sum / static_cast<double>(t.members.size());
}

std::string_view to_string(add_error e) {
  switch (e) {
    case add_error::none: return "none";
    case add_error::duplicate_ticket: return "duplicate_ticket";
    case add_error::already_queued: return "already_queued";
    case add_error::bad_party: return "bad_party";
  }
  return "unknown";
}

matchmaker::matchmaker(queue_params p) : params_(std::move(p)) {}

add_error matchmaker::add(ticket t) {
  if (pool_of_.count(t.id)) return add_error::duplicate_ticket;
  const std::size_t most = t.pool.mode == mode::two_v_two ? 2 : 1;
  if (t.members.empty() || t.members.size() > most) return add_error::bad_party;
  if (t.members.size() == 2 && t.members[0].account == t.members[1].account) return add_error::bad_party;
  for (const member& m : t.members) {
    const auto held = tickets_of_.find(m.account);
    if (held == tickets_of_.end()) continue;
    for (const std::int64_t id : held->second)
      if (pool_of_.at(id) == t.pool) return add_error::already_queued;
  }
  for (const member& m : t.members) tickets_of_[m.account].push_back(t.id);
  pool_of_.emplace(t.id, t.pool);
  const std::int64_t id = t.id;
  pools_[t.pool].emplace(id, std::move(t));
  return add_error::none;
}

void matchmaker::erase(std::int64_t ticket_id) {
  const auto where = pool_of_.find(ticket_id);
  const auto pool = pools_.find(where->second);
  const auto it = pool->second.find(ticket_id);
  for (const member& m : it->second.members) {
    auto& held = tickets_of_[m.account];
    held.erase(std::find(held.begin(), held.end(), ticket_id));
    if (held.empty()) tickets_of_.erase(m.account);
  }
  pool->second.erase(it);
  if (pool->second.empty()) pools_.erase(pool);
  pool_of_.erase(where);
}

bool matchmaker::remove(std::int64_t ticket_id) {
  if (!pool_of_.count(ticket_id)) return false;
  erase(ticket_id);
  return true;
}

std::vector<std::int64_t> matchmaker::remove_account(std::int64_t account) {
  std::vector<std::int64_t> removed;
  if (const auto held = tickets_of_.find(account); held != tickets_of_.end()) removed = held->second;
  std::sort(removed.begin(), removed.end());
  for (const std::int64_t id : removed) erase(id);
  return removed;
}

std::size_t matchmaker::size(const pool_key& pool) const {
  const auto it = pools_.find(pool);
  return it == pools_.end() ? 0 : it->second.size();
}

std::size_t matchmaker::largest_pool() const {
  std::size_t most = 0;
  for (const auto& [key, tickets] : pools_) most = std::max(most, tickets.size());
  return most;
}

const ticket* matchmaker::find(std::int64_t ticket_id) const {
  const auto where = pool_of_.find(ticket_id);
  if (where == pool_of_.end()) return nullptr;
  return &pools_.at(where->second).at(ticket_id);
}

std::int64_t matchmaker::next_wave_due(std::int64_t last_wave_ms) const {
  return queue::next_wave_due(params_.waves, last_wave_ms, largest_pool());
}

namespace {

// The seats of one group (oldest ticket first): a duel and a free-for-all
// seat the tickets in that order; 2v2 seats team 0 (the oldest ticket's) at
// seats 0 and 2 and team 1 at 1 and 3 (R11.6: teams A+C and B+D).
match seat_group(const pool_key& pool, const std::vector<const ticket*>& group, std::int64_t now_ms) {
  match m;
  m.pool = pool;
  double lo = 0, hi = 0;
  for (std::size_t i = 0; i < group.size(); ++i) {
    m.tickets.push_back(group[i]->id);
    const double r = ticket_rating(*group[i]);
    lo = i == 0 ? r : std::min(lo, r);
    hi = i == 0 ? r : std::max(hi, r);
  }
  m.spread = hi - lo;
  if (pool.mode != mode::two_v_two) {
    for (const ticket* t : group)
      for (const member& p : t->members)
        m.seats.push_back({t->id, p.account, static_cast<int>(m.seats.size()), p.rating, now_ms - t->enqueued_ms});
    return m;
  }
  std::vector<int> team;
  m.imbalance = detail::best_split(group, team);
  std::vector<seat> teams[2];
  for (std::size_t i = 0; i < group.size(); ++i)
    for (const member& p : group[i]->members) teams[team[i]].push_back({group[i]->id, p.account, team[i], p.rating, now_ms - group[i]->enqueued_ms});
  for (std::size_t k = 0; k < 2; ++k) {
    m.seats.push_back(teams[0][k]);
    m.seats.push_back(teams[1][k]);
  }
  return m;
}

}  // namespace

wave_result matchmaker::pass(std::int64_t now_ms) {
  wave_result out;
  const detail::pairing_rules rules{params_.rematch_after_ms};

  // Pools in the order of their longest wait (then the key): a player
  // queued in several is seated where they waited longest, as a rule.
  std::vector<std::pair<std::int64_t, const pool_key*>> order;
  for (const auto& [key, tickets] : pools_) {
    std::int64_t oldest = tickets.begin()->second.enqueued_ms;
    for (const auto& [id, t] : tickets) oldest = std::min(oldest, t.enqueued_ms);
    order.emplace_back(oldest, &key);
  }
  std::sort(order.begin(), order.end(),
            [](const auto& a, const auto& b) { return a.first != b.first ? a.first < b.first : *a.second < *b.second; });

  std::set<std::int64_t> seated;           // accounts seated in this wave
  std::vector<std::int64_t> matched_ids;   // their tickets, erased after the wave
  std::vector<detail::candidate> c;
  std::vector<const ticket*> group;
  for (const auto& [oldest, key] : order) {
    const window_params& w = key->mode == mode::duel ? params_.duel : params_.four_players;
    c.clear();
    for (const auto& [id, t] : pools_.at(*key)) {
      const bool free = std::none_of(t.members.begin(), t.members.end(),
                                     [&](const member& m) { return seated.count(m.account) > 0; });
      if (!free) continue;
      const std::int64_t waited = now_ms - t.enqueued_ms;
      c.push_back({&t, ticket_rating(t), window(w, waited), waited, static_cast<int>(t.members.size())});
    }
    const auto groups = key->mode == mode::duel
                            ? detail::pair_duels(c, rules)
                            : detail::form_tables(c, rules, seats_of(key->mode), key->mode == mode::two_v_two);
    for (const auto& g : groups) {
      group.clear();
      for (const std::size_t i : g) {
        group.push_back(c[i].t);
        matched_ids.push_back(c[i].t->id);
        for (const member& m : c[i].t->members) seated.insert(m.account);
      }
      out.matches.push_back(seat_group(*key, group, now_ms));
    }
  }

  for (const std::int64_t id : matched_ids) erase(id);
  // The seated players' other tickets leave every pool.
  for (const std::int64_t account : seated)
    for (const std::int64_t id : remove_account(account)) out.dropped.push_back(id);
  std::sort(out.dropped.begin(), out.dropped.end());
  return out;
}

}  // namespace cod::queue
