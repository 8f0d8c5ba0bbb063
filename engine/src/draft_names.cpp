// The draft's stable names: wire strings, never renamed (draft.hpp).
#include <iterator>

#include "cod/engine/draft.hpp"
#include "name_tables.hpp"

namespace cod {

namespace {

using detail::error_text;

constexpr error_text draft_error_texts[] = {
    {"ok", "ok"},
    {"draft_over", "the deck building has finished"},
    {"not_your_turn", "the draft is not waiting for this seat"},
    {"unknown_seat", "there is no such human seat at this table"},
    {"wrong_pick", "the draft waits for another kind of pick"},
    {"wrong_count", "not as many cards as this step asks (R14)"},
    {"duplicate_card", "the same card twice: a deck holds 8 different cards (R1.2, R14.6)"},
    {"unknown_card", "no such card in the catalogue"},
    {"card_not_in_pool", "that card is not in the packs chosen for this table (R14.6, R14.7)"},
    {"card_not_on_offer", "that card is not among those this pick may take or ban (R14)"},
    {"unknown_deck", "the preconstructed decks are 1 to 4 (R14.1)"},
    {"unknown_pack", "no card of the catalogue is in that pack"},
    {"pool_too_small", "the chosen packs have too few cards for this format (R14)"},
    {"format_not_allowed", "that format is not played at that table (R2.1)"},
    {"bad_config", "the draft's configuration is malformed"},
};
static_assert(std::size(draft_error_texts) == static_cast<std::size_t>(draft_error::bad_config) + 1);

constexpr std::string_view draft_event_names[] = {
    "started", "revealed", "taken", "given_to_ai", "submitted",
    "list_revealed", "banned", "ai_decks_split", "finished", "packets_dealt",
};
static_assert(std::size(draft_event_names) == static_cast<std::size_t>(draft_event_type::packets_dealt) + 1);

}  // namespace

std::string_view draft_error_name(draft_error e) { return detail::error_name_in(draft_error_texts, e); }
std::string_view draft_error_message(draft_error e) { return detail::error_message_in(draft_error_texts, e); }
std::string_view draft_event_type_name(draft_event_type t) { return detail::name_in(draft_event_names, t); }

std::string_view draft_format_name(draft_format f) {
  switch (f) {
    case draft_format::preconstructed: return "preconstructed";
    case draft_format::constructed: return "constructed";
    case draft_format::instant_constructed: return "instant_constructed";
    case draft_format::draft: return "draft";
    case draft_format::mutation: return "mutation";
  }
  return "?";
}

std::string_view draft_table_name(draft_table t) {
  switch (t) {
    case draft_table::duel: return "duel";
    case draft_table::four_players: return "four_players";
    case draft_table::solo: return "solo";
    case draft_table::coop: return "coop";
  }
  return "?";
}

std::string_view draft_pick_type_name(draft_pick_type t) {
  switch (t) {
    case draft_pick_type::take: return "take";
    case draft_pick_type::choose_deck: return "choose_deck";
    case draft_pick_type::submit: return "submit";
    case draft_pick_type::ban: return "ban";
  }
  return "?";
}

}  // namespace cod
