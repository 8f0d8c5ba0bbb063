#include "net/forwarded_for.hpp"

namespace cod::server {

namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

}  // namespace

std::unordered_set<std::string> parse_trusted_proxies(std::string_view list) {
  std::unordered_set<std::string> out;
  while (!list.empty()) {
    const auto comma = list.find(',');
    const auto entry = trim(list.substr(0, comma));
    if (!entry.empty()) out.emplace(entry);
    if (comma == std::string_view::npos) break;
    list.remove_prefix(comma + 1);
  }
  return out;
}

std::string client_address(const std::string& peer, std::string_view forwarded_for,
                           const std::unordered_set<std::string>& trusted) {
  if (!trusted.count(peer)) return peer;
  const auto comma = forwarded_for.rfind(',');
  const auto last = trim(comma == std::string_view::npos ? forwarded_for : forwarded_for.substr(comma + 1));
  // An address is short and plain; anything else is not the proxy's word.
  if (last.empty() || last.size() > 45) return peer;
  for (char c : last)
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F') || c == '.' || c == ':'))
      return peer;
  return std::string(last);
}

}  // namespace cod::server
