// cod-bot: a command-line WebSocket client of cod-server (docs/protocol.md)
// that plays legal moves until the match is over: random ones, or with
// --policy greedy|search (--level N) those of a computer player
// (bot/search_policy.hpp, engine/search) thinking at most --think-ms a move.
//
//   cod-bot --create [--mode duel|ffa|2v2|solo|coop]
//           [--format preconstructed|constructed|instant_constructed|draft] [--packs P,P,...] [--exhaustion]
//           [--champions] [--share-team-hands] [--difficulty N [--ai-mana N] [--ai-double]
//           [--ai-first] [--ai-resistance] [--ai-abilities A,B]] --deck 1 [--champion ID|auto]
//   cod-bot --room r7k2 --deck 2 [--champion ID|auto] [--policy search --level 3 --think-ms 50]
//   cod-bot --room r7k2 --resume 5f0c2a9e7b3d41c88e21f6a04d9b7c13
//   cod-bot --spectate r7k2 --dump frames.jsonl
//   cod-bot --tournament-token 5f0c2a9e7b3d41c88e21f6a04d9b7c13 --deck 1
//   cod-bot --league-token 5f0c2a9e7b3d41c88e21f6a04d9b7c13
//
// As a mutation league player (docs/league.md) it follows the league
// (league_join) and acts on every push that waits for it: a random pick of
// its packet, 8 random drafted cards as its deck, random mutations the
// engine allows within the phase's points (or a pass); each round it joins
// its duel (tournament_join with the league token and its deck), plays it
// and leaves, until the league has finished: exit 0, with one more line:
//   cod-bot: league games=6 wins=4 place=1 mutations=9
//
// As a tournament player (docs/tournaments.md) it sends tournament_join,
// plays the game it is seated for, leaves the room at match_over and asks
// again (every 250 ms while tournament_waiting), until tournament_over:
// then exit 0, with one more line on stdout:
//   cod-bot: tournament games=3 wins=2 losses=1 draws=0 voided=0
// It says hello, then creates a room and joins it, joins a room, resumes a
// seat, or watches a room; as a player it asks for its legal actions (hello
// legal_actions), plays a random one of the newest list with that frame's
// seq (a stale one is refused: it waits for the next frame), and stays under
// the server's rate limit. In a drafted room (R14) it makes random picks
// from the server's legal picks (a secret list: random pool cards) until the match starts. Exit status: 0 the match ended (match_over, or a state
// showing it over), 1 the server refused something or said something
// unexpected, 2 usage, 3 cannot connect or the connection was lost, 4 timeout.
// One summary line on stdout at the end:
//   cod-bot: room=r7k2 seat=0 result=win reason=fort_destroyed actions=31 seq=64
// and with a computer player one more, its decisions and how many of them
// fell back to a random move (solo and co-op, which it does not search;
// elsewhere a view it could not read: a bug to report):
//   cod-bot: policy=search level=3 decisions=17 fallbacks=0 iterations=9120 known_decks=2   (greedy: level=-)
#include <array>
#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <unistd.h>

#include <nlohmann/json.hpp>

#include "bot/cli.hpp"
#include "bot/http_call.hpp"
#include "bot/league_moves.hpp"
#include "bot/moves.hpp"
#include "bot/search_policy.hpp"
#include "bot/ws_client.hpp"
#include "cod/protocol/catalogue_json.hpp"
#include "cod/protocol/legal_actions.hpp"
#include "cod/protocol/messages.hpp"
#include "common/strcat.hpp"

#ifndef COD_DEFAULT_CATALOGUE
#define COD_DEFAULT_CATALOGUE "config/cards/catalogue.json"
#endif

namespace {

namespace pr = cod::protocol;
using nlohmann::json;
using clock_type = std::chrono::steady_clock;

using cod::server::detail::cat;

enum exit_code : int { exit_ok = 0, exit_refused = 1, exit_usage = 2, exit_connection = 3, exit_timeout = 4 };

struct options {
  std::string host = "127.0.0.1";
  std::uint16_t port = 8080;
  std::string target = "/ws";
  cod::bot::tls_options tls{};  // wss://
  bool create = false;
  cod::game_mode mode = cod::game_mode::duel;
  pr::deck_format format = pr::deck_format::preconstructed;
  bool exhaustion = false;
  bool champions = false;         // create: the Champion module (R13)
  bool share_team_hands = false;  // create: 2v2 option (R11.6)
  int difficulty = 0;             // create, solo/coop: R12.8 level (0 quick play)
  cod::ai_settings ai{};          // create, solo/coop: the custom settings (R12.8)
  std::vector<std::string> packs; // create, drafted formats: the pool's packs (R14.8)
  std::string champion;           // join: a catalogue id, "auto" or "" (none unless the room asks)
  std::string room;
  std::optional<int> seat;
  int deck = 0;
  std::vector<std::string> cards;
  std::string name = "cod-bot";
  std::uint64_t seed = 0;
  bool seed_given = false;
  std::string resume_token;
  std::string tournament_token;
  std::string league_token;
  std::string spectate;
  std::string tournament;  // routes tournament_join (?room=ID)
  std::string token_file;
  std::string ack_file;
  std::string dump_file;
  std::string catalogue = COD_DEFAULT_CATALOGUE;
  bool print_events = false;
  bool quiet = false;
  int timeout_sec = 300;
  int delay_ms = 0;
  int league_delay_ms = 0;
  long max_actions = 5000;
  // How moves are chosen: at random from the server's legal list, or by a
  // computer player (greedy; search at a level) within a time budget.
  cod::bot::policy_kind policy = cod::bot::policy_kind::random;
  bool policy_given = false;
  int level = 0;  // 0: not given (search: cod::search::default_level)
  int think_ms = 50;
  // The queue (docs/protocol.md, "The queue"): signed in through the account
  // API first (--guest, --account/--password, --account-token).
  std::optional<cod::game_mode> queue;
  bool casual = false;
  std::string partner;  // --queue 2v2 --partner NAME
  bool guest = false;
  std::string account;
  std::string password;
  std::string account_token;
};

void usage(std::FILE* to) {
  std::fputs(
      "usage: cod-bot [connection] (--create | --room ID | --room ID --resume TOKEN | --spectate ID) [options]\n"
      "Plays legal moves on a cod-server until the match is over: random ones, or a computer player's.\n"
      "connection:\n"
      "  --url ws://HOST:PORT/PATH   default ws://127.0.0.1:8080/ws; wss:// for TLS (a cluster's proxy)\n"
      "  --host HOST  --port PORT     the same in parts\n"
      "  --tls-ca FILE                wss://: trust this CA (PEM) instead of the system's (a self-signed\n"
      "                               cluster certificate, scripts/cluster)\n"
      "  A bot bound for one room (--room, --spectate) adds ?room=ID to the path, so that a cluster's\n"
      "  proxy routes it to the node that holds the room (docs/cluster.md)\n"
      "what to do:\n"
      "  --create                 create a room, then join it (prints the room id)\n"
      "    --mode M               duel (default), ffa or 2v2 (four seats: start three more bots with --room)\n"
      "    --format F             preconstructed (default), constructed, instant_constructed or draft\n"
      "                           (with --room: join a drafted room without a deck)\n"
      "    --packs P,P,...        drafted formats: the packs of the pool (default: every card)\n"
      "    --exhaustion           the exhaustion rule (R9)\n"
      "    --champions            the Champion module (R13): every seat picks a Champion\n"
      "    --share-team-hands     2v2: teammates see each other's hand (R11.6)\n"
      "    --difficulty N         solo/coop: 0 quick play (default), 1..10 custom play (R12.8); the\n"
      "                           options below must spend exactly N points:\n"
      "    --ai-mana N            the AI's fixed mana 6..10 (7..10 cost 1..4 points)\n"
      "    --ai-double            +2 mana per human creature (2 points)\n"
      "    --ai-first             the AI plays first (1 point)\n"
      "    --ai-resistance        attacks on the AI deck inflict only 1 (2 points)\n"
      "    --ai-abilities A,B     abilities every AI creature gains, 1 point each (R12.8's 11)\n"
      "                           solo: one bot; coop: a second bot joins with --room (seat 2)\n"
      "  --room ID                join room ID\n"
      "  --resume TOKEN           with --room: take back a seat (after a lost connection)\n"
      "  --spectate ID            watch room ID until the match is over\n"
      "  --tournament-token T     play every game of a tournament as the player with join token T\n"
      "  --league-token T         play a whole mutation league as the player with join token T (draft,\n"
      "                           deck, random legal mutations, every duel)\n"
      "  --queue MODE             search for a game in the queue: duel, ffa or 2v2 (rated; --casual for\n"
      "                           a casual one), then play the match found. Needs an account:\n"
      "    --guest                a new guest account (POST /api/guest)\n"
      "    --account NAME --password P   sign in (POST /api/login)\n"
      "    --account-token T      a session token the account API gave\n"
      "    --format F             preconstructed (default) or constructed (--cards)\n"
      "    --partner NAME         2v2: queue with this friend (who queues naming this bot's account)\n"
      "  --tournament ID          with --tournament-token: the tournament's id, added as ?room=ID (a cluster\n"
      "                           runs a tournament on the node that created it: the proxy sends it there);\n"
      "                           a token that names its tournament (ID.HEX) needs none\n"
      "  --deck N                 preconstructed deck 1..4 (default 1)\n"
      "  --cards ID,ID,...        a constructed deck (8 catalogue ids)\n"
      "  --seat N                 the seat wanted (default: the lowest free one)\n"
      "  --champion ID|auto       the Champion to join with (a creature not in the deck); auto: a random\n"
      "                           one. Without it the bot picks one at random if the room asks for it\n"
      "options:\n"
      "  --name NAME              display name (default cod-bot)\n"
      "  --seed N                 seed of the bot's move choices (default: from the clock)\n"
      "  --token-file PATH        write {\"room\", \"seat\", \"token\"} there once seated\n"
      "  --ack-file PATH          append the seq of every accepted action of this bot, one per line\n"
      "  --dump PATH              write every frame received, one per line\n"
      "  --print-events           print every server message as it comes (updates: their events)\n"
      "  --quiet                  print nothing but errors and the summary line\n"
      "  --timeout-sec N          give up after N seconds (default 300); exit 4\n"
      "  --delay-ms N             wait N ms before each action (default 0)\n"
      "  --league-delay-ms N      wait N ms before each league op: a pick, a deck, a mutation phase's act\n"
      "                           (default 0)\n"
      "  --max-actions N          concede after N accepted actions of its own (default 5000)\n"
      "  --policy P               random (default: a uniform pick of the server's legal actions), greedy\n"
      "                           (the move whose result scores best) or search (a computer player, engine/search;\n"
      "                           it knows its own deck list, not the others')\n"
      "  --level N                search's difficulty 1..5 (default 3); implies --policy search\n"
      "  --think-ms N             search: time a move may take (default 50; it may stop sooner)\n"
      "  --catalogue PATH         the card catalogue (default: the shipped one)\n"
      "exit status: 0 match over, 1 refused/unexpected, 2 usage, 3 connection failed or lost, 4 timeout\n",
      to);
}

// Returns -1 to go on, else the exit status.
int parse_args(int argc, char** argv, options& o) {
  auto fail = [](const std::string& what) {
    std::fprintf(stderr, "cod-bot: %s (see --help)\n", what.c_str());
    return exit_usage;
  };
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    auto value = [&](const char*& v) {
      if (i + 1 >= argc) return false;
      v = argv[++i];
      return true;
    };
    const char* v = nullptr;
    long n = 0;
    if (a == "--help" || a == "-h") {
      usage(stdout);
      return exit_ok;
    } else if (a == "--create") {
      o.create = true;
    } else if (a == "--exhaustion") {
      o.exhaustion = true;
    } else if (a == "--champions") {
      o.champions = true;
    } else if (a == "--ai-double") {
      o.ai.double_variable = true;
    } else if (a == "--ai-first") {
      o.ai.ai_first = true;
    } else if (a == "--ai-resistance") {
      o.ai.resistance = true;
    } else if (a == "--share-team-hands") {
      o.share_team_hands = true;
    } else if (a == "--print-events") {
      o.print_events = true;
    } else if (a == "--guest") {
      o.guest = true;
    } else if (a == "--casual") {
      o.casual = true;
    } else if (a == "--quiet") {
      o.quiet = true;
    } else if (!value(v)) {
      return fail(cat(a.substr(0, 2) == "--" ? "missing value for " : "unknown argument ", a));
    } else if (a == "--url") {
      std::string_view u = v;
      o.tls.enabled = u.substr(0, 6) == "wss://";
      if (!o.tls.enabled && u.substr(0, 5) != "ws://") return fail("--url must start with ws:// or wss://");
      u.remove_prefix(o.tls.enabled ? 6 : 5);
      const auto slash = u.find('/');
      std::string_view hostport = u.substr(0, slash);
      o.target = slash == std::string_view::npos ? "/ws" : std::string(u.substr(slash));
      const auto colon = hostport.rfind(':');
      if (colon == std::string_view::npos) {
        o.host = std::string(hostport);
        o.port = o.tls.enabled ? 443 : 80;
      } else {
        o.host = std::string(hostport.substr(0, colon));
        const std::string p(hostport.substr(colon + 1));
        if (!cod::bot::parse_long(p.c_str(), 1, 65535, n)) return fail("bad port in --url");
        o.port = static_cast<std::uint16_t>(n);
      }
      if (o.host.empty()) return fail("no host in --url");
    } else if (a == "--tls-ca") {
      o.tls.ca_file = v;
    } else if (a == "--host") {
      o.host = v;
    } else if (a == "--port") {
      if (!cod::bot::parse_long(v, 1, 65535, n)) return fail("--port must be 1..65535");
      o.port = static_cast<std::uint16_t>(n);
    } else if (a == "--format") {
      if (auto f = pr::deck_format_from_name(v)) o.format = *f;
      else return fail("--format must be preconstructed, constructed, instant_constructed or draft");
    } else if (a == "--packs") {
      if (auto e = cod::bot::parse_card_list(v, o.packs); !e.empty()) return fail(cat("--packs: ", e));
    } else if (a == "--mode") {
      const auto* m = pr::find_offered_mode(std::string_view(v));
      if (!m) return fail(cat("--mode must be ", pr::offered_mode_names()));
      o.mode = m->mode;
    } else if (a == "--queue") {
      const auto* m = pr::find_offered_mode(std::string_view(v));
      if (!m || (m->mode != cod::game_mode::duel && m->mode != cod::game_mode::ffa &&
                 m->mode != cod::game_mode::two_vs_two))
        return fail("--queue must be duel, ffa or 2v2");
      o.queue = m->mode;
    } else if (a == "--partner") {
      o.partner = v;
    } else if (a == "--account") {
      o.account = v;
    } else if (a == "--password") {
      o.password = v;
    } else if (a == "--account-token") {
      o.account_token = v;
    } else if (a == "--difficulty") {
      if (!cod::bot::parse_long(v, 0, 10, n)) return fail("--difficulty must be 0..10");
      o.difficulty = static_cast<int>(n);
    } else if (a == "--ai-mana") {
      if (!cod::bot::parse_long(v, 6, 10, n)) return fail("--ai-mana must be 6..10");
      o.ai.fixed_mana = static_cast<int>(n);
    } else if (a == "--ai-abilities") {
      std::string_view rest = v;
      while (!rest.empty()) {
        const auto comma = rest.find(',');
        const std::string_view name = rest.substr(0, comma);
        const auto ab = cod::ability_from_name(name);
        if (!ab || !cod::has(cod::ai_grantable, *ab))
          return fail(cat("--ai-abilities: ", name, " is not one of R12.8's 11 abilities"));
        o.ai.granted |= cod::bit(*ab);
        rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
      }
    } else if (a == "--champion") {
      o.champion = v;
    } else if (a == "--room") {
      o.room = v;
    } else if (a == "--seat") {
      if (!cod::bot::parse_long(v, 0, 3, n)) return fail("--seat must be 0..3");
      o.seat = static_cast<int>(n);
    } else if (a == "--deck") {
      if (!cod::bot::parse_long(v, 1, pr::preconstructed_deck_count, n)) return fail("--deck must be 1..4");
      o.deck = static_cast<int>(n);
    } else if (a == "--cards") {
      if (auto e = cod::bot::parse_card_list(v, o.cards); !e.empty()) return fail(e);
    } else if (a == "--name") {
      o.name = v;
    } else if (a == "--seed") {
      char* end = nullptr;
      errno = 0;
      o.seed = std::strtoull(v, &end, 10);
      if (errno || end == v || *end) return fail("--seed must be an unsigned integer");
      o.seed_given = true;
    } else if (a == "--resume") {
      o.resume_token = v;
    } else if (a == "--tournament-token") {
      o.tournament_token = v;
    } else if (a == "--league-token") {
      o.league_token = v;
    } else if (a == "--tournament") {
      o.tournament = v;
    } else if (a == "--spectate") {
      o.spectate = v;
    } else if (a == "--token-file") {
      o.token_file = v;
    } else if (a == "--ack-file") {
      o.ack_file = v;
    } else if (a == "--dump") {
      o.dump_file = v;
    } else if (a == "--catalogue") {
      o.catalogue = v;
    } else if (a == "--timeout-sec") {
      if (!cod::bot::parse_long(v, 1, 86400, n)) return fail("--timeout-sec must be 1..86400");
      o.timeout_sec = static_cast<int>(n);
    } else if (a == "--league-delay-ms") {
      if (!cod::bot::parse_long(v, 0, 600000, n)) return fail("--league-delay-ms must be 0..600000");
      o.league_delay_ms = static_cast<int>(n);
    } else if (a == "--delay-ms") {
      if (!cod::bot::parse_long(v, 0, 600000, n)) return fail("--delay-ms must be 0..600000");
      o.delay_ms = static_cast<int>(n);
    } else if (a == "--policy") {
      const auto p = cod::bot::policy_from_name(v);
      if (!p) return fail("--policy must be random, greedy or search");
      o.policy = *p;
      o.policy_given = true;
    } else if (a == "--level") {
      if (!cod::bot::parse_long(v, cod::search::min_level, cod::search::max_level, n))
        return fail("--level must be 1..5");
      o.level = static_cast<int>(n);
    } else if (a == "--think-ms") {
      if (!cod::bot::parse_long(v, 1, 600000, n)) return fail("--think-ms must be 1..600000");
      o.think_ms = static_cast<int>(n);
    } else if (a == "--max-actions") {
      if (!cod::bot::parse_long(v, 1, 1000000000L, n)) return fail("--max-actions must be positive");
      o.max_actions = n;
    } else {
      return fail(cat("unknown option ", a));
    }
  }
  const int modes = (o.create ? 1 : 0) + (!o.spectate.empty() ? 1 : 0) + (!o.room.empty() ? 1 : 0) +
                    (!o.tournament_token.empty() ? 1 : 0) + (!o.league_token.empty() ? 1 : 0) + (o.queue ? 1 : 0);
  if (modes != 1)
    return fail(
        "give exactly one of --create, --room ID, --spectate ID, --tournament-token T, --league-token T, --queue MODE");
  const int sign_ins = (o.guest ? 1 : 0) + (!o.account.empty() ? 1 : 0) + (!o.account_token.empty() ? 1 : 0);
  if (sign_ins > 1) return fail("give one of --guest, --account NAME, --account-token T");
  if (o.queue && sign_ins == 0) return fail("--queue needs an account: --guest, --account NAME or --account-token T");
  if (!o.account.empty() && o.password.empty()) return fail("--account needs --password");
  if (o.casual && !o.queue) return fail("--casual goes with --queue");
  if (!o.partner.empty() && o.queue != cod::game_mode::two_vs_two) return fail("--partner goes with --queue 2v2");
  if (!o.resume_token.empty() && o.room.empty()) return fail("--resume needs --room");
  if (!o.tournament.empty() && o.tournament_token.empty()) return fail("--tournament needs --tournament-token");
  // A token that names its tournament ("ID.HEX") routes itself: ?room=ID.
  if (o.tournament.empty() && !o.tournament_token.empty())
    o.tournament = std::string(pr::event_of_token(o.tournament_token));
  // So does a league's: its node runs its duels too.
  if (o.tournament.empty() && !o.league_token.empty()) o.tournament = std::string(pr::event_of_token(o.league_token));
  if (o.deck && !o.cards.empty()) return fail("give --deck or --cards, not both");
  if (!o.cards.empty() && o.create && o.format == pr::deck_format::preconstructed)
    return fail("--cards needs a constructed room (--format constructed)");
  if (!o.deck && o.cards.empty()) o.deck = 1;
  if (o.level && !o.policy_given) o.policy = cod::bot::policy_kind::search;  // --level implies search
  if (o.level && o.policy != cod::bot::policy_kind::search) return fail("--level goes with --policy search");
  if (!o.level) o.level = cod::search::default_level;
  if (!o.seed_given)
    o.seed = static_cast<std::uint64_t>(clock_type::now().time_since_epoch().count()) ^
             (static_cast<std::uint64_t>(getpid()) << 32);
  return -1;
}

bool is_rule_error(std::string_view code) {
  static constexpr std::string_view rule[] = {"card_not_in_hand", "card_not_playable", "insufficient_mana",
                                              "bad_line",         "bad_target",        "bad_host",
                                              "leaves_only_stronghold", "line_full",   "bad_action",
                                              "champion_exhausted"};
  return std::find(std::begin(rule), std::end(rule), code) != std::end(rule);
}

bool is_protocol_error(std::string_view code) {
  return code == "bad_json" || code == "unknown_type" || code == "missing_field" || code == "unknown_field" ||
         code == "bad_field_type" || code == "bad_field_value";
}

// A client-side token bucket under the server's (welcome.rate_limit_per_sec;
// the server allows bursts of twice that): capacity `rate`, refill 95 % of it.
class pacer {
 public:
  void set_rate(int per_sec) {
    rate_ = per_sec;
    tokens_ = per_sec;
    last_ = clock_type::now();
  }
  void take() {
    if (rate_ <= 0) return;
    for (;;) {
      const auto now = clock_type::now();
      tokens_ = std::min<double>(rate_, tokens_ + std::chrono::duration<double>(now - last_).count() * rate_ * 0.95);
      last_ = now;
      if (tokens_ >= 1.0) {
        tokens_ -= 1.0;
        return;
      }
      const double wait_s = (1.0 - tokens_) / (rate_ * 0.95);
      std::this_thread::sleep_for(std::chrono::duration<double>(wait_s));
    }
  }

 private:
  int rate_ = 0;
  double tokens_ = 0;
  clock_type::time_point last_{};
};

class bot {
 public:
  bot(options o, const cod::catalogue& cat) : o_(std::move(o)), cat_(cat), move_rng_(o_.seed), pick_rng_(o_.seed) {
    deadline_ = clock_type::now() + std::chrono::seconds(o_.timeout_sec);
  }

  int run();
  int open_connection();
  void summary();

 private:
  void info(const char* fmt, const std::string& a = {}, long n = 0) {
    if (o_.quiet) return;
    std::printf(fmt, a.c_str(), n);
    std::fflush(stdout);
  }
  int fail(int code, const std::string& why) {
    std::fprintf(stderr, "cod-bot: %s\n", why.c_str());
    result_ = code == exit_timeout ? "timeout" : code == exit_connection ? "disconnected" : "error";
    return code;
  }
  bool send(const json& j);
  bool send_request(pr::client_message m);
  bool send_join();  // join room_ with the deck (and Champion) asked for
  bool send_tournament_join();
  // Tournament mode: this game is over (or void): leave its room, then ask for the next.
  int next_game(const char* why);
  // Drafting: a random legal pick when the draft waits for this seat.
  bool maybe_pick();
  // League mode: the league's newest view says what to do (an op, the
  // round's duel, or the end). -1 to go on, else the exit status.
  bool league_mode() const { return !o_.league_token.empty(); }
  // --guest, --account: a session token from the account API (or the
  // --account-token given); the exit status on failure, else -1.
  int sign_in();
  bool send_queue();
  int league_step(bool& done);
  bool send_league_op(const json& op);
  bool send_league_join();
  std::vector<std::string> random_of(std::vector<std::string> from, int n);
  int on_message(const json& m, bool& done);
  int on_error(const json& m, bool& done);
  // A state or update: its view, seq and (hello.legal_actions) the seat's list.
  void on_view(const json& msg, bool is_state);
  bool maybe_act();
  // --policy greedy|search: the index in legal_ of the computer player's
  // move, or legal_.size() when it has none (then a random one is played).
  std::size_t chosen_index();
  std::vector<cod::card_id> own_deck() const;
  // The seats' deck lists for the computer players: the match's (`state.decks`,
  // RULING E82) once a state has come, else the bot's own alone.
  cod::search::table known_decks() const;
  int known_deck_count() const {
    int n = 0;
    for (const auto& d : known_decks().decks) n += !d.empty();
    return n;
  }
  // RULING E82: each seat's list as the newest `state` gave it (none yet: empty).
  std::array<std::vector<cod::card_id>, cod::max_seats> state_decks_{};
  void write_token_file();
  void record_ack(std::int64_t seq);
  std::string where() const;

  options o_;
  const cod::catalogue& cat_;
  cod::bot::ws_client ws_;
  // The seat's legal actions in the newest state or update: the moves are
  // chosen from them (the server's list; no rules here). An action the
  // server refuses anyway is dropped from it until the next frame.
  std::vector<cod::action> legal_;
  cod::bot::move_rng move_rng_;
  pacer pacer_;
  clock_type::time_point deadline_;
  std::FILE* dump_ = nullptr;

  std::int64_t next_id_ = 1;
  std::string room_;
  std::string account_name_;  // signed in (welcome.account): joins take it
  bool reconnect_ = false;    // matched.connect: open a connection to the room's node
  int seat_ = -1;
  std::string token_;
  json view_;
  std::int64_t seq_ = -1;   // the last seq seen (state or update)
  bool started_ = false;    // a state came
  bool over_ = false;       // the view shows the match over
  bool ended_ = false;      // match_over came, or a state showed it over
  std::string result_ = "none";
  std::string reason_ = "none";
  long actions_ = 0;        // own accepted actions
  long refused_ = 0;        // rule errors
  // The computer player (--policy greedy|search): whether it has chosen in
  // this position (a refused choice is not asked for again), its decisions
  // and those it could not make.
  bool thought_ = false;
  long decisions_ = 0;
  long fallbacks_ = 0;
  long iterations_ = 0;  // the search's, over every decision
  // The act in flight: its id, the seq it was accepted as (0: not yet).
  std::int64_t pending_id_ = 0;
  json pending_action_;
  std::int64_t pending_chosen_at_ = 0;  // the seq it was chosen in (act.seq)
  std::int64_t pending_seq_ = 0;
  bool conceding_ = false;
  // Tournament mode.
  bool leaving_ = false;
  int t_games_ = 0, t_wins_ = 0, t_losses_ = 0, t_draws_ = 0, t_voided_ = 0;
  // Drafting (R14): the last draft view, the pick in flight.
  bool no_deck_ = false;
  json draft_;
  std::int64_t draft_seq_ = 0;  // the newest draft push's: draft_pick.seq
  json draft_legal_;            // its legal_picks (hello.legal_actions)
  std::int64_t pending_pick_ = 0;
  long picks_ = 0;
  long refused_picks_ = 0;
  std::mt19937_64 pick_rng_{0};
  // League mode: the newest league view, the op in flight.
  json league_view_;
  std::int64_t pending_league_ = 0;
  std::int64_t league_join_ = 0;  // the league_join sent (tournament_waiting: sent again)
  json pending_league_op_;
  int league_refusals_ = 0;
  long league_mutations_ = 0;
  bool joining_ = false;  // a tournament_join for the round's duel in flight
};

bool bot::send_league_join() {
  league_join_ = next_id_++;
  return send_request(pr::league_join_msg{league_join_, o_.league_token});
}

bool bot::send_league_op(const json& op) {
  if (o_.league_delay_ms) std::this_thread::sleep_for(std::chrono::milliseconds(o_.league_delay_ms));
  pending_league_ = next_id_++;
  pending_league_op_ = op;
  return send_request(pr::league_act_msg{pending_league_, op});
}

int bot::league_step(bool& done) {
  if (league_view_.is_null()) return -1;
  const json& v = league_view_;
  if (v.at("stage") == "finished") {
    if (seat_ >= 0 || leaving_) return -1;  // the last duel's room first
    info("league over: %s\n", v.at("players").dump());
    done = true;
    return exit_ok;
  }
  if (!pending_league_) {
    if (auto op = cod::bot::league_next_op(v, cat_, pick_rng_))
      if (!send_league_op(*op)) return fail(exit_connection, cat("connection lost: ", ws_.error()));
  }
  if (v.at("you").contains("duel") && seat_ < 0 && !leaving_ && !joining_) {
    // The round's duel (R15.3): the league deck, as the league has it.
    o_.tournament_token = o_.league_token;
    o_.cards = cod::bot::league_deck_ids(v);
    o_.deck = 0;
    joining_ = true;
    if (!send_tournament_join()) return fail(exit_connection, cat("connection lost: ", ws_.error()));
  }
  return -1;
}

bool bot::send_tournament_join() {
  pr::tournament_join_msg j;
  j.id = next_id_++;
  j.token = o_.tournament_token;
  j.deck.preconstructed = o_.deck;
  j.deck.cards = o_.cards;
  return send_request(j);
}

int bot::next_game(const char* why) {
  info("%s: asking for the next game\n", std::string(why));
  room_.clear();
  seat_ = -1;
  view_ = json();
  seq_ = -1;
  started_ = over_ = ended_ = false;
  pending_id_ = 0;
  conceding_ = false;
  if (leaving_) {
    if (!send_request(pr::leave_msg{next_id_++})) return fail(exit_connection, cat("connection lost: ", ws_.error()));
    return -1;
  }
  if (league_mode()) {
    bool done = false;  // the league's end waits for its push
    joining_ = false;
    return league_step(done);
  }
  if (!send_tournament_join()) return fail(exit_connection, cat("connection lost: ", ws_.error()));
  return -1;
}

bool bot::send(const json& j) {
  pacer_.take();
  const auto s = ws_.send(j.dump(), deadline_);
  return s == cod::bot::ws_client::status::ok;
}

bool bot::send_request(pr::client_message m) { return send(pr::client_message_to_json(m)); }

int bot::sign_in() {
  if (!o_.guest && o_.account.empty()) return -1;
  const bool guest = o_.guest;
  const std::string body = guest ? std::string("{}") : json{{"name", o_.account}, {"password", o_.password}}.dump();
  const std::string route = guest ? "/api/guest" : "/api/login";
  auto a = cod::bot::http_call(o_.host, o_.port, "POST", route, body, "", deadline_, o_.tls);
  if (a.status == 0) return fail(exit_connection, cat("sign-in (", route, "): ", a.error));
  const json j = json::parse(a.body, nullptr, false);
  if (a.status / 100 != 2 || !j.is_object() || !j.contains("session")) {
    std::string why = j.is_object() ? j.value("error", "") + ": " + j.value("message", "") : a.body.substr(0, 200);
    return fail(exit_refused, cat("sign-in (", route, ") answered ", std::to_string(a.status), " ", why));
  }
  o_.account_token = j.at("session").at("token").get<std::string>();
  return -1;
}

bool bot::send_queue() {
  pr::queue_msg q;
  q.id = next_id_++;
  q.mode = *o_.queue;
  q.format = o_.format;
  q.rated = !o_.casual;
  q.partner = o_.partner;
  q.deck.preconstructed = o_.deck;
  q.deck.cards = o_.cards;
  return send_request(q);
}

bool bot::send_join() {
  pr::join_msg j;
  j.id = next_id_++;
  j.room = room_;
  if (account_name_.empty()) j.name = o_.name;  // signed in: the account's
  j.seat = o_.seat;
  j.deck.preconstructed = o_.deck;
  j.deck.cards = o_.cards;
  j.no_deck = no_deck_ || pr::is_drafted(o_.format);
  if (o_.champion == "auto") {
    // R13.1: a creature outside the deck (unknown ids in --cards are left to
    // the server's bad_deck). A drafted room has no deck yet: any creature
    // (the server withholds it from the pool, RULING E67).
    std::vector<cod::card_id> deck;
    if (j.no_deck) {
    } else if (o_.deck) {
      deck = cat_.preconstructed_deck(o_.deck);
    } else {
      for (const auto& id : o_.cards)
        if (auto c = cat_.find(id)) deck.push_back(*c);
    }
    o_.champion = cod::bot::pick_champion(o_.seed, cat_, deck);
    info("champion %s\n", o_.champion);
  }
  if (!o_.champion.empty()) j.champion = o_.champion;
  return send_request(j);
}

std::vector<std::string> bot::random_of(std::vector<std::string> from, int n) {
  std::shuffle(from.begin(), from.end(), pick_rng_);
  if (static_cast<int>(from.size()) > n) from.resize(static_cast<std::size_t>(n));
  return from;
}

bool bot::maybe_pick() {
  if (seat_ < 0 || pending_pick_ || draft_.is_null() || draft_.value("finished", false)) return true;
  const json* turn = nullptr;
  for (const json& w : draft_.at("waiting"))
    if (w.at("seat").get<int>() == seat_) turn = &w;
  if (!turn) return true;
  pr::draft_pick_msg m;
  const std::string type = turn->at("pick").get<std::string>();
  const int count = turn->at("count").get<int>();
  if (type == "submit") {
    // A secret list is not enumerated (docs/protocol.md): any `count` pool cards.
    m.pick = cod::draft_pick_type::submit;
    m.cards = random_of(draft_.at("pool").get<std::vector<std::string>>(), count);
  } else {
    // Takes, bans and deck choices: one of the server's legal picks.
    if (!draft_legal_.is_array() || draft_legal_.empty()) {
      std::fprintf(stderr, "cod-bot: the draft waits for a %s and lists no legal pick (%s)\n", type.c_str(),
                   where().c_str());
      return true;
    }
    const json& p = draft_legal_.at(pick_rng_() % draft_legal_.size());
    const std::string pick = p.at("pick").get<std::string>();
    if (pick == "choose_deck") {
      m.pick = cod::draft_pick_type::choose_deck;
      m.deck = p.at("deck").get<int>();
    } else {
      m.pick = pick == "ban" ? cod::draft_pick_type::ban : cod::draft_pick_type::take;
      m.cards = p.at("cards").get<std::vector<std::string>>();
    }
  }
  if (o_.delay_ms) std::this_thread::sleep_for(std::chrono::milliseconds(o_.delay_ms));
  pending_pick_ = next_id_++;
  m.id = pending_pick_;
  m.seq = draft_seq_;
  return send_request(m);
}

std::string bot::where() const {
  std::string w = "room ";
  w += room_.empty() ? "-" : room_;
  w += ", seat ";
  w += seat_ < 0 ? std::string("-") : std::to_string(seat_);
  w += ", seq ";
  w += std::to_string(seq_);
  return w;
}

void bot::write_token_file() {
  if (o_.token_file.empty()) return;
  const json j = {{"room", room_}, {"seat", seat_}, {"token", token_}, {"name", o_.name}};
  const std::string tmp = o_.token_file + ".tmp";
  if (std::FILE* f = std::fopen(tmp.c_str(), "w")) {
    const std::string text = j.dump() + "\n";
    std::fwrite(text.data(), 1, text.size(), f);
    std::fclose(f);
    std::error_code ec;
    std::filesystem::rename(tmp, o_.token_file, ec);
    if (ec) std::fprintf(stderr, "cod-bot: cannot write %s: %s\n", o_.token_file.c_str(), ec.message().c_str());
  } else {
    std::fprintf(stderr, "cod-bot: cannot write %s\n", tmp.c_str());
  }
}

void bot::record_ack(std::int64_t seq) {
  if (o_.ack_file.empty()) return;
  if (std::FILE* f = std::fopen(o_.ack_file.c_str(), "a")) {
    std::fprintf(f, "%lld\n", static_cast<long long>(seq));
    std::fclose(f);
  }
}

void bot::summary() {
  std::printf("cod-bot: room=%s seat=%s result=%s reason=%s actions=%ld seq=%lld picks=%ld\n",
              room_.empty() ? "-" : room_.c_str(), seat_ < 0 ? "-" : std::to_string(seat_).c_str(), result_.c_str(),
              reason_.c_str(), actions_, static_cast<long long>(seq_), picks_);
  if (o_.policy != cod::bot::policy_kind::random)
    std::printf("cod-bot: policy=%s level=%s decisions=%ld fallbacks=%ld iterations=%ld known_decks=%d\n",
                std::string(cod::bot::policy_name(o_.policy)).c_str(),
                o_.policy == cod::bot::policy_kind::search ? std::to_string(o_.level).c_str() : "-", decisions_,
                fallbacks_, iterations_, known_deck_count());
  if (league_mode()) {
    int place = 0;
    if (league_view_.is_object())
      for (const auto& p : league_view_.at("players"))
        if (p.at("seat") == league_view_.at("you").at("seat")) place = p.at("place").get<int>();
    std::printf("cod-bot: league games=%d wins=%d place=%d mutations=%ld\n", t_games_, t_wins_, place,
                league_mutations_);
  } else if (!o_.tournament_token.empty()) {
    std::printf("cod-bot: tournament games=%d wins=%d losses=%d draws=%d voided=%d\n", t_games_, t_wins_, t_losses_,
                t_draws_, t_voided_);
  }
  std::fflush(stdout);
}

void bot::on_view(const json& msg, bool is_state) {
  const json& view = msg.at("view");
  view_ = view;
  seq_ = msg.at("seq").get<std::int64_t>();
  started_ = true;
  over_ = view.value("phase", "") == "game_over";
  if (over_) {
    const json& w = view.at("winners");
    reason_ = view.value("reason", "none");
    if (seat_ < 0) result_ = "watched";
    else if (w.empty()) result_ = "draw";
    else result_ = std::find(w.begin(), w.end(), seat_) != w.end() ? "win" : "loss";
    // A state showing the match over (resumed after it ended): no
    // match_over will come.
    if (is_state) ended_ = true;
  }
  legal_.clear();
  thought_ = false;
  if (seat_ >= 0) {
    auto listed = msg.contains("legal_actions")
                      ? pr::legal_actions_from_json(msg.at("legal_actions"), static_cast<cod::seat_t>(seat_))
                      : std::nullopt;
    if (listed) legal_ = std::move(*listed);
    else std::fprintf(stderr, "cod-bot: a %s without a readable legal_actions (%s)\n", is_state ? "state" : "update",
                      where().c_str());
  }
}

// Sends the next action when it is this seat's turn and nothing is in flight.
// False when the connection failed.
bool bot::maybe_act() {
  // An empty list: not this seat's turn (or nothing left to try): wait for the next frame.
  if (seat_ < 0 || pending_id_ || over_ || !started_ || legal_.empty()) return true;
  json action;
  if (actions_ >= o_.max_actions) {
    if (!conceding_) std::fprintf(stderr, "cod-bot: %ld actions played: conceding\n", actions_);
    conceding_ = true;
    action = {{"type", "concede"}};
  } else {
    std::size_t i = chosen_index();
    if (i >= legal_.size()) i = move_rng_.below(legal_.size());
    action = pr::action_to_json(legal_[i]);
    legal_.erase(legal_.begin() + static_cast<std::ptrdiff_t>(i));  // tried: not again in this position
  }
  if (o_.delay_ms) std::this_thread::sleep_for(std::chrono::milliseconds(o_.delay_ms));
  // Through the protocol library: parse_action checks the shape we send.
  auto parsed = pr::parse_action(action, cod::no_seat);
  if (!parsed.ok()) {
    std::fprintf(stderr, "cod-bot: internal: bad listed action %s: %s\n", action.dump().c_str(),
                 parsed.error->message.c_str());
    return maybe_act();
  }
  pending_id_ = next_id_++;
  pending_action_ = action;
  pending_chosen_at_ = seq_;
  pending_seq_ = 0;
  // seq: chosen in this frame; stale_action if the match moved on meanwhile.
  return send_request(pr::act_msg{pending_id_, parsed.value, pending_chosen_at_});
}

std::vector<cod::card_id> bot::own_deck() const {
  // A drafted deck is not known here (the draft's picks are): none.
  if (no_deck_ || pr::is_drafted(o_.format)) return {};
  if (o_.deck) return cat_.preconstructed_deck(o_.deck);
  std::vector<cod::card_id> deck;
  for (const auto& id : o_.cards)
    if (auto c = cat_.find(id)) deck.push_back(*c);
  return deck;
}

cod::search::table bot::known_decks() const {
  cod::search::table t;
  t.decks = state_decks_;
  if (seat_ >= 0 && seat_ < cod::max_seats && t.decks[static_cast<std::size_t>(seat_)].empty())
    t.decks[static_cast<std::size_t>(seat_)] = own_deck();
  return t;
}

std::size_t bot::chosen_index() {
  if (o_.policy == cod::bot::policy_kind::random || thought_) return legal_.size();
  thought_ = true;
  ++decisions_;
  const cod::bot::search_policy player(cat_, o_.policy, o_.level, o_.think_ms, o_.seed, known_decks());
  const auto c = player.decide(view_, seq_);
  if (!c.chosen) {
    // Said the first few times (solo and co-op are never searched: every move).
    if (++fallbacks_ <= 3)
      std::fprintf(stderr, "cod-bot: %s (%s): a random move instead\n", c.why.c_str(), where().c_str());
    return legal_.size();
  }
  iterations_ += c.iterations;
  cod::action a = *c.chosen;
  a.seat = static_cast<cod::seat_t>(seat_);
  const auto it = std::find(legal_.begin(), legal_.end(), a);
  if (it == legal_.end()) {
    ++fallbacks_;
    std::fprintf(stderr, "cod-bot: the %s player chose %s, not in the server's list (%s): a random move instead\n",
                 std::string(cod::bot::policy_name(o_.policy)).c_str(),
                 pr::action_to_json(a).dump().c_str(), where().c_str());
    return legal_.size();
  }
  return static_cast<std::size_t>(it - legal_.begin());
}

int bot::on_error(const json& m, bool& done) {
  const std::string code = m.value("code", "?");
  const std::string message = m.value("message", "");
  const json id = m.contains("id") ? m.at("id") : json();
  if (pending_pick_ && id == pending_pick_) {
    // A refused pick changes nothing: another random one (at most a few).
    pending_pick_ = 0;
    if (code == "rate_limited" || code == "server_busy") std::this_thread::sleep_for(std::chrono::milliseconds(100));
    else if (++refused_picks_ > 50) return fail(exit_refused, cat("draft pick refused (", where(), "): ", code, ": ", message));
    if (!maybe_pick()) return fail(exit_connection, cat("connection lost (", where(), "): ", ws_.error()));
    return -1;
  }
  // A room that drafts its decks: join again without one.
  if (code == "bad_field_value" && m.value("field", "") == "deck" && seat_ < 0 && !no_deck_) {
    no_deck_ = true;
    if (!send_join()) return fail(exit_connection, cat("connection lost: ", ws_.error()));
    return -1;
  }
  if (pending_id_ && (id == pending_id_ || (id.is_null() && code == "rate_limited"))) {
    if (code == "rate_limited" || code == "server_busy") {
      // Dropped or refused for load: the same action again, a little later.
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      pending_id_ = next_id_++;
      auto parsed = pr::parse_action(pending_action_, cod::no_seat);
      if (!send_request(pr::act_msg{pending_id_, parsed.value, pending_chosen_at_}))
        return fail(exit_connection, cat("connection lost (", where(), "): ", ws_.error()));
      return -1;
    }
    pending_id_ = 0;
    if (is_rule_error(code) || is_protocol_error(code)) {
      // A listed action refused: the list and the server disagree (a bug).
      ++refused_;
      std::fprintf(stderr, "cod-bot: the server refused the listed %s (%s): %s %s\n", pending_action_.dump().c_str(),
                   where().c_str(), code.c_str(), message.c_str());
    } else if (code == "not_your_turn" || code == "game_over" || code == "stale_action") {
      // The view was stale; the next update says what to do.
      return -1;
    } else {
      return fail(exit_refused, cat("act refused (", where(), "): ", code, ": ", message));
    }
    if (!maybe_act()) return fail(exit_connection, cat("connection lost (", where(), "): ", ws_.error()));
    return -1;
  }
  if (pending_league_ && id == pending_league_) {
    // A refused op changes nothing: a pass instead of refused mutations, else another random op.
    const bool was_mutate = pending_league_op_.value("type", "") == "mutate";
    pending_league_ = 0;
    if (++league_refusals_ > 20) return fail(exit_refused, cat("league_act refused: ", code, ": ", message));
    std::fprintf(stderr, "cod-bot: league_act %s refused: %s: %s\n", pending_league_op_.dump().c_str(), code.c_str(),
                 message.c_str());
    if (was_mutate) {
      if (!send_league_op(json{{"type", "pass"}})) return fail(exit_connection, cat("connection lost: ", ws_.error()));
      return -1;
    }
    return league_step(done);
  }
  if (league_join_ && id == league_join_) {
    // A cluster node the league is moving to (its node died, or hands it over).
    if (code != "tournament_waiting") return fail(exit_refused, cat("league_join refused: ", code, ": ", message));
    std::this_thread::sleep_for(std::chrono::milliseconds(250));
    if (!send_league_join()) return fail(exit_connection, cat("connection lost: ", ws_.error()));
    return -1;
  }
  if (league_mode() && code == "tournament_waiting") {
    // The view that showed a duel is older than its result: the next push says more.
    joining_ = false;
    return -1;
  }
  if (!o_.tournament_token.empty()) {
    if (code == "tournament_waiting") {
      std::this_thread::sleep_for(std::chrono::milliseconds(250));
      if (!send_tournament_join()) return fail(exit_connection, cat("connection lost: ", ws_.error()));
      return -1;
    }
    if (code == "tournament_over") {
      info("tournament over: %s\n", message);
      done = true;
      return exit_ok;
    }
    if (code == "internal_error" && id.is_null() && seat_ >= 0) {
      // Pushed: the organiser voided this match (a re-pair).
      ++t_voided_;
      leaving_ = true;
      return next_game("match voided");
    }
  }
  // A room with Champions and none asked for: pick one at random and join again
  // (a refused join changes nothing).
  if (code == "bad_champion_choice" && m.value("reason", "") == "champion_required" && o_.champion.empty() &&
      seat_ < 0) {
    o_.champion = "auto";
    if (!send_join()) return fail(exit_connection, cat("connection lost: ", ws_.error()));
    return -1;
  }
  // The server stops (its connection closes next, 1001): like a lost
  // connection, the seat resumes with its token (behind a cluster's proxy,
  // on another node).
  if (code == "shutting_down") return fail(exit_connection, cat("server shutting down (", where(), ")"));
  // An error about setup (join, resume, ...) or pushed (a match abandoned).
  std::string why = code;
  if (m.contains("reason")) why += cat(" (", m.value("reason", ""), ")");
  if (m.contains("field")) why += cat(" field ", m.value("field", ""));
  why += ": ";
  why += message;
  return fail(exit_refused, cat("server error (", where(), "): ", why));
}

// -1 to go on, else the exit status. `done` when the session is over.
int bot::on_message(const json& m, bool& done) {
  const std::string type = m.value("type", "");
  if (o_.print_events && !o_.quiet) {
    if (type == "update") {
      std::printf("update seq %lld: %s\n", static_cast<long long>(m.value("seq", -1LL)), m.at("events").dump().c_str());
    } else if (type == "state") {
      std::printf("state seq %lld (turn %d, active seat %d)\n", static_cast<long long>(m.value("seq", -1LL)),
                  m.at("view").value("turn", 0), m.at("view").value("active_seat", -1));
      // Solo, coop: the opening events (the AI's first turn with ai_first).
      if (m.contains("events")) std::printf("opening events: %s\n", m.at("events").dump().c_str());
    } else {
      std::printf("%s\n", m.dump().c_str());
    }
    std::fflush(stdout);
  }
  if (type == "welcome") {
    pacer_.set_rate(m.value("rate_limit_per_sec", 0));
    if (m.contains("account")) {
      account_name_ = m.at("account").at("name").get<std::string>();
      info("signed in as %s\n", account_name_);
    }
    if (o_.queue) {
      if (!send_queue()) return fail(exit_connection, cat("connection lost: ", ws_.error()));
    } else if (o_.create) {
      pr::create_room_msg c;
      c.id = next_id_++;
      c.mode = o_.mode;
      c.format = o_.format;
      c.options.exhaustion = o_.exhaustion;
      c.options.seats = cod::seats_of(o_.mode);
      c.options.champions = o_.champions;
      c.options.share_team_hands = o_.share_team_hands;
      c.options.difficulty = o_.difficulty;
      c.options.ai = o_.ai;
      c.options.packs = o_.packs;
      if (!send_request(c)) return fail(exit_connection, cat("connection lost: ", ws_.error()));
    } else if (!o_.spectate.empty()) {
      room_ = o_.spectate;
      if (!send_request(pr::spectate_msg{next_id_++, o_.spectate}))
        return fail(exit_connection, cat("connection lost: ", ws_.error()));
    } else if (league_mode()) {
      if (!send_league_join()) return fail(exit_connection, cat("connection lost: ", ws_.error()));
    } else if (!o_.tournament_token.empty()) {
      if (!send_tournament_join()) return fail(exit_connection, cat("connection lost: ", ws_.error()));
    } else if (!o_.resume_token.empty()) {
      room_ = o_.room;
      if (!send_request(pr::resume_msg{next_id_++, o_.room, o_.resume_token}))
        return fail(exit_connection, cat("connection lost: ", ws_.error()));
    } else {
      room_ = o_.room;
      if (!send_join()) return fail(exit_connection, cat("connection lost: ", ws_.error()));
    }
  } else if (type == "queued") {
    info("queued: ticket %ld\n", "", m.at("ticket").get<long>());
  } else if (type == "matched") {
    room_ = m.at("room").get<std::string>();
    if (m.contains("connect")) {
      // A cluster: the room runs on another node. Connect there (?room=ID)
      // and take the seat with resume and the token, as after a lost
      // connection.
      info("matched: room %s, on another node: reconnecting\n", room_);
      o_.queue.reset();
      o_.room = room_;
      o_.resume_token = m.at("token").get<std::string>();
      reconnect_ = true;
    } else {
      // The seat is taken for us: joined (with the token) and state follow.
      info("matched: room %s\n", room_);
    }
  } else if (type == "unqueued" && room_.empty()) {
    return fail(exit_refused, cat("left the queue: ", m.value("reason", "")));
  } else if (type == "room_created") {
    room_ = m.at("room").get<std::string>();
    info("room %s created\n", room_);
    if (!send_join()) return fail(exit_connection, cat("connection lost: ", ws_.error()));
  } else if (type == "league") {
    league_view_ = m.at("view");
    if (pending_league_ && m.value("id", json()) == pending_league_) {
      if (pending_league_op_.value("type", "") == "mutate")
        league_mutations_ += static_cast<long>(pending_league_op_.at("mutations").size());
      pending_league_ = 0;
    }
    return league_step(done);
  } else if (type == "joined") {
    joining_ = false;
    room_ = m.at("room").get<std::string>();
    seat_ = m.at("seat").get<int>();
    token_ = m.at("token").get<std::string>();
    write_token_file();
    info(o_.resume_token.empty() ? "joined room %s, seat %ld\n" : "resumed room %s, seat %ld\n", room_, seat_);
  } else if (type == "spectating") {
    info("watching room %s\n", m.at("room").get<std::string>());
  } else if (type == "state") {
    on_view(m, true);
    state_decks_ = {};
    if (m.contains("decks") && m.at("decks").is_array())
      for (const auto& d : m.at("decks")) {
        const int s = d.value("seat", -1);
        if (s < 0 || s >= cod::max_seats || !d.contains("cards") || !d.at("cards").is_array()) continue;
        for (const auto& id : d.at("cards"))
          if (id.is_string())
            if (auto c = cat_.find(id.get<std::string>())) state_decks_[static_cast<std::size_t>(s)].push_back(*c);
      }
    // A new connection (resume): whatever was in flight is forgotten.
    pending_id_ = 0;
    if (ended_ && !o_.tournament_token.empty()) {
      leaving_ = true;
      return next_game("seated in a finished match");
    }
    if (ended_) {
      done = true;
      return exit_ok;
    }
    if (!maybe_act()) return fail(exit_connection, cat("connection lost (", where(), "): ", ws_.error()));
  } else if (type == "update") {
    const auto seq = m.at("seq").get<std::int64_t>();
    if (seq_ >= 0 && seq != seq_ + 1)
      std::fprintf(stderr, "cod-bot: update seq %lld after %lld (%s)\n", static_cast<long long>(seq),
                   static_cast<long long>(seq_), room_.c_str());
    on_view(m, false);
    if (pending_id_ && pending_seq_ && seq >= pending_seq_) pending_id_ = 0;
    if (!maybe_act()) return fail(exit_connection, cat("connection lost (", where(), "): ", ws_.error()));
  } else if (type == "draft") {
    draft_ = m.at("draft");
    draft_seq_ = m.at("seq").get<std::int64_t>();
    draft_legal_ = m.value("legal_picks", json::array());
    if (!maybe_pick()) return fail(exit_connection, cat("connection lost (", where(), "): ", ws_.error()));
  } else if (type == "accepted" && pending_pick_ && m.value("id", json()) == pending_pick_) {
    // The draft message that follows says what to do next.
    pending_pick_ = 0;
    ++picks_;
  } else if (type == "accepted") {
    if (pending_id_ && m.value("id", json()) == pending_id_) {
      pending_seq_ = m.at("seq").get<std::int64_t>();
      ++actions_;
      record_ack(pending_seq_);
      if (seq_ >= pending_seq_) {
        pending_id_ = 0;
        if (!maybe_act()) return fail(exit_connection, cat("connection lost (", where(), "): ", ws_.error()));
      }
    }
  } else if (type == "match_over") {
    // The end of a finished match this bot was seated in and is leaving
    // already (its state showed it over): one leave is enough.
    if (leaving_ && room_.empty() && !o_.tournament_token.empty()) return -1;
    reason_ = m.value("reason", "none");
    const json& w = m.at("winners");
    if (seat_ < 0) result_ = "watched";
    else if (w.empty()) result_ = "draw";
    else result_ = std::find(w.begin(), w.end(), seat_) != w.end() ? "win" : "loss";
    ended_ = true;
    if (!o_.tournament_token.empty()) {
      ++t_games_;
      if (result_ == "win") ++t_wins_;
      else if (result_ == "loss") ++t_losses_;
      else ++t_draws_;
      leaving_ = true;
      return next_game(cat("game over (", result_, ")").c_str());
    }
    done = true;
    return exit_ok;
  } else if (type == "error") {
    return on_error(m, done);
  } else if (type == "left" && !o_.tournament_token.empty()) {
    // Our leave's reply, or the room closed under us: ask for the next game.
    leaving_ = false;
    return next_game("left the room");
  } else if (type == "left") {
    // Pushed: the room was closed, or another connection resumed our seat.
    return fail(exit_refused, cat("left the room (", where(), "): closed by the server or the seat was taken over"));
  }
  // seat_status, clock, pong, rooms: nothing to do.
  return -1;
}

// Connects (to the room the bot is bound for: ?room=ID, for a cluster's
// proxy) and says hello. -1 to go on, else the exit status.
int bot::open_connection() {
  using cod::bot::ws_client;
  std::string target = o_.target;
  const std::string& bound = !o_.room.empty() ? o_.room : !o_.spectate.empty() ? o_.spectate : o_.tournament;
  if (!bound.empty() && target.find('?') == std::string::npos) target = cat(target, "?room=", bound);
  const std::string url = cat(o_.tls.enabled ? "wss://" : "ws://", o_.host, ":", std::to_string(o_.port), target);
  switch (ws_.connect(o_.host, o_.port, target, deadline_, o_.tls)) {
    case ws_client::status::ok: info("connected to %s\n", url.c_str()); break;
    case ws_client::status::timeout: return fail(exit_timeout, cat("cannot connect to ", url, ": ", ws_.error()));
    default: return fail(exit_connection, cat("cannot connect to ", url, ": ", ws_.error()));
  }
  pr::hello_msg hello{next_id_++, pr::protocol_version, std::string("cod-bot/0.1"), pr::ack_style::separate,
                      /*legal_actions=*/true};
  if (!o_.account_token.empty()) hello.account_token = o_.account_token;
  if (!send_request(hello)) return fail(exit_connection, cat("connection lost: ", ws_.error()));
  return -1;
}

int bot::run() {
  using cod::bot::ws_client;
  if (!o_.dump_file.empty()) {
    dump_ = std::fopen(o_.dump_file.c_str(), "w");
    if (!dump_) return fail(exit_usage, cat("cannot write ", o_.dump_file));
  }
  struct closer {
    std::FILE*& f;
    ~closer() {
      if (f) std::fclose(f);
    }
  } close_dump{dump_};

  if (const int rc = sign_in(); rc >= 0) return rc;
  if (const int rc = open_connection(); rc >= 0) return rc;

  std::string frame;
  for (;;) {
    if (reconnect_) {
      // matched.connect: the room runs on another node of the cluster; this
      // connection's work is done, the seat is taken there with resume.
      reconnect_ = false;
      ws_.close(std::min(deadline_, clock_type::now() + std::chrono::seconds(2)));
      if (const int rc = open_connection(); rc >= 0) return rc;
    }
    const auto s = ws_.read(frame, deadline_);
    if (s == ws_client::status::timeout) {
      return fail(exit_timeout, cat("no end of match within ", std::to_string(o_.timeout_sec), " s (", where(), ")"));
    }
    if (s == ws_client::status::closed) {
      std::string why = cat("the server closed the connection (", where(), "): code ", std::to_string(ws_.close_code()));
      if (!ws_.close_reason().empty()) why += cat(" ", ws_.close_reason());
      return fail(exit_connection, why);
    }
    if (s == ws_client::status::error) return fail(exit_connection, cat("connection lost (", where(), "): ", ws_.error()));
    if (dump_) {
      std::fwrite(frame.data(), 1, frame.size(), dump_);
      std::fputc('\n', dump_);
      std::fflush(dump_);
    }
    json m = json::parse(frame, nullptr, false);
    if (m.is_discarded() || !m.is_object()) return fail(exit_refused, "the server sent something that is not JSON");
    bool done = false;
    int rc = -1;
    try {
      rc = on_message(m, done);
    } catch (const json::exception& e) {
      return fail(exit_refused, cat("unexpected message ", frame.substr(0, 200), ": ", e.what()));
    }
    if (done) {
      ws_.close(std::min(deadline_, clock_type::now() + std::chrono::seconds(2)));
      return exit_ok;
    }
    if (rc >= 0) return rc;
  }
}

}  // namespace

int main(int argc, char** argv) {
  options o;
  if (const int rc = parse_args(argc, argv, o); rc >= 0) return rc;
  cod::catalogue cat;
  if (auto e = pr::load_catalogue_file(o.catalogue, cat)) {
    std::fprintf(stderr, "cod-bot: catalogue %s: %s\n", o.catalogue.c_str(), e->to_string().c_str());
    return exit_usage;
  }
  bot b(std::move(o), cat);
  const int rc = b.run();
  b.summary();  // whatever happened
  return rc;
}
