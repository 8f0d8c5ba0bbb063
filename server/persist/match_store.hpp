// Where matches are kept: the interface rooms talk to (through the room's
// owner), never SQLite directly. Implementations: memory_store (tests) and
// sqlite_store (one writer thread, WAL, group commit).
//
// Ordering contract: append_action's `done` runs only once the action is
// durable (committed); the room broadcasts the action's result only then.
// Callbacks run on the store's own thread: post them to the room's strand.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace cod::server {

struct seat_record {
  int seat = 0;
  std::string name;
  std::string token_hash;   // SHA-256 hex of the seat token (tokens are never stored in clear)
  std::string deck_json;    // the deck as joined: {"preconstructed": 1} or {"cards": [...]}
};

struct match_record {
  std::string match_id;     // unique, e.g. the room id plus a counter
  std::string room_id;
  std::string mode;         // "duel"
  std::string format;       // "preconstructed" | "constructed"
  std::string options_json; // {"exhaustion": true, ...}
  std::string rules_version;  // docs/rules.md revision the engine implements
  int engine_version = 0;     // cod::engine_version
  std::uint64_t seed = 0;     // secret until the end (revealed in match_over)
  std::string seed_hash;      // SHA-256 hex of the seed's decimal text: the commitment
  std::int64_t created_ms = 0;
  std::vector<seat_record> seats;
};

struct action_record {
  std::int64_t seq = 0;       // 1, 2, 3... within the match
  int seat = 0;
  std::string action_json;    // protocol::action_to_json
  std::uint64_t digest = 0;   // match::digest() after the action
  std::int64_t at_ms = 0;
};

struct match_result {
  std::vector<int> winners;
  std::string reason;         // protocol::end_reason_name
  std::int64_t ended_ms = 0;
};

// An unfinished match, as recovery needs it: the record and its whole log.
struct stored_match {
  match_record match;
  std::vector<action_record> actions;
};

class match_store {
 public:
  virtual ~match_store() = default;
  using done_fn = std::function<void(bool ok)>;

  virtual void create_match(const match_record& m, done_fn done) = 0;
  virtual void append_action(const std::string& match_id, const action_record& a, done_fn done) = 0;
  virtual void finish_match(const std::string& match_id, const match_result& r, done_fn done) = 0;
  // Free-form log lines an admin reads with the match (clock events, concessions by timeout).
  virtual void append_note(const std::string& match_id, std::int64_t at_ms, const std::string& text) = 0;

  // Blocking; called at start-up before any room runs.
  virtual std::vector<stored_match> load_unfinished() = 0;
  // Blocks until everything queued is committed (shutdown).
  virtual void flush() = 0;
  // Queued-but-not-committed writes, for /metrics (persistence lag).
  virtual std::size_t pending() const = 0;
};

}  // namespace cod::server
