#include "persist/memory/memory_store.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <set>

#include "common/strcat.hpp"
#include "persist/rating_update.hpp"
#include "persist/write_queue.hpp"
#include "persist/write_rules.hpp"

namespace cod::server {

using detail::cat;

namespace {

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; };
    if (lower(a[i]) != lower(b[i])) return false;
  }
  return true;
}

}  // namespace

// memory_store's reads (match_reader), on the store's maps under its mutex:
// nothing here fails, so no read_or_error.
// Defined here alone: adding a read to the store touches this file.
class memory_reader final : public match_reader {
 public:
  explicit memory_reader(memory_store& s) : s_(s) {}
  result<std::vector<stored_match>> load_unfinished() override;
  result<std::vector<stored_match>> load_finished_since(std::int64_t ended_from_ms) override;
  result<std::optional<stored_match>> load_match(const std::string& match_id) override;
  result<std::vector<match_summary>> list_matches(const match_query& q) override;
  result<std::int64_t> count_matches(const match_query& q) override;
  result<std::vector<audit_record>> list_audit(const std::string& match_id) override;
  result<std::vector<stored_tournament>> load_tournaments() override;
  result<std::vector<stored_league>> load_leagues() override;
  result<std::optional<stored_league>> load_league(const std::string& id) override;
  result<std::vector<rating_record>> load_ratings(std::int64_t account_id) override;
  result<std::vector<rating_record>> list_ladder(const ladder_query& q) override;
  result<std::vector<rating_change_record>> rating_history(std::int64_t account_id, int offset, int limit) override;
  result<std::vector<rating_change_record>> match_rating_changes(const std::string& match_id) override;

 private:
  std::set<std::string> tournament_matches(const std::string& id) const;  // under s_.mu_
  std::vector<const stored_match*> filtered(const match_query& q) const;  // under s_.mu_, unsorted
  memory_store& s_;
};

memory_store::memory_store(callbacks mode)
    : reader_(std::make_unique<memory_reader>(*this)), health_(std::make_unique<detail::health_tracker>()) {
  if (mode == callbacks::own_thread) {
    queue_ = std::make_unique<detail::write_queue>(
        "memory", 512, [this](std::vector<detail::write_op>& batch, std::vector<status>& out) {
          std::lock_guard lk(mu_);
          for (std::size_t i = 0; i < batch.size(); ++i) out[i] = apply(batch[i]);
        });
  }
}

memory_store::~memory_store() { queue_.reset(); }

match_reader& memory_store::reader() { return *reader_; }

void memory_store::submit(detail::write_op op) {
  if (queue_) {
    queue_->push(std::move(op));
    return;
  }
  status st;
  {
    std::lock_guard lk(mu_);
    st = apply(op);
  }
  detail::run_callback(op.done, st, op);
}

status memory_store::apply(const detail::write_op& op) {
  // An injected fault is this store's storage failure (health()); any
  // other refusal is a write that does not fit what is stored.
  if (fail_ || fail_next_ > 0) {
    const char* why = fail_ ? "fault injected (fail_writes)" : "fault injected (fail_next_writes)";
    if (!fail_) --fail_next_;
    health_->failed(1, why);
    spdlog::warn("persist: {} failed: {}", detail::describe(op), why);
    return status::io_error(why);
  }
  health_->committed();
  detail::match_states view = view_of(op);
  status st = detail::check_write(op, view);
  if (st) std::visit([this](const auto& o) { store(o); }, op.what);
  else spdlog::warn("persist: {} refused: {}", detail::describe(op), st.message());
  return st;
}

detail::match_states memory_store::view_of(const detail::write_op& op) const {
  detail::match_states view;
  detail::each_match(op, [&](const std::string& id) {
    auto it = matches_.find(id);
    if (it == matches_.end()) return;
    const stored_match& m = it->second;
    view[id] = {m.finished() ? detail::match_state::kind::finished : detail::match_state::kind::playing,
                static_cast<std::int64_t>(m.actions.size()), static_cast<std::int64_t>(m.draft.size()),
                m.match.room_id, m.match.rated};
  });
  return view;
}

// The stores of writes check_write accepted.

void memory_store::store(const detail::create_op& c) {
  stored_match sm;
  sm.match = c.m;
  std::sort(sm.match.seats.begin(), sm.match.seats.end(),
            [](const seat_record& a, const seat_record& b) { return a.seat < b.seat; });
  matches_.emplace(c.m.match_id, std::move(sm));
}

void memory_store::store(const detail::append_op& a) { matches_.at(a.match_id).actions.push_back(a.a); }

void memory_store::store(const detail::finish_op& f) {
  stored_match& sm = matches_.at(f.match_id);
  sm.result = f.r;
  // The rating change with the result (rating_update.hpp); check_write
  // refused a second finish, so this runs once a match.
  if (!sm.match.rated || !sm.rating_changes.empty()) return;
  const rating_plan plan = plan_rating(sm.match, f.r, seats_that_played(sm.actions));
  if (!plan.rated) {
    spdlog::info("persist: rated match {} is not rated: {}", f.match_id, plan.why);
    return;
  }
  std::vector<std::optional<rating_record>> before;
  for (const auto& s : plan.seats) {
    auto it = ratings_.find({s.account_id, plan.ladder});
    before.push_back(it == ratings_.end() ? std::nullopt : std::optional<rating_record>(it->second));
  }
  rating_outcome out = rate_match(plan, f.match_id, before, f.r.ended_ms);
  for (const rating_record& row : out.rows) ratings_[{row.account_id, row.ladder}] = row;
  sm.rating_changes = std::move(out.changes);
}

void memory_store::store(const detail::draft_op& d) {
  auto& draft = matches_.at(d.match_id).draft;
  draft.insert(draft.end(), d.rows.begin(), d.rows.end());
}

void memory_store::store(const detail::note_op& n) { matches_.at(n.match_id).notes.push_back(n.n); }

void memory_store::store(const detail::tournament_op& op) {
  auto [it, added] = tournaments_.try_emplace(op.t.id, op.t);
  if (!added) {
    const std::int64_t created = it->second.created_ms;  // kept from the first save
    it->second = op.t;
    it->second.created_ms = created;
  }
}

void memory_store::store(const detail::audit_op& a) { audit_.push_back(a.r); }

void memory_store::store(const detail::league_save_op& op) {
  auto [it, added] = leagues_.try_emplace(op.l.id, op.l);
  if (!added) {
    const std::int64_t created = it->second.created_ms;  // kept from the first save
    it->second = op.l;
    it->second.created_ms = created;
  }
}

void memory_store::save_league(const stored_league& l, done_fn done) {
  submit({detail::league_save_op{l}, std::move(done)});
}

void memory_store::create_match(const match_record& m, done_fn done) {
  submit({detail::create_op{m}, std::move(done)});
}

void memory_store::append_action(const std::string& match_id, const action_record& a, done_fn done) {
  submit({detail::append_op{match_id, a}, std::move(done)});
}

void memory_store::finish_match(const std::string& match_id, const match_result& r, done_fn done) {
  submit({detail::finish_op{match_id, r}, std::move(done)});
}

void memory_store::save_tournament(const stored_tournament& t, done_fn done) {
  submit({detail::tournament_op{t}, std::move(done)});
}

void memory_store::record_audit(const audit_record& r, done_fn done) {
  submit({detail::audit_op{r}, std::move(done)});
}

void memory_store::append_draft(const std::string& match_id, const std::vector<draft_event_record>& rows,
                                done_fn done) {
  submit({detail::draft_op{match_id, rows}, std::move(done)});
}

void memory_store::append_note(const std::string& match_id, std::int64_t at_ms, const std::string& text) {
  submit({detail::note_op{match_id, {at_ms, text}}, nullptr});
}

// The matches a tournament's games name (the SQL stores read tournament_matches).
void memory_store::flush() {
  if (queue_) queue_->flush();
}

std::size_t memory_store::pending() const { return queue_ ? queue_->pending() : 0; }
std::uint64_t memory_store::commits() const { return queue_ ? queue_->batches() : 0; }

store_health memory_store::health() const { return health_->get(); }

void memory_store::fail_writes(bool on) {
  std::lock_guard lk(mu_);
  fail_ = on;
}

void memory_store::fail_next_writes(int n) {
  std::lock_guard lk(mu_);
  fail_next_ = n;
}

// ---------------------------------------------------------------------------
// Reads.

result<std::vector<stored_league>> memory_reader::load_leagues() {
  std::lock_guard lk(s_.mu_);
  std::vector<stored_league> out;
  for (const auto& [id, l] : s_.leagues_) out.push_back(l);
  std::stable_sort(out.begin(), out.end(),
                   [](const stored_league& a, const stored_league& b) { return a.created_ms < b.created_ms; });
  return out;
}

result<std::optional<stored_league>> memory_reader::load_league(const std::string& id) {
  std::lock_guard lk(s_.mu_);
  const auto it = s_.leagues_.find(id);
  if (it == s_.leagues_.end()) return std::optional<stored_league>{};
  return std::optional<stored_league>{it->second};
}

result<std::vector<stored_match>> memory_reader::load_unfinished() {
  std::lock_guard lk(s_.mu_);
  std::vector<std::pair<std::pair<std::int64_t, std::string>, const stored_match*>> found;
  for (const auto& [id, sm] : s_.matches_)
    if (!sm.finished()) found.push_back({{sm.match.created_ms, id}, &sm});
  std::sort(found.begin(), found.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<stored_match> out;
  out.reserve(found.size());
  for (const auto& f : found) out.push_back(*f.second);
  return out;
}

result<std::vector<stored_match>> memory_reader::load_finished_since(std::int64_t ended_from_ms) {
  std::lock_guard lk(s_.mu_);
  std::vector<std::pair<std::pair<std::int64_t, std::string>, const stored_match*>> found;
  for (const auto& [id, sm] : s_.matches_)
    if (sm.finished() && sm.result->ended_ms >= ended_from_ms) found.push_back({{sm.match.created_ms, id}, &sm});
  std::sort(found.begin(), found.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<stored_match> out;
  out.reserve(found.size());
  for (const auto& f : found) out.push_back(*f.second);
  return out;
}

result<std::optional<stored_match>> memory_reader::load_match(const std::string& match_id) {
  std::lock_guard lk(s_.mu_);
  auto it = s_.matches_.find(match_id);
  if (it == s_.matches_.end()) return std::optional<stored_match>{};
  return std::optional<stored_match>{it->second};
}

std::vector<const stored_match*> memory_reader::filtered(const match_query& q) const {
  const std::set<std::string> of_tournament =
      q.tournament.empty() ? std::set<std::string>{} : tournament_matches(q.tournament);
  std::vector<const stored_match*> found;
  for (const auto& [id, sm] : s_.matches_) {
    const std::string state = sm.finished() ? "finished" : "playing";
    if (!q.status.empty() && q.status != state) continue;
    if (!q.tournament.empty() && !of_tournament.count(id)) continue;
    if (sm.match.created_ms < q.created_from_ms) continue;
    if (q.created_to_ms != 0 && sm.match.created_ms >= q.created_to_ms) continue;
    if (!q.mode.empty() && q.mode != sm.match.mode) continue;
    if (q.winner >= 0 && (!sm.result || std::find(sm.result->winners.begin(), sm.result->winners.end(),
                                                   q.winner) == sm.result->winners.end()))
      continue;
    if (q.has_before && (sm.match.created_ms > q.before_created_ms ||
                         (sm.match.created_ms == q.before_created_ms && sm.match.match_id >= q.before_match_id)))
      continue;
    if (!q.player.empty() &&
        std::none_of(sm.match.seats.begin(), sm.match.seats.end(),
                     [&](const seat_record& s) { return iequals(s.name, q.player); }))
      continue;
    if (q.account_id != 0 &&
        std::none_of(sm.match.seats.begin(), sm.match.seats.end(),
                     [&](const seat_record& s) { return s.account_id == q.account_id; }))
      continue;
    found.push_back(&sm);
  }
  return found;
}

result<std::int64_t> memory_reader::count_matches(const match_query& q) {
  std::lock_guard lk(s_.mu_);
  return static_cast<std::int64_t>(filtered(q).size());
}

result<std::vector<match_summary>> memory_reader::list_matches(const match_query& q) {
  std::lock_guard lk(s_.mu_);
  std::vector<const stored_match*> found = filtered(q);
  // Newest first; ties by match_id, descending (as sqlite_store).
  std::sort(found.begin(), found.end(), [](const stored_match* a, const stored_match* b) {
    if (a->match.created_ms != b->match.created_ms) return a->match.created_ms > b->match.created_ms;
    return a->match.match_id > b->match.match_id;
  });
  std::vector<match_summary> out;
  const std::size_t from = static_cast<std::size_t>(std::max(q.offset, 0));
  for (std::size_t i = from; i < found.size() && out.size() < static_cast<std::size_t>(std::max(q.limit, 0)); ++i) {
    const stored_match& sm = *found[i];
    match_summary s;
    s.match_id = sm.match.match_id;
    s.room_id = sm.match.room_id;
    s.mode = sm.match.mode;
    s.format = sm.match.format;
    s.status = sm.finished() ? "finished" : "playing";
    s.created_ms = sm.match.created_ms;
    for (const seat_record& seat : sm.match.seats) {
      s.names.push_back(seat.name);
      s.accounts.push_back(seat.account_id);
    }
    s.actions = static_cast<std::int64_t>(sm.actions.size());
    s.result = sm.result;
    out.push_back(std::move(s));
  }
  return out;
}

result<std::vector<audit_record>> memory_reader::list_audit(const std::string& match_id) {
  std::lock_guard lk(s_.mu_);
  std::vector<audit_record> out;
  for (const audit_record& r : s_.audit_)
    if (match_id.empty() || r.match_id == match_id) out.push_back(r);
  return out;
}

result<std::vector<stored_tournament>> memory_reader::load_tournaments() {
  std::lock_guard lk(s_.mu_);
  std::vector<stored_tournament> out;
  for (const auto& [id, t] : s_.tournaments_) out.push_back(t);
  std::stable_sort(out.begin(), out.end(),
                   [](const stored_tournament& a, const stored_tournament& b) { return a.created_ms < b.created_ms; });
  return out;
}

std::set<std::string> memory_reader::tournament_matches(const std::string& id) const {
  std::set<std::string> out;
  auto it = s_.tournaments_.find(id);
  if (it == s_.tournaments_.end()) return out;
  for (const auto& r : it->second.t.rounds())
    for (const auto& p : r.pairings)
      for (const auto& g : p.games)
        if (!g.match_id.empty()) out.insert(g.match_id);
  return out;
}

result<std::vector<rating_record>> memory_reader::load_ratings(std::int64_t account_id) {
  std::lock_guard lk(s_.mu_);
  std::vector<rating_record> out;
  for (const auto& [key, r] : s_.ratings_)
    if (key.first == account_id) out.push_back(r);  // by ladder: the map's order
  return out;
}

result<std::vector<rating_record>> memory_reader::list_ladder(const ladder_query& q) {
  std::lock_guard lk(s_.mu_);
  std::vector<rating_record> all;
  // The accounts have their own lock, never held while taking mu_.
  auto inactive = [&](std::int64_t account_id) {
    auto a = s_.accounts_->account_by_id(account_id);
    return a && *a && ((*a)->disabled || (*a)->deleted);
  };
  for (const auto& [key, r] : s_.ratings_)
    if (r.ladder == q.ladder && !(q.established_only && provisional(r.ladder, r.r)) &&
        !(q.active_only && inactive(r.account_id)))
      all.push_back(r);
  std::sort(all.begin(), all.end(), [](const rating_record& a, const rating_record& b) {
    return a.display != b.display ? a.display > b.display : a.account_id < b.account_id;
  });
  std::vector<rating_record> out;
  for (std::size_t i = static_cast<std::size_t>(std::max(q.offset, 0));
       i < all.size() && out.size() < static_cast<std::size_t>(std::max(q.limit, 0)); ++i)
    out.push_back(all[i]);
  return out;
}

result<std::vector<rating_change_record>> memory_reader::rating_history(std::int64_t account_id, int offset,
                                                                        int limit) {
  std::lock_guard lk(s_.mu_);
  std::vector<rating_change_record> all;
  for (const auto& [id, sm] : s_.matches_)
    for (const rating_change_record& c : sm.rating_changes)
      if (c.account_id == account_id) all.push_back(c);
  std::sort(all.begin(), all.end(), [](const rating_change_record& a, const rating_change_record& b) {
    return a.ended_ms != b.ended_ms ? a.ended_ms > b.ended_ms : a.match_id > b.match_id;
  });
  std::vector<rating_change_record> out;
  for (std::size_t i = static_cast<std::size_t>(std::max(offset, 0));
       i < all.size() && out.size() < static_cast<std::size_t>(std::max(limit, 0)); ++i)
    out.push_back(all[i]);
  return out;
}

result<std::vector<rating_change_record>> memory_reader::match_rating_changes(const std::string& match_id) {
  std::lock_guard lk(s_.mu_);
  auto it = s_.matches_.find(match_id);
  if (it == s_.matches_.end()) return std::vector<rating_change_record>{};
  return it->second.rating_changes;
}

}  // namespace cod::server
