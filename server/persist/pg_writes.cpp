#include "persist/pg_writes.hpp"

#include "common/strcat.hpp"
#include "common/text_forms.hpp"
#include "persist/pg_fence.hpp"

namespace cod::server::detail {

namespace {

using kind = match_state::kind;
using state = match_state;

bool valid_seat(int s) { return s >= 0 && s <= 3; }

// Appends one element to a PostgreSQL array literal being built ("{" so far).
void add_text(std::string& out, std::string_view s) {
  out += out.size() > 1 ? ",\"" : "\"";
  for (char ch : s) {
    if (ch == '"' || ch == '\\') out += '\\';
    out += ch;
  }
  out += '"';
}

void add_int(std::string& out, std::int64_t v) {
  if (out.size() > 1) out += ',';
  out += std::to_string(v);
}

// check_write, one kind of write at a time.
struct checker {
  match_states& view;
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
  status operator()(const league_save_op&) { return {}; }
};

}  // namespace

const std::vector<std::pair<std::string, std::string>>& write_statements() {
  static const std::vector<std::pair<std::string, std::string>> list = [] {
    std::vector<std::pair<std::string, std::string>> l = {
        {"begin", "BEGIN"},
        {"commit", "COMMIT"},
        {"states",
         "SELECT m.match_id, m.status, "
         "COALESCE((SELECT MAX(seq) FROM match_actions a WHERE a.match_id = m.match_id), 0), "
         "COALESCE((SELECT MAX(seq) FROM draft_events d WHERE d.match_id = m.match_id), 0), m.room_id "
         "FROM matches m WHERE m.match_id = ANY($1::text[])"},
        {"insert_match",
         "INSERT INTO matches (match_id, room_id, mode, format, options_json, rules_version, engine_version, "
         "seed, seed_hash, created_ms, status, cards_json) "
         "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 'playing', $11)"},
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
        {"upsert_league",
         "INSERT INTO leagues (league_id, name, created_ms, finished, record_json) VALUES ($1, $2, $3, $4, $5) "
         "ON CONFLICT (league_id) DO UPDATE SET name = excluded.name, finished = excluded.finished, "
         "record_json = excluded.record_json"},
    };
    for (const auto& s : pg::tournament_statements()) l.push_back(s);
    l.push_back(lock_statement());
    return l;
  }();
  return list;
}

status check_write(const write_op& op, match_states& view) { return std::visit(checker{view}, op.what); }

void applied(const write_op& op, match_states& view) {
  if (auto* c = std::get_if<create_op>(&op.what)) view[c->m.match_id] = {kind::playing, 0, 0, c->m.room_id};
  else if (auto* a = std::get_if<append_op>(&op.what)) view[a->match_id].last_seq = a->a.seq;
  else if (auto* f = std::get_if<finish_op>(&op.what)) view[f->match_id].k = kind::finished;
  else if (auto* d = std::get_if<draft_op>(&op.what)) view[d->match_id].last_draft = d->rows.back().seq;
}

void send_write(const write_op& op, const pg::send_fn& send) {
  struct visitor {
    const pg::send_fn& send;
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
                               .add(m.created_ms)
                               .add(m.cards_json));
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
    void operator()(const league_save_op& o) const {
      send("upsert_league", pg::params()
                                .add(o.l.id)
                                .add(o.l.name)
                                .add(o.l.created_ms)
                                .add(o.l.finished ? 1 : 0)
                                .add(o.l.record_json));
    }
  };
  std::visit(visitor{send}, op.what);
}

// A tournament or an audit row refused by the server for any reason is

bool refused_on_any_error(const write_op& op) {
  return std::holds_alternative<tournament_op>(op.what) || std::holds_alternative<audit_op>(op.what) ||
         std::holds_alternative<league_save_op>(op.what);
}

std::string text_array(const std::vector<std::string>& v) {
  std::string out = "{";
  for (const std::string& s : v) add_text(out, s);
  return out + "}";
}

void action_columns::add(const append_op& a) {
  add_text(match_id_, a.match_id);
  add_int(seq_, a.a.seq);
  add_int(seat_, a.a.seat);
  add_text(action_json_, a.a.action_json);
  add_text(digest_, digest_hex(a.a.digest));
  add_int(at_ms_, a.a.at_ms);
  ++rows_;
}

pg::params action_columns::params() const {
  pg::params p;
  p.add(match_id_ + "}").add(seq_ + "}").add(seat_ + "}").add(action_json_ + "}").add(digest_ + "}");
  return p.add(at_ms_ + "}");
}

}  // namespace cod::server::detail
