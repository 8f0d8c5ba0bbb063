// cod-admin: read-only inspection of a cod-server database (docs/persistence.md).
//
//   cod-admin --db PATH list [--status playing|finished] [--player NAME] [--limit N]
//   cod-admin --db PATH show MATCH_ID
//   cod-admin --db PATH verify MATCH_ID      exit 0: every check passed, 1: not
//
// Opens the database read-only (safe while the server runs: WAL readers do
// not block its writer). --catalogue defaults to the shipped catalogue.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>
#include <vector>

#include "cod/protocol/catalogue_json.hpp"
#include "persist/recovery.hpp"
#include "persist/sqlite_store.hpp"
#include "persist/sqlite_util.hpp"

#ifndef COD_DEFAULT_CATALOGUE
#define COD_DEFAULT_CATALOGUE "config/cards/catalogue.json"
#endif

namespace {

using namespace cod::server;

void usage(std::FILE* to) {
  std::fprintf(to,
               "usage: cod-admin --db PATH [--catalogue PATH] COMMAND\n"
               "commands:\n"
               "  list [--status playing|finished] [--player NAME] [--limit N]   matches, newest first\n"
               "  show MATCH_ID      the record, its seats, every action (one per line) and notes\n"
               "  verify MATCH_ID    seed commitment, replay with digests, result; exit 0 if all pass\n"
               "The database is opened read-only.\n");
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

int cmd_list(sqlite_reader& r, const match_query& q) {
  for (const match_summary& m : r.list_matches(q)) {
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
      std::printf("\twinners=%s\treason=%s", cod::server::sql::seats_json(m.result->winners).c_str(), m.result->reason.c_str());
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
                cod::server::sql::seats_json(sm.result->winners).c_str(), sm.result->reason.c_str());
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

int cmd_verify(const std::string& catalogue_path, const stored_match& sm) {
  cod::catalogue cards;
  if (auto e = cod::protocol::load_catalogue_file(catalogue_path, cards)) {
    std::fprintf(stderr, "cod-admin: catalogue %s: %s\n", catalogue_path.c_str(), e->to_string().c_str());
    return 1;
  }
  const verify_result v = verify(cards, sm);
  for (const verify_check& c : v.checks)
    std::printf("%-5s %s: %s\n", c.ok ? "ok" : "FAIL", c.name.c_str(), c.detail.c_str());
  std::printf("%s %s\n", sm.match.match_id.c_str(), v.ok ? "verified" : "FAILED verification");
  return v.ok ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  std::string db_path;
  std::string catalogue_path = COD_DEFAULT_CATALOGUE;
  std::vector<std::string> args;
  match_query q;
  for (int i = 1; i < argc; ++i) {
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "cod-admin: %s needs a value\n", argv[i]);
        std::exit(2);
      }
      return argv[++i];
    };
    if (!std::strcmp(argv[i], "--db")) db_path = next();
    else if (!std::strcmp(argv[i], "--catalogue")) catalogue_path = next();
    else if (!std::strcmp(argv[i], "--status")) q.status = next();
    else if (!std::strcmp(argv[i], "--player")) q.player = next();
    else if (!std::strcmp(argv[i], "--limit")) q.limit = std::atoi(next().c_str());
    else if (!std::strcmp(argv[i], "--help") || !std::strcmp(argv[i], "-h")) {
      usage(stdout);
      return 0;
    } else if (argv[i][0] == '-') {
      std::fprintf(stderr, "cod-admin: unknown option %s\n", argv[i]);
      usage(stderr);
      return 2;
    } else {
      args.emplace_back(argv[i]);
    }
  }
  const bool needs_id = !args.empty() && (args[0] == "show" || args[0] == "verify");
  if (db_path.empty() || args.empty() || (args[0] != "list" && !needs_id) || args.size() != (needs_id ? 2u : 1u) ||
      (!q.status.empty() && q.status != "playing" && q.status != "finished")) {
    usage(stderr);
    return 2;
  }

  std::string error;
  auto reader = sqlite_reader::open(db_path, error);
  if (!reader) {
    std::fprintf(stderr, "cod-admin: %s\n", error.c_str());
    return 1;
  }
  try {
    if (args[0] == "list") return cmd_list(*reader, q);
    const auto sm = reader->load_match(args[1]);
    if (!sm) {
      std::fprintf(stderr, "cod-admin: no match '%s' in %s\n", args[1].c_str(), db_path.c_str());
      return 1;
    }
    return args[0] == "show" ? cmd_show(*sm) : cmd_verify(catalogue_path, *sm);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "cod-admin: %s\n", e.what());
    return 1;
  }
}
