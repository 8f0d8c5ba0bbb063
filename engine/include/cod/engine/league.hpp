// The mutation league (R15) as a state machine in the style of `draft`: the
// draft (R15.1), each player's deck and lab (R15.2), six rounds of two duels
// (R15.3), each round opened by a mutation phase (R15.4–R15.6), and the
// ranking (R15.7). The duels themselves are ordinary matches the caller
// runs (with `match_cards`); it reports their results back.
//
//   league l;
//   league::create(cat, cfg, l);                    // the draft is dealt
//   l.apply(op)                                      // picks, decks, mutations, passes, results
//   l.stage(), l.round(), l.standings(), l.table(round, t)
//
// Every change is one `league_op`; the same catalogue, config and ops give
// the same league (R16.1): the server stores the ops and replays them
// (replay_league). A league is a value. Rulings E77–E80 (docs/rulings.md).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "cod/engine/catalogue.hpp"
#include "cod/engine/draft.hpp"
#include "cod/engine/mutation.hpp"
#include "cod/engine/types.hpp"

namespace cod {

inline constexpr int league_players = 4;   // R15.1
inline constexpr int league_rounds = 6;    // R15.3
inline constexpr int league_tables = 2;    // R15.3: two duels at once

enum class league_stage : std::uint8_t {
  drafting,  // R15.1: the picks
  building,  // R15.2: each player chooses 8 of 16 as the deck
  mutating,  // R15.4: the round's mutation phase; every player mutates or passes
  playing,   // R15.3: the round's two duels; their results are awaited
  finished,  // R15.7: six rounds played; the ranking stands
};
std::string_view league_stage_name(league_stage s);

// Stable codes for a refused league op. Wire strings: only add.
enum class league_error : std::uint8_t {
  ok = 0,
  wrong_stage,      // the league is not at the stage this op belongs to
  unknown_seat,     // players are seats 0..3
  already_done,     // this player already chose a deck / acted in this phase
  draft_refused,    // the draft refused the pick: see league_refusal::draft
  deck_refused,     // R15.2: see league_refusal::mutation (wrong_count, duplicate_card, card_not_drafted)
  mutation_refused, // R15.4–R15.6: see league_refusal::mutation and ::index
  unknown_table,    // no such duel in this round (round 1..6, table 0..1)
  result_known,     // that duel's result is recorded already
  bad_result,       // the winner is neither of the duel's players
  bad_config,       // R15.1: two different packs; the cost table (mutation_costs::check)
};
std::string_view league_error_name(league_error e);
std::string_view league_error_message(league_error e);

struct league_config {
  std::uint64_t seed = 0;                        // R16.1: the draft's and every duel's seed come from it
  std::vector<std::string> packs;                // R15.1: two different packs
  mutation_costs costs = mutation_costs::ruling();  // R15.6, or the organiser's table
};

// R15.3: one duel of a round; `seats[0]` plays the match's seat 0.
struct league_table {
  std::array<seat_t, 2> seats{no_seat, no_seat};
  seat_t winner = no_seat;  // when decided: one of seats, or no_seat for a duel without a winner
  bool decided = false;
  bool operator==(const league_table&) const = default;
};

// R15.3, RULING E78: rounds 1–3 pair every two players once (A–B and C–D,
// A–C and B–D, A–D and B–C); rounds 4–6 repeat them with the seats swapped.
league_table league_pairing(int round, int table);

enum class league_op_type : std::uint8_t {
  pick,         // R15.1: a draft pick (draft_pick take)
  choose_deck,  // R15.2: seat's 8 deck cards
  mutate,       // R15.4: seat's mutations for this round's phase (several, in order; E75)
  pass,         // R15.4: seat mutates nothing this phase (also when its phase clock runs out)
  result,       // R15.3: the duel at `table` of the current round ended: `winner` (no_seat: nobody won)
};
std::string_view league_op_type_name(league_op_type t);

struct league_op {
  league_op_type type = league_op_type::pick;
  seat_t seat = no_seat;
  draft_pick pick;                 // pick
  std::vector<card_id> cards;      // choose_deck
  std::vector<mutation> mutations; // mutate
  int table = 0;                   // result
  seat_t winner = no_seat;         // result
  bool operator==(const league_op&) const = default;
};

struct league_refusal {
  league_error error = league_error::ok;
  draft_error draft = draft_error::ok;
  mutation_error mutation = mutation_error::ok;
  int index = -1;  // mutation_refused: the mutation at fault (over_budget: the one past the points)
  bool ok() const { return error == league_error::ok; }
};

// R15.7: one player's line of the standings.
struct league_standing {
  seat_t seat = no_seat;
  int played = 0;
  int won = 0;
  int place = 0;  // 1 + players with more wins: tied players share the place
};

// One mutation a player made, with its round and cost (the league's record).
struct league_mutation_record {
  int round = 0;
  seat_t seat = no_seat;
  mutation m;
  half_points cost = 0;
  bool operator==(const league_mutation_record&) const = default;
};

class league {
 public:
  static league_error create(const catalogue& cat, const league_config& cfg, league& out);

  league_refusal check(const league_op& op) const;
  // Validates `op`; applies it when legal, else changes nothing.
  league_refusal apply(const league_op& op);

  league_stage stage() const { return stage_; }
  int round() const { return round_; }  // 1..6 while mutating or playing; 0 before, 6 at the end
  const draft& the_draft() const { return draft_; }
  // R15.1: a player's 16 drafted cards (empty while drafting).
  const std::vector<card_id>& drafted(seat_t seat) const { return drafted_[seat]; }
  // R15.2: a player's deck and lab as mutated so far (empty before its deck choice).
  const league_deck& deck_of(seat_t seat) const { return decks_[seat]; }
  bool has_deck(seat_t seat) const { return !decks_[seat].deck.empty(); }
  // Who has acted in the current mutation phase.
  bool phase_done(seat_t seat) const { return phase_done_[seat]; }
  // R15.4: what `seat` may still add to its phase's list after `staged`
  // (mutations chosen, not yet sent; empty: the deck as it stands): the
  // engine's legal_mutations for its deck as `staged` leaves it, within the
  // points `staged` leaves (`points_left`, when given). Refused as a mutate
  // op of `staged` would be (wrong_stage, already_done, mutation_refused
  // with its index; an empty `staged` only for the first two), `out`
  // empty then. What a client offers instead of judging the rules itself.
  league_refusal legal_mutations_after(seat_t seat, const std::vector<mutation>& staged, std::vector<mutation>& out,
                                       half_points* points_left = nullptr) const;
  // The current round's duels (stage playing or mutating), or any round's.
  const league_table& table(int round, int t) const { return tables_[round - 1][t]; }
  std::vector<league_standing> standings() const;
  const std::vector<league_mutation_record>& mutation_record() const { return mutations_; }
  const std::vector<league_op>& ops() const { return ops_; }
  const league_config& config() const { return cfg_; }
  const catalogue& cards() const { return *cat_; }

  // R15.3: what the duel at `table` of `round` plays with: each player's
  // deck (match seats 0 and 1) and the definitions of those 16 cards as
  // mutated now (for catalogue::replace; a stored match records them).
  struct match_setup {
    std::array<std::vector<card_id>, 2> decks;
    std::vector<card_def> cards;
    std::uint64_t seed = 0;  // R16.1, RULING E80: from the league's seed, the round and the table
  };
  match_setup match_cards(int round, int table) const;

  std::uint64_t digest() const;

 private:
  void start_phase();

  const catalogue* cat_ = nullptr;
  league_config cfg_;
  league_stage stage_ = league_stage::drafting;
  int round_ = 0;
  draft draft_;
  std::array<std::vector<card_id>, league_players> drafted_{};
  std::array<league_deck, league_players> decks_{};
  std::array<bool, league_players> phase_done_{};
  std::array<std::array<league_table, league_tables>, league_rounds> tables_{};
  std::vector<league_mutation_record> mutations_;
  std::vector<league_op> ops_;
};

// Replays a league from its config and ops. Stops at the first refused op
// and returns its index in `failed_at` (-1 if all applied).
league_refusal replay_league(const catalogue& cat, const league_config& cfg, const std::vector<league_op>& ops,
                             league& out, int& failed_at);

}  // namespace cod
