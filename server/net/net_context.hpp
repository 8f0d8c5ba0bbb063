// What the network layer shares: settings, counters, the lobby's services,
// and the list of open WebSocket connections (to close them on shutdown).
// No Asio here; thread-safe.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_set>
#include <unordered_map>
#include <utility>

#include "common/config.hpp"
#include "net/connection_limits.hpp"
#include "net/refusal_log.hpp"
#include "net/static_files.hpp"
#include "room/client_session.hpp"
#include "room/peer.hpp"

namespace cod::server {

class metrics;
namespace admin {
class api;
}
namespace accounts {
class account_api;
}

class connection_list {
 public:
  void add(const std::shared_ptr<peer>& p);
  void remove(std::uint64_t id);
  std::size_t size() const;
  // Sends `m` to every connection, then closes each (thread-safe; each runs
  // on its connection's strand, the message before the close).
  void close_all(const message_ptr& m, std::uint16_t code, const std::string& reason);

 private:
  mutable std::mutex mutex_;
  std::unordered_map<std::uint64_t, std::weak_ptr<peer>> peers_;
};

struct net_context {
  config cfg;
  metrics* stats = nullptr;
  lobby_services* lobby = nullptr;
  // GET /healthz: whether the server can do its work (false: HTTP 503), and
  // the body (JSON).
  std::function<std::pair<bool, std::string>()> healthz;
  std::function<std::string()> metrics_text;  // GET /metrics body (Prometheus text)
  // /admin/ requests: admin->handle blocks (SQLite, replays), so it runs
  // through run_admin, off the io threads; null: answered 404.
  const admin::api* admin = nullptr;
  std::function<void(std::function<void()>)> run_admin;
  // /api/ requests (player accounts, docs/accounts.md): accounts->handle
  // blocks (argon2id, the store), so it runs through run_accounts on the
  // account workers, which answer false when their queue is full (503
  // busy); null: answered 404.
  const accounts::account_api* accounts = nullptr;
  std::function<bool(std::function<void()>)> run_accounts;
  std::shared_ptr<const static_files> files;  // GET /play/..., /admin/... (null: 404)
  connection_list connections;
  // Who may connect (set with cfg, before the listener runs).
  std::unique_ptr<connection_limits> limits;
  // config::trusted_proxies, parsed (forwarded_for.hpp).
  std::unordered_set<std::string> trusted_proxies;
  // WebSocket upgrades refused at max_connections: counted, summarised in
  // the log (one line an interval, not one a refusal).
  refusal_log upgrade_refusals{"http: WebSocket upgrade"};
  std::atomic<bool> shutting_down{false};
  std::atomic<std::uint64_t> next_connection_id{1};
};

}  // namespace cod::server
