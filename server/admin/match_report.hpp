// What an admin reads about one stored match (docs/admin.md): the record, the
// raw log, the log rendered as sentences by replaying it through the engine,
// the referee view at any step, the verification report and the export.
// One implementation for the HTTP admin API and cod-admin.
//
// Pure (no I/O) and thread-safe: call from any thread.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>  // state_result holds a json

#include "cod/engine/catalogue.hpp"
#include "persist/match_store.hpp"
#include "replay/recovery.hpp"

namespace cod::server::admin {

// The stored record: match_id, room_id, mode, format, options (JSON),
// rules_version, engine_version, seed (decimal text, null while the match is
// played: it is secret until the end), seed_hash, created_ms, status,
// result (null while playing), seats [{seat, name, deck (JSON), token_hash}],
// actions (the count) and notes [{at_ms, text}].
nlohmann::json record_to_json(const stored_match& sm);

// The log as stored: {"match_id", "actions": [{seq, seat, action (JSON), digest, at_ms}]}.
nlohmann::json raw_log_to_json(const stored_match& sm);

// One document with everything stored about the match, for archiving or
// another tool: {"export": "cod-match", "version": 1, "match": record_to_json
// without seats/notes, "seats", "options", "actions" (as raw_log_to_json),
// "result", "notes"}; a drafted match (formats draft, instant_constructed)
// also has "draft": the rows of draft_to_json (without a replay: while the
// match has no actions yet, every instant-constructed list is withheld). No
// timestamps of its own:
// exporting twice gives the same bytes.
nlohmann::json export_match(const stored_match& sm);

// Whether the match has a draft record: its format is drafted in the room
// (draft, instant_constructed; replay/draft_log.hpp).
bool has_draft_record(const stored_match& sm);

// The draft record (table draft_events) of a drafted match, replayed through
// the engine: {"match_id", "format", "finished" (the draft), "complete" (every
// row replayed), "error" | null, "picks", "reveals",
//  "rows": [{seq, seat, kind ("reveal" | "pick"), cards (ids) | null, at_ms}]}.
// While the match is played and the draft is not over, a secret list
// (instant constructed: a seat's first pick) not yet revealed has cards null
// (R16.2; like the seed, it is not an admin endpoint's to leak).
nlohmann::json draft_to_json(const catalogue& cat, const stored_match& sm);

// One step of the rendered log: the setup (seq 0) or one action, with one
// sentence per effect (protocol::narrate), in the order the engine produced them.
struct log_entry {
  std::int64_t seq = 0;              // 0: the setup
  int seat = -1;                     // the acting seat; -1 for the setup
  std::int64_t at_ms = 0;
  std::string action_json{};         // as stored; empty for the setup
  std::string digest{};              // as stored, hex; empty for the setup
  std::string text{};                // "Seat 1: play BRUTE on its upper line", "Setup"
  std::vector<std::string> effects{};  // "BRUTE enters the upper line at position 0", ...
};

struct match_log {
  std::vector<log_entry> entries{};  // the setup, then every action that replayed
  bool complete = false;             // every stored action replayed with its digest
  std::string error{};               // else: the first divergence, precisely
  std::int64_t failed_seq = 0;       // the action where it diverged (0: the record/setup)
};

// Replays the stored log (recovery's rebuild) and narrates every step. Stops
// at the first divergence, keeping what came before.
match_log render_log(const catalogue& cat, const stored_match& sm);

// {"match_id", "complete", "error" | null, "failed_seq" | null,
//  "entries": [{seq, seat | null, at_ms | null, action | null, digest | null, text, effects: [..]}]}
nlohmann::json log_to_json(const stored_match& sm, const match_log& log);
// A header, then each entry ("#3 seat 0: ..." and its effects indented),
// the result and the notes; one line each, '\n'-terminated.
std::string log_to_text(const stored_match& sm, const match_log& log);

// The referee view after action `step` (0: after the setup). ok false and
// `error` when the log diverges before that step; bad_step when step is not
// in 0..actions.
struct state_result {
  bool ok = false;
  bool bad_step = false;
  std::string error{};
  nlohmann::json body{};  // {"match_id", "step", "steps", "seat" | null, "action" | null, "digest" | null, "view"}
};
state_result state_at(const catalogue& cat, const stored_match& sm, std::int64_t step);

// {"match_id", "ok", "checks": [{name, ok, detail}], "replayed" (last good seq),
//  "first_divergence": {"check", "seq" | null, "detail"} | null}
nlohmann::json verify_to_json(const stored_match& sm, const verify_result& v);

}  // namespace cod::server::admin
