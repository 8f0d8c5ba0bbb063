// Deck building before a match (R14): preconstructed, constructed, instant
// constructed and the four drafts, as a state machine in the style of `match`.
//
//   draft d;
//   std::vector<draft_event> events;
//   draft_config cfg;                        // format, table, seed, packs
//   if (auto e = draft::create(cat, cfg, d, events); e != draft_error::ok) ...
//   d.legal_picks(picks);                    // takes, bans, deck choices on offer now
//   if (auto e = d.apply(pick, events); e != draft_error::ok) ... // nothing changed
//   draft_view v = d.view(seat);             // what `seat` may see (R16.2)
//   if (d.finished()) cfg_match.decks = d.decks(), cfg_match.seed = d.match_seed();
//
// Seats: A, B, C, D are seats 0..3. Solo: the human is seat 0, the AI seat 1.
// Co-op: the humans are A (0) and C (2), the AIs B (1) and D (3) (R14.5).
// A draft is a value; the same catalogue, config and picks give the same
// states, events and digests on every platform (rng.hpp).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "cod/engine/catalogue.hpp"
#include "cod/engine/rng.hpp"
#include "cod/engine/types.hpp"

namespace cod {

// R14: how decks are built. mutation: R15.1, the mutation league's draft (four
// players, pass-left packets of 16; each seat ends with its 16 drafted cards,
// from which the league takes deck and lab, R15.2).
enum class draft_format : std::uint8_t { preconstructed, constructed, instant_constructed, draft, mutation };
// Who builds decks: a duel (2 humans), four humans (free-for-all or 2v2),
// solo (a human and the AI) or co-op (2 humans and 2 AIs).
enum class draft_table : std::uint8_t { duel, four_players, solo, coop };

std::string_view draft_format_name(draft_format f);
std::string_view draft_table_name(draft_table t);
// Seats at a table, AIs included (solo: 2, co-op: 4).
constexpr int draft_seats(draft_table t) { return t == draft_table::duel || t == draft_table::solo ? 2 : 4; }
constexpr bool is_ai_seat(draft_table t, seat_t seat) {
  return (t == draft_table::solo && seat == 1) || (t == draft_table::coop && (seat == 1 || seat == 3));
}

// Stable error codes for a rejected draft or pick. The names are wire strings:
// never renumber or rename one, only add. Names shared with rule_error mean
// the same thing.
enum class draft_error : std::uint8_t {
  ok = 0,
  draft_over,           // the draft has finished
  not_your_turn,        // the seat is not one the draft waits for
  unknown_seat,         // no such human seat at this table
  wrong_pick,           // a pick of another kind than the draft waits for
  wrong_count,          // not as many cards as the step asks
  duplicate_card,       // the same card twice in one pick
  unknown_card,         // not in the catalogue
  card_not_in_pool,     // not among the chosen packs (R14.6, R14.7)
  card_not_on_offer,    // not among the revealed cards, or not in the list being banned from
  unknown_deck,         // R14.1: decks are 1..4
  // Creation errors.
  unknown_pack,         // no catalogue card is in that pack
  pool_too_small,       // too few cards for the format (or an incomplete preconstructed deck)
  format_not_allowed,   // that format is not played at that table (R2.1)
  bad_config,           // an enum out of range
};
std::string_view draft_error_name(draft_error e);
std::string_view draft_error_message(draft_error e);

struct draft_config {
  draft_format format = draft_format::draft;
  draft_table table = draft_table::duel;
  std::uint64_t seed = 0;          // R16.1: the match's seed
  // R14.8: the pool is every catalogue card of these packs, once each
  // (empty: every card). Drafts deal from it; constructed lists choose from
  // it. Preconstructed ignores it.
  std::vector<std::string> packs;
  // R13.1 (RULING E67): cards kept out of the pool: the seats' Champions,
  // each a 9th card outside its owner's deck. Never dealt, never listed.
  std::vector<card_id> withheld;
};

// What a seat does. A take or ban names every card of the step at once
// (R14.2: "B takes 2" is one pick of two cards).
enum class draft_pick_type : std::uint8_t {
  take,         // R14.2–R14.5: cards from those revealed
  choose_deck,  // R14.1: one of the four preconstructed decks
  submit,       // R14.6: a list of 8; R14.7: a secret list of 10
  ban,          // R14.7: cards of the other seat's revealed list
};
std::string_view draft_pick_type_name(draft_pick_type t);

struct draft_pick {
  draft_pick_type type = draft_pick_type::take;
  seat_t seat = no_seat;
  std::vector<card_id> cards;  // take, submit, ban
  int deck = 0;                // choose_deck: 1..4
  bool operator==(const draft_pick&) const = default;
};

// What happened, in order. Every event is public (R16.2: picks are public):
// a secret list is announced by `submitted` without its cards and shown by
// `list_revealed`; co-op's split of the AI cards gives no cards.
enum class draft_event_type : std::uint8_t {
  started,        // count: cards in the pile (0 without a pile)
  revealed,       // cards turned face up from the pile
  taken,          // seat took cards (automatic: the only cards left, no choice)
  given_to_ai,    // seat (the AI) received cards (solo, co-op; R14.1 solo: the other three decks)
  submitted,      // seat chose its deck or list in secret
  list_revealed,  // seat's deck (deck: 1..4 for preconstructed) or list, face up
  banned,         // seat banned cards of target's list (R14.7)
  ai_decks_split, // R14.5: the AI's cards shuffled and split, count each (contents secret)
  finished,       // every deck is complete
  packets_dealt,  // R15.1: count cards dealt face down to each seat's packet (contents secret)
};
std::string_view draft_event_type_name(draft_event_type t);

struct draft_event {
  draft_event_type type = draft_event_type::started;
  seat_t seat = no_seat;
  seat_t target = no_seat;
  std::vector<card_id> cards;
  int deck = 0;
  int count = 0;
  bool automatic = false;
  bool operator==(const draft_event&) const = default;
};

// One step of a format's schedule (built at creation, src/draft_schedule.cpp).
// Steps without a choice run by themselves.
enum class draft_step_type : std::uint8_t {
  reveal,          // count cards from the pile to the offer
  take,            // seat takes count from the offer (forced when count == offer size)
  rest_to_ai,      // the offer goes to the AI (R14.4, R14.5)
  choose_deck,     // every human seat chooses a deck in secret (R14.1)
  submit,          // every human seat submits a list of count in secret (R14.6, R14.7)
  reveal_lists,    // seat's list is revealed (no_seat: every human seat's)
  ban,             // seat bans count cards of target's list (R14.7)
  precon_to_ai,    // solo: the AI gets the three decks the human did not choose (R14.1)
  split_ai,        // co-op: the AI's cards shuffled, split between the AI seats (R14.5)
  deal_packets,    // R15.1: count cards from the pile to each seat's packet
  pass_pick,       // R15.1: every seat takes 1 from its packet in secret, then the packets pass left
};

struct draft_step {
  draft_step_type type = draft_step_type::reveal;
  seat_t seat = no_seat;
  seat_t target = no_seat;
  std::int8_t count = 0;
  bool operator==(const draft_step&) const = default;
};

struct draft_seat_state {
  std::vector<card_id> taken;    // drafts: cards taken, in pick order
  std::vector<card_id> list;     // preconstructed deck / constructed list, as submitted
  std::vector<card_id> banned;   // R14.7: cards of this seat's list banned by the other
  int deck = 0;                  // preconstructed: the deck chosen
  bool submitted = false;        // a secret list chosen; R15.1: this round's card taken
  bool revealed = false;
  std::vector<card_id> packet;   // R15.1: the packet the seat holds now (secret to others)
  bool operator==(const draft_seat_state&) const = default;
};

// The whole state, plain values (copy it to branch).
struct draft_state {
  draft_format format = draft_format::draft;
  draft_table table = draft_table::duel;
  int seat_count = 2;
  rng random;
  std::vector<card_id> pool;       // the chosen packs' cards, catalogue order
  std::vector<card_id> pile;       // drafts: the pool shuffled (R14.2); face down
  int pile_next = 0;               // the pile's top
  std::vector<card_id> offer;      // R15.1: the viewer's own packet      // revealed cards not yet taken, in reveal order
  std::vector<draft_step> schedule;
  int step = 0;                    // the step the draft is at
  int round = 0;                   // drafts: reveals so far
  std::array<draft_seat_state, max_seats> seats{};
  std::vector<card_id> ai_cards;   // solo, co-op: what the AI received, in order
  std::array<std::vector<card_id>, max_seats> decks{};  // when finished
  std::uint64_t match_seed = 0;    // when finished (RULING E62)
  bool finished = false;
  bool operator==(const draft_state&) const = default;
};

// A step the draft waits for: seat must make a pick of `type` with `count`
// cards (target: whose list a ban is from).
struct draft_turn {
  seat_t seat = no_seat;
  draft_pick_type type = draft_pick_type::take;
  int count = 0;
  seat_t target = no_seat;
  bool operator==(const draft_turn&) const = default;
};

struct draft_seat_view {
  bool ai = false;
  std::vector<card_id> taken;     // public (R16.2)
  std::vector<card_id> list;      // once revealed, or the viewer's own before
  std::vector<card_id> banned;
  int deck = 0;                   // like list
  bool submitted = false;
  bool revealed = false;
  int deck_size = 0;              // when finished: cards in its deck (an AI's contents stay secret)
  int taken_count = 0;            // cards taken (R15.1: another seat's picks are secret, E77)
};

// R16.2: what one viewer may see. Never the pile's order, another seat's
// secret list before it is revealed, nor which AI got which cards in co-op.
struct draft_view {
  draft_format format = draft_format::draft;
  draft_table table = draft_table::duel;
  seat_t viewer = no_seat;         // a seat, or spectator
  int seat_count = 2;
  bool finished = false;
  int round = 0;
  int pile_left = 0;
  std::vector<card_id> offer;
  std::vector<draft_turn> waiting;
  std::array<draft_seat_view, max_seats> seats{};
  std::vector<card_id> ai_cards;   // solo, co-op: every card the AI received (public)
  std::vector<card_id> own_deck;   // when finished: the viewer's deck
};

class draft {
 public:
  // Builds the pool (R14.8), checks it suits the format, shuffles it into the
  // pile with the generator seeded from cfg.seed (R16.1) and runs every step
  // that needs no choice (the first reveal).
  static draft_error create(const catalogue& cat, const draft_config& cfg, draft& out,
                            std::vector<draft_event>& events);

  // Validates `p`; if legal, applies it, runs the steps that follow without
  // a choice and appends what happened. If not, returns the error and
  // changes nothing.
  draft_error apply(const draft_pick& p, std::vector<draft_event>& events);
  draft_error check(const draft_pick& p) const;

  // What the draft waits for now (several seats at once for secret lists).
  std::vector<draft_turn> waiting() const;
  // Every legal take, ban and deck choice now, seat by seat. Lists (submit)
  // are any `count` different pool cards and are not enumerated.
  void legal_picks(std::vector<draft_pick>& out) const;

  draft_view view(seat_t viewer) const;
  std::uint64_t digest() const;

  bool finished() const { return s_.finished; }
  // When finished: each seat's deck (8 cards; an AI seat's 24), ready for
  // match_config.decks, and the seed the match goes on with (RULING E62).
  const std::array<std::vector<card_id>, max_seats>& decks() const { return s_.decks; }
  std::uint64_t match_seed() const { return s_.match_seed; }

  // The full record: every event since creation, and every accepted pick
  // (secret lists included: the server keeps it, never sends it).
  const std::vector<draft_event>& record() const { return record_; }
  const std::vector<draft_pick>& picks() const { return picks_; }
  const draft_state& state() const { return s_; }
  const catalogue& cards() const { return *cat_; }

 private:
  void advance(std::vector<draft_event>& events);
  void finish(std::vector<draft_event>& events);
  void emit(std::vector<draft_event>& events, draft_event e);

  const catalogue* cat_ = nullptr;
  draft_state s_{};
  std::vector<draft_event> record_;
  std::vector<draft_pick> picks_;
};

// Replays a draft from its config and picks. Stops at the first rejected pick
// and returns its index in `failed_at` (-1 if all applied); `digests` gets
// the digest after creation and after every pick.
draft_error replay_draft(const catalogue& cat, const draft_config& cfg, const std::vector<draft_pick>& picks,
                         draft& out, int& failed_at, std::vector<std::uint64_t>* digests = nullptr);

}  // namespace cod
