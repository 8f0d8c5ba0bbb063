// What the store keeps, as plain values: matches with their logs, the
// server's tournaments, the admin audit (docs/persistence.md has the tables
// the SQLite store writes them to). The interface that stores and reads
// them is match_store.hpp; replay (server/replay/) reads these alone.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tournament/tournament.hpp"

namespace cod::server {

struct seat_record {
  int seat = 0;
  std::string name{};
  std::string token_hash{};     // SHA-256 hex of the seat token (tokens are never stored in clear)
  std::string deck_json{};      // the deck as joined: {"preconstructed": 1} or {"cards": [...]}
  std::optional<int> team{};    // team modes (2v2): 0 = seats 0+2, 1 = seats 1+3; none otherwise
  std::string champion{};       // R13.1: the seat's Champion (catalogue id); "" without one
  // Solo, coop (R12, R11.7): the AI's seat: name "AI", token_hash "" (no one
  // can resume it), deck_json {"cards": [its 24 ids]} (RULING E41).
  bool ai = false;
  // The account a signed-in connection took the seat with (docs/accounts.md);
  // 0: none (a typed name, the AI, a house bot).
  std::int64_t account_id = 0;
  bool operator==(const seat_record&) const = default;
};

struct match_record {
  std::string match_id{};       // unique, e.g. the room id plus a counter
  std::string room_id{};
  std::string mode{};           // "duel" | "ffa" | "2v2" | "solo" | "coop" (game_mode_name)
  std::string format{};         // "preconstructed" | "constructed"
  std::string options_json{};   // protocol::room_options_to_json: {"exhaustion": true, "champions": ...}
  std::string rules_version{};  // docs/rules.md revision the engine implements
  int engine_version = 0;       // cod::engine_version
  std::uint64_t seed = 0;       // secret until the end (revealed in match_over)
  std::string seed_hash{};      // seed_commitment(seed) (sha256.hpp): SHA-256 hex of its decimal text
  std::int64_t created_ms = 0;
  std::vector<seat_record> seats{};
  // 0009: the match's own card definitions (R15: mutated cards), a JSON array
  // of cards in the catalogue's format (protocol::card_to_json), which replace
  // or join the catalogue's for this match; "" plays the catalogue's.
  std::string cards_json{};
  // 0014: a rated match (the rated queue's rooms, room::params::rated): its
  // end writes the seats' rating changes in the same transaction
  // (rating_update.hpp, docs/ratings.md).
  bool rated = false;
  bool operator==(const match_record&) const = default;
};

struct action_record {
  std::int64_t seq = 0;         // 1, 2, 3... within the match
  int seat = 0;
  std::string action_json{};    // protocol::action_to_json
  std::uint64_t digest = 0;     // match::digest() after the action
  std::int64_t at_ms = 0;
  bool operator==(const action_record&) const = default;
};

// One row of a drafted match's draft log (table draft_events, R14;
// docs/persistence.md "Drafts"): the cards revealed to a seat (kind
// "reveal": a draft's offer, to every seat; a list, to every other seat) and
// the picks a seat made (kind "pick": its takes, its secret list, its bans),
// in order. seq is 1, 2, 3... within the match.
struct draft_event_record {
  std::int64_t seq = 0;
  int seat = 0;
  std::string kind{};           // "reveal" | "pick"
  std::string cards_json{};     // JSON array of catalogue ids
  std::int64_t at_ms = 0;
  bool operator==(const draft_event_record&) const = default;
};

struct match_result {
  std::vector<int> winners{};
  std::string reason{};         // protocol::end_reason_name (or "recovery_failed" when the
                                // server gives up on a match it could not rebuild)
  std::int64_t ended_ms = 0;
  bool operator==(const match_result&) const = default;
};

struct note_record {
  std::int64_t at_ms = 0;
  std::string text{};
  bool operator==(const note_record&) const = default;
};

// A rating's numbers (docs/ratings.md), generic over the two systems: on
// the "duel" ladder Glicko-2's rating, RD and volatility; on "ffa" and "2v2"
// OpenSkill's mu and sigma (volatility 0, stored NULL).
struct rating_value {
  double value = 0;
  double deviation = 0;
  double volatility = 0;
  bool operator==(const rating_value&) const = default;
};

// One account's rating on one ladder (table ratings, 0014).
struct rating_record {
  std::int64_t account_id = 0;
  std::string ladder{};         // "duel" | "ffa" | "2v2"
  rating_value r{};
  double display = 0;           // the number shown and ranked (rating_update.hpp: displayed)
  std::int64_t games = 0;
  std::int64_t wins = 0;        // games where the seat was among the winners
  std::int64_t losses = 0;      // games with winners, the seat not among them (a draw is neither)
  std::int64_t last_ms = 0;     // the end of its last rated game
  bool operator==(const rating_record&) const = default;
};

// What one rated match did to one seat's rating (table rating_changes, 0014).
struct rating_change_record {
  std::string match_id{};
  int seat = 0;
  std::int64_t account_id = 0;
  std::string ladder{};
  std::int64_t ended_ms = 0;    // the match's end
  rating_value before{};        // as the ratings row held it (a first game: the ladder's start)
  std::int64_t before_last_ms = 0;  // the row's last_ms before (0: a first game, no idle growth)
  rating_value after{};
  double delta = 0;             // displayed(after) - displayed(before)
  bool operator==(const rating_change_record&) const = default;
};

// A ladder page (match_reader::list_ladder): by display, highest first
// (then account_id).
struct ladder_query {
  std::string ladder{};
  // Leave out provisional ratings: on "duel" an RD at or above
  // glicko2_params::provisional_deviation (110). OpenSkill's ladders have
  // no provisional state (the ordinal already ranks an uncertain player low).
  bool established_only = false;
  // Leave out the ratings of disabled and deleted accounts (the players'
  // ladder, docs/accounts.md): neither can play. A rating whose account the
  // store does not have stays.
  bool active_only = false;
  int offset = 0;
  int limit = 100;
};

// A match with its whole log, as recovery and admins need it.
struct stored_match {
  match_record match{};
  std::vector<action_record> actions{};  // by seq
  std::vector<note_record> notes{};      // in the order written
  std::vector<draft_event_record> draft{};  // drafted formats: the draft log, by seq
  std::optional<match_result> result{};  // empty while the match is being played
  // A rated match's rating changes (0014), by seat; empty when unrated or unfinished.
  std::vector<rating_change_record> rating_changes{};
  bool finished() const { return result.has_value(); }
};

// One line of an admin listing.
struct match_summary {
  std::string match_id{};
  std::string room_id{};
  std::string mode{};
  std::string format{};
  std::string status{};                  // "playing" | "finished"
  std::int64_t created_ms = 0;
  std::vector<std::string> names{};      // by seat
  std::vector<std::int64_t> accounts{};  // by seat: its account (0013), 0 for none
  std::int64_t actions = 0;              // the last seq
  std::optional<match_result> result{};
};

// Admin search; every filter is optional. Newest first: by created_ms, then
// match_id, both descending (a total order, so a cursor pages exactly).
struct match_query {
  std::string status{};                  // "playing" | "finished" | "" (any)
  std::string player{};                  // a seat's name, ASCII case-insensitive; "" (any)
  // A seat's account (0013, index match_seats_account); 0 (any). A player's
  // own games: names change (a guest's claim, a deletion), the id does not.
  std::int64_t account_id = 0;
  std::string mode{};                    // "duel" ...; "" (any)
  int winner = -1;                       // a seat among the winners (finished matches); -1 (any)
  std::int64_t created_from_ms = 0;      // created_ms >= this
  std::int64_t created_to_ms = 0;        // created_ms < this; 0: no bound
  // Cursor: only matches after (older than) this one in the listing order,
  // i.e. created_ms < before_created_ms, or equal and match_id < before_match_id.
  bool has_before = false;
  std::int64_t before_created_ms = 0;
  std::string before_match_id{};
  std::string tournament{};              // only the matches of this tournament's games; "" (any)
  int limit = 100;
  int offset = 0;
};

// How the store's writes go, for /healthz and /metrics (docs/admin.md,
// "Health and metrics"). Storage failures only (disk full, I/O error, a
// read-only file, another process holding the write lock past the busy
// timeout): a write refused because it does not fit its match is not one.
struct store_health {
  bool ok = true;                 // false: the last commit failed and none has succeeded since
  std::uint64_t write_errors = 0; // writes lost to storage failures since the start
  std::string last_error{};       // the last failure's message ("" when none)
  std::int64_t last_error_ms = 0; // its wall-clock time, ms since the epoch (0 when none)
};

// What the server keeps beside a tournament value (docs/tournaments.md).
struct tournament_extras {
  int spectator_delay = 0;    // actions; 0: live
  bool auto_advance = false;  // start the next round as soon as one is finished
  bool operator==(const tournament_extras&) const = default;
};

// One tournament of the server, as saved and loaded whole. Its games name
// their matches (game::match_id): a store refuses a save whose games name a
// match it does not have, so save after the match was created.
struct stored_tournament {
  std::string id{};                  // "t3f9a0c21b7"
  tournaments::tournament t{};
  tournament_extras extras{};
  std::int64_t created_ms = 0;       // kept from the first save
  bool operator==(const stored_tournament&) const = default;
};

// One mutation league (R15; docs/league.md), saved and loaded whole (0010):
// its record is a JSON document the league service writes and reads (its
// configuration, players with their token hashes, every op in order, its
// duels' rooms and matches); the store keeps it as given.
struct stored_league {
  std::string id{};           // "l3f9a0c21b7"
  std::string name{};
  std::int64_t created_ms = 0;  // kept from the first save
  bool finished = false;
  std::string record_json{};
  bool operator==(const stored_league&) const = default;
};

// One read of a match still being played through the admin API, which shows
// the players' hidden information (docs/admin.md, "Audit"). Only ever added.
struct audit_record {
  std::int64_t at_ms = 0;
  std::string role{};       // "admin" | "organiser"
  std::string remote{};     // the peer, "ip:port"
  std::string match_id{};   // no reference to the match: the audit outlives it
  std::string route{};      // "record", "log", "state", "export", "tournament export"...
  std::string target{};     // method and target, "GET /admin/api/matches/m1/state?step=3"
  bool operator==(const audit_record&) const = default;
};

}  // namespace cod::server
