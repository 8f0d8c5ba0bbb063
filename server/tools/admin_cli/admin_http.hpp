// One request to a running cod-server's admin API over HTTP, for cod-admin's
// commands that change the server's state (accounts): the server holds the
// owner lock on its SQLite file, so those go through the API, never the
// file (docs/admin.md, "cod-admin"). Blocking, through the tools' one HTTP
// client (bot/http_call.hpp): http:// to the server's own listener, or
// https:// through a TLS proxy.
#pragma once

#include <string>

namespace cod::admin_tool {

struct http_answer {
  int status = 0;     // 0: no answer (error says why)
  std::string body{};
  std::string error{};
};

// `url`: "http://HOST:PORT" or "https://HOST:PORT" (a trailing '/' allowed); `target`: "/admin/api/...".
// The token goes as "Authorization: Bearer <token>". Gives up after `timeout_s`.
http_answer admin_request(const std::string& url, const std::string& token, const std::string& method,
                          const std::string& target, int timeout_s = 30);

}  // namespace cod::admin_tool
