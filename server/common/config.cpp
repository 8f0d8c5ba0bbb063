#include "common/config.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <fstream>
#include <limits>
#include <sstream>

#include <nlohmann/json.hpp>

namespace cod::server {
namespace {

template <class T>
std::optional<T> parse_number(std::string_view v) {
  T out{};
  auto first = v.data(), last = v.data() + v.size();
  auto [p, ec] = std::from_chars(first, last, out);
  if (ec != std::errc{} || p != last || v.empty()) return std::nullopt;
  return out;
}

std::string key_error(std::string_view key, std::string_view what) {
  std::string s(key);
  s += ": ";
  s += what;
  return s;
}

// An integer key: parsed as P (the bounds' type, wide enough for them), stored
// as the member's type M.
template <class P, class M>
config_key number_key(std::string_view name, std::string_view help, M config::*m, P lo, P hi) {
  return {name, help,
          [=](config& c, std::string_view v) -> std::optional<std::string> {
            auto n = parse_number<P>(v);
            if (!n || *n < lo || *n > hi) {
              std::string what = "expected an integer from ";
              what += std::to_string(lo);
              what += " to ";
              what += std::to_string(hi);
              what += ", got '";
              what += v;
              what += "'";
              return key_error(name, what);
            }
            c.*m = static_cast<M>(*n);
            return std::nullopt;
          },
          [=](const config& c) { return std::to_string(c.*m); }};
}

config_key int_key(std::string_view name, std::string_view help, int config::*m, long lo, long hi) {
  return number_key<long>(name, help, m, lo, hi);
}

config_key size_key(std::string_view name, std::string_view help, std::size_t config::*m,
                    std::size_t lo, std::size_t hi) {
  return number_key<std::size_t>(name, help, m, lo, hi);
}

// true or false (also 1 or 0, as a flag or an environment variable may say).
config_key bool_key(std::string_view name, std::string_view help, bool config::*m) {
  return {name, help,
          [=](config& c, std::string_view v) -> std::optional<std::string> {
            if (v == "true" || v == "1") c.*m = true;
            else if (v == "false" || v == "0") c.*m = false;
            else return key_error(name, "expected true or false");
            return std::nullopt;
          },
          [=](const config& c) { return std::string(c.*m ? "true" : "false"); }};
}

config_key string_key(std::string_view name, std::string_view help, std::string config::*m,
                       std::vector<std::string_view> allowed = {}) {
  return {name, help,
          [=](config& c, std::string_view v) -> std::optional<std::string> {
            if (!allowed.empty()) {
              bool ok = false;
              for (auto a : allowed) ok = ok || a == v;
              if (!ok) {
                std::string what = "expected one of";
                for (auto a : allowed) {
                  what += ' ';
                  what += a;
                }
                return key_error(name, what);
              }
            }
            c.*m = std::string(v);
            return std::nullopt;
          },
          [=](const config& c) { return c.*m; }};
}

std::vector<config_key> make_keys() {
  constexpr long big = std::numeric_limits<int>::max();
  std::vector<config_key> k;
  k.push_back(string_key("address", "IP address to listen on", &config::address));
  k.push_back(int_key("port", "TCP port for HTTP and WebSocket (0: any free port)", &config::port, 0, 65535));
  k.push_back(int_key("threads", "I/O threads", &config::threads, 1, 256));
  k.push_back(int_key("max_connections", "WebSocket connections at once; more get error server_busy and close 1013",
                      &config::max_connections, 1, big));
  k.push_back(int_key("max_http_connections",
                      "TCP connections not upgraded to WebSocket (HTTP requests, upgrades in progress); more are "
                      "closed at once",
                      &config::max_http_connections, 1, big));
  k.push_back(int_key("max_connections_per_address",
                      "TCP connections at once from one IP address; more are closed at once (0: no limit; behind a "
                      "proxy every client has the proxy's address: set 0 and limit at the proxy)",
                      &config::max_connections_per_address, 0, big));
  k.push_back(int_key("max_http_connections_per_address",
                      "of those, connections not (yet) WebSocket from one IP address (slow HTTP clients); more are "
                      "closed at once (0: no limit; none when max_connections_per_address is 0)",
                      &config::max_http_connections_per_address, 0, big));
  k.push_back({"trusted_proxies",
               "IP addresses of the proxies in front, comma-separated: a connection from one of them is the client "
               "its X-Forwarded-For names last (per-address limits, logs) and is not counted against "
               "max_connections_per_address (limit per client at the proxy); empty: none",
               [](config& c, std::string_view v) -> std::optional<std::string> {
                 const bool ok = std::all_of(v.begin(), v.end(), [](char ch) {
                   return (ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'f') || (ch >= 'A' && ch <= 'F') ||
                          ch == '.' || ch == ':' || ch == ',';
                 });
                 if (!ok) return key_error("trusted_proxies", "expected IP addresses separated by commas");
                 c.trusted_proxies = std::string(v);
                 return std::nullopt;
               },
               [](const config& c) { return c.trusted_proxies; }});
  k.push_back(string_key("db", "SQLite database file (its directory is created); \":memory:\" stores nothing",
                         &config::db));
  k.push_back({"store",
               "where matches are kept: sqlite:PATH (as db), memory: (nothing survives a restart) or a "
               "PostgreSQL URI, postgresql://user:password@host:port/dbname (docs/persistence.md); empty: as db "
               "says. Setting both store and db, to different stores, is an error",
               [](config& c, std::string_view v) -> std::optional<std::string> {
                 const bool ok = v.empty() || v == "memory:" || (v.starts_with("sqlite:") && v.size() > 7) ||
                                 v.starts_with("postgresql://") || v.starts_with("postgres://");
                 if (!ok)
                   return key_error("store",
                                    "expected sqlite:PATH, memory: or a PostgreSQL URI (postgresql://... or "
                                    "postgres://...), got one starting '" + std::string(v.substr(0, v.find(':'))) + ":'");
                 c.store = std::string(v);
                 return std::nullopt;
               },
               [](const config& c) { return c.store; }});
  k.push_back(int_key("store_busy_max_sec",
                      "SQLite: another process holding the database's write lock (a backup, an sqlite3 shell in a "
                      "transaction) is waited out this long, the rooms whose writes wait telling their players; "
                      "past it those matches are abandoned",
                      &config::store_busy_max_sec, 1, 86400));
  k.push_back(string_key("catalogue", "card catalogue JSON (empty: the shipped catalogue)", &config::catalogue));
  k.push_back(string_key("web_root",
                         "directory of the browser clients served at /play/ and /admin/ (empty: the shipped server/web)",
                         &config::web_root));
  k.push_back(string_key("log_level", "trace, debug, info, warn, error, critical or off", &config::log_level,
                         {"trace", "debug", "info", "warn", "error", "critical", "off"}));
  k.push_back(size_key("max_frame_bytes",
                       "largest client message; larger ones get frame_too_large and close 1009",
                       &config::max_frame_bytes, 256, std::size_t{64} << 20));
  k.push_back(int_key("rate_limit_per_sec", "messages per second per connection, token bucket refill (0: no limit)",
                      &config::rate_limit_per_sec, 0, big));
  k.push_back(int_key("rate_limit_burst", "token bucket size (messages accepted in a burst)",
                      &config::rate_limit_burst, 1, big));
  k.push_back(int_key("flood_factor", "more than factor x rate_limit_per_sec messages in one second closes (1008)",
                      &config::flood_factor, 1, big));
  k.push_back(size_key("max_queued_messages", "outgoing messages queued per connection; overflow closes (1008)",
                       &config::max_queued_messages, 1, std::size_t{1} << 20));
  k.push_back(size_key("max_queued_bytes",
                       "outgoing bytes queued per connection; overflow closes (1008); a single larger message "
                       "is still sent alone",
                       &config::max_queued_bytes, 1024, std::size_t{1} << 32));
  k.push_back(int_key("hello_timeout_sec", "a WebSocket connection that has not sent hello by then is closed (1008)",
                      &config::hello_timeout_sec, 1, 3600));
  k.push_back(int_key("list_rooms_per_sec", "list_rooms requests per second per connection (0: no limit)",
                      &config::list_rooms_per_sec, 0, big));
  k.push_back(int_key("list_rooms_burst", "list_rooms requests accepted at once after a quiet spell",
                      &config::list_rooms_burst, 1, big));
  k.push_back(int_key("handshake_timeout_sec", "WebSocket opening and closing handshake timeout",
                      &config::handshake_timeout_sec, 1, 3600));
  k.push_back(int_key("idle_timeout_sec", "a WebSocket peer silent for half of this is pinged, for all of it dropped",
                      &config::idle_timeout_sec, 1, 86400));
  k.push_back(int_key("http_timeout_sec", "time to read one HTTP request", &config::http_timeout_sec, 1, 3600));
  k.push_back(int_key("http_header_timeout_sec",
                      "time for a connection to send a whole request header (a new one, or the next on a kept-alive "
                      "connection); past it the connection closes",
                      &config::http_header_timeout_sec, 1, 3600));
  k.push_back(string_key("health_listen",
                         "host:port of a second listener serving /healthz and /metrics only, with connection places "
                         "of its own (e.g. 127.0.0.1:9101 for a load balancer's checks); empty: none",
                         &config::health_listen));
  k.push_back(int_key("close_timeout_ms", "a close handshake longer than this drops the TCP connection",
                      &config::close_timeout_ms, 1, 600000));
  k.push_back(int_key("max_rooms", "rooms not finished at once; create_room beyond gets server_busy",
                      &config::max_rooms, 1, big));
  k.push_back(int_key("max_waiting_rooms_per_address",
                      "rooms still waiting for players created from one IP address; more get too_many_rooms "
                      "(0: no limit)",
                      &config::max_waiting_rooms_per_address, 0, big));
  k.push_back(int_key("unjoined_room_ttl_sec",
                      "a waiting room that nobody joined closes this long after its creator's connection ends",
                      &config::unjoined_room_ttl_sec, 1, 86400));
  k.push_back(int_key("grace_period_sec", "a disconnected seat is kept this long, then concedes",
                      &config::grace_period_sec, 0, 86400 * 7));
  k.push_back(int_key("finished_room_ttl_sec", "a finished room stays listed this long",
                      &config::finished_room_ttl_sec, 0, 86400 * 7));
  k.push_back(int_key("waiting_room_ttl_sec", "a room whose match never starts is dropped after this",
                      &config::waiting_room_ttl_sec, 1, 86400 * 7));
  k.push_back(int_key("max_room_backlog", "requests queued behind a room's pending write; more get server_busy",
                      &config::max_room_backlog, 1, 1 << 20));
  k.push_back(int_key("bot_move_ms",
                      "a house bot (a seat a player gave the server with add_bot) waits this long before each of "
                      "its actions, so that people can follow them",
                      &config::bot_move_ms, 0, 60000));
  k.push_back(int_key("bot_level",
                      "the level of a house bot whose add_bot names none, 1 (weakest) to 5 (docs/ai-server.md)",
                      &config::bot_level, 1, 5));
  k.push_back(int_key("bot_think_ms",
                      "the most time one house bot decision may search, on the AI pool's threads, while the "
                      "bot's bot_move_ms runs: each level names its own (10, 20, 50, 150, 400 ms for levels 1-5; "
                      "docs/ai.md) and this caps it; the level's iterations end it sooner",
                      &config::bot_think_ms, 1, 60000));
  k.push_back(int_key("ai_threads",
                      "threads deciding house bots' actions, never the I/O threads (0: max(1, cores / 2))",
                      &config::ai_threads, 0, 64));
  k.push_back(int_key("ai_max_pending",
                      "house bot decisions queued or running on the AI pool at once; more wait their turn in "
                      "order (the bots play slower, never the people)",
                      &config::ai_max_pending, 1, 1 << 20));
  k.push_back(int_key("shutdown_timeout_ms", "on SIGINT/SIGTERM, time given to close handshakes",
                      &config::shutdown_timeout_ms, 0, 600000));
  k.push_back(string_key("admin_token",
                         "bearer token of the admin HTTP API under /admin/api/ (docs/admin.md); empty: the admin "
                         "API is disabled (403)",
                         &config::admin_token));
  k.push_back(string_key("organiser_token",
                         "bearer token of the organiser API only, /admin/api/tournaments (docs/tournaments.md); "
                         "empty: organisers use the admin token",
                         &config::organiser_token));
  k.push_back(int_key("account_threads",
                      "threads hashing account passwords (argon2id: 19 MiB and about 20 ms of a core each), i.e. "
                      "the most hashes at once (docs/accounts.md, \"Load\")",
                      &config::account_threads, 1, 64));
  k.push_back(bool_key("account_idle_priority",
                       "run those threads under Linux's SCHED_IDLE policy: a room's thread takes a core from a "
                       "password hash at once, so sign-ins wait for the players, not the other way round",
                       &config::account_idle_priority));
  k.push_back({"account_cpus",
               "the CPUs those threads may run on, as taskset writes them (\"1\", \"2-3\", \"0,2-3\"): their "
               "19 MiB hashes then stream through those cores' own caches only (docs/accounts.md, \"Load\"); "
               "empty: any CPU",
               [](config& c, std::string_view v) -> std::optional<std::string> {
                 if (!parse_cpu_list(v))
                   return key_error("account_cpus", "expected a CPU list such as 1 or 2-3 or 0,2-3");
                 c.account_cpus = std::string(v);
                 return std::nullopt;
               },
               [](const config& c) { return c.account_cpus; }});
  k.push_back(int_key("account_queue",
                      "account requests (/api/) waiting for those threads; more are answered 503 busy",
                      &config::account_queue, 1, 100000));
  k.push_back(int_key("registrations_per_hour",
                      "accounts and guests one client address may make in an hour (docs/accounts.md, Throttles); "
                      "more get 429 with Retry-After",
                      &config::registrations_per_hour, 1, 1000000));
  k.push_back(int_key("session_idle_days", "a player's session unused this many days ends (sign in again)",
                      &config::session_idle_days, 1, 3650));
  k.push_back({"node_id",
               "this node's id in a cluster, 1 to 12 of a-z and 0-9: every room id it creates starts with it and "
               "'-', which the proxy routes by; on a PostgreSQL store the node joins the cluster of the nodes on "
               "it (room leases, takeovers, one lobby: docs/cluster.md); empty: a node alone",
               [](config& c, std::string_view v) -> std::optional<std::string> {
                 const bool ok = v.size() <= 12 && std::all_of(v.begin(), v.end(), [](char ch) {
                                   return (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9');
                                 });
                 if (!ok) return key_error("node_id", "expected 1 to 12 of a-z and 0-9, or empty");
                 c.node_id = std::string(v);
                 return std::nullopt;
               },
               [](const config& c) { return c.node_id; }});
  return k;
}

// The store `db` alone names.
store_setting store_of_db(const std::string& db) {
  if (db == ":memory:") return {store_setting::kind::memory, ""};
  return {store_setting::kind::sqlite, db};
}

bool same_store(const store_setting& a, const store_setting& b) { return a.k == b.k && a.target == b.target; }

}  // namespace

std::optional<std::vector<int>> parse_cpu_list(std::string_view text) {
  constexpr int max_cpu = 1023;  // CPU_SETSIZE - 1
  std::vector<int> cpus;
  while (!text.empty()) {
    const auto comma = text.find(',');
    const std::string_view item = text.substr(0, comma);
    text = comma == std::string_view::npos ? std::string_view{} : text.substr(comma + 1);
    if (comma != std::string_view::npos && text.empty()) return std::nullopt;  // "1,"
    const auto dash = item.find('-');
    const auto lo = parse_number<int>(item.substr(0, dash));
    const auto hi = dash == std::string_view::npos ? lo : parse_number<int>(item.substr(dash + 1));
    if (!lo || !hi || *lo < 0 || *hi > max_cpu || *lo > *hi) return std::nullopt;
    for (int c = *lo; c <= *hi; ++c)
      if (std::find(cpus.begin(), cpus.end(), c) == cpus.end()) cpus.push_back(c);
  }
  return cpus;
}

store_setting effective_store(const config& c) {
  const std::string_view s = c.store;
  if (s.empty()) return store_of_db(c.db);
  if (s == "memory:") return {store_setting::kind::memory, ""};
  if (s.starts_with("sqlite:")) return {store_setting::kind::sqlite, std::string(s.substr(7))};
  return {store_setting::kind::postgres, c.store};
}

const std::vector<config_key>& config_keys() {
  static const std::vector<config_key> keys = make_keys();
  return keys;
}

std::string config_env_name(std::string_view key) {
  std::string s = "COD_";
  for (char ch : key) s += static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  return s;
}

std::string config_flag_name(std::string_view key) {
  std::string s = "--";
  for (char ch : key) s += ch == '_' ? '-' : ch;
  return s;
}

std::optional<std::string> set_config_key(config& c, std::string_view key, std::string_view value) {
  for (const auto& k : config_keys())
    if (k.name == key) return k.set(c, value);
  return key_error(key, "unknown key");
}

std::optional<std::string> apply_config_json(std::string_view text, config& c) {
  nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded()) return std::string("not valid JSON");
  if (!j.is_object()) return std::string("expected a JSON object of keys");
  config next = c;
  for (const auto& [key, value] : j.items()) {
    if (!key.empty() && key[0] == '_') continue;  // comments
    std::string v;
    if (value.is_string()) v = value.get<std::string>();
    else if (value.is_number_integer() || value.is_number_unsigned() || value.is_boolean()) v = value.dump();
    else return key_error(key, "expected a string, an integer or true/false");
    if (auto e = set_config_key(next, key, v)) return e;
  }
  c = std::move(next);
  return std::nullopt;
}

std::string config_help() {
  const config defaults;
  std::ostringstream o;
  o << "usage: cod-server [--key-name=value | --key-name value]... [--config=PATH] [--help]\n"
       "\n"
       "Clash of Decks game server: HTTP (/healthz, /metrics, /admin/api/, the browser clients at /play/\n"
       "and /admin/) and WebSocket (/ws) on one port.\n"
       "Every key is set by, in increasing precedence: its default, the JSON file given by\n"
       "--config=PATH (or COD_CONFIG), the environment variable COD_<KEY>, the flag --key-name.\n"
       "\n";
  for (const auto& k : config_keys()) {
    std::string def = k.get(defaults);
    if (k.name == "catalogue") def = "(the shipped catalogue)";
    if (k.name == "web_root") def = "(the shipped server/web)";
    o << "  " << config_flag_name(k.name) << "  (env " << config_env_name(k.name) << ", default "
      << (def.empty() ? "\"\"" : def) << ")\n      " << k.help << "\n";
  }
  o << "  --config  (env COD_CONFIG, default none)\n      JSON file of keys, read before the environment and flags\n"
       "  --help, -h\n      this text\n";
  return o.str();
}

config_load load_config(int argc, const char* const* argv, const env_lookup& env) {
  config_load out;
  // Split the flags first: --config must be known before anything else applies.
  std::vector<std::pair<std::string, std::string>> flags;
  std::string config_path;
  if (const char* p = env ? env("COD_CONFIG") : nullptr) config_path = p;
  for (int i = 1; i < argc; ++i) {
    std::string_view a = argv[i];
    if (a == "--help" || a == "-h") {
      out.help = true;
      return out;
    }
    if (a.size() < 3 || a.substr(0, 2) != "--") {
      out.error = "unexpected argument '";
      out.error += a;
      out.error += "' (try --help)";
      return out;
    }
    std::string name, value;
    if (auto eq = a.find('='); eq != std::string_view::npos) {
      name = std::string(a.substr(2, eq - 2));
      value = std::string(a.substr(eq + 1));
    } else {
      name = std::string(a.substr(2));
      if (i + 1 >= argc) {
        out.error = "--";
        out.error += name;
        out.error += " needs a value";
        return out;
      }
      value = argv[++i];
    }
    for (auto& ch : name)
      if (ch == '-') ch = '_';
    if (name == "config") config_path = value;
    else flags.emplace_back(std::move(name), std::move(value));
  }

  config c;
  if (!config_path.empty()) {
    std::ifstream f(config_path, std::ios::binary);
    if (!f) {
      out.error = "cannot read config file " + config_path;
      return out;
    }
    std::ostringstream text;
    text << f.rdbuf();
    if (auto e = apply_config_json(text.str(), c)) {
      out.error = config_path;
      out.error += ": ";
      out.error += *e;
      return out;
    }
    out.config_file = config_path;
  }
  if (env) {
    for (const auto& k : config_keys()) {
      const std::string var = config_env_name(k.name);
      if (const char* v = env(var.c_str())) {
        if (auto e = k.set(c, v)) {
          out.error = var;
          out.error += ": ";
          out.error += *e;
          return out;
        }
      }
    }
  }
  for (const auto& [name, value] : flags) {
    if (auto e = set_config_key(c, name, value)) {
      out.error = config_flag_name(name);
      out.error += ": ";
      out.error += *e;
      return out;
    }
  }
  // Two settings naming two stores: which one did the operator mean? (db at
  // its default, as config/server.json lists it, names nothing.)
  if (c.db != config{}.db && !c.store.empty() && !same_store(effective_store(c), store_of_db(c.db))) {
    // A URI may hold a password: named by its kind only.
    out.error = "store and db name different stores (store: ";
    out.error += effective_store(c).k == store_setting::kind::postgres ? "a PostgreSQL URI" : c.store;
    out.error += ", db: " + c.db + "); set only store (db is its older form: db=PATH means store=sqlite:PATH)";
    return out;
  }
  out.cfg = std::move(c);
  return out;
}

}  // namespace cod::server
