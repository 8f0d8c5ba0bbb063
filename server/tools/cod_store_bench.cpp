// cod-store-bench: how many actions per second the match store persists on
// its own (SQLite or PostgreSQL), without the network or a load driver
// sharing the CPU.
// A benchmark, not a test (docs/persistence.md, README "Performance").
//
// N matches are played at once, the way rooms use the store: each match has
// one write in flight (a room waits for its action's callback before it
// broadcasts and takes the next one), so the writer's group commit sees up to
// N writes per transaction. Each match is created with two seats, gets
// --actions appends of a realistic action (the JSON of a play, a digest), is
// finished, and a new match takes its place in the same room (N rooms, one
// match at a time each). It runs --duration-sec seconds after a warm-up and
// prints persisted actions/s, the commit latency (append -> its callback)
// percentiles, the batches and their mean size, and the CPU the process used
// per action.
//
//   cod-store-bench [--matches N] [--actions A] [--duration-sec S]
//                   [--store sqlite:PATH | --store postgresql://... | --db PATH]...
//                   [--sync normal|full] [--max-batch B] [--node-id ID]
//
// Each --store is measured in turn, in the order given (so one run compares
// SQLite and PostgreSQL on the same machine state); `sqlite:` alone is a
// temporary SQLite database, removed at the end. A PostgreSQL database gets
// matches whose ids are new to it (bench-<pid>-<time>-N) and keeps them.
// Defaults: 1000 matches, 30 actions per match (a duel's usual length),
// 10 s, one temporary SQLite database, synchronous=NORMAL (the SQLite
// store's default), batches of up to 1024.
//
// --node-id ID measures a cluster node's writes: each PostgreSQL store is
// opened fenced as node ID (pg_options::node_id, pg_fence.hpp) and the N
// rooms are claimed for it (claim_room, a 10-minute lease) before their
// first match is written, so every write passes the fence and pays for it
// (the lease rows locked, each match's state read afresh, in every batch).
// SQLite has no fence: its stores ignore it. The rooms are released at the
// end.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <unistd.h>

#include "persist/pg/pg_store.hpp"
#include "persist/sqlite/sqlite_store.hpp"

namespace {

using clock_type = std::chrono::steady_clock;

struct options {
  int matches = 1000;
  int actions = 30;
  double duration_sec = 10;
  std::vector<std::string> stores;  // store settings, measured in turn
  cod::server::sqlite_options::sync sync = cod::server::sqlite_options::sync::normal;
  std::size_t max_batch = 1024;
  std::string node_id;  // PostgreSQL: fenced as this node; "": unfenced
};

// Long enough for any run: a lease that expired would still name the node
// (only another node's claim takes it), so even then the writes pass.
constexpr std::int64_t bench_lease_ms = 10 * 60 * 1000;

void usage(std::FILE* to) {
  std::fputs(
      "usage: cod-store-bench [--matches N] [--actions A] [--duration-sec S]\n"
      "                       [--store sqlite:PATH | --store postgresql://... | --db PATH]...\n"
      "                       [--sync normal|full] [--max-batch B] [--node-id ID]\n"
      "Persists actions of N concurrent matches (one write in flight per match, as rooms do)\n"
      "through the server's store and prints actions/s and the commit latency; each --store\n"
      "in turn (default: a temporary SQLite database; sqlite: alone is one too).\n"
      "--node-id ID: PostgreSQL stores are opened fenced as node ID and claim the matches'\n"
      "rooms first, as a cluster node's (SQLite ignores it).\n",
      to);
}

bool parse_args(int argc, char** argv, options& o) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    if (a == "-h" || a == "--help") {
      usage(stdout);
      std::exit(0);
    }
    if (i + 1 >= argc) return false;
    const std::string v = argv[++i];
    char* end = nullptr;
    if (a == "--matches") o.matches = static_cast<int>(std::strtol(v.c_str(), &end, 10));
    else if (a == "--actions") o.actions = static_cast<int>(std::strtol(v.c_str(), &end, 10));
    else if (a == "--duration-sec") o.duration_sec = std::strtod(v.c_str(), &end);
    else if (a == "--max-batch") o.max_batch = std::strtoul(v.c_str(), &end, 10);
    else if (a == "--node-id" && !v.empty()) o.node_id = v;
    else if (a == "--db") o.stores.push_back("sqlite:" + v);
    else if (a == "--store" && (v.starts_with("sqlite:") || v.starts_with("postgresql://") ||
                                v.starts_with("postgres://")))
      o.stores.push_back(v);
    else if (a == "--sync" && (v == "normal" || v == "full"))
      o.sync = v == "full" ? cod::server::sqlite_options::sync::full : cod::server::sqlite_options::sync::normal;
    else return false;
    if (end && *end) return false;
  }
  if (o.stores.empty()) o.stores.push_back("sqlite:");
  return o.matches > 0 && o.actions > 0 && o.duration_sec > 0 && o.max_batch > 0;
}

double cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

std::int64_t wall_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// A duel's row as a room writes it (sizes alike; the contents do not matter).
cod::server::match_record bench_match(const std::string& id, const std::string& room) {
  cod::server::match_record m;
  m.match_id = id;
  m.room_id = room;
  m.mode = "duel";
  m.format = "preconstructed";
  m.options_json = R"({"exhaustion":false})";
  m.rules_version = "bench";
  m.engine_version = 1;
  m.seed = 7919;
  m.seed_hash = std::string(64, 'a');
  m.created_ms = wall_ms();
  for (int seat = 0; seat < 2; ++seat) {
    cod::server::seat_record r;
    r.seat = seat;
    r.name = seat == 0 ? "alice" : "bob";
    r.token_hash = std::string(64, 'b');
    r.deck_json = R"({"preconstructed":1})";
    m.seats.push_back(std::move(r));
  }
  return m;
}

// The driver's shared state. Callbacks run on the store's writer thread, one
// at a time, so only the counters the main thread reads are atomic.
struct bench {
  cod::server::match_store* store = nullptr;
  std::string prefix;  // of the match ids: new to the database
  options opt;
  std::atomic<bool> stop{false};
  std::atomic<bool> counting{false};
  std::atomic<std::uint64_t> persisted{0};
  std::atomic<std::uint64_t> failures{0};
  std::atomic<int> running{0};
  std::vector<std::uint32_t> latency_us;  // writer thread only
  std::uint64_t next_match = 0;           // writer thread only, after the start
  std::mutex done_mu;
  std::condition_variable done_cv;

  // One match slot: a chain of writes, one in flight, and the room its
  // matches are played in, one after the other.
  struct slot {
    std::string room_id;
    std::string match_id;
    std::int64_t seq = 0;
  };
  std::vector<slot> slots;

  // The callback of a write: when it is durable, and whether it was stored.
  cod::server::match_store::done_fn written(std::size_t i, clock_type::time_point t0, bool action) {
    return [this, i, t0, action](const cod::server::status& st) { on_written(i, st.is_ok(), t0, action); };
  }

  void start_match(std::size_t i) {
    slot& s = slots[i];
    s.match_id = prefix + std::to_string(next_match++);
    s.seq = 0;
    const auto t0 = clock_type::now();
    store->create_match(bench_match(s.match_id, s.room_id), written(i, t0, false));
  }

  void append(std::size_t i) {
    slot& s = slots[i];
    cod::server::action_record a;
    a.seq = ++s.seq;
    a.seat = static_cast<int>(s.seq % 2);
    a.action_json = s.seq % 3 == 0 ? R"({"type":"end_phase"})" : R"({"type":"play","card":3,"line":"upper"})";
    a.digest = 0x9E3779B97F4A7C15ULL * static_cast<std::uint64_t>(s.seq);
    a.at_ms = wall_ms();
    const auto t0 = clock_type::now();
    store->append_action(s.match_id, a, written(i, t0, true));
  }

  void finish(std::size_t i) {
    cod::server::match_result r;
    r.winners = {0};
    r.reason = "fort_destroyed";
    r.ended_ms = wall_ms();
    const auto t0 = clock_type::now();
    store->finish_match(slots[i].match_id, r, written(i, t0, false));
  }

  void on_written(std::size_t i, bool ok, clock_type::time_point t0, bool action) {
    if (!ok) failures++;
    if (action && ok && counting) {
      persisted++;
      const auto us = std::chrono::duration_cast<std::chrono::microseconds>(clock_type::now() - t0).count();
      latency_us.push_back(static_cast<std::uint32_t>(std::min<long long>(us, 0xffffffffLL)));
    }
    if (stop || !ok) {
      std::lock_guard lk(done_mu);
      if (--running == 0) done_cv.notify_all();
      return;
    }
    slot& s = slots[i];
    if (s.seq >= opt.actions) {
      if (action) return finish(i);
      return start_match(i);  // the finish is stored: the next match
    }
    append(i);
  }
};

double percentile(std::vector<std::uint32_t>& v, double p) {
  if (v.empty()) return 0;
  const auto k = static_cast<std::size_t>(p * static_cast<double>(v.size() - 1));
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(k), v.end());
  return v[k] / 1000.0;
}

// Opens the store a setting names; `sqlite:` alone: a temporary database in
// `tmp` (created here).
cod::server::result<std::unique_ptr<cod::server::match_store>> open_store(const options& opt,
                                                                          const std::string& setting,
                                                                          std::filesystem::path& tmp,
                                                                          std::string& described) {
  if (!setting.starts_with("sqlite:")) {
    described = "PostgreSQL " + cod::server::redact_uri(setting) + " (synchronous_commit as the server says, max batch " +
                std::to_string(opt.max_batch) + ", " +
                (opt.node_id.empty() ? std::string("unfenced") : "fenced as node " + opt.node_id) + ")";
    auto opened =
        cod::server::pg_store::open({.uri = setting, .max_batch = opt.max_batch, .node_id = opt.node_id});
    if (!opened) return opened.error();
    return std::unique_ptr<cod::server::match_store>(std::move(*opened));
  }
  std::string path = setting.substr(7);
  if (path.empty()) {
    std::string tmpl = (std::filesystem::temp_directory_path() / "cod-store-bench.XXXXXX").string();
    if (!mkdtemp(tmpl.data())) return cod::server::status::io_error("mkdtemp failed");
    tmp = tmpl;
    path = (tmp / "bench.db").string();
  }
  described = "SQLite " + path + " (synchronous=" +
              (opt.sync == cod::server::sqlite_options::sync::full ? "FULL" : "NORMAL") + ", max batch " +
              std::to_string(opt.max_batch) + (opt.node_id.empty() ? "" : ", no fence: --node-id ignored") + ")";
  cod::server::sqlite_options so;
  so.path = path;
  so.synchronous = opt.sync;
  so.max_batch = opt.max_batch;
  auto opened = cod::server::sqlite_store::open(so);
  if (!opened) return opened.error();
  return std::unique_ptr<cod::server::match_store>(std::move(*opened));
}

// Claims (claim) or releases (!claim) every slot's room for opt.node_id;
// false, saying why, when one fails.
bool leases(cod::server::match_store& store, const options& opt, const std::vector<bench::slot>& slots, bool claim) {
  cod::server::room_directory* d = store.directory();
  if (!d) {
    std::fprintf(stderr, "cod-store-bench: this store has no room directory\n");
    return false;
  }
  for (const bench::slot& s : slots) {
    if (claim) {
      const cod::server::result<bool> r = d->claim_room(s.room_id, opt.node_id, bench_lease_ms);
      if (r && *r) continue;
      std::fprintf(stderr, "cod-store-bench: claiming room %s for node %s: %s\n", s.room_id.c_str(),
                   opt.node_id.c_str(), r ? "another node holds it" : r.error().message().c_str());
    } else {
      const cod::server::status st = d->release_room(s.room_id, opt.node_id);
      if (st.is_ok()) continue;
      std::fprintf(stderr, "cod-store-bench: releasing room %s: %s\n", s.room_id.c_str(), st.message().c_str());
    }
    return false;
  }
  return true;
}

// One store's measurement; false when it could not run or a write failed.
bool run(const options& opt, const std::string& setting) {
  std::filesystem::path dir;
  std::string described;
  auto opened = open_store(opt, setting, dir, described);
  if (!opened) {
    std::fprintf(stderr, "cod-store-bench: %s\n", opened.error().message().c_str());
    return false;
  }
  auto store = std::move(*opened);

  bench b;
  b.store = store.get();
  b.opt = opt;
  b.prefix = "bench-" + std::to_string(getpid()) + "-" + std::to_string(wall_ms()) + "-";
  b.slots.resize(static_cast<std::size_t>(opt.matches));
  for (std::size_t i = 0; i < b.slots.size(); ++i) b.slots[i].room_id = b.prefix + "room-" + std::to_string(i);
  // Fenced: a room's writes pass only once its lease names this node.
  const bool fenced = !opt.node_id.empty() && !setting.starts_with("sqlite:");
  if (fenced && !leases(*store, opt, b.slots, true)) return false;
  b.latency_us.reserve(1 << 20);
  b.running = opt.matches;
  // The matches exist before the first action (flush), as in rooms. Then
  // every chain starts with its first append; from there its callbacks (on
  // the writer thread) drive it. This thread touches slot i only before the
  // push that hands it to the writer; next_match is the writer's from now on.
  for (std::size_t i = 0; i < b.slots.size(); ++i) {
    b.slots[i].match_id = b.prefix + std::to_string(b.next_match++);
    store->create_match(bench_match(b.slots[i].match_id, b.slots[i].room_id), {});
  }
  store->flush();
  for (std::size_t i = 0; i < b.slots.size(); ++i) b.append(i);

  const double warmup = std::min(2.0, opt.duration_sec / 5);
  std::this_thread::sleep_for(std::chrono::duration<double>(warmup));
  const std::uint64_t batches0 = store->commits();
  const double cpu0 = cpu_seconds();
  const auto t0 = clock_type::now();
  b.counting = true;
  std::this_thread::sleep_for(std::chrono::duration<double>(opt.duration_sec));
  b.counting = false;
  const double secs = std::chrono::duration<double>(clock_type::now() - t0).count();
  const double cpu = cpu_seconds() - cpu0;
  const std::uint64_t batches = store->commits() - batches0;
  b.stop = true;
  {
    std::unique_lock lk(b.done_mu);
    b.done_cv.wait(lk, [&] { return b.running == 0; });
  }
  store->flush();
  const std::uint64_t n = b.persisted;
  std::printf("store: %s\n", described.c_str());
  std::printf("matches in flight: %d, %d actions each, then finished and replaced\n", opt.matches, opt.actions);
  std::printf("persisted actions: %llu in %.1f s = %.0f/s\n", static_cast<unsigned long long>(n), secs,
              static_cast<double>(n) / secs);
  std::printf("transactions: %llu (%.1f writes each)\n", static_cast<unsigned long long>(batches),
              batches ? static_cast<double>(n) / static_cast<double>(batches) : 0.0);
  std::printf("commit latency, append -> callback (ms): p50 %.3f  p99 %.3f  max %.3f\n",
              percentile(b.latency_us, 0.50), percentile(b.latency_us, 0.99), percentile(b.latency_us, 1.0));
  // The bench's own process; PostgreSQL's server processes are not in it.
  std::printf("cpu (this process): %.2f s (%.0f%% of one core), %.1f us per action\n", cpu, 100 * cpu / secs,
              n ? 1e6 * cpu / static_cast<double>(n) : 0.0);
  std::printf("failed writes: %llu\n", static_cast<unsigned long long>(b.failures.load()));
  std::fflush(stdout);
  const bool released = !fenced || leases(*store, opt, b.slots, false);
  store.reset();
  if (!dir.empty()) std::filesystem::remove_all(dir);
  return b.failures == 0 && released;
}

}  // namespace

int main(int argc, char** argv) {
  options opt;
  if (!parse_args(argc, argv, opt)) {
    usage(stderr);
    return 2;
  }
  bool ok = true;
  for (std::size_t i = 0; i < opt.stores.size(); ++i) {
    if (i) std::printf("\n");
    ok = run(opt, opt.stores[i]) && ok;
  }
  return ok ? 0 : 1;
}
