#include "arena/play.hpp"

#include <bit>
#include <chrono>
#include <ctime>
#include <stdexcept>
#include <string>

#include "arena/deal.hpp"
#include "cod/engine/match.hpp"
#include "cod/engine/rng.hpp"

namespace cod::arena {

namespace {

// With a time budget the iteration budget is only a ceiling. Kept moderate:
// run_ismcts reserves a tree node per iteration up front.
constexpr int time_budget_iterations = 200000;

// The bits of the party `seat` belongs to.
unsigned party_of(game_mode mode, int seat, int seats) {
  if (mode != game_mode::two_vs_two) return 1u << seat;
  unsigned bits = 0;
  for (int s = seat % 2; s < seats; s += 2) bits |= 1u << s;
  return bits;
}

void score_game(game_mode mode, int seats, const match& m, unsigned a_seats, game_record& g) {
  const int sides = sides_of(mode);
  const unsigned winners = m.over() ? m.winners() : 0u;
  if (winners == 0) {  // cut by the cap (or an end with no winner): the even share
    g.outcome = result::draw;
    g.score = 1.0 / sides;
    return;
  }
  // Parties among the winners (a shared win is split), and whether A's is one.
  const unsigned mine = party_of(mode, std::countr_zero(a_seats), seats);
  unsigned counted = 0;
  int parties = 0;
  for (int s = 0; s < seats; ++s)
    if ((winners >> s) & 1u && !(counted & (1u << s))) {
      counted |= party_of(mode, s, seats);
      ++parties;
    }
  if (!(winners & mine)) {
    g.outcome = result::loss;
    g.score = 0;
  } else {
    g.outcome = parties == 1 ? result::win : result::draw;
    g.score = 1.0 / parties;
  }
}

double thread_cpu_ms() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) / 1e6;
}

std::uint64_t decision_seed(std::uint64_t policy_seed, int ply) {
  std::uint64_t x = policy_seed + static_cast<std::uint64_t>(ply) * 0x9E3779B97F4A7C15ULL;
  return rng::splitmix64(x);
}

}  // namespace

int sides_of(game_mode mode) { return mode == game_mode::ffa ? 4 : 2; }

game_record play_game(const catalogue& cat, const match_config& cfg, unsigned a_seats, const player_spec& a,
                      const player_spec& b, std::uint64_t policy_seed, const play_options& o) {
  using clock = std::chrono::steady_clock;
  game_record g;
  match m;
  std::vector<event> events;
  if (match::create(cat, cfg, m, events) != rule_error::ok) throw std::runtime_error("the deal was refused");
  const search::table known = dealer::table_of(cfg);
  search::settings settings[2] = {a.settings, b.settings};
  if (o.time_ms > 0)
    for (auto& s : settings)
      if (s.kind == search::policy::search || s.kind == search::policy::all_seeing) s.iterations = time_budget_iterations;
  while (!m.over() && g.actions < o.max_actions) {
    const seat_t me = m.active_seat();
    const int who = (a_seats >> me) & 1u ? 0 : 1;
    const player_spec& p = who == 0 ? a : b;
    const std::uint64_t seed = decision_seed(policy_seed, g.actions);
    const seat_view v = m.view(me);
    const double cpu_start = thread_cpu_ms();
    const auto start = clock::now();
    search::stop_check stop;
    if (o.time_ms > 0) {
      const auto deadline = start + std::chrono::milliseconds(o.time_ms);
      stop = [deadline] { return clock::now() >= deadline; };
    }
    const search::decision d = p.all_seeing ? search::decide_all_seeing(m, settings[who], seed, stop)
                                            : search::decide(cat, v, known, settings[who], seed, stop);
    g.ms[who].push_back(std::chrono::duration<float, std::milli>(clock::now() - start).count());
    g.cpu_ms[who] += thread_cpu_ms() - cpu_start;
    events.clear();
    if (m.apply(d.chosen, events) != rule_error::ok)
      throw std::runtime_error("an illegal decision by " + p.name + " at action " + std::to_string(g.actions));
    ++g.actions;
  }
  g.cut = !m.over();
  g.digest = m.digest();
  score_game(cfg.mode, cfg.seat_count, m, a_seats, g);
  return g;
}

}  // namespace cod::arena
