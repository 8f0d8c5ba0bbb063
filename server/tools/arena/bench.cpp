#include "arena/bench.hpp"

#include <chrono>
#include <stdexcept>

#include "arena/deal.hpp"
#include "cod/engine/match.hpp"
#include "cod/search/player.hpp"
#include "self_play.hpp"

namespace cod::arena {

namespace {

void mix(std::uint64_t& h, std::uint64_t x) { h = (h ^ x) * 0x100000001B3ULL; }

void mix(std::uint64_t& h, const search::decision& d) {
  const action& a = d.chosen;
  mix(h, static_cast<std::uint64_t>(a.type));
  mix(h, static_cast<std::uint64_t>(a.seat));
  mix(h, a.card);
  mix(h, static_cast<std::uint64_t>(a.line + 1));
  mix(h, a.target);
  mix(h, a.host);
  mix(h, static_cast<std::uint64_t>(d.iterations));
  mix(h, static_cast<std::uint64_t>(d.legal));
}

// Position k of `mode`: random catalogue decks (Champions in odd k, R9 when
// k % 3 == 0), then (7k mod 23) random legal actions; the game must not be over.
bool position(const catalogue& cat, game_mode mode, std::uint64_t seed, int k, match& m, search::table& known) {
  deal_options o;
  o.mode = mode;
  o.catalogue_decks = true;
  o.champions = k % 2 == 1;
  o.exhaustion = k % 3 == 0 ? 1 : 0;
  o.seed = seed;
  const match_config cfg = dealer(cat, o).deal(static_cast<std::uint64_t>(k));
  std::vector<event> events;
  if (match::create(cat, cfg, m, events) != rule_error::ok) throw std::runtime_error("the bench's deal was refused");
  known = dealer::table_of(cfg);
  rng r = self_play::player_rng(cfg.seed);
  std::vector<action> legal;
  for (int i = 0; i < (7 * k) % 23 && !m.over(); ++i) {
    m.legal_actions(legal);
    events.clear();
    m.apply(legal[r.below(legal.size())], events);
  }
  return !m.over();
}

}  // namespace

bench_result run_bench(const catalogue& cat, const bench_options& o) {
  using clock = std::chrono::steady_clock;
  bench_result out;
  std::uint64_t h = 0xCBF29CE484222325ULL;
  for (game_mode mode : {game_mode::duel, game_mode::ffa, game_mode::two_vs_two})
    for (int k = 0; k < o.positions; ++k) {
      match m;
      search::table known;
      if (!position(cat, mode, o.seed, k, m, known)) {
        mix(h, 0xDEADu);  // a game over before the position: still part of the signature
        continue;
      }
      const seat_view v = m.view(m.active_seat());
      const auto seed = static_cast<std::uint64_t>(k) * 1000003u + static_cast<std::uint64_t>(mode);
      auto timed = [&](int slot, auto&& call) {
        const auto start = clock::now();
        const search::decision d = call();
        out.seconds[slot] += std::chrono::duration<double>(clock::now() - start).count();
        mix(h, d);
        ++out.decisions;
      };
      search::settings s;
      s.kind = search::policy::random;
      timed(0, [&] { return search::decide(cat, v, known, s, seed); });
      s.kind = search::policy::greedy;
      timed(1, [&] { return search::decide(cat, v, known, s, seed); });
      s.kind = search::policy::search;
      for (int budget : o.budgets) {
        s.iterations = budget;
        timed(2, [&] { return search::decide(cat, v, known, s, seed); });
      }
      s.iterations = o.budgets.empty() ? 100 : o.budgets.front();
      s.kind = search::policy::all_seeing;
      timed(3, [&] { return search::decide_all_seeing(m, s, seed); });
    }
  out.digest = h;
  return out;
}

}  // namespace cod::arena
