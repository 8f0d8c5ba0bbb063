// cod-bench: plays N full duels with random legal moves and prints games/s,
// actions/s and a checksum of every final digest (determinism made checkable,
// as Stockfish's "bench" signature).
//
// --decks precon (default): game i plays preconstructed deck (i % 4) + 1
// against ((i / 4) % 4) + 1, all 16 pairings in turn.
// --decks catalogue: each seat gets 8 different cards drawn from the whole
// catalogue (a legal constructed deck, R14.6) by a deck generator seeded from
// the match seed.
// --champions: each seat also gets a Champion (R13), a random creature of the
// catalogue that is not in its deck, drawn from the match seed.
// Match seed = --seed + i. The moves come from a second generator seeded from
// the match seed, so the players' choices never touch the match's own one.
// --mode solo / coop (R12, R11.7): the humans play precon deck (i % 4) + 1
// (co-op: A that, C ((i / 4) % 4) + 1) and each AI the three other decks
// (solo_ai_deck, RULING E41); with --decks catalogue, random 8-card human
// decks and random 24-card AI decks. --custom gives odd games random custom
// difficulty settings (R12.8); even games are quick play.
// --stall-turn N: R17.25, the first player's turn at which exhaustion begins
// in a game without R9 (default the rule's 40; 0: never, the engine before
// R17.25). The games that got that far are counted.
// --check runs match::check_invariants() after every action (slow; for the
// sanitizer run in CI) and applies each action through the checked
// match::apply (otherwise match::apply_legal, as a search's playouts).
// --events records every action's events as a client's match does (a
// playout, and so the bench by default, records none: nobody reads them);
// the states, and so the checksum, are the same either way.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>
#include <vector>

#include "cod/engine/match.hpp"
#include "cod/protocol/catalogue_json.hpp"
#include "self_play.hpp"

#ifndef COD_DEFAULT_CATALOGUE
#define COD_DEFAULT_CATALOGUE "config/cards/catalogue.json"
#endif

namespace {

struct options {
  long games = 100000;
  std::uint64_t seed = 1;
  std::string catalogue = COD_DEFAULT_CATALOGUE;
  std::string exhaustion = "mixed";  // on | off | mixed (odd games on)
  long max_actions = 5000;           // a game longer than this is cut and counted
  int stall_turn = cod::default_stall_exhaustion_turn;  // R17.25; 0: never
  std::string expect;                // checksum to compare with (hex)
  std::string decks = "precon";      // precon | catalogue
  std::string mode = "duel";         // duel | ffa | 2v2 | solo | coop
  bool custom = false;               // R12.8: odd games get random custom difficulty
  bool check = false;
  bool champions = false;            // R13: a random Champion per seat
  bool events = false;               // record each action's events (--events)
};

void usage() {
  std::printf(
      "usage: cod-bench [--games N] [--seed S] [--mode duel|ffa|2v2|solo|coop] [--decks precon|catalogue]\n"
      "                 [--exhaustion on|off|mixed] [--stall-turn N] [--champions] [--custom]\n"
      "                 [--max-actions N] [--catalogue PATH] [--expect HEX] [--check] [--events]\n"
      "Plays N random-legal-move duels (the 16 preconstructed pairings, or random 8-card decks\n"
      "from the whole catalogue) and prints games/s, actions/s and the checksum of all final\n"
      "digests. --champions gives each seat a random Champion (R13) outside its deck (solo, coop:\n"
      "human seats, in custom games only). --custom: odd solo/coop games use random custom\n"
      "difficulty (R12.8). The AI seats of solo/coop are played by the engine. --stall-turn: R17.25,\n"
      "exhaustion from the first player's Nth turn in games without R9 (default 40; 0: never).\n"
      "--expect exits 1 on a mismatch; --check verifies the state after every action; --events\n"
      "records each action's events, as a client's match does (a playout records none).\n");
}

}  // namespace

int main(int argc, char** argv) {
  options o;
  for (int i = 1; i < argc; ++i) {
    auto next = [&]() -> const char* {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "cod-bench: %s needs a value\n", argv[i]);
        std::exit(2);
      }
      return argv[++i];
    };
    if (!std::strcmp(argv[i], "--games")) o.games = std::atol(next());
    else if (!std::strcmp(argv[i], "--seed")) o.seed = std::strtoull(next(), nullptr, 10);
    else if (!std::strcmp(argv[i], "--catalogue")) o.catalogue = next();
    else if (!std::strcmp(argv[i], "--exhaustion")) o.exhaustion = next();
    else if (!std::strcmp(argv[i], "--max-actions")) o.max_actions = std::atol(next());
    else if (!std::strcmp(argv[i], "--stall-turn")) o.stall_turn = std::atoi(next());
    else if (!std::strcmp(argv[i], "--expect")) o.expect = next();
    else if (!std::strcmp(argv[i], "--decks")) o.decks = next();
    else if (!std::strcmp(argv[i], "--mode")) o.mode = next();
    else if (!std::strcmp(argv[i], "--check")) o.check = true;
    else if (!std::strcmp(argv[i], "--champions")) o.champions = true;
    else if (!std::strcmp(argv[i], "--custom")) o.custom = true;
    else if (!std::strcmp(argv[i], "--events")) o.events = true;
    else if (!std::strcmp(argv[i], "--help") || !std::strcmp(argv[i], "-h")) { usage(); return 0; }
    else { std::fprintf(stderr, "cod-bench: unknown option %s\n", argv[i]); usage(); return 2; }
  }
  if (o.games <= 0 || o.stall_turn < 0 || o.stall_turn > cod::max_stall_exhaustion_turn ||
      (o.exhaustion != "on" && o.exhaustion != "off" && o.exhaustion != "mixed") ||
      (o.decks != "precon" && o.decks != "catalogue") || !cod::game_mode_from_name(o.mode)) {
    usage();
    return 2;
  }

  cod::catalogue cat;
  if (auto e = cod::protocol::load_catalogue_file(o.catalogue, cat)) {
    std::fprintf(stderr, "cod-bench: catalogue %s: %s\n", o.catalogue.c_str(), e->to_string().c_str());
    return 2;
  }
  std::vector<cod::card_id> decks[4];
  for (int d = 0; d < 4; ++d) decks[d] = cat.preconstructed_deck(d + 1);
  std::vector<cod::card_id> pool = cod::self_play::all_cards(cat);
  const bool random_decks = o.decks == "catalogue";

  std::vector<cod::event> events;
  std::vector<cod::action> legal(cod::match::max_legal_actions);
  events.reserve(256);
  cod::match m;
  cod::match_config cfg;
  cfg.mode = *cod::game_mode_from_name(o.mode);
  cfg.seat_count = cod::seats_of(cfg.mode);
  cfg.stall_exhaustion_turn = o.stall_turn;

  std::uint64_t checksum = 0;
  long long actions = 0;
  long cut = 0, wins[2] = {0, 0};
  long stalled = 0;  // games without R9 that reached the stall turn (R17.25)
  const auto start = std::chrono::steady_clock::now();
  const std::clock_t cpu_start = std::clock();
  const bool ai_mode = cfg.mode == cod::game_mode::solo || cfg.mode == cod::game_mode::coop;
  for (long g = 0; g < o.games; ++g) {
    cfg.seed = o.seed + static_cast<std::uint64_t>(g);
    if (ai_mode) {
      // R12.7, R11.7: humans at the even seats, AIs at the odd ones.
      if (random_decks) cod::self_play::random_decks(cfg.seed, pool, cfg.decks.data(), cfg.seat_count);
      for (int s = 0; s < cfg.seat_count; s += 2) {
        const int human = s == 0 ? static_cast<int>(g % 4) + 1 : static_cast<int>((g / 4) % 4) + 1;
        if (!random_decks) cfg.decks[s] = decks[human - 1];
        if (random_decks) cod::self_play::random_ai_deck(cfg.seed, s + 1, pool, cfg.decks[s + 1]);
        else cfg.decks[s + 1] = cod::solo_ai_deck(cat, human);
      }
      cfg.difficulty = 0;
      cfg.ai = cod::ai_settings{};
      for (int s = 0; s < 4; ++s) cfg.champions[s] = cod::no_card;
      if (o.custom && (g & 1)) {
        int humans_with = 0;
        if (o.champions) {
          cod::card_id champs[4];
          cod::self_play::random_champions(cfg.seed, cat, pool, cfg.decks.data(), champs, cfg.seat_count);
          for (int s = 0; s < cfg.seat_count; s += 2, ++humans_with) cfg.champions[s] = champs[s];
        }
        cod::self_play::random_ai_settings(cfg.seed, humans_with, cfg.ai, cfg.difficulty);
      }
    } else if (random_decks) {
      cod::self_play::random_decks(cfg.seed, pool, cfg.decks.data(), cfg.seat_count);
    } else if (cfg.seat_count == 2) {
      cfg.decks[0] = decks[g % 4];
      cfg.decks[1] = decks[(g / 4) % 4];
    } else {
      for (int s = 0; s < 4; ++s) cfg.decks[s] = decks[(g + s) % 4];  // the four decks, rotated
    }
    if (o.champions && !ai_mode)
      cod::self_play::random_champions(cfg.seed, cat, pool, cfg.decks.data(), cfg.champions.data(), cfg.seat_count);
    cfg.exhaustion_rule = o.exhaustion == "on" || (o.exhaustion == "mixed" && (g & 1));
    events.clear();
    if (const auto e = cod::match::create(cat, cfg, m, events); e != cod::rule_error::ok) {
      std::fprintf(stderr, "cod-bench: setup failed (game %ld): %s\n", g, std::string(cod::error_name(e)).c_str());
      return 1;
    }
    if (o.check) {
      if (const std::string bad = m.check_invariants(); !bad.empty()) {
        std::fprintf(stderr, "cod-bench: game %ld (seed %llu), after setup: %s\n", g,
                     static_cast<unsigned long long>(cfg.seed), bad.c_str());
        return 1;
      }
    }
    cod::rng player = cod::self_play::player_rng(cfg.seed);
    long n = 0;
    while (!m.over() && n < o.max_actions) {
      const int n_legal = m.legal_actions(legal.data(), static_cast<int>(legal.size()));
      const auto& a = legal[player.below(static_cast<std::uint64_t>(n_legal))];
      events.clear();
      // The action comes from legal_actions of this state: apply_legal skips
      // the check a search's playouts skip too. --check checks it as well.
      if (!o.check && !o.events) {
        m.apply_legal(a);
      } else if (!o.check) {
        m.apply_legal(a, events);
      } else if (m.apply(a, events) != cod::rule_error::ok) {
        std::fprintf(stderr, "cod-bench: a legal action was rejected (game %ld)\n", g);
        return 1;
      }
      if (o.check) {
        if (const std::string bad = m.check_invariants(); !bad.empty()) {
          std::fprintf(stderr, "cod-bench: game %ld (seed %llu), action %ld: %s\n", g,
                       static_cast<unsigned long long>(cfg.seed), n, bad.c_str());
          return 1;
        }
      }
      ++n;
    }
    if (!cfg.exhaustion_rule && o.stall_turn != 0 && m.round() >= o.stall_turn) ++stalled;
    if (!m.over()) ++cut;
    else wins[m.winners() & 1 ? 0 : 1]++;  // seat 0 (or its team) won, or not
    actions += n;
    checksum = (checksum ^ m.digest()) * 0x100000001B3ULL + static_cast<std::uint64_t>(g);
  }
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  // Process CPU time as well: on a busy machine wall time includes waiting for
  // a core; games per CPU-second is the one-core figure either way.
  const double cpu = static_cast<double>(std::clock() - cpu_start) / CLOCKS_PER_SEC;
  std::printf("games        %ld\n", o.games);
  std::printf("actions      %lld (%.1f per game)\n", actions, static_cast<double>(actions) / o.games);
  std::printf("cut games    %ld (over %ld actions)\n", cut, o.max_actions);
  if (o.stall_turn != 0)
    std::printf("stall guard  %ld games without R9 reached turn %d (R17.25)\n", stalled, o.stall_turn);
  else
    std::printf("stall guard  off (--stall-turn 0)\n");
  std::printf("mode         %s%s%s\n", o.mode.c_str(), o.champions ? ", with Champions" : "",
              o.custom ? ", custom difficulty in odd games" : "");
  std::printf("seat 0 won  %ld of %ld\n", wins[0], wins[0] + wins[1]);
  std::printf("time         %.3f s wall, %.3f s cpu\n", secs, cpu);
  std::printf("games/s      %.0f (per cpu-second: %.0f)\n", o.games / secs, o.games / cpu);
  std::printf("actions/s    %.0f (per cpu-second: %.0f)\n", static_cast<double>(actions) / secs,
              static_cast<double>(actions) / cpu);
  char hex[32];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(checksum));
  std::printf("checksum     %s\n", hex);
  if (!o.expect.empty() && o.expect != hex) {
    std::fprintf(stderr, "cod-bench: checksum %s differs from the expected %s\n", hex, o.expect.c_str());
    return 1;
  }
  return 0;
}
