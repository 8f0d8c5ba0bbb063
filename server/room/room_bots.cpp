// House bots (docs/protocol.md, "add_bot"): a seated player of a waiting
// room gives a free seat to the server, which plays it with random legal
// actions, one every bot_move_ms. For the engine and the store a bot's seat
// is a seat like a human's (its actions are logged and replayed as any);
// the room knows it by `bot` (stored as token_hash house_bot_token_hash, so
// that a restart gives the seat back to its bot) and never gives it a grace
// period, a resume or a connection.
#include <algorithm>
#include <utility>

#include <spdlog/spdlog.h>

#include "room/room.hpp"

namespace cod::server {

namespace pr = cod::protocol;
using nlohmann::json;

void room::add_bot(std::shared_ptr<peer> c, pr::add_bot_msg m) {
  auto id = m.id;
  run(c, std::move(id), [self = shared_from_this(), c, m = std::move(m)] { self->do_add_bot(c, m); });
}

void room::do_add_bot(const std::shared_ptr<peer>& c, const pr::add_bot_msg& m) {
  const int by = acting_seat(c, m.id);
  if (by < 0) return;
  auto refuse = [&](const char* why) { c->send(pr::make_error(m.id, pr::session_errc::bot_refused, why)); };
  // A tournament's or a league's seats belong to its players: a bot there
  // would play someone's game.
  if (!p_.reserved.empty() || hooks_.finished)
    return refuse("this room's seats belong to a tournament's or a league's players: no bot takes one");
  if (pr::is_drafted(p_.format))
    return refuse("this room drafts its decks (R14) and a bot does not draft: add bots to a preconstructed or "
                  "constructed room");
  if (status_ != status::waiting) return refuse("the match has started: a bot takes a seat of a waiting room only");
  pr::join_msg wanted;
  wanted.seat = m.seat;
  pr::session_errc refused{};
  const int seat = choose_seat(wanted, refused);
  if (seat < 0) return c->send(pr::make_error(m.id, refused));

  // R14.6 allows a preconstructed deck in every format a bot plays (the
  // preconstructed and constructed rooms), and the engine's own check
  // passes it: the bot's join could not be refused.
  const int number = bot_deck_number(seat);
  pr::deck_choice choice;
  choice.preconstructed = number;
  auto deck = pr::resolve_deck(choice, p_.format, cards());
  if (!deck.ok()) {
    spdlog::error("room {}: a bot's deck {} is refused: {}", p_.id, number, deck.message);
    return c->send(pr::make_error(m.id, pr::session_errc::internal_error, "the bot's deck was refused"));
  }
  const card_id champion = p_.options.champions ? bot_champion(deck.cards) : no_card;
  if (p_.options.champions && champion == no_card)
    return c->send(pr::make_error(m.id, pr::session_errc::internal_error, "no Champion could be found for the bot"));

  auto& s = seats_[static_cast<std::size_t>(seat)];
  s = seat_state{};
  s.taken = true;
  s.bot = true;
  s.name = "Bot " + std::to_string(seat + 1);
  s.token_hash = std::string(house_bot_token_hash);
  s.deck_json = pr::deck_to_json(choice).dump();
  s.deck = std::move(deck.cards);
  s.preconstructed = number;
  s.champion = champion;
  if (champion != no_card) s.champion_id = cards().def(champion).id;
  c->send(pr::make_bot_added(m.id, p_.id, seat, s.name));
  spdlog::info("room {}: seat {} given to a house bot by seat {} ('{}'), preconstructed deck {}", p_.id, seat, by,
               seats_[static_cast<std::size_t>(by)].name, number);
  send_seat_status(seat);
  publish_summary();
  if (seats_taken() == static_cast<int>(seats_.size())) start_match();
}

int room::bot_deck_number(int seat) {
  std::vector<int> free_numbers;
  for (int n = 1; n <= 4; ++n) {
    bool used = false;
    for (std::size_t i = 0; i < seats_.size(); ++i)
      used |= static_cast<int>(i) != seat && seats_[i].taken && seats_[i].preconstructed == n;
    if (!used) free_numbers.push_back(n);
  }
  if (free_numbers.empty()) return 1 + static_cast<int>(bot_rng_.below(4));
  return free_numbers[static_cast<std::size_t>(bot_rng_.below(free_numbers.size()))];
}

// R13.1: a creature of the catalogue outside the deck, as a join's Champion
// is checked (the engine's own check).
card_id room::bot_champion(const std::vector<card_id>& deck) {
  const std::size_t n = cards().size();
  if (n == 0) return no_card;
  const std::size_t start = static_cast<std::size_t>(bot_rng_.below(n));
  for (std::size_t k = 0; k < n; ++k) {
    const auto id = static_cast<card_id>((start + k) % n);
    if (cards().stats(id).type != card_type::creature) continue;
    if (match::check_champion(cards(), id, deck) == rule_error::ok) return id;
  }
  return no_card;
}

void room::schedule_bot_move() {
  if (bot_timer_ || stopping_ || status_ != status::playing || match_.over()) return;
  if (!seats_[static_cast<std::size_t>(match_.active_seat())].bot) return;
  std::weak_ptr<room> weak = weak_from_this();
  bot_timer_ = ex_->schedule(std::chrono::milliseconds(svc_.cfg.bot_move_ms), [weak] {
    if (auto self = weak.lock()) self->run(nullptr, {}, [self] { self->bot_move(); });
  });
}

void room::bot_move() {
  bot_timer_ = 0;
  if (stopping_ || status_ != status::playing || match_.over()) return;
  if (!seats_[static_cast<std::size_t>(match_.active_seat())].bot) return;
  std::vector<action> legal;
  match_.legal_actions(legal);
  if (legal.empty()) return;
  // Uniform over the engine's list: every play of a playable card on each
  // of its lines or targets, and ending the phase.
  submit(legal[static_cast<std::size_t>(bot_rng_.below(legal.size()))], nullptr, {});
}

void room::free_bots_without_players() {
  if (status_ != status::waiting) return;
  for (const auto& s : seats_)
    if (s.taken && !s.played_by_server()) return;
  for (std::size_t i = 0; i < seats_.size(); ++i) {
    if (!seats_[i].bot) continue;
    seats_[i] = seat_state{};
    spdlog::info("room {}: seat {} freed: its bot's players have all left", p_.id, i);
    send_seat_status(static_cast<int>(i));
  }
  publish_summary();
}

}  // namespace cod::server
