#include "bot/ws_client.hpp"

#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl/host_name_verification.hpp>
#include <boost/beast/core/buffers_to_string.hpp>
#include <boost/beast/ssl.hpp>
#include <boost/beast/websocket.hpp>
#include <boost/beast/websocket/ssl.hpp>

namespace cod::bot {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;
using tcp = net::ip::tcp;

const char* status_name(ws_client::status s) {
  switch (s) {
    case ws_client::status::ok: return "ok";
    case ws_client::status::timeout: return "timeout";
    case ws_client::status::closed: return "closed";
    case ws_client::status::error: return "error";
  }
  return "?";
}

ws_client::ws_client() : ws_(ioc_) {}
ws_client::~ws_client() = default;

bool ws_client::is_open() const { return tls_ws_ ? tls_ws_->is_open() : ws_.is_open(); }

beast::tcp_stream& ws_client::tcp() { return tls_ws_ ? beast::get_lowest_layer(*tls_ws_) : beast::get_lowest_layer(ws_); }

bool ws_client::wait(const bool& done, clock::time_point deadline) {
  ioc_.restart();
  while (!done) {
    if (ioc_.run_one_until(deadline) != 0) continue;
    if (done) break;
    if (clock::now() < deadline) {  // out of work: should not happen
      ioc_.restart();
      continue;
    }
    // Timed out: cancel, and let the handler run with operation_aborted.
    tcp().cancel();
    ioc_.restart();
    while (!done && ioc_.run_one() != 0) {
    }
    return false;
  }
  return true;
}

ws_client::status ws_client::result(boost::system::error_code ec, bool in_time, const char* what) {
  if (!in_time) {
    error_ = what;
    error_ += ": timed out";
    return status::timeout;
  }
  if (!ec) return status::ok;
  if (ec == websocket::error::closed) {
    with_ws([&](auto& ws) {
      close_code_ = ws.reason().code;
      close_reason_ = std::string(ws.reason().reason.c_str());
    });
    return status::closed;
  }
  error_ = what;
  error_ += ": ";
  error_ += ec.message();
  return status::error;
}

ws_client::status ws_client::connect(const std::string& host, std::uint16_t port, const std::string& target,
                                     clock::time_point deadline, const tls_options& tls) {
  boost::system::error_code ec;
  if (tls.enabled) {
    namespace ssl = net::ssl;
    tls_ctx_ = std::make_unique<ssl::context>(ssl::context::tls_client);
    tls_ctx_->set_verify_mode(ssl::verify_peer);
    if (tls.ca_file.empty()) tls_ctx_->set_default_verify_paths(ec);
    else tls_ctx_->load_verify_file(tls.ca_file, ec);
    if (ec) {
      error_ = "TLS trust store";
      error_ += tls.ca_file.empty() ? "" : " " + tls.ca_file;
      error_ += ": ";
      error_ += ec.message();
      return status::error;
    }
    tls_ws_ = std::make_unique<tls_stream>(ioc_, *tls_ctx_);
    // SNI, and the certificate must name `host`.
    if (!SSL_set_tlsext_host_name(tls_ws_->next_layer().native_handle(), host.c_str())) {
      error_ = "TLS: cannot set the server name";
      return status::error;
    }
    tls_ws_->next_layer().set_verify_callback(ssl::host_name_verification(host));
  }
  tcp::resolver resolver(ioc_);
  auto endpoints = resolver.resolve(host, std::to_string(port), ec);
  if (ec) {
    error_ = "cannot resolve ";
    error_ += host;
    error_ += ": ";
    error_ += ec.message();
    return status::error;
  }
  bool done = false;
  tcp().async_connect(endpoints, [&](boost::system::error_code e, const tcp::endpoint&) {
    ec = e;
    done = true;
  });
  if (auto s = result(ec, wait(done, deadline), "connect"); s != status::ok) return s;
  tcp().socket().set_option(tcp::no_delay(true), ec);
  if (tls_ws_) {
    done = false;
    tls_ws_->next_layer().async_handshake(net::ssl::stream_base::client, [&](boost::system::error_code e) {
      ec = e;
      done = true;
    });
    if (auto s = result(ec, wait(done, deadline), "TLS handshake"); s != status::ok) return s;
  }
  std::string host_header = host;
  host_header += ':';
  host_header += std::to_string(port);
  done = false;
  with_ws([&](auto& ws) {
    ws.set_option(websocket::stream_base::timeout::suggested(beast::role_type::client));
    ws.set_option(websocket::stream_base::decorator(
        [](websocket::request_type& req) { req.set(beast::http::field::user_agent, "cod-bot/0.1"); }));
    ws.async_handshake(host_header, target, [&](boost::system::error_code e) {
      ec = e;
      done = true;
    });
  });
  return result(ec, wait(done, deadline), "WebSocket handshake");
}

ws_client::status ws_client::send(const std::string& text, clock::time_point deadline) {
  boost::system::error_code ec;
  bool done = false;
  with_ws([&](auto& ws) {
    ws.text(true);
    ws.async_write(net::buffer(text), [&](boost::system::error_code e, std::size_t) {
      ec = e;
      done = true;
    });
  });
  return result(ec, wait(done, deadline), "write");
}

ws_client::status ws_client::read(std::string& out, clock::time_point deadline) {
  boost::system::error_code ec;
  bool done = false;
  buffer_.clear();
  with_ws([&](auto& ws) {
    ws.async_read(buffer_, [&](boost::system::error_code e, std::size_t) {
      ec = e;
      done = true;
    });
  });
  const auto s = result(ec, wait(done, deadline), "read");
  if (s == status::ok) out = beast::buffers_to_string(buffer_.data());
  return s;
}

void ws_client::close(clock::time_point deadline) {
  if (is_open()) {
    bool done = false;
    with_ws([&](auto& ws) {
      ws.async_close(websocket::close_code::normal, [&](boost::system::error_code) { done = true; });
    });
    wait(done, deadline);
  }
  boost::system::error_code ignored;
  tcp().socket().close(ignored);
}

}  // namespace cod::bot
