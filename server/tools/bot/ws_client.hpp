// A blocking WebSocket client with deadlines, for cod-bot: every call runs
// the io_context until its operation completes or the deadline passes (then
// the socket is cancelled and the call reports a timeout). One thread.
// ws:// or wss:// (TLS, as a cluster's proxy serves it: docs/cluster.md).
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/ssl/ssl_stream.hpp>
#include <boost/beast/websocket/stream.hpp>

namespace cod::bot {

// wss://, and how to trust the server: the system's CAs, or one CA file (a
// self-signed cluster certificate, scripts/cluster).
struct tls_options {
  bool enabled = false;
  std::string ca_file{};  // empty: the system's default CAs
};

class ws_client {
 public:
  using clock = std::chrono::steady_clock;

  enum class status {
    ok,
    timeout,  // the deadline passed; the connection is unusable
    closed,   // the server closed the WebSocket (close_code() says how)
    error     // the connection failed (error() says how)
  };

  ws_client();
  ~ws_client();
  ws_client(const ws_client&) = delete;
  ws_client& operator=(const ws_client&) = delete;

  // TCP connect to host:port, with TLS the TLS handshake (the certificate
  // must be valid for `host`), then the WebSocket handshake on `target`.
  status connect(const std::string& host, std::uint16_t port, const std::string& target, clock::time_point deadline,
                 const tls_options& tls = {});
  status send(const std::string& text, clock::time_point deadline);
  // One whole message into `out` (text or binary).
  status read(std::string& out, clock::time_point deadline);
  // A normal close (1000), bounded by `deadline`; then the socket is closed.
  void close(clock::time_point deadline);

  // After status::closed: the close frame's code and reason (1005 if none).
  std::uint16_t close_code() const { return close_code_; }
  const std::string& close_reason() const { return close_reason_; }
  // After status::error: what failed.
  const std::string& error() const { return error_; }
  bool is_open() const;

 private:
  // Runs the io_context until `done` or the deadline (then cancels the
  // socket and waits for the handler). False on timeout.
  bool wait(const bool& done, clock::time_point deadline);
  status result(boost::system::error_code ec, bool in_time, const char* what);
  boost::beast::tcp_stream& tcp();
  // Calls f with the WebSocket stream in use (plain or TLS).
  template <class F>
  decltype(auto) with_ws(F&& f) {
    return tls_ws_ ? f(*tls_ws_) : f(ws_);
  }

  using tls_stream = boost::beast::websocket::stream<boost::beast::ssl_stream<boost::beast::tcp_stream>>;
  boost::asio::io_context ioc_;
  boost::beast::websocket::stream<boost::beast::tcp_stream> ws_;
  std::unique_ptr<boost::asio::ssl::context> tls_ctx_;
  std::unique_ptr<tls_stream> tls_ws_;  // set by connect() with TLS; then ws_ is unused
  boost::beast::flat_buffer buffer_;
  std::uint16_t close_code_ = 1005;
  std::string close_reason_;
  std::string error_;
};

const char* status_name(ws_client::status s);

}  // namespace cod::bot
