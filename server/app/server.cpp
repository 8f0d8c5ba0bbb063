#include "app/server.hpp"

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <optional>
#include <sstream>
#include <thread>
#include <vector>

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/thread_pool.hpp>
#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include "account_service/account_api.hpp"
#include "account_service/account_workers.hpp"
#include "admin/admin_api.hpp"
#include "persist/account_store.hpp"
#include "queue_service/cluster_queue.hpp"
#include "queue_service/queue_service.hpp"
#include "cod/engine/catalogue.hpp"
#include "cod/protocol/catalogue_json.hpp"
#include "cluster/cluster_node.hpp"
#include "cod/protocol/messages.hpp"
#include "common/environment.hpp"
#include "common/metrics.hpp"
#include "net/connection_limits.hpp"
#include "net/forwarded_for.hpp"
#include "net/listener.hpp"
#include "net/net_context.hpp"
#include "net/static_files.hpp"
#include "net/strand_executor.hpp"
#include "persist/memory/memory_store.hpp"
#include "persist/pg/pg_store.hpp"
#include "persist/sqlite/sqlite_store.hpp"
#include "room/ai_pool.hpp"
#include "room/client_session.hpp"
#include "room/room.hpp"
#include "room/room_registry.hpp"
#include "league_service/league_api.hpp"
#include "league_service/league_service.hpp"
#include "tournament_service/organiser_api.hpp"
#include "tournament_service/tournament_service.hpp"

namespace cod::server {

namespace net = boost::asio;

namespace {

// Descriptors kept apart from connections: the store (database, WAL, shared
// memory, lock), log files, epoll and eventfds, the listener and its reserve.
constexpr long descriptors_for_the_rest = 64;
// Connections the health listener (health_listen) serves at once, within
// descriptors_for_the_rest.
constexpr int health_connections = 16;

// Raises the soft descriptor limit to the hard one (a default soft limit of
// 1024 is below max_connections' default) and returns it; -1 when unknown.
long raise_descriptor_limit() {
  rlimit rl{};
  if (::getrlimit(RLIMIT_NOFILE, &rl) != 0) return -1;
  if (rl.rlim_cur != rl.rlim_max) {
    rlimit raised = rl;
    raised.rlim_cur = rl.rlim_max;
    if (::setrlimit(RLIMIT_NOFILE, &raised) == 0) rl = raised;
  }
  return rl.rlim_cur == RLIM_INFINITY ? -1 : static_cast<long>(rl.rlim_cur);
}

// The connection limits as configured, lowered to what the descriptor limit
// allows: out of descriptors, a server cannot even accept the connection it
// would refuse (200 slowloris connections under ulimit -n 128 locked every
// client out).
std::unique_ptr<connection_limits> make_connection_limits(const config& cfg) {
  long http = cfg.max_http_connections, ws = cfg.max_connections;
  const long limit = raise_descriptor_limit();
  if (limit > 0) {
    const long budget = std::max(limit - descriptors_for_the_rest, 16L);
    if (http + ws > budget) {
      http = std::min(http, std::max(8L, budget / 4));
      ws = std::min(ws, budget - http);
      spdlog::warn("descriptor limit {} is below max_connections {} + max_http_connections {} + {}: using {} and {} "
                   "(raise ulimit -n to serve more)",
                   limit, cfg.max_connections, cfg.max_http_connections, descriptors_for_the_rest, ws, http);
    }
  }
  return std::make_unique<connection_limits>(cfg.max_connections_per_address, static_cast<int>(http),
                                             static_cast<int>(ws), parse_trusted_proxies(cfg.trusted_proxies),
                                             cfg.max_http_connections_per_address);
}

}  // namespace

struct server::impl {
  // Declared so that what the io_context's pending handlers still use
  // (metrics, catalogue, services) outlives it, and what holds its executors
  // (rooms, listener, timers) goes first.
  config cfg;
  // The one wall clock and random source of the rooms, the lobby, the
  // tournament and league services and the admin API.
  environment& env = environment::system();
  metrics stats;
  catalogue cat;
  std::unique_ptr<match_store> store;
  room_services room_svc;
  lobby_services lobby;
  std::unique_ptr<admin::api> admin_api;
  // Tournaments: their rooms call back into the service, so it outlives
  // the io_context (whose handlers may hold rooms) and the registry.
  std::unique_ptr<tournament_service> tournaments;
  std::unique_ptr<organiser_api> organiser;
  // Mutation leagues (docs/league.md): like the tournaments.
  std::unique_ptr<league_service> leagues;
  std::unique_ptr<league_api> league_routes;
  // Player accounts (docs/accounts.md): the service, its routes, and the
  // threads that hash passwords (never the io threads).
  std::unique_ptr<accounts::account_service> account_svc;
  // The public ladders and players' pages: accounts and the match store's reads.
  std::unique_ptr<accounts::player_pages> player_pages;
  std::unique_ptr<accounts::account_api> account_routes;
  std::unique_ptr<accounts::account_admin_routes> account_admin;
  std::unique_ptr<accounts::account_workers> account_pool;
  // The matchmaking queue (docs/queue.md): with accounts only (a ticket is an account's).
  std::shared_ptr<queue_service> queue;
  // A cluster's queue instead (docs/queue.md, "In a cluster"): the tickets
  // in the store, one node matching every node's.
  std::shared_ptr<cluster_queue> cluster_q;
  // The admin API's requests block (SQLite reads, replays): one thread of
  // their own keeps them off the io threads the rooms run on, and admins
  // queue behind each other rather than load both cores.
  std::optional<net::thread_pool> admin_pool;
  std::shared_ptr<net_context> net_ctx;
  // config health_listen: /healthz and /metrics on places of their own.
  // Declared before the io_context, so destroyed after it: an HTTP session
  // still queued there at shutdown gives its place back on destruction.
  std::unique_ptr<connection_limits> health_limits;
  net::io_context ioc;
  // The house bots' decisions (docs/ai-server.md): threads of their own,
  // never the io threads. Its jobs post to rooms' strands on `ioc`, so it is
  // stopped (its threads joined) in wait() and destroyed before `ioc`; they
  // hold rooms by weak_ptr only.
  std::unique_ptr<ai_pool> ai;
  std::shared_ptr<room_registry> rooms;
  // A cluster node (node_id on a PostgreSQL store): its leases and lobby.
  std::unique_ptr<cluster_node> cluster;
  std::shared_ptr<listener> lst;
  std::shared_ptr<listener> health_lst;
  std::optional<net::executor_work_guard<net::io_context::executor_type>> work;
  net::steady_timer stop_timer{ioc};
  // Every second: the leagues' phase clocks and duels (league_service::tick),
  // on the admin thread (it reads the store).
  net::steady_timer league_timer{ioc};
  std::optional<net::signal_set> signals;
  std::vector<std::thread> threads;
  std::atomic<bool> stop_requested{false};
  std::chrono::steady_clock::time_point stop_deadline;
  std::mutex wait_mutex;
  bool waited = false;

  explicit impl(config c, std::unique_ptr<match_store> s) : cfg(std::move(c)), ioc(cfg.threads) {
    store = std::move(s);
  }

  // Idempotent: waits for a running admin request (it reads the store).
  void stop_admin_pool() {
    // The account workers too: their requests read the store and post their
    // answers to the io threads.
    if (account_pool) account_pool->stop();
    if (!admin_pool) return;
    admin_pool->join();
    admin_pool.reset();
  }

  void tick_leagues() {
    league_timer.expires_after(std::chrono::seconds(1));
    league_timer.async_wait([this](const boost::system::error_code& ec) {
      if (ec || stop_requested || !admin_pool) return;
      net::post(*admin_pool, [this] { leagues->tick(); });
      tick_leagues();
    });
  }

  void poll_stop() {
    if (net_ctx->connections.size() == 0 || std::chrono::steady_clock::now() >= stop_deadline) {
      if (net_ctx->connections.size() != 0)
        spdlog::warn("shutdown: {} connections did not close in time", net_ctx->connections.size());
      work.reset();
      if (signals) {
        boost::system::error_code ignored;
        signals->cancel(ignored);
      }
      ioc.stop();
      return;
    }
    stop_timer.expires_after(std::chrono::milliseconds(20));
    stop_timer.async_wait([this](const boost::system::error_code&) { poll_stop(); });
  }
};

server::server(config cfg, std::unique_ptr<match_store> store)
    : impl_(std::make_unique<impl>(std::move(cfg), std::move(store))) {}

server::~server() {
  if (!impl_->threads.empty()) {
    stop();
    wait();
  }
  impl_->stop_admin_pool();
  if (impl_->cluster_q) impl_->cluster_q->stop();  // it calls the store
  if (impl_->cluster) impl_->cluster->stop();  // it calls the store
  // The store goes first: its writer thread ends, and the callbacks it still
  // holds (each keeps its room alive) are destroyed while the io_context the
  // rooms' strands belong to still exists.
  if (impl_->store) {
    impl_->store->flush();
    impl_->store.reset();
  }
  // Then everything that holds a strand or timer of the io_context; what
  // its queued handlers still hold goes with the io_context itself.
  impl_->lst.reset();
  impl_->health_lst.reset();
  impl_->lobby.find_event_seat = nullptr;
  impl_->lobby.follow_league = nullptr;
  impl_->lobby.league_act = nullptr;
  impl_->lobby.league_mutations = nullptr;
  impl_->lobby.authenticate = nullptr;
  impl_->lobby.queue = nullptr;
  impl_->lobby.unqueue = nullptr;
  impl_->lobby.leave_queue = nullptr;
  if (impl_->queue) impl_->queue->stop();
  impl_->queue.reset();
  impl_->cluster_q.reset();
  impl_->leagues.reset();      // it holds the registry
  impl_->tournaments.reset();  // it holds the registry
  impl_->lobby.rooms.reset();
  impl_->rooms.reset();
}

std::uint16_t server::port() const { return impl_->lst ? impl_->lst->local_endpoint().port() : 0; }
std::uint16_t server::health_port() const {
  return impl_->health_lst ? impl_->health_lst->local_endpoint().port() : 0;
}
const metrics& server::stats() const { return impl_->stats; }
match_store& server::store() { return *impl_->store; }

status server::start() {
  auto& d = *impl_;
  const auto& cfg = d.cfg;

  if (auto e = protocol::load_catalogue_file(cfg.catalogue, d.cat)) {
    return status::invalid("catalogue " + cfg.catalogue + ": " + e->to_string());
  }

  if (!d.store) {
    const store_setting where = effective_store(cfg);
    if (where.k == store_setting::kind::memory) {
      spdlog::warn("store: in memory (store \"memory:\" or db \":memory:\"): nothing survives a restart");
      d.store = std::make_unique<memory_store>();
    } else if (where.k == store_setting::kind::postgres) {
      // A node of a cluster: its writes are fenced by the room leases
      // (pg_fence.hpp), which cluster_node takes before any room writes.
      auto opened = pg_store::open({.uri = where.target, .node_id = cfg.node_id});
      if (!opened) return opened.error();
      d.store = std::move(*opened);
      spdlog::info("store: PostgreSQL {}", redact_uri(where.target));
    } else {
      std::error_code fec;
      const auto dir = std::filesystem::path(where.target).parent_path();
      if (!dir.empty()) std::filesystem::create_directories(dir, fec);
      if (fec) {
        return status::io_error("cannot create the directory of " + where.target + ": " + fec.message());
      }
      sqlite_options o;
      o.path = where.target;
      o.busy_max_ms = cfg.store_busy_max_sec * 1000;
      auto opened = sqlite_store::open(o);
      if (!opened) return opened.error();
      d.store = std::move(*opened);
      spdlog::info("store: SQLite {}", where.target);
    }
  }

  d.room_svc.cat = &d.cat;
  d.room_svc.store = d.store.get();
  d.room_svc.stats = &d.stats;
  d.room_svc.cfg = cfg;
  d.room_svc.env = &d.env;
  {
    ai_pool::options o;
    o.threads = cfg.ai_threads > 0 ? cfg.ai_threads : ai_pool::default_threads();
    o.max_pending = static_cast<std::size_t>(cfg.ai_max_pending);
    o.think_ms = cfg.bot_think_ms;
    d.ai = std::make_unique<ai_pool>(o, &d.stats);
    d.room_svc.ai = d.ai.get();
    spdlog::info("AI pool: {} threads for house bot decisions (at most {} at once, {} ms each; bots at level {} "
                 "unless asked)",
                 d.ai->threads(), o.max_pending, cfg.bot_think_ms, cfg.bot_level);
  }
  room_directory* const directory = cfg.node_id.empty() ? nullptr : d.store->directory();
  const bool clustered = directory && effective_store(cfg).k == store_setting::kind::postgres;
  d.rooms = std::make_shared<room_registry>(d.room_svc, [&d] { return make_strand_executor(d.ioc); });
  if (clustered) {
    const cluster_options co{.node_id = cfg.node_id,
                             .finished_room_ttl_ms = std::int64_t{cfg.finished_room_ttl_sec} * 1000};
    d.cluster = std::make_unique<cluster_node>(co, *directory, d.rooms);
    d.cluster->serve(d.room_svc, d.lobby, true);
    spdlog::info("cluster: node {} on a shared PostgreSQL: room leases {} ms, renewed every {} ms", cfg.node_id,
                 cluster_options{}.lease_ms, cluster_options{}.renew_every_ms);
  }

  d.net_ctx = std::make_shared<net_context>();
  d.net_ctx->cfg = cfg;
  d.net_ctx->limits = make_connection_limits(cfg);
  d.net_ctx->trusted_proxies = parse_trusted_proxies(cfg.trusted_proxies);
  if (!d.net_ctx->trusted_proxies.empty())
    spdlog::info("trusted proxies: {} (their X-Forwarded-For names the client)", cfg.trusted_proxies);
  d.net_ctx->stats = &d.stats;
  d.net_ctx->lobby = &d.lobby;
  d.lobby.rooms = d.rooms;
  d.lobby.stats = &d.stats;
  d.lobby.cfg = cfg;
  d.lobby.env = &d.env;
  d.lobby.shutting_down = &d.net_ctx->shutting_down;
  d.net_ctx->healthz = [&d] {
    // Degraded (HTTP 503) while the store cannot write: every match would
    // fail, so a load balancer should stop sending players here.
    const store_health h = d.store->health();
    nlohmann::json store = {{"ok", h.ok}, {"write_errors", h.write_errors}};
    if (h.last_error_ms != 0) {
      store["last_error"] = h.last_error;
      store["last_error_ms"] = h.last_error_ms;
    }
    nlohmann::json j = {{"status", h.ok ? "ok" : "degraded"},
                        {"server", protocol::server_software},
                        {"uptime_s", static_cast<std::int64_t>(d.stats.uptime_seconds())},
                        {"rooms", d.rooms->size()},
                        {"connections", d.stats.connections.load()},
                        {"persistence_pending", d.store->pending()},
                        {"store", std::move(store)}};
    return std::pair<bool, std::string>(h.ok, j.dump());
  };
  d.net_ctx->metrics_text = [&d] {
    const store_health h = d.store->health();
    std::string text =
        d.stats.prometheus(d.store->pending(), d.store->commits(), {h.ok, h.write_errors, h.last_error_ms});
    // The admin API's refusals (docs/admin.md, "Refused requests").
    if (d.admin_api) {
      text += "# HELP cod_admin_refused_total Admin API requests refused (401, 403, 429).\n"
              "# TYPE cod_admin_refused_total counter\ncod_admin_refused_total ";
      text += std::to_string(d.admin_api->refused_total());
      text += "\n# HELP cod_admin_throttled_total Admin API requests refused with 429 after too many failed "
              "authentications.\n# TYPE cod_admin_throttled_total counter\ncod_admin_throttled_total ";
      text += std::to_string(d.admin_api->throttled_total());
      text += '\n';
    }
    return text;
  };
  {
    auto files = std::make_shared<static_files>(cfg.web_root);
    // The catalogue the server plays with, as compact JSON: a third of the
    // file is indentation, and every first visit of /play/ loads it.
    std::ifstream in(cfg.catalogue, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    const auto parsed = nlohmann::json::parse(text.str(), nullptr, false);
    if (in && !parsed.is_discarded()) files->add_content("/play/catalogue.json", parsed.dump());
    else files->add_file("/play/catalogue.json", cfg.catalogue);
    if (cfg.web_root.empty()) spdlog::info("web clients: none (web_root is empty)");
    else if (!std::filesystem::is_directory(cfg.web_root))
      spdlog::warn("web clients: web_root {} is not a directory: /play/ and /admin/ will be 404", cfg.web_root);
    else spdlog::info("web clients: {} at /play/ and /admin/", cfg.web_root);
    d.net_ctx->files = std::move(files);
  }

  d.admin_api = std::make_unique<admin::api>(cfg.admin_token, d.cat, *d.store, d.env, cfg.organiser_token);
  d.admin_pool.emplace(1);
  d.net_ctx->admin = d.admin_api.get();
  d.net_ctx->run_admin = [&d](std::function<void()> f) { net::post(*d.admin_pool, std::move(f)); };
  if (cfg.admin_token.empty())
    spdlog::info("admin API disabled: admin_token is empty (/admin/api/ answers 403 admin_disabled)");
  else if (cfg.admin_token.size() < 16)
    spdlog::warn("admin API enabled on /admin/api/ with a short admin_token ({} characters; use 16 or more)",
                 cfg.admin_token.size());
  else
    spdlog::info("admin API enabled on /admin/api/ (Authorization: Bearer admin_token)");
  if (!cfg.organiser_token.empty()) {
    if (cfg.organiser_token == cfg.admin_token)
      spdlog::warn("organiser_token equals admin_token: organisers can read every match log; give them their own");
    else if (cfg.organiser_token.size() < 16)
      spdlog::warn("organiser API enabled with a short organiser_token ({} characters; use 16 or more)",
                   cfg.organiser_token.size());
    else
      spdlog::info("organiser API enabled on /admin/api/tournaments (Authorization: Bearer organiser_token)");
  }

  // Recovery: every unfinished match gets its room back before anyone connects.
  try {
    auto read = d.store->reader().load_unfinished();
    if (!read) return status::io_error("recovery: cannot read unfinished matches: " + read.error().message());
    auto unfinished = std::move(*read);
    // A cluster node resumes its own rooms whose leases it can take: one
    // taken over while it was away runs on its new node.
    if (d.cluster) unfinished = d.cluster->claim_own(std::move(unfinished));
    if (!unfinished.empty()) {
      const auto n = d.rooms->recover(unfinished);
      spdlog::info("recovery: {} of {} unfinished matches rebuilt", n, unfinished.size());
    }
  } catch (const std::exception& e) {
    return status::io_error(std::string("recovery: cannot read unfinished matches: ") + e.what());
  }

  // Tournaments (docs/tournaments.md): loaded after the rooms of their
  // running matches are rebuilt, so those get their hooks back.
  tournament_service::deps td;
  td.rooms = d.rooms;
  td.store = d.store.get();
  td.env = &d.env;
  if (d.cluster) {
    // A tournament holds a lease like a room (docs/cluster.md, "Tournaments").
    td.node_id = cfg.node_id;
    td.claim = [c = d.cluster.get()](const std::string& id) { return c->claim_new(id); };
    td.want = [c = d.cluster.get()](const std::string& id) { return c->want_event(id); };
    td.fetch_room = [c = d.cluster.get()](const std::string& room_id, tournament_service::deps::room_reached then) {
      c->fetch(room_id, true, [then = std::move(then)](std::shared_ptr<room> r, bool) { then(std::move(r)); });
    };
  }
  d.tournaments = std::make_unique<tournament_service>(td);
  d.tournaments->load();
  if (d.cluster) d.cluster->each_round([t = d.tournaments.get()] { t->poll_store(); });
  d.organiser = std::make_unique<organiser_api>(*d.tournaments, *d.store, d.env);
  d.admin_api->set_tournaments(d.organiser.get());

  // Mutation leagues (docs/league.md): after the rooms of their running
  // duels are rebuilt, like the tournaments, and like them holding a lease
  // in a cluster (docs/cluster.md, "Tournaments and leagues").
  league_service::deps ld;
  ld.rooms = d.rooms;
  ld.store = d.store.get();
  ld.cards = &d.cat;
  ld.env = &d.env;
  if (d.cluster) {
    ld.node_id = cfg.node_id;
    ld.claim = td.claim;
    ld.want = td.want;
    ld.fetch_room = td.fetch_room;
  }
  d.leagues = std::make_unique<league_service>(ld);
  d.leagues->load();
  if (d.cluster) {
    // One set of lease hooks for both organiser services: an id is a
    // league's ("<node>-l...") or a tournament's; each service runs its own.
    auto* t = d.tournaments.get();
    auto* l = d.leagues.get();
    d.cluster->serve_events({.running =
                                 [t, l] {
                                   auto ids = t->running();
                                   for (auto& id : l->running()) ids.push_back(std::move(id));
                                   return ids;
                                 },
                             .adopt = [t, l](const std::string& id) {
                               return is_league_id(id) ? l->adopt(id) : t->adopt(id);
                             },
                             .give_up =
                                 [t, l](const std::string& id, std::function<void()> saved) {
                                   if (is_league_id(id)) l->give_up(id, std::move(saved));
                                   else t->give_up(id, std::move(saved));
                                 },
                             .lost = [t, l](const std::string& id) {
                               if (is_league_id(id)) l->lost(id);
                               else t->lost(id);
                             }});
  }
  d.league_routes = std::make_unique<league_api>(*d.leagues, *d.store, d.env);
  d.admin_api->set_leagues(d.league_routes.get());

  // Player accounts (docs/accounts.md), when the store keeps them.
  if (account_store* as = d.store->accounts()) {
    accounts::limits al;
    al.session_idle_ms = std::int64_t{cfg.session_idle_days} * 24 * 3600 * 1000;
    al.registrations_per_address = cfg.registrations_per_hour;
    d.account_svc = std::make_unique<accounts::account_service>(*as, d.env, al);
    d.player_pages = std::make_unique<accounts::player_pages>(*as, d.store->reader());
    d.account_routes = std::make_unique<accounts::account_api>(*d.account_svc, d.player_pages.get());
    d.account_admin = std::make_unique<accounts::account_admin_routes>(*d.account_svc);
    d.admin_api->set_accounts(d.account_admin.get());
    d.account_pool = std::make_unique<accounts::account_workers>(
        static_cast<std::size_t>(cfg.account_threads), static_cast<std::size_t>(cfg.account_queue),
        cfg.account_idle_priority, parse_cpu_list(cfg.account_cpus).value_or(std::vector<int>{}));
    d.net_ctx->accounts = d.account_routes.get();
    d.net_ctx->run_accounts = [p = d.account_pool.get()](std::function<void()> f) { return p->try_post(std::move(f)); };
    // hello.account_token: the session looked up on the account workers.
    d.lobby.authenticate = [p = d.account_pool.get(), svc = d.account_svc.get()](
                               std::string token, std::function<void(account_check)> done) {
      return p->try_post([svc, token = std::move(token), done = std::move(done)] {
        auto who = svc->authenticate(token);
        account_check a;
        if (who) {
          a = {account_check::kind::signed_in, who->account.account_id, who->account.name, who->account.guest};
        } else if (who.error().reason() == "account_disabled") {
          a.what = account_check::kind::disabled;
        } else if (who.error().error_code() == status::code::not_found) {
          a.what = account_check::kind::bad_session;
        } else {
          spdlog::warn("accounts: a hello's session could not be looked up: {}", who.error().message());
          a.what = account_check::kind::unavailable;
        }
        done(std::move(a));
      });
    };
    if (!accounts::hashing_available()) spdlog::error("accounts: libsodium could not be initialised: no sign-in works");
    spdlog::info("accounts: /api/ (docs/accounts.md), {} hashing thread(s){}{}{}, {} waiting at most, sessions end "
                 "after {} idle days",
                 cfg.account_threads, cfg.account_idle_priority ? " under SCHED_IDLE" : "",
                 cfg.account_cpus.empty() ? "" : " on CPUs ", cfg.account_cpus, cfg.account_queue,
                 cfg.session_idle_days);

    queue_services qs;
    qs.rooms = d.rooms;
    qs.ex = make_strand_executor(d.ioc);
    qs.cat = d.room_svc.cat;
    qs.env = &d.env;
    // A ticket's rating, read on the account workers (a store read): the
    // duel ladder's Glicko-2 rating; the four-player ladders' OpenSkill μ
    // brought to the duel scale (docs/queue.md, "Ratings"). A new player,
    // an unreadable store or busy workers: 1500.
    qs.rating_of = [p = d.account_pool.get(), store = d.store.get()](std::int64_t account, queue::mode m,
                                                                     std::function<void(double)> done) {
      auto read = [store, account, m, done] {
        const std::string ladder = m == queue::mode::duel ? "duel" : m == queue::mode::ffa ? "ffa" : "2v2";
        double rating = 1500;
        if (auto rows = store->reader().load_ratings(account)) {
          for (const auto& r : *rows)
            if (r.ladder == ladder) rating = m == queue::mode::duel ? r.r.value : 1500 + 36 * (r.r.value - 25);
        }
        done(rating);
      };
      if (!p->try_post(read)) done(1500);
    };
    // The lobby's queue messages go to either queue (the same calls).
    auto serve_queue = [&d](auto q) {
      d.lobby.queue = [q](std::shared_ptr<client_session> who, protocol::queue_msg m) {
        q->enqueue(std::move(who), std::move(m));
      };
      d.lobby.unqueue = [q](std::shared_ptr<client_session> who, protocol::unqueue_msg m) {
        q->unqueue(std::move(who), std::move(m));
      };
      d.lobby.leave_queue = [q](std::uint64_t conn, std::string reason) { q->leave(conn, std::move(reason)); };
    };
    if (queue_board* board = d.cluster ? d.store->queue() : nullptr) {
      cluster_queue_options co;
      co.node_id = cfg.node_id;
      d.cluster_q = std::make_shared<cluster_queue>(std::move(qs), *board, co);
      d.cluster_q->start();
      serve_queue(d.cluster_q);
    } else {
      d.queue = std::make_shared<queue_service>(std::move(qs));
      d.queue->start();
      serve_queue(d.queue);
    }
    spdlog::info("queue: duel, ffa and 2v2, preconstructed and constructed, rated and casual (docs/queue.md){}",
                 d.cluster_q ? "; the cluster's tickets in the store, matched by the node holding the matcher's lease"
                             : "");
  } else {
    spdlog::info("accounts: none (the store keeps no accounts): /api/ answers 404");
  }
  d.lobby.follow_league = [l = d.leagues.get()](std::string_view token, const nlohmann::json& id,
                                                std::weak_ptr<peer> p, const std::string& routed) {
    return l->follow(token, id, std::move(p), routed);
  };
  d.lobby.league_act = [l = d.leagues.get()](std::string_view token, const nlohmann::json& id,
                                             const nlohmann::json& op) { return l->act(token, id, op); };
  d.lobby.league_mutations = [l = d.leagues.get()](std::string_view token, const nlohmann::json& id,
                                                   const nlohmann::json& staged) {
    return l->legal_mutations(token, id, staged);
  };
  // tournament_join seats a league player in their duel too.
  d.lobby.find_event_seat = [t = d.tournaments.get(), l = d.leagues.get()](std::string_view token,
                                                                              const std::string& routed) {
    auto seat = t->find_seat(token, routed);
    if (seat.what != event_seat::kind::bad_token) return seat;
    auto in_league = l->find_seat(token);
    return in_league.what != event_seat::kind::bad_token ? in_league : seat;
  };

  // Matches that ended within finished_room_ttl_sec before the start get a
  // finished room back, as they had before the stop: a player whose last
  // action ended the match resumes to its match_over and seed (a crash may
  // have come before it reached them). After the tournaments: a tournament
  // takes a room it finds as its game still running, while one it does not
  // find has its result read from the store.
  if (cfg.finished_room_ttl_sec > 0) {
    try {
      auto read =
          d.store->reader().load_finished_since(d.env.wall_ms() - std::int64_t{cfg.finished_room_ttl_sec} * 1000);
      if (!read)
        return status::io_error("recovery: cannot read recently finished matches: " + read.error().message());
      auto finished = std::move(*read);
      // A cluster node shows its own rooms' (another node's come when asked for).
      if (d.cluster)
        std::erase_if(finished, [&](const stored_match& sm) { return !sm.match.room_id.starts_with(cfg.node_id + "-"); });
      if (!finished.empty()) {
        const auto n = d.rooms->recover(finished);
        spdlog::info("recovery: {} of {} matches finished in the last {} s hold their result for resumes", n,
                     finished.size(), cfg.finished_room_ttl_sec);
      }
    } catch (const std::exception& e) {
      return status::io_error(std::string("recovery: cannot read recently finished matches: ") + e.what());
    }
  }

  boost::system::error_code ec;
  const auto address = net::ip::make_address(cfg.address, ec);
  if (ec) {
    return status::invalid("bad address '" + cfg.address + "': " + ec.message());
  }
  d.lst = std::make_shared<listener>(d.ioc, net::ip::tcp::endpoint(address, static_cast<std::uint16_t>(cfg.port)),
                                     d.net_ctx, *d.net_ctx->limits, false, ec);
  if (ec) {
    d.lst.reset();
    return status::io_error("cannot listen on " + cfg.address + ':' + std::to_string(cfg.port) + ": " + ec.message());
  }
  if (!cfg.health_listen.empty()) {
    const auto colon = cfg.health_listen.rfind(':');
    std::string host = colon == std::string::npos ? std::string() : cfg.health_listen.substr(0, colon);
    if (host.size() >= 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
    const std::string port_text = colon == std::string::npos ? std::string() : cfg.health_listen.substr(colon + 1);
    int health_port_number = -1;
    if (!port_text.empty() && port_text.size() <= 5 &&
        std::all_of(port_text.begin(), port_text.end(), [](char c) { return c >= '0' && c <= '9'; }))
      health_port_number = std::stoi(port_text);
    const auto health_address = net::ip::make_address(host, ec);
    if (ec || health_port_number < 0 || health_port_number > 65535)
      return status::invalid("bad health_listen '" + cfg.health_listen + "': expected host:port, e.g. 127.0.0.1:9101");
    // Its own places, counted apart from the public port's: a few checks at
    // once are all it serves; no WebSocket.
    d.health_limits = std::make_unique<connection_limits>(0, health_connections, 0);
    d.health_lst = std::make_shared<listener>(
        d.ioc, net::ip::tcp::endpoint(health_address, static_cast<std::uint16_t>(health_port_number)), d.net_ctx,
        *d.health_limits, true, ec);
    if (ec) {
      d.health_lst.reset();
      return status::io_error("cannot listen on " + cfg.health_listen + " (health_listen): " + ec.message());
    }
    spdlog::info("health listener on {}:{} (/healthz, /metrics)", host, health_port());
  }
  if (d.cluster) d.cluster->start();
  spdlog::info("listening on {}:{} (HTTP /healthz /metrics /api/ /admin/api/ /play/ /admin/, WebSocket /ws), {} io threads", cfg.address, port(),
               cfg.threads);
  return status::ok();
}

void server::run() {
  auto& d = *impl_;
  d.work.emplace(d.ioc.get_executor());
  d.lst->run();
  if (d.health_lst) d.health_lst->run();
  d.tick_leagues();
  for (int i = 0; i < d.cfg.threads; ++i) d.threads.emplace_back([&d] { d.ioc.run(); });
}

void server::stop() {
  auto& d = *impl_;
  if (d.stop_requested.exchange(true)) return;
  net::post(d.ioc, [&d] {
    spdlog::info("shutting down: no new connections; closing {} WebSocket connections",
                 d.net_ctx->connections.size());
    d.net_ctx->shutting_down = true;
    d.lst->stop();
    if (d.health_lst) d.health_lst->stop();
    d.rooms->shutdown();
    auto bye = std::make_shared<const std::string>(
        protocol::make_error(nlohmann::json(), protocol::session_errc::shutting_down).dump());
    d.net_ctx->connections.close_all(bye, protocol::close_code::going_away, "server shutting down");
    d.stop_deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(d.cfg.shutdown_timeout_ms);
    d.poll_stop();
  });
}

void server::wait() {
  auto& d = *impl_;
  std::lock_guard lock(d.wait_mutex);
  if (d.waited) return;
  for (auto& t : d.threads)
    if (t.joinable()) t.join();
  d.waited = true;
  // No strand runs any more: the decisions still queued are dropped, a
  // running one finishes (posting to a stopped io_context) and is joined.
  if (d.ai) d.ai->stop();
  d.stop_admin_pool();
  if (d.cluster_q) d.cluster_q->stop();
  if (d.cluster) d.cluster->stop();
  d.store->flush();
  // Nothing of its rooms is left to write: other nodes may take them now
  // rather than after the leases expire.
  if (d.cluster) d.cluster->release_all();
  spdlog::info("store flushed; server stopped");
}

void server::catch_signals() {
  auto& d = *impl_;
  if (d.signals) return;
  d.signals.emplace(d.ioc, SIGINT, SIGTERM);
  d.signals->async_wait([this](const boost::system::error_code& ec, int sig) {
    if (ec) return;
    spdlog::info("signal {} received", sig == SIGINT ? "SIGINT" : "SIGTERM");
    stop();
  });
}

int server::run_until_signal() {
  catch_signals();
  run();
  wait();
  return 0;
}

}  // namespace cod::server
