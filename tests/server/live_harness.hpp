// The whole server in-process on 127.0.0.1 (an ephemeral port, a temporary
// SQLite file) and the Beast clients the end-to-end tests talk to it with
// (test_e2e.cpp, test_abuse.cpp).
#pragma once

#include <chrono>
#include <filesystem>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
#include <doctest/doctest.h>
#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include "app/server.hpp"
#include "common/config.hpp"

namespace cod::server::test {

namespace live {
namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
namespace net = boost::asio;
using tcp = net::ip::tcp;
using nlohmann::json;
using namespace std::chrono_literals;
}  // namespace live
using namespace live;

inline std::filesystem::path temp_dir(const std::string& name) {
  std::random_device rd;
  auto dir = std::filesystem::temp_directory_path() / (name + "-" + std::to_string(rd()));
  std::filesystem::remove_all(dir);
  return dir;  // the server creates it (the db's directory)
}

inline cod::server::config base_config(const std::filesystem::path& dir) {
  cod::server::config cfg;
  cfg.port = 0;
  cfg.threads = 2;
  cfg.catalogue = COD_CATALOGUE_PATH;
  cfg.db = (dir / "db" / "cod.db").string();
  cfg.shutdown_timeout_ms = 2000;
  return cfg;
}

struct live_server {
  cod::server::server srv;
  explicit live_server(const cod::server::config& cfg) : srv(cfg) {
    spdlog::set_level(spdlog::level::warn);
    const cod::server::status started = srv.start();
    REQUIRE_MESSAGE(started, started.message());
    srv.run();
  }
  ~live_server() {
    srv.stop();
    srv.wait();
  }
  std::uint16_t port() const { return srv.port(); }
};

class ws_client {
 public:
  // `from`: the local address to connect from (127.0.0.2 is another client
  // address on loopback, for the per-address limits).
  explicit ws_client(std::uint16_t port, int rcvbuf = 0, const char* from = nullptr) {
    auto& sock = beast::get_lowest_layer(ws_).socket();
    if (rcvbuf || from) sock.open(tcp::v4());
    if (rcvbuf) sock.set_option(net::socket_base::receive_buffer_size(rcvbuf));
    if (from) sock.bind(tcp::endpoint(net::ip::make_address(from), 0));
    beast::get_lowest_layer(ws_).connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port));
    std::string host = "127.0.0.1:";
    host += std::to_string(port);
    ws_.handshake(host, "/ws");
  }

  bool send(const json& j) { return send_raw(j.dump()); }
  bool send_raw(const std::string& text, bool binary = false) {
    beast::error_code ec;
    ws_.binary(binary);
    ws_.write(net::buffer(text), ec);
    return !ec;
  }

  // The next message, or nullopt when the connection ends or `timeout` passes.
  std::optional<json> read(std::chrono::milliseconds timeout = 10s) {
    if (ended) return std::nullopt;
    buffer_.clear();
    bool done = false;
    beast::error_code ec;
    ws_.async_read(buffer_, [&](beast::error_code e, std::size_t) {
      ec = e;
      done = true;
    });
    ioc_.restart();
    ioc_.run_for(timeout);
    if (!done) {
      beast::get_lowest_layer(ws_).cancel();
      ioc_.restart();
      ioc_.run();
      timed_out = true;
      ended = true;
      return std::nullopt;
    }
    if (ec) {
      ended = true;
      error = ec;
      if (ec == websocket::error::closed) close = ws_.reason();
      return std::nullopt;
    }
    ++received;
    return json::parse(beast::buffers_to_string(buffer_.data()));
  }

  // Reads until a message of `type`; everything read is appended to `log`.
  json expect(const std::string& type, std::chrono::milliseconds timeout = 10s) {
    for (;;) {
      auto m = read(timeout);
      INFO("waiting for " << type << "; connection ended: " << error.message());
      REQUIRE(m.has_value());
      log.push_back(*m);
      if (m->at("type") == type) return *m;
    }
  }

  // Reads until the connection ends; returns what came before.
  std::vector<json> drain(std::chrono::milliseconds timeout = 10s) {
    std::vector<json> out;
    while (auto m = read(timeout)) out.push_back(*m);
    return out;
  }

  void hello() {
    send({{"type", "hello"}, {"version", 1}, {"client", "e2e"}});
    expect("welcome");
  }

  std::vector<json> log;
  bool ended = false;
  bool timed_out = false;
  int received = 0;
  beast::error_code error;
  std::optional<websocket::close_reason> close;

 private:
  net::io_context ioc_;
  websocket::stream<beast::tcp_stream> ws_{ioc_};
  beast::flat_buffer buffer_;
};

struct http_reply {
  unsigned status = 0;
  std::string body;
  std::string content_type;
  std::string cache_control;
  std::string location;
};

// `from`: the local address to connect from (as ws_client's).
inline http_reply http_get(std::uint16_t port, const std::string& target, const char* from = nullptr) {
  net::io_context ioc;
  beast::tcp_stream stream(ioc);
  if (from) {
    stream.socket().open(tcp::v4());
    stream.socket().bind(tcp::endpoint(net::ip::make_address(from), 0));
  }
  stream.connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port));
  http::request<http::empty_body> req{http::verb::get, target, 11};
  req.set(http::field::host, "127.0.0.1");
  http::write(stream, req);
  beast::flat_buffer b;
  http::response<http::string_body> res;
  http::read(stream, b, res);
  beast::error_code ec;
  stream.socket().shutdown(tcp::socket::shutdown_both, ec);
  return {res.result_int(), res.body(), std::string(res[http::field::content_type]),
          std::string(res[http::field::cache_control]), std::string(res[http::field::location])};
}

}  // namespace cod::server::test
