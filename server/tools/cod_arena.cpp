// cod-arena: how strong the computer players are (issue 32; docs/ai-arena.md).
// Plays A against B in groups of games on the same deal with the seats
// swapped (duel: pairs; free-for-all and 2v2: A at each of the four seats),
// in parallel, and prints the score with its Wilson interval, the Elo
// difference, the decision times, and with --sprt a sequential test's verdict.
// --bench: the players' digest over a fixed list of positions (--expect HEX).
//
// Game i's deal, seating and the players' seeds are functions of i alone and
// the sums are taken in game order, so the results (but the times) do not
// depend on --threads; with --time-ms the moves depend on the machine too.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "arena/bench.hpp"
#include "arena/deal.hpp"
#include "arena/play.hpp"
#include "arena/stats.hpp"
#include "arena/tally.hpp"
#include "cod/engine/rng.hpp"
#include "cod/protocol/catalogue_json.hpp"

#ifndef COD_DEFAULT_CATALOGUE
#define COD_DEFAULT_CATALOGUE "config/cards/catalogue.json"
#endif

namespace {

struct options {
  std::string a = "search:3", b = "greedy";
  std::string mode = "duel";
  long games = 200;
  std::uint64_t seed = 1;
  std::string decks = "precon";
  std::string exhaustion = "mixed";
  bool champions = false;
  int time_ms = 0;
  int threads = 0;
  int max_actions = 2000;
  bool sprt = false;
  long max_games = 2000;
  double h0 = 0.50, h1 = 0.55;  // duel-equivalent scores (docs/ai-arena.md)
  double alpha = 0.05, beta = 0.05;
  bool bench = false;
  int positions = 40;
  std::vector<int> budgets{100, 400};
  std::string expect;
  std::string catalogue = COD_DEFAULT_CATALOGUE;
};

void usage() {
  std::printf(
      "usage: cod-arena [--a POLICY] [--b POLICY] [--mode duel|ffa|2v2] [--games N] [--seed S]\n"
      "                 [--decks precon|catalogue] [--champions] [--exhaustion on|off|mixed]\n"
      "                 [--time-ms T] [--threads N] [--max-actions N] [--catalogue PATH]\n"
      "                 [--sprt [--max-games N] [--h0 S] [--h1 S] [--alpha A] [--beta B]]\n"
      "                 [--expect HEX]\n"
      "       cod-arena --bench [--positions N] [--budgets N,M,...] [--expect HEX]\n"
      "POLICY: random | greedy | search:L | search:iters=N | all_seeing:L | all_seeing:iters=N,\n"
      "optionally :noise=P (P in [0, 1]). Defaults: --a search:3 --b greedy, 200 games.\n"
      "Games come in groups on the same deal with the seats swapped: duel pairs (A at seat 0,\n"
      "then 1); ffa and 2v2 fours (A at each seat; 2v2: with a B partner). --games is rounded\n"
      "up to whole groups. A game cut at --max-actions (default 2000) is a draw.\n"
      "--time-ms: each decision's time budget instead of its iterations (machine-dependent).\n"
      "--sprt: groups until the SPRT of H0 (score --h0, default 0.50) against H1 (--h1, 0.55)\n"
      "decides at alpha = beta = 0.05, or --max-games (default 2000) are played. Scores are a\n"
      "duel's; ffa's and 2v2's are the same Elo. --expect: exit 1 unless the games' checksum (or\n"
      "with --bench the digest) is HEX. docs/ai-arena.md.\n");
}

std::vector<int> parse_budgets(const char* s) {
  std::vector<int> out;
  for (const char* p = s; *p;) {
    out.push_back(std::atoi(p));
    while (*p && *p != ',') ++p;
    if (*p == ',') ++p;
  }
  return out;
}

// Runs play(i) for i in [first, first + count) on `threads` threads into out[i].
template <class Play>
void run_parallel(std::size_t first, std::size_t count, int threads, std::vector<cod::arena::game_record>& out,
                  const Play& play) {
  if (out.size() < first + count) out.resize(first + count);
  std::atomic<std::size_t> next{first};
  std::mutex failed_lock;
  std::string failed;
  auto work = [&] {
    for (std::size_t i; (i = next.fetch_add(1)) < first + count;) {
      try {
        out[i] = play(i);
      } catch (const std::exception& e) {
        std::lock_guard<std::mutex> hold(failed_lock);
        failed = "game " + std::to_string(i) + ": " + e.what();
        next = first + count;
      }
    }
  };
  std::vector<std::thread> pool;
  for (int t = 1; t < threads; ++t) pool.emplace_back(work);
  work();
  for (auto& t : pool) t.join();
  if (!failed.empty()) {
    std::fprintf(stderr, "cod-arena: %s\n", failed.c_str());
    std::exit(1);
  }
}

int run_bench(const cod::catalogue& cat, const options& o) {
  cod::arena::bench_options b;
  b.positions = o.positions;
  b.budgets = o.budgets;
  b.seed = o.seed;
  const auto start = std::chrono::steady_clock::now();
  const cod::arena::bench_result r = cod::arena::run_bench(cat, b);
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::string budgets;
  for (int x : o.budgets) budgets += (budgets.empty() ? "" : ",") + std::to_string(x);
  char hex[32];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(r.digest));
  std::printf("positions    %d per mode (duel, ffa, 2v2), seed %llu\n", o.positions,
              static_cast<unsigned long long>(o.seed));
  std::printf("decisions    %ld (random, greedy, search at %s iterations, all_seeing at the first)\n", r.decisions,
              budgets.c_str());
  std::printf("time         %.3f s (random %.3f, greedy %.3f, search %.3f, all_seeing %.3f), one thread\n", secs,
              r.seconds[0], r.seconds[1], r.seconds[2], r.seconds[3]);
  std::printf("digest       %s\n", hex);
  if (!o.expect.empty() && o.expect != hex) {
    std::fprintf(stderr, "cod-arena: digest %s differs from the expected %s\n", hex, o.expect.c_str());
    return 1;
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  options o;
  for (int i = 1; i < argc; ++i) {
    auto next = [&]() -> const char* {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "cod-arena: %s needs a value\n", argv[i]);
        std::exit(2);
      }
      return argv[++i];
    };
    const char* arg = argv[i];
    if (!std::strcmp(arg, "--a")) o.a = next();
    else if (!std::strcmp(arg, "--b")) o.b = next();
    else if (!std::strcmp(arg, "--mode")) o.mode = next();
    else if (!std::strcmp(arg, "--games")) o.games = std::atol(next());
    else if (!std::strcmp(arg, "--seed")) o.seed = std::strtoull(next(), nullptr, 10);
    else if (!std::strcmp(arg, "--decks")) o.decks = next();
    else if (!std::strcmp(arg, "--exhaustion")) o.exhaustion = next();
    else if (!std::strcmp(arg, "--champions")) o.champions = true;
    else if (!std::strcmp(arg, "--time-ms")) o.time_ms = std::atoi(next());
    else if (!std::strcmp(arg, "--threads")) o.threads = std::atoi(next());
    else if (!std::strcmp(arg, "--max-actions")) o.max_actions = std::atoi(next());
    else if (!std::strcmp(arg, "--sprt")) o.sprt = true;
    else if (!std::strcmp(arg, "--max-games")) o.max_games = std::atol(next());
    else if (!std::strcmp(arg, "--h0")) o.h0 = std::atof(next());
    else if (!std::strcmp(arg, "--h1")) o.h1 = std::atof(next());
    else if (!std::strcmp(arg, "--alpha")) o.alpha = std::atof(next());
    else if (!std::strcmp(arg, "--beta")) o.beta = std::atof(next());
    else if (!std::strcmp(arg, "--bench")) o.bench = true;
    else if (!std::strcmp(arg, "--positions")) o.positions = std::atoi(next());
    else if (!std::strcmp(arg, "--budgets")) o.budgets = parse_budgets(next());
    else if (!std::strcmp(arg, "--expect")) o.expect = next();
    else if (!std::strcmp(arg, "--catalogue")) o.catalogue = next();
    else if (!std::strcmp(arg, "--help") || !std::strcmp(arg, "-h")) { usage(); return 0; }
    else { std::fprintf(stderr, "cod-arena: unknown option %s\n", arg); usage(); return 2; }
  }
  const auto mode = cod::game_mode_from_name(o.mode);
  const auto a = cod::arena::parse_player(o.a);
  const auto b = cod::arena::parse_player(o.b);
  const bool budgets_ok = !o.budgets.empty() && std::all_of(o.budgets.begin(), o.budgets.end(), [](int x) { return x > 0; });
  if (!mode || (*mode != cod::game_mode::duel && *mode != cod::game_mode::ffa && *mode != cod::game_mode::two_vs_two) ||
      !a || !b || o.games <= 0 || o.max_games <= 0 || o.time_ms < 0 || o.threads < 0 || o.max_actions <= 0 ||
      o.positions <= 0 || !budgets_ok || (o.decks != "precon" && o.decks != "catalogue") ||
      (o.exhaustion != "on" && o.exhaustion != "off" && o.exhaustion != "mixed") || !(0 < o.h0 && o.h0 < o.h1 && o.h1 < 1) ||
      !(0 < o.alpha && o.alpha < 0.5 && 0 < o.beta && o.beta < 0.5)) {
    usage();
    return 2;
  }
  cod::catalogue cat;
  if (auto e = cod::protocol::load_catalogue_file(o.catalogue, cat)) {
    std::fprintf(stderr, "cod-arena: catalogue %s: %s\n", o.catalogue.c_str(), e->to_string().c_str());
    return 2;
  }
  if (o.bench) return run_bench(cat, o);

  const int threads = o.threads > 0 ? o.threads : std::max(1u, std::thread::hardware_concurrency());
  cod::arena::deal_options d;
  d.mode = *mode;
  d.catalogue_decks = o.decks == "catalogue";
  d.champions = o.champions;
  d.exhaustion = o.exhaustion == "off" ? 0 : o.exhaustion == "on" ? 1 : 2;
  d.seed = o.seed;
  const cod::arena::dealer dealer(cat, d);
  const int group = cod::seats_of(*mode);  // A at each seat once: 2 games, or 4
  cod::arena::play_options po;
  po.max_actions = o.max_actions;
  po.time_ms = o.time_ms;
  // Game i: group i / size's deal, A at seat i % size, the players' seeds from i.
  auto play = [&](std::size_t i) {
    const cod::match_config cfg = dealer.deal(i / static_cast<std::size_t>(group));
    std::uint64_t x = o.seed ^ 0xA2E7A5EEDC0DECC5ULL ^ (static_cast<std::uint64_t>(i) << 20);
    const std::uint64_t policy_seed = cod::rng::splitmix64(x);
    return cod::arena::play_game(cat, cfg, 1u << (i % static_cast<std::size_t>(group)), *a, *b, policy_seed, po);
  };

  cod::arena::tally t;
  t.mode = *mode;
  std::vector<cod::arena::game_record> records;
  const auto start = std::chrono::steady_clock::now();
  const int sides = cod::arena::sides_of(*mode);
  // The hypotheses as Elo, then as this mode's scores (stats.hpp).
  const double s0 = cod::arena::score_from_elo(cod::arena::elo_from_score(o.h0), sides);
  const double s1 = cod::arena::score_from_elo(cod::arena::elo_from_score(o.h1), sides);
  double llr = 0;
  cod::arena::verdict v = cod::arena::verdict::undecided;
  long played = 0;
  const long total_groups = ((o.sprt ? o.max_games : o.games) + group - 1) / group;
  // Without --sprt every group at once; with it, batches, each group's LLR
  // checked in order, so the stopping point is the thread count's too.
  const long batch = o.sprt ? std::max(4L, 2L * threads / group + 1) : total_groups;
  for (long g = 0; g < total_groups && v == cod::arena::verdict::undecided;) {
    const long n = std::min(batch, total_groups - g);
    run_parallel(static_cast<std::size_t>(g * group), static_cast<std::size_t>(n * group), threads, records, play);
    played += n * group;
    for (long k = 0; k < n && v == cod::arena::verdict::undecided; ++k, ++g) {
      t.add_group(records, static_cast<std::size_t>(g * group), group);
      if (o.sprt) {
        llr = t.llr(s0, s1);
        v = cod::arena::sprt_verdict(llr, o.alpha, o.beta);
      }
    }
    if (o.sprt)
      std::fprintf(stderr, "cod-arena: %ld games, LLR %.3f\n", t.games, llr);
  }
  cod::arena::report_header h;
  h.a = o.a;
  h.b = o.b;
  h.setting = o.mode + ", " + o.decks + " decks" + (o.champions ? ", Champions" : "") + ", R9 " + o.exhaustion +
              ", seed " + std::to_string(o.seed);
  h.group_size = group;
  h.max_actions = o.max_actions;
  h.time_ms = o.time_ms;
  h.threads = threads;
  h.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  cod::arena::print_report(t, h);
  if (o.sprt) {
    const char* said = v == cod::arena::verdict::h1 ? "H1 accepted" : v == cod::arena::verdict::h0 ? "H0 accepted"
                                                                                                     : "undecided";
    std::printf("sprt         LLR %.3f, bounds [%.3f, %.3f]; H0 score %.1f%%, H1 %.1f%% (Elo %+.1f, %+.1f); "
                "%s model\n",
                llr, cod::arena::lower_bound(o.alpha, o.beta), cod::arena::upper_bound(o.alpha, o.beta), 100 * s0,
                100 * s1, cod::arena::elo_from_score(o.h0), cod::arena::elo_from_score(o.h1),
                *mode == cod::game_mode::duel ? "pentanomial (pairs)" : "multinomial (groups of four)");
    std::printf("verdict      %s after %ld games%s\n", said, t.games,
                v == cod::arena::verdict::undecided ? " (the --max-games cap)" : "");
    if (played > t.games)
      std::printf("             (%ld more games played in the last batch, past the decision: not counted)\n",
                  played - t.games);
  }
  char hex[32];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(t.checksum));
  if (!o.expect.empty() && o.expect != hex) {
    std::fprintf(stderr, "cod-arena: checksum %s differs from the expected %s\n", hex, o.expect.c_str());
    return 1;
  }
  return 0;
}
