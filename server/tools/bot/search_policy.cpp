#include "bot/search_policy.hpp"

#include <chrono>
#include <utility>

#include <nlohmann/json.hpp>

#include "cod/engine/rng.hpp"
#include "cod/protocol/view_decode.hpp"

namespace cod::bot {

std::optional<policy_kind> policy_from_name(std::string_view name) {
  for (policy_kind p : {policy_kind::random, policy_kind::greedy, policy_kind::search})
    if (name == policy_name(p)) return p;
  return std::nullopt;
}

search_policy::search_policy(const catalogue& cat, policy_kind kind, int level, int think_ms, std::uint64_t seed,
                             search::table decks)
    : cat_(cat), settings_(search::level_settings(level)), think_ms_(think_ms), seed_(seed),
      decks_(std::move(decks)) {
  settings_.kind = kind;  // search keeps the level's settings; greedy and random ignore the budget
}

search_policy::choice search_policy::decide(const nlohmann::json& view, std::int64_t seq) const {
  choice c;
  seat_view v;
  // The room's stall turn comes with the view; a server from before it was
  // on the wire leaves the rooms' default (view_decode.hpp).
  if (auto e = protocol::view_from_json(view, cat_, v)) {
    c.why = "the view does not decode: " + e->field + ": " + e->message;
    return c;
  }
  if (v.viewer < 0 || v.viewer >= max_seats) {
    c.why = "not a seat's view";
    return c;
  }
  if (v.mode != game_mode::duel && v.mode != game_mode::ffa && v.mode != game_mode::two_vs_two) {
    c.why = "the computer players play duel, free-for-all and 2v2 only";
    return c;
  }
  const search::table& t = decks_;
  std::uint64_t mix = seed_ ^ (static_cast<std::uint64_t>(seq) * 0x9E3779B97F4A7C15ULL);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(think_ms_);
  const search::decision d = search::decide(cat_, v, t, settings_, rng::splitmix64(mix),
                                            [deadline] { return std::chrono::steady_clock::now() >= deadline; });
  // decide() answers end_turn with no legal action counted when it could not
  // build a world from the view: say so rather than end the turn blindly.
  if (d.legal == 0) {
    c.why = "no world fits the view (the search saw no legal action)";
    return c;
  }
  c.chosen = d.chosen;
  c.iterations = d.iterations;
  return c;
}

}  // namespace cod::bot
