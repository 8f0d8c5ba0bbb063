// The room configurations the server offers (room_config.hpp): which modes
// create_room accepts, which options go with which mode, each seat's team,
// and a join's deck and Champion (R13.1) checked against the room.
#include <array>
#include <string>

#include "cod/engine/match.hpp"
#include "cod/protocol/room_config.hpp"

namespace cod::protocol {
namespace {

// One row per mode create_room accepts. Solo and co-op (R12, R11.7): one or
// two human seats, AI seats the server fills; R2.1: no constructed decks
// there; R13.1: Champions only in custom play (check_room_config).
constexpr std::array<room_mode_info, 5> modes = {{
    {game_mode::duel, seats_of(game_mode::duel), false, false},
    {game_mode::ffa, seats_of(game_mode::ffa), false, false},
    {game_mode::two_vs_two, seats_of(game_mode::two_vs_two), true, false},
    {game_mode::solo, seats_of(game_mode::solo), false, true},
    {game_mode::coop, seats_of(game_mode::coop), false, true},
}};

protocol_error bad_value(std::string field, std::string message) {
  return protocol_error{protocol_errc::bad_field_value, std::move(field), std::move(message)};
}

// Concatenation by append (g++ 12's false -Wrestrict on "literal" + string).
template <class... Parts>
std::string concat(const Parts&... parts) {
  std::string s;
  (s.append(std::string_view(parts)), ...);
  return s;
}

std::string in_quotes(std::string_view s) { return concat("\"", s, "\""); }

int human_seats(game_mode mode) {
  int n = 0;
  for (int s = 0; s < seats_of(mode); ++s) n += !is_ai_seat(mode, static_cast<seat_t>(s));
  return n;
}

// Solo and co-op (R2.1, R12.7, R12.8, R13.1, RULING E45): the engine's own check
// (match::check_ai_options) gives the verdict; this names the field and says
// why. With Champions every human seat joins with one, so each gives 2 points.
std::optional<protocol_error> check_ai_room(game_mode mode, deck_format format, const room_options& o) {
  const std::string name(game_mode_name(mode));
  // R12.7, R14.4, R14.5: solo and co-op play preconstructed decks or the
  // draft; the engine deals the AI seats' side of it (RULINGS E61, E66). R2.1:
  // no constructed there; RULING E65: instant constructed is a duel format.
  if (format != deck_format::preconstructed && format != deck_format::draft)
    return bad_value("format", concat("a ", name, " room plays preconstructed decks or a draft (R2.1, R12.7, R14.4, R14.5): \"format\" must be \"preconstructed\" or \"draft\""));
  if (!o.packs.empty() && format != deck_format::draft)
    return bad_value("options.packs", concat("\"options.packs\" chooses a drafted pool (R14.8); this ", name,
                                             " room plays preconstructed decks: leave \"options.packs\" out"));
  if (o.share_team_hands)
    return bad_value("options.share_team_hands", "\"options.share_team_hands\" is for 2v2 rooms only (teammates see each other's hand)");
  match_config cfg;
  cfg.mode = mode;
  cfg.seat_count = seats_of(mode);
  cfg.difficulty = o.difficulty;
  cfg.ai = o.ai;
  const int champions = o.champions ? human_seats(mode) : 0;
  if (o.champions)
    for (int s = 0; s < cfg.seat_count; ++s)
      if (!is_ai_seat(mode, static_cast<seat_t>(s))) cfg.champions[static_cast<std::size_t>(s)] = 0;  // any card: only presence counts
  const rule_error verdict = match::check_ai_options(cfg);
  if (verdict == rule_error::ok) return std::nullopt;
  if (o.difficulty == 0) {
    if (o.champions)
      return bad_value("options.champions",
                       "Champions are for custom play only (R13.1): set \"options.difficulty\" 1..10 or leave \"options.champions\" out");
    return bad_value("options.ai",
                     "quick play (\"options.difficulty\" 0) plays the default AI (R12.2): leave \"options.ai\" out, or set a custom difficulty 1..10");
  }
  const int spent = ai_points(o.ai, champions);
  std::string message = concat("custom difficulty ", std::to_string(o.difficulty), " needs ",
                               std::to_string(o.difficulty), " points; these options spend ", std::to_string(spent));
  if (champions > 0)
    message += concat(" (", std::to_string(champions), champions == 1 ? " Champion gives 2" : " Champions give 2 each", ")");
  message += " (R12.8)";
  return bad_value("options.difficulty", std::move(message));
}

}  // namespace

std::span<const room_mode_info> offered_modes() { return modes; }

const room_mode_info* find_offered_mode(game_mode m) {
  for (const auto& info : modes)
    if (info.mode == m) return &info;
  return nullptr;
}

const room_mode_info* find_offered_mode(std::string_view name) {
  for (const auto& info : modes)
    if (game_mode_name(info.mode) == name) return &info;
  return nullptr;
}

std::string offered_mode_names() {
  std::string out;
  for (std::size_t i = 0; i < modes.size(); ++i) {
    if (i) out += i + 1 == modes.size() ? " or " : ", ";
    out += in_quotes(game_mode_name(modes[i].mode));
  }
  return out;
}

draft_table draft_table_of(game_mode m) {
  switch (m) {
    case game_mode::duel: return draft_table::duel;
    case game_mode::ffa:
    case game_mode::two_vs_two: return draft_table::four_players;
    case game_mode::solo: return draft_table::solo;
    case game_mode::coop: return draft_table::coop;
  }
  return draft_table::duel;
}

std::optional<protocol_error> check_room_config(game_mode mode, deck_format format, const room_options& o) {
  const room_mode_info* info = find_offered_mode(mode);
  if (!info) {
    return bad_value("mode", concat("\"mode\" must be ", offered_mode_names()));
  }
  if (o.seats != info->seats) {
    const std::string n = std::to_string(info->seats);
    return bad_value("options.seats", concat("a ", game_mode_name(mode), " room has ", n,
                                          " seats: leave \"options.seats\" out or give ", n));
  }
  if (o.share_team_hands && !info->teams)
    return bad_value("options.share_team_hands",
                     "\"options.share_team_hands\" is for 2v2 rooms only (teammates see each other's hand)");
  // R13.1: Champions are allowed in draft and constructed, duel, multiplayer
  // and solo custom play (check_ai_room); the server also allows them with
  // preconstructed decks, as custom play (docs/protocol.md, create_room).
  // Drafted rooms: each seat names its Champion at join, and the Champions
  // are withheld from the pool (RULING E67).
  // A chosen deal is for a player alone against the AI: in a room of several
  // players a known seed would tell one of them the others' shuffles.
  if (o.seed && mode != game_mode::solo)
    return bad_value("options.seed", "\"options.seed\" (a chosen deal) is for solo rooms only");
  if (info->ai) return check_ai_room(mode, format, o);
  if (o.difficulty != 0)
    return bad_value("options.difficulty", "\"options.difficulty\" is for solo and coop rooms only (R12.8)");
  if (!(o.ai == ai_settings{}))
    return bad_value("options.ai", "\"options.ai\" is for solo and coop rooms only (R12.8)");
  if (!o.packs.empty() && !is_drafted(format))
    return bad_value("options.packs",
                     "\"options.packs\" chooses a drafted pool (R14.8): formats \"draft\" and \"instant_constructed\" only");
  // RULING E65: instant constructed is a two-player format.
  if (format == deck_format::instant_constructed && draft_table_of(mode) != draft_table::duel)
    return bad_value("format", "\"instant_constructed\" is played by two players (RULING E65): mode \"duel\"");
  return std::nullopt;
}

std::optional<int> seat_team(game_mode mode, int seat) {
  // R11.7: co-op is the humans A+C against the AIs B+D.
  if (mode == game_mode::coop) return seat % 2;
  const room_mode_info* info = find_offered_mode(mode);
  if (!info || !info->teams) return std::nullopt;
  return seat % 2;  // R11.6: A+C, B+D
}

int ai_deck_owner(game_mode mode, int ai_seat) {
  // RULING E41: AI B plays the pack of A (seat 0), AI D that of C (seat 2).
  return mode == game_mode::coop && ai_seat == 3 ? 2 : 0;
}

deck_result resolve_deck(const deck_choice& d, deck_format format, const catalogue& cat) {
  deck_result r;
  auto refuse = [&r](rule_error e, std::string message) {
    r.cards.clear();
    r.reason = error_name(e);
    r.message = std::move(message);
    return r;
  };
  if (d.is_preconstructed()) {
    r.cards = cat.preconstructed_deck(d.preconstructed);
  } else {
    if (format == deck_format::preconstructed) {
      r.reason = "wrong_format";
      r.message = "this room is preconstructed: join with {\"preconstructed\": 1..4}";
      return r;
    }
    for (const std::string& id : d.cards) {
      const auto c = cat.find(id);
      if (!c) {
        std::string message(error_message(rule_error::unknown_card));
        message += ": \"";
        message += id;
        message += '"';
        return refuse(rule_error::unknown_card, std::move(message));
      }
      r.cards.push_back(*c);
    }
  }
  if (const rule_error e = match::check_deck(cat, r.cards); e != rule_error::ok)
    return refuse(e, std::string(error_message(e)));
  return r;
}

champion_result resolve_champion(const std::optional<std::string>& champion, const room_options& o,
                                 const std::vector<card_id>& deck, const catalogue& cat) {
  champion_result r;
  auto refuse = [&r](const char* reason, std::string message) {
    r.card = no_card;
    r.reason = reason;
    r.message = std::move(message);
    return r;
  };
  if (!o.champions) {
    if (champion) return refuse("champions_off", "this room plays without Champions: join without \"champion\"");
    return r;
  }
  if (!champion)
    return refuse("champion_required",
                  "this room plays with Champions (R13): join with \"champion\", a creature card not in your deck");
  const auto id = cat.find(*champion);
  if (!id) return refuse("unknown_card", concat("no such card in the catalogue: ", in_quotes(*champion)));
  if (cat.stats(*id).type != card_type::creature)
    return refuse("not_a_creature",
                  concat(in_quotes(*champion), " is not a creature: a Champion is a creature card (R13.1)"));
  for (card_id c : deck)
    if (c == *id)
      return refuse("in_deck",
                    concat(in_quotes(*champion), " is in your deck: a Champion is a 9th card, outside it (R13.1)"));
  // The engine's own check (the same rules), so that a join accepted here is
  // never refused when the match is set up.
  if (match::check_champion(cat, *id, deck) != rule_error::ok)
    return refuse("not_a_creature", concat(in_quotes(*champion), " cannot be a Champion (R13.1)"));
  r.card = *id;
  return r;
}

}  // namespace cod::protocol
