// The rating change of a match's end, in one pure place (docs/ratings.md):
// which matches are rated and how, and the numbers, from cod_rating. The
// three backends call it inside the transaction that stores a rated
// match's result (finish_match); replay's verify calls it to re-derive the
// stored changes from their before-values. No I/O, no clock.
//
// Two steps, because a backend must know whom to read (and lock) before it
// can rate: plan_rating says whether the match is rated, on which ladder,
// and each seat's place; rate_match computes the changes from the seats'
// ratings before.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "persist/records.hpp"

namespace cod::server {

// The ladder a mode is rated on: "duel", "ffa", "2v2"; none for solo and
// coop (unrated: docs/ratings.md).
std::optional<std::string> ladder_of(std::string_view mode);
// A first game's rating: Glicko-2's 1500 / 500 / 0.09, OpenSkill's 25 / 25/3.
rating_value new_rating(std::string_view ladder);
// The number shown and ranked: the Glicko-2 rating on "duel"; on "ffa" and
// "2v2" the ordinal scaled, 30 * (mu - 3 sigma) (0 for a new player).
double displayed(std::string_view ladder, const rating_value& v);
// Whether an end reason is the game's (fort_destroyed, stronghold_alone,
// concession), with a result even without winners (a draw), rather than the
// server's (aborted, voided, abandoned, recovery_failed: no game result).
bool ended_by_the_game(std::string_view reason);
// The deviation on the displayed number's scale, as a player reads it
// ("rating ± deviation"): the Glicko-2 RD on "duel"; 30 sigma on "ffa" and "2v2".
double displayed_deviation(std::string_view ladder, const rating_value& v);
// Whether a rating is provisional (duel: RD >= 110); OpenSkill's never are.
bool provisional(std::string_view ladder, const rating_value& v);

// Whether an action counts as the seat's play for "a match aborted before
// each seat's first action": anything but a concession (one the seat sent,
// or the server sent for it when its grace period or clock ran out).
bool is_play(std::string_view action_json);
// The seats (bits 0..3) with a stored action that is a play.
unsigned seats_that_played(const std::vector<action_record>& actions);

struct rating_plan {
  bool rated = false;
  std::string why{};     // unrated: the reason, a sentence for logs and verify
  std::string ladder{};
  struct rated_seat {
    int seat = 0;
    std::int64_t account_id = 0;
    int team = 0;        // OpenSkill's team (2v2: seat_record::team; ffa: one a seat; duel: the seat)
    int place = 1;       // 1 for the winners (and everyone in a draw), 2 for the others
    bool won = false;
    bool operator==(const rated_seat&) const = default;
  };
  std::vector<rated_seat> seats{};  // by seat number
};

// The rulings (docs/ratings.md, "Which games count"): a rated record, a
// rated mode, an end by the game (fort_destroyed, stronghold_alone,
// concession; not aborted, voided, abandoned, recovery_failed), every seat
// a distinct account (no AI, no house bot, no seat without an account),
// every seat having played (`played`: seats_that_played). Winners place 1,
// the others 2; no winners is a draw (everyone 1).
rating_plan plan_rating(const match_record& m, const match_result& r, unsigned played);

struct rating_outcome {
  std::vector<rating_change_record> changes{};  // by seat, as the plan
  std::vector<rating_record> rows{};            // the ratings rows after, as the plan
};

// The changes of a rated plan. before[i]: plan.seats[i]'s stored row, or
// none (a first game on that ladder: new_rating, no idle growth). Duel:
// each side's RD first grows for its idle days since last_ms (after_idle),
// then Glicko-2 rate_game (score 1, 0, or 0.5 for a draw). ffa, 2v2:
// OpenSkill's Plackett-Luce on the plan's teams and places.
rating_outcome rate_match(const rating_plan& plan, const std::string& match_id,
                          const std::vector<std::optional<rating_record>>& before, std::int64_t ended_ms);

// verify: re-derives `stored` (a match's rating_changes) from their own
// before-values and the plan. Empty when every stored value is the
// recomputed one (within 1e-9), else the first difference, as a sentence.
std::string check_rating_changes(const rating_plan& plan, const std::string& match_id,
                                 const std::vector<rating_change_record>& stored, std::int64_t ended_ms);

}  // namespace cod::server
