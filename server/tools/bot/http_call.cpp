#include "bot/http_call.hpp"

#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>

namespace cod::bot {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = net::ip::tcp;

namespace {

// The request over `stream` (connected), with every step bounded by the
// stream's expiry (tcp_stream::expires_at).
template <class Stream>
http_answer exchange(net::io_context& ioc, Stream& stream, const http::request<http::string_body>& req) {
  http_answer out;
  beast::flat_buffer buffer;
  http::response<http::string_body> res;
  boost::system::error_code failed;
  http::async_write(stream, req, [&](boost::system::error_code ec, std::size_t) {
    if (ec) {
      failed = ec;
      return;
    }
    http::async_read(stream, buffer, res, [&](boost::system::error_code ec2, std::size_t) { failed = ec2; });
  });
  ioc.restart();
  ioc.run();
  if (failed) {
    out.error = "http: " + failed.message();
    return out;
  }
  out.status = static_cast<int>(res.result_int());
  out.body = std::move(res.body());
  return out;
}

}  // namespace

http_answer http_call(const std::string& host, std::uint16_t port, const std::string& method,
                      const std::string& target, const std::string& body, const std::string& bearer,
                      std::chrono::steady_clock::time_point deadline, const tls_options& tls) {
  net::io_context ioc;
  http::request<http::string_body> req{http::string_to_verb(method), target, 11};
  req.set(http::field::host, host);
  req.set(http::field::user_agent, "cod-bot/0.1");
  if (!bearer.empty()) req.set(http::field::authorization, "Bearer " + bearer);
  if (!body.empty()) {
    req.set(http::field::content_type, "application/json");
    req.body() = body;
  }
  req.prepare_payload();

  http_answer out;
  boost::system::error_code ec;
  auto endpoints = tcp::resolver(ioc).resolve(host, std::to_string(port), ec);
  if (ec) {
    out.error = "resolve " + host + ": " + ec.message();
    return out;
  }
  if (!tls.enabled) {
    beast::tcp_stream stream(ioc);
    stream.expires_at(deadline);
    boost::system::error_code connected;
    stream.async_connect(endpoints, [&](boost::system::error_code e, const tcp::endpoint&) { connected = e; });
    ioc.run();
    if (connected) {
      out.error = "connect: " + connected.message();
      return out;
    }
    out = exchange(ioc, stream, req);
    stream.socket().shutdown(tcp::socket::shutdown_both, ec);
    return out;
  }
  net::ssl::context ctx(net::ssl::context::tls_client);
  ctx.set_verify_mode(net::ssl::verify_peer);
  if (tls.ca_file.empty()) ctx.set_default_verify_paths(ec);
  else ctx.load_verify_file(tls.ca_file, ec);
  if (ec) {
    out.error = "tls: " + ec.message();
    return out;
  }
  beast::ssl_stream<beast::tcp_stream> stream(ioc, ctx);
  stream.set_verify_callback(net::ssl::host_name_verification(host));
  SSL_set_tlsext_host_name(stream.native_handle(), host.c_str());
  beast::get_lowest_layer(stream).expires_at(deadline);
  boost::system::error_code step;
  beast::get_lowest_layer(stream).async_connect(endpoints, [&](boost::system::error_code e, const tcp::endpoint&) {
    step = e;
    if (!e) stream.async_handshake(net::ssl::stream_base::client, [&](boost::system::error_code h) { step = h; });
  });
  ioc.run();
  if (step) {
    out.error = "connect: " + step.message();
    return out;
  }
  return exchange(ioc, stream, req);
}

}  // namespace cod::bot
