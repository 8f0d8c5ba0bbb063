#include "persist/rating_update.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>

#include "common/strcat.hpp"
#include "rating/glicko2.hpp"
#include "rating/openskill.hpp"

namespace cod::server {

using detail::cat;

namespace {

constexpr double ms_per_day = 86'400'000.0;
// The ordinal's scale on the four-player ladders: between two settled
// players (sigma about 1) a 400-point gap is about 10:1 odds, as on
// Glicko's scale (Plackett-Luce: odds e^(dmu/c), c = sqrt(2 beta^2 + 2) ~ 6.1,
// so 10:1 is dmu ~ 14; 400 / 14 ~ 29).
constexpr double ordinal_scale = 30;

ratings::glicko2_rating to_glicko(const rating_value& v) { return {v.value, v.deviation, v.volatility}; }
rating_value from_glicko(const ratings::glicko2_rating& g) { return {g.rating, g.deviation, g.volatility}; }
ratings::skill to_skill(const rating_value& v) { return {v.value, v.deviation}; }
rating_value from_skill(const ratings::skill& s) { return {s.mu, s.sigma, 0}; }

// The rating a game starts from: the stored row's, its RD grown for the
// days since its last rated game (duel); a first game's otherwise.
rating_value start_of(const std::string& ladder, const std::optional<rating_record>& row, std::int64_t ended_ms) {
  if (!row) return new_rating(ladder);
  if (ladder != "duel" || row->last_ms <= 0 || ended_ms <= row->last_ms) return row->r;
  const double days = static_cast<double>(ended_ms - row->last_ms) / ms_per_day;
  return from_glicko(ratings::after_idle(to_glicko(row->r), days, ratings::glicko2_params{}));
}

bool server_ended(const std::string& reason) { return !ended_by_the_game(reason); }

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.10g", v);
  return buf;
}

bool near(double a, double b) { return std::fabs(a - b) <= 1e-9 * std::max(1.0, std::fabs(b)); }
bool near(const rating_value& a, const rating_value& b) {
  return near(a.value, b.value) && near(a.deviation, b.deviation) && near(a.volatility, b.volatility);
}

}  // namespace

std::optional<std::string> ladder_of(std::string_view mode) {
  if (mode == "duel" || mode == "ffa" || mode == "2v2") return std::string(mode);
  return std::nullopt;
}

rating_value new_rating(std::string_view ladder) {
  if (ladder == "duel") return from_glicko(ratings::glicko2_rating{});
  return from_skill(ratings::skill{});
}

double displayed(std::string_view ladder, const rating_value& v) {
  if (ladder == "duel") return v.value;
  return ordinal_scale * ratings::ordinal(to_skill(v));
}

bool ended_by_the_game(std::string_view reason) {
  return reason == "fort_destroyed" || reason == "stronghold_alone" || reason == "concession";
}

double displayed_deviation(std::string_view ladder, const rating_value& v) {
  return ladder == "duel" ? v.deviation : ordinal_scale * v.deviation;
}

bool provisional(std::string_view ladder, const rating_value& v) {
  return ladder == "duel" && ratings::provisional(to_glicko(v), ratings::glicko2_params{});
}

bool is_play(std::string_view action_json) {
  const auto j = nlohmann::json::parse(action_json, nullptr, false);
  // A stored action is protocol::action_to_json; anything unreadable counts
  // as a play (the replay check judges it, not the rating).
  return !(j.is_object() && j.contains("type") && j["type"] == "concede");
}

unsigned seats_that_played(const std::vector<action_record>& actions) {
  unsigned played = 0;
  for (const action_record& a : actions)
    if (a.seat >= 0 && a.seat < 8 && !(played & (1u << a.seat)) && is_play(a.action_json)) played |= 1u << a.seat;
  return played;
}

rating_plan plan_rating(const match_record& m, const match_result& r, unsigned played) {
  rating_plan p;
  auto unrated = [&](std::string why) {
    p.why = std::move(why);
    p.seats.clear();
    return p;
  };
  if (!m.rated) return unrated("not a rated match");
  const auto ladder = ladder_of(m.mode);
  if (!ladder) return unrated(cat("mode ", m.mode, " is never rated (against the AI)"));
  p.ladder = *ladder;
  if (server_ended(r.reason)) return unrated(cat("the server ended it (", r.reason, "), not the game"));
  const std::size_t want = m.mode == "duel" ? 2 : 4;
  if (m.seats.size() != want) return unrated(cat(m.seats.size(), " seats in a ", m.mode, " match"));
  std::set<std::int64_t> accounts;
  std::vector<seat_record> seats = m.seats;
  std::sort(seats.begin(), seats.end(), [](const seat_record& a, const seat_record& b) { return a.seat < b.seat; });
  for (const seat_record& s : seats) {
    if (s.ai) return unrated(cat("seat ", s.seat, " is the AI's"));
    if (s.account_id == 0) return unrated(cat("seat ", s.seat, " has no account"));
    if (!accounts.insert(s.account_id).second) return unrated(cat("account ", s.account_id, " holds two seats"));
  }
  for (const seat_record& s : seats)
    if (s.seat < 0 || s.seat > 7 || !(played & (1u << s.seat)))
      return unrated(cat("seat ", s.seat, " never played: aborted before every seat's first action"));
  const bool draw = r.winners.empty();
  for (const seat_record& s : seats) {
    rating_plan::rated_seat ps;
    ps.seat = s.seat;
    ps.account_id = s.account_id;
    ps.won = std::find(r.winners.begin(), r.winners.end(), s.seat) != r.winners.end();
    ps.place = draw || ps.won ? 1 : 2;
    if (m.mode == "2v2") {
      if (!s.team || (*s.team != 0 && *s.team != 1)) return unrated(cat("seat ", s.seat, " of a 2v2 has no team"));
      ps.team = *s.team;
    } else {
      ps.team = s.seat;
    }
    p.seats.push_back(ps);
  }
  if (m.mode == "2v2")
    for (const auto& a : p.seats)
      for (const auto& b : p.seats)
        if (a.team == b.team && a.place != b.place) return unrated("a 2v2 team both won and lost");
  p.rated = true;
  return p;
}

rating_outcome rate_match(const rating_plan& plan, const std::string& match_id,
                          const std::vector<std::optional<rating_record>>& before, std::int64_t ended_ms) {
  rating_outcome out;
  if (!plan.rated || before.size() != plan.seats.size()) return out;
  const std::size_t n = plan.seats.size();
  std::vector<rating_value> start(n), after(n);
  for (std::size_t i = 0; i < n; ++i) start[i] = start_of(plan.ladder, before[i], ended_ms);
  if (plan.ladder == "duel") {
    const ratings::glicko2_params gp;
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t o = 1 - i;
      const double score = plan.seats[i].place == plan.seats[o].place ? 0.5 : plan.seats[i].place == 1 ? 1.0 : 0.0;
      after[i] = from_glicko(ratings::rate_game(to_glicko(start[i]), {to_glicko(start[o]), score}, gp));
    }
  } else {
    // Teams in order of first seat; each team's place is its seats'.
    std::map<int, std::size_t> team_index;
    std::vector<std::vector<ratings::skill>> teams;
    std::vector<int> ranks;
    std::vector<std::pair<std::size_t, std::size_t>> where(n);  // (team, member)
    for (std::size_t i = 0; i < n; ++i) {
      auto [it, added] = team_index.try_emplace(plan.seats[i].team, teams.size());
      if (added) {
        teams.emplace_back();
        ranks.push_back(plan.seats[i].place);
      }
      where[i] = {it->second, teams[it->second].size()};
      teams[it->second].push_back(to_skill(start[i]));
    }
    const auto rated = ratings::rate_plackett_luce(teams, ranks);
    for (std::size_t i = 0; i < n; ++i) after[i] = from_skill(rated[where[i].first][where[i].second]);
  }
  const bool draw = std::all_of(plan.seats.begin(), plan.seats.end(), [](const auto& s) { return s.place == 1; });
  for (std::size_t i = 0; i < n; ++i) {
    const auto& s = plan.seats[i];
    const rating_value was = before[i] ? before[i]->r : new_rating(plan.ladder);
    rating_change_record c;
    c.match_id = match_id;
    c.seat = s.seat;
    c.account_id = s.account_id;
    c.ladder = plan.ladder;
    c.ended_ms = ended_ms;
    c.before = was;
    c.before_last_ms = before[i] ? before[i]->last_ms : 0;
    c.after = after[i];
    c.delta = displayed(plan.ladder, after[i]) - displayed(plan.ladder, was);
    out.changes.push_back(c);
    rating_record row = before[i].value_or(rating_record{});
    row.account_id = s.account_id;
    row.ladder = plan.ladder;
    row.r = after[i];
    row.display = displayed(plan.ladder, after[i]);
    row.games += 1;
    if (!draw) (s.won ? row.wins : row.losses) += 1;
    row.last_ms = ended_ms;
    out.rows.push_back(row);
  }
  return out;
}

std::string check_rating_changes(const rating_plan& plan, const std::string& match_id,
                                 const std::vector<rating_change_record>& stored, std::int64_t ended_ms) {
  if (!plan.rated) return stored.empty() ? "" : cat(stored.size(), " rating changes stored for an unrated match");
  std::map<int, const rating_change_record*> by_seat;
  for (const auto& c : stored) by_seat[c.seat] = &c;
  if (by_seat.size() != stored.size() || stored.size() != plan.seats.size())
    return cat(stored.size(), " rating changes stored, ", plan.seats.size(), " seats rated");
  std::vector<std::optional<rating_record>> before;
  for (const auto& s : plan.seats) {
    auto it = by_seat.find(s.seat);
    if (it == by_seat.end()) return cat("no rating change stored for seat ", s.seat);
    rating_record row;
    row.account_id = s.account_id;
    row.ladder = plan.ladder;
    row.r = it->second->before;
    row.last_ms = it->second->before_last_ms;
    before.push_back(row);
  }
  const rating_outcome again = rate_match(plan, match_id, before, ended_ms);
  for (const auto& want : again.changes) {
    const rating_change_record& got = *by_seat.at(want.seat);
    if (got.account_id != want.account_id || got.ladder != want.ladder)
      return cat("seat ", want.seat, ": stored account ", got.account_id, " on ", got.ladder, ", the match has account ",
                 want.account_id, " on ", want.ladder);
    if (!near(got.after, want.after))
      return cat("seat ", want.seat, ": stored after ", num(got.after.value), " / ", num(got.after.deviation), " / ",
                 num(got.after.volatility), ", recomputed ", num(want.after.value), " / ", num(want.after.deviation),
                 " / ", num(want.after.volatility));
    if (!near(got.delta, want.delta))
      return cat("seat ", want.seat, ": stored delta ", num(got.delta), ", recomputed ", num(want.delta));
  }
  return "";
}

}  // namespace cod::server
