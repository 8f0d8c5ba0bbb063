// Creating a tournament: validation, tokens, the seed order; and from_parts.
#include <algorithm>
#include <numeric>

#include "cod/engine/rng.hpp"
#include "cod/protocol/names.hpp"
#include "common/constant_time.hpp"
#include "tournament/text.hpp"
#include "tournament/tournament.hpp"

namespace cod::tournaments {

namespace {

status bad_config(std::string why) { return {errc::invalid_config, std::move(why)}; }

status check_config(const config& c, int n) {
  // The same check as players' names (cod/protocol/names.hpp).
  if (auto why = protocol::name_problem(c.name, max_tournament_name_chars))
    return bad_config(cat("name: the tournament's name ", *why, " (1 to ", max_tournament_name_chars,
                          " characters, something visible, no control or bidirectional control characters)"));
  if (c.mode != "duel") return bad_config("mode: tournaments are played in \"duel\" only");
  if (c.format.empty() || c.format.size() > 32 ||
      !std::all_of(c.format.begin(), c.format.end(), [](char ch) { return (ch >= 'a' && ch <= 'z') || ch == '_'; }))
    return bad_config("format: a format name in lower_snake_case");
  if (c.best_of != 1 && c.best_of != 3) return bad_config("best_of: 1 or 3");
  if (c.swiss_rounds < 1) return bad_config("swiss_rounds: at least 1");
  // More rounds than players - 1 forces rematches (a round robin is n - 1 rounds).
  if (c.swiss_rounds > n - 1)
    return bad_config(cat("swiss_rounds: at most players - 1 (", n - 1, ") so that no one must meet twice"));
  if (c.top_cut != 0 && c.top_cut != 2 && c.top_cut != 4 && c.top_cut != 8)
    return bad_config("top_cut: 0, 2, 4 or 8");
  if (c.top_cut > n) return bad_config(cat("top_cut: at most the number of players (", n, ")"));
  if (c.clock) {
    if (c.clock->bank_ms < min_bank_ms || c.clock->bank_ms > max_bank_ms)
      return bad_config(cat("clock.bank_ms: ", min_bank_ms, " to ", max_bank_ms));
    if (c.clock->increment_ms < 0 || c.clock->increment_ms > max_increment_ms)
      return bad_config(cat("clock.increment_ms: 0 to ", max_increment_ms));
  }
  return {};
}

status check_names(const std::vector<std::string>& names) {
  const int n = static_cast<int>(names.size());
  if (n < 2 || n > max_players) return {errc::invalid_players, cat("players: 2 to ", max_players)};
  for (std::size_t i = 0; i < names.size(); ++i) {
    const std::string& s = names[i];
    // The join's check (cod/protocol/names.hpp), plus no space at either end.
    std::optional<std::string> why = protocol::name_problem(s, max_player_name_chars);
    if (!why && (s.front() == ' ' || s.back() == ' ')) why = "starts or ends with a space";
    if (why)
      return {errc::invalid_players,
              cat("player ", i + 1, ": the name ", *why, " (1 to ", max_player_name_chars,
                  " characters, something visible, no control or bidirectional control characters, no leading or "
                  "trailing space)")};
    for (std::size_t j = 0; j < i; ++j)
      if (ascii_lower(names[j]) == ascii_lower(s))
        return {errc::invalid_players, cat("player ", i + 1, ": the name \"", s, "\" is taken (names ignore case)")};
  }
  return {};
}

}  // namespace

std::uint64_t pairing_seed(std::uint64_t tournament_seed, int round, int attempt) {
  std::uint64_t x = (static_cast<std::uint64_t>(static_cast<std::uint32_t>(round)) << 32) |
                    static_cast<std::uint32_t>(attempt);
  return tournament_seed ^ rng::splitmix64(x);
}

status tournament::create(const config& c, const std::vector<std::string>& names, const random_source& random,
                          tournament& out, std::vector<std::string>& tokens, std::string_view event_id) {
  if (status s = check_names(names); !s) return s;
  if (status s = check_config(c, static_cast<int>(names.size())); !s) return s;
  tournament t;
  t.config_ = c;
  // The last tiebreaker: a permutation drawn from the seed itself (pairings
  // use pairing_seed, never the bare seed, so the streams do not overlap).
  std::vector<int> order(names.size());
  std::iota(order.begin(), order.end(), 0);
  rng g(c.seed);
  g.shuffle(order.data(), static_cast<int>(order.size()));
  std::vector<std::string> fresh;
  for (std::size_t i = 0; i < names.size(); ++i) {
    player p;
    p.name = names[i];
    fresh.push_back(make_token(random, event_id));
    p.token_hash = token_hash(fresh.back());
    t.players_.push_back(std::move(p));
  }
  for (std::size_t pos = 0; pos < order.size(); ++pos)
    t.players_[static_cast<std::size_t>(order[pos])].seed_order = static_cast<int>(pos);
  out = std::move(t);
  tokens = std::move(fresh);
  return {};
}

std::vector<std::string> tournament::warnings(const config& c, int player_count) {
  std::vector<std::string> w;
  int needed = 0;  // rounds for at most one undefeated player: ceil(log2(players))
  while ((1 << needed) < player_count) ++needed;
  if (c.swiss_rounds < needed)
    w.push_back(cat("swiss_rounds: ", c.swiss_rounds, " rounds may leave several undefeated players (", needed,
                    " separate ", player_count, " players)"));
  if (c.top_cut > 0 && c.top_cut * 2 > player_count)
    w.push_back(cat("top_cut: a cut of ", c.top_cut, " takes more than half of ", player_count, " players"));
  return w;
}

tournament tournament::from_parts(config c, std::vector<player> players, std::vector<round> rounds,
                                  std::vector<log_entry> log) {
  tournament t;
  t.config_ = std::move(c);
  t.players_ = std::move(players);
  t.rounds_ = std::move(rounds);
  t.log_ = std::move(log);
  return t;
}

std::optional<player_id> tournament::find_player(std::string_view name) const {
  const std::string want = ascii_lower(name);
  for (std::size_t i = 0; i < players_.size(); ++i)
    if (ascii_lower(players_[i].name) == want) return static_cast<player_id>(i);
  return std::nullopt;
}

std::optional<player_id> tournament::find_player_by_token(std::string_view token) const {
  const std::string h = token_hash(token);
  std::optional<player_id> found;
  // Every hash is compared, so the time does not say which player matched.
  for (std::size_t i = 0; i < players_.size(); ++i)
    if (server::constant_time_equal(players_[i].token_hash, h)) found = static_cast<player_id>(i);
  return found;
}

}  // namespace cod::tournaments
