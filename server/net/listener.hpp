// Accepts TCP connections on one address and port (HTTP and WebSocket) and
// starts an http_session for each, on its own strand, once connection_limits
// admits it (refused ones are closed at once, before a byte is read).
//
// Out of file descriptors (EMFILE, ENFILE), accepting stops for no one: a
// descriptor kept in reserve is given up to accept the waiting connection
// and close it, then taken again, so the backlog drains and the listener
// comes back as soon as descriptors are free.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/beast/core/error.hpp>

#include "net/net_context.hpp"
#include "net/refusal_log.hpp"

namespace cod::server {

class listener : public std::enable_shared_from_this<listener> {
 public:
  // Opens, binds and listens; on failure `ec` is set and run() must not be called.
  // `limits`: who may connect (ctx's for the public port; the health
  // listener's own). `health_only`: serve /healthz and /metrics only.
  listener(boost::asio::io_context& ioc, const boost::asio::ip::tcp::endpoint& endpoint,
           std::shared_ptr<net_context> ctx, connection_limits& limits, bool health_only,
           boost::beast::error_code& ec);
  ~listener();

  void run();
  // Stops accepting (thread-safe).
  void stop();
  // The bound endpoint (the real port when port 0 was asked for).
  boost::asio::ip::tcp::endpoint local_endpoint() const { return endpoint_; }

 private:
  void do_accept();
  void on_accept(boost::beast::error_code ec, boost::asio::ip::tcp::socket socket);
  // EMFILE/ENFILE: sheds the oldest waiting connection with the reserve descriptor.
  void shed_one();
  // A refused connection: counted, and logged at most every few seconds.
  void refused(connection_limits::refusal why, const std::string& address);

  boost::asio::io_context& ioc_;
  boost::asio::strand<boost::asio::io_context::executor_type> strand_;
  boost::asio::ip::tcp::acceptor acceptor_;
  boost::asio::ip::tcp::endpoint endpoint_;
  boost::asio::steady_timer retry_;  // after an accept error (out of descriptors, ...)
  std::shared_ptr<net_context> ctx_;
  connection_limits& limits_;
  const bool health_only_;
  int reserve_fd_ = -1;
  // Connections refused at accept (connection_limits): summarised.
  refusal_log accept_refusals_;
  // The last line about running out of descriptors (at most one an interval).
  std::chrono::steady_clock::time_point last_shed_log_{};
};

}  // namespace cod::server
