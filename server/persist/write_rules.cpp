#include "persist/write_rules.hpp"

#include "common/strcat.hpp"

namespace cod::server::detail {

namespace {

using kind = match_state::kind;

bool valid_seat(int s) { return s >= 0 && s <= 3; }

// check_write, one kind of write at a time.
struct checker {
  match_states& view;
  const match_state& of(const std::string& id) { return view[id]; }

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
    const match_state& s = of(a.match_id);
    if (s.k == kind::absent) return status::not_found("unknown match");
    if (s.k == kind::finished) return status::conflict("the match is finished");
    if (a.a.seq != s.last_seq + 1)
      return status::conflict(cat("seq ", a.a.seq, " does not follow the last seq ", s.last_seq));
    if (!valid_seat(a.a.seat)) return status::invalid(cat("bad seat ", a.a.seat));
    return {};
  }
  status operator()(const finish_op& f) {
    const match_state& s = of(f.match_id);
    if (s.k == kind::absent) return status::not_found("unknown match");
    if (s.k == kind::finished) return status::conflict("the match is finished already");
    return {};
  }
  status operator()(const draft_op& d) {
    const match_state& s = of(d.match_id);
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

status check_write(const write_op& op, match_states& view) { return std::visit(checker{view}, op.what); }

void applied(const write_op& op, match_states& view) {
  if (auto* c = std::get_if<create_op>(&op.what)) view[c->m.match_id] = {kind::playing, 0, 0, c->m.room_id, c->m.rated};
  else if (auto* a = std::get_if<append_op>(&op.what)) view[a->match_id].last_seq = a->a.seq;
  else if (auto* f = std::get_if<finish_op>(&op.what)) view[f->match_id].k = kind::finished;
  else if (auto* d = std::get_if<draft_op>(&op.what)) {
    if (!d->rows.empty()) view[d->match_id].last_draft = d->rows.back().seq;
  }
}

}  // namespace cod::server::detail
