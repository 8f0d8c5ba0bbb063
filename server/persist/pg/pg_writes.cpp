#include "persist/pg/pg_writes.hpp"

#include "common/strcat.hpp"
#include "common/text_forms.hpp"
#include "persist/pg/pg_fence.hpp"

namespace cod::server::detail {

namespace {

void add_int(std::string& out, std::int64_t v) {
  if (out.size() > 1) out += ',';
  out += std::to_string(v);
}

}  // namespace

const std::vector<std::pair<std::string, std::string>>& write_statements() {
  static const std::vector<std::pair<std::string, std::string>> list = [] {
    std::vector<std::pair<std::string, std::string>> l = {
        {"begin", "BEGIN"},
        {"commit", "COMMIT"},
        {"states",
         "SELECT m.match_id, m.status, "
         "COALESCE((SELECT MAX(seq) FROM match_actions a WHERE a.match_id = m.match_id), 0), "
         "COALESCE((SELECT MAX(seq) FROM draft_events d WHERE d.match_id = m.match_id), 0), m.room_id, m.rated "
         "FROM matches m WHERE m.match_id = ANY($1::text[])"},
        {"insert_match",
         "INSERT INTO matches (match_id, room_id, mode, format, options_json, rules_version, engine_version, "
         "seed, seed_hash, created_ms, status, cards_json, rated) "
         "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 'playing', $11, $12)"},
        {"insert_seat",
         "INSERT INTO match_seats (match_id, seat, name, token_hash, deck_json, team, champion, ai, account_id) "
         "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)"},
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
                               .add(m.cards_json)
                               .add(m.rated ? 1 : 0));
      for (const seat_record& s : m.seats) {
        pg::params p;
        p.add(m.match_id).add(s.seat).add(s.name).add(s.token_hash).add(s.deck_json);
        if (s.team) p.add(*s.team);
        else p.add_null();
        if (!s.champion.empty()) p.add(s.champion);
        else p.add_null();
        p.add(s.ai ? 1 : 0);
        if (s.account_id != 0) p.add(s.account_id);
        else p.add_null();
        send("insert_seat", p);
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

bool refused_on_any_error(const write_op& op) {
  return std::holds_alternative<tournament_op>(op.what) || std::holds_alternative<audit_op>(op.what) ||
         std::holds_alternative<league_save_op>(op.what);
}

void action_columns::add(const append_op& a) {
  pg::add_array_text(match_id_, a.match_id);
  add_int(seq_, a.a.seq);
  add_int(seat_, a.a.seat);
  pg::add_array_text(action_json_, a.a.action_json);
  pg::add_array_text(digest_, digest_hex(a.a.digest));
  add_int(at_ms_, a.a.at_ms);
  ++rows_;
}

pg::params action_columns::params() const {
  pg::params p;
  p.add(match_id_ + "}").add(seq_ + "}").add(seat_ + "}").add(action_json_ + "}").add(digest_ + "}");
  return p.add(at_ms_ + "}");
}

}  // namespace cod::server::detail
