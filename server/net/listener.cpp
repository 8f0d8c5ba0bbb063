#include "net/listener.hpp"

#include <boost/asio/dispatch.hpp>
#include <boost/asio/strand.hpp>
#include <boost/beast/core/bind_handler.hpp>
#include <spdlog/spdlog.h>

#include "net/http_session.hpp"

namespace cod::server {

namespace beast = boost::beast;
namespace net = boost::asio;
using tcp = net::ip::tcp;

listener::listener(net::io_context& ioc, const tcp::endpoint& endpoint, std::shared_ptr<net_context> ctx,
                   beast::error_code& ec)
    : ioc_(ioc), strand_(net::make_strand(ioc)), acceptor_(strand_), retry_(strand_), ctx_(std::move(ctx)) {
  acceptor_.open(endpoint.protocol(), ec);
  if (ec) return;
  acceptor_.set_option(net::socket_base::reuse_address(true), ec);
  if (ec) return;
  acceptor_.bind(endpoint, ec);
  if (ec) return;
  acceptor_.listen(net::socket_base::max_listen_connections, ec);
  if (ec) return;
  endpoint_ = acceptor_.local_endpoint(ec);
}

void listener::run() {
  net::dispatch(strand_, beast::bind_front_handler(&listener::do_accept, shared_from_this()));
}

void listener::stop() {
  net::dispatch(strand_, [self = shared_from_this()] {
    beast::error_code ec;
    self->acceptor_.close(ec);
    self->retry_.cancel();
  });
}

void listener::do_accept() {
  if (!acceptor_.is_open()) return;
  // Each connection gets its own strand: its handlers never run concurrently.
  acceptor_.async_accept(net::make_strand(ioc_),
                         beast::bind_front_handler(&listener::on_accept, shared_from_this()));
}

void listener::on_accept(beast::error_code ec, tcp::socket socket) {
  if (ec) {
    if (ec == net::error::operation_aborted) return;  // stopped
    // Out of file descriptors and the like: try again shortly, without spinning.
    spdlog::warn("accept: {}", ec.message());
    retry_.expires_after(std::chrono::milliseconds(100));
    retry_.async_wait([self = shared_from_this()](beast::error_code e) {
      if (!e) self->do_accept();
    });
    return;
  }
  // Replies are small and come in pairs (accepted, then update): without
  // TCP_NODELAY the second waits for the client's delayed ACK (~40 ms).
  beast::error_code nodelay_ec;
  socket.set_option(tcp::no_delay(true), nodelay_ec);
  if (!ctx_->shutting_down) std::make_shared<http_session>(std::move(socket), ctx_)->run();
  do_accept();
}

}  // namespace cod::server
