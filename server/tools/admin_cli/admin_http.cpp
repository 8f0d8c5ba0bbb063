#include "admin_cli/admin_http.hpp"

#include <charconv>
#include <chrono>
#include <cstdint>
#include <string_view>

#include "bot/http_call.hpp"

namespace cod::admin_tool {

namespace {

// "http[s]://HOST:PORT[/]" -> host, port, TLS; false when it is not that.
bool split_url(std::string url, std::string& host, std::string& port, bool& tls) {
  tls = url.rfind("https://", 0) == 0;
  const std::string_view scheme = tls ? "https://" : "http://";
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
    port = tls ? "443" : "80";
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
  bool tls = false;
  if (!split_url(url, host, port, tls)) {
    out.error = "--url is http://HOST:PORT or https://HOST:PORT, not '" + url + "'";
    return out;
  }
  std::uint16_t p = 0;
  const auto [end, ec] = std::from_chars(port.data(), port.data() + port.size(), p);
  if (ec != std::errc() || end != port.data() + port.size() || p == 0) {
    out.error = "bad port in --url '" + url + "'";
    return out;
  }
  // The admin API's POST bodies are JSON objects; these commands send none.
  auto a = bot::http_call(host, p, method, target, method == "POST" ? "{}" : "", token,
                          std::chrono::steady_clock::now() + std::chrono::seconds(timeout_s),
                          bot::tls_options{tls, {}});
  out.status = a.status;
  out.body = std::move(a.body);
  if (a.status == 0) out.error = url + ": " + a.error;
  return out;
}

}  // namespace cod::admin_tool
