#include "persist/pg/pg_writer.hpp"

#include <spdlog/spdlog.h>

#include <chrono>
#include <unordered_set>

#include "common/strcat.hpp"
#include "persist/pg/pg_migrations.hpp"
#include "persist/pg/pg_ratings.hpp"
#include "persist/pg/pg_util.hpp"
#include "persist/pg/pg_writes.hpp"

namespace cod::server::detail {

using kind = match_state::kind;

namespace {

// Whether a batch finishes a rated match (one created in the batch included).
bool has_rated_finish(const std::vector<write_op>& batch, const match_states& view) {
  std::unordered_set<std::string> rated;
  for (const write_op& op : batch) {
    if (const auto* c = std::get_if<create_op>(&op.what); c && c->m.rated) rated.insert(c->m.match_id);
    if (const auto* f = std::get_if<finish_op>(&op.what)) {
      auto it = view.find(f->match_id);
      if (rated.count(f->match_id) || (it != view.end() && it->second.rated)) return true;
    }
  }
  return false;
}

}  // namespace

pg_writer::pg_writer(std::string uri, std::string node_id) : uri_(std::move(uri)) {
  fence_.node_id = std::move(node_id);
  conn_ = std::make_unique<pg::conn>(uri_, "cod-store-writer");
  schema_before_ = pg::migrate(*conn_);
  // The start-up write check: a read-only role or a standby refuses here,
  // not at the first match.
  conn_->exec("BEGIN");
  try {
    conn_->query("UPDATE schema_migrations SET applied_at = applied_at "
                 "WHERE version = (SELECT MAX(version) FROM schema_migrations)",
                 {});
  } catch (const persist_error& e) {
    throw persist_error(cat(e.what(), " (the start-up write check: cod-server must store every action, so it does "
                                      "not start on a database it cannot write)"));
  }
  conn_->exec("ROLLBACK");
  connect();
}

pg_writer::~pg_writer() = default;

void pg_writer::connect() {
  if (!conn_ || !conn_->ok()) {
    conn_.reset();
    conn_ = std::make_unique<pg::conn>(uri_, "cod-store-writer");
    spdlog::info("persist: {}: the writer connected", conn_->where());
  }
  // A callback with ok means committed and durable: never let a server
  // default of synchronous_commit = off acknowledge before the WAL is flushed.
  if (conn_->query("SELECT current_setting('synchronous_commit')", {}).text(0, 0) == "off") {
    spdlog::warn("persist: {}: synchronous_commit is off on the server; the store's connection sets it on",
                 conn_->where());
    conn_->exec("SET synchronous_commit = on");
  }
  for (const auto& [name, sql] : write_statements()) conn_->prepare(name, sql);
}

match_states pg_writer::states_for(const std::vector<write_op>& batch) {
  match_states view;
  std::vector<std::string> unknown;
  std::unordered_set<std::string> asked;
  for (const write_op& op : batch)
    each_match(op, [&](const std::string& id) {
      if (view.count(id) || asked.count(id)) return;
      if (auto it = known_.find(id); it != known_.end()) view.emplace(id, it->second);
      else if (asked.insert(id).second) unknown.push_back(id);
    });
  read_states(unknown, view);
  return view;
}

void pg_writer::read_states(const std::vector<std::string>& ids, match_states& view) {
  if (ids.empty()) return;
  for (const std::string& id : ids) view.emplace(id, match_state{});  // absent unless found
  const pg::result r = conn_->run("states", pg::params().add(pg::text_array(ids)));
  for (int i = 0; i < r.rows(); ++i)
    view[r.text(i, 0)] = {r.text(i, 1) == "playing" ? kind::playing : kind::finished, r.int64(i, 2), r.int64(i, 3),
                          r.text(i, 4), r.int64(i, 5) != 0};
}

match_states pg_writer::fenced_start(const std::vector<write_op>& batch) {
  conn_->exec("BEGIN");
  fence_.held.clear();
  const pg::result locked = conn_->run(lock_statement().first, lock_params(batch, fence_.node_id));
  for (int i = 0; i < locked.rows(); ++i) fence_.held.insert(locked.text(i, 0));
  // Read after the locks: whatever another node wrote while it held one of
  // these rooms is committed and seen.
  std::vector<std::string> ids;
  std::unordered_set<std::string> asked;
  for (const write_op& op : batch)
    each_match(op, [&](const std::string& id) {
      if (asked.insert(id).second) ids.push_back(id);
    });
  match_states view;
  read_states(ids, view);
  return view;
}

status pg_writer::check(const write_op& op, match_states& view) {
  if (status st = check_fence(op, view, fence_); !st) return st;
  return check_write(op, view);
}

bool pg_writer::pipelined(std::vector<write_op>& batch, match_states& view, std::vector<status>& out) {
  std::vector<std::pair<std::size_t, std::size_t>> finishes;  // (write, statement)
  pg::pipeline::outcome o;
  {
    pg::pipeline pl(*conn_);
    std::size_t last = 0;
    const pg::send_fn send = [&](const std::string& name, const pg::params& p) { last = pl.send(name, p); };
    action_columns actions;
    if (!fence_.on()) pl.send("begin", {});  // fenced: open since fenced_start
    for (std::size_t i = 0; i < batch.size(); ++i) {
      out[i] = check(batch[i], view);
      if (!out[i]) continue;
      if (const auto* a = std::get_if<append_op>(&batch[i].what)) actions.add(*a);
      else send_write(batch[i], send);
      if (std::holds_alternative<finish_op>(batch[i].what)) finishes.emplace_back(i, last);
      applied(batch[i], view);
    }
    if (actions.rows()) pl.send("insert_actions", actions.params());
    pl.send("commit", {});
    o = pl.finish();
  }
  if (o.failed) {
    spdlog::debug("persist: {}: a batch statement was refused ({}); running the batch write by write",
                  conn_->where(), o.failed->what());
    conn_->exec("ROLLBACK");
    return false;
  }
  // Only this writer writes a match being played: an update that found no
  // playing row means someone else did.
  for (const auto& [i, stmt] : finishes)
    if (o.affected[stmt] != 1) {
      spdlog::error("persist: {}: {} changed no row: the match was finished by another writer",
                    conn_->where(), describe(batch[i]));
      out[i] = status::conflict("the match is finished already");
    }
  return true;
}

void pg_writer::one_by_one(std::vector<write_op>& batch, match_states& view, std::vector<status>& out) {
  pg::conn& c = *conn_;
  if (!fence_.on()) c.exec("BEGIN");  // fenced: open since fenced_start
  for (std::size_t i = 0; i < batch.size(); ++i) {
    out[i] = check(batch[i], view);
    if (!out[i]) continue;
    c.exec("SAVEPOINT op");
    try {
      send_write(batch[i], [&](const std::string& name, const pg::params& p) {
        const pg::result r = c.run(name, p);
        if (name == "finish" && r.affected() != 1)
          throw pg::error("the match is finished already (by another writer)", "23000", false);
      });
      // A rated match's rating change, in the finish's savepoint: both or neither.
      if (const auto* f = std::get_if<finish_op>(&batch[i].what); f && view[f->match_id].rated)
        store_rating_change(c, f->match_id, f->r);
      c.exec("RELEASE SAVEPOINT op");
      applied(batch[i], view);
    } catch (const pg::error& e) {
      if (e.connection_lost || !(e.constraint() || refused_on_any_error(batch[i]))) throw;
      c.exec("ROLLBACK TO SAVEPOINT op");
      c.exec("RELEASE SAVEPOINT op");
      out[i] = status::conflict(e.what());
    }
  }
  c.exec("COMMIT");
}

void pg_writer::commit_batch(std::vector<write_op>& batch, std::vector<status>& out) {
  const auto t0 = std::chrono::steady_clock::now();
  try {
    if (!conn_ || !conn_->ok()) connect();
    match_states view = fence_.on() ? fenced_start(batch) : states_for(batch);
    match_states before = view;
    // A rated finish reads and locks ratings between its statements: not
    // a pipeline's one-way trip. Such a batch (one a rated match) goes
    // write by write.
    if (has_rated_finish(batch, view)) {  // fenced: one_by_one goes on in fenced_start's transaction
      out.assign(batch.size(), status::ok());
      one_by_one(batch, view, out);
    } else if (!pipelined(batch, view, out)) {
      view = fence_.on() ? fenced_start(batch) : std::move(before);  // the rollback released the locks
      out.assign(batch.size(), status::ok());
      one_by_one(batch, view, out);
    }
    // Only an unfenced writer is its matches' only writer: it keeps what it
    // learnt. A fenced one reads again next batch.
    if (!fence_.on())
      for (auto& [id, st] : view) {
        if (st.k == kind::playing) known_[id] = st;
        else known_.erase(id);
      }
  } catch (const std::exception& e) {
    const std::string where = conn_ ? conn_->where() : pg::redact(uri_);
    spdlog::error("persist: {}: a batch of {} writes failed, none stored: {}", where, batch.size(), e.what());
    out.assign(batch.size(), status::io_error(cat(where, ": the batch failed, none of its writes stored: ", e.what())));
    // Whatever state the connection is in (a transaction half done, a
    // pipeline not drained), the next batch starts on a new one; closing
    // this one rolls its transaction back on the server.
    conn_.reset();
    known_.clear();
    health.failed(batch.size(), e.what());
    return;
  }
  for (std::size_t i = 0; i < batch.size(); ++i)
    if (!out[i]) spdlog::warn("persist: {} refused: {}", describe(batch[i]), out[i].message());
  health.committed();
  const auto us = std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - t0);
  spdlog::debug("persist: committed {} writes in {} us", batch.size(), us.count());
}

}  // namespace cod::server::detail
