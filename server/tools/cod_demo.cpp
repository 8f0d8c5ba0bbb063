// cod-demo: one duel between two random-legal-move players, narrated event by
// event, with the board at the start of every turn. What scripts/run shows
// until the server exists.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "cod/engine/match.hpp"
#include "cod/protocol/catalogue_json.hpp"
#include "cod/protocol/json_codec.hpp"
#include "cod/protocol/narrate.hpp"
#include "self_play.hpp"

#ifndef COD_DEFAULT_CATALOGUE
#define COD_DEFAULT_CATALOGUE "config/cards/catalogue.json"
#endif

namespace {

void print_board(const cod::catalogue& cat, const cod::seat_view& v) {
  for (std::size_t seat = 0; seat < v.seats.size(); ++seat) {
    const auto& p = v.seats[seat];
    std::printf("  seat %zu  health %d  hand:", seat, p.health);
    const auto& hand = v.all_hands[seat];
    for (std::size_t i = 0; i <= hand.size(); ++i) {
      if (static_cast<int>(i) == p.stronghold_pos)
        std::printf(" [%s]", p.side == cod::stronghold_side::bastion ? "BASTION" : "FORT");
      if (i < hand.size()) std::printf(" %s", cat.def(hand[i].card).name.c_str());
    }
    std::printf("\n");
  }
  for (std::size_t l = 0; l < v.lines.size(); ++l) {
    std::printf("  %s line: ", l == 0 ? "upper" : "lower");
    // Seat 0's side is printed Bridge-last, seat 1's Bridge-first, as on the table.
    const auto& a = v.lines[l].sides[0].creatures;
    for (auto it = a.rbegin(); it != a.rend(); ++it)
      std::printf("%s %d/%d  ", cat.def(it->card).name.c_str(), it->av, it->hp - it->damage);
    std::printf("|| ");
    for (const auto& c : v.lines[l].sides[1].creatures)
      std::printf("%s %d/%d  ", cat.def(c.card).name.c_str(), c.av, c.hp - c.damage);
    std::printf("\n");
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::uint64_t seed = 1;
  int deck_a = 1, deck_b = 4;
  bool exhaustion = false;
  bool catalogue_decks = false;
  std::string catalogue_path = COD_DEFAULT_CATALOGUE;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--seed") && i + 1 < argc) seed = std::strtoull(argv[++i], nullptr, 10);
    else if (!std::strcmp(argv[i], "--decks") && i + 1 < argc && std::sscanf(argv[++i], "%d,%d", &deck_a, &deck_b) == 2) {}
    else if (!std::strcmp(argv[i], "--exhaustion")) exhaustion = true;
    else if (!std::strcmp(argv[i], "--catalogue-decks")) catalogue_decks = true;
    else if (!std::strcmp(argv[i], "--catalogue") && i + 1 < argc) catalogue_path = argv[++i];
    else {
      std::printf("usage: cod-demo [--seed N] [--decks A,B | --catalogue-decks] [--exhaustion] [--catalogue PATH]\n"
                  "Plays one narrated duel between random players (preconstructed decks 1-4, or random\n"
                  "decks from the whole catalogue). The same seed replays cod-bench's game with that seed.\n");
      return std::strcmp(argv[i], "--help") ? 2 : 0;
    }
  }
  cod::catalogue cat;
  if (auto e = cod::protocol::load_catalogue_file(catalogue_path, cat)) {
    std::fprintf(stderr, "cod-demo: catalogue %s: %s\n", catalogue_path.c_str(), e->to_string().c_str());
    return 2;
  }
  if (deck_a < 1 || deck_a > 4 || deck_b < 1 || deck_b > 4) {
    std::fprintf(stderr, "cod-demo: decks are 1..4\n");
    return 2;
  }
  cod::match_config cfg;
  cfg.seed = seed;
  cfg.exhaustion_rule = exhaustion;
  cfg.decks[0] = cat.preconstructed_deck(deck_a);
  cfg.decks[1] = cat.preconstructed_deck(deck_b);
  if (catalogue_decks) {
    auto pool = cod::self_play::all_cards(cat);
    cod::self_play::random_decks(seed, pool, cfg.decks.data());
  }
  cod::match m;
  std::vector<cod::event> events;
  if (auto e = cod::match::create(cat, cfg, m, events); e != cod::rule_error::ok) {
    std::fprintf(stderr, "cod-demo: %s\n", std::string(cod::error_message(e)).c_str());
    return 1;
  }
  const auto uid_cards = cod::protocol::uid_cards_from_view(m.view(cod::referee));
  if (catalogue_decks)
    std::printf("Clash of Decks demo: random catalogue decks, seed %llu%s\n", static_cast<unsigned long long>(seed),
                exhaustion ? ", exhaustion rule" : "");
  else
    std::printf("Clash of Decks demo: preconstructed deck %d (seat 0) vs deck %d (seat 1), seed %llu%s\n",
                deck_a, deck_b, static_cast<unsigned long long>(seed), exhaustion ? ", exhaustion rule" : "");
  auto narrate_all = [&] {
    for (const auto& e : events) {
      if (e.type == cod::event_type::turn_started) {
        std::printf("\n== %s ==\n", cod::protocol::narrate(e, cat, uid_cards).c_str());
      } else if (e.type != cod::event_type::creature_entered) {
        std::printf("  %s\n", cod::protocol::narrate(e, cat, uid_cards).c_str());
      }
      if (e.type == cod::event_type::mana_gained) print_board(cat, m.view(cod::referee));
    }
  };
  narrate_all();
  cod::rng player = cod::self_play::player_rng(seed);
  std::vector<cod::action> legal;
  while (!m.over()) {
    m.legal_actions(legal);
    events.clear();
    if (m.apply(legal[player.below(legal.size())], events) != cod::rule_error::ok) return 1;
    narrate_all();
    if (const std::string bad = m.check_invariants(); !bad.empty()) {
      std::printf("INVARIANT BROKEN: %s\n", bad.c_str());
      return 1;
    }
  }
  std::printf("\n%d turns; digest %016llx\n", m.turn(), static_cast<unsigned long long>(m.digest()));
  return 0;
}
