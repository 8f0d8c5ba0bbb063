#include "net/http_session.hpp"

#include "net/forwarded_for.hpp"

#include <boost/asio/dispatch.hpp>
#include <boost/beast/websocket/rfc6455.hpp>
#include <spdlog/spdlog.h>

#include "account_service/account_api.hpp"
#include "admin/admin_api.hpp"
#include "common/metrics.hpp"
#include "common/strcat.hpp"
#include "net/gzip.hpp"
#include "net/static_files.hpp"
#include "net/websocket_session.hpp"

namespace cod::server {

namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
namespace net = boost::asio;

namespace {
// Organiser API bodies (a tournament's player list) are the largest.
constexpr std::size_t max_request_body = 64 * 1024;
constexpr const char* server_name = "cod-server/0.1";

// GET /play/... and /admin/...: the browser clients (net/static_files.hpp).
template <class Request, class Response>
void serve_static(const static_files* files, const Request& req, std::string_view path, Response& res) {
  static_result r;
  if (files) {
    const auto inm = req[http::field::if_none_match];
    const auto ae = req[http::field::accept_encoding];
    r = files->serve(path, std::string_view(inm.data(), inm.size()),
                     accepts_gzip(std::string_view(ae.data(), ae.size())));
  } else {
    r = static_files("").serve(path);
  }
  res.result(static_cast<http::status>(r.status));
  res.set(http::field::content_type, r.content_type);
  res.set(http::field::cache_control, r.cache_control);
  res.set("X-Content-Type-Options", "nosniff");
  if (!r.etag.empty()) res.set(http::field::etag, r.etag);
  if (!r.location.empty()) res.set(http::field::location, r.location);
  if (!r.content_encoding.empty()) res.set(http::field::content_encoding, r.content_encoding);
  if (r.vary_accept_encoding) res.set(http::field::vary, "Accept-Encoding");
  res.body() = std::move(r.body);
}
}  // namespace

http_session::http_session(net::ip::tcp::socket&& socket, std::shared_ptr<net_context> ctx,
                           std::unique_ptr<admission> admitted, bool health_only)
    : stream_(std::move(socket)), ctx_(std::move(ctx)), admitted_(std::move(admitted)), health_only_(health_only) {}

void http_session::fail(beast::error_code ec, const char* what) {
  if (ec == net::error::operation_aborted || ec == beast::error::timeout || ec == net::error::connection_reset)
    return;
  spdlog::debug("http: {}: {}", what, ec.message());
}

void http_session::run() {
  net::dispatch(stream_.get_executor(),
                beast::bind_front_handler(&http_session::do_read, shared_from_this()));
}

void http_session::do_read() {
  parser_.emplace();
  parser_->body_limit(max_request_body);
  stream_.expires_after(std::chrono::seconds(std::min(ctx_->cfg.http_header_timeout_sec, ctx_->cfg.http_timeout_sec)));
  http::async_read_header(stream_, buffer_, *parser_,
                          beast::bind_front_handler(&http_session::on_header, shared_from_this()));
}

void http_session::on_header(beast::error_code ec, std::size_t bytes) {
  if (ec == http::error::end_of_stream) return do_close();
  if (ec) return fail(ec, "read header");

  // RFC 9112 6.1: a request whose Transfer-Encoding is not chunked (last)
  // has a body of unknown length; Beast would read it as no body, leaving
  // the rest of the bytes to be taken as the next request (smuggling).
  if (const auto te = parser_->get().find(http::field::transfer_encoding); te != parser_->get().end() &&
                                                                           !parser_->chunked()) {
    response res{http::status::bad_request, parser_->get().version()};
    res.set(http::field::content_type, "text/plain");
    res.body() = "unsupported Transfer-Encoding: only chunked is accepted\n";
    res.keep_alive(false);
    return do_write(std::move(res));
  }
  if (parser_->is_done()) return on_read({}, bytes);
  stream_.expires_after(std::chrono::seconds(ctx_->cfg.http_timeout_sec));
  http::async_read(stream_, buffer_, *parser_, beast::bind_front_handler(&http_session::on_read, shared_from_this()));
}

void http_session::on_read(beast::error_code ec, std::size_t) {
  if (ec == http::error::end_of_stream) return do_close();
  if (ec) return fail(ec, "read");

  if (health_only_) {
    const auto target = parser_->get().target();
    const std::string_view path(target.data(), target.find('?') == target.npos ? target.size() : target.find('?'));
    if (websocket::is_upgrade(parser_->get()) || (path != "/healthz" && path != "/metrics")) {
      response res{http::status::not_found, parser_->get().version()};
      res.set(http::field::content_type, "text/plain");
      res.body() = "this listener (health_listen) serves GET /healthz and /metrics only\n";
      res.keep_alive(parser_->get().keep_alive());
      return do_write(std::move(res));
    }
    return do_write(handle(parser_->get()));
  }

  if (websocket::is_upgrade(parser_->get())) {
    const auto target = parser_->get().target();
    if (target != "/ws" && target.substr(0, 4) != "/ws?") {
      response res{http::status::not_found, parser_->get().version()};
      res.set(http::field::content_type, "text/plain");
      res.body() = "WebSocket endpoint is /ws\n";
      res.keep_alive(false);
      return do_write(std::move(res));
    }
    // Over max_connections the upgrade is still accepted, so the client reads
    // a server_busy error (then close 1013) rather than a bare HTTP status.
    // The place is taken now, before the handshake: simultaneous handshakes
    // cannot overshoot the limit.
    const bool busy = ctx_->shutting_down || !admitted_->upgrade();
    if (busy && !ctx_->shutting_down) {
      ctx_->stats->websocket_refused_total++;
      ctx_->upgrade_refusals.refused(admitted_->address(),
                                     detail::cat("max_connections (", ctx_->cfg.max_connections,
                                                 ") WebSocket connections open: error server_busy, close 1013"));
    }
    // The timeout belongs to the WebSocket stream from now on.
    stream_.expires_never();
    std::make_shared<websocket_session>(stream_.release_socket(), ctx_, std::move(admitted_))
        ->run(parser_->release(), busy);
    return;
  }
  const auto target = parser_->get().target();
  if (admin::is_admin_target(std::string_view(target.data(), target.size()))) return handle_admin(parser_->get());
  {
    const std::string_view t(target.data(), target.size());
    if (accounts::is_account_target(t.substr(0, t.find('?')))) return handle_accounts(parser_->get());
  }
  do_write(handle(parser_->get()));
}

std::string http_session::remote_of(const request& req) {
  beast::error_code ec;
  const auto peer = stream_.socket().remote_endpoint(ec);
  if (ec) return "?";
  const std::string forwarded = forwarded_for_of(req);
  const std::string ip = peer.address().to_string();
  const std::string client = client_address(ip, forwarded, ctx_->trusted_proxies);
  // Behind a trusted proxy: the client's address, its port unknown (0).
  std::string remote = client;
  remote += ':';
  remote += client == ip ? std::to_string(peer.port()) : std::string("0");
  return remote;
}

admin::request http_session::service_request(const request& req) {
  admin::request areq;
  areq.method = std::string(req.method_string());
  areq.target = std::string(req.target());
  areq.body = req.body();
  if (auto it = req.find(http::field::authorization); it != req.end()) areq.authorization = std::string(it->value());
  areq.remote = remote_of(req);
  return areq;
}

void http_session::write_service_answer(admin::response ar, unsigned version, bool keep_alive, bool head) {
  response res{static_cast<http::status>(ar.status), version};
  res.set(http::field::content_type, ar.content_type);
  res.set(http::field::cache_control, "no-store");
  for (auto& [name, value] : ar.headers) res.set(name, value);
  res.keep_alive(keep_alive);
  res.body() = std::move(ar.body);
  res.prepare_payload();
  if (head) res.body().clear();
  do_write(std::move(res));
}

void http_session::handle_admin(const request& req) {
  if (!ctx_->admin || !ctx_->run_admin) {
    response res{http::status::not_found, req.version()};
    res.set(http::field::content_type, "text/plain");
    res.body() = "not found\n";
    res.keep_alive(req.keep_alive());
    return do_write(std::move(res));
  }
  admin::request areq = service_request(req);
  // No read is pending while the admin thread works: the next request is
  // read after this response is written, as for every other route.
  const unsigned version = req.version();
  const bool keep_alive = req.keep_alive();
  const bool head = req.method() == http::verb::head;
  ctx_->run_admin([self = shared_from_this(), areq = std::move(areq), version, keep_alive, head] {
    admin::response ar = self->ctx_->admin->handle(areq);
    net::post(self->stream_.get_executor(), [self, ar = std::move(ar), version, keep_alive, head]() mutable {
      self->write_service_answer(std::move(ar), version, keep_alive, head);
    });
  });
}

void http_session::handle_accounts(const request& req) {
  const unsigned version = req.version();
  const bool keep_alive = req.keep_alive();
  const bool head = req.method() == http::verb::head;
  if (!ctx_->accounts || !ctx_->run_accounts)
    return write_service_answer(admin::error_response(404, "not_found", "this server has no accounts"), version,
                                keep_alive, head);
  admin::request areq = service_request(req);
  const bool queued = ctx_->run_accounts([self = shared_from_this(), areq, version, keep_alive, head] {
    admin::response ar = self->ctx_->accounts->handle(areq);
    net::post(self->stream_.get_executor(), [self, ar = std::move(ar), version, keep_alive, head]() mutable {
      self->write_service_answer(std::move(ar), version, keep_alive, head);
    });
  });
  if (!queued) {
    // Every account worker busy and the queue full: a storm of sign-ins.
    admin::response busy = admin::error_response(503, "busy", "the server is busy signing players in: retry shortly");
    busy.headers.emplace_back("Retry-After", "1");
    write_service_answer(std::move(busy), version, keep_alive, head);
  }
}

http_session::response http_session::handle(const request& req) {
  response res{http::status::ok, req.version()};
  res.set(http::field::server, server_name);
  res.keep_alive(req.keep_alive());
  std::string_view target(req.target().data(), req.target().size());
  if (auto q = target.find('?'); q != std::string_view::npos) target = target.substr(0, q);

  if (req.method() != http::verb::get && req.method() != http::verb::head) {
    res.result(http::status::method_not_allowed);
    res.set(http::field::allow, "GET, HEAD");
    res.set(http::field::content_type, "text/plain");
    res.body() = "method not allowed\n";
  } else if (target == "/healthz") {
    res.set(http::field::content_type, "application/json");
    res.set(http::field::cache_control, "no-store");
    auto [healthy, body] = ctx_->healthz();
    if (!healthy) res.result(http::status::service_unavailable);
    res.body() = std::move(body);
  } else if (target == "/metrics") {
    res.set(http::field::content_type, "text/plain; version=0.0.4; charset=utf-8");
    res.set(http::field::cache_control, "no-store");
    res.body() = ctx_->metrics_text();
  } else if (static_files::claims(target)) {
    serve_static(ctx_->files.get(), req, target, res);
  } else if (target == "/ws") {
    res.result(http::status::upgrade_required);
    res.set(http::field::upgrade, "websocket");
    res.set(http::field::content_type, "text/plain");
    res.body() = "this endpoint speaks WebSocket\n";
  } else {
    res.result(http::status::not_found);
    res.set(http::field::content_type, "text/plain");
    res.body() = "not found\n";
  }
  res.prepare_payload();
  if (req.method() == http::verb::head) res.body().clear();
  return res;
}

void http_session::do_write(response res) {
  res.set(http::field::server, server_name);
  if (res.body().size() && !res.has_content_length()) res.prepare_payload();
  res_ = std::make_shared<response>(std::move(res));
  const bool close = res_->need_eof();
  http::async_write(stream_, *res_,
                    beast::bind_front_handler(&http_session::on_write, shared_from_this(), close));
}

void http_session::on_write(bool close, beast::error_code ec, std::size_t) {
  res_.reset();
  if (ec) return fail(ec, "write");
  if (close || ctx_->shutting_down) return do_close();
  do_read();
}

void http_session::do_close() {
  beast::error_code ec;
  stream_.socket().shutdown(net::ip::tcp::socket::shutdown_send, ec);
}

}  // namespace cod::server
