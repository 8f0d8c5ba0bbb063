// A drafted match's draft in the store (table draft_events; docs/persistence.md,
// "Drafts"): the rows the room writes as the draft goes, and the replay that
// rebuilds the draft from them alone (recovery, cod-admin verify).
//
// Rows: "pick" (seat: who picked; cards: the cards named, a secret list
// included: the store is the server's) and "reveal" (seat: who the cards
// were revealed to: a draft's offer to every seat of the table, a list to
// every other seat), in the order they happened. A pick's kind (take, submit,
// ban) is not stored: a seat waits for one kind at a time, and the replay
// reads it from draft::waiting(). Forced takes (RULING E61), the AI's cards
// and co-op's split are the engine's own steps: replayed, not stored.
// Pure: no I/O, any thread.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "cod/engine/draft.hpp"
#include "common/status.hpp"
#include "persist/match_store.hpp"

namespace cod::server {

// The rows for one step of the draft: `pick` (if any) then the reveals in
// `events`, numbered from next_seq (advanced past them).
std::vector<draft_event_record> draft_rows(const catalogue& cat, const draft& d, const draft_pick* pick,
                                           std::span<const draft_event> events, std::int64_t& next_seq,
                                           std::int64_t at_ms);

// The draft configuration a drafted match's record describes: its format
// ("instant_constructed", "draft"), the table its mode plays at, its seed
// (the room's; RULING E62: the match goes on with draft.match_seed()) and
// options.packs. invalid, with a sentence, when the record is not a drafted
// match or cannot be read.
status draft_config_from_record(const match_record& m, draft_config& out);
// Whether the record's format is drafted in the room.
bool is_drafted_record(const match_record& m);

struct draft_replay {
  draft d;
  bool ok = false;
  std::string error;  // the first problem, precisely
  int picks = 0;      // pick rows replayed
  int reveals = 0;    // reveal rows checked
};

// Replays the stored draft: creates it from the record, applies every pick
// row in order and checks that the reveal rows are exactly the reveals the
// engine makes (seats, cards, order), and that seqs run 1, 2, 3...
draft_replay replay_draft_log(const catalogue& cat, const stored_match& sm);

}  // namespace cod::server
