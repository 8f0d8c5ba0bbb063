// The server's settings: one struct, defaults in code.
//
// Each key is set, in increasing precedence, by
//   1. its default here (config/server.json lists them all),
//   2. a JSON file given by --config=PATH or COD_CONFIG ({"key": value, ...};
//      keys starting with "_" are comments),
//   3. the environment variable COD_<KEY_UPPER> (COD_MAX_FRAME_BYTES),
//   4. the command-line flag --key-name=value or --key-name value (--max-frame-bytes).
// Unknown keys and bad values are errors: a typo never goes unnoticed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cod::server {

struct config {
  // Network.
  std::string address = "127.0.0.1";
  int port = 8080;                        // 0: any free port (tests)
  int threads = 2;                        // io threads
  int max_connections = 1000;             // WebSocket connections; more get server_busy, close 1013
  int max_http_connections = 256;         // TCP connections not (yet) upgraded to WebSocket; more are closed at once
  int max_connections_per_address = 64;   // TCP connections from one IP address (0: no limit; behind a proxy: 0)
  int max_http_connections_per_address = 32;  // of those, not (yet) WebSocket (slow HTTP clients; 0: no limit)
  // IP addresses of proxies in front (comma-separated): a connection from
  // one of them is the client named last in its X-Forwarded-For, and is not
  // counted against max_connections_per_address (the proxy limits per client).
  std::string trusted_proxies;
  // Storage and data.
  std::string db = "./data/cod.db";       // SQLite file (its directory is created); ":memory:" keeps nothing
  std::string store;                      // "sqlite:PATH", "memory:" or a postgresql:// URI; "" = as db says
  std::string catalogue;                  // "" = the shipped catalogue
  std::string log_level = "info";         // trace, debug, info, warn, error, critical, off
  std::string web_root;                   // "" = the shipped server/web (browser clients at /play/, /admin/)
  // SQLite: another process holding the database's write lock (a backup, an
  // sqlite3 shell in a transaction) is waited out this long, its rooms
  // waiting and their players told; past it their matches are abandoned.
  int store_busy_max_sec = 60;
  // Per connection.
  std::size_t max_frame_bytes = 65536;    // larger messages: error frame_too_large, close 1009
  int rate_limit_per_sec = 20;            // token bucket refill (0 = no limit)
  int rate_limit_burst = 40;              // token bucket size
  int flood_factor = 10;                  // > factor x rate messages in one second: close 1008
  std::size_t max_queued_messages = 256;  // outgoing queue cap: overflow closes 1008 "slow consumer"
  std::size_t max_queued_bytes = 1 << 20; // the same cap in bytes (one message larger than this still goes alone)
  int hello_timeout_sec = 10;             // a connection that has not said hello by then: hello_required, close 1008
  int list_rooms_per_sec = 2;             // list_rooms per second per connection (its own budget; 0: no limit)
  int list_rooms_burst = 10;              // list_rooms accepted at once after a quiet spell
  int handshake_timeout_sec = 30;         // WebSocket handshake and close handshake
  int idle_timeout_sec = 60;              // silent peers: pinged at half, dropped at this
  int http_timeout_sec = 30;              // one HTTP request
  int http_header_timeout_sec = 5;        // a request's header (and the wait for it): slow clients go sooner
  // "host:port" of a listener for /healthz and /metrics only, with places of
  // its own (a health check is answered while slow clients hold every HTTP
  // place of the public port). Empty: none.
  std::string health_listen;
  int close_timeout_ms = 5000;            // a close that takes longer drops the TCP connection
  // Rooms.
  int max_rooms = 1000;                   // rooms not finished; create_room beyond this: server_busy
  int max_waiting_rooms_per_address = 4;  // rooms waiting for players created from one IP address (0: no limit)
  int unjoined_room_ttl_sec = 30;         // a waiting room nobody joined whose creator has gone closes after this
  int grace_period_sec = 60;              // a disconnected seat is kept this long, then concedes
  int finished_room_ttl_sec = 300;        // a finished room stays listed this long
  int waiting_room_ttl_sec = 1800;        // a room whose match never starts is dropped after this
  int max_room_backlog = 256;             // requests waiting on a room's pending write: server_busy beyond
  int bot_move_ms = 800;                  // a house bot (add_bot) waits this long before each of its actions
  // House bots' decisions (docs/ai-server.md): the level of an add_bot that
  // names none, the time one decision may take (on the AI pool, overlapping
  // bot_move_ms), the pool's threads (0: max(1, cores / 2)) and the decisions
  // admitted to it at once (more wait their turn, in order).
  int bot_level = 3;
  int bot_think_ms = 400;
  int ai_threads = 0;
  int ai_max_pending = 64;
  int shutdown_timeout_ms = 2000;         // time given to close handshakes on SIGINT/SIGTERM
  // Admin.
  std::string admin_token;                // Bearer token of /admin/api/ (docs/admin.md); "" = admin API disabled
  std::string organiser_token;            // Bearer token of /admin/api/tournaments only; "" = none
  // Accounts (docs/accounts.md).
  int account_threads = 2;                // password hashes at once (each 19 MiB and ~20 ms of a core)
  bool account_idle_priority = true;      // those threads under SCHED_IDLE: the rooms get a core first
  // The CPUs those threads may run on ("1", "2-3", "0,2-3"), to keep the
  // hashes' cache and memory traffic off the cores of the rooms; "": any.
  std::string account_cpus;
  int account_queue = 64;                 // /api/ requests waiting for those threads; more get 503 busy
  int session_idle_days = 30;             // a session unused this long ends
  int registrations_per_hour = 10;        // accounts and guests made from one address an hour

  // Cluster (docs/cluster.md): this node's id, the prefix of every room id
  // it creates ("n2" -> "n2-k7q4x"), by which the proxy routes a room's
  // connections to it. "" = one node alone: room ids have no prefix.
  std::string node_id;
};

// A CPU list as taskset(1) writes one: "1", "2-3", "0,2-3" (CPUs 0 to
// 1023, in any order; a repeat counts once). "" is the empty list; nullopt
// when the text is not such a list.
std::optional<std::vector<int>> parse_cpu_list(std::string_view text);

// Where the server keeps its matches: the `store` setting when given, else
// `db` (sqlite:PATH; ":memory:" is memory:). docs/persistence.md.
struct store_setting {
  enum class kind { sqlite, memory, postgres } k = kind::sqlite;
  std::string target;  // the SQLite path, or the PostgreSQL URI (may hold a password: never log it)
};
store_setting effective_store(const config& c);

// One documented key.
struct config_key {
  std::string_view name;  // "max_frame_bytes"
  std::string_view help;  // one line
  std::function<std::optional<std::string>(config&, std::string_view)> set;  // error or nullopt
  std::function<std::string(const config&)> get;
};

const std::vector<config_key>& config_keys();

// "COD_MAX_FRAME_BYTES", "--max-frame-bytes".
std::string config_env_name(std::string_view key);
std::string config_flag_name(std::string_view key);

// Sets one key from its text form. Errors name the key.
std::optional<std::string> set_config_key(config& c, std::string_view key, std::string_view value);

// Applies a JSON object of keys (the config file). Errors name the key.
std::optional<std::string> apply_config_json(std::string_view text, config& c);

// The --help text: every key, its default, its environment variable and flag.
std::string config_help();

using env_lookup = std::function<const char*(const char*)>;  // std::getenv

struct config_load {
  config cfg;
  bool help = false;        // --help / -h given: print config_help() and exit 0
  std::string error;        // non-empty: print it and exit 2
  std::string config_file;  // the file that was read, if any
};

// Defaults < file < environment < flags.
config_load load_config(int argc, const char* const* argv, const env_lookup& env);

}  // namespace cod::server
