// decide(): the policies behind one entry point, and the difficulty levels.
#include <vector>

#include "ismcts.hpp"
#include "world.hpp"

namespace cod::search {

std::string_view policy_name(policy p) {
  switch (p) {
    case policy::random: return "random";
    case policy::greedy: return "greedy";
    case policy::search: return "search";
    case policy::all_seeing: return "all_seeing";
  }
  return "?";
}

// docs/ai.md, "Levels": the budget grows with the level; the weakest two
// also play a random action now and then.
settings level_settings(int level) {
  settings s;
  s.kind = policy::search;
  switch (level < min_level ? min_level : level > max_level ? max_level : level) {
    case 1: s.iterations = 100; s.noise_permille = 300; s.think_ms = 10; break;
    case 2: s.iterations = 300; s.noise_permille = 100; s.think_ms = 20; break;
    case 3: s.iterations = 1500; s.think_ms = 50; break;
    case 4: s.iterations = 5000; s.think_ms = 150; break;
    default: s.iterations = 15000; s.think_ms = 400; break;
  }
  return s;
}

namespace {

// R16.2: the greedy player sees no more than the searching one: it scores
// each of its actions in one sampled world (its own actions' results do not
// depend on hidden cards, save a Chain's catch).
action greedy_choice(const catalogue& cat, match& world, seat_t me, rng& r) {
  action legal[match::max_legal_actions];
  const int n = world.legal_actions(legal, match::max_legal_actions);
  std::vector<event> events;
  double best = -1e300;
  int ties = 0;
  action chosen = legal[0];
  for (int i = 0; i < n; ++i) {
    match next = world;
    events.clear();
    if (next.apply(legal[i], events) != rule_error::ok) continue;
    const double x = evaluate(cat, next.view(me), me);
    if (x > best + 1e-12) {
      best = x;
      chosen = legal[i];
      ties = 1;
    } else if (x > best - 1e-12 && r.below(static_cast<std::uint64_t>(++ties)) == 0) {
      chosen = legal[i];  // an even choice among equals
    }
  }
  return chosen;
}

decision choose(const catalogue& cat, seat_t me, const settings& s, rng& r, const detail::world_source& worlds,
                const stop_check& stop) {
  decision d;
  match world;
  action legal[match::max_legal_actions];
  d.legal = worlds(r, world) ? world.legal_actions(legal, match::max_legal_actions) : 0;
  if (d.legal == 0) {
    d.chosen = action::end(me);
    return d;
  }
  if (s.kind == policy::random ||
      (s.noise_permille > 0 && static_cast<int>(r.below(1000)) < s.noise_permille)) {
    d.chosen = legal[r.below(static_cast<std::uint64_t>(d.legal))];
    return d;
  }
  if (d.legal == 1) {  // nothing to think about
    d.chosen = legal[0];
    return d;
  }
  if (s.kind == policy::greedy) {
    d.chosen = greedy_choice(cat, world, me, r);
    return d;
  }
  const auto found = detail::run_ismcts(worlds, me, s, r, stop);
  d.chosen = found.chosen;
  d.iterations = found.iterations;
  return d;
}

}  // namespace

decision decide(const catalogue& cat, const seat_view& view, const table& t, const settings& s, std::uint64_t seed,
                const stop_check& stop) {
  rng r(seed);
  detail::world_sampler sampler(cat, view, t);
  if (!sampler.ok() || view.current_phase == phase::game_over || view.active_seat != view.viewer) {
    decision d;
    d.chosen = action::end(view.viewer);
    return d;
  }
  settings fair = s;
  if (fair.kind == policy::all_seeing) fair.kind = policy::search;  // a view holds nothing more to see
  return choose(cat, view.viewer, fair, r, [&](rng& g, match& out) { return sampler.sample(g, out); }, stop);
}

decision decide_all_seeing(const match& m, const settings& s, std::uint64_t seed, const stop_check& stop) {
  rng r(seed);
  // The true world every iteration; its generator reseeded, as a sampled world's is.
  return choose(m.cards(), m.active_seat(), s, r, [&](rng&, match& out) {
    out = m;
    return true;
  }, stop);
}

}  // namespace cod::search
