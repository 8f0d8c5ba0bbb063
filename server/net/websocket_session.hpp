// One WebSocket connection on /ws. Everything runs on the connection's
// strand (the socket's executor, made by the listener); send() and close()
// post to it from any thread.
//
// Reads: one message at a time, at most max_frame_bytes (larger ones get an
// `error` frame_too_large, then close 1009), each through the connection's
// rate limiter (rate_limited, or close 1008 on a flood), then to the
// connection's client_session. Writes: a capped queue of shared messages; a
// client that does not read until the queue overflows is closed (1008,
// "slow consumer"). Every close is bounded by close_timeout_ms, after which
// the TCP connection is dropped. A connection that has not said hello within
// hello_timeout_sec is closed (1008): without it, connections that only
// answer pings would hold their places for ever.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>

#include "net/net_context.hpp"
#include "common/rate_limiter.hpp"
#include "net/send_queue.hpp"
#include "room/client_session.hpp"
#include "room/peer.hpp"

namespace cod::server {

class websocket_session : public peer, public std::enable_shared_from_this<websocket_session> {
 public:
  // `admitted`: the connection's places (net/connection_limits.hpp).
  websocket_session(boost::asio::ip::tcp::socket&& socket, std::shared_ptr<net_context> ctx,
                    std::unique_ptr<admission> admitted);
  ~websocket_session() override;

  // Takes the upgrade request the HTTP session read, and accepts it. With
  // `refuse`, the connection only gets an error (server_busy, or
  // shutting_down) and is closed.
  void run(boost::beast::http::request<boost::beast::http::string_body> req, bool refuse = false);

  // peer
  void send(message_ptr m) override;
  void close(std::uint16_t code, std::string reason) override;
  std::uint64_t id() const override { return id_; }

 private:
  void on_run();
  void on_accept(boost::beast::error_code ec);
  void do_read();
  void on_read(boost::beast::error_code ec, std::size_t bytes);
  void on_send(message_ptr m);
  void do_write();
  void on_write(boost::beast::error_code ec, std::size_t bytes);
  void do_close(std::uint16_t code, std::string reason, bool drop_pending);
  void start_close();
  void on_close(boost::beast::error_code ec);
  void on_close_timeout(boost::beast::error_code ec);
  void on_hello_timeout(boost::beast::error_code ec);
  void fail(boost::beast::error_code ec, const char* what);
  void finish();

  boost::beast::websocket::stream<boost::beast::tcp_stream> ws_;
  boost::beast::flat_buffer buffer_;
  boost::beast::http::request<boost::beast::http::string_body> req_;
  std::shared_ptr<net_context> ctx_;
  std::uint64_t id_;
  std::string remote_;
  send_queue queue_;
  rate_limiter limiter_;
  std::shared_ptr<client_session> client_;
  boost::asio::steady_timer close_timer_;
  boost::asio::steady_timer hello_timer_;  // hello_timeout_sec after the handshake
  std::unique_ptr<admission> admitted_;
  bool open_ = false;      // handshake done
  bool writing_ = false;   // an async_write is pending
  bool closing_ = false;   // a close was asked for; nothing more is queued
  bool close_started_ = false;
  bool finished_ = false;
  bool refuse_ = false;
  std::uint16_t close_code_ = 1000;
  std::string close_reason_;
};

}  // namespace cod::server
