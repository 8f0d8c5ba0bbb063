// Rounds: which comes next, Swiss pairing from the standings and the seed,
// the top-cut bracket, and the stage.
#include <algorithm>

#include "cod/engine/rng.hpp"
#include "tournament/swiss.hpp"
#include "tournament/text.hpp"
#include "tournament/tournament.hpp"

namespace cod::tournaments {

namespace {

int count_kind(const std::vector<round>& rounds, round_kind k) {
  return static_cast<int>(std::count_if(rounds.begin(), rounds.end(), [k](const round& r) { return r.kind == k; }));
}

// Seeds (1-based) in bracket order: 1 v N on table 1 and 2 v N-1 on the
// table whose winner meets table 1's only in the final. order(2m) replaces
// each seed s of order(m) by "s, 2m+1-s".
std::vector<int> bracket_order(int size) {
  std::vector<int> order{1, 2};
  while (static_cast<int>(order.size()) < size) {
    const int m2 = static_cast<int>(order.size()) * 2;
    std::vector<int> next;
    for (int s : order) {
      next.push_back(s);
      next.push_back(m2 + 1 - s);
    }
    order = std::move(next);
  }
  return order;
}

}  // namespace

std::optional<round_kind> tournament::next_round_kind() const {
  const int swiss = count_kind(rounds_, round_kind::swiss);
  const int cut = count_kind(rounds_, round_kind::top_cut);
  if (swiss < config_.swiss_rounds) return round_kind::swiss;
  if (config_.top_cut == 0) return std::nullopt;
  if (cut == 0) return round_kind::top_cut;
  if ((config_.top_cut >> (cut - 1)) > 2) return round_kind::top_cut;  // the last cut round was not the final
  return std::nullopt;
}

const round* tournament::current_round() const { return rounds_.empty() ? nullptr : &rounds_.back(); }

bool tournament::round_finished() const {
  if (rounds_.empty()) return false;
  const round& r = rounds_.back();
  return std::all_of(r.pairings.begin(), r.pairings.end(),
                     [&](const pairing& p) { return score(p, r.kind).finished; });
}

stage tournament::current_stage() const {
  if (rounds_.empty()) return stage::not_started;
  if (round_finished() && !next_round_kind()) return stage::finished;
  return rounds_.back().kind == round_kind::swiss ? stage::swiss : stage::top_cut;
}

status tournament::start_next_round(std::string_view actor, std::int64_t at_ms) {
  if (!rounds_.empty() && !round_finished())
    return {errc::round_not_finished, cat("round ", rounds_.back().number, " has unfinished pairings")};
  const auto kind = next_round_kind();
  if (!kind) return {errc::tournament_finished, "every round has been played"};
  const int number = static_cast<int>(rounds_.size()) + 1;
  round r;
  if (*kind == round_kind::swiss) {
    if (status s = pair_swiss_round(number, 0, r); !s) return s;
  } else {
    r = pair_cut_round(number);
  }
  rounds_.push_back(std::move(r));
  append_log(actor, at_ms, act::start_round, no_player, *kind == round_kind::swiss ? "swiss" : "top_cut");
  return {};
}

status tournament::pair_swiss_round(int number, int attempt, round& out) const {
  const std::size_t n = players_.size();
  std::vector<player_id> active;
  for (std::size_t i = 0; i < n; ++i)
    if (!players_[i].dropped()) active.push_back(static_cast<player_id>(i));
  if (active.size() < 2)
    return {errc::not_enough_players, cat("only ", active.size(), " player(s) have not dropped")};

  // Who met whom in the rounds before this one (a re-pair ignores the
  // pairing it replaces).
  std::vector<std::vector<bool>> met(n, std::vector<bool>(n, false));
  for (const round& r : rounds_) {
    if (r.number >= number) continue;
    for (const pairing& p : r.pairings)
      if (!p.is_bye())
        met[static_cast<std::size_t>(p.a)][static_cast<std::size_t>(p.b)] =
            met[static_cast<std::size_t>(p.b)][static_cast<std::size_t>(p.a)] = true;
  }

  const std::vector<standing> st = standings();
  std::vector<int> points(n, 0);
  for (const standing& s : st) points[static_cast<std::size_t>(s.player)] = s.match_points;

  swiss_request req;
  // Top-down order: match points, ties in this round's seeded random order.
  req.order = active;
  rng g(pairing_seed(config_.seed, number, attempt));
  g.shuffle(req.order.data(), static_cast<int>(req.order.size()));
  std::stable_sort(req.order.begin(), req.order.end(), [&](player_id x, player_id y) {
    return points[static_cast<std::size_t>(x)] > points[static_cast<std::size_t>(y)];
  });
  // The bye: lowest in the standings first, those without a bye before those with one.
  for (int pass = 0; pass < 2; ++pass)
    for (auto it = st.rbegin(); it != st.rend(); ++it)
      if (!players_[static_cast<std::size_t>(it->player)].dropped() && (it->byes == 0) == (pass == 0))
        req.bye_preference.push_back(it->player);
  req.played = [&](player_id x, player_id y) { return met[static_cast<std::size_t>(x)][static_cast<std::size_t>(y)]; };

  const swiss_result res = pair_swiss(req);
  out = round{};
  out.number = number;
  out.kind = round_kind::swiss;
  out.attempt = attempt;
  int table = 1;
  for (const auto& [a, b] : res.pairs) {
    pairing p;
    p.table = table++;
    p.a = a;
    p.b = b;
    out.pairings.push_back(std::move(p));
  }
  if (res.bye != no_player) {
    pairing p;
    p.table = table;
    p.a = res.bye;
    out.pairings.push_back(std::move(p));
  }
  return {};
}

round tournament::pair_cut_round(int number) const {
  const int done = count_kind(rounds_, round_kind::top_cut);
  const int size = config_.top_cut >> done;  // players this round's bracket holds
  std::vector<player_id> slots(static_cast<std::size_t>(size), no_player);
  if (done == 0) {
    // The top N of the standings who have not dropped; missing seeds are byes.
    std::vector<player_id> seeds;
    for (const standing& s : standings())
      if (!s.dropped && static_cast<int>(seeds.size()) < size) seeds.push_back(s.player);
    const std::vector<int> order = bracket_order(size);
    for (std::size_t i = 0; i < order.size(); ++i)
      if (order[i] <= static_cast<int>(seeds.size())) slots[i] = seeds[static_cast<std::size_t>(order[i] - 1)];
  } else {
    // Winners of tables 1, 2, 3... of the previous cut round, in that order.
    const round& prev = rounds_.back();
    for (const pairing& p : prev.pairings) {
      const player_id w = score(p, round_kind::top_cut).winner;
      if (w != no_player && !players_[static_cast<std::size_t>(w)].dropped())
        slots[static_cast<std::size_t>(p.table - 1)] = w;
    }
  }
  round r;
  r.number = number;
  r.kind = round_kind::top_cut;
  for (int t = 1; t <= size / 2; ++t) {
    player_id a = slots[static_cast<std::size_t>(2 * t - 2)];
    player_id b = slots[static_cast<std::size_t>(2 * t - 1)];
    if (a == no_player && b == no_player) continue;  // nobody left on this branch
    if (a == no_player) std::swap(a, b);
    pairing p;
    p.table = t;
    p.a = a;
    p.b = b;
    r.pairings.push_back(std::move(p));
  }
  return r;
}

std::optional<player_id> tournament::champion() const {
  if (current_stage() != stage::finished) return std::nullopt;
  if (config_.top_cut == 0) return standings().front().player;
  for (const pairing& p : rounds_.back().pairings)
    if (p.table == 1) return score(p, round_kind::top_cut).winner;
  return std::nullopt;
}

}  // namespace cod::tournaments
