#include "net/websocket_session.hpp"

#include "net/forwarded_for.hpp"

#include <string_view>

#include <boost/asio/dispatch.hpp>
#include <boost/asio/post.hpp>
#include <spdlog/spdlog.h>

#include "cod/protocol/messages.hpp"
#include "common/metrics.hpp"

namespace cod::server {

namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
namespace net = boost::asio;

namespace {
// Bytes asked of the socket per read: a message arrives in pieces of at most
// this, so an oversized one is noticed after max_frame_bytes + this at most.
constexpr std::size_t read_chunk = 16 * 1024;
// RFC 6455 registry: "Try Again Later" (over max_connections).
constexpr std::uint16_t close_code_try_again_later = 1013;
}  // namespace

websocket_session::websocket_session(net::ip::tcp::socket&& socket, std::shared_ptr<net_context> ctx,
                                     std::unique_ptr<admission> admitted)
    : ws_(std::move(socket)),
      ctx_(std::move(ctx)),
      id_(ctx_->next_connection_id++),
      queue_(ctx_->cfg.max_queued_messages, ctx_->cfg.max_queued_bytes),
      limiter_(ctx_->cfg.rate_limit_per_sec, ctx_->cfg.rate_limit_burst, ctx_->cfg.flood_factor),
      close_timer_(ws_.get_executor()),
      hello_timer_(ws_.get_executor()),
      admitted_(std::move(admitted)) {
  beast::error_code ec;
  auto ep = beast::get_lowest_layer(ws_).socket().remote_endpoint(ec);
  if (!ec) {
    remote_ = ep.address().to_string();
    remote_ += ':';
    remote_ += std::to_string(ep.port());
  }
  ctx_->stats->connections++;
  ctx_->stats->connections_total++;
}

websocket_session::~websocket_session() { ctx_->stats->connections--; }

void websocket_session::fail(beast::error_code ec, const char* what) {
  // Ends of connections, not failures worth a line.
  if (ec == net::error::operation_aborted || ec == websocket::error::closed || ec == beast::error::timeout ||
      ec == net::error::eof || ec == net::error::connection_reset || ec == net::error::broken_pipe)
    spdlog::debug("connection {}: {}: {}", id_, what, ec.message());
  else
    spdlog::info("connection {} ({}): {}: {}", id_, remote_, what, ec.message());
}

namespace {
// The `room` query parameter of the upgrade request's target
// (/ws?room=ID): the room a cluster's proxy routed the connection by.
std::string room_param(std::string_view target) {
  const auto q = target.find('?');
  if (q == std::string_view::npos) return {};
  std::string_view query = target.substr(q + 1);
  while (!query.empty()) {
    const auto amp = query.find('&');
    const std::string_view pair = query.substr(0, amp);
    if (pair.starts_with("room=")) return std::string(pair.substr(5));
    if (amp == std::string_view::npos) break;
    query.remove_prefix(amp + 1);
  }
  return {};
}
}  // namespace

void websocket_session::run(http::request<http::string_body> req, bool refuse) {
  req_ = std::move(req);
  refuse_ = refuse;
  // Get on the connection's strand before touching anything.
  net::dispatch(ws_.get_executor(), [self = shared_from_this()] { self->on_run(); });
}

void websocket_session::on_run() {
  const std::string forwarded = forwarded_for_of(req_);
  const std::string address =
      admitted_ ? client_address(admitted_->address(), forwarded, ctx_->trusted_proxies) : std::string();
  if (admitted_ && address != admitted_->address())
    spdlog::debug("connection {} ({}): client {} (X-Forwarded-For, from a trusted proxy)", id_, remote_, address);
  // An account check (hello.account_token) answers from the account workers;
  // its answer is read on this connection's strand, as every message is.
  auto on_strand = [weak = weak_from_this()](std::function<void()> f) {
    if (auto self = weak.lock()) net::post(self->ws_.get_executor(), std::move(f));
  };
  client_ = std::make_shared<client_session>(*ctx_->lobby, weak_from_this(), id_, address, std::move(on_strand));
  client_->set_routed_room(room_param(std::string_view(req_.target().data(), req_.target().size())));
  auto timeouts = websocket::stream_base::timeout::suggested(beast::role_type::server);
  timeouts.handshake_timeout = std::chrono::seconds(ctx_->cfg.handshake_timeout_sec);
  timeouts.idle_timeout = std::chrono::seconds(ctx_->cfg.idle_timeout_sec);
  timeouts.keep_alive_pings = true;
  ws_.set_option(timeouts);
  ws_.set_option(websocket::stream_base::decorator([](websocket::response_type& res) {
    res.set(http::field::server, "cod-server/0.1");
  }));
  // The size limit is enforced here (on_read), not by Beast, so that the
  // client gets an error frame before the 1009 close.
  ws_.read_message_max(0);
  ws_.auto_fragment(false);
  ws_.text(true);
  ws_.async_accept(req_, beast::bind_front_handler(&websocket_session::on_accept, shared_from_this()));
}

void websocket_session::on_accept(beast::error_code ec) {
  if (ec) return fail(ec, "accept");
  open_ = true;
  spdlog::debug("connection {}: WebSocket open from {}", id_, remote_);
  // Refusals: queued directly (we are on the strand), so the error goes out
  // before the close that follows.
  auto refuse = [this](protocol::session_errc code, std::string_view message) {
    ctx_->stats->error(protocol::session_errc_name(code));
    on_send(std::make_shared<const std::string>(protocol::make_error(nlohmann::json(), code, message).dump()));
  };
  if (refuse_ && !ctx_->shutting_down) {
    refuse(protocol::session_errc::server_busy, "too many connections; try again later");
    return do_close(close_code_try_again_later, "server busy", false);
  }
  ctx_->connections.add(shared_from_this());
  if (ctx_->shutting_down) {
    refuse(protocol::session_errc::shutting_down, {});
    return do_close(protocol::close_code::going_away, "server shutting down", false);
  }
  hello_timer_.expires_after(std::chrono::seconds(ctx_->cfg.hello_timeout_sec));
  hello_timer_.async_wait(beast::bind_front_handler(&websocket_session::on_hello_timeout, shared_from_this()));
  do_read();
}

void websocket_session::on_hello_timeout(beast::error_code ec) {
  if (ec == net::error::operation_aborted || closing_ || finished_ || client_->said_hello()) return;
  ctx_->stats->hello_timeouts_total++;
  spdlog::info("connection {} ({}): no hello within {} s, closed", id_, remote_, ctx_->cfg.hello_timeout_sec);
  client_->on_hello_timeout();
}

void websocket_session::do_read() {
  ws_.async_read_some(buffer_, read_chunk,
                      beast::bind_front_handler(&websocket_session::on_read, shared_from_this()));
}

void websocket_session::on_read(beast::error_code ec, std::size_t) {
  if (ec) {
    fail(ec, "read");
    return finish();
  }
  if (closing_) return;
  if (buffer_.size() > ctx_->cfg.max_frame_bytes) {
    // Stop reading: the rest of the message is never buffered.
    spdlog::info("connection {} ({}): message over {} bytes refused", id_, remote_, ctx_->cfg.max_frame_bytes);
    buffer_.clear();
    client_->on_oversized();
    return;
  }
  if (!ws_.is_message_done()) return do_read();

  ctx_->stats->messages_in_total++;
  const std::string_view text(static_cast<const char*>(buffer_.data().data()), buffer_.size());
  switch (limiter_.on_message()) {
    case rate_limiter::verdict::allow:
      if (ws_.got_binary()) client_->on_binary();
      else client_->on_text(text);
      break;
    case rate_limiter::verdict::limited:
      client_->on_rate_limited();
      break;
    case rate_limiter::verdict::flood:
      spdlog::warn("connection {} ({}): flooding, closed", id_, remote_);
      buffer_.clear();
      do_close(protocol::close_code::policy_violation, "flooding", true);
      return;
  }
  buffer_.clear();
  if (!closing_) do_read();
}

// ---------------------------------------------------------------------------
// Writing.

void websocket_session::send(message_ptr m) {
  net::post(ws_.get_executor(), [self = shared_from_this(), m = std::move(m)]() mutable {
    self->on_send(std::move(m));
  });
}

void websocket_session::on_send(message_ptr m) {
  if (closing_ || finished_ || !open_) return;
  if (!queue_.push(std::move(m))) {
    ctx_->stats->slow_consumers_total++;
    spdlog::warn("connection {} ({}): slow consumer dropped ({} messages queued)", id_, remote_, queue_.size());
    do_close(protocol::close_code::policy_violation, "slow consumer", true);
    return;
  }
  if (!writing_) do_write();
}

void websocket_session::do_write() {
  writing_ = true;
  ws_.async_write(net::buffer(queue_.front()),
                  beast::bind_front_handler(&websocket_session::on_write, shared_from_this()));
}

void websocket_session::on_write(beast::error_code ec, std::size_t) {
  writing_ = false;
  if (ec) {
    fail(ec, "write");
    queue_.clear();
    return finish();
  }
  ctx_->stats->messages_out_total++;
  queue_.pop();
  if (!queue_.empty()) return do_write();
  if (closing_ && !close_started_) start_close();
}

// ---------------------------------------------------------------------------
// Closing.

void websocket_session::close(std::uint16_t code, std::string reason) {
  net::post(ws_.get_executor(), [self = shared_from_this(), code, reason = std::move(reason)]() mutable {
    self->do_close(code, std::move(reason), false);
  });
}

// Queued messages go out first (an error frame before its close) unless
// `drop_pending`; the close handshake and everything before it is bounded by
// close_timeout_ms.
void websocket_session::do_close(std::uint16_t code, std::string reason, bool drop_pending) {
  if (closing_ || finished_) return;
  closing_ = true;
  close_code_ = code;
  close_reason_ = std::move(reason);
  if (drop_pending) {
    if (writing_) queue_.drop_pending();
    else queue_.clear();
  }
  close_timer_.expires_after(std::chrono::milliseconds(ctx_->cfg.close_timeout_ms));
  close_timer_.async_wait(beast::bind_front_handler(&websocket_session::on_close_timeout, shared_from_this()));
  if (!open_) return;  // the handshake is still running; the timer ends it
  if (!writing_ && queue_.empty()) start_close();
}

void websocket_session::start_close() {
  close_started_ = true;
  spdlog::debug("connection {}: closing ({} {})", id_, close_code_, close_reason_);
  websocket::close_reason cr(static_cast<websocket::close_code>(close_code_), close_reason_);
  ws_.async_close(cr, beast::bind_front_handler(&websocket_session::on_close, shared_from_this()));
}

void websocket_session::on_close(beast::error_code ec) {
  if (ec) fail(ec, "close");
  close_timer_.cancel();
  finish();
}

void websocket_session::on_close_timeout(beast::error_code ec) {
  if (ec == net::error::operation_aborted) return;
  // The peer neither read nor answered the close: drop the connection.
  spdlog::debug("connection {}: close timed out; dropping the TCP connection", id_);
  beast::error_code ignored;
  beast::get_lowest_layer(ws_).socket().shutdown(net::ip::tcp::socket::shutdown_both, ignored);
  beast::get_lowest_layer(ws_).socket().close(ignored);
  finish();
}

// The connection is over (once): the rooms learn it, the list forgets it.
void websocket_session::finish() {
  if (finished_) return;
  finished_ = true;
  closing_ = true;
  close_timer_.cancel();
  hello_timer_.cancel();
  if (open_) ctx_->connections.remove(id_);
  if (client_) client_->on_closed();
  spdlog::debug("connection {}: closed", id_);
}

}  // namespace cod::server
