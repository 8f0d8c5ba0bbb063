// R15: the mutation league's state machine: its stages, every op's refusals,
// the schedule (E78), the ranking (R15.7), each duel's cards and seed (E80),
// and replay (R16.1).
#include <algorithm>
#include <map>
#include <set>

#include "cod/engine/league.hpp"
#include "fixtures.hpp"

using namespace cod;
using cod::test::shipped;

namespace {

league_config config(std::uint64_t seed) {
  league_config c;
  c.seed = seed;
  c.packs = {"initiation", "treachery"};
  return c;
}

league_op op(league_op_type t, seat_t seat) {
  league_op o;
  o.type = t;
  o.seat = seat;
  return o;
}

league_op result(int table, seat_t winner) {
  league_op o = op(league_op_type::result, no_seat);
  o.table = table;
  o.winner = winner;
  return o;
}

// Random legal picks to the end of the draft.
void draft_all(league& l, rng& r) {
  std::vector<draft_pick> legal;
  while (l.stage() == league_stage::drafting) {
    l.the_draft().legal_picks(legal);
    REQUIRE(!legal.empty());
    league_op o = op(league_op_type::pick, no_seat);
    o.pick = legal[r.below(legal.size())];
    REQUIRE(l.apply(o).ok());
  }
}

// Each player's deck: its first 8 drafted cards.
void build_all(league& l) {
  for (seat_t s = 0; s < league_players; ++s) {
    league_op o = op(league_op_type::choose_deck, s);
    o.cards.assign(l.drafted(s).begin(), l.drafted(s).begin() + 8);
    REQUIRE(l.apply(o).ok());
  }
}

// A phase: each player makes one random legal mutation, or passes when it has none.
void mutate_all(league& l, rng& r) {
  std::vector<mutation> menu;
  for (seat_t s = 0; s < league_players; ++s) {
    legal_mutations(l.config().costs, l.deck_of(s), mutation_budget, menu);
    league_op o = op(menu.empty() ? league_op_type::pass : league_op_type::mutate, s);
    if (!menu.empty()) o.mutations = {menu[r.below(menu.size())]};
    REQUIRE(l.apply(o).ok());
  }
}

league started(std::uint64_t seed, rng& r) {
  league l;
  REQUIRE(league::create(shipped(), config(seed), l) == league_error::ok);
  draft_all(l, r);
  build_all(l);
  return l;
}

}  // namespace

TEST_CASE("R15.1 a league drafts two different packs; the cost table is checked") {
  league l;
  league_config c = config(1);
  c.packs = {"initiation"};
  CHECK(league::create(shipped(), c, l) == league_error::bad_config);
  c.packs = {"initiation", "initiation"};
  CHECK(league::create(shipped(), c, l) == league_error::bad_config);
  c.packs = {"initiation", "no_such_pack"};
  CHECK(league::create(shipped(), c, l) == league_error::bad_config);
  c = config(1);
  c.costs.av = -1;
  CHECK(league::create(shipped(), c, l) == league_error::bad_config);
  REQUIRE(league::create(shipped(), config(1), l) == league_error::ok);
  CHECK(l.stage() == league_stage::drafting);
  CHECK(l.the_draft().state().format == draft_format::mutation);
}

TEST_CASE("R15.3 E78 the schedule: six rounds of two duels; each pair meets twice, seats swapped") {
  std::map<std::pair<int, int>, int> met;
  for (int r = 1; r <= league_rounds; ++r) {
    std::set<int> playing;
    for (int t = 0; t < league_tables; ++t) {
      const league_table x = league_pairing(r, t);
      playing.insert(x.seats[0]);
      playing.insert(x.seats[1]);
      ++met[{std::min(x.seats[0], x.seats[1]), std::max(x.seats[0], x.seats[1])}];
      // Round r+3 is round r with the seats swapped.
      if (r <= 3) {
        const league_table y = league_pairing(r + 3, t);
        CHECK(y.seats[0] == x.seats[1]);
        CHECK(y.seats[1] == x.seats[0]);
      }
    }
    CHECK(playing.size() == 4);  // every player plays once a round
  }
  CHECK(met.size() == 6);
  for (const auto& [pair, n] : met) CHECK(n == 2);
  CHECK(league_pairing(7, 0).seats[0] == no_seat);
}

TEST_CASE("R15 stages and refusals: each op at its stage, once per player, nothing changed on a refusal") {
  rng r(5);
  league l;
  REQUIRE(league::create(shipped(), config(9), l) == league_error::ok);
  // Drafting: no deck, no mutation, no result yet.
  league_op deck = op(league_op_type::choose_deck, 0);
  CHECK(l.apply(deck).error == league_error::wrong_stage);
  CHECK(l.apply(op(league_op_type::pass, 0)).error == league_error::wrong_stage);
  CHECK(l.apply(result(0, 0)).error == league_error::wrong_stage);
  league_op bad_pick = op(league_op_type::pick, no_seat);
  bad_pick.pick.type = draft_pick_type::take;
  bad_pick.pick.seat = 0;
  bad_pick.pick.cards = {l.the_draft().state().seats[1].packet[0]};  // another seat's packet
  auto refusal = l.apply(bad_pick);
  CHECK(refusal.error == league_error::draft_refused);
  CHECK(refusal.draft == draft_error::card_not_on_offer);
  draft_all(l, r);
  REQUIRE(l.stage() == league_stage::building);
  for (seat_t s = 0; s < 4; ++s) CHECK(l.drafted(s).size() == 16);

  // Building: 8 of one's own 16.
  deck.cards.assign(l.drafted(0).begin(), l.drafted(0).begin() + 7);
  refusal = l.apply(deck);
  CHECK(refusal.error == league_error::deck_refused);
  CHECK(refusal.mutation == mutation_error::wrong_count);
  deck.cards.assign(l.drafted(1).begin(), l.drafted(1).begin() + 8);
  CHECK(l.apply(deck).mutation == mutation_error::card_not_drafted);
  CHECK(l.apply(op(league_op_type::choose_deck, 4)).error == league_error::unknown_seat);
  deck.cards.assign(l.drafted(0).begin(), l.drafted(0).begin() + 8);
  REQUIRE(l.apply(deck).ok());
  CHECK(l.apply(deck).error == league_error::already_done);
  CHECK(l.stage() == league_stage::building);
  for (seat_t s = 1; s < 4; ++s) {
    league_op o = op(league_op_type::choose_deck, s);
    o.cards.assign(l.drafted(s).begin() + 8, l.drafted(s).end());  // the last 8 this time
    REQUIRE(l.apply(o).ok());
  }
  REQUIRE(l.stage() == league_stage::mutating);
  CHECK(l.round() == 1);
  CHECK(l.deck_of(1).lab.size() == 8);
  CHECK(l.deck_of(1).lab[0].id == l.drafted(1)[0]);

  // Mutating: a refused list changes nothing and names the mutation at fault.
  const std::uint64_t before = l.digest();
  std::vector<mutation> menu;
  legal_mutations(l.config().costs, l.deck_of(0), mutation_budget, menu);
  REQUIRE(!menu.empty());
  league_op twice = op(league_op_type::mutate, 0);
  twice.mutations = {menu[0], menu[0]};  // the same lab element twice (or the same target element)
  refusal = l.apply(twice);
  CHECK(refusal.error == league_error::mutation_refused);
  CHECK(refusal.index == 1);
  CHECK(l.digest() == before);
  CHECK(l.apply(result(0, 0)).error == league_error::wrong_stage);
  league_op once = op(league_op_type::mutate, 0);
  once.mutations = {menu[0]};
  REQUIRE(l.apply(once).ok());
  CHECK(l.apply(op(league_op_type::pass, 0)).error == league_error::already_done);
  REQUIRE(l.mutation_record().size() == 1);
  CHECK(l.mutation_record()[0].round == 1);
  CHECK(l.mutation_record()[0].cost == mutation_cost(l.config().costs, menu[0]));
  for (seat_t s = 1; s < 4; ++s) REQUIRE(l.apply(op(league_op_type::pass, s)).ok());
  REQUIRE(l.stage() == league_stage::playing);

  // Playing: each duel's result once, a winner among its players.
  const league_table t0 = l.table(1, 0);
  const seat_t outsider = l.table(1, 1).seats[0];
  CHECK(l.apply(result(0, outsider)).error == league_error::bad_result);
  CHECK(l.apply(result(2, no_seat)).error == league_error::unknown_table);
  REQUIRE(l.apply(result(0, t0.seats[1])).ok());
  CHECK(l.apply(result(0, t0.seats[0])).error == league_error::result_known);
  CHECK(l.stage() == league_stage::playing);
  REQUIRE(l.apply(result(1, no_seat)).ok());  // a duel without a winner counts for nobody
  CHECK(l.stage() == league_stage::mutating);
  CHECK(l.round() == 2);
}

TEST_CASE("R15.4 R15.3 each duel plays both players' decks as mutated now, with its own seed (E80)") {
  rng r(11);
  league l = started(21, r);
  const league_table t = l.table(1, 0);
  auto before = l.match_cards(1, 0);
  REQUIRE(before.decks[0].size() == 8);
  REQUIRE(before.decks[1].size() == 8);
  REQUIRE(before.cards.size() == 16);
  for (std::size_t i = 0; i < 8; ++i) {
    CHECK(before.decks[0][i] == l.deck_of(t.seats[0]).deck[i].id);
    CHECK(before.decks[1][i] == l.deck_of(t.seats[1]).deck[i].id);
  }
  // A mutation of seat t.seats[0] shows in its duel's definitions.
  std::vector<mutation> menu;
  legal_mutations(l.config().costs, l.deck_of(t.seats[0]), mutation_budget, menu);
  auto hp = std::find_if(menu.begin(), menu.end(), [&](const mutation& m) {
    return m.element == mutation_element::hp && l.cards().stats(m.source).hp > l.cards().stats(m.target).hp;
  });
  REQUIRE(hp != menu.end());
  league_op o = op(league_op_type::mutate, t.seats[0]);
  o.mutations = {*hp};
  REQUIRE(l.apply(o).ok());
  const auto after = l.match_cards(1, 0);
  auto def_of = [](const league::match_setup& s, card_id id) {
    return *std::find_if(s.cards.begin(), s.cards.end(), [&](const card_def& d) { return d.id == shipped().def(id).id; });
  };
  CHECK(def_of(after, hp->target).stats.hp == shipped().stats(hp->source).hp);
  CHECK(def_of(before, hp->target).stats.hp == shipped().stats(hp->target).hp);
  // Seeds: fixed by the league's seed and the duel's place, different per duel.
  CHECK(after.seed == before.seed);
  std::set<std::uint64_t> seeds;
  for (int round = 1; round <= league_rounds; ++round)
    for (int table = 0; table < league_tables; ++table) seeds.insert(l.match_cards(round, table).seed);
  CHECK(seeds.size() == 12);
}

TEST_CASE("R15.4 legal_mutations_after: the menu after a staged list, refused as its op would be") {
  rng r(13);
  league l;
  REQUIRE(league::create(shipped(), config(31), l) == league_error::ok);
  std::vector<mutation> out{mutation{}};
  // Before the phase: nothing to offer, and why.
  CHECK(l.legal_mutations_after(0, {}, out).error == league_error::wrong_stage);
  CHECK(out.empty());
  draft_all(l, r);
  build_all(l);
  REQUIRE(l.stage() == league_stage::mutating);
  const mutation_costs& costs = l.config().costs;

  // Nothing staged: the engine's legal_mutations for the deck as it
  // stands, in its order, within the phase's 2.5 points.
  std::vector<mutation> menu;
  legal_mutations(costs, l.deck_of(0), mutation_budget, menu);
  REQUIRE(!menu.empty());
  half_points left = -1;
  REQUIRE(l.legal_mutations_after(0, {}, out, &left).ok());
  CHECK(out == menu);
  CHECK(left == mutation_budget);
  CHECK(l.legal_mutations_after(4, {}, out).error == league_error::unknown_seat);

  // One staged: the menu of the deck as it leaves it, within what it left;
  // each offered one is accepted after it, and the staged one itself (its
  // element used now) is not offered again.
  const mutation first = menu.front();
  REQUIRE(l.legal_mutations_after(0, {first}, out, &left).ok());
  CHECK(left == mutation_budget - mutation_cost(costs, first));
  league_deck d = l.deck_of(0);
  REQUIRE(apply_mutations(costs, d, {first}).ok());
  std::vector<mutation> expected;
  legal_mutations(costs, d, left, expected);
  CHECK(out == expected);
  CHECK(std::find(out.begin(), out.end(), first) == out.end());
  for (const mutation& m : out) {
    league_op o = op(league_op_type::mutate, 0);
    o.mutations = {first, m};
    CHECK(l.check(o).ok());
  }
  league_op again = op(league_op_type::mutate, 0);
  again.mutations = {first, first};
  CHECK(l.check(again).error == league_error::mutation_refused);

  // A staged list the op would refuse: the same refusal, nothing offered.
  const league_refusal refused = l.legal_mutations_after(0, {first, first}, out);
  CHECK(refused.error == league_error::mutation_refused);
  CHECK(refused.index == 1);
  CHECK(refused.mutation == l.check(again).mutation);
  CHECK(out.empty());

  // Once the player has acted, nothing more this phase.
  league_op once = op(league_op_type::mutate, 0);
  once.mutations = {first};
  REQUIRE(l.apply(once).ok());
  CHECK(l.legal_mutations_after(0, {}, out).error == league_error::already_done);
  CHECK(out.empty());
  REQUIRE(l.legal_mutations_after(1, {}, out).ok());
  CHECK(!out.empty());
}

TEST_CASE("R15.5 a staged mutation may open one the deck did not allow before: the menu is the staged list's") {
  // Why a client asks again after each staged mutation rather than keeping
  // the first menu: covering an ability lets it be pasted back from another
  // lab card (R6.2 no longer stops it), covering Vulnerability lets an AV in
  // (E72). Found among a few leagues' decks.
  bool found = false;
  for (std::uint64_t seed = 1; seed <= 20 && !found; ++seed) {
    rng r(seed);
    league l = started(seed, r);
    for (seat_t s = 0; s < league_players && !found; ++s) {
      std::vector<mutation> menu, after;
      REQUIRE(l.legal_mutations_after(s, {}, menu).ok());
      for (const mutation& m : menu) {
        REQUIRE(l.legal_mutations_after(s, {m}, after).ok());
        for (const mutation& next : after)
          if (std::find(menu.begin(), menu.end(), next) == menu.end()) {
            found = true;
            league_op o = op(league_op_type::mutate, s);
            o.mutations = {next};
            CHECK(l.check(o).error == league_error::mutation_refused);  // not alone
            o.mutations = {m, next};
            CHECK(l.check(o).ok());  // after m
            break;
          }
        if (found) break;
      }
    }
  }
  CHECK(found);
}

TEST_CASE("R15 a whole league to the ranking; R16.1 its ops replay it exactly") {
  rng r(3);
  league l = started(77, r);
  for (int round = 1; round <= league_rounds; ++round) {
    REQUIRE(l.stage() == league_stage::mutating);
    CHECK(l.round() == round);
    mutate_all(l, r);
    REQUIRE(l.stage() == league_stage::playing);
    for (int t = 0; t < league_tables; ++t) {
      const league_table x = l.table(round, t);
      REQUIRE(l.apply(result(t, x.seats[r.below(2)])).ok());
    }
  }
  CHECK(l.stage() == league_stage::finished);
  CHECK(l.apply(op(league_op_type::pass, 0)).error == league_error::wrong_stage);  // R15.7: no more mutations
  const auto st = l.standings();
  int wins = 0;
  for (const auto& s : st) {
    CHECK(s.played == 6);
    wins += s.won;
  }
  CHECK(wins == 12);
  for (std::size_t i = 1; i < st.size(); ++i) CHECK(st[i - 1].won >= st[i].won);
  CHECK(st[0].place == 1);
  // Every mutation is permanent: the final decks still carry them all.
  CHECK(l.mutation_record().size() >= 12);

  league again;
  int failed_at = 0;
  REQUIRE(replay_league(shipped(), config(77), l.ops(), again, failed_at).ok());
  CHECK(failed_at == -1);
  CHECK(again.digest() == l.digest());
  // A tampered op stops the replay there.
  auto ops = l.ops();
  const auto first_result = std::find_if(ops.begin(), ops.end(), [](const league_op& o) { return o.type == league_op_type::result; });
  REQUIRE(first_result != ops.end());
  first_result->winner = 9;  // nobody's seat
  CHECK(replay_league(shipped(), config(77), ops, again, failed_at).error == league_error::bad_result);
  CHECK(failed_at == static_cast<int>(first_result - ops.begin()));
}

TEST_CASE("R15.7 tied players share the place") {
  rng r(4);
  league l = started(5, r);
  // The lower seat wins every duel, except that A and B split theirs:
  // A 5, B 5, C 2, D 0.
  for (int round = 1; round <= league_rounds; ++round) {
    for (seat_t s = 0; s < 4; ++s) REQUIRE(l.apply(op(league_op_type::pass, s)).ok());
    for (int t = 0; t < league_tables; ++t) {
      const league_table x = l.table(round, t);
      const seat_t a = x.seats[0], b = x.seats[1];
      seat_t w = std::min(a, b);  // the lower seat wins: A > B > C > D...
      if (std::min(a, b) == 0 && std::max(a, b) == 1) w = round <= 3 ? 0 : 1;  // ...but A and B split
      REQUIRE(l.apply(result(t, w)).ok());
    }
  }
  const auto st = l.standings();
  std::map<int, std::pair<int, int>> by_seat;
  for (const auto& s : st) by_seat[s.seat] = {s.won, s.place};
  CHECK(by_seat[0] == std::pair{5, 1});
  CHECK(by_seat[1] == std::pair{5, 1});  // tied with A: the same place
  CHECK(by_seat[2] == std::pair{2, 3});
  CHECK(by_seat[3] == std::pair{0, 4});
}
