// R15: the mutation league's stages, ops and ranking. Rulings E77–E80.
#include "cod/engine/league.hpp"

#include <algorithm>

#include "hasher.hpp"

namespace cod {

namespace {

bool valid_seat(seat_t s) { return s >= 0 && s < league_players; }

}  // namespace

league_table league_pairing(int round, int table) {
  // E78: A-B C-D, A-C B-D, A-D B-C; then the same with the seats swapped.
  static constexpr seat_t pairs[3][2][2] = {{{0, 1}, {2, 3}}, {{0, 2}, {1, 3}}, {{0, 3}, {1, 2}}};
  league_table t;
  if (round < 1 || round > league_rounds || table < 0 || table >= league_tables) return t;
  const auto& p = pairs[(round - 1) % 3][table];
  const bool swapped = round > 3;
  t.seats = {swapped ? p[1] : p[0], swapped ? p[0] : p[1]};
  return t;
}

league_error league::create(const catalogue& cat, const league_config& cfg, league& out) {
  // R15.1: "two different packs".
  if (cfg.packs.size() != 2 || cfg.packs[0] == cfg.packs[1]) return league_error::bad_config;
  if (!cfg.costs.check().empty()) return league_error::bad_config;
  draft_config dc;
  dc.format = draft_format::mutation;
  dc.table = draft_table::four_players;
  dc.seed = cfg.seed;
  dc.packs = cfg.packs;
  league l;
  std::vector<draft_event> events;
  if (draft::create(cat, dc, l.draft_, events) != draft_error::ok) return league_error::bad_config;
  l.cat_ = &cat;
  l.cfg_ = cfg;
  for (int r = 1; r <= league_rounds; ++r)
    for (int t = 0; t < league_tables; ++t) l.tables_[r - 1][t] = league_pairing(r, t);
  out = std::move(l);
  return league_error::ok;
}

league_refusal league::check(const league_op& op) const {
  league_refusal r;
  auto fail = [&](league_error e) {
    r.error = e;
    return r;
  };
  switch (op.type) {
    case league_op_type::pick:
      if (stage_ != league_stage::drafting) return fail(league_error::wrong_stage);
      if ((r.draft = draft_.check(op.pick)) != draft_error::ok) return fail(league_error::draft_refused);
      return r;
    case league_op_type::choose_deck: {
      if (stage_ != league_stage::building) return fail(league_error::wrong_stage);
      if (!valid_seat(op.seat)) return fail(league_error::unknown_seat);
      if (has_deck(op.seat)) return fail(league_error::already_done);
      league_deck d;
      if ((r.mutation = make_league_deck(*cat_, drafted_[op.seat], op.cards, d)) != mutation_error::ok)
        return fail(league_error::deck_refused);
      return r;
    }
    case league_op_type::mutate:
    case league_op_type::pass: {
      if (stage_ != league_stage::mutating) return fail(league_error::wrong_stage);
      if (!valid_seat(op.seat)) return fail(league_error::unknown_seat);
      if (phase_done_[op.seat]) return fail(league_error::already_done);
      if (op.type == league_op_type::pass) return r;
      league_deck copy = decks_[op.seat];
      const mutation_refusal m = apply_mutations(cfg_.costs, copy, op.mutations);
      if (!m.ok()) {
        r.mutation = m.error;
        r.index = m.index;
        return fail(league_error::mutation_refused);
      }
      return r;
    }
    case league_op_type::result: {
      if (stage_ != league_stage::playing) return fail(league_error::wrong_stage);
      if (op.table < 0 || op.table >= league_tables) return fail(league_error::unknown_table);
      const league_table& t = tables_[round_ - 1][op.table];
      if (t.decided) return fail(league_error::result_known);
      if (op.winner != no_seat && op.winner != t.seats[0] && op.winner != t.seats[1])
        return fail(league_error::bad_result);
      return r;
    }
  }
  return fail(league_error::wrong_stage);
}

league_refusal league::legal_mutations_after(seat_t seat, const std::vector<mutation>& staged,
                                             std::vector<mutation>& out, half_points* points_left) const {
  out.clear();
  // The staged list as the op that would send it: the same refusals
  // (stage, seat, phase done, R15.4–R15.5 in order, the points).
  league_op op;
  op.type = league_op_type::mutate;
  op.seat = seat;
  op.mutations = staged;
  const league_refusal r = check(op);
  if (!r.ok()) return r;
  league_deck d = decks_[seat];
  half_points spent = 0;
  apply_mutations(cfg_.costs, d, staged, &spent);
  // R15.4: a phase is one list within its points; what the staged ones
  // spent is not there for the next.
  const half_points left = mutation_budget - spent;
  cod::legal_mutations(cfg_.costs, d, left, out);
  if (points_left) *points_left = left;
  return r;
}

league_refusal league::apply(const league_op& op) {
  league_refusal r = check(op);
  if (!r.ok()) return r;
  switch (op.type) {
    case league_op_type::pick: {
      std::vector<draft_event> events;
      draft_.apply(op.pick, events);
      if (draft_.finished()) {
        for (int s = 0; s < league_players; ++s) drafted_[s] = draft_.decks()[s];
        stage_ = league_stage::building;
      }
      break;
    }
    case league_op_type::choose_deck:
      make_league_deck(*cat_, drafted_[op.seat], op.cards, decks_[op.seat]);
      if (std::all_of(decks_.begin(), decks_.end(), [](const league_deck& d) { return !d.deck.empty(); })) {
        round_ = 1;
        start_phase();
      }
      break;
    case league_op_type::mutate:
    case league_op_type::pass:
      if (op.type == league_op_type::mutate) {
        apply_mutations(cfg_.costs, decks_[op.seat], op.mutations);
        for (const mutation& m : op.mutations)
          mutations_.push_back({round_, op.seat, m, mutation_cost(cfg_.costs, m)});
      }
      phase_done_[op.seat] = true;
      if (std::all_of(phase_done_.begin(), phase_done_.end(), [](bool b) { return b; })) stage_ = league_stage::playing;
      break;
    case league_op_type::result: {
      league_table& t = tables_[round_ - 1][op.table];
      t.decided = true;
      t.winner = op.winner;
      const auto& row = tables_[round_ - 1];
      if (std::all_of(row.begin(), row.end(), [](const league_table& x) { return x.decided; })) {
        if (round_ == league_rounds) {
          stage_ = league_stage::finished;  // R15.7: no more mutations
        } else {
          ++round_;
          start_phase();
        }
      }
      break;
    }
  }
  ops_.push_back(op);
  return r;
}

void league::start_phase() {
  // R15.4: a mutation phase before each of a player's matches (one a round).
  stage_ = league_stage::mutating;
  phase_done_.fill(false);
}

std::vector<league_standing> league::standings() const {
  std::vector<league_standing> out(league_players);
  for (int s = 0; s < league_players; ++s) out[s].seat = static_cast<seat_t>(s);
  for (const auto& row : tables_)
    for (const league_table& t : row) {
      if (!t.decided) continue;
      for (seat_t s : t.seats) ++out[s].played;
      if (t.winner != no_seat) ++out[t.winner].won;
    }
  // R15.7: by matches won; tied players share the place.
  for (auto& a : out) {
    a.place = 1;
    for (const auto& b : out)
      if (b.won > a.won) ++a.place;
  }
  std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.place < b.place; });
  return out;
}

league::match_setup league::match_cards(int round, int t) const {
  match_setup m;
  if (round < 1 || round > league_rounds || t < 0 || t >= league_tables) return m;
  const league_table& table = tables_[round - 1][t];
  for (int i = 0; i < 2; ++i)
    for (const league_card& c : decks_[table.seats[i]].deck) {
      m.decks[i].push_back(c.id);
      m.cards.push_back(mutated_def(*cat_, c));
    }
  // E80: one generator per duel, from the league's seed and the duel's place.
  rng r(cfg_.seed ^ (0x9E3779B97F4A7C15ULL * static_cast<std::uint64_t>(round * league_tables + t + 1)));
  m.seed = r.next();
  return m;
}

std::uint64_t league::digest() const {
  detail::hasher x;
  x.add(static_cast<std::uint64_t>(stage_) | static_cast<std::uint64_t>(round_) << 8);
  x.add(draft_.digest());
  for (int s = 0; s < league_players; ++s) {
    x.add(drafted_[s]);
    for (const league_card& c : decks_[s].deck)
      x.add(static_cast<std::uint64_t>(c.id) | static_cast<std::uint64_t>(static_cast<std::uint8_t>(c.stats.mana)) << 16 |
            static_cast<std::uint64_t>(static_cast<std::uint8_t>(c.stats.av)) << 24 |
            static_cast<std::uint64_t>(static_cast<std::uint8_t>(c.stats.hp)) << 32 |
            static_cast<std::uint64_t>(c.stats.av_is_x) << 40 | static_cast<std::uint64_t>(c.mana_mutated) << 41 |
            static_cast<std::uint64_t>(c.av_mutated) << 42 | static_cast<std::uint64_t>(c.hp_mutated) << 43);
    for (const league_card& c : decks_[s].deck)
      x.add(static_cast<std::uint64_t>(c.stats.abilities) | static_cast<std::uint64_t>(c.stats.auras) << 32);
    for (const league_card& c : decks_[s].deck)
      x.add(static_cast<std::uint64_t>(c.pasted) | static_cast<std::uint64_t>(c.pasted_auras) << 32);
    for (const lab_card& c : decks_[s].lab)
      x.add(static_cast<std::uint64_t>(c.id) | static_cast<std::uint64_t>(c.mana_used) << 16 |
            static_cast<std::uint64_t>(c.av_used) << 17 | static_cast<std::uint64_t>(c.hp_used) << 18 |
            static_cast<std::uint64_t>(c.used) << 19);
    for (const lab_card& c : decks_[s].lab) x.add(c.used_auras);
    x.add(phase_done_[s]);
  }
  for (const auto& row : tables_)
    for (const league_table& t : row)
      x.add(static_cast<std::uint64_t>(t.seats[0] + 1) | static_cast<std::uint64_t>(t.seats[1] + 1) << 8 |
            static_cast<std::uint64_t>(t.winner + 1) << 16 | static_cast<std::uint64_t>(t.decided) << 24);
  return x.h;
}

league_refusal replay_league(const catalogue& cat, const league_config& cfg, const std::vector<league_op>& ops,
                             league& out, int& failed_at) {
  failed_at = -1;
  league_refusal r;
  if ((r.error = league::create(cat, cfg, out)) != league_error::ok) return r;
  for (std::size_t i = 0; i < ops.size(); ++i) {
    r = out.apply(ops[i]);
    if (!r.ok()) {
      failed_at = static_cast<int>(i);
      return r;
    }
  }
  return r;
}

}  // namespace cod
