// cod-admin: read-only inspection of a cod-server database (docs/admin.md,
// docs/persistence.md). The same search, rendering, verification and export
// as the HTTP admin API (server/admin/), run on the database directly: a
// SQLite file (--db PATH, or --store sqlite:PATH) or a PostgreSQL database
// (--store postgresql://...).
//
//   cod-admin --db PATH list [filters] [--json]     matches, newest first
//   cod-admin --db PATH show MATCH_ID [--json]
//   cod-admin --db PATH log MATCH_ID [--json|--raw]  the log in sentences (replayed)
//   cod-admin --db PATH state MATCH_ID --step N      the referee view after action N
//   cod-admin --db PATH verify MATCH_ID [--json]     exit 0: every check passed, 1: not
//   cod-admin --db PATH verify-all                   every match; exit 0: none failed
//   cod-admin --db PATH export MATCH_ID              one JSON document
//   cod-admin --db PATH draft MATCH_ID               (drafts are not stored yet)
//
// Opens the database read-only (safe while the server runs: WAL readers do
// not block its writer; PostgreSQL readers never block writers). --catalogue defaults to the shipped catalogue.
//
// Player accounts change the server's state, and the server owns its store
// (the SQLite owner lock): they go through its admin API instead
// (admin_cli/accounts_cmd.hpp):
//   cod-admin --url http://HOST:PORT accounts find PREFIX | disable ID | enable ID | revoke-sessions ID
#include <algorithm>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "admin/admin_api.hpp"
#include "admin/admin_search.hpp"
#include "admin/match_report.hpp"
#include "admin_cli/accounts_cmd.hpp"
#include "cod/protocol/catalogue_json.hpp"
#include "common/text_forms.hpp"
#include "persist/pg/pg_reader.hpp"
#include "persist/sqlite/sqlite_reader.hpp"
#include "replay/recovery.hpp"

#ifndef COD_DEFAULT_CATALOGUE
#define COD_DEFAULT_CATALOGUE "config/cards/catalogue.json"
#endif

namespace {

using namespace cod::server;

void usage(std::FILE* to) {
  std::fprintf(to,
               "usage: cod-admin (--db PATH | --store sqlite:PATH | --store postgresql://...) [--catalogue PATH] COMMAND\n"
               "commands:\n"
               "  list [--player NAME] [--mode MODE] [--status playing|finished] [--winner SEAT]\n"
               "       [--from MS] [--to MS] [--limit N] [--offset N] [--before CURSOR] [--json]\n"
               "                     matches, newest first (the filters of GET /admin/api/matches)\n"
               "  show MATCH_ID [--json]   the record, its seats, every action (one per line) and notes\n"
               "  log MATCH_ID [--json | --raw]   the log replayed and told in sentences; --raw: as stored\n"
               "  state MATCH_ID --step N  the referee view (JSON) after action N (0: after the setup)\n"
               "  verify MATCH_ID [--json] seed commitment, replay with digests, result; exit 0 if all pass\n"
               "  verify-all               verify every match (one still playing: every check but the\n"
               "                           result); prints the failures and the counts; exit 0 if none failed\n"
               "  export MATCH_ID          the whole match as one JSON document\n"
               "  draft MATCH_ID           the draft record of a drafted match (JSON, replayed); exit 1 if\n"
               "                           the match was not drafted or its draft log does not replay\n"
               "The database is opened read-only. Exit status: 0 ok, 1 failure (no such match, failed\n"
               "verification, divergent log), 2 usage error.\n"
               "\n"
               "usage: cod-admin --url http[s]://HOST:PORT [--token TOKEN] accounts COMMAND [--json]\n"
               "Player accounts, through the running server's admin API (its admin token: --token, or\n"
               "better the environment's COD_ADMIN_TOKEN, which no process listing shows):\n"
               "  accounts find [PREFIX] [--limit N]   accounts whose name starts with PREFIX (any case):\n"
               "                           id, name, guest|registered[,disabled][,deleted], created\n"
               "  accounts disable ID      no sign-in; its sessions are refused\n"
               "  accounts enable ID\n"
               "  accounts revoke-sessions ID   every session of the account ends\n"
               "Exit status: 0 done, 1 refused by the server (no such account...) or unreachable, 2 usage.\n");
}

std::string when(std::int64_t ms) {
  if (ms <= 0) return "-";
  const std::time_t t = static_cast<std::time_t>(ms / 1000);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[64];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &tm);
  char out[80];
  std::snprintf(out, sizeof out, "%s.%03dZ", buf, static_cast<int>(ms % 1000));
  return out;
}


std::string hex16(std::uint64_t d) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(d));
  return buf;
}

int cmd_list(const std::vector<match_summary>& found) {
  for (const match_summary& m : found) {
    std::string names;
    if ((m.mode == "2v2" || m.mode == "coop") && m.names.size() == 4) {
      // R11.6: the teams, seats 0+2 against 1+3 (R11.7 co-op: humans A+C
      // against AIs B+D).
      names = m.names[0] + " & " + m.names[2] + " vs " + m.names[1] + " & " + m.names[3];
    } else {
      for (std::size_t i = 0; i < m.names.size(); ++i) {
        if (i) names += " vs ";
        names += m.names[i];
      }
    }
    std::printf("%s\t%s\t%s\troom=%s\t%s/%s\t%s\tactions=%lld", m.match_id.c_str(), m.status.c_str(),
                when(m.created_ms).c_str(), m.room_id.c_str(), m.mode.c_str(), m.format.c_str(), names.c_str(),
                static_cast<long long>(m.actions));
    if (m.result)
      std::printf("\twinners=%s\treason=%s", cod::server::seats_json(m.result->winners).c_str(), m.result->reason.c_str());
    std::printf("\n");
  }
  return 0;
}

int cmd_show(const stored_match& sm) {
  const match_record& m = sm.match;
  std::printf("match        %s\n", m.match_id.c_str());
  std::printf("room         %s\n", m.room_id.c_str());
  std::printf("mode         %s (%s)\n", m.mode.c_str(), m.format.c_str());
  std::printf("options      %s\n", m.options_json.c_str());
  std::printf("rules        %s, engine version %d\n", m.rules_version.c_str(), m.engine_version);
  std::printf("seed         %llu\n", static_cast<unsigned long long>(m.seed));
  std::printf("seed_hash    %s\n", m.seed_hash.c_str());
  std::printf("created      %s\n", when(m.created_ms).c_str());
  if (sm.result)
    std::printf("status       finished %s, winners %s, reason %s\n", when(sm.result->ended_ms).c_str(),
                cod::server::seats_json(sm.result->winners).c_str(), sm.result->reason.c_str());
  else
    std::printf("status       playing\n");
  for (const seat_record& s : m.seats) {
    std::printf("seat %d       %s\tdeck %s", s.seat, s.name.c_str(), s.deck_json.c_str());
    if (s.team) std::printf("\tteam %d", *s.team);
    if (!s.champion.empty()) std::printf("\tchampion %s", s.champion.c_str());
    if (s.ai)
      std::printf("\tai (played by the engine, no token)\n");  // R12, R11.7
    else
      std::printf("\ttoken_hash %s\n", s.token_hash.c_str());
  }
  std::printf("actions      %zu\n", sm.actions.size());
  for (const action_record& a : sm.actions)
    std::printf("  %lld\tseat %d\t%s\tdigest %s\t%s\n", static_cast<long long>(a.seq), a.seat, when(a.at_ms).c_str(),
                hex16(a.digest).c_str(), a.action_json.c_str());
  std::printf("notes        %zu\n", sm.notes.size());
  for (const note_record& n : sm.notes) std::printf("  %s\t%s\n", when(n.at_ms).c_str(), n.text.c_str());
  return 0;
}

bool load_cards(const std::string& catalogue_path, cod::catalogue& cards) {
  if (auto e = cod::protocol::load_catalogue_file(catalogue_path, cards)) {
    std::fprintf(stderr, "cod-admin: catalogue %s: %s\n", catalogue_path.c_str(), e->to_string().c_str());
    return false;
  }
  return true;
}

void print_json(const nlohmann::json& j) { std::printf("%s\n", j.dump(2).c_str()); }

int cmd_verify(const cod::catalogue& cards, const stored_match& sm, bool json) {
  const verify_result v = verify(cards, sm);
  if (json) {
    print_json(admin::verify_to_json(sm, v));
    return v.ok ? 0 : 1;
  }
  for (const verify_check& c : v.checks)
    std::printf("%-5s %s: %s\n", c.ok ? "ok" : "FAIL", c.name.c_str(), c.detail.c_str());
  std::printf("%s %s\n", sm.match.match_id.c_str(), v.ok ? "verified" : "FAILED verification");
  return v.ok ? 0 : 1;
}

// Every match, oldest pages last (the listing's cursor). A match still being
// played (or left playing by a kill -9 the server has not recovered from
// yet) cannot pass "finished" and "game over": it must pass the rest (seed
// commitment, engine version, the log replaying with every digest).
int cmd_verify_all(const cod::catalogue& cards, match_reader& reader) {
  long finished_ok = 0, playing_ok = 0, failed = 0, total = 0;
  match_query q;
  q.limit = 500;
  for (;;) {
    const auto page = admin::read_for_route(reader.list_matches(q));
    for (const match_summary& m : page) {
      ++total;
      const auto sm = admin::read_for_route(reader.load_match(m.match_id));
      if (!sm) {
        ++failed;
        std::printf("FAIL %s: listed but not loaded\n", m.match_id.c_str());
        continue;
      }
      const verify_result v = verify(cards, *sm);
      bool ok = true;
      for (const verify_check& c : v.checks) {
        if (c.ok || (!sm->finished() && (c.name == "finished" || c.name == "game over"))) continue;
        ok = false;
        std::printf("FAIL %s %s: %s\n", m.match_id.c_str(), c.name.c_str(), c.detail.c_str());
      }
      if (!ok) ++failed;
      else if (sm->finished()) ++finished_ok;
      else ++playing_ok;
    }
    if (page.size() < static_cast<std::size_t>(q.limit)) break;
    q.has_before = true;
    q.before_created_ms = page.back().created_ms;
    q.before_match_id = page.back().match_id;
  }
  std::printf("verify-all: %ld matches: %ld finished verified, %ld playing verified so far (seed commitment, "
              "replay with digests), %ld failed\n",
              total, finished_ok, playing_ok, failed);
  return failed == 0 ? 0 : 1;
}

int cmd_log(const cod::catalogue& cards, const stored_match& sm, bool json) {
  const admin::match_log log = admin::render_log(cards, sm);
  if (json) print_json(admin::log_to_json(sm, log));
  else std::fputs(admin::log_to_text(sm, log).c_str(), stdout);
  return log.complete ? 0 : 1;
}

int cmd_state(const cod::catalogue& cards, const stored_match& sm, std::int64_t step) {
  const admin::state_result s = admin::state_at(cards, sm, step);
  if (!s.ok) {
    std::fprintf(stderr, "cod-admin: %s\n", s.error.c_str());
    return s.bad_step ? 2 : 1;
  }
  print_json(s.body);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::string db_path;
  std::string store;
  std::string catalogue_path = COD_DEFAULT_CATALOGUE;
  std::vector<std::string> args;
  admin::params search;  // list's filters, named as the HTTP API's parameters
  bool json = false, raw = false;
  std::string step_text;
  cod::admin_tool::accounts_options account_opts;
  if (const char* t = std::getenv("COD_ADMIN_TOKEN")) account_opts.token = t;
  for (int i = 1; i < argc; ++i) {
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "cod-admin: %s needs a value\n", argv[i]);
        std::exit(2);
      }
      return argv[++i];
    };
    const std::string a = argv[i];
    if (a == "--db") db_path = next();
    else if (a == "--store") store = next();
    else if (a == "--catalogue") catalogue_path = next();
    else if (a == "--json") json = true;
    else if (a == "--raw") raw = true;
    else if (a == "--step") step_text = next();
    else if (a == "--url") account_opts.url = next();
    else if (a == "--token") account_opts.token = next();
    else if (a == "--status" || a == "--player" || a == "--mode" || a == "--winner" || a == "--from" ||
             a == "--to" || a == "--limit" || a == "--offset" || a == "--before" || a == "--tournament")
      search.emplace_back(a.substr(2), next());
    else if (a == "--help" || a == "-h") {
      usage(stdout);
      return 0;
    } else if (a[0] == '-') {
      std::fprintf(stderr, "cod-admin: unknown option %s\n", a.c_str());
      usage(stderr);
      return 2;
    } else {
      args.push_back(a);
    }
  }
  if (!args.empty() && args[0] == "accounts") {
    if (!db_path.empty() || !store.empty()) {
      std::fprintf(stderr, "cod-admin: accounts go through the server's admin API (--url), not its database\n");
      return 2;
    }
    for (const auto& [name, value] : search) {
      if (name != "limit") {
        std::fprintf(stderr, "cod-admin: --%s is a filter of 'list'\n", name.c_str());
        return 2;
      }
      account_opts.limit = value;
    }
    account_opts.json = json;
    return cod::admin_tool::run_accounts(args, account_opts);
  }
  if (!account_opts.url.empty()) {
    std::fprintf(stderr, "cod-admin: --url goes with the accounts commands\n");
    return 2;
  }
  const std::vector<std::string> with_id = {"show", "log", "state", "verify", "export", "draft"};
  const bool needs_id = !args.empty() && std::find(with_id.begin(), with_id.end(), args[0]) != with_id.end();
  const bool no_id = !args.empty() && (args[0] == "list" || args[0] == "verify-all");
  // --store is the server's setting of the same name (docs/persistence.md).
  if (!store.empty() && !db_path.empty()) {
    std::fprintf(stderr, "cod-admin: give --db or --store, not both\n");
    return 2;
  }
  if (store.starts_with("sqlite:")) db_path = store.substr(7);
  const bool postgres = store.starts_with("postgresql://") || store.starts_with("postgres://");
  if (!store.empty() && !postgres && db_path.empty()) {
    std::fprintf(stderr, "cod-admin: --store takes sqlite:PATH or a PostgreSQL URI (postgresql://...)\n");
    return 2;
  }
  if ((db_path.empty() && !postgres) || args.empty() || (!no_id && !needs_id) || args.size() != (needs_id ? 2u : 1u)) {
    usage(stderr);
    return 2;
  }
  match_query q;
  if (args[0] == "list") {
    if (auto e = admin::query_from_params(search, q)) {
      std::fprintf(stderr, "cod-admin: --%s: %s\n", e->param.c_str(), e->message.c_str());
      return 2;
    }
  } else if (!search.empty()) {
    std::fprintf(stderr, "cod-admin: --%s is a filter of 'list'\n", search[0].first.c_str());
    return 2;
  }
  std::int64_t step = -1;
  if (args[0] == "state") {
    auto [p, ec] = std::from_chars(step_text.data(), step_text.data() + step_text.size(), step);
    if (step_text.empty() || ec != std::errc{} || p != step_text.data() + step_text.size() || step < 0) {
      std::fprintf(stderr, "cod-admin: state needs --step N (an action number, 0: after the setup)\n");
      return 2;
    }
  } else if (!step_text.empty()) {
    std::fprintf(stderr, "cod-admin: --step goes with 'state'\n");
    return 2;
  }

  // Everything after the open reads through the store's read interface
  // (match_reader), as the admin API does.
  std::unique_ptr<match_reader> reader;
  if (postgres) {
    auto opened = pg_reader::open(store);
    if (!opened) {
      std::fprintf(stderr, "cod-admin: %s\n", opened.error().message().c_str());
      return 1;
    }
    reader = std::move(*opened);
  } else {
    auto opened = sqlite_reader::open(db_path);
    if (!opened) {
      std::fprintf(stderr, "cod-admin: %s\n", opened.error().message().c_str());
      return 1;
    }
    reader = std::move(*opened);
  }
  try {
    if (args[0] == "list") {
      const auto found = admin::read_for_route(reader->list_matches(q));
      if (json) {
        print_json(admin::listing_to_json(found, q));
        return 0;
      }
      return cmd_list(found);
    }
    if (args[0] == "verify-all") {
      cod::catalogue cards;
      if (!load_cards(catalogue_path, cards)) return 1;
      return cmd_verify_all(cards, *reader);
    }
    const auto sm = admin::read_for_route(reader->load_match(args[1]));
    if (!sm) {
      std::fprintf(stderr, "cod-admin: no match '%s' in %s\n", args[1].c_str(), db_path.c_str());
      return 1;
    }
    if (args[0] == "show") {
      if (json) {
        print_json(admin::record_to_json(*sm));
        return 0;
      }
      return cmd_show(*sm);
    }
    if (args[0] == "export") {
      print_json(admin::export_match(*sm));
      return 0;
    }
    if (args[0] == "draft" && !admin::has_draft_record(*sm)) {
      std::fprintf(stderr, "cod-admin: no draft record for match '%s': its format '%s' is not drafted\n",
                   args[1].c_str(), sm->match.format.c_str());
      return 1;
    }
    if (args[0] == "log" && raw) {
      print_json(admin::raw_log_to_json(*sm));
      return 0;
    }
    cod::catalogue cards;
    if (!load_cards(catalogue_path, cards)) return 1;
    if (args[0] == "log") return cmd_log(cards, *sm, json);
    if (args[0] == "state") return cmd_state(cards, *sm, step);
    if (args[0] == "draft") {
      const nlohmann::json d = admin::draft_to_json(cards, *sm);
      print_json(d);
      return d["complete"].get<bool>() ? 0 : 1;
    }
    return cmd_verify(cards, *sm, json);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "cod-admin: %s\n", e.what());
    return 1;
  }
}
