#include "net/listener.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>

#include <boost/asio/dispatch.hpp>
#include <boost/asio/strand.hpp>
#include <boost/beast/core/bind_handler.hpp>
#include <spdlog/spdlog.h>

#include "common/metrics.hpp"
#include "net/http_session.hpp"

namespace cod::server {

namespace beast = boost::beast;
namespace net = boost::asio;
using tcp = net::ip::tcp;

namespace {
// One line about refused connections at most this often: a flood of them
// must not become a flood of log lines.
constexpr auto refusal_log_interval = std::chrono::seconds(10);

int open_reserve_fd() { return ::open("/dev/null", O_RDONLY | O_CLOEXEC); }
}  // namespace

listener::listener(net::io_context& ioc, const tcp::endpoint& endpoint, std::shared_ptr<net_context> ctx,
                   connection_limits& limits, bool health_only, beast::error_code& ec)
    : ioc_(ioc),
      strand_(net::make_strand(ioc)),
      acceptor_(strand_),
      retry_(strand_),
      ctx_(std::move(ctx)),
      limits_(limits),
      health_only_(health_only),
      accept_refusals_(health_only ? "accept (health_listen)" : "accept") {
  reserve_fd_ = open_reserve_fd();
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

listener::~listener() {
  if (reserve_fd_ >= 0) ::close(reserve_fd_);
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

void listener::shed_one() {
  if (reserve_fd_ >= 0) {
    ::close(reserve_fd_);
    reserve_fd_ = -1;
  }
  beast::error_code ec;
  tcp::socket doomed(ioc_);
  acceptor_.non_blocking(true, ec);
  acceptor_.accept(doomed, ec);
  acceptor_.non_blocking(false, ec);
  doomed.close(ec);
  reserve_fd_ = open_reserve_fd();
  ctx_->stats->connections_refused_total++;
}

void listener::refused(connection_limits::refusal why, const std::string& address) {
  ctx_->stats->connections_refused_total++;
  accept_refusals_.refused(address, why == connection_limits::refusal::per_address ? "max_connections_per_address reached"
                                    : why == connection_limits::refusal::http_per_address
                                        ? "max_http_connections_per_address reached (connections from it that have "
                                          "not become WebSocket sessions)"
                                        : "max_http_connections reached (connections that have not become "
                                          "WebSocket sessions)");
}

void listener::on_accept(beast::error_code ec, tcp::socket socket) {
  if (ec) {
    if (ec == net::error::operation_aborted) return;  // stopped
    if (ec.value() == EMFILE || ec.value() == ENFILE) {
      // Out of descriptors: drop the connection at the head of the backlog
      // rather than leave it (and every one behind it) hanging.
      shed_one();
      const auto now = std::chrono::steady_clock::now();
      if (now - last_shed_log_ >= refusal_log_interval) {
        last_shed_log_ = now;
        spdlog::warn("accept: {}: a connection was closed unserved; raise the descriptor limit (ulimit -n) or "
                     "lower max_connections / max_http_connections",
                     ec.message());
      }
    } else {
      spdlog::warn("accept: {}", ec.message());
    }
    // Try again shortly, without spinning.
    retry_.expires_after(std::chrono::milliseconds(reserve_fd_ >= 0 ? 1 : 100));
    retry_.async_wait([self = shared_from_this()](beast::error_code e) {
      if (!e) self->do_accept();
    });
    return;
  }
  beast::error_code addr_ec;
  const auto remote = socket.remote_endpoint(addr_ec);
  const std::string address = addr_ec ? std::string("?") : remote.address().to_string();
  connection_limits::refusal why{};
  auto admitted = limits_.admit(address, why);
  if (!admitted) {
    refused(why, address);
    beast::error_code ignored;
    socket.close(ignored);
    return do_accept();
  }
  // Replies are small and come in pairs (accepted, then update): without
  // TCP_NODELAY the second waits for the client's delayed ACK (~40 ms).
  beast::error_code nodelay_ec;
  socket.set_option(tcp::no_delay(true), nodelay_ec);
  if (!ctx_->shutting_down) std::make_shared<http_session>(std::move(socket), ctx_, std::move(admitted), health_only_)->run();
  do_accept();
}

}  // namespace cod::server
