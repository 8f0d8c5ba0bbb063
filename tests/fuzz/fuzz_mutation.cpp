// Fuzz target: mutation phases as a league player would send them (R15.4,
// R15.5; protocol/mutation_json.hpp), applied to a fixed deck and lab.
// The input is a JSON array of phases, each an array of mutations.
// Checks: nothing throws or crashes; a refused phase changes nothing; an
// accepted one spends at most 2.5 points, never lowers AV or HP, never takes
// them past 9 unless printed so, and leaves every deck card a valid card
// definition (catalogue::validate), with incantations untouched.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include <nlohmann/json.hpp>

#include "cod/engine/mutation.hpp"
#include "cod/protocol/mutation_json.hpp"
#include "fuzz_common.hpp"

namespace {

// The first 16 cards of the catalogue (the initiation pack): every other one
// to the deck, the rest to the lab.
cod::league_deck fresh_deck() {
  const auto& cat = cod::fuzz::shipped();
  std::vector<cod::card_id> drafted, deck;
  for (cod::card_id c = 0; c < 16; ++c) {
    drafted.push_back(c);
    if (c % 2 == 0) deck.push_back(c);
  }
  cod::league_deck d;
  cod::fuzz::check(cod::make_league_deck(cat, drafted, deck, d) == cod::mutation_error::ok, "the fixed deck");
  return d;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto& cat = cod::fuzz::shipped();
  const auto j = nlohmann::json::parse(std::string_view(reinterpret_cast<const char*>(data), size), nullptr, false);
  if (!j.is_array()) return 0;
  static const cod::league_deck start = fresh_deck();
  cod::league_deck d = start;
  const auto costs = cod::mutation_costs::ruling();
  for (const auto& phase : j) {
    if (!phase.is_array()) continue;
    std::vector<cod::mutation> ms;
    for (const auto& m : phase)
      if (auto r = cod::protocol::mutation_from_json(m, cat); r.ok()) ms.push_back(r.m);
    const cod::league_deck before = d;
    cod::half_points spent = -1;
    const auto r = cod::apply_mutations(costs, d, ms, &spent);
    if (!r.ok()) {
      cod::fuzz::check(d == before, "a refused phase changed the deck");
      cod::fuzz::check(r.index >= 0 && r.index < static_cast<int>(ms.size()), "a refusal names no mutation");
      continue;
    }
    cod::fuzz::check(spent >= 0 && spent <= cod::mutation_budget, "a phase spent more than 2.5 points");
    for (std::size_t i = 0; i < d.deck.size(); ++i) {
      const auto& now = d.deck[i].stats;
      const auto& was = before.deck[i].stats;
      cod::fuzz::check(!cod::catalogue::validate(cod::mutated_def(cat, d.deck[i])), "a mutated card is invalid");
      if (was.type == cod::card_type::incantation) cod::fuzz::check(now == was, "an incantation mutated");
      cod::fuzz::check(now.hp >= was.hp && (now.hp <= 9 || now.hp == was.hp), "HP lowered or past 9");
      if (!was.av_is_x && !now.av_is_x && now.av != was.av)
        cod::fuzz::check(now.av > was.av && now.av <= 9, "AV lowered or past 9");
      for (const auto& m : ms)
        if (m.element == cod::mutation_element::ability && m.target == d.deck[i].id)
          cod::fuzz::check(std::popcount(now.auras) <= 1 || now.auras == was.auras, "a second Aura");
    }
    for (const auto& m : ms) {
      const auto text = cod::protocol::mutation_to_json(m, cat);
      const auto back = cod::protocol::mutation_from_json(text, cat);
      cod::fuzz::check(back.ok() && back.m == m, "a mutation does not round-trip through JSON");
    }
  }
  return 0;
}
