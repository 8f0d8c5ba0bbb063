// cod-bot's computer players (--policy greedy|search, --level N): the
// engine/search players (docs/ai.md) deciding from the seat's view as the
// wire carries it, read back into a seat_view (protocol/view_decode.hpp).
//
// What they know besides the view is what a player at the table knows
// (R14.6, RULING E82): every seat's deck list, which the match's `state`
// carries (`decks`); before one arrives, or from a server that does not send
// them, only the bot's own list, and the others' hidden cards are drawn from
// the whole catalogue: a weaker guess than the real lists give.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "cod/engine/action.hpp"
#include "cod/engine/catalogue.hpp"
#include "cod/search/player.hpp"

namespace cod::bot {

// The library's policies; a bot plays random, greedy or search (never the
// all-seeing one, which is for measuring).
using policy_kind = search::policy;
using search::policy_name;
std::optional<policy_kind> policy_from_name(std::string_view name);  // "random" | "greedy" | "search"

class search_policy {
 public:
  // `level`: search's level_settings (1..5); greedy ignores it. `think_ms`:
  // the time a decision may take (the search stops at its iteration budget
  // or then, whichever comes first). `decks`: the seats' deck lists (empty:
  // not known, a drafted room).
  search_policy(const catalogue& cat, policy_kind kind, int level, int think_ms, std::uint64_t seed,
                search::table decks);

  struct choice {
    std::optional<action> chosen;  // none: see why
    std::string why;               // the view did not decode, or no world fits it
    int iterations = 0;
  };
  // The action for the view's viewer on its turn (`view`: a state's or an
  // update's "view"). `seq` varies the seed from one decision to the next.
  choice decide(const nlohmann::json& view, std::int64_t seq) const;

 private:
  const catalogue& cat_;
  search::settings settings_;
  int think_ms_;
  std::uint64_t seed_;
  search::table decks_;
};

}  // namespace cod::bot
