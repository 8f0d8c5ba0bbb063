// Fuzz target: the engine's apply() on states reached by play driven by the
// fuzz bytes: the first bytes choose the mode, seed, decks (preconstructed or
// random from the catalogue, as cod-bench draws them), Champions, custom AI
// settings and the exhaustion rule; then each step either plays a legal action
// or sends an action of the wire's shape (the acting seat as the server gives
// it: a seat of the table) with arbitrary cards, lines, targets and hosts,
// mostly illegal. Checks after each step: check() and apply() agree; a refused
// action changes nothing (digest, no events); a legal one is accepted; the
// state passes match::check_invariants() (the checker cod-bench --check uses)
// and every seat's view and the referee's can be projected after each
// accepted action.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "cod/engine/match.hpp"
#include "fuzz_common.hpp"
#include "self_play.hpp"

namespace {

// Reads the fuzz bytes front to back; zeros once they run out.
struct byte_reader {
  const std::uint8_t* p;
  std::size_t n;
  bool empty() const { return n == 0; }
  std::uint8_t next() {
    if (n == 0) return 0;
    --n;
    return *p++;
  }
  std::uint64_t next64() {
    std::uint64_t v = 0;
    for (int i = 0; i < 8; ++i) v = v << 8 | next();
    return v;
  }
};

cod::match_config make_config(byte_reader& in, const cod::catalogue& cat) {
  static const std::vector<cod::card_id> pool = cod::self_play::all_cards(cat);
  constexpr cod::game_mode modes[] = {cod::game_mode::duel, cod::game_mode::ffa, cod::game_mode::two_vs_two,
                                      cod::game_mode::solo, cod::game_mode::coop};
  const std::uint8_t flags = in.next();
  cod::match_config cfg;
  cfg.mode = modes[flags % 5];
  cfg.seat_count = cod::seats_of(cfg.mode);
  cfg.exhaustion_rule = flags & 0x08;
  cfg.share_team_hands = cfg.mode == cod::game_mode::two_vs_two && (flags & 0x10);
  cfg.seed = in.next64();
  const bool random_decks = flags & 0x20;
  const bool champions = flags & 0x40;
  const bool ai_mode = cfg.mode == cod::game_mode::solo || cfg.mode == cod::game_mode::coop;
  if (random_decks) cod::self_play::random_decks(cfg.seed, pool, cfg.decks.data(), cfg.seat_count);
  for (int s = 0; s < cfg.seat_count; ++s) {
    const bool ai_seat = ai_mode && (s & 1);
    const int deck = static_cast<int>((cfg.seed >> (8 * s)) % 4) + 1;
    if (ai_seat) {
      if (random_decks) cod::self_play::random_ai_deck(cfg.seed, s, pool, cfg.decks[s]);
      else cfg.decks[s] = cod::solo_ai_deck(cat, static_cast<int>((cfg.seed >> (8 * (s - 1))) % 4) + 1);
    } else if (!random_decks) {
      cfg.decks[s] = cat.preconstructed_deck(deck);
    }
  }
  int human_champions = 0;
  if (champions) {
    cod::card_id champs[cod::max_seats];
    cod::self_play::random_champions(cfg.seed, cat, pool, cfg.decks.data(), champs, cfg.seat_count);
    for (int s = 0; s < cfg.seat_count; ++s) {
      if (ai_mode && (s & 1)) continue;
      cfg.champions[s] = champs[s];
      ++human_champions;
    }
  }
  // Quick play takes no Champions (R13.1): custom settings then.
  if (ai_mode && (champions || (flags & 0x80)))
    cod::self_play::random_ai_settings(cfg.seed, human_champions, cfg.ai, cfg.difficulty);
  return cfg;
}

// An action as parse_action can make it, for a seat of the table.
cod::action wire_shaped_action(byte_reader& in, int seats) {
  const std::uint8_t kind = in.next();
  const auto seat = static_cast<cod::seat_t>(in.next() % seats);
  if (kind == 0xFF) return cod::action::concede_by(seat);
  if (kind % 8 == 0) return cod::action::end(seat);
  const cod::card_uid card = in.next();
  if (kind & 1) return cod::action::play_symbiote(seat, card, (kind >> 1) & 1, (kind & 4) ? in.next() : cod::no_uid);
  return cod::action::play_incantation(seat, card, in.next());
}

void check_state(const cod::match& m) {
  if (const std::string bad = m.check_invariants(); !bad.empty()) cod::fuzz::fail(bad);
  for (int s = 0; s < m.seat_count(); ++s) (void)m.view(static_cast<cod::seat_t>(s));
  (void)m.view(cod::referee);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const cod::catalogue& cat = cod::fuzz::shipped();
  byte_reader in{data, size};
  const cod::match_config cfg = make_config(in, cat);
  cod::match m;
  std::vector<cod::event> events;
  if (cod::match::create(cat, cfg, m, events) != cod::rule_error::ok) return 0;  // a config self-play never makes
  check_state(m);
  std::vector<cod::action> legal;
  while (!in.empty() && !m.over()) {
    const std::uint8_t op = in.next();
    cod::action a;
    bool must_pass = false;
    if (op % 4 == 0) {
      m.legal_actions(legal);
      cod::fuzz::check(!legal.empty(), "no legal action in a game that is not over");
      a = legal[in.next() % legal.size()];
      must_pass = true;
    } else {
      a = wire_shaped_action(in, m.seat_count());
    }
    const std::uint64_t before = m.digest();
    const cod::rule_error checked = m.check(a);
    events.clear();
    const cod::rule_error applied = m.apply(a, events);
    cod::fuzz::check(checked == applied, "check() and apply() disagree");
    if (must_pass) cod::fuzz::check(applied == cod::rule_error::ok, "a legal action was refused");
    // A refused action must change nothing (so the state needs no new check).
    if (applied != cod::rule_error::ok)
      cod::fuzz::check(m.digest() == before && events.empty(), "a refused action changed the match");
    else
      check_state(m);
  }
  return 0;
}
