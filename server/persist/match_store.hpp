// Where the server keeps what it must not lose: the interface rooms,
// tournaments and the admin API talk to, never a database directly. Every
// method says what it stores or reads (records.hpp); no SQL crosses it.
// Implementations: memory_store (tests), sqlite_store (one writer thread,
// WAL, group commit) and pg_store (PostgreSQL). docs/persistence.md.
//
// Ordering contract: a write's `done` runs only once the write is durable
// (committed); the room broadcasts an action's result only then. Callbacks
// run on the store's own thread (memory_store can run them inline, for
// tests): post them to the room's strand, and never call flush() from one.
// Writes are applied in the order they were queued, across all matches and
// tournaments: a tournament saved after its game's create_match finds the
// match.
//
// A write fails (done gets a status that is not ok; nothing stored) when it
// does not fit what is stored:
//   create_match     the match_id exists already, or two seats share a number (conflict, invalid)
//   append_action    unknown match (not_found), match finished, or seq is not last seq + 1 (conflict)
//   finish_match     unknown match (not_found), or already finished (conflict). A rated
//                    match (match_record::rated) also writes its seats' rating changes
//                    and ratings in the same transaction (rating_update.hpp): all or none
//   append_note      unknown match (logged; notes have no callback)
//   save_tournament  a game names a match the store does not have (conflict)
// or when the storage itself fails (io_error: disk full, I/O error, another
// process holding the write lock: the whole group-commit batch fails; logged).
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

#include "common/status.hpp"
#include "persist/records.hpp"

namespace cod::server {

class account_store;
class room_directory;
class queue_board;

// Thrown inside the backends when the storage fails (I/O error, corrupt
// file); the contract's reads and writes never throw it: reads return it as
// a status (read_or_error), writes report through their callback.
struct persist_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A store's reads: committed data (a write still queued is not seen: call
// match_store::flush() first), blocking, any thread but a room's strand.
// A failure of the storage is a status (io_error, saying why), never an
// exception. The admin API and cod-admin (on a database file) use them, the
// server at start-up, the services for their games' matches.
class match_reader {
 public:
  virtual ~match_reader() = default;
  virtual result<std::optional<stored_match>> load_match(const std::string& match_id) = 0;
  virtual result<std::vector<match_summary>> list_matches(const match_query& q) = 0;
  // How many matches list_matches would give for `q` without its page
  // (limit and offset ignored; the before-cursor and every filter count): a
  // listing's total, a player's games played.
  virtual result<std::int64_t> count_matches(const match_query& q) = 0;
  // The audit rows of one match, or every row when `match_id` is empty; in
  // the order recorded.
  virtual result<std::vector<audit_record>> list_audit(const std::string& match_id) = 0;
  // Every unfinished match, whole; oldest first (start-up recovery).
  virtual result<std::vector<stored_match>> load_unfinished() = 0;
  // The finished matches whose ended_ms >= `ended_from_ms`, whole logs,
  // oldest created first (their rooms answer resumes with the result after
  // a restart, docs/protocol.md "Reconnecting").
  virtual result<std::vector<stored_match>> load_finished_since(std::int64_t ended_from_ms) = 0;
  // Every stored tournament, oldest created first (then by id).
  virtual result<std::vector<stored_tournament>> load_tournaments() = 0;
  // Every stored league, oldest created first (then by id).
  virtual result<std::vector<stored_league>> load_leagues() = 0;
  // One stored league by id (a league of another node, read on demand);
  // nullopt when there is none.
  virtual result<std::optional<stored_league>> load_league(const std::string& id) = 0;

  // Ratings (0014, docs/ratings.md): written only by a rated match's
  // finish_match, in its transaction (rating_update.hpp).
  // An account's ratings, one per ladder it has played rated, by ladder.
  virtual result<std::vector<rating_record>> load_ratings(std::int64_t account_id) = 0;
  // A ladder page: by display, highest first, then by account_id.
  virtual result<std::vector<rating_record>> list_ladder(const ladder_query& q) = 0;
  // An account's rating changes, newest first (ended_ms, then match_id, descending).
  virtual result<std::vector<rating_change_record>> rating_history(std::int64_t account_id, int offset,
                                                                   int limit) = 0;
  // A match's rating changes, by seat (load_match gives them too, in
  // stored_match::rating_changes); empty when it was not rated.
  virtual result<std::vector<rating_change_record>> match_rating_changes(const std::string& match_id) = 0;
};

namespace detail {
// A backend's read, its persist_error (or any exception) as an io_error.
template <class F>
auto read_or_error(F&& read) -> result<decltype(read())> {
  try {
    return read();
  } catch (const std::exception& e) {
    return status::io_error(e.what());
  }
}
}  // namespace detail

class match_store {
 public:
  using done_fn = std::function<void(status)>;

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
  // Replaces everything stored under t.id with `t` (all or nothing);
  // created_ms is kept from the first save.
  virtual void save_tournament(const stored_tournament& t, done_fn done) = 0;
  // Adds one row to the admin audit.
  virtual void record_audit(const audit_record& r, done_fn done) = 0;
  // Replaces the league stored under l.id with `l` (0010); created_ms is
  // kept from the first save.
  virtual void save_league(const stored_league& l, done_fn done) = 0;
  virtual ~match_store() = default;

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
  // The same store's reads (match_reader above): the store hands out its
  // reader, so adding a read touches the contract and one reader per backend.
  virtual match_reader& reader() = 0;
  // The same store's room leases and cluster lobby (room_directory.hpp);
  // nullptr for a store without them (a test's wrapper).
  virtual room_directory* directory() { return nullptr; }
  // The same store's player accounts and sessions (account_store.hpp);
  // nullptr for a store without them (a test's wrapper).
  virtual account_store* accounts() { return nullptr; }
  // The same store's matchmaking queue of a cluster (queue_board.hpp);
  // nullptr for a store without it (a test's wrapper).
  virtual queue_board* queue() { return nullptr; }
};

}  // namespace cod::server
