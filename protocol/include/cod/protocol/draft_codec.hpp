// The drafting phase on the wire (docs/protocol.md, "Formats and drafts"):
// the public draft view, its events, the `draft` message, and the stored form
// of a pick (persistence keeps every pick, secret lists included, so that a
// draft replays on its own with replay_draft).
//
// Cards are catalogue ids. Every function is pure; any thread.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "cod/engine/catalogue.hpp"
#include "cod/engine/draft.hpp"

namespace cod::protocol {

// R16.2: what one viewer may see (draft::view), with the pool (R14.8: the
// chosen packs' cards, public) so that a client can build a list from it.
// {"format", "table", "finished", "round", "pile_left", "pool": [ids],
//  "offer": [ids], "waiting": [{"seat", "pick", "count", "target"?}],
//  "seats": [{"seat", "ai", "taken", "list"?, "banned", "deck"?, "submitted",
//  "revealed", "deck_size"}], "ai_cards": [ids], "own_deck": [ids]}
nlohmann::json draft_view_to_json(const draft_view& v, std::span<const card_id> pool, const catalogue& cat);

// One event: {"type", "seat"?, "target"?, "cards"?, "deck"?, "count"?,
// "automatic"?}: only the fields the type uses. Every draft event is public.
nlohmann::json draft_event_to_json(const draft_event& e, const catalogue& cat);
nlohmann::json draft_events_to_json(std::span<const draft_event> events, const catalogue& cat);

// {"type": "draft", "room", "seq", "events", "draft": view}: pushed to every
// seat and spectator after each accepted pick (seq: the draft record's last
// seq), and sent alone (events []) on join, resume and spectate while drafting.
// `legal_picks` (legal_picks_to_json): only to a seat whose connection's
// hello asked for legal actions.
nlohmann::json make_draft(std::string_view room, std::int64_t seq, nlohmann::json events, nlohmann::json view,
                          const std::optional<nlohmann::json>& legal_picks = {});

// hello.legal_actions in a draft (docs/protocol.md, "Legal actions"): the
// seat's picks the draft allows now, from draft::legal_picks (each take, ban
// and deck choice, as draft_pick_to_json writes it: a draft_pick's fields).
// A secret list (submit) is not enumerated: any `count` different cards of
// the pool (draft.waiting says count). [] when the draft waits for no pick of
// this seat's, or only for its list.
nlohmann::json legal_picks_to_json(std::span<const draft_pick> legal, seat_t seat, const catalogue& cat);

// A pick as stored: {"pick", "cards": [ids]} or {"pick": "choose_deck", "deck"}.
nlohmann::json draft_pick_to_json(const draft_pick& p, const catalogue& cat);
// Reads it back for `seat`; nullopt and a sentence in `error` when it is not one.
std::optional<draft_pick> draft_pick_from_json(const nlohmann::json& j, seat_t seat, const catalogue& cat,
                                               std::string& error);

}  // namespace cod::protocol
