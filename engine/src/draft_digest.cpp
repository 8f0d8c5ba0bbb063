// The draft's digest and replay (R16.1): equal digests after every pick are
// how a recorded draft is verified.
#include "cod/engine/draft.hpp"
#include "hasher.hpp"

namespace cod {

using detail::hasher;

std::uint64_t draft::digest() const {
  const draft_state& s = s_;
  hasher x;
  x.add(static_cast<std::uint64_t>(s.format) | static_cast<std::uint64_t>(s.table) << 8 |
        static_cast<std::uint64_t>(s.seat_count) << 16 | std::uint64_t{s.finished} << 24);
  for (std::uint64_t w : s.random.words()) x.add(w);
  x.add(s.pool);
  x.add(s.pile);
  x.add(s.offer);
  x.add(static_cast<std::uint64_t>(s.pile_next) | static_cast<std::uint64_t>(s.step) << 16 |
        static_cast<std::uint64_t>(s.round) << 32 | static_cast<std::uint64_t>(s.schedule.size()) << 48);
  for (const draft_step& st : s.schedule)
    x.add(static_cast<std::uint64_t>(st.type) | static_cast<std::uint64_t>(st.seat + 1) << 8 |
          static_cast<std::uint64_t>(st.target + 1) << 16 | static_cast<std::uint64_t>(st.count) << 24);
  for (int seat = 0; seat < s.seat_count; ++seat) {
    const draft_seat_state& st = s.seats[seat];
    x.add(st.taken);
    x.add(st.list);
    x.add(st.banned);
    x.add(static_cast<std::uint64_t>(st.deck) | std::uint64_t{st.submitted} << 8 | std::uint64_t{st.revealed} << 9);
    x.add(s.decks[seat]);
    if (s.format == draft_format::mutation) x.add(st.packet);  // other formats' digests unchanged
  }
  x.add(s.ai_cards);
  x.add(s.match_seed);
  return x.h;
}

draft_error replay_draft(const catalogue& cat, const draft_config& cfg, const std::vector<draft_pick>& picks,
                         draft& out, int& failed_at, std::vector<std::uint64_t>* digests) {
  failed_at = -1;
  std::vector<draft_event> events;
  if (auto e = draft::create(cat, cfg, out, events); e != draft_error::ok) return e;
  if (digests) digests->push_back(out.digest());
  for (std::size_t i = 0; i < picks.size(); ++i) {
    if (auto e = out.apply(picks[i], events); e != draft_error::ok) {
      failed_at = static_cast<int>(i);
      return e;
    }
    if (digests) digests->push_back(out.digest());
  }
  return draft_error::ok;
}

}  // namespace cod
