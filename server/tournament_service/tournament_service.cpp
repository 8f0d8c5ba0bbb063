#include "tournament_service/tournament_service.hpp"

#include <algorithm>
#include <future>

#include <spdlog/spdlog.h>

#include "cod/protocol/client_messages.hpp"
#include "common/random.hpp"
#include "common/strcat.hpp"
#include "room/match_id.hpp"
#include "room/room.hpp"
#include "room/room_registry.hpp"

namespace cod::server {

namespace tn = cod::tournaments;
namespace pr = cod::protocol;
using detail::cat;

namespace {

// An id a cluster node gives a tournament ("n2-t3f0a9c71b2"): the node id
// (no dash), "-t", ten hex digits. A room's is "n2-rk7q4": only ids of this
// form are asked to move here (deps::want), never a room's.
bool cluster_tournament_id(const std::string& id) {
  const auto dash = id.find('-');
  if (dash == std::string::npos || dash == 0 || id.size() != dash + 12 || id[dash + 1] != 't') return false;
  return std::all_of(id.begin() + static_cast<std::ptrdiff_t>(dash) + 2, id.end(),
                     [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

}  // namespace

tournament_service::tournament_service(deps d) : d_(std::move(d)) {}

// ---------------------------------------------------------------------------
// Saving and loading.

void tournament_service::save(const std::string& id, const entry& e, std::function<void()> then) {
  d_.store->save_tournament({id, e.t, e.x, e.created_ms}, [id, then = std::move(then)](const status& st) {
    if (!st) spdlog::error("tournament {}: could not be saved: {}", id, st.message());
    if (then) then();
  });
}

bool tournament_service::report_stored(const std::string& id, entry& e, const std::string& match_id, int table,
                                       tn::player_id a, tn::player_id b, const stored_match& sm) {
  // Voided (re-paired) or aborted by the server: no result to report.
  if (sm.result && sm.result->reason != "voided" && sm.result->reason != "aborted") {
    tn::player_id w = tn::no_player;
    if (sm.result->winners.size() == 1) w = sm.result->winners[0] == 0 ? a : b;
    if (!e.t.report_game(match_id, w)) return false;
    spdlog::info("tournament {}: match {} of table {} ended while no room of this node ran it: counted from the store",
                 id, match_id, table);
    return true;
  }
  return false;
}

std::set<std::string> tournament_service::live_rooms() const {
  std::set<std::string> out;
  for (auto& [id, finished] : d_.rooms->room_states())
    if (!finished) out.insert(std::move(id));
  return out;
}

std::map<std::string, stored_match> tournament_service::undecided_matches(const stored_tournament& l) const {
  std::map<std::string, stored_match> out;
  const tn::round* r = l.t.current_round();
  if (!r) return out;
  const auto live = live_rooms();
  for (const auto& p : r->pairings)
    for (const auto& game : p.games) {
      // A match still played here reports its end through the hooks.
      if (game.decided || game.match_id.empty() || live.count(room_of_match(game.match_id))) continue;
      auto sm = d_.store->reader().load_match(game.match_id);
      if (!sm) spdlog::warn("tournament {}: match {} could not be read: {}", l.id, game.match_id, sm.error().message());
      else if (*sm) out.emplace(game.match_id, std::move(**sm));
    }
  return out;
}

void tournament_service::restore(stored_tournament l, const std::map<std::string, stored_match>& matches) {
  entry& e = entries_[l.id];
  e = entry{};
  e.t = std::move(l.t);
  e.x = l.extras;
  e.created_ms = l.created_ms;
  const tn::round* r = e.t.current_round();
  int running = 0;
  bool changed = false;
  if (r) {
    for (const auto& p : r->pairings) {
      for (std::size_t g = 0; g < p.games.size(); ++g) {
        const auto& game = p.games[g];
        if (game.decided || game.match_id.empty()) continue;
        const auto sm = matches.find(game.match_id);
        // Ended while the tournament did not hear of it (its room gone, on
        // another node, or a finished room here that reports nothing more).
        if (sm != matches.end() && report_stored(l.id, e, game.match_id, p.table, p.a, p.b, sm->second)) {
          changed = true;
          continue;
        }
        const std::string room_id = room_of_match(game.match_id);
        if (d_.rooms->find(room_id)) {
          e.rooms.push_back({r->number, p.table, static_cast<int>(g) + 1, p.a, p.b, room_id, game.match_id, {}});
          e.rooms.back().hooked = hook(l.id, room_id);
          ++running;
        } else if (clustered() && sm != matches.end() && !sm->second.finished()) {
          // It runs on another node: poll_store counts it when it ends.
          spdlog::info("tournament {}: match {} of table {} runs on another node; its result is read from the store",
                       l.id, game.match_id, p.table);
        } else {
          spdlog::warn("tournament {}: match {} of table {} was not recovered; the organiser may give a game loss",
                       l.id, game.match_id, p.table);
        }
      }
    }
  }
  // A result counted here may finish the round: the next starts (auto_advance).
  if (changed) after_result(l.id, e);
  else open_rooms(l.id, e);
  spdlog::info("tournament {} ('{}'): loaded, stage {}, {} running matches recovered", l.id, e.t.settings().name,
               tn::stage_name(e.t.current_stage()), running);
}

void tournament_service::load() {
  std::vector<stored_tournament> found;
  d_.store->flush();  // every save queued before: a tournament is read as last saved
  if (auto read = d_.store->reader().load_tournaments()) found = std::move(*read);
  else spdlog::error("tournaments: the stored tournaments could not be read: {}", read.error().message());
  std::size_t others = 0, away = 0;
  for (auto& l : found) {
    if (!d_.named_here(l.id)) {
      ++others;  // another node's (docs/cluster.md, "Tournaments")
      continue;
    }
    if (clustered() && l.t.current_stage() != tn::stage::finished && d_.claim) {
      // Taken over by a live node while this one was away: it stays there
      // until the proxy sends its traffic here again (want, handover).
      if (const status st = d_.claim(l.id); !st) {
        if (st.error_code() != status::code::conflict)
          spdlog::error("tournament {}: not run here: its lease cannot be taken: {}", l.id, st.message());
        ++away;
        continue;
      }
    }
    const auto matches = undecided_matches(l);
    std::lock_guard lock(mu_);
    restore(std::move(l), matches);
  }
  if (others > 0) spdlog::info("tournaments: {} of the store's were created by other nodes", others);
  if (away > 0)
    spdlog::info("tournaments: {} of this node's run on other nodes now (taken over while it was away); they come "
                 "back when the proxy sends their players or organisers here",
                 away);
}

std::vector<std::string> tournament_service::running() const {
  std::vector<std::string> out;
  std::lock_guard lock(mu_);
  for (const auto& [id, e] : entries_)
    if (e.t.current_stage() != tn::stage::finished) out.push_back(id);
  return out;
}

bool tournament_service::adopt(const std::string& id) {
  std::optional<stored_tournament> l;
  d_.store->flush();
  auto read = d_.store->reader().load_tournaments();
  if (!read) {
    spdlog::error("tournament {}: cannot be taken over: the store cannot be read: {}", id, read.error().message());
    return false;
  }
  for (auto& t : *read)
    if (t.id == id) l = std::move(t);
  if (!l || l->t.current_stage() == tn::stage::finished) return false;
  const auto matches = undecided_matches(*l);
  std::lock_guard lock(mu_);
  restore(std::move(*l), matches);
  return true;
}

void tournament_service::forget(const std::string& id, const char* why) {
  auto it = entries_.find(id);
  if (it == entries_.end()) return;
  // Waiting rooms close (their games open on the tournament's new node);
  // running matches play on here and their results reach the store.
  for (const auto& tr : it->second.rooms)
    if (tr.match_id.empty()) retire_room(tr, "the tournament moved to another node: tournament_join again");
  entries_.erase(it);
  spdlog::info("tournament {}: no longer run here: {}", id, why);
}

void tournament_service::give_up(const std::string& id, std::function<void()> saved) {
  give_event_up(
      mu_, entries_, id, std::move(saved),
      [this](const std::string& i, const entry& e, std::function<void()> then) { save(i, e, std::move(then)); },
      [this](const std::string& i, const char* why) { forget(i, why); });
}

void tournament_service::lost(const std::string& id) {
  lose_event(mu_, id, [this](const std::string& i, const char* why) { forget(i, why); });
}

void tournament_service::poll_store() {
  // The undecided games of the current rounds with no room of this node:
  // read outside the lock (the store blocks; rooms' hooks take the lock).
  struct pending {
    std::string id, match_id;
    int table;
    tn::player_id a, b;
  };
  std::vector<pending> todo;
  const auto live = live_rooms();
  {
    std::lock_guard lock(mu_);
    for (const auto& [id, e] : entries_) {
      const tn::round* r = e.t.current_round();
      if (!r) continue;
      for (const auto& p : r->pairings)
        for (const auto& game : p.games) {
          if (game.decided || game.match_id.empty()) continue;
          // Hooked here and still playing: the room reports its end itself.
          const bool here = std::any_of(e.rooms.begin(), e.rooms.end(), [&](const tournament_room& tr) {
            if (tr.match_id != game.match_id || !live.count(tr.room_id)) return false;
            const auto r = d_.rooms->find(tr.room_id);
            return r && r == tr.hooked.lock();
          });
          if (!here) todo.push_back({id, game.match_id, p.table, p.a, p.b});
        }
    }
  }
  for (const auto& t : todo) {
    auto read = d_.store->reader().load_match(t.match_id);
    if (!read) {
      spdlog::warn("tournament {}: match {} could not be read: {}", t.id, t.match_id, read.error().message());
      continue;
    }
    const std::optional<stored_match>& sm = *read;
    if (!sm || !sm->finished()) continue;
    std::lock_guard lock(mu_);
    auto it = entries_.find(t.id);
    if (it == entries_.end()) continue;
    entry& e = it->second;
    if (!report_stored(t.id, e, t.match_id, t.table, t.a, t.b, *sm)) continue;
    std::erase_if(e.rooms, [&](const tournament_room& tr) { return tr.match_id == t.match_id; });
    after_result(t.id, e);
  }
}

// ---------------------------------------------------------------------------
// Rooms.

std::shared_ptr<room> tournament_service::hook(const std::string& id, const std::string& room_id) {
  auto r = d_.rooms->find(room_id);
  if (!r) return nullptr;
  room_hooks h;
  h.spectator_delay = entries_[id].x.spectator_delay;
  h.started = [this, id](const std::string& rid, const std::string& mid) { on_started(id, rid, mid); };
  h.finished = [this, id](const std::string& rid, const std::string& mid, const std::vector<int>& w) {
    on_finished(id, rid, mid, w);
  };
  r->set_hooks(std::move(h));
  return r;
}

void tournament_service::retire_room(const tournament_room& tr, const std::string& why) {
  if (auto r = d_.rooms->find(tr.room_id)) r->retire(why);
}

// Every game to start gets a room; rooms no game needs any more are retired.
void tournament_service::open_rooms(const std::string& id, entry& e) {
  const auto slots = e.t.games_to_start();
  const int round = e.t.current_round() ? e.t.current_round()->number : 0;
  // Waiting rooms of games that are no longer to be started (a game loss, a
  // drop, a re-pair, a new round) close.
  for (auto it = e.rooms.begin(); it != e.rooms.end();) {
    const bool wanted = std::any_of(slots.begin(), slots.end(), [&](const tn::game_slot& s) {
      return s.round == it->round && s.table == it->table && s.game_number == it->game && s.a == it->a &&
             s.b == it->b;
    });
    if (it->match_id.empty() && !wanted) {
      retire_room(*it, "the tournament no longer needs this game");
      it = e.rooms.erase(it);
    } else if (!it->match_id.empty() && it->round != round) {
      retire_room(*it, "the round this match belonged to is over");
      it = e.rooms.erase(it);
    } else {
      ++it;
    }
  }
  const auto& cfg = e.t.settings();
  for (const auto& s : slots) {
    const bool open = std::any_of(e.rooms.begin(), e.rooms.end(), [&](const tournament_room& r) {
      return r.round == s.round && r.table == s.table && r.game == s.game_number;
    });
    if (open) continue;
    protocol::room_options o;
    o.exhaustion = cfg.exhaustion;
    o.seats = 2;
    if (cfg.clock) o.clock = protocol::turn_clock{cfg.clock->bank_ms, cfg.clock->increment_ms};
    const auto format =
        cfg.format == "constructed" ? protocol::deck_format::constructed : protocol::deck_format::preconstructed;
    std::vector<std::string> reserved = {e.t.players()[static_cast<std::size_t>(s.a)].token_hash,
                                         e.t.players()[static_cast<std::size_t>(s.b)].token_hash};
    auto r = d_.rooms->create(game_mode::duel, format, o, std::move(reserved));
    if (!r) {
      spdlog::error("tournament {}: no room for round {} table {} game {} (max_rooms reached); retried later", id,
                    s.round, s.table, s.game_number);
      continue;
    }
    e.rooms.push_back({s.round, s.table, s.game_number, s.a, s.b, r->id(), {}, {}});
    e.rooms.back().hooked = hook(id, r->id());
    spdlog::info("tournament {}: round {} table {} game {}: room {} for '{}' vs '{}'", id, s.round, s.table,
                 s.game_number, r->id(), e.t.players()[static_cast<std::size_t>(s.a)].name,
                 e.t.players()[static_cast<std::size_t>(s.b)].name);
  }
}

std::optional<tournament_service::hooked_room> tournament_service::find_hooked(const std::string& id,
                                                                               const std::string& room_id) {
  auto it = entries_.find(id);
  if (it == entries_.end()) return std::nullopt;
  entry& e = it->second;
  auto tr = std::find_if(e.rooms.begin(), e.rooms.end(), [&](const tournament_room& r) { return r.room_id == room_id; });
  if (tr == e.rooms.end()) return std::nullopt;
  return hooked_room{e, tr};
}

void tournament_service::on_started(const std::string& id, const std::string& room_id, const std::string& match_id) {
  std::lock_guard lock(mu_);
  const auto found = find_hooked(id, room_id);
  if (!found) return;
  entry& e = found->e;
  const auto tr = found->room;
  const auto slots = e.t.games_to_start();
  const bool current = std::any_of(slots.begin(), slots.end(), [&](const tn::game_slot& s) {
    return s.round == tr->round && s.table == tr->table && s.game_number == tr->game;
  });
  const auto st = current ? e.t.attach_match(tr->table, match_id) : tn::status{tn::errc::unknown_table, "stale"};
  if (!st) {
    // The game was decided or re-paired while the players sat down.
    spdlog::info("tournament {}: match {} in room {} is not needed any more: voided", id, match_id, room_id);
    retire_room(*tr, "the tournament no longer needs this game");
    e.rooms.erase(tr);
    return;
  }
  tr->match_id = match_id;
  spdlog::info("tournament {}: round {} table {} game {} is match {}", id, tr->round, tr->table, tr->game, match_id);
  save(id, e);
}

void tournament_service::on_finished(const std::string& id, const std::string& room_id, const std::string& match_id,
                                     const std::vector<int>& winners) {
  std::lock_guard lock(mu_);
  const auto found = find_hooked(id, room_id);
  if (!found) return;
  entry& e = found->e;
  const auto tr = found->room;
  tn::player_id w = tn::no_player;
  if (winners.size() == 1) w = winners[0] == 0 ? tr->a : tr->b;
  e.rooms.erase(tr);
  const auto st = e.t.report_game(match_id, w);
  if (!st) {
    // Decided already (a drop or a game loss conceded this match).
    spdlog::info("tournament {}: the result of match {} is not counted: {}", id, match_id, st.detail);
  } else {
    spdlog::info("tournament {}: match {} won by {}", id, match_id,
                 w == tn::no_player ? std::string("nobody (a draw)") : e.t.players()[static_cast<std::size_t>(w)].name);
  }
  after_result(id, e);
}

// A game was decided: the next game of the pairing, or the next round.
void tournament_service::after_result(const std::string& id, entry& e) {
  if (e.x.auto_advance && e.t.round_finished() && e.t.current_stage() != tn::stage::finished) {
    if (auto st = e.t.start_next_round("server", d_.env->wall_ms()))
      spdlog::info("tournament {}: round {} started (auto_advance)", id, e.t.current_round()->number);
  }
  save(id, e);
  open_rooms(id, e);
}

void tournament_service::with_match_room(const std::string& id, const std::string& match_id, const char* act,
                                         std::function<void(room&)> f) {
  const std::string room_id = room_of_match(match_id);
  if (auto r = d_.rooms->find(room_id)) {
    f(*r);
    return;
  }
  if (!clustered() || !d_.fetch_room) {
    spdlog::warn("tournament {}: the {} does not reach match {}: its room {} is not here", id, act, match_id, room_id);
    return;
  }
  // Its room plays on another node (taken over while this tournament's node
  // was away): it moves here, where the act ends its match; its players
  // reconnect as after any handover.
  spdlog::info("tournament {}: the {} ends match {}, whose room {} runs on another node: asking for it", id, act,
               match_id, room_id);
  d_.fetch_room(room_id, [id, match_id, room_id, act, f = std::move(f)](std::shared_ptr<room> r) {
    if (!r) {
      spdlog::warn("tournament {}: the {} does not reach match {}: room {} could not be moved here; the match plays "
                   "on and its result is not counted",
                   id, act, match_id, room_id);
      return;
    }
    f(*r);
  });
}

void tournament_service::concede_in(const std::string& id, const entry& e, const std::string& match_id,
                                    tn::player_id p, const std::string& why) {
  const tn::round* r = e.t.current_round();
  // A game not started has no match: open_rooms closes its waiting room.
  if (!r || match_id.empty()) return;
  for (const auto& pairing : r->pairings)
    for (const auto& game : pairing.games) {
      if (game.match_id != match_id) continue;
      // Seat 0 is the pairing's a (open_rooms reserves the seats in that order).
      const int seat = pairing.a == p ? 0 : 1;
      with_match_room(id, match_id, "concession", [seat, why](room& rm) { rm.concede_seat(seat, why); });
      return;
    }
}

// ---------------------------------------------------------------------------
// Organiser acts.

namespace {

// The tournament's refusal as the server's status: its errc name is the
// reason (the API's stable code); a bad configuration or player list is
// invalid, an unknown player not found, the rest what the tournament's state
// forbids now.
status refusal(const tn::status& st) {
  std::string message = st.detail;
  std::string reason(tn::errc_name(st.code));
  switch (st.code) {
    case tn::errc::invalid_config:
    case tn::errc::invalid_players: return status::invalid(std::move(message)).because(std::move(reason));
    case tn::errc::unknown_player: return status::not_found(std::move(message)).because(std::move(reason));
    default: return status::conflict(std::move(message)).because(std::move(reason));
  }
}

status no_such_tournament(const std::string& id) {
  return status::not_found(cat("no tournament '", id, "'")).because("no_such_tournament");
}

}  // namespace

status tournament_service::create(tn::config c, const std::vector<std::string>& names, tournament_extras x,
                                      std::string_view actor, created& out, bool seed_given) {
  if (!seed_given) c.seed = d_.env->random_u64();
  if (x.spectator_delay < 0 || x.spectator_delay > max_spectator_delay)
    return refusal({tn::errc::invalid_config, cat("spectator_delay is 0 to ", max_spectator_delay, " actions")});
  // The id first: the players' tokens name it (tournament_join finds the
  // tournament, and a client its node, from the token alone).
  const std::string prefix = d_.id_prefix();
  std::string id;
  {
    std::lock_guard lock(mu_);
    id = prefix + prefixed_hex_id('t', d_.env->random_u64());
    while (entries_.count(id)) id = prefix + prefixed_hex_id('t', d_.env->random_u64());
  }
  entry e;
  std::vector<std::string> tokens;
  const tn::random_source random = [env = d_.env] { return env->random_u64(); };
  if (auto st = tn::tournament::create(c, names, random, e.t, tokens, id); !st) return refusal(st);
  e.x = x;
  e.created_ms = d_.env->wall_ms();
  // A cluster node runs (and saves) a tournament whose lease it holds.
  if (clustered() && d_.claim) {
    if (const status st = d_.claim(id); !st) {
      spdlog::error("tournament: not created: its lease cannot be taken: {}", st.message());
      return status::unavailable(cat("the tournament was not created: ", st.message())).because("store_unavailable");
    }
  }
  std::lock_guard lock(mu_);
  out.id = id;
  out.tokens = std::move(tokens);
  out.warnings = tn::tournament::warnings(c, static_cast<int>(names.size()));
  spdlog::info("tournament {}: created by {} ('{}', {} players, {} Swiss rounds, best of {}, exhaustion {}, top cut {}, "
               "spectator delay {})",
               id, actor, c.name, names.size(), c.swiss_rounds, c.best_of, c.exhaustion ? "on" : "off", c.top_cut,
               x.spectator_delay);
  auto& stored = entries_[id] = std::move(e);
  save(id, stored);
  return {};
}

status tournament_service::start_next_round(const std::string& id, std::string_view actor) {
  std::lock_guard lock(mu_);
  auto it = entries_.find(id);
  if (it == entries_.end()) return no_such_tournament(id);
  entry& e = it->second;
  if (auto st = e.t.start_next_round(actor, d_.env->wall_ms()); !st) return refusal(st);
  spdlog::info("tournament {}: {} started round {}", id, actor, e.t.current_round()->number);
  save(id, e);
  open_rooms(id, e);
  return {};
}

status tournament_service::drop(const std::string& id, std::string_view actor, tn::player_id p,
                                                   std::string_view reason) {
  std::lock_guard lock(mu_);
  auto it = entries_.find(id);
  if (it == entries_.end()) return no_such_tournament(id);
  entry& e = it->second;
  std::vector<std::string> voided;
  if (auto st = e.t.drop_player(actor, d_.env->wall_ms(), p, reason, &voided); !st) return refusal(st);
  spdlog::info("tournament {}: {} dropped player {} ('{}'): {}", id, actor, p,
               e.t.players()[static_cast<std::size_t>(p)].name, reason);
  // The running match ends as the tournament counts it: the dropped player concedes.
  for (const auto& m : voided) concede_in(id, e, m, p, cat("dropped from the tournament by ", actor));
  after_result(id, e);
  return {};
}

status tournament_service::game_loss(const std::string& id, std::string_view actor,
                                                        tn::player_id p, std::string_view reason) {
  std::lock_guard lock(mu_);
  auto it = entries_.find(id);
  if (it == entries_.end()) return no_such_tournament(id);
  entry& e = it->second;
  std::string voided;
  if (auto st = e.t.give_game_loss(actor, d_.env->wall_ms(), p, reason, &voided); !st) return refusal(st);
  spdlog::info("tournament {}: {} gave player {} ('{}') a game loss: {}", id, actor, p,
               e.t.players()[static_cast<std::size_t>(p)].name, reason);
  if (!voided.empty()) concede_in(id, e, voided, p, cat("game loss given by ", actor));
  after_result(id, e);
  return {};
}

status tournament_service::repair(const std::string& id, std::string_view actor,
                                                     std::string_view reason) {
  std::lock_guard lock(mu_);
  auto it = entries_.find(id);
  if (it == entries_.end()) return no_such_tournament(id);
  entry& e = it->second;
  std::vector<std::string> abandoned;
  if (auto st = e.t.repair_round(actor, d_.env->wall_ms(), reason, &abandoned); !st) return refusal(st);
  spdlog::info("tournament {}: {} re-paired round {}: {}", id, actor, e.t.current_round()->number, reason);
  // Every room of the old pairings goes: running matches end without a result,
  // those on another node too.
  const std::string why = cat("the round was re-paired by ", actor);
  for (const auto& tr : e.rooms) retire_room(tr, why);
  for (const auto& m : abandoned) {
    if (m.empty()) continue;  // not started: its waiting room was in e.rooms
    const bool retired = std::any_of(e.rooms.begin(), e.rooms.end(),
                                     [&](const tournament_room& tr) { return tr.match_id == m; });
    if (!retired) with_match_room(id, m, "re-pair", [why](room& rm) { rm.retire(why); });
  }
  e.rooms.clear();
  save(id, e);
  open_rooms(id, e);
  return {};
}

// ---------------------------------------------------------------------------
// Reads.

std::optional<tournament_snapshot> tournament_service::get(const std::string& id) const {
  std::lock_guard lock(mu_);
  auto it = entries_.find(id);
  if (it == entries_.end()) return std::nullopt;
  return tournament_snapshot{id, it->second.t, it->second.x, it->second.created_ms, it->second.rooms};
}

std::vector<tournament_snapshot> tournament_service::list() const {
  std::vector<tournament_snapshot> out;
  if (clustered()) {
    // The others as last saved (their open rooms are their nodes' to know).
    d_.store->flush();
    if (auto stored = d_.store->reader().load_tournaments()) {
      std::lock_guard lock(mu_);  // the stored copy of one this node runs is older: skipped
      for (auto& l : *stored)
        if (!entries_.count(l.id)) out.push_back({l.id, std::move(l.t), l.extras, l.created_ms, {}});
    } else {
      spdlog::warn("tournaments: the other nodes' tournaments could not be read: {}", stored.error().message());
    }
  }
  std::lock_guard lock(mu_);
  for (const auto& [id, e] : entries_) out.push_back({id, e.t, e.x, e.created_ms, e.rooms});
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) {
    return a.created_ms != b.created_ms ? a.created_ms < b.created_ms : a.id < b.id;
  });
  return out;
}

std::optional<tournament_snapshot> tournament_service::stored_copy(const std::string& id, bool& moving) const {
  moving = false;
  std::optional<tournament_snapshot> out;
  d_.store->flush();
  auto stored = d_.store->reader().load_tournaments();
  if (!stored) {
    spdlog::warn("tournament {}: the stored copy could not be read: {}", id, stored.error().message());
    return std::nullopt;
  }
  for (auto& l : *stored)
    if (l.id == id) out = tournament_snapshot{l.id, std::move(l.t), l.extras, l.created_ms, {}};
  if (out && out->t.current_stage() != tn::stage::finished && d_.want && cluster_tournament_id(id))
    moving = d_.want(id);
  return out;
}

event_seat tournament_service::find_seat(std::string_view token, const std::string& routed) {
  using k = event_seat::kind;
  {
    std::lock_guard lock(mu_);
    for (auto& [id, e] : entries_) {
      const auto p = e.t.find_player_by_token(token);
      if (!p) continue;
      const auto& pl = e.t.players()[static_cast<std::size_t>(*p)];
      event_seat out;
      out.name = pl.name;
      if (pl.dropped()) {
        out.what = k::over;
        out.detail = cat("you were dropped from tournament ", id);
        return out;
      }
      if (e.t.current_stage() == tn::stage::finished) {
        out.what = k::over;
        out.detail = cat("tournament ", id, " has finished");
        return out;
      }
      open_rooms(id, e);  // a room that could not be opened before is tried again
      for (const auto& tr : e.rooms) {
        if (tr.a != *p && tr.b != *p) continue;
        if (auto r = d_.rooms->find(tr.room_id)) {
          out.what = k::seated;
          out.r = std::move(r);
          out.seat = tr.a == *p ? 0 : 1;
          return out;
        }
      }
      out.what = k::waiting;
      const tn::round* r = e.t.current_round();
      out.detail = r ? cat("round ", r->number, ": no game of yours is open (a bye, or your match is over); wait for the next")
                     : std::string("the first round has not started yet");
      // A match of this player's that runs on another node (taken over while
      // the tournament's node was away): its seat resumes there.
      if (r)
        for (const auto& pr : r->pairings)
          for (const auto& g : pr.games)
            if ((pr.a == *p || pr.b == *p) && !g.decided && !g.match_id.empty())
              out.detail = cat("round ", r->number, ": your match ", g.match_id, " runs in room ",
                               room_of_match(g.match_id), " on another node: resume your seat there (/ws?room=",
                               room_of_match(g.match_id), ") or wait for its end");
      return out;
    }
    if (clustered() && (routed.empty() || entries_.count(routed))) {
      event_seat unknown;
      // A token that names its tournament says where to connect (the proxy
      // sends /ws?room=ID to the node that runs it, or moves it to a live one).
      const std::string named(pr::event_of_token(token));
      if (routed.empty() && cluster_tournament_id(named))
        unknown.detail = cat("tournament ", named, " runs on another node: connect with /ws?room=", named,
                             " and send tournament_join again (docs/cluster.md)");
      else
        unknown.detail = cat("that token belongs to no tournament player of node ", d_.node_id,
                             ": a tournament runs on one node at a time; connect with /ws?room=TOURNAMENT_ID "
                             "(docs/cluster.md)");
      return unknown;
    }
  }
  // A cluster node the proxy sent a tournament's traffic to that it does not
  // run (its node is away, or it is handing it over): it moves here.
  if (clustered() && d_.want && cluster_tournament_id(routed) && d_.want(routed)) {
    event_seat moving;
    moving.what = k::waiting;
    moving.detail = cat("tournament ", routed, " is moving to this node: try again in a moment");
    return moving;
  }
  event_seat unknown;
  if (clustered())
    unknown.detail = cluster_tournament_id(routed)
                         ? cat("tournament ", routed, " does not exist")
                         : std::string("that token belongs to no tournament player: connect with "
                                       "/ws?room=TOURNAMENT_ID (docs/cluster.md)");
  return unknown;
}

}  // namespace cod::server
