// OpenSkill's Plackett-Luce model against the reference library's
// published numbers: openskill.js (github.com/philihp/openskill.js),
// src/models/__tests__/plackett-luce.test.ts ("4p FFA") and its README's
// two-team example (a1, a2 against b1, b2; also in openskill.ex's README).
// The cases with ranks in another order and with ties are openskill.js
// 3.1.0 (npm) run on the same inputs, rate(teams, {rank}).
#include <doctest/doctest.h>

#include <vector>

#include "rating/openskill.hpp"

using namespace cod::ratings;

namespace {

void check_near(const std::vector<std::vector<skill>>& got, const std::vector<std::vector<skill>>& want) {
  REQUIRE(got.size() == want.size());
  for (std::size_t t = 0; t < got.size(); ++t) {
    REQUIRE(got[t].size() == want[t].size());
    for (std::size_t i = 0; i < got[t].size(); ++i) {
      INFO("team " << t << " player " << i);
      CHECK(got[t][i].mu == doctest::Approx(want[t][i].mu).epsilon(1e-12));
      CHECK(got[t][i].sigma == doctest::Approx(want[t][i].sigma).epsilon(1e-12));
    }
  }
}

}  // namespace

TEST_CASE("openskill: a four-player free-for-all of new players (openskill.js '4p FFA')") {
  const skill r;
  check_near(rate_plackett_luce({{r}, {r}, {r}, {r}}, {1, 2, 3, 4}),
             {{{27.795084971874736, 8.263160757613477}},
              {{26.552824984374855, 8.179213704945203}},
              {{24.68943500312503, 8.083731307186588}},
              {{20.96265504062538, 8.083731307186588}}});
}

TEST_CASE("openskill: two teams of two (openskill.js README: a1, a2 beat b1, b2)") {
  const skill a1, a2{32.444, 5.123}, b1{43.381, 2.421}, b2{25.188, 6.211};
  check_near(rate_plackett_luce({{a1, a2}, {b1, b2}}, {1, 2}),
             {{{28.669648436582808, 8.071520788025197}, {33.83086971107981, 5.062772998705765}},
              {{43.071274808241974, 2.4166900452721256}, {23.149503312339064, 6.1378606973362135}}});
}

TEST_CASE("openskill: places given out of seat order, and the 2v2 won by the second team (openskill.js 3.1.0)") {
  const skill p0{30, 4}, p1{22, 7}, p2{25, 25.0 / 3}, p3{27, 3};
  check_near(rate_plackett_luce({{p0}, {p1}, {p2}, {p3}}, {3, 1, 4, 2}),
             {{{29.667278935343358, 3.97102992049541}},
              {{24.732603791403488, 6.941161271390936}},
              {{20.596297113501414, 7.836104913152411}},
              {{27.255968674130365, 2.994622138249385}}});
  check_near(rate_plackett_luce({{p0, p1}, {p2, p3}}, {2, 1}),
             {{{29.400655175298755, 3.972786346928986}, {20.16450647435244, 6.8531067006673165}},
              {{27.601323023876926, 8.059425541180465}, {27.33713146389445, 2.987404138753003}}});
}

TEST_CASE("openskill: ties, as a free-for-all that three seats win (R16.3) (openskill.js 3.1.0)") {
  const skill r;
  check_near(rate_plackett_luce({{r}, {r}, {r}, {r}}, {1, 1, 1, 4}),
             {{{25.31056499687497, 8.263160757613477}},
              {{25.31056499687497, 8.263160757613477}},
              {{25.31056499687497, 8.263160757613477}},
              {{24.068305009375088, 8.263160757613477}}});
  const skill p0{30, 4}, p1{22, 7}, p2{25, 25.0 / 3}, p3{27, 3};
  check_near(rate_plackett_luce({{p0}, {p1}, {p2}, {p3}}, {2, 1, 2, 2}),
             {{{29.577551306033634, 3.9810955077749557}},
              {{24.732603791403488, 6.941161271390936}},
              {{24.15873760449816, 8.034045615799744}},
              {{26.84474817798391, 2.994622138249385}}});
}

TEST_CASE("openskill: fewer than two teams, or ranks that do not fit, change nothing; ordinal is mu - 3 sigma") {
  const skill r;
  CHECK(rate_plackett_luce({{r}}, {1}) == std::vector<std::vector<skill>>{{r}});
  CHECK(rate_plackett_luce({{r}, {r}}, {1}) == std::vector<std::vector<skill>>{{r}, {r}});
  CHECK(ordinal(r) == doctest::Approx(0));
  CHECK(ordinal({43.381, 2.421}) == doctest::Approx(36.118));
}
