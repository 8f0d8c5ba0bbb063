// history (docs/protocol.md): the match so far as one connection may see it,
// so that a page reloaded or reconnected can tell again what happened. The
// room keeps the match as created and the actions applied since; the events
// are replayed from them on request (the engine is deterministic: the same
// actions give the same events) and redacted for the recipient as the
// updates were.
#include <algorithm>

#include "room/room.hpp"

namespace cod::server {

namespace pr = cod::protocol;

void room::do_history(const std::shared_ptr<peer>& c, const pr::history_msg& m) {
  const int seat = seat_of(c->id());
  const bool watching = seat < 0 && is_spectator(c->id());
  if (seat < 0 && !watching) {
    c->send(pr::make_error(m.id, pr::session_errc::not_in_room));
    c->detach(this);
    return;
  }
  if (!start_ || status_ == status::waiting || status_ == status::starting || status_ == status::drafting) {
    c->send(pr::make_error(m.id, pr::session_errc::match_not_started,
                            "the match has not started: there is no history yet"));
    return;
  }
  const seat_t viewer = watching ? spectator : static_cast<seat_t>(seat);
  // A delayed spectator (tournaments) sees what the feed has released.
  std::int64_t last = seq_;
  if (watching && feed_) last -= static_cast<std::int64_t>(feed_->held());
  const std::int64_t first = std::max(m.from_seq, last + 1 - pr::max_history_entries);

  std::vector<pr::history_entry> entries;
  if (first <= 0) entries.push_back({0, pr::events_to_json(start_events_, viewer, cards(), uid_cards_)});
  match replay = *start_;
  std::vector<event> events;
  for (std::int64_t s = 1; s <= last; ++s) {
    events.clear();
    // Applied once already: it cannot be refused now.
    if (replay.apply(applied_[static_cast<std::size_t>(s - 1)], events) != rule_error::ok) {
      c->send(pr::make_error(m.id, pr::session_errc::internal_error, "the match's history does not replay"));
      return;
    }
    if (s >= first) entries.push_back({s, pr::events_to_json(events, viewer, cards(), uid_cards_)});
  }
  c->send(to_message(pr::make_history(m.id, p_.id, last, std::move(entries))));
}

}  // namespace cod::server
