// Where matches are kept: the interface rooms talk to (through the room's
// owner), never SQLite directly. Implementations: memory_store (tests) and
// sqlite_store (one writer thread, WAL, group commit). docs/persistence.md.
//
// Ordering contract: append_action's `done` runs only once the action is
// durable (committed); the room broadcasts the action's result only then.
// Callbacks run on the store's own thread (memory_store can run them inline,
// for tests): post them to the room's strand, and never call flush() from one.
// Writes are applied in the order they were queued, across all matches.
//
// A write fails (done(false), nothing stored) when it does not fit the match:
//   create_match   the match_id exists already, or two seats share a number
//   append_action  unknown match, match finished, or seq is not last seq + 1
//   finish_match   unknown match, or already finished
//   append_note    unknown match (logged; notes have no callback)
// or when the storage itself fails (disk full, I/O error, another process
// holding the write lock: the whole group-commit batch fails; logged).
// So a stored log never has a hole: once an append fails, the later seqs of
// that match fail too until the same seq is appended again.
//
// Lifetime: destroy the store after every room that uses it (its destructor
// commits what is queued and runs those callbacks); nothing may call it then.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace cod::server {

namespace sql {
class db;
}

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

// A match with its whole log, as recovery and admins need it.
struct stored_match {
  match_record match{};
  std::vector<action_record> actions{};  // by seq
  std::vector<note_record> notes{};      // in the order written
  std::vector<draft_event_record> draft{};  // drafted formats: the draft log, by seq
  std::optional<match_result> result{};  // empty while the match is being played
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
  std::int64_t actions = 0;              // the last seq
  std::optional<match_result> result{};
};

// Admin search; every filter is optional. Newest first: by created_ms, then
// match_id, both descending (a total order, so a cursor pages exactly).
struct match_query {
  std::string status{};                  // "playing" | "finished" | "" (any)
  std::string player{};                  // a seat's name, ASCII case-insensitive; "" (any)
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

// Thrown by the blocking reads when the storage fails (I/O error, corrupt
// file). Writes never throw: they report through their callback.
struct persist_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class match_store {
 public:
  virtual ~match_store() = default;
  using done_fn = std::function<void(bool ok)>;

  virtual void create_match(const match_record& m, done_fn done) = 0;
  virtual void append_action(const std::string& match_id, const action_record& a, done_fn done) = 0;
  virtual void finish_match(const std::string& match_id, const match_result& r, done_fn done) = 0;
  // Drafted formats: rows of the draft log, stored together or not at all
  // (one pick and what it revealed). Fails like append_action: unknown or
  // finished match, or the first seq is not the last seq + 1.
  virtual void append_draft(const std::string& match_id, const std::vector<draft_event_record>& rows,
                            done_fn done) = 0;
  // Free-form log lines an admin reads with the match (clock events, concessions by timeout).
  virtual void append_note(const std::string& match_id, std::int64_t at_ms, const std::string& text) = 0;
  // Any other write (tournaments, server/tournament/tournament_store.hpp):
  // `fn` runs on the writer thread, on the writer's connection, in queue
  // order with the writes above and inside the same group-commit batch (in
  // a savepoint of its own: if it throws, what it wrote is undone and done
  // gets false; the batch goes on). `what` names it in log lines. Stores
  // without SQL (memory_store, and this default) keep nothing: `fn` is not
  // run and done gets true. A blocking read at start-up can go this way too:
  // capture the result, then flush().
  virtual void run_sql(std::string what, std::function<void(sql::db&)> fn, done_fn done) {
    (void)what;
    (void)fn;
    if (done) done(true);
  }

  // Blocking; called at start-up before any room runs. Oldest first.
  virtual std::vector<stored_match> load_unfinished() = 0;
  // Blocking, at start-up: the finished matches whose ended_ms >= `ended_from_ms`,
  // whole logs, oldest created first (their rooms answer resumes with the
  // result after a restart, docs/protocol.md "Reconnecting").
  virtual std::vector<stored_match> load_finished_since(std::int64_t ended_from_ms) = 0;
  // Blocking reads of committed data (admin); any thread.
  virtual std::optional<stored_match> load_match(const std::string& match_id) = 0;
  virtual std::vector<match_summary> list_matches(const match_query& q) = 0;
  // Blocks until everything queued before the call is committed and its
  // callbacks have run (shutdown, tests).
  virtual void flush() = 0;
  // Queued-but-not-committed writes, for /metrics (persistence lag).
  virtual std::size_t pending() const = 0;
  // Transactions committed so far (group commit: usually far fewer than
  // writes), for /metrics: writes per commit is how well grouping works.
  virtual std::uint64_t commits() const = 0;
  // Thread-safe snapshot, for /healthz and /metrics.
  virtual store_health health() const = 0;
};

}  // namespace cod::server
