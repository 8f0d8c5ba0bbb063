// 2v2 parties from single searches (docs/queue.md, "Parties"): two friends
// each queue 2v2 naming the other as partner; before a wave, each pair of
// searches that name each other (same pool, names ignoring ASCII case)
// becomes one party ticket of the matchmaker, two members, always
// teammates. A search naming a partner who has not named it back waits:
// it is not matched alone. Pure, like the matchmaker.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "queue/ticket.hpp"

namespace cod::queue {

// One player's search as the server holds it: a one-member ticket, the
// player's name and the partner it names ("" alone).
struct search {
  ticket t;
  std::string name;
  std::string partner;
};

struct party_plan {
  // What the matchmaker gets: each search alone, or a party ticket (its id
  // the lower of its two searches', members in that order); a search whose
  // partner has not named it back is left out.
  std::vector<ticket> tickets;
  // party ticket id -> its members: (account, that member's search id).
  std::map<std::int64_t, std::vector<std::pair<std::int64_t, std::int64_t>>> parties;
  // The searches left out: waiting for their partner.
  std::vector<std::int64_t> waiting_for_partner;
};

party_plan plan_parties(const std::vector<search>& searches);

// The search behind one seat of a match made from a plan: a party's seat is
// its member's own search (by account); any other seat, its ticket.
std::int64_t search_of(const party_plan& plan, const seat& s);

// Expands ticket ids of a plan (a wave's `dropped`) to the searches behind
// them, ascending.
std::vector<std::int64_t> searches_of(const party_plan& plan, const std::vector<std::int64_t>& tickets);

// ASCII case folding, the rule account names are unique by.
std::string fold_name(const std::string& name);

}  // namespace cod::queue
