#include "persist/pg/pg_fence.hpp"

#include "common/strcat.hpp"

namespace cod::server::detail {

namespace {

// The room a write is for, when it is a room's write: a create names it, the
// others through their match (view, read by the batch).
const std::string* room_of(const write_op& op, const match_states& view) {
  auto by_match = [&view](const std::string& id) -> const std::string* {
    auto it = view.find(id);
    return it == view.end() || it->second.k == match_state::kind::absent ? nullptr : &it->second.room_id;
  };
  if (const auto* c = std::get_if<create_op>(&op.what)) return &c->m.room_id;
  if (const auto* a = std::get_if<append_op>(&op.what)) return by_match(a->match_id);
  if (const auto* f = std::get_if<finish_op>(&op.what)) return by_match(f->match_id);
  if (const auto* d = std::get_if<draft_op>(&op.what)) return by_match(d->match_id);
  if (const auto* n = std::get_if<note_op>(&op.what)) return by_match(n->match_id);
  // A tournament's or league's lease row is named by its id (docs/cluster.md,
  // "Tournaments and leagues").
  if (const auto* t = std::get_if<tournament_op>(&op.what)) return &t->t.id;
  if (const auto* l = std::get_if<league_save_op>(&op.what)) return &l->l.id;
  return nullptr;  // audit
}

}  // namespace

const std::pair<std::string, std::string>& lock_statement() {
  static const std::pair<std::string, std::string> s = {
      "lock_leases",
      "SELECT l.room_id FROM room_leases l WHERE l.node_id = $1 AND (l.room_id = ANY($2::text[]) OR l.room_id IN "
      "(SELECT m.room_id FROM matches m WHERE m.match_id = ANY($3::text[]))) ORDER BY l.room_id FOR SHARE"};
  return s;
}

pg::params lock_params(const std::vector<write_op>& batch, const std::string& node_id) {
  std::vector<std::string> rooms, matches;
  for (const write_op& op : batch) {
    if (const auto* c = std::get_if<create_op>(&op.what)) rooms.push_back(c->m.room_id);
    else if (const auto* t = std::get_if<tournament_op>(&op.what)) rooms.push_back(t->t.id);
    else if (const auto* l = std::get_if<league_save_op>(&op.what)) rooms.push_back(l->l.id);
    else if (!std::holds_alternative<audit_op>(op.what))
      each_match(op, [&](const std::string& id) { matches.push_back(id); });
  }
  return pg::params().add(node_id).add(pg::text_array(rooms)).add(pg::text_array(matches));
}

status check_fence(const write_op& op, const match_states& view, const fence& f) {
  if (!f.on()) return {};
  const std::string* room = room_of(op, view);
  if (!room || f.held.count(*room)) return {};
  const char* what = std::holds_alternative<tournament_op>(op.what)    ? "tournament "
                     : std::holds_alternative<league_save_op>(op.what) ? "league "
                                                                        : "room ";
  return status::conflict(cat("node ", f.node_id, " does not hold the lease of ", what, *room,
                              " (taken over by another node, released, or never claimed): the write is fenced off"));
}

}  // namespace cod::server::detail
