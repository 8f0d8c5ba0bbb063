// The engine's facade: one match, its rules, and the only ways in and out.
//
//   match m;
//   if (auto e = match::create(cat, cfg, m, events); e != rule_error::ok) ...
//   m.legal_actions(actions);
//   if (auto e = m.apply(a, events); e != rule_error::ok) ... // nothing changed
//   seat_view v = m.view(seat);
//
// A match is a value: copy it to branch, compare digests to check replays.
// Deterministic: the same catalogue, config and actions give the same states
// and digests on every platform (rng.hpp). Not thread-safe; one owner at a time.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cod/engine/action.hpp"
#include "cod/engine/catalogue.hpp"
#include "cod/engine/error.hpp"
#include "cod/engine/event.hpp"
#include "cod/engine/setup.hpp"
#include "cod/engine/state.hpp"
#include "cod/engine/view.hpp"

namespace cod {

// Bump when a rule change would alter the outcome of a recorded action log.
inline constexpr int engine_version = 2;

class match {
 public:
  // R2: checks the decks (R1.2, R14.1, R14.6) and Champions (R13.1), shuffles
  // each seat's deck into its hand, tosses the coin and starts the first turn.
  // Solo and co-op (R12, R11.7): an AI seat's deck (24 cards) is shuffled into
  // its deck pile, there is no coin toss (the human, or with ai_first the AI,
  // starts: seat 0, or 1), and the AI options are checked (check_ai_options).
  // `events` receives everything that happened, including every AI turn run
  // before the first human turn (ai_first): the opening events to send.
  static rule_error create(const catalogue& cat, const match_config& cfg, match& out,
                           std::vector<event>& events);

  // R12.7, R14.1, R14.4, R14.5 (RULING E41): an AI seat's deck: 24 different
  // creature or incantation cards.
  static rule_error check_ai_deck(const catalogue& cat, const std::vector<card_id>& deck);

  // R12.8, R13.1: solo and co-op options. Quick play (difficulty 0): default
  // ai_settings, no Champion; custom (1..10): ai_points(ai, human Champions)
  // must equal the level; no AI seat has a Champion. Other modes: difficulty
  // 0 and default settings. bad_difficulty or champion_not_allowed.
  static rule_error check_ai_options(const match_config& cfg);

  // Checks a deck for this engine (R1.2, R14.6): 8 different creature or
  // incantation cards, every ability implemented.
  static rule_error check_deck(const catalogue& cat, const std::vector<card_id>& deck);

  // Checks a seat's Champion (R13.1): no_card (none), or a catalogue creature
  // that is not in `deck`. unknown_card or bad_champion.
  static rule_error check_champion(const catalogue& cat, card_id champion, const std::vector<card_id>& deck);

  // Any mid-game position (scenarios, tests). Checks it is well formed.
  static rule_error from_position(const catalogue& cat, const position_setup& p, match& out);

  // A world a seat's view could be (for players that search, engine/search):
  // the view's state, uids kept, with the cards it cannot see given by the
  // caller: `hands[s]`, each seat's hand left to right (the viewer's own, a
  // shared teammate's, and for the others what the caller chose: as many
  // cards as the view's hand_size, with the uids no view shows). `seed` starts
  // the world's generator. Duel, free-for-all and 2v2 only (an AI pile's
  // order is not given): bad_setup otherwise, or when the cards given leave a
  // uid unused or used twice, or a hand's size differs from the view's.
  static rule_error from_view(const catalogue& cat, const seat_view& v,
                              const std::array<std::vector<card_ref>, max_seats>& hands, std::uint64_t seed,
                              match& out);

  // Validates `a` for its seat; if legal, resolves it and appends what
  // happened to `events`. If not, returns the error and changes nothing.
  rule_error apply(const action& a, std::vector<event>& events);

  // apply() without its check(), for a caller that took `a` from
  // legal_actions() of this very state, nothing applied in between: the
  // self-play loops (cod-bench, the search's playouts), where check() was a
  // fourteenth of the time. Any other action is undefined behaviour; debug
  // and sanitizer builds verify it and abort. Every other caller: apply().
  void apply_legal(const action& a, std::vector<event>& events);
  // The same for a caller that never reads what happened (a random playout:
  // the search's, cod-bench's): the same state, no events recorded (about a
  // twentieth of a playout's time).
  void apply_legal(const action& a);

  // Checks `a` without applying it. An AI seat (R12) never acts: its actions
  // are refused with bad_action (the engine plays its turns inside apply()).
  rule_error check(const action& a) const;

  // Every legal play and end_turn for the active seat (concede is always legal
  // and not listed): the hand's playable cards, then a ready Champion (R13.2),
  // then end_turn. Empty when the game is over. Clears `out` first.
  void legal_actions(std::vector<action>& out) const;
  // The same into a caller's buffer (no allocation; self-play's hot path).
  // Returns how many were written; `capacity` >= max_legal_actions is always enough.
  int legal_actions(action* out, int capacity) const;
  // The 4 playable hand cards and the Champion (R13.2), each on 2 lines or any creature.
  static constexpr int max_legal_actions = 5 * (2 * max_lines * max_side + 2) + 1;

  // What a play would leave its seat, for a client's preview (R3.2.6: a card
  // that stood right of the Stronghold costs 1 health; R7 Lucidity, Price of
  // Blood, Immolation; R3.2.4 an incantation's return): the seat's mana and
  // health once `a` has resolved on a copy of this match. nullopt when `a`
  // is refused. The match itself does not change.
  struct play_outcome {
    int mana = 0;
    int health = 0;
    bool operator==(const play_outcome&) const = default;
  };
  std::optional<play_outcome> outcome(const action& a) const;

  seat_view view(seat_t viewer) const { return project(*cat_, state_, viewer); }

  // A 64-bit digest of the whole state (rng included): equal digests after
  // every action is how replays are verified.
  std::uint64_t digest() const;

  // Checks the state is well formed: every card in exactly one place (a hand,
  // a line, under a Chain, removed), Strongholds in range, no creature past
  // its health between actions. Returns "" or what is wrong. For tests and
  // for checking a rebuilt match; not on any hot path.
  std::string check_invariants() const;

  bool over() const { return state_.current_phase == phase::game_over; }
  seat_t active_seat() const { return state_.active_seat; }
  std::uint8_t winners() const { return state_.winners; }
  int seat_count() const { return state_.seat_count; }
  int turn() const { return state_.turn; }
  // The catalogue card a uid is (no_card past the match's cards): players
  // that search name an action by its card where the uid is hidden.
  card_id card_of(card_uid u) const { return u < state_.uid_count ? state_.uid_card[u] : no_card; }
  // R9.1: the first player's turns so far (seat_view::round, without building a view).
  int round() const { return state_.round; }
  const catalogue& cards() const { return *cat_; }

 private:
  void resolve(const action& a, std::vector<event>* events);  // a checked action; events may be null

  const catalogue* cat_ = nullptr;
  game_state state_{};
};

// The seats in a winners bit mask (match::winners(), the game_over event's
// amount: bit s = seat s), lowest first. Empty while nobody has won.
inline std::vector<int> winner_seats(std::uint8_t winners) {
  std::vector<int> seats;
  for (int s = 0; s < max_seats; ++s)
    if (winners & (1u << s)) seats.push_back(s);
  return seats;
}

// R12.7, R14.1: a solo AI's deck: the three preconstructed decks (1..4) other
// than the human's, 24 cards (co-op: RULING E41, one such deck per AI).
std::vector<card_id> solo_ai_deck(const catalogue& cat, int human_deck);

// Replays an action log from its config. Stops at the first rejected action
// and returns its index in `failed_at` (-1 if all applied).
rule_error replay(const catalogue& cat, const match_config& cfg, const std::vector<action>& log,
                  match& out, int& failed_at, std::vector<std::uint64_t>* digests = nullptr);

}  // namespace cod
