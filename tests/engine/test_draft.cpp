// R14 deck building: every format's order of reveals, picks and bans, its
// errors, secrecy (R16.2), the pool (R14.8) and replay (R16.1).
// Rulings E60–E66 (docs/rulings.md).
#include <algorithm>
#include <set>
#include <utility>

#include "cod/engine/draft.hpp"
#include "fixtures.hpp"

using namespace cod;
using cod::test::shipped;

namespace {

draft_config make_config(draft_format f, draft_table t, std::uint64_t seed, std::vector<std::string> packs = {}) {
  draft_config c;
  c.format = f;
  c.table = t;
  c.seed = seed;
  c.packs = std::move(packs);
  return c;
}

draft start(const draft_config& c, std::vector<draft_event>* events = nullptr) {
  draft d;
  std::vector<draft_event> ev;
  REQUIRE(draft::create(shipped(), c, d, ev) == draft_error::ok);
  if (events) *events = ev;
  return d;
}

draft_pick take(seat_t seat, std::vector<card_id> cards) {
  draft_pick p;
  p.type = draft_pick_type::take;
  p.seat = seat;
  p.cards = std::move(cards);
  return p;
}

draft_pick ban(seat_t seat, std::vector<card_id> cards) {
  draft_pick p = take(seat, std::move(cards));
  p.type = draft_pick_type::ban;
  return p;
}

draft_pick submit(seat_t seat, std::vector<card_id> cards) {
  draft_pick p = take(seat, std::move(cards));
  p.type = draft_pick_type::submit;
  return p;
}

draft_pick choose(seat_t seat, int deck) {
  draft_pick p;
  p.type = draft_pick_type::choose_deck;
  p.seat = seat;
  p.deck = deck;
  return p;
}

// The first `n` cards of the offer.
std::vector<card_id> first_of_offer(const draft& d, int n) {
  return {d.state().offer.begin(), d.state().offer.begin() + n};
}

// `n` different cards of `pack`, from the `skip`-th on, in catalogue order.
std::vector<card_id> cards_of(const char* pack, int n, int skip = 0) {
  std::vector<card_id> out;
  for (std::size_t c = 0; c < shipped().size() && static_cast<int>(out.size()) < n; ++c)
    if (shipped().def(static_cast<card_id>(c)).pack == pack && skip-- <= 0) out.push_back(static_cast<card_id>(c));
  REQUIRE(static_cast<int>(out.size()) == n);
  return out;
}

// Plays random legal picks (random pool lists for secret lists) to the end.
void finish_randomly(draft& d, std::uint64_t seed) {
  rng r(seed);
  std::vector<draft_pick> legal;
  std::vector<draft_event> ev;
  for (int guard = 0; !d.finished(); ++guard) {
    REQUIRE(guard < 200);
    d.legal_picks(legal);
    if (legal.empty()) {
      const auto w = d.waiting();
      REQUIRE(!w.empty());
      REQUIRE(w[0].type == draft_pick_type::submit);
      std::vector<card_id> pool = d.state().pool;
      r.shuffle(pool.data(), static_cast<int>(pool.size()));
      pool.resize(static_cast<std::size_t>(w[0].count));
      legal.push_back(submit(w[0].seat, pool));
    }
    REQUIRE(d.apply(legal[r.below(legal.size())], ev) == draft_error::ok);
  }
}

// (seat, cards) of every `taken` event, in order, with whether it was automatic.
struct take_record {
  int seat;
  int count;
  bool automatic;
  bool operator==(const take_record&) const = default;
};

std::vector<take_record> takes_of(const std::vector<draft_event>& record) {
  std::vector<take_record> out;
  for (const auto& e : record)
    if (e.type == draft_event_type::taken) out.push_back({e.seat, static_cast<int>(e.cards.size()), e.automatic});
  return out;
}

int count_events(const std::vector<draft_event>& record, draft_event_type t) {
  return static_cast<int>(std::count_if(record.begin(), record.end(), [t](const auto& e) { return e.type == t; }));
}

// Always takes the first cards on offer: follows the schedule, whatever it is.
void take_first_until_done(draft& d) {
  std::vector<draft_event> ev;
  for (int guard = 0; !d.finished(); ++guard) {
    REQUIRE(guard < 100);
    const auto w = d.waiting();
    REQUIRE(w.size() == 1);
    REQUIRE(w[0].type == draft_pick_type::take);
    REQUIRE(d.apply(take(w[0].seat, first_of_offer(d, w[0].count)), ev) == draft_error::ok);
  }
}

}  // namespace

TEST_CASE("R14.2 two-player draft: reveal 4; A 1, B 2, A the last; then B 1, A 2, B the last; 8 each") {
  std::vector<draft_event> created;
  draft d = start(make_config(draft_format::draft, draft_table::duel, 7), &created);
  REQUIRE(created.size() == 2);
  CHECK(created[0].type == draft_event_type::started);
  CHECK(created[0].count == static_cast<int>(shipped().size()));  // the whole pool is the pile (E60)
  CHECK(created[1].type == draft_event_type::revealed);
  CHECK(created[1].cards.size() == 4);
  // The first reveal is the pile's top 4.
  CHECK(created[1].cards == std::vector<card_id>(d.state().pile.begin(), d.state().pile.begin() + 4));

  const auto w = d.waiting();
  REQUIRE(w.size() == 1);
  CHECK(w[0].seat == 0);
  CHECK(w[0].count == 1);
  CHECK(w[0].type == draft_pick_type::take);

  take_first_until_done(d);
  const std::vector<take_record> want = {
      {0, 1, false}, {1, 2, false}, {0, 1, true},  // round 1: A B B A
      {1, 1, false}, {0, 2, false}, {1, 1, true},  // round 2: swapped
      {0, 1, false}, {1, 2, false}, {0, 1, true},
      {1, 1, false}, {0, 2, false}, {1, 1, true},
  };
  CHECK(takes_of(d.record()) == want);
  CHECK(count_events(d.record(), draft_event_type::revealed) == 4);
  CHECK(d.record().back().type == draft_event_type::finished);

  // Each has 8 of the pile's top 16, none shared (R14.8).
  std::set<card_id> all;
  for (int seat = 0; seat < 2; ++seat) {
    CHECK(d.decks()[seat].size() == 8);
    CHECK(match::check_deck(shipped(), d.decks()[seat]) == rule_error::ok);
    all.insert(d.decks()[seat].begin(), d.decks()[seat].end());
  }
  CHECK(all == std::set<card_id>(d.state().pile.begin(), d.state().pile.begin() + 16));
  CHECK(d.view(0).pile_left == static_cast<int>(shipped().size()) - 16);
}

TEST_CASE("R14.3 four-player draft: ABCDDCBA, BCDAADCB, CDABBADC, DABCCBAD as written") {
  draft d = start(make_config(draft_format::draft, draft_table::four_players, 3, {"initiation"}));
  take_first_until_done(d);
  // Written out by hand from the Season 3 rulebook, not from the schedule code.
  const std::vector<take_record> want = {
      {0, 1, false}, {1, 1, false}, {2, 1, false}, {3, 2, false}, {2, 1, false}, {1, 1, false}, {0, 1, true},
      {1, 1, false}, {2, 1, false}, {3, 1, false}, {0, 2, false}, {3, 1, false}, {2, 1, false}, {1, 1, true},
      {2, 1, false}, {3, 1, false}, {0, 1, false}, {1, 2, false}, {0, 1, false}, {3, 1, false}, {2, 1, true},
      {3, 1, false}, {0, 1, false}, {1, 1, false}, {2, 2, false}, {1, 1, false}, {0, 1, false}, {3, 1, true},
  };
  CHECK(takes_of(d.record()) == want);
  for (const auto& e : d.record())
    if (e.type == draft_event_type::revealed) CHECK(e.cards.size() == 8);
  // 32 cards: the whole Initiation Pack, 8 different each, none shared.
  std::set<card_id> all;
  for (int seat = 0; seat < 4; ++seat) {
    CHECK(d.decks()[seat].size() == 8);
    CHECK(match::check_deck(shipped(), d.decks()[seat]) == rule_error::ok);
    all.insert(d.decks()[seat].begin(), d.decks()[seat].end());
  }
  CHECK(all.size() == 32);
  CHECK(d.view(spectator).pile_left == 0);
}

TEST_CASE("R14.4 solo draft: reveal 4, the human takes 1, the AI gets 3; human 8, AI 24") {
  draft d = start(make_config(draft_format::draft, draft_table::solo, 11, {"treachery", "submersion"}));
  std::vector<draft_event> ev;
  for (int round = 0; round < 8; ++round) {
    const auto w = d.waiting();
    REQUIRE(w.size() == 1);
    CHECK(w[0].seat == 0);
    CHECK(w[0].count == 1);
    const std::vector<card_id> offer = d.state().offer;
    REQUIRE(offer.size() == 4);
    ev.clear();
    // Takes the third card: the AI gets the others, in reveal order.
    REQUIRE(d.apply(take(0, {offer[2]}), ev) == draft_error::ok);
    REQUIRE(ev.size() >= 2);
    CHECK(ev[0].type == draft_event_type::taken);
    CHECK(ev[1].type == draft_event_type::given_to_ai);
    CHECK(ev[1].seat == 1);
    CHECK(ev[1].cards == std::vector<card_id>{offer[0], offer[1], offer[3]});
  }
  REQUIRE(d.finished());
  CHECK(d.decks()[0].size() == 8);
  CHECK(d.decks()[1].size() == 24);
  CHECK(d.decks()[1] == d.state().ai_cards);
  std::set<card_id> all(d.decks()[0].begin(), d.decks()[0].end());
  all.insert(d.decks()[1].begin(), d.decks()[1].end());
  CHECK(all == std::set<card_id>(d.state().pile.begin(), d.state().pile.begin() + 32));
  // The AI seat takes no picks.
  CHECK(d.view(0).seats[1].ai);
  CHECK(d.view(0).seats[1].deck_size == 24);
}

TEST_CASE("R14.5 co-op draft: reveal 8, A 1 then C 1 (swapped each round), AI 6; AI's 48 split 24/24") {
  draft d = start(make_config(draft_format::draft, draft_table::coop, 5, {"initiation", "elusive"}));
  take_first_until_done(d);
  std::vector<take_record> want;
  for (int round = 0; round < 8; ++round) {
    const int first = round % 2 == 0 ? 0 : 2;
    want.push_back({first, 1, false});
    want.push_back({2 - first, 1, false});
  }
  CHECK(takes_of(d.record()) == want);
  int ai_rounds = 0;
  for (const auto& e : d.record())
    if (e.type == draft_event_type::given_to_ai) {
      CHECK(e.cards.size() == 6);
      CHECK(e.seat == no_seat);  // both AIs' until the split
      ++ai_rounds;
    }
  CHECK(ai_rounds == 8);
  CHECK(d.state().ai_cards.size() == 48);
  CHECK(d.decks()[0].size() == 8);
  CHECK(d.decks()[2].size() == 8);
  CHECK(d.decks()[1].size() == 24);
  CHECK(d.decks()[3].size() == 24);
  // B and D hold the AI's 48 between them.
  std::vector<card_id> ai = d.decks()[1];
  ai.insert(ai.end(), d.decks()[3].begin(), d.decks()[3].end());
  std::vector<card_id> got = d.state().ai_cards;
  std::sort(ai.begin(), ai.end());
  std::sort(got.begin(), got.end());
  CHECK(ai == got);
  // The split comes from the generator: it is not the received order (E66).
  CHECK(d.decks()[1] != std::vector<card_id>(d.state().ai_cards.begin(), d.state().ai_cards.begin() + 24));
  // Which AI has which card is secret: the event and the views give counts only.
  const auto split = std::find_if(d.record().begin(), d.record().end(),
                                  [](const auto& e) { return e.type == draft_event_type::ai_decks_split; });
  REQUIRE(split != d.record().end());
  CHECK(split->cards.empty());
  CHECK(split->count == 24);
  const draft_view v = d.view(0);
  CHECK(v.seats[1].ai);
  CHECK(v.seats[3].ai);
  CHECK(v.seats[1].list.empty());
  CHECK(v.seats[1].deck_size == 24);
  CHECK(v.own_deck == d.decks()[0]);
  CHECK(d.view(1).own_deck.empty());  // an AI seat is no viewer
}

TEST_CASE("E66 co-op's split is pinned: shuffle the AI's cards in received order, first 24 to B") {
  draft d = start(make_config(draft_format::draft, draft_table::coop, 9, {"initiation", "resistance"}));
  // The generator after the pile shuffle, replayed by hand.
  rng r(9);
  std::vector<card_id> pile = d.state().pool;
  r.shuffle(pile.data(), static_cast<int>(pile.size()));
  CHECK(pile == d.state().pile);
  take_first_until_done(d);
  std::vector<card_id> ai = d.state().ai_cards;
  r.shuffle(ai.data(), static_cast<int>(ai.size()));
  CHECK(d.decks()[1] == std::vector<card_id>(ai.begin(), ai.begin() + 24));
  CHECK(d.decks()[3] == std::vector<card_id>(ai.begin() + 24, ai.end()));
  CHECK(d.match_seed() == r.next());  // E62: then the match's seed
}

TEST_CASE("E61 no choice, no pick: the last card on offer is taken by itself") {
  draft d = start(make_config(draft_format::draft, draft_table::duel, 1));
  std::vector<draft_event> ev;
  const std::vector<card_id> offer = d.state().offer;
  REQUIRE(d.apply(take(0, {offer[0]}), ev) == draft_error::ok);
  ev.clear();
  REQUIRE(d.apply(take(1, {offer[1], offer[2]}), ev) == draft_error::ok);
  REQUIRE(ev.size() == 3);  // B's take, A's forced take, the next reveal
  CHECK(ev[1].type == draft_event_type::taken);
  CHECK(ev[1].seat == 0);
  CHECK(ev[1].automatic);
  CHECK(ev[1].cards == std::vector<card_id>{offer[3]});
  CHECK(ev[2].type == draft_event_type::revealed);
  CHECK(d.state().seats[0].taken == std::vector<card_id>{offer[0], offer[3]});
  CHECK(d.state().seats[1].taken == std::vector<card_id>{offer[1], offer[2]});
  // Round 2 starts with B.
  CHECK(d.waiting()[0].seat == 1);
}

TEST_CASE("Draft pick errors: stable codes, and nothing changes") {
  draft d = start(make_config(draft_format::draft, draft_table::duel, 21, {"initiation"}));
  const std::vector<card_id> offer = d.state().offer;
  card_id off_offer = no_card;
  for (card_id c : d.state().pool)
    if (std::find(offer.begin(), offer.end(), c) == offer.end()) off_offer = c;
  const std::uint64_t before = d.digest();
  const std::size_t record = d.record().size();
  std::vector<draft_event> ev;
  CHECK(d.apply(take(1, {offer[0]}), ev) == draft_error::not_your_turn);
  CHECK(d.apply(take(0, {off_offer}), ev) == draft_error::card_not_on_offer);
  CHECK(d.apply(take(0, {offer[0], offer[1]}), ev) == draft_error::wrong_count);
  CHECK(d.apply(take(0, {}), ev) == draft_error::wrong_count);
  CHECK(d.apply(ban(0, {offer[0]}), ev) == draft_error::wrong_pick);
  CHECK(d.apply(choose(0, 1), ev) == draft_error::wrong_pick);
  CHECK(d.apply(take(2, {offer[0]}), ev) == draft_error::unknown_seat);
  CHECK(d.apply(take(no_seat, {offer[0]}), ev) == draft_error::unknown_seat);
  CHECK(ev.empty());
  CHECK(d.digest() == before);
  CHECK(d.record().size() == record);
  CHECK(d.picks().empty());

  REQUIRE(d.apply(take(0, {offer[0]}), ev) == draft_error::ok);
  CHECK(d.apply(take(1, {offer[1], offer[1]}), ev) == draft_error::duplicate_card);
  CHECK(d.apply(take(1, {offer[0], offer[1]}), ev) == draft_error::card_not_on_offer);  // already taken
  CHECK(d.apply(take(0, {offer[1]}), ev) == draft_error::not_your_turn);

  take_first_until_done(d);
  const std::uint64_t done = d.digest();
  CHECK(d.apply(take(0, {offer[0]}), ev) == draft_error::draft_over);
  CHECK(d.digest() == done);
  CHECK(d.waiting().empty());
}

TEST_CASE("Solo and co-op: the AI seats make no picks") {
  draft solo = start(make_config(draft_format::draft, draft_table::solo, 2));
  std::vector<draft_event> ev;
  CHECK(solo.apply(take(1, {solo.state().offer[0]}), ev) == draft_error::unknown_seat);
  draft coop = start(make_config(draft_format::draft, draft_table::coop, 2));
  CHECK(coop.apply(take(1, {coop.state().offer[0]}), ev) == draft_error::unknown_seat);
  CHECK(coop.apply(take(3, {coop.state().offer[0]}), ev) == draft_error::unknown_seat);
  CHECK(coop.apply(take(2, {coop.state().offer[0]}), ev) == draft_error::not_your_turn);
}

TEST_CASE("R14.1 preconstructed duel: chosen in secret, revealed together; the same deck twice is allowed (E63)") {
  draft d = start(make_config(draft_format::preconstructed, draft_table::duel, 4));
  auto w = d.waiting();
  REQUIRE(w.size() == 2);  // both at once
  CHECK(w[0].type == draft_pick_type::choose_deck);
  std::vector<draft_event> ev;
  CHECK(d.apply(choose(1, 0), ev) == draft_error::unknown_deck);
  CHECK(d.apply(choose(1, 5), ev) == draft_error::unknown_deck);
  CHECK(d.apply(take(1, {}), ev) == draft_error::wrong_pick);
  REQUIRE(d.apply(choose(1, 3), ev) == draft_error::ok);  // B first: any order
  REQUIRE(ev.size() == 1);
  CHECK(ev[0].type == draft_event_type::submitted);
  CHECK(ev[0].deck == 0);  // the event does not say which
  CHECK(ev[0].cards.empty());
  CHECK(d.view(0).seats[1].deck == 0);
  CHECK(d.view(0).seats[1].list.empty());
  CHECK(d.view(0).seats[1].submitted);
  CHECK(d.view(1).seats[1].deck == 3);  // its owner sees it
  CHECK(d.view(spectator).seats[1].deck == 0);
  CHECK(d.apply(choose(1, 2), ev) == draft_error::not_your_turn);  // chosen is chosen
  w = d.waiting();
  REQUIRE(w.size() == 1);
  CHECK(w[0].seat == 0);
  ev.clear();
  REQUIRE(d.apply(choose(0, 3), ev) == draft_error::ok);
  REQUIRE(d.finished());
  CHECK(count_events(ev, draft_event_type::list_revealed) == 2);
  CHECK(d.view(spectator).seats[1].deck == 3);
  CHECK(d.decks()[0] == shipped().preconstructed_deck(3));
  CHECK(d.decks()[1] == shipped().preconstructed_deck(3));
}

TEST_CASE("R14.1 preconstructed solo: the AI gets the other three decks, 24 cards in deck order") {
  draft d = start(make_config(draft_format::preconstructed, draft_table::solo, 4));
  std::vector<draft_event> ev;
  REQUIRE(d.apply(choose(0, 2), ev) == draft_error::ok);
  REQUIRE(d.finished());
  std::vector<card_id> ai;
  for (int deck : {1, 3, 4}) {
    const auto cards = shipped().preconstructed_deck(deck);
    ai.insert(ai.end(), cards.begin(), cards.end());
  }
  CHECK(d.decks()[0] == shipped().preconstructed_deck(2));
  CHECK(d.decks()[1] == ai);
  CHECK(count_events(ev, draft_event_type::given_to_ai) == 1);
}

TEST_CASE("R2.1 formats by table: no constructed in solo or co-op; co-op drafts only; instant is a duel") {
  struct row {
    draft_format f;
    draft_table t;
    bool ok;
  };
  const row rows[] = {
      {draft_format::preconstructed, draft_table::duel, true},
      {draft_format::preconstructed, draft_table::four_players, true},
      {draft_format::preconstructed, draft_table::solo, true},
      {draft_format::preconstructed, draft_table::coop, false},
      {draft_format::constructed, draft_table::duel, true},
      {draft_format::constructed, draft_table::four_players, true},
      {draft_format::constructed, draft_table::solo, false},
      {draft_format::constructed, draft_table::coop, false},
      {draft_format::instant_constructed, draft_table::duel, true},
      {draft_format::instant_constructed, draft_table::four_players, false},
      {draft_format::instant_constructed, draft_table::solo, false},
      {draft_format::instant_constructed, draft_table::coop, false},
      {draft_format::draft, draft_table::duel, true},
      {draft_format::draft, draft_table::four_players, true},
      {draft_format::draft, draft_table::solo, true},
      {draft_format::draft, draft_table::coop, true},
  };
  for (const row& r : rows) {
    draft d;
    std::vector<draft_event> ev;
    CAPTURE(draft_format_name(r.f));
    CAPTURE(draft_table_name(r.t));
    CHECK(draft::create(shipped(), make_config(r.f, r.t, 1), d, ev) ==
          (r.ok ? draft_error::ok : draft_error::format_not_allowed));
  }
  draft d;
  std::vector<draft_event> ev;
  draft_config bad = make_config(draft_format::draft, draft_table::duel, 1);
  bad.format = static_cast<draft_format>(9);
  CHECK(draft::create(shipped(), bad, d, ev) == draft_error::bad_config);
  CHECK(ev.empty());
}

TEST_CASE("R14.6 constructed: 8 different pool cards, secret until both have submitted (E64)") {
  draft d = start(make_config(draft_format::constructed, draft_table::duel, 8, {"initiation", "treachery"}));
  const auto a = cards_of("initiation", 8);
  const auto b = cards_of("treachery", 8);
  std::vector<draft_event> ev;
  auto seven = a;
  seven.pop_back();
  auto nine = a;
  nine.push_back(b[0]);
  auto dup = a;
  dup[7] = dup[0];
  auto unknown = a;
  unknown[3] = static_cast<card_id>(shipped().size());
  auto outside = a;
  outside[5] = cards_of("elusive", 1)[0];
  CHECK(d.apply(submit(0, seven), ev) == draft_error::wrong_count);
  CHECK(d.apply(submit(0, nine), ev) == draft_error::wrong_count);
  CHECK(d.apply(submit(0, dup), ev) == draft_error::duplicate_card);
  CHECK(d.apply(submit(0, unknown), ev) == draft_error::unknown_card);
  CHECK(d.apply(submit(0, outside), ev) == draft_error::card_not_in_pool);
  CHECK(d.apply(take(0, a), ev) == draft_error::wrong_pick);
  CHECK(ev.empty());

  REQUIRE(d.apply(submit(0, a), ev) == draft_error::ok);
  CHECK(ev.back().cards.empty());
  CHECK(d.view(1).seats[0].list.empty());
  CHECK(d.view(0).seats[0].list == a);
  CHECK(d.apply(submit(0, b), ev) == draft_error::not_your_turn);
  // The same card in both decks is fine: each player has a collection.
  auto b2 = b;
  b2[0] = a[0];
  ev.clear();
  REQUIRE(d.apply(submit(1, b2), ev) == draft_error::ok);
  REQUIRE(d.finished());
  CHECK(count_events(ev, draft_event_type::list_revealed) == 2);
  CHECK(d.view(1).seats[0].list == a);
  CHECK(d.view(spectator).seats[1].list == b2);
  CHECK(d.decks()[0] == a);
  CHECK(d.decks()[1] == b2);
}

TEST_CASE("R14.6 constructed for four players") {
  draft d = start(make_config(draft_format::constructed, draft_table::four_players, 8));
  std::vector<draft_event> ev;
  for (seat_t seat : {2, 0, 3, 1}) {
    CHECK(!d.finished());
    REQUIRE(d.apply(submit(seat, cards_of("initiation", 8, seat * 8)), ev) == draft_error::ok);
  }
  REQUIRE(d.finished());
  for (int seat = 0; seat < 4; ++seat) CHECK(d.decks()[seat] == cards_of("initiation", 8, seat * 8));
}

TEST_CASE("R14.7 instant constructed: 10 each in secret; A reveals, B bans 1; B reveals, A bans 2; B bans 1 more (E65)") {
  draft d = start(make_config(draft_format::instant_constructed, draft_table::duel, 12));
  const auto a = cards_of("initiation", 10);
  const auto b = cards_of("initiation", 10, 5);  // overlaps a on 5 cards: allowed
  std::vector<draft_event> ev;
  CHECK(d.apply(submit(0, cards_of("initiation", 8)), ev) == draft_error::wrong_count);
  REQUIRE(d.apply(submit(0, a), ev) == draft_error::ok);
  // Nothing is revealed until both have chosen.
  CHECK(!d.view(1).seats[0].revealed);
  CHECK(d.view(1).seats[0].list.empty());
  CHECK(d.apply(ban(1, {a[0]}), ev) == draft_error::wrong_pick);
  ev.clear();
  REQUIRE(d.apply(submit(1, b), ev) == draft_error::ok);
  REQUIRE(ev.size() == 2);
  CHECK(ev[1].type == draft_event_type::list_revealed);
  CHECK(ev[1].seat == 0);
  CHECK(ev[1].cards == a);
  // A's list is public; B's is still secret (but to B).
  CHECK(d.view(1).seats[0].list == a);
  CHECK(d.view(0).seats[1].list.empty());
  CHECK(d.view(spectator).seats[1].list.empty());
  CHECK(d.view(1).seats[1].list == b);

  auto w = d.waiting();
  REQUIRE(w.size() == 1);
  CHECK(w[0].seat == 1);
  CHECK(w[0].type == draft_pick_type::ban);
  CHECK(w[0].count == 1);
  CHECK(w[0].target == 0);
  CHECK(d.apply(ban(0, {b[0]}), ev) == draft_error::not_your_turn);
  CHECK(d.apply(ban(1, {b[9]}), ev) == draft_error::card_not_on_offer);  // B's own card, not A's
  CHECK(d.apply(ban(1, {a[1], a[2]}), ev) == draft_error::wrong_count);
  ev.clear();
  REQUIRE(d.apply(ban(1, {a[3]}), ev) == draft_error::ok);
  REQUIRE(ev.size() == 2);
  CHECK(ev[0].type == draft_event_type::banned);
  CHECK(ev[0].target == 0);
  CHECK(ev[1].type == draft_event_type::list_revealed);
  CHECK(ev[1].seat == 1);
  CHECK(d.view(0).seats[1].list == b);

  w = d.waiting();
  REQUIRE(w.size() == 1);
  CHECK(w[0].seat == 0);
  CHECK(w[0].count == 2);
  CHECK(w[0].target == 1);
  CHECK(d.apply(ban(0, {b[1], b[1]}), ev) == draft_error::duplicate_card);
  CHECK(d.apply(ban(0, {b[1]}), ev) == draft_error::wrong_count);
  REQUIRE(d.apply(ban(0, {b[9], b[1]}), ev) == draft_error::ok);

  w = d.waiting();
  REQUIRE(w.size() == 1);
  CHECK(w[0].seat == 1);
  CHECK(w[0].count == 1);
  CHECK(w[0].target == 0);
  CHECK(d.apply(ban(1, {a[3]}), ev) == draft_error::card_not_on_offer);  // banned already
  REQUIRE(d.apply(ban(1, {a[0]}), ev) == draft_error::ok);
  REQUIRE(d.finished());

  std::vector<card_id> keep_a, keep_b;
  for (int i = 0; i < 10; ++i) {
    if (i != 0 && i != 3) keep_a.push_back(a[i]);
    if (i != 1 && i != 9) keep_b.push_back(b[i]);
  }
  CHECK(d.decks()[0] == keep_a);
  CHECK(d.decks()[1] == keep_b);
  CHECK(d.view(spectator).seats[0].banned == std::vector<card_id>{a[3], a[0]});
  CHECK(d.view(spectator).seats[1].banned == std::vector<card_id>{b[9], b[1]});
  CHECK(match::check_deck(shipped(), d.decks()[0]) == rule_error::ok);
  CHECK(match::check_deck(shipped(), d.decks()[1]) == rule_error::ok);
}

TEST_CASE("R14.8 the pool: the chosen packs' cards, once each; too small or unknown packs are refused") {
  draft d;
  std::vector<draft_event> ev;
  CHECK(draft::create(shipped(), make_config(draft_format::draft, draft_table::duel, 1, {"nope"}), d, ev) ==
        draft_error::unknown_pack);
  CHECK(draft::create(shipped(), make_config(draft_format::draft, draft_table::duel, 1, {"initiation", "nope"}), d,
                      ev) == draft_error::unknown_pack);
  // One pack is 32 cards: enough for a duel, four players and solo, not co-op's 64.
  CHECK(draft::create(shipped(), make_config(draft_format::draft, draft_table::coop, 1, {"initiation"}), d, ev) ==
        draft_error::pool_too_small);
  CHECK(ev.empty());
  CHECK(draft::create(shipped(), make_config(draft_format::draft, draft_table::solo, 1, {"initiation"}), d, ev) ==
        draft_error::ok);

  // Exactly the packs' cards, each once; a pack named twice counts once (E60).
  draft two = start(make_config(draft_format::draft, draft_table::coop, 6, {"dissension", "submersion"}));
  draft twice = start(make_config(draft_format::draft, draft_table::coop, 6, {"submersion", "dissension", "submersion"}));
  std::set<card_id> want;
  for (std::size_t c = 0; c < shipped().size(); ++c) {
    const std::string& p = shipped().def(static_cast<card_id>(c)).pack;
    if (p == "dissension" || p == "submersion") want.insert(static_cast<card_id>(c));
  }
  const auto& pile = two.state().pile;
  CHECK(pile.size() == 64);
  CHECK(std::set<card_id>(pile.begin(), pile.end()) == want);
  CHECK(twice.state().pile == pile);
  CHECK(twice.digest() == two.digest());
}

TEST_CASE("RULING E67: Champions are withheld from the pool: never dealt, never listed; the pool must still suffice") {
  draft d;
  std::vector<draft_event> ev;
  auto cfg = make_config(draft_format::draft, draft_table::solo, 3, {"initiation"});
  const draft full = start(cfg);
  const card_id champion = full.state().pool[5];
  cfg.withheld = {champion};
  // Solo needs 32 (RULING E60): one pack less a Champion is too small.
  CHECK(draft::create(shipped(), cfg, d, ev) == draft_error::pool_too_small);
  cfg.packs = {"initiation", "treachery"};
  const draft with = start(cfg);
  CHECK(with.state().pool.size() == 63);
  CHECK(std::find(with.state().pool.begin(), with.state().pool.end(), champion) == with.state().pool.end());
  CHECK(std::find(with.state().pile.begin(), with.state().pile.end(), champion) == with.state().pile.end());
  // Instant constructed: a withheld card is not in the pool a list chooses from.
  auto ic = make_config(draft_format::instant_constructed, draft_table::duel, 4);
  ic.withheld = {champion};
  draft l = start(ic);
  draft_pick p;
  p.type = draft_pick_type::submit;
  p.seat = 0;
  p.cards = {champion};
  for (card_id c : l.state().pool)
    if (p.cards.size() < 10) p.cards.push_back(c);
  CHECK(l.check(p) == draft_error::card_not_in_pool);
}

TEST_CASE("R14.8 a tiny catalogue: 15 cards cannot make a duel draft, 16 can") {
  catalogue cat;
  for (int i = 0; i < 16; ++i) {
    card_def def;
    def.id = "card";
    def.id += static_cast<char>('a' + i);
    def.name = def.id;
    def.pack = i < 15 ? "small" : "extra";
    def.stats.mana = 1;
    def.stats.av = 1;
    def.stats.hp = 1;
    REQUIRE(!cat.add(def));
  }
  draft d;
  std::vector<draft_event> ev;
  CHECK(draft::create(cat, make_config(draft_format::draft, draft_table::duel, 1, {"small"}), d, ev) ==
        draft_error::pool_too_small);
  REQUIRE(draft::create(cat, make_config(draft_format::draft, draft_table::duel, 1), d, ev) == draft_error::ok);
  take_first_until_done(d);
  CHECK(d.view(0).pile_left == 0);
  // No preconstructed decks in that catalogue.
  CHECK(draft::create(cat, make_config(draft_format::preconstructed, draft_table::duel, 1), d, ev) ==
        draft_error::pool_too_small);
}

TEST_CASE("R16.1 the pile is the pool shuffled by the match's generator, in catalogue order (E60, E62)") {
  draft d = start(make_config(draft_format::draft, draft_table::solo, 123456789, {"initiation", "treachery"}));
  std::vector<card_id> pile = d.state().pool;
  CHECK(std::is_sorted(pile.begin(), pile.end()));
  rng r(123456789);
  r.shuffle(pile.data(), static_cast<int>(pile.size()));
  CHECK(pile == d.state().pile);
  // Formats without a pile draw nothing before the match's seed.
  draft c = start(make_config(draft_format::constructed, draft_table::duel, 77));
  std::vector<draft_event> ev;
  REQUIRE(c.apply(submit(0, cards_of("initiation", 8)), ev) == draft_error::ok);
  REQUIRE(c.apply(submit(1, cards_of("initiation", 8, 8)), ev) == draft_error::ok);
  REQUIRE(c.finished());
  rng m(77);
  CHECK(c.match_seed() == m.next());
  CHECK(c.match_seed() != 77);
}

TEST_CASE("R16.1 same seed, same draft; another seed, another pile") {
  draft a = start(make_config(draft_format::draft, draft_table::four_players, 31));
  draft b = start(make_config(draft_format::draft, draft_table::four_players, 31));
  draft c = start(make_config(draft_format::draft, draft_table::four_players, 32));
  CHECK(a.digest() == b.digest());
  CHECK(a.state().pile == b.state().pile);
  CHECK(a.state().pile != c.state().pile);
  CHECK(a.digest() != c.digest());
  finish_randomly(a, 5);
  finish_randomly(b, 5);
  CHECK(a.digest() == b.digest());
  CHECK(a.record() == b.record());
  CHECK(a.decks() == b.decks());
  CHECK(a.match_seed() == b.match_seed());
}

TEST_CASE("R16.1 replay from seed and picks reproduces every draft bit for bit") {
  const std::pair<draft_format, draft_table> setups[] = {
      {draft_format::draft, draft_table::duel},
      {draft_format::draft, draft_table::four_players},
      {draft_format::draft, draft_table::solo},
      {draft_format::draft, draft_table::coop},
      {draft_format::preconstructed, draft_table::duel},
      {draft_format::preconstructed, draft_table::four_players},
      {draft_format::preconstructed, draft_table::solo},
      {draft_format::constructed, draft_table::duel},
      {draft_format::constructed, draft_table::four_players},
      {draft_format::instant_constructed, draft_table::duel},
  };
  for (const auto& [f, t] : setups) {
    for (std::uint64_t seed : {1ULL, 99ULL, 0xDEADBEEFULL}) {
      CAPTURE(draft_format_name(f));
      CAPTURE(draft_table_name(t));
      CAPTURE(seed);
      const draft_config cfg = make_config(f, t, seed);
      draft live = start(cfg);
      std::vector<std::uint64_t> live_digests{live.digest()};
      {
        rng r(seed ^ 0x5555);
        std::vector<draft_pick> legal;
        std::vector<draft_event> ev;
        while (!live.finished()) {
          live.legal_picks(legal);
          if (legal.empty()) {
            const auto w = live.waiting();
            REQUIRE(!w.empty());
            std::vector<card_id> pool = live.state().pool;
            r.shuffle(pool.data(), static_cast<int>(pool.size()));
            pool.resize(static_cast<std::size_t>(w[0].count));
            legal.push_back(submit(w[0].seat, pool));
          }
          REQUIRE(live.apply(legal[r.below(legal.size())], ev) == draft_error::ok);
          live_digests.push_back(live.digest());
        }
      }
      draft again;
      int failed_at = 0;
      std::vector<std::uint64_t> digests;
      REQUIRE(replay_draft(shipped(), cfg, live.picks(), again, failed_at, &digests) == draft_error::ok);
      CHECK(failed_at == -1);
      CHECK(digests == live_digests);
      CHECK(again.record() == live.record());
      CHECK(again.state() == live.state());
      CHECK(again.finished());

      // Every human seat has 8 different cards; AI seats 24; a draft never
      // gives one card to two seats (R14.8).
      std::set<card_id> dealt;
      int dealt_count = 0;
      for (seat_t seat = 0; seat < draft_seats(t); ++seat) {
        const auto& deck = again.decks()[seat];
        const std::set<card_id> distinct(deck.begin(), deck.end());
        CHECK(distinct.size() == deck.size());
        CHECK(deck.size() == (is_ai_seat(t, seat) ? 24u : 8u));
        if (!is_ai_seat(t, seat)) CHECK(match::check_deck(shipped(), deck) == rule_error::ok);
        dealt.insert(deck.begin(), deck.end());
        dealt_count += static_cast<int>(deck.size());
      }
      if (f == draft_format::draft) CHECK(static_cast<int>(dealt.size()) == dealt_count);
    }
  }
}

TEST_CASE("replay stops at a rejected pick and says which") {
  const draft_config cfg = make_config(draft_format::draft, draft_table::duel, 40);
  draft live = start(cfg);
  finish_randomly(live, 3);
  std::vector<draft_pick> picks = live.picks();
  REQUIRE(picks.size() > 3);
  picks[1].seat = 0;  // B's pick made by A: out of turn
  draft again;
  int failed_at = -1;
  CHECK(replay_draft(shipped(), cfg, picks, again, failed_at) == draft_error::not_your_turn);
  CHECK(failed_at == 1);
}

TEST_CASE("legal_picks: every take of the step, each accepted") {
  draft d = start(make_config(draft_format::draft, draft_table::four_players, 14));
  std::vector<draft_pick> legal;
  std::vector<draft_event> ev;
  d.legal_picks(legal);
  CHECK(legal.size() == 8);  // A takes 1 of 8
  draft copy = d;
  REQUIRE(copy.apply(legal[0], ev) == draft_error::ok);
  // B 1 of 7, C 1 of 6, then D 2 of 5: C(5, 2) = 10.
  for (int i = 0; i < 2; ++i) {
    copy.legal_picks(legal);
    REQUIRE(copy.apply(legal.back(), ev) == draft_error::ok);
  }
  copy.legal_picks(legal);
  CHECK(legal.size() == 10);
  std::set<std::vector<card_id>> distinct;
  for (const auto& p : legal) {
    CHECK(p.seat == 3);
    CHECK(p.cards.size() == 2);
    draft branch = copy;
    CHECK(branch.apply(p, ev) == draft_error::ok);
    distinct.insert(p.cards);
  }
  CHECK(distinct.size() == 10);
  // Preconstructed: 4 decks per waiting seat.
  draft pre = start(make_config(draft_format::preconstructed, draft_table::four_players, 1));
  pre.legal_picks(legal);
  CHECK(legal.size() == 16);
  // Constructed lists are not enumerated.
  draft con = start(make_config(draft_format::constructed, draft_table::duel, 1));
  con.legal_picks(legal);
  CHECK(legal.empty());
  CHECK(con.waiting().size() == 2);
}

TEST_CASE("R16.2 draft view: the offer, every pick, whose turn; never the pile's order") {
  draft d = start(make_config(draft_format::draft, draft_table::duel, 50));
  std::vector<draft_event> ev;
  const auto offer = d.state().offer;
  REQUIRE(d.apply(take(0, {offer[1]}), ev) == draft_error::ok);
  for (seat_t viewer : {seat_t{0}, seat_t{1}, spectator}) {
    const draft_view v = d.view(viewer);
    CHECK(v.viewer == viewer);
    CHECK(v.round == 1);
    CHECK(v.offer == std::vector<card_id>{offer[0], offer[2], offer[3]});
    CHECK(v.seats[0].taken == std::vector<card_id>{offer[1]});  // picks are public
    REQUIRE(v.waiting.size() == 1);
    CHECK(v.waiting[0].seat == 1);
    CHECK(v.waiting[0].count == 2);
    CHECK(v.pile_left == static_cast<int>(shipped().size()) - 4);
    CHECK(!v.finished);
    CHECK(v.own_deck.empty());
  }
  take_first_until_done(d);
  CHECK(d.view(1).own_deck == d.decks()[1]);
  CHECK(d.view(spectator).own_deck.empty());
  CHECK(d.view(spectator).seats[0].deck_size == 8);
}

TEST_CASE("A finished draft feeds a match: decks and the match's seed") {
  draft d = start(make_config(draft_format::draft, draft_table::duel, 60));
  finish_randomly(d, 60);
  match_config cfg;
  cfg.decks[0] = d.decks()[0];
  cfg.decks[1] = d.decks()[1];
  cfg.seed = d.match_seed();
  match m;
  std::vector<event> ev;
  REQUIRE(match::create(shipped(), cfg, m, ev) == rule_error::ok);
  CHECK(m.view(referee).all_hands[0].size() == 8);
}

// ---- R15.1: the mutation league's draft ----

namespace {

draft_config mutation_config(std::uint64_t seed) {
  return make_config(draft_format::mutation, draft_table::four_players, seed, {"initiation", "treachery"});
}

}  // namespace

TEST_CASE("R15.1 mutation draft: four players, two packs (64 cards), 16 dealt face down to each") {
  draft d;
  std::vector<draft_event> ev;
  CHECK(draft::create(shipped(), make_config(draft_format::mutation, draft_table::duel, 1, {"initiation", "treachery"}),
                      d, ev) == draft_error::format_not_allowed);
  CHECK(draft::create(shipped(), make_config(draft_format::mutation, draft_table::four_players, 1, {"initiation"}), d,
                      ev) == draft_error::pool_too_small);
  ev.clear();
  d = start(mutation_config(7), &ev);
  REQUIRE(ev.size() == 2);
  CHECK(ev[0].type == draft_event_type::started);
  CHECK(ev[0].count == 64);
  CHECK(ev[1].type == draft_event_type::packets_dealt);
  CHECK(ev[1].count == 16);
  CHECK(ev[1].cards.empty());  // the packets' contents are secret
  std::set<card_id> all;
  for (seat_t s = 0; s < 4; ++s) {
    const draft_view v = d.view(s);
    CHECK(v.offer.size() == 16);  // a seat sees its own packet
    all.insert(v.offer.begin(), v.offer.end());
  }
  CHECK(all.size() == 64);
  CHECK(std::set<card_id>(d.state().pool.begin(), d.state().pool.end()) == all);
  CHECK(d.view(-1).offer.empty());  // a spectator sees no packet
  CHECK(d.waiting().size() == 4);   // every seat picks at once
}

TEST_CASE("R15.1 E77 each keeps 1 in secret, then the packets pass left (A to B ... D to A)") {
  draft d = start(mutation_config(11));
  std::vector<draft_event> ev;
  std::array<std::vector<card_id>, 4> before;
  for (seat_t s = 0; s < 4; ++s) before[s] = d.state().seats[s].packet;
  // Errors first: a card of another seat's packet, two cards, the wrong kind.
  CHECK(d.apply(take(0, {before[1][0]}), ev) == draft_error::card_not_on_offer);
  CHECK(d.apply(take(0, {before[0][0], before[0][1]}), ev) == draft_error::wrong_count);
  CHECK(d.apply(submit(0, {before[0][0]}), ev) == draft_error::wrong_pick);
  CHECK(ev.empty());
  // Seats pick in any order; a second pick in the round waits.
  for (seat_t s : {2, 0, 3}) REQUIRE(d.apply(take(s, {before[s][3]}), ev) == draft_error::ok);
  CHECK(d.apply(take(2, {before[2][4]}), ev) == draft_error::not_your_turn);
  REQUIRE(d.waiting().size() == 1);
  CHECK(d.waiting()[0].seat == 1);
  // The events name who took, never what.
  for (const auto& e : ev) {
    CHECK(e.type == draft_event_type::taken);
    CHECK(e.cards.empty());
  }
  // Another seat's picks are secret: the count only.
  CHECK(d.view(1).seats[2].taken.empty());
  CHECK(d.view(1).seats[2].taken_count == 1);
  CHECK(d.view(2).seats[2].taken == std::vector<card_id>{before[2][3]});
  REQUIRE(d.apply(take(1, {before[1][3]}), ev) == draft_error::ok);
  // Round 2: each seat holds the packet of the seat before it, less that seat's pick.
  for (seat_t s = 0; s < 4; ++s) {
    std::vector<card_id> expected = before[(s + 3) % 4];
    expected.erase(expected.begin() + 3);
    CHECK(d.state().seats[s].packet == expected);
    CHECK(d.view(s).offer == expected);
  }
  CHECK(d.waiting().size() == 4);
}

TEST_CASE("R15.1 to the end: 15 choices and the last card by itself; 16 each, 64 in all") {
  draft d = start(mutation_config(3));
  std::vector<draft_event> ev;
  std::vector<draft_pick> legal;
  int picks = 0;
  rng r(99);
  while (!d.finished()) {
    d.legal_picks(legal);
    // Every seat still to pick this round, each card of its packet.
    std::size_t expected = 0;
    for (const auto& w : d.waiting()) expected += d.state().seats[w.seat].packet.size();
    REQUIRE(legal.size() == expected);
    REQUIRE(d.apply(legal[r.below(legal.size())], ev) == draft_error::ok);
    ++picks;
    REQUIRE(picks <= 60);
  }
  CHECK(picks == 60);  // 15 rounds of 4: the 16th is forced (E61)
  CHECK(count_events(d.record(), draft_event_type::taken) == 64);
  std::set<card_id> all;
  for (seat_t s = 0; s < 4; ++s) {
    CHECK(d.decks()[s].size() == 16);
    all.insert(d.decks()[s].begin(), d.decks()[s].end());
  }
  CHECK(all.size() == 64);
  CHECK(count_events(d.record(), draft_event_type::finished) == 1);

  // R16.1: the seed and the picks replay it bit for bit.
  draft again;
  int failed_at = 0;
  std::vector<std::uint64_t> digests;
  REQUIRE(replay_draft(shipped(), mutation_config(3), d.picks(), again, failed_at, &digests) == draft_error::ok);
  CHECK(failed_at == -1);
  CHECK(again.digest() == d.digest());
  CHECK(again.decks() == d.decks());
  CHECK(digests.size() == 61);
}
