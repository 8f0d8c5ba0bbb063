// The players' public pages (docs/accounts.md, "Ladders and players"), no
// token needed, GET (and HEAD) only:
//
//   GET /api/ladder/{duel|ffa|2v2}?offset=0&limit=50
//       200 {ladder, players: [{rank, id, name, rating, deviation, games,
//            wins, losses}], offset, next_offset | null}
//   GET /api/players/{name}
//       200 {player: {id, name, guest, created_ms}, ratings: [...],
//            history: [...] (newest first, at most 50),
//            matches: [...] (the newest 20)}
//
// The ladder hides provisional ratings and disabled and deleted accounts;
// a deleted account has no page. Reads the account store and the match
// store's reader: blocking, so it runs on the account workers like the
// rest of /api/ (account_api.hpp hands these two routes here).
#pragma once

#include <string>
#include <vector>

#include "admin/admin_api.hpp"
#include "persist/account_store.hpp"
#include "persist/match_store.hpp"

namespace cod::server::accounts {

class player_pages {
 public:
  // Both outlive the pages; both are thread-safe.
  player_pages(account_store& accounts, match_reader& matches) : accounts_(accounts), matches_(matches) {}

  // `seg`: the path after /api/, split at '/' ({"ladder", "duel"} or
  // {"players", "ann"}); `query`: the target's query string, without '?'.
  admin::response handle(const admin::request& req, const std::vector<std::string>& seg,
                         const std::string& query) const;

 private:
  admin::response ladder(const std::string& ladder, const std::string& query) const;
  admin::response player(const std::string& name, const std::string& query) const;

  account_store& accounts_;
  match_reader& matches_;
};

}  // namespace cod::server::accounts
