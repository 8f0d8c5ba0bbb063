// The card catalogue: every card a match may use, as plain values.
//
// The engine never reads files: the protocol layer parses the shipped
// catalogue.json (or any other source) into card_defs and adds them here,
// and add() validates each one. Custom cards (tests, house rules) are added
// the same way, without touching the shipped file.
//
// Thread-safety: a catalogue is immutable once built; share it freely by const&.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "cod/engine/types.hpp"

namespace cod {

// The numbers the rules read on the hot path, kept together and small.
struct card_stats {
  card_type type = card_type::creature;
  std::int8_t mana = 0;
  std::int8_t av = 0;        // attack value; an incantation's damage
  std::int8_t hp = 0;        // 0 for incantations
  bool av_is_x = false;      // printed "X": Vulnerability decides the damage (R7)
  ability_set abilities = 0; // abilities the card has itself
  ability_set auras = 0;     // abilities it gives its neighbours (R7 Aura X)
  bool operator==(const card_stats&) const = default;
};

struct card_def {
  std::string id;    // stable catalogue id, e.g. "brute"
  std::string name;  // printed name, e.g. "BRUTE"
  std::string pack;  // e.g. "initiation"
  int deck = 0;      // preconstructed deck 1..4, 0 if none (R14.1)
  card_stats stats;
};

// A validation failure: which card, which field, what is wrong.
struct catalogue_error {
  std::string card;   // the card's id (or "#N" when it has none)
  std::string field;  // e.g. "mana"
  std::string message;
  std::string to_string() const;
};

class catalogue {
 public:
  // Validates def and adds it. Fails (and adds nothing) when a field is out of
  // range, the id is empty or already used, or the abilities contradict the type.
  std::optional<catalogue_error> add(card_def def);

  // Replaces the card with def's id, keeping its card_id, after validating
  // it: a match's own version of a card (R15: a mutated card). Fails (and
  // changes nothing) when the catalogue has no card with that id.
  std::optional<catalogue_error> replace(card_def def);

  // Checks a card without adding it.
  static std::optional<catalogue_error> validate(const card_def& def);

  std::size_t size() const { return defs_.size(); }
  const card_def& def(card_id id) const { return defs_[id]; }
  const card_stats& stats(card_id id) const { return stats_[id]; }
  std::optional<card_id> find(std::string_view id) const;

  // R14.1: the four preconstructed decks, as catalogue ids (deck n at index n-1).
  // Built from the cards' `deck` field.
  std::vector<card_id> preconstructed_deck(int deck) const;

 private:
  std::vector<card_def> defs_;
  std::vector<card_stats> stats_;  // parallel to defs_, dense for the hot path
  std::unordered_map<std::string, card_id> by_id_;
};

}  // namespace cod
