#include "persist/memory_store.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <set>

#include "common/strcat.hpp"
#include "persist/write_queue.hpp"

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

bool valid_seat(int s) { return s >= 0 && s <= 3; }

}  // namespace

memory_store::memory_store(callbacks mode) : health_(std::make_unique<detail::health_tracker>()) {
  if (mode == callbacks::own_thread) {
    queue_ = std::make_unique<detail::write_queue>(
        "memory", 512, [this](std::vector<detail::write_op>& batch, std::vector<char>& ok) {
          std::lock_guard lk(mu_);
          for (std::size_t i = 0; i < batch.size(); ++i) ok[i] = apply(batch[i]);
        });
  }
}

memory_store::~memory_store() { queue_.reset(); }

void memory_store::submit(detail::write_op op) {
  if (queue_) {
    queue_->push(std::move(op));
    return;
  }
  bool ok;
  {
    std::lock_guard lk(mu_);
    ok = apply(op);
  }
  detail::run_callback(op.done, ok, op);
}

bool memory_store::apply(const detail::write_op& op) {
  // An injected fault is this store's storage failure (health()); any
  // other false is a write refused for not fitting its match.
  if (fail_ || fail_next_ > 0) {
    const char* why = fail_ ? "fault injected (fail_writes)" : "fault injected (fail_next_writes)";
    if (!fail_) --fail_next_;
    health_->failed(1, why);
    spdlog::warn("persist: {} failed: {}", detail::describe(op), why);
    return false;
  }
  health_->committed();
  std::string why;
  if (const auto* c = std::get_if<detail::create_op>(&op.what)) {
    std::set<int> seats;
    for (const seat_record& s : c->m.seats)
      if (!valid_seat(s.seat) || !seats.insert(s.seat).second) why = cat("bad or duplicate seat ", s.seat);
    if (matches_.count(c->m.match_id)) why = "the match exists already";
    if (why.empty()) {
      stored_match sm;
      sm.match = c->m;
      std::sort(sm.match.seats.begin(), sm.match.seats.end(),
                [](const seat_record& a, const seat_record& b) { return a.seat < b.seat; });
      matches_.emplace(c->m.match_id, std::move(sm));
    }
  } else if (const auto* a = std::get_if<detail::append_op>(&op.what)) {
    auto it = matches_.find(a->match_id);
    if (it == matches_.end()) why = "unknown match";
    else if (it->second.finished()) why = "the match is finished";
    else if (a->a.seq != static_cast<std::int64_t>(it->second.actions.size()) + 1)
      why = cat("seq ", a->a.seq, " does not follow the last seq ", it->second.actions.size());
    else if (!valid_seat(a->a.seat)) why = cat("bad seat ", a->a.seat);
    else it->second.actions.push_back(a->a);
  } else if (const auto* f = std::get_if<detail::finish_op>(&op.what)) {
    auto it = matches_.find(f->match_id);
    if (it == matches_.end()) why = "unknown match";
    else if (it->second.finished()) why = "the match is finished already";
    else it->second.result = f->r;
  } else if (const auto* d = std::get_if<detail::draft_op>(&op.what)) {
    auto it = matches_.find(d->match_id);
    if (it == matches_.end()) why = "unknown match";
    else if (it->second.finished()) why = "the match is finished";
    std::int64_t next = it == matches_.end() ? 0 : static_cast<std::int64_t>(it->second.draft.size()) + 1;
    for (const auto& r : d->rows) {
      if (!why.empty()) break;
      if (r.seq != next++) why = cat("draft seq ", r.seq, " does not follow the last one");
      else if (!valid_seat(r.seat)) why = cat("bad seat ", r.seat);
      else if (r.kind != "reveal" && r.kind != "pick") why = cat("bad kind ", r.kind);
    }
    if (why.empty()) it->second.draft.insert(it->second.draft.end(), d->rows.begin(), d->rows.end());
  } else if (const auto* n = std::get_if<detail::note_op>(&op.what)) {
    auto it = matches_.find(n->match_id);
    if (it == matches_.end()) why = "unknown match";
    else it->second.notes.push_back(n->n);
  }
  // sql_op: no SQL here; nothing is kept (match_store::run_sql).
  if (!why.empty()) spdlog::warn("persist: {} refused: {}", detail::describe(op), why);
  return why.empty();
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

void memory_store::run_sql(std::string what, std::function<void(sql::db&)> fn, done_fn done) {
  submit({detail::sql_op{std::move(what), std::move(fn)}, std::move(done)});
}

void memory_store::append_draft(const std::string& match_id, const std::vector<draft_event_record>& rows,
                                done_fn done) {
  submit({detail::draft_op{match_id, rows}, std::move(done)});
}

void memory_store::append_note(const std::string& match_id, std::int64_t at_ms, const std::string& text) {
  submit({detail::note_op{match_id, {at_ms, text}}, nullptr});
}

std::vector<stored_match> memory_store::load_unfinished() {
  std::lock_guard lk(mu_);
  std::vector<std::pair<std::pair<std::int64_t, std::string>, const stored_match*>> found;
  for (const auto& [id, sm] : matches_)
    if (!sm.finished()) found.push_back({{sm.match.created_ms, id}, &sm});
  std::sort(found.begin(), found.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<stored_match> out;
  out.reserve(found.size());
  for (const auto& f : found) out.push_back(*f.second);
  return out;
}

std::vector<stored_match> memory_store::load_finished_since(std::int64_t ended_from_ms) {
  std::lock_guard lk(mu_);
  std::vector<std::pair<std::pair<std::int64_t, std::string>, const stored_match*>> found;
  for (const auto& [id, sm] : matches_)
    if (sm.finished() && sm.result->ended_ms >= ended_from_ms) found.push_back({{sm.match.created_ms, id}, &sm});
  std::sort(found.begin(), found.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<stored_match> out;
  out.reserve(found.size());
  for (const auto& f : found) out.push_back(*f.second);
  return out;
}

std::optional<stored_match> memory_store::load_match(const std::string& match_id) {
  std::lock_guard lk(mu_);
  auto it = matches_.find(match_id);
  if (it == matches_.end()) return std::nullopt;
  return it->second;
}

std::vector<match_summary> memory_store::list_matches(const match_query& q) {
  // Tournament games live in SQL tables (run_sql), which this store lacks.
  if (!q.tournament.empty()) throw persist_error("the tournament filter needs the SQLite store");
  std::lock_guard lk(mu_);
  std::vector<const stored_match*> found;
  for (const auto& [id, sm] : matches_) {
    const std::string status = sm.finished() ? "finished" : "playing";
    if (!q.status.empty() && q.status != status) continue;
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
    found.push_back(&sm);
  }
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
    for (const seat_record& seat : sm.match.seats) s.names.push_back(seat.name);
    s.actions = static_cast<std::int64_t>(sm.actions.size());
    s.result = sm.result;
    out.push_back(std::move(s));
  }
  return out;
}

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

}  // namespace cod::server
