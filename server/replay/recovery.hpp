// Rebuilding a match from what the store kept (docs/persistence.md):
// crash recovery at start-up (rebuild) and an admin's audit of a finished
// match (verify). Pure: no I/O, any thread.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "cod/engine/draft.hpp"
#include "cod/engine/match.hpp"
#include "common/status.hpp"
#include "persist/match_store.hpp"

namespace cod::server {

// The engine configuration a record describes, read as the server read it at
// create_room and join: an offered mode ("duel", "ffa", "2v2"), the seed,
// options_json through protocol::stored_room_options_from_json and
// check_room_config (exhaustion, stall_exhaustion_turn: a record from before
// R17.25 has none and replays with 0, never; share_team_hands, champions;
// seats = the mode's), each seat's deck_json through protocol::deck_from_json and
// resolve_deck with the record's format, and its champion through
// protocol::resolve_champion. Solo, coop: difficulty and ai from options_json;
// an AI seat (seat_record::ai, where is_ai_seat says) plays its stored 24
// cards, which must be the decks RULING E41 gives from its human's pick.
// Drafted formats (never solo or coop: check_room_config refuses them): no
// deck_json (the decks are the draft's: rebuild fills decks and seed).
// The first seat is left to the coin toss from the seed
// (match::create), as when the match was created. invalid, with a sentence,
// when the record cannot be played.
status config_from_record(const catalogue& cat, const match_record& m, match_config& out);

struct rebuild_result {
  // A match with its own cards (match_record::cards_json, R15): the catalogue
  // `m` plays with (keep it while `m` lives); null: the shared catalogue.
  std::shared_ptr<const catalogue> cards;
  cod::match m;           // the match after the last good action (none while drafting)
  // Drafted formats (instant_constructed, draft): the draft replayed from the
  // draft log first (draft_log.hpp); the match is created from its decks and
  // match_seed() (RULING E62). `drafting`: the log stops before the draft
  // finished (the server stopped mid-draft): no match yet, no actions allowed.
  cod::draft draft;
  bool drafted = false;
  bool drafting = false;
  bool ok = false;
  std::string error;      // the first problem, precisely; empty when ok
  std::int64_t seq = 0;   // the last action replayed and checked (0: none)
  std::int64_t failed_seq = 0;  // the action where the log diverges (0: none, or the setup/record)
};

// Watches a replay (the admin's match log and state-at-step): called once
// for the setup with a == nullptr, then after each action that was applied
// and whose digest matched, with the events that step produced and the
// match after it. Returning false stops the replay there (rebuild then
// reports ok with seq = that action).
using replay_step_fn =
    std::function<bool(const action_record* a, std::span<const event> events, const cod::match& m)>;

// Creates the match from its record and replays its whole log: each action
// parsed with its seat (protocol::parse_action_text), applied, and the digest
// after it compared with the stored one; at the end the state must pass
// match::check_invariants. Stops at the first problem. The record's
// engine_version must be this engine's. A record with its own cards
// (cards_json) plays them: `cards` is then the catalogue with them.
rebuild_result rebuild(const catalogue& cat, const stored_match& sm, const replay_step_fn& on_step = {});

struct verify_check {
  std::string name;    // "seed commitment", "replay", ...
  bool ok = false;
  std::string detail;
};

struct verify_result {
  bool ok = false;                  // every check passed
  std::vector<verify_check> checks; // in the order run
  rebuild_result replay;
};

// Audits a finished match: the seed matches its commitment (seed_hash ==
// seed_commitment(seed)), the log replays with every digest equal, the
// match is over after the last action, and the stored result (winners,
// reason) is the engine's. An unfinished match fails the "finished" check.
verify_result verify(const catalogue& cat, const stored_match& sm);

}  // namespace cod::server
