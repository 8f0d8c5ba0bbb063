// A match_store in memory, for tests: the same write rules (write_rules.hpp)
// and ordering as sqlite_store (matches, tournaments, the admin audit), nothing durable. Its
// room_directory (leases, lobby) is in memory_directory.cpp, on the system
// clock; it fences nothing (one process: pg_store.hpp fences). Its
// account_store (accounts, sessions) is in memory_accounts.cpp.
//
// Callbacks: by default on the store's own writer thread, exactly like
// sqlite_store (callbacks::own_thread). callbacks::run_inline applies each
// write and runs its callback inside the call, before it returns: handy for
// single-threaded unit tests, but a room must then not hold a lock its
// callback needs.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "persist/account_store.hpp"
#include "persist/match_store.hpp"
#include "persist/queue_board.hpp"
#include "persist/room_directory.hpp"

namespace cod::server {

namespace detail {
struct match_state;
using match_states = std::unordered_map<std::string, match_state>;
class write_queue;
class health_tracker;
struct write_op;
struct create_op;
struct append_op;
struct finish_op;
struct draft_op;
struct note_op;
struct tournament_op;
struct audit_op;
struct league_save_op;
}  // namespace detail

class memory_reader;

namespace detail {
// memory_accounts.cpp: the account_store memory_store hands out.
std::unique_ptr<account_store> make_memory_accounts();
// memory_queue.cpp: the queue_board memory_store hands out.
std::unique_ptr<queue_board> make_memory_queue();
}  // namespace detail

class memory_store final : public match_store, public room_directory {
 public:
  enum class callbacks { own_thread, run_inline };
  explicit memory_store(callbacks mode = callbacks::own_thread);
  ~memory_store() override;  // commits what is queued first

  void create_match(const match_record& m, done_fn done) override;
  void append_action(const std::string& match_id, const action_record& a, done_fn done) override;
  void finish_match(const std::string& match_id, const match_result& r, done_fn done) override;
  void append_note(const std::string& match_id, std::int64_t at_ms, const std::string& text) override;
  void append_draft(const std::string& match_id, const std::vector<draft_event_record>& rows,
                    done_fn done) override;
  void save_tournament(const stored_tournament& t, done_fn done) override;
  void record_audit(const audit_record& r, done_fn done) override;
  void save_league(const stored_league& l, done_fn done) override;

  match_reader& reader() override;  // memory_reader, in memory_store.cpp
  void flush() override;
  std::size_t pending() const override;
  std::uint64_t commits() const override;
  // Failures are the injected ones below.
  store_health health() const override;
  room_directory* directory() override { return this; }
  account_store* accounts() override { return accounts_.get(); }
  queue_board* queue() override { return board_.get(); }

  result<bool> claim_room(const std::string& room_id, const std::string& node_id, std::int64_t lease_ms) override;
  result<std::vector<std::string>> renew_leases(const std::string& node_id, std::int64_t lease_ms) override;
  status hold_liveness(const std::string& node_id) override;
  status release_room(const std::string& room_id, const std::string& node_id) override;
  result<bool> request_room(const std::string& room_id, const std::string& node_id) override;
  result<std::vector<std::string>> wanted_rooms(const std::string& node_id) override;
  result<bool> room_known(const std::string& room_id) override;
  result<std::vector<std::string>> expired_rooms(std::size_t limit) override;
  result<std::vector<std::string>> expired_events(std::size_t limit) override;
  result<std::size_t> forget_stale(std::int64_t stale_for_ms) override;
  result<std::optional<stored_match>> load_room_match(const std::string& room_id,
                                                      std::int64_t finished_since_ms) override;
  status publish_rooms(const std::string& node_id, const std::vector<room_listing>& rooms) override;
  result<std::vector<room_listing>> list_all_rooms(std::int64_t stale_after_ms) override;

  // Fault injection: while set, every write fails (done gets io_error,
  // nothing stored), as a full disk would. For testing how rooms react.
  void fail_writes(bool on);
  // Fault injection: the next `n` writes fail, later ones succeed (a
  // transient error, such as a lock held too long).
  void fail_next_writes(int n);

 private:
  friend class memory_reader;
  void submit(detail::write_op op);
  status apply(const detail::write_op& op);  // under mu_
  // The matches `op` names, as stored (write_rules.hpp).
  detail::match_states view_of(const detail::write_op& op) const;  // under mu_
  void store(const detail::create_op& c);  // under mu_, once check_write said ok
  void store(const detail::append_op& a);
  void store(const detail::finish_op& f);
  void store(const detail::draft_op& d);
  void store(const detail::note_op& n);
  void store(const detail::tournament_op& t);
  void store(const detail::audit_op& a);
  void store(const detail::league_save_op& l);

  mutable std::mutex mu_;
  std::map<std::string, stored_match> matches_;
  std::map<std::string, stored_tournament> tournaments_;
  std::map<std::string, stored_league> leagues_;
  std::vector<audit_record> audit_;
  // 0014: ratings by (account, ladder); a match's changes are in its stored_match.
  std::map<std::pair<std::int64_t, std::string>, rating_record> ratings_;
  struct lease {
    std::string node_id;
    std::int64_t expires_ms = 0;
    std::optional<std::string> wanted_by;  // request_room; a claim clears it
  };
  std::map<std::string, lease> leases_;  // by room
  struct node_listing {
    std::int64_t published_ms = 0;
    std::vector<room_listing> rooms;
  };
  std::map<std::string, node_listing> lobby_;  // by node
  // Accounts and sessions (memory_accounts.cpp): a lock of their own; the
  // injected faults below do not touch them.
  std::unique_ptr<account_store> accounts_ = detail::make_memory_accounts();
  // The cluster's queue (memory_queue.cpp): a lock of its own too.
  std::unique_ptr<queue_board> board_ = detail::make_memory_queue();
  bool fail_ = false;
  int fail_next_ = 0;
  std::unique_ptr<memory_reader> reader_;
  std::unique_ptr<detail::write_queue> queue_;  // null when inline
  std::unique_ptr<detail::health_tracker> health_;
};

}  // namespace cod::server
