#include "queue/parties.hpp"

#include <algorithm>
#include <utility>

namespace cod::queue {

std::string fold_name(const std::string& name) {
  std::string out = name;
  for (char& c : out)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return out;
}

party_plan plan_parties(const std::vector<search>& searches) {
  party_plan plan;
  // The partnered searches of each pool, by their player's folded name.
  std::map<std::pair<pool_key, std::string>, const search*> named;
  for (const auto& s : searches)
    if (!s.partner.empty()) named.emplace(std::make_pair(s.t.pool, fold_name(s.name)), &s);
  for (const auto& s : searches) {
    if (s.partner.empty()) {
      plan.tickets.push_back(s.t);
      continue;
    }
    auto other = named.find({s.t.pool, fold_name(s.partner)});
    const bool mutual = other != named.end() && other->second != &s &&
                        fold_name(other->second->partner) == fold_name(s.name) && !s.t.members.empty() &&
                        !other->second->t.members.empty();
    if (!mutual) {
      plan.waiting_for_partner.push_back(s.t.id);
      continue;
    }
    const search& o = *other->second;
    if (o.t.id < s.t.id) continue;  // the pair is made once, from its lower id
    ticket p = s.t;
    p.members.push_back(o.t.members.front());
    // The party searches since the later of the two: it exists from then.
    p.enqueued_ms = std::max(s.t.enqueued_ms, o.t.enqueued_ms);
    for (std::int64_t a : o.t.last_opponents) p.last_opponents.push_back(a);
    plan.parties[p.id] = {{s.t.members.front().account, s.t.id}, {o.t.members.front().account, o.t.id}};
    plan.tickets.push_back(std::move(p));
  }
  std::sort(plan.tickets.begin(), plan.tickets.end(), [](const ticket& a, const ticket& b) { return a.id < b.id; });
  return plan;
}

std::int64_t search_of(const party_plan& plan, const seat& s) {
  auto it = plan.parties.find(s.ticket);
  if (it == plan.parties.end()) return s.ticket;
  for (const auto& [account, id] : it->second)
    if (account == s.account) return id;
  return s.ticket;
}

std::vector<std::int64_t> searches_of(const party_plan& plan, const std::vector<std::int64_t>& tickets) {
  std::vector<std::int64_t> out;
  for (std::int64_t t : tickets) {
    auto it = plan.parties.find(t);
    if (it == plan.parties.end()) out.push_back(t);
    else
      for (const auto& m : it->second) out.push_back(m.second);
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

}  // namespace cod::queue
