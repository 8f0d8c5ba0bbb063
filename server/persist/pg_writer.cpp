#include "persist/pg_writer.hpp"

#include <libpq-fe.h>
#include <spdlog/spdlog.h>

#include <chrono>
#include <unordered_set>

#include "common/strcat.hpp"
#include "common/text_forms.hpp"
#include "persist/pg_migrations.hpp"
#include "persist/pg_tournaments.hpp"
#include "persist/pg_util.hpp"

namespace cod::server::detail {

namespace {

using state = pg_writer::match_state;
using kind = state::kind;
using send_fn = pg::send_fn;

const std::vector<std::pair<std::string, std::string>>& statements() {
  static const std::vector<std::pair<std::string, std::string>> list = [] {
    std::vector<std::pair<std::string, std::string>> l = {
        {"begin", "BEGIN"},
        {"commit", "COMMIT"},
        {"states",
         "SELECT m.match_id, m.status, "
         "COALESCE((SELECT MAX(seq) FROM match_actions a WHERE a.match_id = m.match_id), 0), "
         "COALESCE((SELECT MAX(seq) FROM draft_events d WHERE d.match_id = m.match_id), 0) "
         "FROM matches m WHERE m.match_id = ANY($1::text[])"},
        {"insert_match",
         "INSERT INTO matches (match_id, room_id, mode, format, options_json, rules_version, engine_version, "
         "seed, seed_hash, created_ms, status) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 'playing')"},
        {"insert_seat",
         "INSERT INTO match_seats (match_id, seat, name, token_hash, deck_json, team, champion, ai) "
         "VALUES ($1, $2, $3, $4, $5, $6, $7, $8)"},
        {"insert_action",
         "INSERT INTO match_actions (match_id, seq, seat, action_json, digest, at_ms) VALUES ($1, $2, $3, $4, $5, $6)"},
        {"finish",
         "UPDATE matches SET status = 'finished', ended_ms = $2, winners = $3, reason = $4 "
         "WHERE match_id = $1 AND status = 'playing'"},
        // The pipelined batch's actions, all in one statement (rows as arrays):
        // the server's cost per statement is most of an action's.
        {"insert_actions",
         "INSERT INTO match_actions (match_id, seq, seat, action_json, digest, at_ms) "
         "SELECT * FROM unnest($1::text[], $2::bigint[], $3::int[], $4::text[], $5::text[], $6::bigint[])"},
        {"insert_note", "INSERT INTO match_notes (match_id, at_ms, text) VALUES ($1, $2, $3)"},
        {"insert_draft",
         "INSERT INTO draft_events (match_id, seq, seat, kind, cards_json, at_ms) VALUES ($1, $2, $3, $4, $5, $6)"},
        {"insert_audit",
         "INSERT INTO admin_audit (at_ms, role, remote, match_id, route, target) VALUES ($1, $2, $3, $4, $5, $6)"},
    };
    for (const auto& s : pg::tournament_statements()) l.push_back(s);
    return l;
  }();
  return list;
}

// PostgreSQL array literals, built an element at a time: {"a","b\"c"}, {1,2}.
class array_literal {
 public:
  void add(std::string_view s) {
    out_ += out_.size() > 1 ? ",\"" : "\"";
    for (char ch : s) {
      if (ch == '"' || ch == '\\') out_ += '\\';
      out_ += ch;
    }
    out_ += '"';
  }
  void add(std::int64_t v) {
    if (out_.size() > 1) out_ += ',';
    out_ += std::to_string(v);
  }
  std::string done() const { return out_ + "}"; }

 private:
  std::string out_ = "{";
};

std::string text_array(const std::vector<std::string>& v) {
  array_literal a;
  for (const std::string& s : v) a.add(std::string_view(s));
  return a.done();
}

// The actions of a pipelined batch, as the columns of insert_actions. They
// go after every other statement of the batch: an action needs only its
// match's row, which an earlier write inserted (or an earlier batch).
struct action_columns {
  array_literal match_id, seq, seat, action_json, digest, at_ms;
  std::size_t rows = 0;
  void add(const append_op& a) {
    match_id.add(std::string_view(a.match_id));
    seq.add(a.a.seq);
    seat.add(std::int64_t{a.a.seat});
    action_json.add(std::string_view(a.a.action_json));
    digest.add(std::string_view(digest_hex(a.a.digest)));
    at_ms.add(a.a.at_ms);
    ++rows;
  }
  pg::params params() const {
    pg::params p;
    p.add(match_id.done()).add(seq.done()).add(seat.done()).add(action_json.done()).add(digest.done());
    return p.add(at_ms.done());
  }
};

bool valid_seat(int s) { return s >= 0 && s <= 3; }

// The matches a write reads or names.
template <class F>
void each_match(const write_op& op, F&& f) {
  struct visitor {
    F& f;
    void operator()(const create_op& o) const { f(o.m.match_id); }
    void operator()(const append_op& o) const { f(o.match_id); }
    void operator()(const finish_op& o) const { f(o.match_id); }
    void operator()(const note_op& o) const { f(o.match_id); }
    void operator()(const draft_op& o) const { f(o.match_id); }
    void operator()(const tournament_op& o) const {
      for (const auto& r : o.t.t.rounds())
        for (const auto& p : r.pairings)
          for (const auto& g : p.games)
            if (!g.match_id.empty()) f(g.match_id);
    }
    void operator()(const audit_op&) const {}
  };
  std::visit(visitor{f}, op.what);
}

// Whether a write fits what is stored (view: the batch so far); as
// memory_store's checks, with the same codes.
struct checker {
  pg_writer::states& view;
  const state& of(const std::string& id) { return view[id]; }  // states_for read every id

  status operator()(const create_op& c) {
    unsigned seen = 0;
    for (const seat_record& s : c.m.seats) {
      if (!valid_seat(s.seat) || (seen & (1u << s.seat))) return status::invalid(cat("bad or duplicate seat ", s.seat));
      seen |= 1u << s.seat;
    }
    if (of(c.m.match_id).k != kind::absent) return status::conflict("the match exists already");
    return {};
  }
  status operator()(const append_op& a) {
    const state& s = of(a.match_id);
    if (s.k == kind::absent) return status::not_found("unknown match");
    if (s.k == kind::finished) return status::conflict("the match is finished");
    if (a.a.seq != s.last_seq + 1)
      return status::conflict(cat("seq ", a.a.seq, " does not follow the last seq ", s.last_seq));
    if (!valid_seat(a.a.seat)) return status::invalid(cat("bad seat ", a.a.seat));
    return {};
  }
  status operator()(const finish_op& f) {
    const state& s = of(f.match_id);
    if (s.k == kind::absent) return status::not_found("unknown match");
    if (s.k == kind::finished) return status::conflict("the match is finished already");
    return {};
  }
  status operator()(const draft_op& d) {
    const state& s = of(d.match_id);
    if (s.k == kind::absent) return status::not_found("unknown match");
    if (s.k == kind::finished) return status::conflict("the match is finished");
    std::int64_t next = s.last_draft + 1;
    for (const draft_event_record& r : d.rows) {
      if (r.seq != next++)
        return status::conflict(cat("draft seq ", r.seq, " does not follow the last draft seq ", s.last_draft));
      if (!valid_seat(r.seat)) return status::invalid(cat("bad seat ", r.seat));
      if (r.kind != "reveal" && r.kind != "pick") return status::invalid(cat("bad kind ", r.kind));
    }
    return {};
  }
  status operator()(const note_op& n) {
    return of(n.match_id).k == kind::absent ? status::not_found("unknown match") : status{};
  }
  status operator()(const tournament_op& t) {
    for (const auto& r : t.t.t.rounds())
      for (const auto& p : r.pairings)
        for (const auto& g : p.games)
          if (!g.match_id.empty() && of(g.match_id).k == kind::absent)
            return status::conflict(cat("tournament ", t.t.id, ": a game names the unknown match ", g.match_id));
    return {};
  }
  status operator()(const audit_op&) { return {}; }
};

// What a stored write changes in the view.
void applied(const write_op& op, pg_writer::states& view) {
  if (auto* c = std::get_if<create_op>(&op.what)) view[c->m.match_id] = {kind::playing, 0, 0};
  else if (auto* a = std::get_if<append_op>(&op.what)) view[a->match_id].last_seq = a->a.seq;
  else if (auto* f = std::get_if<finish_op>(&op.what)) view[f->match_id].k = kind::finished;
  else if (auto* d = std::get_if<draft_op>(&op.what)) view[d->match_id].last_draft = d->rows.back().seq;
}

// The statements of one write.
void send_write(const write_op& op, const send_fn& send) {
  struct visitor {
    const send_fn& send;
    void operator()(const create_op& c) const {
      const match_record& m = c.m;
      send("insert_match", pg::params()
                               .add(m.match_id)
                               .add(m.room_id)
                               .add(m.mode)
                               .add(m.format)
                               .add(m.options_json)
                               .add(m.rules_version)
                               .add(m.engine_version)
                               .add(std::to_string(m.seed))
                               .add(m.seed_hash)
                               .add(m.created_ms));
      for (const seat_record& s : m.seats) {
        pg::params p;
        p.add(m.match_id).add(s.seat).add(s.name).add(s.token_hash).add(s.deck_json);
        if (s.team) p.add(*s.team);
        else p.add_null();
        if (!s.champion.empty()) p.add(s.champion);
        else p.add_null();
        send("insert_seat", p.add(s.ai ? 1 : 0));
      }
    }
    void operator()(const append_op& a) const {
      send("insert_action", pg::params()
                                .add(a.match_id)
                                .add(a.a.seq)
                                .add(a.a.seat)
                                .add(a.a.action_json)
                                .add(digest_hex(a.a.digest))
                                .add(a.a.at_ms));
    }
    void operator()(const finish_op& f) const {
      send("finish", pg::params().add(f.match_id).add(f.r.ended_ms).add(seats_json(f.r.winners)).add(f.r.reason));
    }
    void operator()(const note_op& n) const {
      send("insert_note", pg::params().add(n.match_id).add(n.n.at_ms).add(n.n.text));
    }
    void operator()(const draft_op& d) const {
      for (const draft_event_record& r : d.rows)
        send("insert_draft",
             pg::params().add(d.match_id).add(r.seq).add(r.seat).add(r.kind).add(r.cards_json).add(r.at_ms));
    }
    void operator()(const tournament_op& t) const { pg::save_tournament(t.t, send); }
    void operator()(const audit_op& a) const {
      send("insert_audit",
           pg::params().add(a.r.at_ms).add(a.r.role).add(a.r.remote).add(a.r.match_id).add(a.r.route).add(a.r.target));
    }
  };
  std::visit(visitor{send}, op.what);
}

// A tournament or an audit row refused by the server for any reason is
// refused alone, as in the SQLite store: losing one must not cost the
// matches' writes of the same batch.
bool refused_on_any_error(const write_op& op) {
  return std::holds_alternative<tournament_op>(op.what) || std::holds_alternative<audit_op>(op.what);
}

}  // namespace

pg_writer::pg_writer(std::string uri) : uri_(std::move(uri)) {
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
  for (const auto& [name, sql] : statements()) conn_->prepare(name, sql);
}

pg_writer::states pg_writer::states_for(const std::vector<write_op>& batch) {
  states view;
  std::vector<std::string> unknown;
  std::unordered_set<std::string> asked;
  for (const write_op& op : batch)
    each_match(op, [&](const std::string& id) {
      if (view.count(id) || asked.count(id)) return;
      if (auto it = known_.find(id); it != known_.end()) view.emplace(id, it->second);
      else if (asked.insert(id).second) unknown.push_back(id);
    });
  if (unknown.empty()) return view;
  for (const std::string& id : unknown) view.emplace(id, state{});  // absent unless found
  const pg::result r = conn_->run("states", pg::params().add(text_array(unknown)));
  for (int i = 0; i < r.rows(); ++i)
    view[r.text(i, 0)] = {r.text(i, 1) == "playing" ? kind::playing : kind::finished, r.int64(i, 2), r.int64(i, 3)};
  return view;
}

bool pg_writer::pipelined(std::vector<write_op>& batch, states& view, std::vector<status>& out) {
  std::vector<std::pair<std::size_t, std::size_t>> finishes;  // (write, statement)
  pg::pipeline::outcome o;
  {
    pg::pipeline pl(*conn_);
    std::size_t last = 0;
    const send_fn send = [&](const std::string& name, const pg::params& p) { last = pl.send(name, p); };
    action_columns actions;
    pl.send("begin", {});
    for (std::size_t i = 0; i < batch.size(); ++i) {
      out[i] = std::visit(checker{view}, batch[i].what);
      if (!out[i]) continue;
      if (const auto* a = std::get_if<append_op>(&batch[i].what)) actions.add(*a);
      else send_write(batch[i], send);
      if (std::holds_alternative<finish_op>(batch[i].what)) finishes.emplace_back(i, last);
      applied(batch[i], view);
    }
    if (actions.rows) pl.send("insert_actions", actions.params());
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

void pg_writer::one_by_one(std::vector<write_op>& batch, states& view, std::vector<status>& out) {
  pg::conn& c = *conn_;
  c.exec("BEGIN");
  for (std::size_t i = 0; i < batch.size(); ++i) {
    out[i] = std::visit(checker{view}, batch[i].what);
    if (!out[i]) continue;
    c.exec("SAVEPOINT op");
    try {
      send_write(batch[i], [&](const std::string& name, const pg::params& p) {
        const pg::result r = c.run(name, p);
        if (name == "finish" && r.affected() != 1)
          throw pg::error("the match is finished already (by another writer)", "23000", false);
      });
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
    states view = states_for(batch);
    states before = view;
    if (!pipelined(batch, view, out)) {
      view = std::move(before);
      out.assign(batch.size(), status::ok());
      one_by_one(batch, view, out);
    }
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
