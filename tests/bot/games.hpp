// Self-played positions as the server sends them: random legal games
// (server/tools/self_play.hpp, as cod-bench plays them) in every mode, and
// after setup and after each action the update text each seat and a
// spectator would receive (protocol::update_text, the server's own writer).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cod/engine/match.hpp"
#include "cod/protocol/json_codec.hpp"
#include "cod/protocol/messages.hpp"
#include "self_play.hpp"

namespace cod::bot_test {

// Game g's setup: mostly duels (what cod-load plays), preconstructed and
// catalogue decks, with and without Champions; also free-for-all, 2v2, solo
// and co-op (what cod-bot plays through the JSON path).
inline match_config game_config(const catalogue& cat, long g) {
  const std::vector<card_id> pool = self_play::all_cards(cat);
  match_config cfg;
  cfg.seed = 7000 + static_cast<std::uint64_t>(g);
  cfg.exhaustion_rule = (g / 10) % 2 == 1;
  const int variant = static_cast<int>(g % 10);
  static const game_mode modes[10] = {game_mode::duel, game_mode::duel, game_mode::duel,       game_mode::duel,
                                      game_mode::duel, game_mode::duel, game_mode::ffa,        game_mode::two_vs_two,
                                      game_mode::solo, game_mode::coop};
  cfg.mode = modes[variant];
  cfg.seat_count = seats_of(cfg.mode);
  const bool catalogue_decks = variant == 1 || variant == 3 || variant == 5 || variant == 6 || variant == 8;
  const bool champions = variant == 2 || variant == 3 || variant == 5 || variant == 6 || variant == 8;
  const int precon_a = static_cast<int>(g % 4) + 1, precon_b = static_cast<int>((g / 4) % 4) + 1;
  if (cfg.mode == game_mode::solo || cfg.mode == game_mode::coop) {
    // R12.7, R11.7: humans at the even seats, AIs at the odd ones.
    if (catalogue_decks) self_play::random_decks(cfg.seed, pool, cfg.decks.data(), cfg.seat_count);
    for (int s = 0; s < cfg.seat_count; s += 2) {
      const int human = s == 0 ? precon_a : precon_b;
      if (catalogue_decks) self_play::random_ai_deck(cfg.seed, s + 1, pool, cfg.decks[s + 1]);
      else cfg.decks[s] = cat.preconstructed_deck(human), cfg.decks[s + 1] = solo_ai_deck(cat, human);
    }
    if (champions) {  // custom play only (R13.1)
      card_id champs[max_seats];
      self_play::random_champions(cfg.seed, cat, pool, cfg.decks.data(), champs, cfg.seat_count);
      int humans = 0;
      for (int s = 0; s < cfg.seat_count; s += 2, ++humans) cfg.champions[s] = champs[s];
      self_play::random_ai_settings(cfg.seed, humans, cfg.ai, cfg.difficulty);
    }
    return cfg;
  }
  if (catalogue_decks) {
    self_play::random_decks(cfg.seed, pool, cfg.decks.data(), cfg.seat_count);
  } else {
    cfg.decks[0] = cat.preconstructed_deck(precon_a);
    cfg.decks[1] = cat.preconstructed_deck(precon_b);
    for (int s = 2; s < cfg.seat_count; ++s) cfg.decks[s] = cat.preconstructed_deck(static_cast<int>((g + s) % 4) + 1);
  }
  if (champions) self_play::random_champions(cfg.seed, cat, pool, cfg.decks.data(), cfg.champions.data(), cfg.seat_count);
  return cfg;
}

// One update as a recipient gets it.
struct update_sample {
  std::string text;
  seat_t recipient = no_seat;  // a seat, or spectator
  long game = 0;
  long position = 0;
};

// Plays `games` games (at most `max_actions` actions each) and calls
// f(const update_sample&) for every recipient of every position. Some
// updates carry a clock, some the actor's ack id (hello.acks in_update),
// some escaped strings (room, id) the scanner must skip.
template <class F>
void for_each_update(const catalogue& cat, long first_game, long games, long max_actions, F&& f) {
  std::vector<event> events;
  std::vector<action> legal(match::max_legal_actions);
  update_sample u;
  for (long g = first_game; g < first_game + games; ++g) {
    const match_config cfg = game_config(cat, g);
    match m;
    events.clear();
    if (match::create(cat, cfg, m, events) != rule_error::ok) throw std::runtime_error("setup failed");
    const std::vector<card_id> uid_cards = protocol::uid_cards_from_view(m.view(referee));
    rng player = self_play::player_rng(cfg.seed);
    seat_t actor = no_seat;
    for (long n = 0;; ++n) {
      const std::string room = n % 7 == 3 ? "r\"o\\om/\u00e9\t" : "room-" + std::to_string(g);
      std::optional<protocol::clock_snapshot> clock;
      if (n % 3 == 1) clock = protocol::clock_snapshot{std::vector<std::int64_t>(static_cast<std::size_t>(cfg.seat_count), 90000 - n), m.active_seat()};
      const nlohmann::json ack = n % 4 == 2 ? nlohmann::json("id \"quoted\" \\ \u00e9") : nlohmann::json(1000 + n);
      for (int s = -1; s < cfg.seat_count; ++s) {
        const seat_t who = s < 0 ? spectator : static_cast<seat_t>(s);
        u.text = protocol::update_text(room, n, protocol::events_to_json(events, who, cat, uid_cards), m.view(who), cat,
                                       clock, who == actor && n % 2 ? &ack : nullptr);
        u.recipient = who;
        u.game = g;
        u.position = n;
        f(static_cast<const update_sample&>(u));
      }
      if (m.over() || n >= max_actions) break;
      const int n_legal = m.legal_actions(legal.data(), static_cast<int>(legal.size()));
      const action& a = legal[player.below(static_cast<std::uint64_t>(n_legal))];
      actor = a.seat;
      events.clear();
      if (m.apply(a, events) != rule_error::ok) throw std::runtime_error("a legal action was refused");
    }
  }
}

}  // namespace cod::bot_test
