// One blocking HTTP/1.1 request with a deadline, for the tools that sign in
// through the account API before they play (cod-bot --guest/--account:
// docs/accounts.md): plain or TLS (a cluster's proxy), JSON in and out.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

#include "bot/ws_client.hpp"

namespace cod::bot {

struct http_answer {
  int status = 0;     // 0: no answer (error says why)
  std::string body;
  std::string error;
};

// `method` "GET", "POST"...; `body` sent as application/json when not
// empty; `bearer`: an Authorization: Bearer token when not empty.
http_answer http_call(const std::string& host, std::uint16_t port, const std::string& method,
                      const std::string& target, const std::string& body, const std::string& bearer,
                      std::chrono::steady_clock::time_point deadline, const tls_options& tls = {});

}  // namespace cod::bot
