#include "arena/tally.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "arena/stats.hpp"

namespace cod::arena {

void tally::add_group(const std::vector<game_record>& records, std::size_t first, int size) {
  double group_score = 0;
  for (int k = 0; k < size; ++k) {
    const game_record& g = records[first + static_cast<std::size_t>(k)];
    ++games;
    wins += g.outcome == result::win;
    losses += g.outcome == result::loss;
    draws += g.outcome == result::draw;
    cut += g.cut;
    score += g.score;
    group_score += g.score;
    actions += g.actions;
    checksum = (checksum ^ g.digest) * 0x100000001B3ULL + (first + static_cast<std::size_t>(k));
    for (int p = 0; p < 2; ++p) {
      ms[p].insert(ms[p].end(), g.ms[p].begin(), g.ms[p].end());
      cpu_ms[p] += g.cpu_ms[p];
    }
  }
  if (mode == game_mode::duel && size == 2)
    pairs[std::clamp(static_cast<int>(std::lround(group_score * 2)), 0, 4)] += 1;
  else
    groups[group_score / size] += 1;
}

double tally::llr(double s0, double s1) const {
  if (mode == game_mode::duel) return arena::llr(pentanomial(pairs), s0, s1);
  std::vector<outcome> o;
  for (const auto& [value, count] : groups) o.push_back({value, count});
  return arena::llr(regularize(o), s0, s1);
}

namespace {

std::string signed_elo(double e) {
  if (std::isinf(e)) return e > 0 ? "+inf" : "-inf";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%+.0f", e);
  return buf;
}

void print_times(const char* who, const std::string& name, std::vector<float> v, double cpu_ms) {
  if (v.empty()) {
    std::printf("  %s %-22s no decisions\n", who, name.c_str());
    return;
  }
  std::sort(v.begin(), v.end());
  double sum = 0;
  for (float x : v) sum += x;
  // Nearest rank: the smallest time at least q of the decisions took no longer than.
  auto at = [&](double q) { return v[std::min(v.size() - 1, static_cast<std::size_t>(std::ceil(q * v.size())) - 1)]; };
  const double n = static_cast<double>(v.size());
  std::printf("  %s %-22s %8zu decisions  mean %8.3f  p50 %8.3f  p99 %8.3f  max %8.3f ms  (cpu mean %.3f)\n", who,
              name.c_str(), v.size(), sum / n, at(0.50), at(0.99), v.back(), cpu_ms / n);
}

}  // namespace

void print_report(const tally& t, const report_header& h) {
  const int sides = sides_of(t.mode);
  const double n = static_cast<double>(t.games);
  std::printf("arena        A = %s, B = %s\n", h.a.c_str(), h.b.c_str());
  std::printf("setting      %s; groups of %d games on the same deal (docs/ai-arena.md)\n", h.setting.c_str(),
              h.group_size);
  std::printf("games        %ld (%lld actions, %.1f per game)\n", t.games, t.actions, t.actions / std::max(1.0, n));
  std::printf("A            %ld won, %ld lost, %ld drawn (of which %ld cut at %d actions: a cut game is a draw)\n",
              t.wins, t.losses, t.draws, t.cut, h.max_actions);
  const interval s = wilson(t.score, n);
  std::printf("score        %.1f%% [%.1f%%, %.1f%%] (A's share of the wins, a draw %s; 95%% Wilson)\n",
              100 * t.score / std::max(1.0, n), 100 * s.low, 100 * s.high, sides == 2 ? "a half" : "a quarter");
  const char* model = t.mode == game_mode::duel ? "A - B"
                      : t.mode == game_mode::ffa ? "A - B, Luce model: A wins with g_A / (g_A + 3 g_B)"
                                                 : "team A+B - team B+B";
  std::printf("elo          %s [%s, %s] (%s; from the score and its interval)\n",
              signed_elo(elo_from_score(t.score / std::max(1.0, n), sides)).c_str(),
              signed_elo(elo_from_score(s.low, sides)).c_str(), signed_elo(elo_from_score(s.high, sides)).c_str(),
              model);
  if (seats_of(t.mode) == 4) {
    const interval w = wilson(static_cast<double>(t.wins), n);
    std::printf("win rate     %.1f%% [%.1f%%, %.1f%%] against chance %.0f%% (%s)\n", 100 * t.wins / std::max(1.0, n),
                100 * w.low, 100 * w.high, 100.0 / sides,
                t.mode == game_mode::ffa ? "A alone won" : "A's team won, with a B partner");
  }
  std::printf("decisions    wall ms per decision around decide(), --threads %d on this machine; cpu: the deciding\n"
              "             thread's CPU time (wall includes waiting for a core)\n",
              h.threads);
  print_times("A", h.a, t.ms[0], t.cpu_ms[0]);
  print_times("B", h.b, t.ms[1], t.cpu_ms[1]);
  if (h.time_ms > 0)
    std::printf("budget       %d ms a decision: the moves depend on this machine and its load\n", h.time_ms);
  std::printf("checksum     %016llx (the final digests in game order%s)\n",
              static_cast<unsigned long long>(t.checksum),
              h.time_ms > 0 ? "" : ": the same for any --threads");
  std::printf("time         %.1f s wall\n", h.wall_seconds);
}

}  // namespace cod::arena
