// Accepts TCP connections on one address and port (HTTP and WebSocket) and
// starts an http_session for each, on its own strand.
#pragma once

#include <memory>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/beast/core/error.hpp>

#include "net/net_context.hpp"

namespace cod::server {

class listener : public std::enable_shared_from_this<listener> {
 public:
  // Opens, binds and listens; on failure `ec` is set and run() must not be called.
  listener(boost::asio::io_context& ioc, const boost::asio::ip::tcp::endpoint& endpoint,
           std::shared_ptr<net_context> ctx, boost::beast::error_code& ec);

  void run();
  // Stops accepting (thread-safe).
  void stop();
  // The bound endpoint (the real port when port 0 was asked for).
  boost::asio::ip::tcp::endpoint local_endpoint() const { return endpoint_; }

 private:
  void do_accept();
  void on_accept(boost::beast::error_code ec, boost::asio::ip::tcp::socket socket);

  boost::asio::io_context& ioc_;
  boost::asio::strand<boost::asio::io_context::executor_type> strand_;
  boost::asio::ip::tcp::acceptor acceptor_;
  boost::asio::ip::tcp::endpoint endpoint_;
  boost::asio::steady_timer retry_;  // after an accept error (out of descriptors, ...)
  std::shared_ptr<net_context> ctx_;
};

}  // namespace cod::server
