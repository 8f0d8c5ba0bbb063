// The league's stable names: wire strings, never renamed (league.hpp).
#include <iterator>

#include "cod/engine/league.hpp"
#include "name_tables.hpp"

namespace cod {

namespace {

using detail::error_text;

constexpr error_text league_error_texts[] = {
    {"ok", "ok"},
    {"wrong_stage", "the league is not at the stage this belongs to (R15)"},
    {"unknown_seat", "a league's players are seats 0 to 3"},
    {"already_done", "this player has already done that at this stage"},
    {"draft_refused", "the draft refuses that pick (R15.1)"},
    {"deck_refused", "a deck is 8 different cards of your 16 drafted ones (R15.2)"},
    {"mutation_refused", "a mutation breaks a limit of R15.5 or the phase's 2.5 points (R15.4)"},
    {"unknown_table", "no such duel in this round (R15.3: two duels a round)"},
    {"result_known", "that duel's result is already recorded"},
    {"bad_result", "the winner must be one of the duel's two players"},
    {"bad_config", "a league drafts two different packs (R15.1) and its costs are 0 to 100 points (R15.6)"},
};
static_assert(std::size(league_error_texts) == static_cast<std::size_t>(league_error::bad_config) + 1);

constexpr std::string_view stage_names[] = {"drafting", "building", "mutating", "playing", "finished"};
constexpr std::string_view op_names[] = {"pick", "choose_deck", "mutate", "pass", "result"};

}  // namespace

std::string_view league_error_name(league_error e) { return detail::error_name_in(league_error_texts, e); }
std::string_view league_error_message(league_error e) { return detail::error_message_in(league_error_texts, e); }
std::string_view league_stage_name(league_stage s) { return detail::name_in(stage_names, s); }
std::string_view league_op_type_name(league_op_type t) { return detail::name_in(op_names, t); }

}  // namespace cod
