#include "league_service/league_service.hpp"

#include <algorithm>
#include <array>

#include <spdlog/spdlog.h>

#include "cod/protocol/league_json.hpp"
#include "cod/protocol/mutation_json.hpp"
#include "cod/protocol/names.hpp"
#include "cod/protocol/server_messages.hpp"
#include "common/random.hpp"
#include "common/sha256.hpp"
#include "common/strcat.hpp"
#include "room/match_id.hpp"
#include "room/room.hpp"
#include "room/room_registry.hpp"

namespace cod::server {

namespace pr = cod::protocol;
using detail::cat;
using nlohmann::json;

namespace {

// A duel's room after the first that ended without a result gets another
// seed (the first may have been revealed at its end): mixed from the
// duel's seed and the attempt (splitmix64's finaliser).
std::uint64_t attempt_seed(std::uint64_t seed, int attempt) {
  if (attempt == 0) return seed;
  std::uint64_t z = seed + 0x9e3779b97f4a7c15ULL * static_cast<std::uint64_t>(attempt);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

json clock_json(const std::optional<pr::turn_clock>& c) {
  if (!c) return nullptr;
  return {{"bank_ms", c->bank_ms}, {"increment_ms", c->increment_ms}};
}

json game_json(const league_game& g) {
  return {{"round", g.round},
          {"table", g.table},
          {"room", g.room_id},
          {"match", g.match_id.empty() ? json(nullptr) : json(g.match_id)}};
}

json games_json(const std::vector<league_game>& games) {
  json out = json::array();
  for (const auto& g : games) out.push_back(game_json(g));
  return out;
}

// A stored match's end that decides a duel: a result the game gave (not
// voided or aborted by the server).
bool decisive(const stored_match& sm) {
  return sm.result && sm.result->reason != "voided" && sm.result->reason != "aborted";
}

}  // namespace

league_service::league_service(deps d) : d_(std::move(d)) {}

// ---------------------------------------------------------------------------
// The record: saved whole, replayed at start-up.

json league_service::ops_json(const entry& e) const {
  json ops = json::array();
  for (const auto& op : e.l.ops()) ops.push_back(pr::league_op_to_json(op, *d_.cards));
  return ops;
}

std::vector<std::string> league_service::names_of(const entry& e) {
  std::vector<std::string> names;
  for (const auto& p : e.players) names.push_back(p.name);
  return names;
}

std::string league_service::record_json(const entry& e) const {
  json players = json::array();
  for (const auto& p : e.players) players.push_back({{"name", p.name}, {"token_hash", p.token_hash}});
  return json{{"format", "cod-league/1"},
              {"name", e.s.name},
              {"packs", e.s.packs},
              {"exhaustion", e.s.exhaustion},
              {"turn_clock", clock_json(e.s.clock)},
              {"phase_clock_sec", e.s.phase_clock_sec},
              {"costs", pr::mutation_costs_to_json(e.s.costs)},
              {"seed", std::to_string(e.s.seed)},
              {"players", std::move(players)},
              {"ops", ops_json(e)},
              {"games", games_json(e.games)},
              {"phase_started_ms", e.phase_started_ms}}
      .dump();
}

std::optional<league_service::entry> league_service::restore(const stored_league& sl) const {
  try {
    const json j = json::parse(sl.record_json);
    entry e;
    e.created_ms = sl.created_ms;
    e.s.name = j.at("name").get<std::string>();
    e.s.packs = j.at("packs").get<std::vector<std::string>>();
    e.s.exhaustion = j.at("exhaustion").get<bool>();
    if (const json& c = j.at("turn_clock"); !c.is_null())
      e.s.clock = pr::turn_clock{c.at("bank_ms").get<std::int64_t>(), c.at("increment_ms").get<std::int64_t>()};
    e.s.phase_clock_sec = j.at("phase_clock_sec").get<int>();
    auto costs = pr::mutation_costs_from_json(j.at("costs"));
    if (!costs.ok()) throw std::runtime_error("costs: " + costs.error);
    e.s.costs = costs.costs;
    e.s.seed = std::stoull(j.at("seed").get<std::string>());
    for (const auto& p : j.at("players"))
      e.players.push_back({p.at("name").get<std::string>(), p.at("token_hash").get<std::string>()});
    std::vector<league_op> ops;
    for (const auto& o : j.at("ops")) {
      std::string error;
      auto op = pr::league_op_from_json(o, *d_.cards, error);
      if (!op) throw std::runtime_error("op " + std::to_string(ops.size()) + ": " + error);
      ops.push_back(std::move(*op));
    }
    for (const auto& g : j.at("games"))
      e.games.push_back({g.at("round").get<int>(), g.at("table").get<int>(), g.at("room").get<std::string>(),
                         g.at("match").is_null() ? std::string() : g.at("match").get<std::string>()});
    e.phase_started_ms = j.at("phase_started_ms").get<std::int64_t>();
    int failed_at = -1;
    const league_config cfg{e.s.seed, e.s.packs, e.s.costs};
    const auto refused = replay_league(*d_.cards, cfg, ops, e.l, failed_at);
    if (!refused.ok())
      throw std::runtime_error(cat("op ", failed_at, " does not replay: ", league_error_name(refused.error)));
    return e;
  } catch (const std::exception& ex) {
    spdlog::error("league {} ('{}'): its stored record cannot be read, so it is not run: {}", sl.id, sl.name,
                  ex.what());
    return std::nullopt;
  }
}

void league_service::save(const std::string& id, const entry& e, std::function<void()> then) {
  stored_league sl{id, e.s.name, e.created_ms, e.l.stage() == league_stage::finished, record_json(e)};
  d_.store->save_league(sl, [id, then = std::move(then)](const status& st) {
    if (!st) spdlog::error("league {}: could not be saved: {}", id, st.message());
    if (then) then();
  });
}

std::optional<std::pair<stored_league, league_service::entry>> league_service::read_stored(const std::string& id) const {
  d_.store->flush();  // every save queued before: read as last saved
  auto read = d_.store->reader().load_league(id);
  if (!read) {
    spdlog::error("league {}: the store cannot be read: {}", id, read.error().message());
    return std::nullopt;
  }
  if (!*read) return std::nullopt;
  auto e = restore(**read);
  if (!e) return std::nullopt;
  return std::make_pair(std::move(**read), std::move(*e));
}

void league_service::place(const std::string& id, entry e) {
  auto& placed = entries_[id] = std::move(e);
  int hooked = 0, elsewhere = 0;
  for (const auto& g : placed.games) {
    if (g.round != placed.l.round() || placed.l.stage() != league_stage::playing) continue;
    if (hook(id, g.room_id)) {
      ++hooked;
    } else if (clustered() && !g.match_id.empty() && !placed.l.table(g.round, g.table).decided) {
      bring_room(id, g.room_id);  // its players are sent here: its room comes too
      ++elsewhere;
    }
  }
  spdlog::info("league {} ('{}'): loaded, stage {}, round {}, {} duel rooms recovered{}", id, placed.s.name,
               league_stage_name(placed.l.stage()), placed.l.round(), hooked,
               elsewhere > 0 ? cat(", ", elsewhere, " brought from other nodes") : std::string());
  open_rooms(id, placed);
}

void league_service::bring_room(const std::string& id, const std::string& room_id) {
  if (!d_.fetch_room) return;
  d_.fetch_room(room_id, [this, id, room_id](std::shared_ptr<room> r) {
    if (!r) return;  // not movable now: tick() asks again
    std::lock_guard lock(mu_);
    auto it = entries_.find(id);
    if (it == entries_.end()) return;
    hook(id, room_id);
    spdlog::info("league {}: duel room {} runs here now", id, room_id);
    push(id, it->second);  // its players may take their seats
  });
}

void league_service::load() {
  d_.store->flush();  // every save queued before: a league is read as last saved
  auto read = d_.store->reader().load_leagues();
  if (!read) {
    spdlog::error("leagues: the stored leagues could not be read: {}", read.error().message());
    return;
  }
  const std::vector<stored_league>& found = *read;
  std::size_t others = 0, away = 0;
  for (const auto& sl : found) {
    if (!d_.named_here(sl.id)) {
      ++others;  // another node's (docs/cluster.md, "Tournaments and leagues")
      continue;
    }
    if (clustered() && !sl.finished && d_.claim) {
      // Taken over by a live node while this one was away: it stays there
      // until the proxy sends its traffic here again (want, handover).
      if (const status st = d_.claim(sl.id); !st) {
        if (st.error_code() != status::code::conflict)
          spdlog::error("league {}: not run here: its lease cannot be taken: {}", sl.id, st.message());
        ++away;
        continue;
      }
    }
    auto e = restore(sl);
    if (!e) continue;
    std::lock_guard lock(mu_);
    place(sl.id, std::move(*e));
  }
  if (others > 0) spdlog::info("leagues: {} of the store's were created by other nodes", others);
  if (away > 0)
    spdlog::info("leagues: {} of this node's run on other nodes now (taken over while it was away); they come back "
                 "when the proxy sends their players or organisers here",
                 away);
}

std::vector<std::string> league_service::running() const {
  std::lock_guard lock(mu_);
  std::vector<std::string> out;
  for (const auto& [id, e] : entries_)
    if (e.l.stage() != league_stage::finished) out.push_back(id);
  return out;
}

bool league_service::adopt(const std::string& id) {
  auto stored = read_stored(id);
  if (!stored || stored->first.finished) return false;
  std::lock_guard lock(mu_);
  place(id, std::move(stored->second));
  return true;
}

void league_service::forget(const std::string& id, const char* why) {
  auto it = entries_.find(id);
  if (it == entries_.end()) return;
  // Waiting rooms close (the duels open on the league's new node); running
  // duels play on here and their results reach the store.
  // (Their hooks find no league here any more: the new node reads the store.)
  for (const auto& g : it->second.games)
    if (auto r = g.match_id.empty() ? d_.rooms->find(g.room_id) : nullptr)
      r->retire("the league moved to another node: tournament_join again");
  // Its followers come back through the proxy, to the league's new node.
  for (const auto& [w, seat] : it->second.followers)
    if (auto p = w.lock()) p->close(pr::close_code::going_away, "the league moved to another node: league_join again");
  entries_.erase(it);
  spdlog::info("league {}: no longer run here: {}", id, why);
}

void league_service::give_up(const std::string& id, std::function<void()> saved) {
  give_event_up(
      mu_, entries_, id, std::move(saved),
      [this](const std::string& i, const entry& e, std::function<void()> then) { save(i, e, std::move(then)); },
      [this](const std::string& i, const char* why) { forget(i, why); });
}

void league_service::lost(const std::string& id) {
  lose_event(mu_, id, [this](const std::string& i, const char* why) { forget(i, why); });
}

// ---------------------------------------------------------------------------
// Changes.

namespace {

// What the step clock times: a pick of the draft, the deck choice, one
// round's mutation phase. A new step restarts it.
std::array<int, 3> step_of(const league& l) {
  return {static_cast<int>(l.stage()), l.round(),
          l.stage() == league_stage::drafting ? l.the_draft().state().round : 0};
}

bool timed(league_stage s) {
  return s == league_stage::drafting || s == league_stage::building || s == league_stage::mutating;
}

}  // namespace

league_refusal league_service::apply(const std::string& id, entry& e, const league_op& op) {
  const int round_before = e.l.round();
  const league_stage stage_before = e.l.stage();
  const auto step_before = step_of(e.l);
  const auto refused = e.l.apply(op);
  if (refused.ok()) {
    if (step_of(e.l) != step_before) e.phase_started_ms = d_.env->wall_ms();
    changed(id, e, round_before, stage_before);
  }
  return refused;
}

void league_service::changed(const std::string& id, entry& e, int round_before, league_stage stage_before) {
  const league_stage now = e.l.stage();
  if (now != stage_before || e.l.round() != round_before) {
    if (now == league_stage::finished) {
      std::string ranking;
      for (const auto& st : e.l.standings())
        ranking += cat(ranking.empty() ? "" : ", ", st.place, ". ", e.players[st.seat].name, " (", st.won, " won)");
      spdlog::info("league {}: finished: {}", id, ranking);
    } else {
      spdlog::info("league {}: stage {}, round {}", id, league_stage_name(now), e.l.round());
    }
  }
  save(id, e);
  open_rooms(id, e);
  push(id, e);
}

json league_service::view_of(const entry& e, seat_t seat) const {
  json v = pr::league_view_to_json(e.l, seat, names_of(e));
  v["name"] = e.s.name;
  v["exhaustion"] = e.s.exhaustion;
  v["turn_clock"] = clock_json(e.s.clock);
  v["phase_deadline_ms"] = timed(e.l.stage()) && e.s.phase_clock_sec > 0
                               ? json(e.phase_started_ms + std::int64_t{e.s.phase_clock_sec} * 1000)
                               : json(nullptr);
  if (seat != no_seat && e.l.stage() == league_stage::playing) {
    // The player's duel of this round: tournament_join with the league token seats them.
    for (int t = 0; t < league_tables; ++t) {
      const auto& table = e.l.table(e.l.round(), t);
      if (table.decided || (table.seats[0] != seat && table.seats[1] != seat)) continue;
      const int my_seat = table.seats[0] == seat ? 0 : 1;
      json duel = {{"table", t}, {"seat", my_seat}, {"opponent", e.players[table.seats[1 - my_seat]].name}};
      for (const auto& g : e.games)
        if (g.round == e.l.round() && g.table == t) duel["room"] = g.room_id;
      v["you"]["duel"] = std::move(duel);
    }
  }
  return v;
}

void league_service::push(const std::string& id, entry& e) {
  std::erase_if(e.followers, [](const auto& f) { return f.first.expired(); });
  for (const auto& [w, seat] : e.followers)
    if (auto p = w.lock()) p->send(std::make_shared<const std::string>(pr::make_league(json(), id, view_of(e, seat)).dump()));
}

// ---------------------------------------------------------------------------
// Duel rooms.

std::shared_ptr<room> league_service::hook(const std::string& id, const std::string& room_id) {
  auto r = d_.rooms->find(room_id);
  if (!r) return nullptr;
  room_hooks h;
  h.started = [this, id](const std::string& rid, const std::string& mid) { on_started(id, rid, mid); };
  h.finished = [this, id](const std::string& rid, const std::string&, const std::vector<int>& w) {
    on_finished(id, rid, w);
  };
  r->set_hooks(std::move(h));
  return r;
}

// R15.3: each undecided duel of the round being played gets a room when it
// has none yet; rooms of decided duels are retired.
void league_service::open_rooms(const std::string& id, entry& e) {
  const int round = e.l.round();
  for (const auto& g : e.games) {
    if (g.round != round || e.l.stage() != league_stage::playing || e.l.table(round, g.table).decided) {
      if (auto r = d_.rooms->find(g.room_id); r && g.match_id.empty())
        r->retire("this league duel is decided, or its round is over");
    }
  }
  if (e.l.stage() != league_stage::playing) return;
  for (int t = 0; t < league_tables; ++t) {
    // A duel with a room already: tick() gives it another if it ends without a result.
    const bool has_room = std::any_of(e.games.begin(), e.games.end(),
                                      [&](const league_game& g) { return g.round == round && g.table == t; });
    if (!e.l.table(round, t).decided && !has_room) open_room(id, e, t);
  }
}

void league_service::open_room(const std::string& id, entry& e, int t) {
  const int round = e.l.round();
  const auto& table = e.l.table(round, t);
  const int attempts = static_cast<int>(std::count_if(
      e.games.begin(), e.games.end(), [&](const league_game& g) { return g.round == round && g.table == t; }));
  const auto setup = e.l.match_cards(round, t);
  room::params p;
  p.mode = game_mode::duel;
  p.format = pr::deck_format::constructed;
  p.options.seats = 2;
  p.options.exhaustion = e.s.exhaustion;
  p.options.clock = e.s.clock;
  p.reserved = {e.players[table.seats[0]].token_hash, e.players[table.seats[1]].token_hash};
  p.cards = setup.cards;
  p.fixed_decks[0] = setup.decks[0];
  p.fixed_decks[1] = setup.decks[1];
  auto r = d_.rooms->create_with(std::move(p), attempt_seed(setup.seed, attempts));
  if (!r) {
    spdlog::error("league {}: no room for round {} table {} (max_rooms reached); tried again when a player asks",
                  id, round, t);
    return;
  }
  e.games.push_back({round, t, r->id(), {}});
  hook(id, r->id());
  spdlog::info("league {}: round {} table {}: room {} for '{}' vs '{}'{}", id, round, t, r->id(),
               e.players[table.seats[0]].name, e.players[table.seats[1]].name,
               attempts > 0 ? cat(" (attempt ", attempts + 1, ")") : std::string());
}

void league_service::on_started(const std::string& id, const std::string& room_id, const std::string& match_id) {
  std::lock_guard lock(mu_);
  auto it = entries_.find(id);
  if (it == entries_.end()) return;
  for (auto& g : it->second.games)
    if (g.room_id == room_id) {
      g.match_id = match_id;
      spdlog::info("league {}: round {} table {} is match {}", id, g.round, g.table, match_id);
      save(id, it->second);
      push(id, it->second);
      return;
    }
}

void league_service::on_finished(const std::string& id, const std::string& room_id, const std::vector<int>& winners) {
  std::lock_guard lock(mu_);
  auto it = entries_.find(id);
  if (it == entries_.end()) return;
  entry& e = it->second;
  auto g = std::find_if(e.games.begin(), e.games.end(), [&](const league_game& x) { return x.room_id == room_id; });
  if (g == e.games.end() || g->round != e.l.round() || e.l.stage() != league_stage::playing) return;
  const auto& table = e.l.table(g->round, g->table);
  league_op op;
  op.type = league_op_type::result;
  op.table = g->table;
  op.winner = winners.size() == 1 ? table.seats[winners[0] == 0 ? 0 : 1] : no_seat;
  const auto refused = apply(id, e, op);
  if (!refused.ok())
    spdlog::info("league {}: the result of room {} is not counted: {}", id, room_id, league_error_name(refused.error));
  else
    spdlog::info("league {}: round {} table {} won by {}", id, g->round, g->table,
                 op.winner == no_seat ? std::string("nobody") : e.players[op.winner].name);
}

// The step clock ran out (docs/league.md, "Clocks"): whoever has not acted
// gets the default op: the first card of their packet (R15.1), their first 8
// drafted cards (R15.2), a pass (R15.4).
void league_service::act_for_absent(const std::string& id, entry& e) {
  const auto step = step_of(e.l);
  for (seat_t s = 0; s < league_players && step_of(e.l) == step; ++s) {
    league_op op;
    op.seat = s;
    const char* what = "";
    switch (e.l.stage()) {
      case league_stage::drafting: {
        const auto& me = e.l.the_draft().state().seats[s];
        if (me.submitted || me.packet.empty()) continue;
        op.type = league_op_type::pick;
        op.pick.type = draft_pick_type::take;
        op.pick.seat = s;
        op.pick.cards = {me.packet.front()};
        what = "takes the first card of their packet";
        break;
      }
      case league_stage::building:
        if (e.l.has_deck(s)) continue;
        op.type = league_op_type::choose_deck;
        op.cards.assign(e.l.drafted(s).begin(), e.l.drafted(s).begin() + 8);
        what = "plays their first 8 drafted cards as the deck";
        break;
      case league_stage::mutating:
        if (e.l.phase_done(s)) continue;
        op.type = league_op_type::pass;
        what = "passes";
        break;
      default: return;
    }
    if (apply(id, e, op).ok())
      spdlog::info("league {}: '{}' {}: the step clock ({} s) ran out", id, e.players[s].name, what,
                   e.s.phase_clock_sec);
  }
}

void league_service::tick() {
  // Under the lock: the phase clocks, and the duels whose last room is gone
  // or over without a result; their stored matches are read outside it.
  struct pending {
    std::string id, room_id, match_id;
    int table;
  };
  std::vector<pending> todo;
  std::map<std::string, bool> room_finished;
  for (auto& [room_id, finished] : d_.rooms->room_states()) room_finished.emplace(std::move(room_id), finished);
  {
    std::lock_guard lock(mu_);
    const std::int64_t now = d_.env->wall_ms();
    for (auto& [id, e] : entries_) {
      if (timed(e.l.stage()) && e.s.phase_clock_sec > 0 &&
          now >= e.phase_started_ms + std::int64_t{e.s.phase_clock_sec} * 1000)
        act_for_absent(id, e);
      if (e.l.stage() != league_stage::playing) continue;
      for (int t = 0; t < league_tables; ++t) {
        if (e.l.table(e.l.round(), t).decided) continue;
        const league_game* last = nullptr;
        for (const auto& g : e.games)
          if (g.round == e.l.round() && g.table == t) last = &g;
        if (!last) continue;
        // A room opened since room_states was read is live.
        const auto r = room_finished.find(last->room_id);
        if (r != room_finished.end() ? !r->second : d_.rooms->find(last->room_id) != nullptr) continue;
        todo.push_back({id, last->room_id, last->match_id, t});
      }
    }
  }
  for (const auto& p : todo) {
    std::optional<stored_match> sm;
    if (!p.match_id.empty()) {
      auto read = d_.store->reader().load_match(p.match_id);
      if (!read) {
        spdlog::warn("league {}: match {} could not be read: {}", p.id, p.match_id, read.error().message());
        continue;
      }
      sm = std::move(*read);
      // Not stored yet, or still being played on (its room recovered later): wait.
      if (!sm || (!sm->finished() && d_.rooms->find(p.room_id))) continue;
      if (!sm->finished() && clustered()) {
        // Played on another node (it failed over with its node, or the
        // league moved): brought here, where the league sends its players.
        std::lock_guard lock(mu_);
        if (entries_.count(p.id)) bring_room(p.id, p.room_id);
        continue;
      }
    }
    std::lock_guard lock(mu_);
    auto it = entries_.find(p.id);
    if (it == entries_.end()) continue;
    entry& e = it->second;
    if (e.l.stage() != league_stage::playing || e.l.table(e.l.round(), p.table).decided) continue;
    if (sm && decisive(*sm)) {
      const auto& table = e.l.table(e.l.round(), p.table);
      league_op op;
      op.type = league_op_type::result;
      op.table = p.table;
      op.winner = sm->result->winners.size() == 1 ? table.seats[sm->result->winners[0] == 0 ? 0 : 1] : no_seat;
      if (apply(p.id, e, op).ok())
        spdlog::info("league {}: match {} ended while no room here reported it: counted from the store", p.id,
                     p.match_id);
      continue;
    }
    // No result (the waiting room closed, the match was voided or lost):
    // the duel gets a new room.
    spdlog::warn("league {}: round {} table {}: room {} ended without a result; the duel gets a new room", p.id,
                 e.l.round(), p.table, p.room_id);
    open_room(p.id, e, p.table);
    save(p.id, e);
    push(p.id, e);
  }
}

// ---------------------------------------------------------------------------
// Organiser acts and reads.

status league_service::create(league_settings s, const std::vector<std::string>& names,
                                                     bool seed_given, std::string_view actor, created& out) {
  if (names.size() != static_cast<std::size_t>(league_players))
    return status::invalid("a mutation league has exactly 4 players (R15.1)").because("invalid_players", "players");
  // The names of a join (docs/protocol.md, "Names"), distinct ignoring case.
  auto lower = [](std::string t) {
    for (char& c : t) c = (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
    return t;
  };
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (auto why = pr::name_problem(names[i], 32))
      return status::invalid(cat("player ", i, ": the name ", *why)).because("invalid_players", "players");
    for (std::size_t k = 0; k < i; ++k)
      if (lower(names[k]) == lower(names[i]))
        return status::invalid(cat("two players are named '", names[i], "'")).because("invalid_players", "players");
  }
  if (auto why = pr::name_problem(s.name, 80))
    return status::invalid(cat("the league's name ", *why)).because("invalid_config", "name");
  if (s.phase_clock_sec < 0 || s.phase_clock_sec > max_phase_clock_sec)
    return status::invalid(cat("phase_clock_sec is 0 (none) to ", max_phase_clock_sec))
        .because("invalid_config", "phase_clock_sec");
  if (!seed_given) s.seed = d_.env->random_u64();
  entry e;
  if (const auto err = league::create(*d_.cards, league_config{s.seed, s.packs, s.costs}, e.l); err != league_error::ok)
    return status::invalid("'packs' names two different packs of the catalogue, each with cards (R15.1)")
        .because("invalid_config", "packs");
  // A cluster node's leagues are "<node_id>-l...": the proxy sends their
  // traffic here (docs/cluster.md, "Tournaments and leagues").
  const std::string prefix = d_.id_prefix();
  std::string id;
  {
    std::lock_guard lock(mu_);
    do id = prefix + prefixed_hex_id('l', d_.env->random_u64());
    while (entries_.count(id));
  }
  if (clustered() && d_.claim) {
    if (const status st = d_.claim(id); !st)
      return status::unavailable(cat("the league's lease cannot be taken: ", st.message())).because("store_unavailable");
  }
  std::lock_guard lock(mu_);
  // Each token names the league ("ID.HEX", protocol::event_of_token).
  std::vector<std::string> tokens;
  for (const auto& n : names) {
    tokens.push_back(id + "." + d_.env->random_hex(pr::token_chars));
    e.players.push_back({n, sha256_hex(tokens.back())});
  }
  e.s = std::move(s);
  e.created_ms = d_.env->wall_ms();
  e.phase_started_ms = e.created_ms;  // the first pick's step clock
  spdlog::info("league {}: created by {} ('{}': {}, {}, {}, {}; packs {} and {}, exhaustion {}, phase clock {} s)", id,
               actor, e.s.name, names[0], names[1], names[2], names[3], e.s.packs[0], e.s.packs[1],
               e.s.exhaustion ? "on" : "off", e.s.phase_clock_sec);
  auto& placed = entries_[id] = std::move(e);
  save(id, placed);
  out.id = id;
  out.tokens = std::move(tokens);
  return {};
}

status league_service::record_result(const std::string& id, int table, seat_t winner,
                                                            std::string_view actor, std::string_view reason) {
  std::lock_guard lock(mu_);
  auto it = entries_.find(id);
  if (it == entries_.end()) return status::not_found(cat("no league '", id, "'")).because("no_such_league");
  entry& e = it->second;
  league_op op;
  op.type = league_op_type::result;
  op.table = table;
  op.winner = winner;
  // Its running match, if any, ends without a result first.
  std::string room_id;
  if (e.l.stage() == league_stage::playing && table >= 0 && table < league_tables)
    for (const auto& g : e.games)
      if (g.round == e.l.round() && g.table == table) room_id = g.room_id;
  const auto refused = apply(id, e, op);
  if (!refused.ok()) {
    // A table or winner that cannot be is a bad request; the rest, the league's state forbids now.
    const bool bad_request = refused.error == league_error::unknown_table || refused.error == league_error::bad_result;
    std::string message(league_error_message(refused.error));
    return (bad_request ? status::invalid(std::move(message)) : status::conflict(std::move(message)))
        .because(std::string(league_error_name(refused.error)),
                 refused.error == league_error::bad_result ? "winner" : "table");
  }
  const std::string why = cat("the organiser recorded this duel's result: ", reason);
  if (auto r = room_id.empty() ? nullptr : d_.rooms->find(room_id)) {
    r->retire(why);
  } else if (!room_id.empty() && clustered() && d_.fetch_room) {
    // Played on another node: it comes here to end (its result, should
    // it report one, is no longer counted: the table is decided).
    d_.fetch_room(room_id, [why](std::shared_ptr<room> moved) {
      if (moved) moved->retire(why);
    });
  }
  spdlog::info("league {}: {} recorded table {}'s result ({}): {}", id, actor, table,
               winner == no_seat ? std::string("nobody won") : e.players[winner].name + " won", reason);
  return {};
}

std::optional<json> league_service::summary(const std::string& id, bool* moving) const {
  if (moving) *moving = false;
  {
    std::lock_guard lock(mu_);
    if (auto it = entries_.find(id); it != entries_.end()) return summary_of(id, it->second);
  }
  if (!clustered()) return std::nullopt;
  // Another node's, or one on its way here: as last saved.
  auto stored = read_stored(id);
  if (!stored) return std::nullopt;
  if (!stored->first.finished && d_.want) {
    const bool asked = d_.want(id);
    if (moving) *moving = asked;
  }
  return summary_of(id, stored->second);
}

json league_service::summary_of(const std::string& id, const entry& e) const {
  json j = view_of(e, no_seat);
  j["league"] = id;
  j["created_ms"] = e.created_ms;
  j["phase_clock_sec"] = e.s.phase_clock_sec;
  j["games"] = games_json(e.games);
  return j;
}

std::optional<json> league_service::export_json(const std::string& id) const {
  std::optional<entry> stored;
  std::unique_lock lock(mu_);
  auto it = entries_.find(id);
  if (it == entries_.end()) {
    if (!clustered()) return std::nullopt;
    lock.unlock();  // another node's: as last saved
    auto read = read_stored(id);
    if (!read) return std::nullopt;
    stored = std::move(read->second);
  }
  const entry& e = stored ? *stored : it->second;
  json j = pr::league_export_json(e.l, names_of(e));
  j["league"] = id;
  j["name"] = e.s.name;
  j["seed"] = std::to_string(e.s.seed);
  j["exhaustion"] = e.s.exhaustion;
  j["turn_clock"] = clock_json(e.s.clock);
  j["phase_clock_sec"] = e.s.phase_clock_sec;
  j["ops"] = ops_json(e);
  j["games"] = games_json(e.games);
  return j;
}

std::vector<std::string> league_service::match_ids(const std::string& id) const {
  std::vector<std::string> out;
  auto add = [&out](const entry& e) {
    for (const auto& g : e.games)
      if (!g.match_id.empty()) out.push_back(g.match_id);
  };
  {
    std::lock_guard lock(mu_);
    if (auto it = entries_.find(id); it != entries_.end()) {
      add(it->second);
      return out;
    }
  }
  if (clustered())
    if (auto stored = read_stored(id)) add(stored->second);
  return out;
}

json league_service::list() const {
  std::lock_guard lock(mu_);
  json out = json::array();
  for (const auto& [id, e] : entries_) {
    json names = json::array();
    for (const auto& p : e.players) names.push_back(p.name);
    out.push_back({{"league", id},
                   {"name", e.s.name},
                   {"created_ms", e.created_ms},
                   {"stage", league_stage_name(e.l.stage())},
                   {"round", e.l.round()},
                   {"players", std::move(names)}});
  }
  return out;
}

// ---------------------------------------------------------------------------
// Players.

std::pair<std::string, seat_t> league_service::find_player(std::string_view token) const {
  const std::string h = sha256_hex(token);
  for (const auto& [id, e] : entries_)
    for (std::size_t s = 0; s < e.players.size(); ++s)
      if (e.players[s].token_hash == h) return {id, static_cast<seat_t>(s)};
  return {{}, no_seat};
}

std::optional<json> league_service::follow(std::string_view token, const json& msg_id, std::weak_ptr<peer> p,
                                          const std::string& routed) {
  std::unique_lock lock(mu_);
  const auto [id, seat] = find_player(token);
  if (seat == no_seat) {
    // A cluster node the proxy sent the token's league to, which does not
    // run it (its node is away, or it is handing it over): it moves here.
    const std::string named(pr::event_of_token(token));
    if (!clustered() || named.empty() || named != routed || entries_.count(named)) return std::nullopt;
    lock.unlock();
    if (!d_.want || !d_.want(named)) return std::nullopt;
    return pr::make_error(msg_id, pr::session_errc::tournament_waiting,
                          cat("league ", named, " is moving to this node: league_join again in a moment"));
  }
  entry& e = entries_.at(id);
  // A connection follows one league: its earlier follow, if any, ends here.
  for (auto& [other_id, other] : entries_)
    std::erase_if(other.followers, [&](const auto& f) { return !f.first.owner_before(p) && !p.owner_before(f.first); });
  e.followers.emplace_back(std::move(p), seat);
  return pr::make_league(msg_id, id, view_of(e, seat));
}

json league_service::act(std::string_view token, const json& msg_id, const json& op_json) {
  std::lock_guard lock(mu_);
  const auto [id, seat] = find_player(token);
  if (seat == no_seat) return pr::make_error(msg_id, pr::session_errc::not_in_league);
  entry& e = entries_.at(id);
  json with_seat = op_json;
  with_seat["seat"] = seat;
  std::string error;
  const auto op = pr::league_op_from_json(with_seat, *d_.cards, error);
  if (!op) {
    // "mutations[0].element: ..." names the field inside "op".
    const auto colon = error.find(':');
    const std::string field = colon == std::string::npos ? std::string("op") : "op." + error.substr(0, colon);
    return pr::make_error(msg_id, pr::protocol_error{pr::protocol_errc::bad_field_value, field, error});
  }
  const auto refused = apply(id, e, *op);
  if (!refused.ok()) {
    spdlog::debug("league {}: '{}''s {} refused: {}", id, e.players[seat].name, league_op_type_name(op->type),
                  league_error_name(refused.error));
    return pr::make_league_refusal(msg_id, pr::league_refusal_to_json(refused));
  }
  return pr::make_league(msg_id, id, view_of(e, seat));
}

json league_service::legal_mutations(std::string_view token, const json& msg_id, const json& staged) {
  std::lock_guard lock(mu_);
  const auto [id, seat] = find_player(token);
  if (seat == no_seat) return pr::make_error(msg_id, pr::session_errc::not_in_league);
  const entry& e = entries_.at(id);
  // Read as a mutate op's list (mutation_from_json), empty allowed: the
  // field named as league_act names it ("mutations[1].element").
  auto bad = [&](const std::string& field, const std::string& why) {
    return pr::make_error(msg_id, pr::protocol_error{pr::protocol_errc::bad_field_value, field, why});
  };
  if (!staged.is_array() || staged.size() > pr::max_phase_mutations)
    return bad("mutations", cat("mutations: an array of at most ", pr::max_phase_mutations, " mutations"));
  std::vector<mutation> ms;
  for (std::size_t i = 0; i < staged.size(); ++i) {
    auto m = pr::mutation_from_json(staged[i], *d_.cards);
    if (!m.ok()) {
      const std::string error = cat("mutations[", i, "].", m.error);
      return bad(error.substr(0, error.find(':')), error);
    }
    ms.push_back(std::move(m.m));
  }
  std::vector<mutation> menu;
  half_points left = 0;
  const auto refused = e.l.legal_mutations_after(seat, ms, menu, &left);
  if (!refused.ok()) return pr::make_league_refusal(msg_id, pr::league_refusal_to_json(refused));
  return pr::make_league_mutations(msg_id, id, e.l.round(), left, pr::mutations_to_json(menu, *d_.cards));
}

event_seat league_service::find_seat(std::string_view token) {
  using k = event_seat::kind;
  std::lock_guard lock(mu_);
  const auto [id, seat] = find_player(token);
  event_seat out;
  if (seat == no_seat) return out;
  entry& e = entries_.at(id);
  out.name = e.players[seat].name;
  if (e.l.stage() == league_stage::finished) {
    out.what = k::over;
    out.detail = cat("league ", id, " has finished");
    return out;
  }
  out.what = k::waiting;
  if (e.l.stage() != league_stage::playing) {
    out.detail = cat("league ", id, " is ", league_stage_name(e.l.stage()),
                     ": no duel is open now (league_join shows what the league waits for)");
    return out;
  }
  open_rooms(id, e);
  for (int t = 0; t < league_tables; ++t) {
    const auto& table = e.l.table(e.l.round(), t);
    if (table.decided || (table.seats[0] != seat && table.seats[1] != seat)) continue;
    for (auto g = e.games.rbegin(); g != e.games.rend(); ++g) {
      if (g->round != e.l.round() || g->table != t) continue;
      if (auto r = d_.rooms->find(g->room_id)) {
        out.what = k::seated;
        out.r = std::move(r);
        out.seat = table.seats[0] == seat ? 0 : 1;
        return out;
      }
      break;
    }
    out.detail = cat("round ", e.l.round(), ": your duel's room is being opened again: ask again in a moment");
    return out;
  }
  out.detail = cat("round ", e.l.round(), ": your duel is over; the next round starts when the other duel ends");
  return out;
}

}  // namespace cod::server
