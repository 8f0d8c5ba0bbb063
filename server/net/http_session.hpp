// One HTTP connection: GET /healthz (JSON), GET /metrics (Prometheus text),
// the admin API under /admin/ (admin::api, run off the io threads), and the
// WebSocket upgrade on /ws, which hands the socket to a websocket_session.
// Runs on the connection's strand.
#pragma once

#include <memory>
#include <optional>

#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include "admin/admin_api.hpp"
#include "net/connection_limits.hpp"
#include "net/net_context.hpp"

namespace cod::server {

class http_session : public std::enable_shared_from_this<http_session> {
 public:
  // `admitted`: the connection's places (net/connection_limits.hpp), kept
  // for its life and handed to the WebSocket session on an upgrade.
  // `health_only`: a connection of the health listener (config
  // health_listen): GET /healthz and /metrics, nothing else.
  http_session(boost::asio::ip::tcp::socket&& socket, std::shared_ptr<net_context> ctx,
               std::unique_ptr<admission> admitted, bool health_only = false);
  void run();

 private:
  using request = boost::beast::http::request<boost::beast::http::string_body>;
  using response = boost::beast::http::response<boost::beast::http::string_body>;

  // The header first, within http_header_timeout_sec (a slow or silent
  // client holds its place that long), then the body within
  // http_timeout_sec.
  void do_read();
  void on_header(boost::beast::error_code ec, std::size_t bytes);
  void on_read(boost::beast::error_code ec, std::size_t bytes);
  void do_write(response res);
  void on_write(bool close, boost::beast::error_code ec, std::size_t bytes);
  void do_close();
  void fail(boost::beast::error_code ec, const char* what);
  response handle(const request& req);
  void handle_admin(const request& req);
  void handle_accounts(const request& req);
  // The peer as "ip:port" (the client's address behind a trusted proxy, port 0).
  std::string remote_of(const request& req);
  // What the admin API and the accounts' routes are handed: method, target,
  // body, Authorization and the peer.
  admin::request service_request(const request& req);
  // Writes a service's answer (admin, accounts) on this session's strand.
  void write_service_answer(admin::response ar, unsigned version, bool keep_alive, bool head);

  boost::beast::tcp_stream stream_;
  boost::beast::flat_buffer buffer_;
  std::optional<boost::beast::http::request_parser<boost::beast::http::string_body>> parser_;
  std::shared_ptr<net_context> ctx_;
  std::shared_ptr<response> res_;  // alive until its write ends
  std::unique_ptr<admission> admitted_;
  const bool health_only_;
};

}  // namespace cod::server
