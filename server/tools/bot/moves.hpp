// Moves a client can try, computed from its own view (docs/protocol.md,
// "Views" and "Actions") and the card catalogue: what cod-load plays.
// (cod-bot and the web client play from the server's own list instead,
// hello.legal_actions; cod-load keeps this generator for the reasons in
// cod_load.cpp's header: no JSON DOM on its hot path, and a load that can
// run without the list to measure what the list costs.) The list is the
// client's best guess at the legal actions, not the engine's
// legal_actions(): the view hides nothing the seat needs, but a few rules
// (R3.2.5 "leaves only the Stronghold", Cursed or Mercenary targets...) are
// left to the server, which answers a rule error and changes nothing.
// Callers try another candidate then; end_turn is always in the list and is
// always legal on the seat's own turn, so a game always moves on.
//
// Two ways in, one way through: a turn_view holds the few fields of a view
// the candidates depend on. cod-load fills it straight from the update's
// text (bot/view_scan.hpp) and writes its act frame with append_act_text, so
// neither side of its turn builds a JSON DOM; from a parsed view
// (turn_view_from_json) when the scanner refuses an update, and in the
// tests that check the scanner. candidate_moves is the one place the choice
// is made, so both give the same list in the same order. pick_champion,
// parse_card_list and move_rng serve cod-bot too.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cod/engine/catalogue.hpp"

namespace cod::bot {

// What candidate_moves reads from a view. Filled completely only on the
// viewer's turn (my_turn()); otherwise only viewer, active_seat and summoning
// are kept and the rest is empty, whichever way it was filled.
// Card ids are resolved against the catalogue while filling: nullopt for a
// card_id that is null, not a string or unknown (the candidates skip those).
struct turn_view {
  struct card {
    int uid = 0;
    std::optional<card_id> id;
    bool operator==(const card&) const = default;
  };
  struct creature {
    int uid = 0;
    int line = 0;         // index in the view's "lines"
    int side_seat = -1;   // its side's "seat" (-1: null)
    bool top_null = true;  // no Symbiote on top of it
    bool symbiote = false;  // "symbiote" among its (effective) abilities
    std::optional<card_id> id;
    bool operator==(const creature&) const = default;
  };
  int viewer = -1;       // -1: null (a spectator)
  int active_seat = -1;  // -1: null
  bool summoning = false;  // phase "summoning"
  // What a move needs of one seat of "seats".
  struct seat {
    int mana = 0;
    int upper_line = 0;
    int lower_line = 0;
    bool has_champion = false;    // "champion" is an object, not null
    bool champion_ready = false;  // its state is "ready"
    int champion_uid = 0;
    std::optional<card_id> champion_id;
    bool operator==(const seat&) const = default;
  };
  seat me;  // the viewer's (seats[viewer])
  std::vector<creature> creatures;  // every creature: lines, then sides, in view order
  std::vector<card> hand;           // in hand order (Lucidity looks at index 0)
  std::vector<int> playable;

  bool my_turn() const { return viewer >= 0 && summoning && active_seat == viewer; }
  // Keeps viewer, active_seat, summoning; empties the rest (capacity kept).
  void clear_board();
  bool operator==(const turn_view&) const = default;
};

// A candidate: a play (a creature on a line, a Symbiote on a host, an
// incantation on a target) or end_turn.
struct move {
  enum class kind : std::uint8_t { end_turn, play };
  kind type = kind::end_turn;
  int card = -1;    // play: the uid played
  int line = -1;    // a creature: 0 upper, 1 lower (the seat's lines); -1 for an incantation
  int host = -1;    // a Symbiote's host uid, or -1
  int target = -1;  // an incantation's target uid, or -1
  bool operator==(const move&) const = default;
};

// Fills `out` from a view (docs/protocol.md). Throws nlohmann's exceptions
// on a view missing what it reads, as candidate_actions always has.
void turn_view_from_json(const nlohmann::json& view, const catalogue& cat, turn_view& out);

// The candidates of candidate_actions, in its order, replacing `out`'s
// contents (its capacity is reused).
void candidate_moves(const turn_view& v, const catalogue& cat, std::vector<move>& out);

// A move in wire form (what candidate_actions lists).
nlohmann::json move_to_json(const move& m);
// Whether parse_action accepts move_to_json(m): its uids are card uids
// (0 to max_uids - 1). The caller drops a move that is not, as a refused one.
bool move_on_wire(const move& m);
// Appends {"type": "act", "id": id, "action": move_to_json(m)} as text, exactly
// client_message_to_json(act_msg{...}).dump(), with no DOM built.
void append_act_text(std::string& out, std::int64_t id, const move& m);

// Whether the view's viewer may act now: a player view, its own turn, the
// match not over.
bool my_turn(const nlohmann::json& view);

// Every candidate action (wire form, without the seat) for the viewer:
//   - each card of `playable` the seat can pay for (printed mana, 2 less with
//     Lucidity; Price of Blood pays the rest in Stronghold damage):
//     a creature on its upper and on its lower line when that side has room,
//     and, for a Symbiote, on top of each of the seat's creatures that carries
//     no Symbiote; an incantation on every creature in play;
//   - the seat's Champion (R13) while it is ready and in `playable`, on each
//     line with room, when the seat can pay its cost (R13.2: printed mana
//     less 1 per creature in play of exactly that mana cost);
//   - end_turn (always last).
// Empty when it is not the viewer's turn.
// (turn_view_from_json, candidate_moves, move_to_json.)
std::vector<nlohmann::json> candidate_actions(const nlohmann::json& view, const catalogue& cat);

// A small, fast generator (splitmix64) for picking moves: reproducible from
// a seed, independent of the standard library's distributions.
class move_rng {
 public:
  explicit move_rng(std::uint64_t seed) : s_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (s_ += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }
  // Uniform in [0, n); n > 0.
  std::size_t below(std::size_t n) { return static_cast<std::size_t>(next() % n); }

 private:
  std::uint64_t s_;
};

// Picks moves for one seat over one match: a uniform choice among the
// candidates not yet refused in the current position. refused() drops the
// last pick (the server answered a rule error) and picks again.
class move_picker {
 public:
  explicit move_picker(std::uint64_t seed) : rng_(seed) {}

  // A new position (a state or update came): recompute the candidates.
  void set_view(const nlohmann::json& view, const catalogue& cat);
  void set_view(const turn_view& view, const catalogue& cat);
  // The next move to try, or null when none is left (not the seat's turn).
  const move* pick();
  // The last pick was refused by a rule error: never try it again in this
  // position.
  void refused();
  std::size_t candidates() const { return moves_.size(); }

 private:
  move_rng rng_;
  turn_view view_;  // set_view(json)'s scratch, reused
  std::vector<move> moves_;
  std::size_t last_ = 0;
  bool has_last_ = false;
};

// R13.1: a Champion for a seat with `deck`: a random catalogue creature not
// in the deck, a function of `seed`. Returns its catalogue id.
std::string pick_champion(std::uint64_t seed, const catalogue& cat, const std::vector<card_id>& deck);

// Splits a comma-separated card list ("--cards brute,troll,...") into ids.
// Returns "" or an error sentence.
std::string parse_card_list(const std::string& text, std::vector<std::string>& out);

}  // namespace cod::bot
