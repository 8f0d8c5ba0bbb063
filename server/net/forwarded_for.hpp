// The client behind a trusted proxy (config::trusted_proxies): the address
// its X-Forwarded-For names last, the one the proxy itself saw (a client
// may send its own X-Forwarded-For: the proxy appends to it, so only the
// last entry is the proxy's word).
#pragma once

#include <string>
#include <string_view>
#include <unordered_set>

namespace cod::server {

// "127.0.0.1, 10.0.0.5" -> {"127.0.0.1", "10.0.0.5"} (blanks and empty
// entries skipped).
std::unordered_set<std::string> parse_trusted_proxies(std::string_view list);

// `peer`: the TCP peer's IP address. `forwarded_for`: the request's
// X-Forwarded-For values, joined by commas ("" when it has none). The
// client's address: the last entry when `peer` is trusted and there is
// one, else `peer`.
std::string client_address(const std::string& peer, std::string_view forwarded_for,
                           const std::unordered_set<std::string>& trusted);

// A request's X-Forwarded-For values joined by commas (Fields: Beast's
// http::fields; a header may come more than once).
template <class Fields>
std::string forwarded_for_of(const Fields& fields) {
  std::string out;
  auto [it, end] = fields.equal_range("X-Forwarded-For");
  for (; it != end; ++it) {
    if (!out.empty()) out += ',';
    out.append(it->value().data(), it->value().size());
  }
  return out;
}

}  // namespace cod::server
