// House bots (docs/protocol.md, "add_bot"; docs/ai-server.md): a seated
// player of a waiting room gives a free seat to the server, which plays it at
// a level (cod::search deciding from the seat's view, on the AI pool), one
// action no sooner than bot_move_ms after the last. For the engine and the
// store a bot's seat is a seat like a human's (its actions are logged and
// replayed as any); the room knows it by `bot` (stored as token_hash
// house_bot_token_hash and its level, so that a restart gives the seat back
// to its bot) and never gives it a grace period, a resume or a connection.
#include <algorithm>
#include <charconv>
#include <chrono>
#include <utility>

#include <spdlog/spdlog.h>

#include "cod/search/player.hpp"
#include "common/metrics.hpp"
#include "room/ai_pool.hpp"
#include "room/room.hpp"

namespace cod::server {

namespace pr = cod::protocol;
using nlohmann::json;

// The wire's levels are the search's (protocol/ does not link cod_search).
static_assert(pr::min_bot_level == cod::search::min_level && pr::max_bot_level == cod::search::max_level);

std::string bot_token_hash(int level) {
  std::string h = house_bot_token_hash;
  if (level > 0) h += ":" + std::to_string(level);
  return h;
}

int bot_level_of(std::string_view token_hash) {
  const std::string_view base = house_bot_token_hash;
  if (token_hash == base) return 0;
  if (token_hash.size() <= base.size() + 1 || token_hash.substr(0, base.size()) != base ||
      token_hash[base.size()] != ':')
    return -1;
  int level = 0;
  const auto digits = token_hash.substr(base.size() + 1);
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), level);
  if (ec != std::errc() || end != digits.data() + digits.size()) return -1;
  return std::clamp(level, cod::search::min_level, cod::search::max_level);
}

bool bot_searches(game_mode mode) {
  return mode == game_mode::duel || mode == game_mode::ffa || mode == game_mode::two_vs_two;
}

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
  if (status_ != status::waiting) return refuse("the match has started: a bot takes a seat of a waiting room only");
  pr::join_msg wanted;
  wanted.seat = m.seat;
  pr::session_errc refused{};
  const int seat = choose_seat(wanted, refused);
  if (seat < 0) return c->send(pr::make_error(m.id, refused));

  // R14.6 allows a preconstructed deck in every format a bot plays (the
  // preconstructed and constructed rooms), and the engine's own check
  // passes it: the bot's join could not be refused. A drafted room (R14)
  // deals the bot its deck as anyone's: it drafts (bot_draft_pick).
  const bool drafted = pr::is_drafted(p_.format);
  const int number = drafted ? 0 : bot_deck_number(seat);
  pr::deck_choice choice;
  choice.preconstructed = number;
  auto deck = drafted ? pr::deck_result{} : pr::resolve_deck(choice, p_.format, cards());
  if (!deck.ok()) {
    spdlog::error("room {}: a bot's deck {} is refused: {}", p_.id, number, deck.message);
    return c->send(pr::make_error(m.id, pr::session_errc::internal_error, "the bot's deck was refused"));
  }
  const card_id champion = p_.options.champions ? bot_champion(deck.cards) : no_card;
  if (p_.options.champions && champion == no_card)
    return c->send(pr::make_error(m.id, pr::session_errc::internal_error, "no Champion could be found for the bot"));

  // A co-op room's bot plays random legal actions whatever the level asked
  // (the search plays duel, free-for-all and 2v2: docs/ai-server.md).
  const int level = bot_searches(p_.mode) ? m.level.value_or(svc_.cfg.bot_level) : 0;
  auto& s = seats_[static_cast<std::size_t>(seat)];
  s = seat_state{};
  s.taken = true;
  s.bot = true;
  s.level = level;
  s.name = "Bot " + std::to_string(seat + 1);
  if (level > 0) s.name += " (level " + std::to_string(level) + ")";
  s.token_hash = bot_token_hash(level);
  s.deck_json = drafted ? std::string(R"({"draft":true})") : pr::deck_to_json(choice).dump();
  s.deck = std::move(deck.cards);
  s.preconstructed = number;
  s.champion = champion;
  if (champion != no_card) s.champion_id = cards().def(champion).id;
  c->send(pr::make_bot_added(m.id, p_.id, seat, s.name, level));
  spdlog::info("room {}: seat {} given to a house bot (level {}) by seat {} ('{}'), {}", p_.id, seat,
               level > 0 ? std::to_string(level) : std::string("random"), by, seats_[static_cast<std::size_t>(by)].name,
               drafted ? std::string("its deck to draft") : "preconstructed deck " + std::to_string(number));
  send_seat_status(seat);
  publish_summary();
  if (seats_taken() == static_cast<int>(seats_.size())) {
    if (drafted) start_draft();
    else start_match();
  }
}

// A drafted room's bot (R14) drafts at random within the rules: a pick
// chosen uniformly among the engine's legal ones, or (a list to submit,
// which the engine does not enumerate) `count` different pool cards drawn
// at random until the engine's own check passes one. Paced like its moves:
// bot_move_ms after the draft came to it. Its match is then played as any
// house bot's.
void room::schedule_bot_draft_pick() {
  if (stopping_ || status_ != status::drafting || !draft_ || draft_->finished() || bot_draft_timer_) return;
  bool bot_waited_on = false;
  for (const auto& t : draft_->waiting()) bot_waited_on |= seats_[static_cast<std::size_t>(t.seat)].bot;
  if (!bot_waited_on) return;
  std::weak_ptr<room> weak = weak_from_this();
  bot_draft_timer_ = ex_->schedule(std::chrono::milliseconds(svc_.cfg.bot_move_ms), [weak] {
    if (auto self = weak.lock()) self->run(nullptr, {}, [self] { self->bot_draft_pick(); });
  });
}

void room::bot_draft_pick() {
  bot_draft_timer_ = 0;
  if (stopping_ || status_ != status::drafting || !draft_ || draft_->finished()) return;
  for (const auto& t : draft_->waiting()) {
    if (!seats_[static_cast<std::size_t>(t.seat)].bot) continue;
    std::optional<cod::draft_pick> pick;
    if (t.type == draft_pick_type::submit) {
      std::vector<card_id> pool = draft_->state().pool;
      for (int attempt = 0; attempt < 200 && !pick && static_cast<int>(pool.size()) >= t.count; ++attempt) {
        for (std::size_t i = pool.size(); i > 1; --i) std::swap(pool[i - 1], pool[bot_rng_.below(i)]);
        cod::draft_pick p;
        p.type = t.type;
        p.seat = t.seat;
        p.cards.assign(pool.begin(), pool.begin() + t.count);
        if (draft_->check(p) == draft_error::ok) pick = std::move(p);
      }
    } else {
      std::vector<cod::draft_pick> legal;
      draft_->legal_picks(legal);
      std::erase_if(legal, [&](const cod::draft_pick& p) { return p.seat != t.seat || p.type != t.type; });
      if (!legal.empty()) pick = legal[static_cast<std::size_t>(bot_rng_.below(legal.size()))];
    }
    if (!pick) {
      // Never expected (the engine lists what it waits for): logged, and
      // the draft waits as it would for a person.
      spdlog::error("room {}: the bot at seat {} found no legal {} pick", p_.id, t.seat,
                    draft_pick_type_name(t.type));
      continue;
    }
    spdlog::debug("room {}: bot seat {} drafts: {}", p_.id, t.seat, draft_pick_type_name(pick->type));
    // One pick at a time: the next is scheduled once this one is stored.
    apply_draft_pick(*pick, nullptr, json());
    return;
  }
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
  if (stopping_ || status_ != status::playing || match_.over()) return;
  const int seat = match_.active_seat();
  if (!seats_[static_cast<std::size_t>(seat)].bot) return;
  if (bot_turn_.seq == seq_) return;  // this position's turn is under way
  // A new position: whatever was on the way for an earlier one is stale
  // (submit() dropped it: bot_position_moved).
  if (bot_timer_) ex_->cancel(std::exchange(bot_timer_, 0));
  bot_turn_ = bot_turn_state{};
  bot_turn_.seq = seq_;
  bot_wanted_->store(-1);
  std::weak_ptr<room> weak = weak_from_this();
  bot_timer_ = ex_->schedule(std::chrono::milliseconds(svc_.cfg.bot_move_ms), [weak, seq = seq_] {
    if (auto self = weak.lock()) self->run(nullptr, {}, [self, seq] { self->on_bot_paced(seq); });
  });
  // The thinking overlaps the pace: a decision within bot_think_ms of a
  // free worker is played exactly bot_move_ms after the position arose.
  if (seats_[static_cast<std::size_t>(seat)].level > 0 && svc_.ai) do_bot_think(seat);
}

std::array<std::vector<card_id>, max_seats> room::bot_table() {
  std::array<std::vector<card_id>, max_seats> decks{};
  for (std::size_t i = 0; i < seats_.size() && i < decks.size(); ++i) {
    auto& s = seats_[i];
    if (s.deck.empty() && !s.deck_json.empty()) {
      // A recovered room knows its seats' deck lists by their stored
      // deck_json only: resolved once, as the join resolved them.
      const json d = json::parse(s.deck_json, nullptr, false);
      pr::deck_choice choice;
      if (d.is_object() && !pr::deck_from_json(d, choice)) {
        auto deck = pr::resolve_deck(choice, p_.format, cards());
        if (deck.ok()) s.deck = std::move(deck.cards);
      }
    }
    decks[i] = s.deck;  // still empty (an AI seat, a drafted deck): the search draws from the catalogue
  }
  return decks;
}

void room::do_bot_think(int seat) {
  const auto& s = seats_[static_cast<std::size_t>(seat)];
  cod::search::table table;
  table.decks = bot_table();
  cod::search::settings settings = cod::search::level_settings(s.level);
  // Reproducible: the match's seed and the position's seq make the seed; the
  // iterations run are logged with the decision (on_bot_decided), and the
  // same view, table, settings with that many iterations and seed give the
  // same action (cod::search::decide).
  const std::uint64_t seed = p_.seed ^ (0x9E3779B97F4A7C15ULL * static_cast<std::uint64_t>(seq_ + 1));
  bot_wanted_->store(seq_);
  bot_turn_.thinking = true;
  // The job holds copies and shared pointers only: the room may be gone
  // when it runs or finishes (it then posts to a room nobody holds, and the
  // weak_ptr finds nothing).
  auto job = [weak = weak_from_this(), ex = ex_, wanted = bot_wanted_, stats = svc_.stats, own = own_cards_,
              cat = &cards(), view = match_.view(static_cast<seat_t>(seat)), table = std::move(table), settings,
              seed, seq = seq_, think_ms = std::min(settings.think_ms, svc_.cfg.bot_think_ms)] {
    if (wanted->load() != seq) {  // the match moved on while it waited: no search for nothing
      if (stats) stats->ai_stale_total++;
      return;
    }
    const auto start = std::chrono::steady_clock::now();
    const auto deadline = start + std::chrono::milliseconds(think_ms);
    // Read between iterations; the wanted flag too, so a concede stops a long search.
    const cod::search::stop_check stop = [&] {
      return std::chrono::steady_clock::now() >= deadline || wanted->load() != seq;
    };
    const auto d = cod::search::decide(*cat, view, table, settings, seed, stop);
    const auto took = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start);
    if (stats) {
      stats->ai_decisions_total++;
      stats->ai_think_ms_total += static_cast<std::uint64_t>(took.count());
    }
    ex->post([weak, seq, d, took] {
      if (auto self = weak.lock())
        self->run(nullptr, {}, [self, seq, d, took] {
          self->on_bot_decided(seq, d.chosen, d.iterations, d.legal, took.count());
        });
    });
  };
  if (!svc_.ai->submit(std::move(job))) {
    bot_turn_.thinking = false;  // the pool has stopped: the pace timer plays a random action
    bot_wanted_->store(-1);
  }
}

void room::on_bot_decided(std::int64_t seq, const action& chosen, int iterations, int legal, std::int64_t think_ms) {
  // Stale (a concede, a turn timeout, an organiser's act moved the match on,
  // or the room stopped): dropped, never submitted.
  if (stopping_ || status_ != status::playing || match_.over() || seq != seq_ || bot_turn_.seq != seq ||
      !bot_turn_.thinking) {
    if (svc_.stats) svc_.stats->ai_stale_total++;
    spdlog::debug("room {}: a bot decision for seq {} dropped: the match is at seq {}", p_.id, seq, seq_);
    return;
  }
  bot_turn_.thinking = false;
  bot_wanted_->store(-1);
  bot_turn_.chosen = chosen;
  const int seat = match_.active_seat();
  spdlog::debug("room {}: bot seat {} level {} at seq {}: {} ({} iterations, {} legal, {} ms)", p_.id, seat,
                seats_[static_cast<std::size_t>(seat)].level, seq, pr::action_to_json(chosen).dump(), iterations,
                legal, think_ms);
  if (bot_turn_.paced) play_bot_choice();
}

void room::on_bot_paced(std::int64_t seq) {
  bot_timer_ = 0;
  if (stopping_ || status_ != status::playing || match_.over() || seq != seq_ || bot_turn_.seq != seq) return;
  if (!seats_[static_cast<std::size_t>(match_.active_seat())].bot) return;
  bot_turn_.paced = true;
  if (bot_turn_.chosen) return play_bot_choice();
  // Still thinking (the pool is busy: the decision waits its turn; the
  // seat's clock runs as anyone's): it is played when it comes.
  if (bot_turn_.thinking) return;
  bot_move();
}

void room::play_bot_choice() {
  const action a = *bot_turn_.chosen;
  bot_turn_.chosen.reset();
  std::vector<action> legal;
  match_.legal_actions(legal);
  if (std::find(legal.begin(), legal.end(), a) == legal.end()) {
    // Never expected (the search plays the view's legal actions): a random
    // legal one keeps the match going rather than stalling it.
    spdlog::error("room {}: a bot decision {} is not legal at seq {}: a random legal action instead", p_.id,
                  pr::action_to_json(a).dump(), seq_);
    return bot_move();
  }
  submit(a, nullptr, {});
}

void room::bot_move() {
  if (stopping_ || status_ != status::playing || match_.over()) return;
  if (!seats_[static_cast<std::size_t>(match_.active_seat())].bot) return;
  std::vector<action> legal;
  match_.legal_actions(legal);
  if (legal.empty()) return;
  // Uniform over the engine's list: every play of a playable card on each
  // of its lines or targets, and ending the phase.
  submit(legal[static_cast<std::size_t>(bot_rng_.below(legal.size()))], nullptr, {});
}

void room::bot_position_moved() {
  bot_wanted_->store(-1);  // a decision still on the pool: skipped, or dropped when it comes back
  if (bot_turn_.chosen) {  // one back but not yet paced: never played
    if (svc_.stats) svc_.stats->ai_stale_total++;
    bot_turn_.chosen.reset();
  }
}

void room::stop_bot_turn() {
  if (bot_timer_) ex_->cancel(std::exchange(bot_timer_, 0));
  if (bot_draft_timer_) ex_->cancel(std::exchange(bot_draft_timer_, 0));
  bot_wanted_->store(-1);
  bot_turn_ = bot_turn_state{};
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
