// A tournament as one stored document (migration 0011; docs/persistence.md,
// "Tournaments and leagues"). Both SQL backends keep a service's state the
// same way: one row an object, saved whole, its state a JSON document in
// record_json, as a league is (0010). Beside a tournament's row they keep
// the matches its games name (tournament_matches), for the listing's
// tournament filter. This is the document's one codec; 0011 wrote the same
// document in SQL from the tables of 0003 and 0005.
//
//   {"config":  {"name", "mode", "format", "swiss_rounds", "best_of", "exhaustion",
//                "clock": null | {"bank_ms", "increment_ms"}, "top_cut", "seed": "<decimal uint64>"},
//    "players": [{"name", "token_hash", "seed_order", "dropped_in_round"}]   (index = player id),
//    "rounds":  [{"number", "kind", "attempt",
//                 "pairings": [{"table", "a", "b", "games": [{"match_id", "decided", "winner", "penalty"}]}]}],
//    "log":     [{"seq", "at_ms", "actor", "act", "round", "player", "note"}],
//    "server":  {"spectator_delay", "auto_advance"}}
//
// No player is -1 (a bye's b, an undecided or drawn game's winner, a log
// line about nobody); a game decided without a match has match_id "".
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "persist/match_store.hpp"  // persist_error
#include "persist/records.hpp"

namespace cod::server::detail {

// The document of `t` (its id and created_ms are the row's columns).
std::string tournament_record_json(const stored_tournament& t);

// The tournament a stored document holds. Throws persist_error naming the
// tournament when the document is not one: not JSON, a field missing or of
// the wrong type, players, rounds, games or log lines out of order, a
// pairing, game or log line naming no player, an unknown act or round kind.
stored_tournament tournament_from_record(std::string id, std::int64_t created_ms, std::string_view record_json);

// The matches the tournament's games name, in order of play, each once.
std::vector<std::string> tournament_match_ids(const tournaments::tournament& t);

}  // namespace cod::server::detail
