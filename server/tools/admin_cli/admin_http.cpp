#include "admin_cli/admin_http.hpp"

#include <chrono>

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http.hpp>

namespace cod::admin_tool {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;

namespace {

// "http://HOST:PORT[/]" -> host, port; false when it is not that.
bool split_url(std::string url, std::string& host, std::string& port) {
  constexpr std::string_view scheme = "http://";
  if (url.compare(0, scheme.size(), scheme) != 0) return false;
  url.erase(0, scheme.size());
  if (!url.empty() && url.back() == '/') url.pop_back();
  if (url.find('/') != std::string::npos) return false;
  const auto colon = url.rfind(':');
  if (url.empty() || url.front() == '[') {  // [IPv6]:port
    const auto end = url.find(']');
    if (end == std::string::npos || end + 1 >= url.size() || url[end + 1] != ':') return false;
    host = url.substr(1, end - 1);
    port = url.substr(end + 2);
  } else if (colon == std::string::npos) {
    host = url;
    port = "80";
  } else {
    host = url.substr(0, colon);
    port = url.substr(colon + 1);
  }
  return !host.empty() && !port.empty();
}

}  // namespace

http_answer admin_request(const std::string& url, const std::string& token, const std::string& method,
                          const std::string& target, int timeout_s) {
  http_answer out;
  std::string host, port;
  if (!split_url(url, host, port)) {
    out.error = "--url is http://HOST:PORT (plain HTTP; the server's own listener), not '" + url + "'";
    return out;
  }
  try {
    net::io_context ioc;
    net::ip::tcp::resolver resolver(ioc);
    beast::tcp_stream stream(ioc);
    stream.expires_after(std::chrono::seconds(timeout_s));
    stream.connect(resolver.resolve(host, port));
    http::request<http::string_body> req{http::string_to_verb(method), target, 11};
    req.set(http::field::host, host);
    req.set(http::field::user_agent, "cod-admin");
    req.set(http::field::authorization, "Bearer " + token);
    if (method == "POST") {
      // The admin API's POST bodies are JSON objects; these commands send none.
      req.set(http::field::content_type, "application/json");
      req.body() = "{}";
    }
    req.prepare_payload();
    http::write(stream, req);
    beast::flat_buffer buf;
    http::response<http::string_body> res;
    http::read(stream, buf, res);
    out.status = static_cast<int>(res.result_int());
    out.body = std::move(res.body());
    beast::error_code ignored;
    stream.socket().shutdown(net::ip::tcp::socket::shutdown_both, ignored);
  } catch (const std::exception& e) {
    out.error = url + ": " + e.what();
  }
  return out;
}

}  // namespace cod::admin_tool
