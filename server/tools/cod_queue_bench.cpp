// cod-queue-bench: the matchmaking queue's numbers (docs/queue.md,
// "Numbers"; issue 28). A benchmark, not a test: it prints, it asserts
// nothing (the targets are printed beside the figures).
//
//   cod-queue-bench [--tickets N] [--runs R] [--seed S] [window options]
//     One wave over N waiting tickets (default 10,000; ratings ~N(1500, 300),
//     waits spread over the last 10 s, one address each) for each mode:
//     the median, fastest and slowest wave of R fresh pools (default 7),
//     timed on one thread.
//
//   cod-queue-bench --simulate [--rate PER_MIN] [--minutes M] [--seed S] [window options]
//     A simulated clock: Poisson arrivals, PER_MIN new searches a minute in
//     each mode (default 200), each a new player rated ~N(1500, 300); 2v2
//     arrivals are a party of two one time in four. Waves run when
//     matchmaker::next_wave_due says. Measured over M minutes (default 60)
//     after 2 minutes of warm-up; searches that began in those M minutes are
//     followed until matched (arrivals go on 5 more minutes). Prints the time
//     to match, the duels' rating gap, the tables' spread (and 2v2 teams'
//     imbalance), and the mean number searching.
//
//   window options (the defaults are queue_params{}):
//     --duel-window BASE,PER_SEC,MAX  --table-window BASE,PER_SEC,MAX
//     --interval MS  --eager N  --spacing MS
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "queue/matchmaker.hpp"
#include "queue/parties.hpp"

namespace {

using namespace cod::queue;

struct options {
  bool simulate = false;
  int tickets = 10'000;
  int runs = 7;
  double rate_per_min = 200;
  double minutes = 60;
  std::uint64_t seed = 1;
  queue_params params;
};

void usage(std::FILE* to) {
  std::fputs(
      "usage: cod-queue-bench [--tickets N] [--runs R] [--seed S] [window options]\n"
      "       cod-queue-bench --simulate [--rate PER_MIN] [--minutes M] [--seed S] [window options]\n"
      "window options: --duel-window BASE,PER_SEC,MAX --table-window BASE,PER_SEC,MAX\n"
      "                --interval MS --eager N --spacing MS\n",
      to);
}

bool parse_window(const std::string& v, window_params& w) {
  return std::sscanf(v.c_str(), "%lf,%lf,%lf", &w.base, &w.per_second, &w.max) == 3;
}

bool parse_args(int argc, char** argv, options& o) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    if (a == "-h" || a == "--help") {
      usage(stdout);
      std::exit(0);
    }
    if (a == "--simulate") {
      o.simulate = true;
      continue;
    }
    if (i + 1 >= argc) return false;
    const std::string v = argv[++i];
    char* end = nullptr;
    if (a == "--tickets") o.tickets = static_cast<int>(std::strtol(v.c_str(), &end, 10));
    else if (a == "--runs") o.runs = static_cast<int>(std::strtol(v.c_str(), &end, 10));
    else if (a == "--seed") o.seed = std::strtoull(v.c_str(), &end, 10);
    else if (a == "--rate") o.rate_per_min = std::strtod(v.c_str(), &end);
    else if (a == "--minutes") o.minutes = std::strtod(v.c_str(), &end);
    else if (a == "--interval") o.params.waves.interval_ms = std::strtoll(v.c_str(), &end, 10);
    else if (a == "--eager") o.params.waves.eager_size = std::strtoul(v.c_str(), &end, 10);
    else if (a == "--spacing") o.params.waves.min_spacing_ms = std::strtoll(v.c_str(), &end, 10);
    else if (a == "--duel-window") {
      if (!parse_window(v, o.params.duel)) return false;
    } else if (a == "--table-window") {
      if (!parse_window(v, o.params.four_players)) return false;
    } else return false;
    if (end && *end) return false;
  }
  return o.tickets > 0 && o.runs > 0 && o.rate_per_min > 0 && o.minutes > 0;
}

const pool_key pools[] = {{mode::duel, "preconstructed", true},
                          {mode::ffa, "preconstructed", true},
                          {mode::two_v_two, "preconstructed", true}};
const char* const pool_names[] = {"duel", "ffa", "2v2"};

// Nearest-rank percentile of a sorted vector.
double percentile(const std::vector<double>& sorted, double p) {
  if (sorted.empty()) return 0;
  const auto rank = static_cast<std::size_t>(std::ceil(p / 100 * static_cast<double>(sorted.size())));
  return sorted[std::min(sorted.size(), std::max<std::size_t>(rank, 1)) - 1];
}

// ---------------------------------------------------------------- one wave

int bench(const options& o) {
  std::printf("one wave over %d waiting tickets (ratings ~N(1500, 300), waits 0-10 s), %d fresh pools each\n",
              o.tickets, o.runs);
  std::mt19937_64 rng(o.seed);
  std::normal_distribution<double> rating(1500, 300);
  std::uniform_int_distribution<std::int64_t> waited(0, 10'000);
  const std::int64_t now = 1'000'000;
  for (int p = 0; p < 3; ++p) {
    std::vector<double> ms, build_ms;
    std::size_t matched = 0;
    for (int run = 0; run < o.runs; ++run) {
      // The searches as the server holds them; in 2v2 two in five are
      // friends naming each other (parties.hpp: one party ticket a pair,
      // so a quarter of the tickets are parties).
      std::vector<search> searches;
      for (int i = 0; i < o.tickets; ++i) {
        search sr;
        sr.t.id = i + 1;
        sr.t.pool = pools[p];
        sr.t.members = {{i + 1, rating(rng), 0}};
        sr.t.enqueued_ms = now - waited(rng);
        sr.t.address = std::to_string(i);
        sr.name = "p" + std::to_string(i);
        if (p == 2 && i % 5 < 2) sr.partner = "p" + std::to_string(i % 5 == 0 ? i + 1 : i - 1);
        searches.push_back(std::move(sr));
      }
      // What a wave does first: the searches become the wave's matchmaker.
      const auto built = std::chrono::steady_clock::now();
      const party_plan plan = plan_parties(searches);
      matchmaker q(o.params);
      for (const auto& t : plan.tickets) q.add(t);
      const auto start = std::chrono::steady_clock::now();
      const wave_result r = q.pass(now);
      const auto stop = std::chrono::steady_clock::now();
      build_ms.push_back(std::chrono::duration<double, std::milli>(start - built).count());
      ms.push_back(std::chrono::duration<double, std::milli>(stop - start).count());
      matched = r.matches.size();
    }
    std::sort(ms.begin(), ms.end());
    std::sort(build_ms.begin(), build_ms.end());
    std::printf("%-4s  pass median %7.2f ms  fastest %7.2f  slowest %7.2f  (%zu matches in the last wave)%s\n",
                pool_names[p], ms[ms.size() / 2], ms.front(), ms.back(), matched,
                p == 0 ? "  target < 50 ms" : p == 1 ? "  target < 100 ms" : "");
    std::printf("      building the wave's matchmaker from the searches (parties, adds): median %7.2f ms\n",
                build_ms[build_ms.size() / 2]);
  }
  return 0;
}

// ---------------------------------------------------------------- simulation

struct pool_stats {
  std::vector<double> wait_s, spread, imbalance;
  std::size_t searches = 0;       // measured searches begun
  double searching_ms = 0;        // integral of the pool's size over the measured time
};

int simulate(const options& o) {
  constexpr std::int64_t warmup_ms = 2 * 60'000, drain_ms = 5 * 60'000;
  const auto end_ms = warmup_ms + static_cast<std::int64_t>(o.minutes * 60'000);
  std::mt19937_64 rng(o.seed);
  std::normal_distribution<double> rating(1500, 300);
  std::exponential_distribution<double> gap_ms(o.rate_per_min / 60'000.0);
  std::bernoulli_distribution is_party(0.25);

  matchmaker q(o.params);
  pool_stats stats[3];
  double next_arrival[3];
  for (double& t : next_arrival) t = gap_ms(rng);
  std::int64_t next_id = 1, now = 0, last_wave = 0;
  auto measured = [&](std::int64_t enqueued) { return enqueued >= warmup_ms && enqueued < end_ms; };

  while (true) {
    const int p = static_cast<int>(std::min_element(next_arrival, next_arrival + 3) - next_arrival);
    const auto arrival = static_cast<std::int64_t>(next_arrival[p]);
    const std::int64_t wave = std::max(now, q.next_wave_due(last_wave));
    const std::int64_t step = std::min(arrival, wave);
    if (step >= end_ms + drain_ms) break;
    if (now >= warmup_ms && now < end_ms)
      for (int k = 0; k < 3; ++k)
        stats[k].searching_ms += static_cast<double>(q.size(pools[k])) * static_cast<double>(std::min(step, end_ms) - now);
    now = step;
    if (arrival <= wave) {
      ticket t;
      t.id = next_id++;
      t.pool = pools[p];
      t.members = {{t.id, rating(rng), 0}};
      if (p == 2 && is_party(rng)) t.members.push_back({-t.id, rating(rng), 0});
      t.enqueued_ms = now;
      t.address = std::to_string(t.id);
      q.add(std::move(t));
      if (measured(now)) ++stats[p].searches;
      next_arrival[p] += gap_ms(rng);
      continue;
    }
    const wave_result r = q.pass(now);
    last_wave = now;
    for (const match& m : r.matches) {
      pool_stats& st = stats[m.pool.mode == mode::duel ? 0 : m.pool.mode == mode::ffa ? 1 : 2];
      bool counted = false;
      for (std::size_t i = 0; i < m.seats.size(); ++i) {
        const seat& s = m.seats[i];
        const auto first = std::find_if(m.seats.begin(), m.seats.end(),
                                        [&](const seat& x) { return x.ticket == s.ticket; });
        if (first != m.seats.begin() + static_cast<std::ptrdiff_t>(i)) continue;  // a party's second seat
        if (!measured(now - s.waited_ms)) continue;
        st.wait_s.push_back(static_cast<double>(s.waited_ms) / 1000.0);
        counted = true;
      }
      if (!counted) continue;  // a table of warm-up searches only
      st.spread.push_back(m.spread);
      st.imbalance.push_back(m.imbalance);
    }
  }

  const auto& w = o.params.waves;
  std::printf("simulation: %.0f new searches a minute in each mode (Poisson), ratings ~N(1500, 300), seed %llu\n",
              o.rate_per_min, static_cast<unsigned long long>(o.seed));
  std::printf("  %.0f min measured after 2 min of warm-up; waves every %lld ms, or %lld ms apart once a pool holds %zu\n",
              o.minutes, static_cast<long long>(w.interval_ms), static_cast<long long>(w.min_spacing_ms), w.eager_size);
  std::printf("  windows: duel %.0f + %.0f/s, at most %.0f; tables %.0f + %.0f/s, at most %.0f\n", o.params.duel.base,
              o.params.duel.per_second, o.params.duel.max, o.params.four_players.base, o.params.four_players.per_second,
              o.params.four_players.max);
  const double measured_ms = static_cast<double>(end_ms - warmup_ms);
  bool met = true;
  auto target = [&met](double value, double most) {
    met = met && value <= most;
    return value <= most ? "ok" : "MISSED";
  };
  for (int k = 0; k < 3; ++k) {
    pool_stats& st = stats[k];
    std::sort(st.wait_s.begin(), st.wait_s.end());
    std::sort(st.spread.begin(), st.spread.end());
    std::sort(st.imbalance.begin(), st.imbalance.end());
    std::printf("%-4s  searches %zu, matched %zu, still waiting %zu; searching on average %.1f\n", pool_names[k],
                st.searches, st.wait_s.size(), st.searches - st.wait_s.size(), st.searching_ms / measured_ms);
    const double w50 = percentile(st.wait_s, 50), w95 = percentile(st.wait_s, 95);
    const double s50 = percentile(st.spread, 50), s95 = percentile(st.spread, 95);
    if (k == 0) {
      std::printf("      time to match p50 %.1f s (%s, <= 3), p95 %.1f s (%s, <= 15), p99 %.1f s, max %.1f s\n", w50,
                  target(w50, 3), w95, target(w95, 15), percentile(st.wait_s, 99), percentile(st.wait_s, 100));
      std::printf("      rating gap median %.0f (%s, <= 50), p95 %.0f (%s, <= 150), p99 %.0f, max %.0f\n", s50,
                  target(s50, 50), s95, target(s95, 150), percentile(st.spread, 99), percentile(st.spread, 100));
    } else {
      std::printf("      time to match p50 %.1f s (%s, <= 10), p95 %.1f s (%s, <= 30), p99 %.1f s, max %.1f s\n", w50,
                  target(w50, 10), w95, target(w95, 30), percentile(st.wait_s, 99), percentile(st.wait_s, 100));
      std::printf("      table spread median %.0f, p95 %.0f (%s, <= 200), p99 %.0f, max %.0f", s50, s95,
                  target(s95, 200), percentile(st.spread, 99), percentile(st.spread, 100));
      if (k == 2)
        std::printf("; team imbalance median %.0f, p95 %.0f", percentile(st.imbalance, 50),
                    percentile(st.imbalance, 95));
      std::printf("\n");
    }
    if (st.searches != st.wait_s.size()) met = false;
  }
  std::printf("targets: %s\n", met ? "all met" : "NOT all met");
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  options opt;
  if (!parse_args(argc, argv, opt)) {
    usage(stderr);
    return 2;
  }
  return opt.simulate ? simulate(opt) : bench(opt);
}
